//! `workspace/executeCommand` (shell, part of the server): the commands of
//! the code lenses ([`crate::handlers::lenses::COMMANDS`]).
//!
//! - `varar.run` runs `cargo test` for an example or a whole oath
//!   (`run_cargo`, off the loop): only an item of the oath's current plan,
//!   by its exact name ([`Selection::planned`]); any other is refused with
//!   its name, escaped, and nothing starts. Its progress goes to the editor as
//!   work-done progress (`$/progress`: the token the editor gave with the
//!   request, else one the server creates when the editor supports it);
//!   `$/cancelRequest` of the command or `window/workDoneProgress/cancel`
//!   of its token stops it. When it ends the command is answered with the
//!   outcome, the results in `.varar/` are read again and the diagnostics
//!   published from them; a build error is shown as a message, with
//!   cargo's output in the log. One run per project at a time; an oath
//!   with unsaved changes is not run (cargo tests the file on disk).
//! - `varar.openReport` writes the HTML report and opens the oath's page.
//! - `varar.showReferences` answers with the locations it was given (an
//!   editor that maps it to its references view shows them there).

use std::collections::{BTreeSet, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use lsp_server::{ErrorCode, Request, RequestId, Response};
use lsp_types::{
    ExecuteCommandParams, Location, MessageType, NumberOrString, ProgressParams,
    ProgressParamsValue, Url, WorkDoneProgress, WorkDoneProgressBegin,
    WorkDoneProgressCreateParams, WorkDoneProgressEnd, WorkDoneProgressReport,
};
use serde::Deserialize;
use varar_core::names::example_items;

use super::project_state::Changed;
use super::requests::Answer;
use super::run_cargo::{self, RunSpec};
use super::run_output::{RunOutcome, Selection};
use super::server_state::{ActiveRun, Server, ServerError};
use crate::analysis::rust_sources::oath_targets;
use crate::handlers::lenses::{REFERENCES, REPORT, RUN};

/// The argument of `varar.run` and `varar.openReport`.
#[derive(Debug, Deserialize)]
struct OathArgument {
    uri: Url,
    /// `varar.run`: one item; none, every item of the oath.
    #[serde(default)]
    item: Option<String>,
}

/// Why a command was refused: the message answered (and shown).
type Refused = String;

impl Server {
    /// Run a command; `Later` when it answers when its work ends.
    pub(crate) fn execute(&mut self, id: RequestId, p: ExecuteCommandParams) -> Answer {
        let result = match p.command.as_str() {
            RUN => self.start_run(id.clone(), &p),
            REPORT => self.report_command(id.clone(), &p),
            REFERENCES => {
                let locations: Vec<Location> = p
                    .arguments
                    .get(2)
                    .cloned()
                    .and_then(|v| serde_json::from_value(v).ok())
                    .unwrap_or_default();
                return Answer::Now(serde_json::to_value(locations).ok());
            }
            other => Err(format!("cargo varar lsp has no command {other}")),
        };
        match result {
            Ok(()) => Answer::Later,
            Err(message) => {
                let _ = self.show(MessageType::WARNING, message.clone());
                Answer::Failed(message)
            }
        }
    }

    /// The project and oathPath of a command's oath argument.
    fn oath_of(
        &mut self,
        p: &ExecuteCommandParams,
    ) -> Result<(usize, String, OathArgument), Refused> {
        let argument: OathArgument = p
            .arguments
            .first()
            .cloned()
            .and_then(|v| serde_json::from_value(v).ok())
            .ok_or_else(|| format!("{} needs an argument {{\"uri\": …}}", p.command))?;
        let path = argument
            .uri
            .to_file_path()
            .map_err(|()| format!("{} is not a file", argument.uri))?;
        let project = self
            .project_for(&path)
            .ok()
            .flatten()
            .ok_or_else(|| format!("{} is in no project", path.display()))?;
        let oath = self.projects[project]
            .oath_path(&path)
            .ok_or_else(|| format!("{} is not an oath of the project", path.display()))?;
        Ok((project, oath, argument))
    }

    fn report_command(&mut self, id: RequestId, p: &ExecuteCommandParams) -> Result<(), Refused> {
        let (project, oath, _) = self.oath_of(p)?;
        self.start_report(id, project, oath);
        Ok(())
    }

    fn start_run(&mut self, id: RequestId, p: &ExecuteCommandParams) -> Result<(), Refused> {
        let (project, oath, argument) = self.oath_of(p)?;
        if let Some(doc) = self.documents.get(&argument.uri) {
            let disk = varar_project::files::read_to_string(&doc.path).ok();
            if disk.as_deref() != Some(doc.text.as_str()) {
                return Err(format!(
                    "save {oath} first: cargo test runs the file on disk"
                ));
            }
        }
        if self.runs.values().any(|r| r.project == project) {
            return Err("a run is going on in this project: wait for it or cancel it".to_string());
        }
        let planned = match argument.item {
            Some(_) => self.planned_items(project, &oath),
            None => Vec::new(),
        };
        let selection =
            Selection::planned(&oath, argument.item, &planned).map_err(|e| e.to_string())?;
        let root = self.projects[project].root.clone();
        let target = oath_targets(&root).map_err(|e| e.to_string())?.remove(0);
        self.next_run += 1;
        let run = self.next_run;
        let cancel = Arc::new(AtomicBool::new(false));
        let given = p.work_done_progress_params.work_done_token.clone();
        let title = format!("cargo test {}", selection.describe());
        self.runs.insert(
            run,
            ActiveRun {
                project,
                request: id,
                token: given.clone(),
                begun: false,
                title,
                cancel: Arc::clone(&cancel),
            },
        );
        if given.is_some() {
            self.begin_progress(run).map_err(|e| e.to_string())?;
        } else if self.client.progress {
            self.next_request += 1;
            let request = RequestId::from(format!("varar-{}", self.next_request));
            let token = NumberOrString::String(format!("varar-run-{run}"));
            if let Some(r) = self.runs.get_mut(&run) {
                r.token = Some(token.clone());
            }
            self.progress_created.insert(request.clone(), run);
            let create = Request::new(
                request,
                "window/workDoneProgress/create".to_string(),
                WorkDoneProgressCreateParams { token },
            );
            self.send(create.into()).map_err(|e| e.to_string())?;
        }
        let spec = RunSpec {
            root,
            target,
            selection,
        };
        run_cargo::start(run, spec, cancel, self.events.clone());
        Ok(())
    }

    /// The names of the items of `oath`'s current plan that its `▶ Run`
    /// lenses give (an oath that is not open is planned from the file, as
    /// the lenses of a closed oath would be).
    fn planned_items(&mut self, project: usize, oath: &str) -> Vec<String> {
        self.ensure_closed(project, &BTreeSet::from([oath.to_string()]));
        self.analysis_of(project, oath)
            .map(|a| {
                example_items(&a.oath_path, &a.plan)
                    .into_iter()
                    .map(|i| i.name.to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The editor answered one of our requests.
    pub(crate) fn answered(&mut self, response: &Response) -> Result<(), ServerError> {
        let Some(run) = self.progress_created.remove(&response.id) else {
            return Ok(());
        };
        if response.response_result.is_err() {
            if let Some(r) = self.runs.get_mut(&run) {
                r.token = None;
            }
            return Ok(());
        }
        self.begin_progress(run)
    }

    fn begin_progress(&mut self, run: u64) -> Result<(), ServerError> {
        let Some(r) = self.runs.get_mut(&run) else {
            return Ok(());
        };
        let Some(token) = r.token.clone() else {
            return Ok(());
        };
        r.begun = true;
        let title = r.title.clone();
        self.progress(
            token,
            WorkDoneProgress::Begin(WorkDoneProgressBegin {
                title,
                cancellable: Some(true),
                message: Some("starting cargo".to_string()),
                percentage: None,
            }),
        )
    }

    fn progress(&self, token: NumberOrString, value: WorkDoneProgress) -> Result<(), ServerError> {
        self.notify::<lsp_types::notification::Progress>(ProgressParams {
            token,
            value: ProgressParamsValue::WorkDone(value),
        })
    }

    pub(crate) fn run_progress(
        &mut self,
        run: u64,
        message: String,
        percentage: Option<u32>,
    ) -> Result<(), ServerError> {
        let Some(r) = self.runs.get(&run) else {
            return Ok(());
        };
        let (Some(token), true) = (r.token.clone(), r.begun) else {
            return Ok(());
        };
        self.progress(
            token,
            WorkDoneProgress::Report(WorkDoneProgressReport {
                cancellable: Some(true),
                message: Some(message),
                percentage,
            }),
        )
    }

    pub(crate) fn run_ended(
        &mut self,
        run: u64,
        outcome: RunOutcome,
        log: &str,
    ) -> Result<(), ServerError> {
        let Some(r) = self.runs.remove(&run) else {
            return Ok(());
        };
        let summary = outcome.summary();
        if let (Some(token), true) = (r.token.clone(), r.begun) {
            self.progress(
                token,
                WorkDoneProgress::End(WorkDoneProgressEnd {
                    message: Some(summary.clone()),
                }),
            )?;
        }
        match &outcome {
            RunOutcome::DidNotRun { .. } | RunOutcome::NotStarted(_) => {
                self.log(vec![format!("{}:\n{log}", r.title)])?;
                self.show(MessageType::ERROR, summary.clone())?;
            }
            RunOutcome::NothingRan => self.show(MessageType::WARNING, summary.clone())?,
            RunOutcome::Ran { .. } if !r.begun => {
                self.show(MessageType::INFO, format!("{}: {summary}", r.title))?;
            }
            RunOutcome::Ran { .. } | RunOutcome::Cancelled => {}
        }
        let response = match &outcome {
            RunOutcome::Cancelled => Response::new_err(
                r.request,
                ErrorCode::RequestCanceled as i32,
                "the run was cancelled".to_string(),
            ),
            RunOutcome::Ran { passed, failed } => Response::new_ok(
                r.request,
                serde_json::json!({"status": outcome.status(), "summary": summary,
                    "passed": passed, "failed": failed}),
            ),
            _ => Response::new_ok(
                r.request,
                serde_json::json!({"status": outcome.status(), "summary": summary}),
            ),
        };
        self.send(response.into())?;
        // The run wrote `.varar/`: read it again and publish.
        let mut log = Vec::new();
        if let Some(project) = self.projects.get_mut(r.project) {
            project.reload_results(&mut log);
        }
        self.log(log)?;
        self.apply(vec![(
            r.project,
            Changed {
                evidence: true,
                ..Changed::default()
            },
        )])
    }

    /// `$/cancelRequest` or `window/workDoneProgress/cancel`: stop the run
    /// it names.
    pub(crate) fn cancel(&mut self, request: Option<RequestId>, token: Option<NumberOrString>) {
        for r in self.runs.values() {
            let named = request.as_ref() == Some(&r.request) || token.is_some() && token == r.token;
            if named {
                r.cancel.store(true, Ordering::SeqCst);
            }
        }
    }

    /// Stop every run and wait (a few seconds at most) until they ended, so
    /// that no `cargo test` outlives the server.
    pub(crate) fn stop_runs(&mut self) {
        let running: HashSet<u64> = self.runs.keys().copied().collect();
        if running.is_empty() {
            return;
        }
        self.cancel_all();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        let mut left = running;
        while !left.is_empty() {
            let wait = deadline.saturating_duration_since(std::time::Instant::now());
            match self.incoming.recv_timeout(wait) {
                Ok(super::events::Event::RunEnded { run, .. }) => {
                    left.remove(&run);
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
        self.runs.clear();
    }

    fn cancel_all(&self) {
        for r in self.runs.values() {
            r.cancel.store(true, Ordering::SeqCst);
        }
    }
}
