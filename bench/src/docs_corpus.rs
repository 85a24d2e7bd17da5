//! The documentation-shaped corpus (issue 39): the same eight steps and the
//! same kinds of examples as the shared ledger corpus ([`crate::corpus`]),
//! laid out the way a project's documentation is: an introduction, several
//! sections, paragraphs of prose several sentences long between the
//! examples, bullet lists, block quotes and code blocks that are not doc
//! strings, more doc strings and data tables, and two header-bound tables
//! per oath. About 8 KB per 25-example oath, where the ledger corpus has
//! about 2.5 KB.
//!
//! Written in Rust rather than as a second Python script: it is ours, not
//! vendored, and it writes the same `corpus.manifest.json` counts that
//! [`crate::corpus::read`] reads, so every consumer of a [`Corpus`] (the
//! `.feature` writer for cucumber-rs included) takes it unchanged.
//! Deterministic: the same seed gives the same bytes.

use std::fmt::Write as _;
use std::path::Path;

use crate::corpus::{self, Corpus};
use crate::e2e::write;

const NAMES: &[&str] = &[
    "Ada", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu", "Mo", "Ned",
    "Oz", "Pia", "Quin", "Rae", "Sam", "Tia",
];
const LABELS: &[&str] = &[
    "Holiday fund",
    "Rainy day",
    "New bike",
    "Groceries",
    "Rent pot",
    "Birthday gifts",
    "Emergency",
    "Garden shed",
    "School trip",
    "Winter coat",
];
const THEMES: &[&str] = &[
    "household ledger",
    "club treasury",
    "savings jar",
    "shop till",
    "travel wallet",
    "pocket money",
    "team kitty",
    "book fund",
];
/// Prose: no sentence may match one of the eight steps (no "deposits",
/// "withdraws", "labelled", "reads", "is applied" or "balance is").
const PROSE: &[&str] = &[
    "Nothing in this paragraph is checked; it only sets the scene for the reader.",
    "Accounts are opened empty, and every example starts again from nothing.",
    "A ledger is only as good as the habits of whoever keeps it.",
    "The bank rounds nothing here: every amount is a whole number of coins.",
    "Tellers like tidy books, and so do auditors.",
    "Keep an eye on overdrafts; they creep up quietly.",
    "Interest is never paid on these accounts, which keeps the sums simple.",
    "Statements are printed one line per movement, newest last.",
    "The following example was reported by a customer last spring.",
    "Most of the questions the help desk answers are about this part of the book.",
    "When two people share an account, both of them see every movement on it.",
    "Coins are counted twice at the end of the day, once by each clerk.",
    "A movement that cannot be explained is written down and looked into the next morning.",
    "The figures below come from real ledgers, with the names changed.",
    "Nobody is charged a fee for keeping a small amount in the jar.",
    "Receipts are kept for seven years, then shredded.",
    "The first page of every ledger names its keeper and the date it was opened.",
    "Large sums are announced to the treasurer before they arrive.",
    "It helps to write the reason for a movement in the margin.",
    "Mistakes are corrected with a new line, never by crossing out an old one.",
];
const SECTIONS: &[&str] = &[
    "Getting started",
    "A busy afternoon",
    "Labels help",
    "Round numbers",
    "A cautious spender",
    "After payday",
    "Saving up",
    "Quick errands",
];
const LIST_ITEMS: &[&str] = &[
    "every amount is a whole number of coins",
    "an account starts empty",
    "a movement is never deleted, only corrected",
    "the keeper signs the page at the end of each week",
    "two clerks count the coins",
    "a receipt goes with every movement",
    "large sums are announced in advance",
    "the ledger stays in the office overnight",
];
const CODE: &[&str] = &[
    "```sh\nledger export --month 2026-03 > march.csv\n```",
    "```toml\n[ledger]\nkeeper = \"the treasurer\"\ncurrency = \"coins\"\n```",
    "```rust\nlet total: i64 = movements.iter().map(|m| m.amount).sum();\n```",
    "```json\n{ \"keeper\": \"the treasurer\", \"pages\": 48 }\n```",
];

/// A small deterministic generator (SplitMix64): the corpus must be the same
/// for every run of the bench and both projects.
struct Rng(u64);

impl Rng {
    fn new(seed: u64, oath: usize) -> Rng {
        Rng(seed ^ (oath as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD0C5)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo + 1) as u64)) as i64
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[(self.next() % from.len() as u64) as usize]
    }
}

/// How one oath's examples are split between the kinds.
struct Layout {
    rows: [usize; 2],
    docs: usize,
    tables: usize,
    singles: usize,
}

impl Layout {
    fn of(m: usize) -> Layout {
        if m < 8 {
            return Layout {
                rows: [0, 0],
                docs: usize::from(m >= 2),
                tables: usize::from(m >= 3),
                singles: m - usize::from(m >= 2) - usize::from(m >= 3),
            };
        }
        let rows = (m * 3).div_ceil(10);
        let docs = (m * 12).div_ceil(100);
        let tables = (m * 8).div_ceil(100);
        Layout {
            rows: [rows / 2, rows - rows / 2],
            docs,
            tables,
            singles: m - rows - docs - tables,
        }
    }
}

/// Generate `oaths` × `examples` into `dir` (replacing what was there) and
/// read it back.
pub fn generate(dir: &Path, oaths: usize, examples: usize, seed: u64) -> Result<Corpus, String> {
    crate::paths::fresh_generated_dir(dir)?;
    let total = oaths * examples;
    let failing = planted(total, seed);
    for i in 0..oaths {
        let rel = format!("varar/shard-{:03}/guide-{i:04}.md", i / 100);
        let fails: Vec<usize> = failing
            .iter()
            .filter(|&&f| f / examples == i)
            .map(|f| f % examples)
            .collect();
        write(&dir.join(rel), &oath(seed, i, examples, &fails))?;
    }
    write(
        &dir.join("varar.config.json"),
        "{\n  \"docs\": { \"include\": [\"varar/**/*.md\"], \"exclude\": [] },\n  \"steps\": [\"steps/*.steps.py\"]\n}\n",
    )?;
    write(
        &dir.join("corpus.manifest.json"),
        &format!(
            "{{\n  \"shape\": \"docs\",\n  \"seed\": {seed},\n  \"oaths\": {oaths},\n  \"examples_per_oath\": {examples},\n  \"examples_total\": {total},\n  \"expected_failures\": {}\n}}\n",
            failing.len()
        ),
    )?;
    corpus::read(dir)
}

/// 1% of `total` (at least one) example ordinals, spread by the seed.
fn planted(total: usize, seed: u64) -> Vec<usize> {
    if total == 0 {
        return Vec::new();
    }
    let want = (total / 100).max(1);
    let mut rng = Rng::new(seed, usize::MAX);
    let mut out = std::collections::BTreeSet::new();
    while out.len() < want {
        out.insert((rng.next() % total as u64) as usize);
    }
    out.into_iter().collect()
}

/// One oath of `m` examples; `fails` holds the ordinals to break (rows of
/// the first table, rows of the second, doc strings, tables, singles).
fn oath(seed: u64, i: usize, m: usize, fails: &[usize]) -> String {
    let mut rng = Rng::new(seed, i);
    let l = Layout::of(m);
    let fail = |ordinal: usize| fails.contains(&ordinal);
    let mut blocks: Vec<String> = vec![
        format!("# Guide {i}: the {}", rng.pick(THEMES)),
        prose(&mut rng, 4),
        prose(&mut rng, 3),
        list(&mut rng),
        rng.pick(CODE).to_owned(),
        prose(&mut rng, 2),
    ];
    let mut ordinal = 0;
    let first_half = l.singles / 2;
    let singles = |rng: &mut Rng, blocks: &mut Vec<String>, count: usize, at: &mut usize| {
        for k in 0..count {
            if k > 0 {
                blocks.push(between(rng, k));
            }
            blocks.push(single(rng, fail(*at)));
            *at += 1;
        }
    };
    let mut at = l.rows[0] + l.rows[1] + l.docs + l.tables;
    blocks.push(format!("## {}", rng.pick(SECTIONS)));
    blocks.push(prose(&mut rng, 3));
    singles(&mut rng, &mut blocks, first_half, &mut at);
    for (t, &rows) in l.rows.iter().enumerate() {
        if rows == 0 {
            continue;
        }
        blocks.push(
            if t == 0 {
                "## Monthly summary"
            } else {
                "## Quarterly summary"
            }
            .to_owned(),
        );
        blocks.push(prose(&mut rng, 3));
        let broken: Vec<usize> = (0..rows).filter(|r| fail(ordinal + r)).collect();
        blocks.push(header_bound(&mut rng, rows, &broken));
        ordinal += rows;
        blocks.push(prose(&mut rng, 2));
    }
    if l.docs > 0 {
        blocks.push("## Statements".to_owned());
        blocks.push(prose(&mut rng, 3));
        for k in 0..l.docs {
            if k > 0 {
                blocks.push(prose(&mut rng, 2));
            }
            blocks.push(doc_string(&mut rng, fail(ordinal)));
            ordinal += 1;
        }
    }
    if l.tables > 0 {
        blocks.push("## Batches of movements".to_owned());
        blocks.push(prose(&mut rng, 2));
        for k in 0..l.tables {
            if k > 0 {
                blocks.push(quote(&mut rng));
            }
            blocks.push(transactions(&mut rng, fail(ordinal)));
            ordinal += 1;
        }
    }
    blocks.push(format!("## {}", rng.pick(SECTIONS)));
    blocks.push(prose(&mut rng, 3));
    singles(&mut rng, &mut blocks, l.singles - first_half, &mut at);
    blocks.push("## Notes".to_owned());
    blocks.push(prose(&mut rng, 4));
    blocks.push(list(&mut rng));
    blocks.push(prose(&mut rng, 2));
    blocks.join("\n\n") + "\n"
}

/// `n` prose sentences as one paragraph.
fn prose(rng: &mut Rng, n: usize) -> String {
    (0..n)
        .map(|_| rng.pick(PROSE))
        .collect::<Vec<_>>()
        .join(" ")
}

fn list(rng: &mut Rng) -> String {
    let mut out = String::from("The house rules, in short:\n");
    for _ in 0..4 {
        let _ = write!(out, "\n- {}", rng.pick(LIST_ITEMS));
    }
    out
}

fn quote(rng: &mut Rng) -> String {
    format!("> {}\n> {}", rng.pick(PROSE), rng.pick(PROSE))
}

/// What separates two single examples: mostly prose, sometimes a list, a
/// quote, a code block after prose, or a rule.
fn between(rng: &mut Rng, k: usize) -> String {
    match k % 6 {
        1 => prose(rng, 3),
        2 => format!("{}\n\n{}", prose(rng, 2), rng.pick(CODE)),
        3 => quote(rng),
        4 => format!("{}\n\n---", prose(rng, 2)),
        5 => list(rng),
        _ => prose(rng, 4),
    }
}

fn single(rng: &mut Rng, fail: bool) -> String {
    let name = rng.pick(NAMES);
    let a = rng.range(5, 500);
    let off = if fail { rng.range(1, 9) } else { 0 };
    match rng.next() % 3 {
        0 => format!("{name} deposits {a} coins, so the balance is {}.", a + off),
        1 => {
            let b = rng.range(1, a);
            format!(
                "{name} deposits {a} and later {name} withdraws {b}. After that the balance is {}.",
                a - b + off
            )
        }
        _ => {
            let label = rng.pick(LABELS);
            let shown = if fail {
                format!("{label} (old)")
            } else {
                label.to_owned()
            };
            format!(
                "Suppose the account is labelled \"{label}\" and {name} deposits {a}. Now the label reads \"{shown}\" and the balance is {a}."
            )
        }
    }
}

fn header_bound(rng: &mut Rng, rows: usize, broken: &[usize]) -> String {
    let mut out = String::from(
        "Each row shows an opening balance, a deposit, a withdrawal and the closing balance:\n\n\
         | opening | deposit | withdrawal | closing |\n\
         | ------: | ------: | ---------: | ------: |",
    );
    for r in 0..rows {
        let (o, d) = (rng.range(0, 300), rng.range(0, 300));
        let w = rng.range(0, o + d);
        let off = if broken.contains(&r) {
            rng.range(1, 9)
        } else {
            0
        };
        let _ = write!(out, "\n| {o} | {d} | {w} | {} |", o + d - w + off);
    }
    out
}

fn doc_string(rng: &mut Rng, fail: bool) -> String {
    let name = rng.pick(NAMES);
    let a = rng.range(20, 400);
    let b = rng.range(1, a);
    let off = if fail { rng.range(1, 9) } else { 0 };
    format!(
        "{name} deposits {a} and then {name} withdraws {b}. The statement reads:\n\n\
         ```text\ndeposit {a}\nwithdraw {b}\nbalance {}\n```",
        a - b + off
    )
}

fn transactions(rng: &mut Rng, fail: bool) -> String {
    let mut out = String::from(
        "Given the following transactions are applied:\n\n| kind | amount |\n| ---- | -----: |",
    );
    let mut balance = 0;
    for _ in 0..rng.range(3, 6) {
        if balance > 0 && rng.next() % 10 < 4 {
            let amount = rng.range(1, balance);
            let _ = write!(out, "\n| withdraw | {amount} |");
            balance -= amount;
        } else {
            let amount = rng.range(1, 200);
            let _ = write!(out, "\n| deposit | {amount} |");
            balance += amount;
        }
    }
    let off = if fail { rng.range(1, 9) } else { 0 };
    let _ = write!(out, "\n\nThen the balance is {}.", balance + off);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_add_up() {
        for m in 1..60 {
            let l = Layout::of(m);
            assert_eq!(
                l.rows[0] + l.rows[1] + l.docs + l.tables + l.singles,
                m,
                "{m}"
            );
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_oath_and_about_8_kb() {
        let a = oath(1, 7, 25, &[3]);
        assert_eq!(a, oath(1, 7, 25, &[3]));
        assert_ne!(a, oath(2, 7, 25, &[3]));
        assert!((6_000..11_000).contains(&a.len()), "{} bytes", a.len());
    }
}
