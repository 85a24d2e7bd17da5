use super::*;
use crate::owned::EntryKind;

const DAY: u64 = 86_400_000;

fn run(name: &str, modified_ms: u64, bytes: u64) -> KeptRun {
    KeptRun {
        name: name.to_owned(),
        modified_ms,
        bytes,
    }
}

#[test]
fn the_count_limit_keeps_the_newest_runs_and_the_one_being_written() {
    let runs = [
        run("a", 10 * DAY, 1),
        run("b", 11 * DAY, 1),
        run("c", 12 * DAY, 1),
        run("own", 9 * DAY, 1),
    ];
    let limits = HistoryLimits {
        runs: 2,
        ..HistoryLimits::default()
    };
    assert_eq!(runs_to_prune(&runs, "own", &limits, 12 * DAY), ["b", "a"]);
}

#[test]
fn the_size_limit_removes_every_run_older_than_the_first_that_does_not_fit() {
    let runs = [
        run("old", DAY, 1),
        run("big", 2 * DAY, 100),
        run("new", 3 * DAY, 10),
        run("own", 4 * DAY, 10),
    ];
    let limits = HistoryLimits {
        bytes: 50,
        ..HistoryLimits::default()
    };
    assert_eq!(
        runs_to_prune(&runs, "own", &limits, 4 * DAY),
        ["big", "old"]
    );
}

#[test]
fn the_age_limit_removes_old_runs_and_zero_days_keeps_them() {
    let runs = [run("ancient", 0, 1), run("recent", 40 * DAY, 1)];
    let limits = HistoryLimits::default();
    assert_eq!(runs_to_prune(&runs, "own", &limits, 41 * DAY), ["ancient"]);
    let forever = HistoryLimits { days: 0, ..limits };
    assert!(runs_to_prune(&runs, "own", &forever, 41 * DAY).is_empty());
}

#[test]
fn limits_are_read_from_the_variables_and_bad_values_fall_back_to_the_defaults() {
    let vars = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        }
    };
    let (limits, errors) = HistoryLimits::from_vars(vars(&[
        (VARAR_HISTORY_RUNS, "7"),
        (VARAR_HISTORY_SIZE, "3K"),
        (VARAR_HISTORY_DAYS, "0"),
    ]));
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        limits,
        HistoryLimits {
            runs: 7,
            bytes: 3072,
            days: 0
        }
    );
    let (limits, errors) = HistoryLimits::from_vars(vars(&[
        (VARAR_HISTORY_RUNS, "0"),
        (VARAR_HISTORY_SIZE, "big"),
        (VARAR_HISTORY_DAYS, "-1"),
    ]));
    assert_eq!(limits, HistoryLimits::default());
    let named: Vec<&str> = errors.iter().map(|e| e.var).collect();
    assert_eq!(
        named,
        [VARAR_HISTORY_RUNS, VARAR_HISTORY_SIZE, VARAR_HISTORY_DAYS]
    );
    assert!(errors[1].to_string().contains("VARAR_HISTORY_SIZE=\"big\""));
}

#[test]
fn the_history_is_under_the_target_directory_unless_moved_or_off() {
    let root = Path::new("/p");
    let default = |p: &str| Some((PathBuf::from(p), HistoryOrigin::Default));
    assert_eq!(
        history_dir(root, None, None, None),
        default("/p/target/varar/history")
    );
    let workspace = Path::new("/ws/target");
    assert_eq!(
        history_dir(root, None, None, Some(workspace)),
        default("/ws/target/varar/history")
    );
    assert_eq!(
        history_dir(root, None, Some("/t"), Some(workspace)),
        default("/t/varar/history")
    );
    assert_eq!(
        history_dir(root, Some("keep"), Some("/t"), None),
        Some((PathBuf::from("/p/keep"), HistoryOrigin::Named))
    );
    assert_eq!(history_dir(root, Some("off"), None, None), None);
}

fn entry(name: &str, kind: EntryKind, entries: Option<&[(&str, EntryKind)]>) -> SeenEntry {
    SeenEntry {
        name: Some(name.to_owned()),
        kind,
        entries: entries.map(|e| e.iter().map(|(n, k)| ((*n).to_owned(), *k)).collect()),
    }
}

#[test]
fn the_project_the_target_and_their_parents_are_never_a_history() {
    let (root, target) = (Path::new("/ws/p"), Path::new("/ws/target"));
    let scratch = Path::new("/ws/p/.varar");
    let of = |place: &str| clash(Path::new(place), root, target, scratch);
    assert_eq!(of("/ws/p"), Some(Clash::ProjectRoot));
    assert_eq!(of("/ws"), Some(Clash::ProjectRoot));
    assert_eq!(of("/"), Some(Clash::ProjectRoot));
    assert_eq!(of("/ws/target"), Some(Clash::TargetDir));
    assert_eq!(of("/ws/p/.varar/.runs"), Some(Clash::Scratch));
    assert_eq!(of("/ws/target/varar/history"), None);
    assert_eq!(of("/ws/p/history"), None);
    assert_eq!(of("/ws/p2"), None, "a sibling is not a parent");
    // Marked or not, empty or not: refused.
    for seen in [HistorySeen::Marked, HistorySeen::Unmarked(Vec::new())] {
        assert_eq!(
            judge_history(HistoryOrigin::Named, Some(Clash::ProjectRoot), &seen),
            Err(HistoryRefusal::Clash(Clash::ProjectRoot))
        );
    }
}

#[test]
fn a_history_is_created_used_or_adopted_only_when_it_is_ours_or_empty() {
    use EntryKind::{Dir, File, Symlink};
    let judge = |origin, seen: HistorySeen| judge_history(origin, None, &seen);
    for origin in [HistoryOrigin::Named, HistoryOrigin::Default] {
        assert_eq!(judge(origin, HistorySeen::Missing), Ok(HistoryUse::Create));
        assert_eq!(judge(origin, HistorySeen::Marked), Ok(HistoryUse::Use));
        assert_eq!(
            judge(origin, HistorySeen::Symlink),
            Err(HistoryRefusal::Symlink)
        );
        assert_eq!(
            judge(origin, HistorySeen::NotADirectory),
            Err(HistoryRefusal::NotADirectory)
        );
        let empty = vec![entry(".varar-tmp-7-ab", File, None)];
        assert_eq!(
            judge(origin, HistorySeen::Unmarked(empty)),
            Ok(HistoryUse::Adopt),
            "empty but for a temporary of ours"
        );
        let photos = vec![entry("photos", Dir, Some(&[("a.jpg", File)]))];
        assert_eq!(
            judge(origin, HistorySeen::Unmarked(photos)),
            Err(HistoryRefusal::Foreign {
                entry: Some("photos".to_owned())
            })
        );
    }
    // An earlier version's history: adopted at the default place only.
    let earlier = || {
        vec![
            entry("varar-1-ab", Dir, Some(&[("p.run", File)])),
            entry(
                "nextest_2",
                Dir,
                Some(&[("p.run", File), (".varar-tmp-x", File)]),
            ),
        ]
    };
    assert_eq!(
        judge(HistoryOrigin::Default, HistorySeen::Unmarked(earlier())),
        Ok(HistoryUse::Adopt)
    );
    assert!(judge(HistoryOrigin::Named, HistorySeen::Unmarked(earlier())).is_err());
    for odd in [
        entry("varar-1-ab", Dir, Some(&[("p.run", File), ("notes", File)])),
        entry("varar-1-ab", Symlink, Some(&[])),
        entry("varar-1-ab", Dir, None),
        entry("src", File, None),
    ] {
        let mut seen = earlier();
        seen.push(odd.clone());
        assert!(
            judge(HistoryOrigin::Default, HistorySeen::Unmarked(seen)).is_err(),
            "{odd:?}"
        );
    }
    let refusal = HistoryRefusal::Foreign {
        entry: Some("\u{1b}[2J".to_owned()),
    };
    assert!(
        refusal.to_string().contains("\"\\u{1b}[2J\""),
        "escaped: {refusal}"
    );
}
