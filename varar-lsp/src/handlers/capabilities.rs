//! What the server tells the editor it can do (`initialize`).

use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CodeLensOptions,
    CompletionOptions, DocumentFilter, ExecuteCommandOptions, HoverProviderCapability, OneOf,
    RenameOptions, SaveOptions, SemanticTokensFullOptions, SemanticTokensOptions,
    SemanticTokensRegistrationOptions, SemanticTokensServerCapabilities, ServerCapabilities,
    ServerInfo, StaticRegistrationOptions, TextDocumentRegistrationOptions,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, WorkDoneProgressOptions,
};

use super::{lenses, tokens};

/// The capabilities: incremental sync with save notifications, semantic
/// tokens of whole Markdown documents, hover, definition, references, the
/// "create the step" quick fix, completion, code lenses and the commands
/// they run, and renaming a step.
///
/// On a Rust file, where rust-analyzer is the main server, it answers only
/// code lenses (a step's uses), references (from a step to its sentences),
/// renaming inside a step attribute's expression string (`null` elsewhere,
/// so rust-analyzer renames the Rust), and diagnostics; everything else is
/// `null`, and the tokens are declared for Markdown only.
pub fn server_capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
                ..TextDocumentSyncOptions::default()
            },
        )),
        semantic_tokens_provider: Some(
            SemanticTokensServerCapabilities::SemanticTokensRegistrationOptions(
                SemanticTokensRegistrationOptions {
                    text_document_registration_options: TextDocumentRegistrationOptions {
                        document_selector: Some(vec![DocumentFilter {
                            language: Some("markdown".to_string()),
                            scheme: None,
                            pattern: None,
                        }]),
                    },
                    semantic_tokens_options: SemanticTokensOptions {
                        legend: tokens::legend(),
                        full: Some(SemanticTokensFullOptions::Bool(true)),
                        range: Some(false),
                        ..SemanticTokensOptions::default()
                    },
                    static_registration_options: StaticRegistrationOptions::default(),
                },
            ),
        ),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
            ..CodeActionOptions::default()
        })),
        completion_provider: Some(CompletionOptions::default()),
        code_lens_provider: Some(CodeLensOptions {
            resolve_provider: Some(false),
        }),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: lenses::COMMANDS.iter().map(|c| (*c).to_string()).collect(),
            work_done_progress_options: WorkDoneProgressOptions {
                work_done_progress: Some(true),
            },
        }),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        })),
        ..ServerCapabilities::default()
    }
}

/// The `initialize` result: capabilities and the server's name.
pub fn initialize_result() -> serde_json::Value {
    serde_json::json!({
        "capabilities": server_capabilities(),
        "serverInfo": ServerInfo {
            name: "cargo varar lsp".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        },
    })
}
