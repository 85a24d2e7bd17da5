//! The names of a project's files as the specification gives them (spec
//! 40 §6, issue 19): the scratch directory `.varar/`, its result files
//! `.varar/<oathPath>.json` and its run records
//! `.varar/.runs/<run id>/<process id>.run`, as strings. Pure: the store
//! (`varar-project`) joins them to paths and is the only code that does;
//! the verdict (`verdict`, feature `verdict`) names the same files in its messages.

/// The scratch directory for run results and lock sidecars (spec 40 §6).
pub const SCRATCH_DIR: &str = ".varar";

/// The directory of the run records, under `.varar/`.
pub const RUNS_DIR: &str = ".runs";

/// How the runs directory of the results tree shown as `tree` is named to
/// people: `<tree>/.runs` (`.varar/.runs` for the project's own, whose
/// tree is shown as [`SCRATCH_DIR`]).
pub fn runs_dir_shown(tree: &str) -> String {
    format!("{tree}/{RUNS_DIR}")
}

/// A run id or process id as a file name: what is not `[A-Za-z0-9._-]`
/// becomes `_`, so an id from the environment never leaves its directory.
pub fn file_name_of(id: &str) -> String {
    let name: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    match name.trim_start_matches('.') {
        "" => "_".to_owned(),
        rest => rest.to_owned(),
    }
}

/// How a result file is named to people: `.varar/<oathPath>.json`, relative
/// to the project root.
pub fn result_path_shown(oath_path: &str) -> String {
    format!("{SCRATCH_DIR}/{oath_path}.json")
}
