//! The eight steps of the shared benchmark corpus (a bank ledger) for
//! cucumber-rs: the same expressions and bodies as `bench/src/steps.rs`,
//! with each sensor written as a `then` step that compares what it reads
//! with the document's value and panics on a mismatch.

use cucumber::gherkin::Step;
use cucumber::{World, then, when};

/// One account per scenario: balance, label and the statement lines.
#[derive(Debug, Default, World)]
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

#[when(expr = "{word} deposits {int}")]
fn deposits(account: &mut Account, _who: String, amount: i64) {
    account.deposit(amount);
}

#[when(expr = "{word} withdraws {int}")]
fn withdraws(account: &mut Account, _who: String, amount: i64) {
    account.withdraw(amount);
}

#[when(expr = "the account is labelled {string}")]
fn labelled(account: &mut Account, label: String) {
    account.label = label;
}

#[when(expr = "the following transactions are applied")]
fn transactions(account: &mut Account, step: &Step) -> Result<(), String> {
    let table = step.table.as_ref().ok_or("no data table")?;
    for row in table.rows.iter().skip(1) {
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

#[then(expr = "the balance is {int}")]
fn balance(account: &mut Account, expected: i64) {
    assert_eq!(account.balance, expected, "the balance");
}

#[then(expr = "the label reads {string}")]
fn label(account: &mut Account, expected: String) {
    assert_eq!(account.label, expected, "the label");
}

#[then(expr = "The statement reads:")]
fn statement(account: &mut Account, step: &Step) {
    let actual = format!("{}balance {}\n", account.statement, account.balance);
    let expected = step.docstring.as_deref().unwrap_or("");
    assert_eq!(actual.trim_end(), expected.trim(), "the statement");
}

/// The header-bound row: a two-row table (the header, then the row).
#[then(expr = "an opening balance, a deposit, a withdrawal and the closing balance")]
fn closing(_account: &mut Account, step: &Step) -> Result<(), String> {
    let table = step.table.as_ref().ok_or("no data table")?;
    let (Some(header), Some(row)) = (table.rows.first(), table.rows.get(1)) else {
        return Err("the table needs a header and a row".to_string());
    };
    let cell = |column: &str| -> Result<i64, String> {
        header
            .iter()
            .position(|h| h == column)
            .and_then(|i| row.get(i))
            .ok_or_else(|| format!("no {column} column"))?
            .parse()
            .map_err(|e| format!("bad {column}: {e}"))
    };
    let closing = cell("opening")? + cell("deposit")? - cell("withdrawal")?;
    assert_eq!(closing, cell("closing")?, "the closing balance");
    Ok(())
}
