//! Writing the lock byte for byte as the reference does (spec 40 §4.3), so a
//! clean re-run leaves no git diff.

use crate::json::write::push_int;
use crate::json::{cmp_utf16, write_string};

use super::model::Lock;

/// Serialise exactly as `JSON.stringify({version: 2, oaths}, null, 2) + "\n"`
/// (§4.3): fixed member order, oath paths sorted by UTF-16 code units.
pub fn serialize_lock(lock: &Lock) -> String {
    let mut out = String::with_capacity(serialized_len(lock));
    out.push_str("{\n  \"version\": 2,\n  \"oaths\": ");
    if lock.oaths.is_empty() {
        out.push_str("{}\n}\n");
        return out;
    }
    let mut paths: Vec<&String> = lock.oaths.keys().collect();
    paths.sort_by(|a, b| cmp_utf16(a, b));
    out.push('{');
    for (i, path) in paths.into_iter().enumerate() {
        let Some(entry) = lock.oaths.get(path) else {
            continue;
        };
        out.push_str(if i == 0 { "\n    " } else { ",\n    " });
        write_string(&mut out, path);
        out.push_str(": {\n      \"sourceHash\": ");
        write_string(&mut out, &entry.source_hash);
        out.push_str(",\n      \"examples\": ");
        if entry.examples.is_empty() {
            out.push_str("[]");
        } else {
            out.push('[');
            for (j, ex) in entry.examples.iter().enumerate() {
                out.push_str(if j == 0 { "\n" } else { ",\n" });
                out.push_str("        {\n          \"name\": ");
                write_string(&mut out, &ex.name);
                // A line without the formatting machinery, slow unoptimised.
                out.push_str(",\n          \"line\": ");
                push_int(&mut out, ex.line);
                out.push_str("\n        }");
            }
            out.push_str("\n      ]");
        }
        out.push_str("\n    }");
    }
    out.push_str("\n  }\n}\n");
    out
}

/// The length of [`serialize_lock`]'s text when no string needs an escape
/// (nearly always): grown by doubling, the text of a lock of thousands of
/// examples took half as much room again as it needed, at the run's end
/// (issue 39).
fn serialized_len(lock: &Lock) -> usize {
    // The fixed parts of an oath's entry (69 bytes) and of an example's
    // (61, and a line of up to six digits), as written above, rounded up.
    const OATH: usize = 80;
    const EXAMPLE: usize = 72;
    let examples = lock.oaths.iter().map(|(path, entry)| {
        let names: usize = entry.examples.iter().map(|e| e.name.len() + EXAMPLE).sum();
        path.len() + entry.source_hash.len() + OATH + names
    });
    32 + examples.sum::<usize>()
}
