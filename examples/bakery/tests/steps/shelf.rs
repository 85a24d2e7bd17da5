//! Steps about the shelf behind the counter. Their state is one `Shelf` per
//! example, separate from the till's.

use bakery::{Shelf, ShelfError};
use varar::{Row, sensor, stimulus};

#[stimulus("the baker puts {int} {word} on the shelf")]
fn puts(shelf: &mut Shelf, quantity: i64, item: String) {
    shelf.stock(quantity, &item);
}

#[stimulus("I sell {int} {word} from the shelf")]
fn sell(shelf: &mut Shelf, quantity: i64, item: String) -> Result<(), ShelfError> {
    shelf.sell(quantity, &item)
}

/// Two slots: the item is an input handed back unchanged; the count is
/// compared with the number in the sentence.
#[sensor("{int} {word} are left on the shelf")]
fn left(shelf: &Shelf, _count: i64, item: String) -> (i64, String) {
    (shelf.count(&item), item)
}

/// Header-bound table: called once per row with the row's cells; the
/// returned row holds the computed `closing` column, which is compared with
/// the table. Columns it does not return are inputs.
#[sensor("the opening stock, how many were baked, how many were sold and the closing stock")]
fn one_day(shelf: &mut Shelf, row: Row) -> Result<Row, String> {
    shelf.stock(row.parse("opening")?, "baguettes");
    shelf.stock(row.parse("baked")?, "baguettes");
    shelf
        .sell(row.parse("sold")?, "baguettes")
        .map_err(|e| e.to_string())?;
    Ok(Row::default().with("closing", shelf.count("baguettes")))
}
