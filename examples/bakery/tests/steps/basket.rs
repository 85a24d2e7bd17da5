//! Steps about the till: the menu, the basket, paying and the receipt.
//! Their state is one `Till` per example.

use bakery::{Menu, Money, Till, TillError};
use varar::{DocString, Table, sensor, stimulus};

/// A table fed to a stimulus: each data row is `| item | price |`.
#[stimulus("the menu is")]
fn menu_is(till: &mut Till, table: Table) -> Result<(), String> {
    let mut menu = Menu::empty();
    for row in table.records() {
        let item = row.get("item").ok_or("the table needs an item column")?;
        let price: Money = row.parse("price")?;
        menu.set(item, price);
    }
    till.set_menu(menu);
    Ok(())
}

#[stimulus("I put {int} {word} in the basket")]
fn put(till: &mut Till, quantity: i64, item: String) -> Result<(), TillError> {
    till.put(quantity, &item)
}

#[stimulus("I ask for a receipt made out to {string}")]
fn make_out_to(till: &mut Till, customer: String) {
    till.make_out_to(&customer);
}

/// One slot: the number in the sentence is compared with the returned count.
#[sensor("the basket holds {int} items")]
fn holds(till: &Till) -> i64 {
    till.item_count()
}

#[sensor("the total is {money}")]
fn total(till: &Till) -> Money {
    till.total()
}

/// Two slots: the amount paid is an input, so it is handed back unchanged,
/// and the change is compared with the document.
#[sensor("I pay {money} and my change is {money}")]
fn change(till: &Till, paid: Money, _change: Money) -> Result<(Money, Money), TillError> {
    Ok((paid, till.pay(paid)?))
}

/// The doc string below the sentence is the slot: the whole printed receipt
/// is compared with it, final newline included.
#[sensor("the receipt reads")]
fn receipt(till: &Till, _expected: DocString) -> String {
    till.receipt()
}
