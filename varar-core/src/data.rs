//! The values a step function receives for a trailing table, a doc string or
//! a header-bound row (spec 30 §30.1.4, spec 50 §50.2).

use std::fmt;

/// A data table handed to a step: every row as trimmed cell strings, **header
/// row first**, ragged rows as written.
///
/// ```
/// # use varar_core::data::Table;
/// let t = Table::new(vec![vec!["kind".into(), "amount".into()], vec!["deposit".into(), "5".into()]]);
/// assert_eq!(t.header(), ["kind", "amount"]);
/// assert_eq!(t.data_rows().len(), 1);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table from rows, header first.
    pub fn new(rows: Vec<Vec<String>>) -> Self {
        Table { rows }
    }

    /// All rows, header first.
    pub fn rows(&self) -> &[Vec<String>] {
        &self.rows
    }

    /// The header row (empty if the table has no rows).
    pub fn header(&self) -> &[String] {
        self.rows.first().map(Vec::as_slice).unwrap_or(&[])
    }

    /// The rows after the header.
    pub fn data_rows(&self) -> &[Vec<String>] {
        self.rows.get(1..).unwrap_or(&[])
    }

    /// The data rows as header → cell maps (a missing cell reads `""`).
    pub fn records(&self) -> Vec<Row> {
        let header = self.header();
        self.data_rows()
            .iter()
            .map(|r| {
                let mut row = Row::default();
                for (i, h) in header.iter().enumerate() {
                    row.insert(h.clone(), r.get(i).cloned().unwrap_or_default());
                }
                row
            })
            .collect()
    }
}

/// A doc string handed to a step: the exact fence body (final newline
/// included) and the fence's info string.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DocString {
    /// The body exactly as written.
    pub content: String,
    /// The fence's info string, `""` when none.
    pub content_type: String,
}

impl DocString {
    /// The body as a string slice.
    pub fn as_str(&self) -> &str {
        &self.content
    }
}

impl fmt::Display for DocString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.content)
    }
}

impl std::ops::Deref for DocString {
    type Target = str;
    fn deref(&self) -> &str {
        &self.content
    }
}

/// One row of a header-bound table: header cell → row cell, in header order.
/// A sensor bound to a header-bound table takes the row as its last argument
/// and returns a row of the columns it computed.
///
/// ```
/// # use varar_core::data::Row;
/// let mut row = Row::default();
/// row.insert("opening", "10");
/// assert_eq!(row.get("opening"), Some("10"));
/// assert_eq!(row.get("closing"), None);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Row {
    entries: Vec<(String, String)>,
}

impl Row {
    /// Set a column; a column already present is replaced in place (so for a
    /// duplicate header, the later column wins).
    pub fn insert(&mut self, column: impl Into<String>, value: impl Into<String>) {
        let column = column.into();
        let value = value.into();
        match self.entries.iter_mut().find(|(c, _)| *c == column) {
            Some(e) => e.1 = value,
            None => self.entries.push((column, value)),
        }
    }

    /// Builder form of [`Row::insert`].
    pub fn with(mut self, column: impl Into<String>, value: impl ToString) -> Self {
        self.insert(column, value.to_string());
        self
    }

    /// The cell of a column.
    pub fn get(&self, column: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|(c, _)| c == column)
            .map(|(_, v)| v.as_str())
    }

    /// The cell of a column parsed as `T`, with a readable error.
    pub fn parse<T: std::str::FromStr>(&self, column: &str) -> Result<T, String> {
        let text = self
            .get(column)
            .ok_or_else(|| format!("the row has no column \"{column}\""))?;
        text.parse()
            .map_err(|_| format!("cannot read {text:?} in column \"{column}\""))
    }

    /// Columns and cells in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.entries.iter().map(|(c, v)| (c.as_str(), v.as_str()))
    }

    /// Number of columns.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the row has no columns.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl<K: Into<String>, V: Into<String>> FromIterator<(K, V)> for Row {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut row = Row::default();
        for (k, v) in iter {
            row.insert(k, v);
        }
        row
    }
}
