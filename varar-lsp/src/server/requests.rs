//! Requests (shell around the pure features): find the document and its
//! last plan, turn the position into an offset, ask the feature module,
//! turn its answer into protocol values.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use lsp_server::{Request, RequestId};
use lsp_types::request::{
    CodeActionRequest, CodeLensRequest, Completion, ExecuteCommand, GotoDefinition, HoverRequest,
    PrepareRenameRequest, References, Rename, Request as _, SemanticTokensFullRequest,
};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeLens, CodeLensParams,
    Command, CompletionParams, GotoDefinitionParams, GotoDefinitionResponse, Hover, HoverContents,
    HoverParams, Location, MarkupContent, MarkupKind, Position, PrepareRenameResponse, Range,
    ReferenceParams, RenameParams, SemanticTokensParams, SemanticTokensResult,
    TextDocumentPositionParams, TextEdit, Url, WorkspaceEdit,
};
use serde_json::{Value, json};
use varar_core::source::{Source, Span};

use super::server_state::Server;
use crate::analysis::rust_sources;
use crate::analysis::step_index::StepIndex;
use crate::analysis::usages::Usages;
use crate::analysis::{Analysis, PlanContext};
use crate::handlers::actions::review;
use crate::handlers::lenses::{self, Action, Lens};
use crate::handlers::navigation::{self, Target};
use crate::handlers::position::{offset, range};
use crate::handlers::rename::{step_in_oath, step_in_rust};
use crate::handlers::{actions, completion, tokens};
use varar_project::store::lock_path;

/// Why a request got no answer.
#[derive(Debug)]
pub(crate) enum RequestError {
    /// Not a request this server answers.
    Unknown(String),
    /// Its parameters do not fit the method.
    Params(serde_json::Error),
}

fn params<P: serde::de::DeserializeOwned>(request: Request) -> Result<P, RequestError> {
    serde_json::from_value(request.params).map_err(RequestError::Params)
}

fn json<T: serde::Serialize>(value: T) -> Option<Value> {
    serde_json::to_value(value).ok()
}

/// How a request is answered.
#[derive(Debug)]
pub(crate) enum Answer {
    /// Now; `None` is the protocol's `null`.
    Now(Option<Value>),
    /// When the work it started ends (a run, a rename, a report, usages).
    Later,
    /// Refused, with the reason.
    Failed(String),
}

/// Answer one request.
pub(crate) fn handle(server: &mut Server, request: Request) -> Result<Answer, RequestError> {
    let id = request.id.clone();
    Ok(Answer::Now(match request.method.as_str() {
        SemanticTokensFullRequest::METHOD => semantic_tokens(server, &params(request)?),
        HoverRequest::METHOD => hover(server, params(request)?),
        GotoDefinition::METHOD => definition(server, params(request)?),
        References::METHOD => references(server, &params(request)?),
        CodeActionRequest::METHOD => code_actions(server, &params(request)?),
        Completion::METHOD => completion(server, params(request)?),
        CodeLensRequest::METHOD => return Ok(code_lens(server, id, params(request)?)),
        PrepareRenameRequest::METHOD => prepare_rename(server, &params(request)?),
        Rename::METHOD => return Ok(rename(server, id, params(request)?)),
        ExecuteCommand::METHOD => return Ok(server.execute(id, params(request)?)),
        other => return Err(RequestError::Unknown(other.to_string())),
    }))
}

/// Code lenses: an oath's from its last plan; a Rust file's from the
/// usages of its project's steps, which may have to be computed first
/// (the answer then waits for them, off the loop).
fn code_lens(server: &mut Server, id: RequestId, p: CodeLensParams) -> Answer {
    let uri = p.text_document.uri;
    if let Some(analysis) = server.analyses.get(&uri) {
        let lenses: Vec<CodeLens> = lenses::oath_lenses(analysis)
            .iter()
            .map(|l| code_lens_of(l, &uri, Path::new("")))
            .collect();
        return Answer::Now(json(lenses));
    }
    let Ok(path) = uri.to_file_path() else {
        return Answer::Now(None);
    };
    if path.extension().is_none_or(|x| x != "rs") {
        return Answer::Now(None);
    }
    let path = rust_sources::normalize(&path);
    let Some(project) = server.project_for(&path).ok().flatten() else {
        return Answer::Now(None);
    };
    if !rust_sources::is_source(&server.projects[project].sources, &path) {
        return Answer::Now(None);
    }
    match server.fresh_usages(project) {
        Some(usages) => Answer::Now(Some(rust_lenses(server, project, &path, &usages))),
        None => {
            server
                .usages
                .entry(project)
                .or_default()
                .waiting
                .push((id, path));
            server.start_usages(project);
            Answer::Later
        }
    }
}

/// The lenses of a Rust file of `project`, as the protocol's.
pub(crate) fn rust_lenses(server: &Server, project: usize, path: &Path, usages: &Usages) -> Value {
    let Ok(uri) = Url::from_file_path(path) else {
        return Value::Null;
    };
    let p = &server.projects[project];
    let lenses: Vec<CodeLens> = lenses::step_lenses(&p.index, path, usages)
        .iter()
        .map(|l| code_lens_of(l, &uri, &p.root))
        .collect();
    json(lenses).unwrap_or(Value::Null)
}

/// One lens as the protocol's: its command and arguments.
fn code_lens_of(lens: &Lens, uri: &Url, root: &Path) -> CodeLens {
    let (command, arguments) = match &lens.action {
        Action::Run(item) => (lenses::RUN, vec![json!({"uri": uri, "item": item})]),
        Action::Report => (lenses::REPORT, vec![json!({"uri": uri})]),
        Action::References { at, places } => {
            let locations: Vec<Location> = places
                .iter()
                .filter_map(|(doc, span)| {
                    location(&Target {
                        path: root.join(doc),
                        span: *span,
                    })
                })
                .collect();
            (
                lenses::REFERENCES,
                vec![json!(uri), json!(range(at).start), json!(locations)],
            )
        }
    };
    let start = range(&lens.at).start;
    CodeLens {
        range: Range::new(start, start),
        command: Some(Command {
            title: lens.title.clone(),
            command: command.to_string(),
            arguments: Some(arguments),
        }),
        data: None,
    }
}

/// The step a rename at `at` is about: (project, registry step, range).
fn rename_target(server: &Server, at: &TextDocumentPositionParams) -> Option<(usize, usize, Span)> {
    let uri = &at.text_document.uri;
    if let (Some(doc), Some(analysis)) = (server.documents.get(uri), server.analyses.get(uri)) {
        let (step, span) = step_in_oath(analysis, offset_in(analysis, at.position))?;
        return Some((doc.project, step, span));
    }
    let path = rust_sources::normalize(&uri.to_file_path().ok()?);
    server.projects.iter().enumerate().find_map(|(i, p)| {
        let (step, span) = step_in_rust(&p.index, &path, at.position.line, at.position.character)?;
        Some((i, step, span))
    })
}

/// Prepare a rename: the sentence, or the inside of the attribute's
/// string, with the expression to edit; `null` anywhere else (so that
/// rust-analyzer renames the Rust).
fn prepare_rename(server: &Server, p: &TextDocumentPositionParams) -> Option<Value> {
    let (project, step, span) = rename_target(server, p)?;
    let (_, item) = server.projects.get(project)?.index.step(step)?;
    json(PrepareRenameResponse::RangeWithPlaceholder {
        range: range(&span),
        placeholder: item.expression.clone(),
    })
}

/// Rename a step: worked out off the loop (every oath is planned).
fn rename(server: &mut Server, id: RequestId, p: RenameParams) -> Answer {
    match rename_target(server, &p.text_document_position) {
        Some((project, step, _)) => {
            server.start_rename(id, project, step, p.new_name);
            Answer::Later
        }
        None => Answer::Failed("there is no step to rename here".to_string()),
    }
}

/// Semantic tokens of an open oath.
fn semantic_tokens(server: &Server, p: &SemanticTokensParams) -> Option<Value> {
    with_analysis(server, &p.text_document.uri, |a, index| {
        json(SemanticTokensResult::Tokens(tokens::semantic_tokens(
            a, index,
        )))
    })
}

/// Hover: what a link splices, else the step or parameter under the cursor.
fn hover(server: &Server, p: HoverParams) -> Option<Value> {
    let at = p.text_document_position_params;
    with_context(server, &at.text_document.uri, |a, ws| {
        let offset = offset_in(a, at.position);
        let (markdown, span) = navigation::link_hover(a, ws, offset)
            .or_else(|| navigation::hover(a, ws.index, offset))?;
        json(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: markdown,
            }),
            range: Some(range(&span)),
        })
    })
}

/// Go to definition: the heading(s) a link names, else the step function
/// or the parameter's parse function.
fn definition(server: &Server, p: GotoDefinitionParams) -> Option<Value> {
    let at = p.text_document_position_params;
    let root = server
        .documents
        .get(&at.text_document.uri)
        .and_then(|d| server.projects.get(d.project))
        .map(|p| p.root.clone());
    with_context(server, &at.text_document.uri, |a, ws| {
        let offset = offset_in(a, at.position);
        if let Some(root) = &root
            && let Some(targets) = navigation::reference_definition(a, ws.oaths, root, offset)
        {
            let mut locations: Vec<Location> = targets.iter().filter_map(location).collect();
            return if locations.len() == 1 {
                json(GotoDefinitionResponse::Scalar(locations.remove(0)))
            } else {
                json(GotoDefinitionResponse::Array(locations))
            };
        }
        let target = navigation::definition(a, ws.index, offset)?;
        json(GotoDefinitionResponse::Scalar(location(&target)?))
    })
}

/// Code actions: "create the step" for a sentence no step matches, and
/// the two quick fixes of `cargo varar review` on a failure (issue 37):
/// write the observed value, accept a drift as prose.
fn code_actions(server: &Server, p: &CodeActionParams) -> Option<Value> {
    let uri = &p.text_document.uri;
    let root = server
        .projects
        .get(server.documents.get(uri)?.project)
        .map(|project| project.root.clone());
    with_analysis(server, uri, |a, index| {
        let mut actions: Vec<CodeActionOrCommand> =
            actions::create_step(a, index, offset_in(a, p.range.start))
                .into_iter()
                .filter_map(|new| {
                    let uri = Url::from_file_path(&new.path).ok()?;
                    let at = Position::new(new.at.0, new.at.1);
                    let edit = TextEdit {
                        range: Range::new(at, at),
                        new_text: new.text,
                    };
                    Some(CodeActionOrCommand::CodeAction(CodeAction {
                        title: new.title,
                        kind: Some(CodeActionKind::QUICKFIX),
                        is_preferred: Some(new.preferred),
                        edit: Some(WorkspaceEdit {
                            changes: Some(HashMap::from([(uri, vec![edit])])),
                            ..WorkspaceEdit::default()
                        }),
                        ..CodeAction::default()
                    }))
                })
                .collect();
        actions.extend(review_fixes(a, uri, root.as_deref(), p));
        json(actions)
    })
}

/// The quick fixes of `cargo varar review` for the diagnostics the editor
/// sends: the observed value over a failed value's text, the lock without a
/// drift's example (the whole file replaced by the engine's byte-stable
/// edit of it, read now).
fn review_fixes(
    a: &Analysis,
    uri: &Url,
    root: Option<&Path>,
    p: &CodeActionParams,
) -> Vec<CodeActionOrCommand> {
    let source = a.source();
    let fix = |title: String, uri: Url, edit: TextEdit, d: &lsp_types::Diagnostic| {
        CodeActionOrCommand::CodeAction(CodeAction {
            title,
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![d.clone()]),
            edit: Some(WorkspaceEdit {
                changes: Some(HashMap::from([(uri, vec![edit])])),
                ..WorkspaceEdit::default()
            }),
            ..CodeAction::default()
        })
    };
    let mut out = Vec::new();
    for d in &p.context.diagnostics {
        let code = match &d.code {
            Some(lsp_types::NumberOrString::String(code)) => code.as_str(),
            _ => continue,
        };
        let (from, to) = (offset(&source, d.range.start), offset(&source, d.range.end));
        if code == "example-failed"
            && let Some((title, text)) =
                review::write_observed(d.data.as_ref(), source.slice_utf16(from, to.max(from)))
        {
            let edit = TextEdit {
                range: d.range,
                new_text: text,
            };
            out.push(fix(title, uri.clone(), edit, d));
        }
        if code == "drift"
            && let Some(root) = root
            && let Ok(lock) = varar_project::files::read(&lock_path(root))
            && let Some((title, text)) = review::accept_drift(a, from, &lock)
            && let Ok(lock_uri) = Url::from_file_path(lock_path(root))
        {
            // The whole file: it ends with a newline (the edit refuses a
            // lock not as its writer writes it), so its end is the start of
            // the line after the last one.
            let lines =
                u32::try_from(lock.iter().filter(|b| **b == b'\n').count()).unwrap_or(u32::MAX);
            let edit = TextEdit {
                range: Range::new(Position::new(0, 0), Position::new(lines, 0)),
                new_text: text,
            };
            out.push(fix(title, lock_uri, edit, d));
        }
    }
    out
}

/// Completion of the sentence being written, from the editor's text (not
/// the last plan: the cursor is where the text just changed).
fn completion(server: &Server, p: CompletionParams) -> Option<Value> {
    let at = p.text_document_position;
    let doc = server.documents.get(&at.text_document.uri)?;
    let project = server.projects.get(doc.project)?;
    let source = Source::new(&doc.text);
    let list = completion::complete(&doc.text, offset(&source, at.position), &project.index);
    json(list)
}

/// Run `f` on an open oath's last plan and its project's workspace.
fn with_context(
    server: &Server,
    uri: &Url,
    f: impl FnOnce(&Analysis, &PlanContext<'_>) -> Option<Value>,
) -> Option<Value> {
    let analysis = server.analyses.get(uri)?;
    let project = server.projects.get(server.documents.get(uri)?.project)?;
    let context = PlanContext {
        index: &project.index,
        lock: project.lock.as_ref(),
        oaths: &project.oaths,
    };
    f(analysis, &context)
}

/// Run `f` on an open oath's last plan and its project's step index.
fn with_analysis(
    server: &Server,
    uri: &Url,
    f: impl FnOnce(&Analysis, &StepIndex) -> Option<Value>,
) -> Option<Value> {
    let analysis = server.analyses.get(uri)?;
    let project = server.projects.get(server.documents.get(uri)?.project)?;
    f(analysis, &project.index)
}

fn offset_in(analysis: &Analysis, position: Position) -> u32 {
    offset(&analysis.source(), position)
}

fn location(target: &Target) -> Option<Location> {
    Some(Location {
        uri: Url::from_file_path(&target.path).ok()?,
        range: range(&target.span),
    })
}

/// Find references: from a step function in a Rust file, or from a
/// sentence of an open oath, to every sentence its step matched in the
/// project's oaths (planned from disk when they are not open).
fn references(server: &mut Server, p: &ReferenceParams) -> Option<Value> {
    let at = &p.text_document_position;
    let uri = &at.text_document.uri;
    let (project, step) = match server.documents.get(uri) {
        Some(doc) => {
            let analysis = server.analyses.get(uri)?;
            let (step, _) = analysis.step_at(offset_in(analysis, at.position))?;
            (doc.project, step.step)
        }
        None => {
            let path = uri.to_file_path().ok()?;
            let path = rust_sources::normalize(&path);
            server
                .projects
                .iter()
                .enumerate()
                .find_map(|(i, project)| {
                    project
                        .index
                        .step_at_line(&path, at.position.line)
                        .map(|step| (i, step))
                })?
        }
    };
    // Every oath of the project, planned (the open ones are; the others
    // come from the cache, planned again only if what they read changed).
    let paths: BTreeSet<String> = server.projects[project]
        .oaths
        .paths()
        .map(str::to_string)
        .collect();
    server.ensure_closed(project, &paths);
    let analyses: Vec<&Analysis> = paths
        .iter()
        .filter_map(|p| server.analysis_of(project, p))
        .collect();
    let root = &server.projects[project].root;
    let found: Vec<(std::path::PathBuf, Span)> = navigation::references(step, &analyses)
        .into_iter()
        .map(|(path, span)| (root.join(path), span))
        .collect();
    let mut locations: Vec<Location> = Vec::new();
    if p.context.include_declaration
        && let Some((file, item)) = server.projects[project].index.step(step)
    {
        locations.extend(location(&Target {
            path: file.path.clone(),
            span: item.function.name_span,
        }));
    }
    locations.extend(
        found
            .into_iter()
            .filter_map(|(path, span)| location(&Target { path, span })),
    );
    json(locations)
}
