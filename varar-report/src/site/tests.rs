use super::*;
use crate::html_report::SiteFile;

fn site(files: &[(&str, &str)]) -> Site {
    Site {
        files: files
            .iter()
            .map(|(p, c)| SiteFile {
                path: (*p).into(),
                contents: (*c).into(),
            })
            .collect(),
    }
}

fn ok<T, E: std::fmt::Display>(r: Result<T, E>) -> T {
    r.unwrap_or_else(|e| panic!("{e}"))
}

fn names(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(base, &p, out);
            } else {
                out.push(
                    p.strip_prefix(base)
                        .unwrap_or(&p)
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }
    walk(dir, dir, &mut out);
    out.sort();
    out
}

#[test]
fn a_rerun_replaces_the_site_and_removes_only_its_own_old_pages() {
    let dir = ok(tempfile::tempdir());
    let out = dir.path().join("report");
    let first = site(&[
        ("index.html", "1"),
        ("oaths/varar/a.md.html", "a"),
        ("oaths/varar/old/b.md.html", "b"),
    ]);
    assert_eq!(ok(write_site(&out, &first)), out.join("index.html"));
    assert_eq!(
        names(&out),
        [
            ".varar-report",
            "index.html",
            "oaths/varar/a.md.html",
            "oaths/varar/old/b.md.html"
        ]
    );
    // A file the user put there is not ours and stays.
    ok(std::fs::write(out.join("oaths/varar/notes.txt"), "mine"));
    let second = site(&[("index.html", "2"), ("oaths/varar/a.md.html", "a")]);
    ok(write_site(&out, &second));
    assert_eq!(
        names(&out),
        [
            ".varar-report",
            "index.html",
            "oaths/varar/a.md.html",
            "oaths/varar/notes.txt"
        ]
    );
    assert_eq!(ok(std::fs::read_to_string(out.join("index.html"))), "2");
    assert!(
        !out.join("oaths/varar/old").exists(),
        "emptied directories go too"
    );
    let marker = ok(std::fs::read_to_string(out.join(MARKER)));
    assert_eq!(
        marker.lines().skip(1).collect::<Vec<_>>(),
        ["index.html", "oaths/varar/a.md.html"]
    );
}

#[test]
fn a_directory_that_is_not_a_report_is_refused_untouched() {
    let dir = ok(tempfile::tempdir());
    let out = dir.path().join("src");
    ok(std::fs::create_dir(&out));
    ok(std::fs::write(out.join("lib.rs"), "fn main() {}"));
    let err = write_site(&out, &site(&[("index.html", "x")]))
        .err()
        .map(|e| e.to_string());
    assert!(err.is_some_and(|e| e.contains("is not empty and is not a previous report")));
    assert_eq!(names(&out), ["lib.rs"]);
    // A marker that is not ours does not count either.
    ok(std::fs::write(out.join(MARKER), "something else\n"));
    assert!(matches!(
        write_site(&out, &site(&[("index.html", "x")])),
        Err(SiteError::NotAReport { .. })
    ));
    // A file where the directory should be.
    let file = dir.path().join("file");
    ok(std::fs::write(&file, "x"));
    assert!(matches!(
        write_site(&file, &site(&[])),
        Err(SiteError::NotADirectory { .. })
    ));
    // An empty directory is fine.
    let empty = dir.path().join("empty");
    ok(std::fs::create_dir(&empty));
    ok(write_site(&empty, &site(&[("index.html", "x")])));
}

#[test]
fn a_tampered_marker_never_deletes_outside_the_directory() {
    let dir = ok(tempfile::tempdir());
    let out = dir.path().join("report");
    ok(write_site(&out, &site(&[("index.html", "1")])));
    let victim = dir.path().join("victim.txt");
    ok(std::fs::write(&victim, "keep"));
    let marker = format!("{MARKER_HEADER}\n../victim.txt\n/etc/hostname\nindex.html\n");
    ok(std::fs::write(out.join(MARKER), marker));
    ok(write_site(&out, &site(&[("index.html", "2")])));
    assert_eq!(ok(std::fs::read_to_string(&victim)), "keep");
}
