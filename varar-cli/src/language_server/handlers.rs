//! Requests (shell around the pure features): find the document and its
//! last plan, turn the position into an offset, ask the feature module,
//! turn its answer into protocol values.

use std::collections::{BTreeSet, HashMap};

use lsp_server::Request;
use lsp_types::request::{
    CodeActionRequest, Completion, GotoDefinition, HoverRequest, References, Request as _,
    SemanticTokensFullRequest,
};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CompletionParams,
    GotoDefinitionParams, GotoDefinitionResponse, Hover, HoverContents, HoverParams, Location,
    MarkupContent, MarkupKind, Position, Range, ReferenceParams, SemanticTokensParams,
    SemanticTokensResult, TextEdit, Url, WorkspaceEdit,
};
use serde_json::Value;
use varar_core::source::{Source, Span};

use super::analysis::{Analysis, PlanContext};
use super::navigation::{self, Target};
use super::position::{offset, range};
use super::server_state::Server;
use super::step_index::StepIndex;
use super::{actions, completion, rust_sources, tokens};

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

/// Answer one request; `Ok(None)` is the protocol's `null`.
pub(crate) fn handle(server: &mut Server, request: Request) -> Result<Option<Value>, RequestError> {
    Ok(match request.method.as_str() {
        SemanticTokensFullRequest::METHOD => semantic_tokens(server, &params(request)?),
        HoverRequest::METHOD => hover(server, params(request)?),
        GotoDefinition::METHOD => definition(server, params(request)?),
        References::METHOD => references(server, &params(request)?),
        CodeActionRequest::METHOD => code_actions(server, &params(request)?),
        Completion::METHOD => completion(server, params(request)?),
        other => return Err(RequestError::Unknown(other.to_string())),
    })
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

/// Code actions: "create the step" for a sentence no step matches.
fn code_actions(server: &Server, p: &CodeActionParams) -> Option<Value> {
    with_analysis(server, &p.text_document.uri, |a, index| {
        let actions: Vec<CodeActionOrCommand> =
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
                        edit: Some(WorkspaceEdit {
                            changes: Some(HashMap::from([(uri, vec![edit])])),
                            ..WorkspaceEdit::default()
                        }),
                        ..CodeAction::default()
                    }))
                })
                .collect();
        json(actions)
    })
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
    offset(&Source::new(&analysis.text), position)
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
