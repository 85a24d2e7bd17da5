//! The eight steps of the shared benchmark corpus (a bank ledger).
//!
//! This file is compiled twice: into `varar-bench` itself (so the in-process
//! parse+plan measurement plans against the real registry) and, copied
//! verbatim, into the generated project whose `cargo test` is timed.

use varar::{DocString, Row, Table, sensor, stimulus};

/// One account per example: balance, label and the statement lines.
#[derive(Default)]
pub struct Account {
    balance: i64,
    label: String,
    statement: String,
}

impl Account {
    fn deposit(&mut self, amount: i64) {
        self.balance += amount;
        self.statement.push_str(&format!("deposit {amount}\n"));
    }

    fn withdraw(&mut self, amount: i64) {
        self.balance -= amount;
        self.statement.push_str(&format!("withdraw {amount}\n"));
    }
}

#[stimulus("{word} deposits {int}")]
fn deposits(account: &mut Account, _who: String, amount: i64) {
    account.deposit(amount);
}

#[stimulus("{word} withdraws {int}")]
fn withdraws(account: &mut Account, _who: String, amount: i64) {
    account.withdraw(amount);
}

#[stimulus("the account is labelled {string}")]
fn labelled(account: &mut Account, label: String) {
    account.label = label;
}

#[stimulus("the following transactions are applied")]
fn transactions(account: &mut Account, table: Table) -> Result<(), String> {
    for row in table.data_rows() {
        let kind = row.first().map(String::as_str).unwrap_or("");
        let amount: i64 = row
            .get(1)
            .ok_or_else(|| format!("row {row:?} has no amount"))?
            .parse()
            .map_err(|e| format!("bad amount in {row:?}: {e}"))?;
        match kind {
            "deposit" => account.deposit(amount),
            "withdraw" => account.withdraw(amount),
            other => return Err(format!("unknown transaction kind {other:?}")),
        }
    }
    Ok(())
}

#[sensor("the balance is {int}")]
fn balance(account: &Account) -> i64 {
    account.balance
}

#[sensor("the label reads {string}")]
fn label(account: &Account) -> String {
    account.label.clone()
}

#[sensor("The statement reads:")]
fn statement(account: &Account, _expected: DocString) -> String {
    format!("{}balance {}\n", account.statement, account.balance)
}

#[sensor("an opening balance, a deposit, a withdrawal and the closing balance")]
fn closing(row: Row) -> Result<Row, String> {
    let opening: i64 = row.parse("opening")?;
    let deposit: i64 = row.parse("deposit")?;
    let withdrawal: i64 = row.parse("withdrawal")?;
    Ok(Row::default().with("closing", opening + deposit - withdrawal))
}
