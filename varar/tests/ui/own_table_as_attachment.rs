use varar::stimulus;

#[derive(Default)]
pub struct Table {
    seats: u32,
}

// Only its type could say whether `Table` is the document's table or this
// step's state: written bare, it is taken for varar's, and the trait says
// it is not (write `crate::Table` to make it the state).
#[stimulus("the table is laid")]
fn lay(table: &Table) {
    let _ = table.seats;
}

fn main() {}
