//! The **setup** stage (spec 40 §7.2): the settings, the linked steps and
//! their lifecycle, and discovery; nothing is read but the config.

use std::path::Path;
use std::sync::Arc;

use libtest_mimic::Arguments;

use crate::harness::cache::discovery;
use crate::harness::error::HarnessError;
use crate::harness::finish::record::Claim;
use crate::harness::print;
use crate::harness::read::tags;
use crate::harness::run::panics::install_quiet_panic_hook;
use crate::harness::setup::color::{self, ColorEnv};
use crate::harness::setup::settings::Settings;
use crate::harness::setup::timeout::{Limit, resolve_limit};
use crate::lifecycle::{Lifecycle, StepUse};
use crate::linked::LinkedSteps;
use varar_core::env::VARAR_TIMEOUT;
use varar_core::render::Styles;
use varar_project::Project;
use varar_project::config::{Config, update_mode_from_env};
use varar_project::discovery::OathFile;

/// What every stage after setup needs.
pub(super) struct Setup {
    pub(super) styles: Styles,
    pub(super) update: bool,
    pub(super) limit: Option<Limit>,
    /// `VARAR_TAGS`, when set: the items it leaves out do not run.
    pub(super) tags: Option<varar_core::tags::TagExpression>,
    pub(super) steps: Arc<LinkedSteps>,
    pub(super) lifecycle: Arc<Lifecycle>,
    /// The project, its config read (`varar_project::Project`, loaded
    /// stage by stage: the discovery cache and the oaths read as the run
    /// selects them sit between the stages).
    pub(super) project: Project,
    /// Every discovered oath, in discovery order.
    pub(super) oaths: Vec<OathFile>,
    /// The paths discovery found but could not read, with why.
    pub(super) unreadable: Vec<(String, String)>,
}

/// Setup: settings, steps and discovery. Nothing is read but the config.
/// Once the settings are valid, and before discovery writes its cache, the
/// directory of run `claim_for` is made (issue 34): a process a file-size
/// limit kills at its first write still leaves a trace that `cargo varar
/// gate` refuses to look past, and a run stopped by its settings leaves
/// none.
pub(super) fn setup<'a>(
    runner: &'a Settings,
    args: &Arguments,
    claim_for: Option<&str>,
) -> Result<(Setup, Option<Claim<'a>>), HarnessError> {
    install_quiet_panic_hook();
    let styles = color::styles(args, ColorEnv::read());
    let project = Project::open(&runner.root)?;
    for warning in &project.config.warnings {
        print::warning(warning);
    }
    let update = match runner.update {
        Some(update) => update,
        None => update_mode_from_env()?.is_update(),
    };
    let limit = resolve_limit(runner.timeout, std::env::var(VARAR_TIMEOUT))?;
    let tags = tags::from_env()?;
    let (steps, lifecycle) = linked_steps(runner.modules.as_deref())?;
    // Given back, if still empty, when the run stops before it records
    // itself.
    let claim = claim_for.map(|run_id| Claim::new(&runner.root, run_id));
    let found = discovery::discover(&project, args)?;
    if found.oaths.is_empty() && found.unreadable.is_empty() {
        return Err(nothing_discovered(&project.config, &runner.root));
    }
    if steps.is_empty() {
        print::no_steps();
    }
    let setup = Setup {
        styles,
        update,
        limit,
        tags,
        steps,
        lifecycle,
        project,
        oaths: found.oaths,
        unreadable: found
            .unreadable
            .into_iter()
            .map(|(path, error)| (path, error.to_string()))
            .collect(),
    };
    Ok((setup, claim))
}

/// The steps `inventory` collected from the modules `modules` selects (all
/// of them by default), and their checked lifecycle.
fn linked_steps(
    modules: Option<&[String]>,
) -> Result<(Arc<LinkedSteps>, Arc<Lifecycle>), HarnessError> {
    let include = |module_path: &str| match modules {
        None => true,
        Some(prefixes) => prefixes.iter().any(|p| module_path.starts_with(p.as_str())),
    };
    let steps = LinkedSteps::from_inventory(include).map_err(HarnessError::Steps)?;
    let uses: Vec<StepUse<'_>> = steps
        .registry()
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| StepUse {
            expression: &s.spec.expression,
            file: &s.spec.file,
            line: s.spec.line,
            state: steps.code(i).and_then(|c| c.state),
        })
        .collect();
    let lifecycle = Lifecycle::from_inventory(include, &uses).map_err(HarnessError::Lifecycle)?;
    Ok((Arc::new(steps), Arc::new(lifecycle)))
}

/// Why a run found no oath, naming what was searched: no config, or globs
/// that match nothing (issue 10).
fn nothing_discovered(config: &Config, root: &Path) -> HarnessError {
    if config.missing {
        return HarnessError::NoConfig {
            root: root.to_path_buf(),
        };
    }
    HarnessError::NoOathMatched {
        include: config.docs_include.clone(),
        exclude: config.docs_exclude.clone(),
        root: root.to_path_buf(),
        config: config.path.clone(),
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    #[test]
    fn issue10_4_nothing_discovered_names_the_globs_and_the_directory() {
        let root = Path::new("/work/shop");
        let missing = Config::empty(root.join("varar.config.json"));
        let text = nothing_discovered(&missing, root).to_string();
        assert!(
            text.starts_with("no varar.config.json in /work/shop, so no oath was found"),
            "{text}"
        );
        let config = Config {
            docs_include: vec!["varra/**/*.md".into()],
            docs_exclude: vec!["varra/drafts/**".into()],
            missing: false,
            ..Config::empty(PathBuf::from("/work/shop/varar.config.json"))
        };
        assert_eq!(
            nothing_discovered(&config, root).to_string(),
            "no oath matched docs.include [\"varra/**/*.md\"] (less docs.exclude \
             [\"varra/drafts/**\"]) under /work/shop (/work/shop/varar.config.json), so nothing \
             was tested; check the globs (they match paths relative to that directory, e.g. \
             \"varar/**/*.md\")"
        );
    }
}
