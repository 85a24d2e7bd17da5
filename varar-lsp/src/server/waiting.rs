//! Requests waiting for the plans they read (shell, part of the server).
//!
//! Planning runs off the loop (see `sync`), so a request may come while
//! the plan it reads is not made yet: one about an open oath reads that
//! oath's plan only, and waits while it is stale; completion reads the
//! editor's text and never waits; references, rename, the lenses'
//! commands and a Rust file's lenses read every open oath's plan and wait
//! until none is stale; a request the server does not answer is refused
//! at once. A waiting request is answered as
//! soon as its plans are made, in the order requests came, or with
//! `RequestCancelled` when the editor cancels it; requests about other
//! documents are answered meanwhile.

use lsp_server::{ErrorCode, Request, RequestId, Response};
use lsp_types::Url;
use lsp_types::request::{
    CodeActionRequest, CodeLensRequest, Completion, ExecuteCommand, GotoDefinition, HoverRequest,
    PrepareRenameRequest, References, Rename, Request as _, SemanticTokensFullRequest,
};

use super::server_state::{Server, ServerError};

/// What a request reads.
#[derive(Debug, PartialEq)]
enum Reads {
    /// Nothing planned.
    Nothing,
    /// The plan of one open oath.
    Plan(Url),
    /// The plan of every open oath.
    Plans,
}

/// What `request` reads, given whether a URI names an open oath.
fn reads(request: &Request, is_open: impl Fn(&Url) -> bool) -> Reads {
    let uri = request
        .params
        .get("textDocument")
        .and_then(|d| d.get("uri"))
        .and_then(|u| serde_json::from_value::<Url>(u.clone()).ok());
    match request.method.as_str() {
        Completion::METHOD => Reads::Nothing,
        SemanticTokensFullRequest::METHOD
        | HoverRequest::METHOD
        | GotoDefinition::METHOD
        | CodeActionRequest::METHOD
        | CodeLensRequest::METHOD
        | PrepareRenameRequest::METHOD => match uri {
            Some(uri) if is_open(&uri) => Reads::Plan(uri),
            // A Rust file's lenses are the usages of every oath.
            _ if request.method == CodeLensRequest::METHOD => Reads::Plans,
            // Nothing planned is read about another file.
            _ => Reads::Nothing,
        },
        References::METHOD | Rename::METHOD | ExecuteCommand::METHOD => Reads::Plans,
        // Not a request the server answers: refused at once.
        _ => Reads::Nothing,
    }
}

impl Server {
    /// Whether the plans a request reads are made.
    fn can_answer(&self, request: &Request) -> bool {
        match reads(request, |u| self.documents.contains_key(u)) {
            Reads::Nothing => true,
            Reads::Plan(uri) => self.plan_is_current(&uri),
            Reads::Plans => {
                self.dirty.is_empty() && self.documents.keys().all(|u| self.plan_is_current(u))
            }
        }
    }

    /// Answer a request now if the plans it reads are made, else keep it
    /// until they are (and start planning what changed).
    pub(super) fn take_request(&mut self, request: Request) -> Result<(), ServerError> {
        if self.can_answer(&request) {
            return self.answer(request);
        }
        self.waiting.push(request);
        self.flush()
    }

    fn answer(&mut self, request: Request) -> Result<(), ServerError> {
        match self.request(request) {
            Some(response) => self.send(response.into()),
            None => Ok(()),
        }
    }

    /// Answer, in the order they came, the waiting requests whose plans
    /// are made.
    pub(super) fn answer_waiting(&mut self) -> Result<(), ServerError> {
        while let Some(i) = self.waiting.iter().position(|r| self.can_answer(r)) {
            let request = self.waiting.remove(i);
            self.answer(request)?;
        }
        Ok(())
    }

    /// The editor cancelled request `id`: if it waits, it is answered with
    /// `RequestCancelled`. Returns whether it waited.
    pub(super) fn cancel_waiting(&mut self, id: &RequestId) -> Result<bool, ServerError> {
        let Some(i) = self.waiting.iter().position(|r| r.id == *id) else {
            return Ok(false);
        };
        self.waiting.remove(i);
        self.send(cancelled(id.clone(), "cancelled before its plan was made").into())?;
        Ok(true)
    }

    /// `shutdown`: every waiting request is answered `RequestCancelled`.
    pub(super) fn cancel_waiting_all(&mut self) -> Result<(), ServerError> {
        for request in std::mem::take(&mut self.waiting) {
            self.send(cancelled(request.id, "the server is shutting down").into())?;
        }
        Ok(())
    }
}

fn cancelled(id: RequestId, why: &str) -> Response {
    Response::new_err(id, ErrorCode::RequestCanceled as i32, why.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(method: &str, params: serde_json::Value) -> Request {
        Request::new(RequestId::from(1), method.to_string(), params)
    }

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn a_request_about_an_open_oath_reads_only_its_plan() {
        let hover = request(
            "textDocument/hover",
            serde_json::json!({"textDocument": {"uri": "file:///p/varar/a.md"}, "position": {"line": 0, "character": 0}}),
        );
        let open = |u: &Url| *u == url("file:///p/varar/a.md");
        assert_eq!(
            reads(&hover, open),
            Reads::Plan(url("file:///p/varar/a.md"))
        );
        assert_eq!(reads(&hover, |_| false), Reads::Nothing);
    }

    #[test]
    fn completion_reads_no_plan_and_references_read_every_plan() {
        let at = serde_json::json!({"textDocument": {"uri": "file:///p/varar/a.md"}, "position": {"line": 0, "character": 0}});
        assert_eq!(
            reads(&request("textDocument/completion", at.clone()), |_| true),
            Reads::Nothing
        );
        assert_eq!(
            reads(&request("textDocument/references", at), |_| true),
            Reads::Plans
        );
        assert_eq!(
            reads(
                &request("textDocument/documentSymbol", serde_json::json!({})),
                |_| true
            ),
            Reads::Nothing
        );
        let lens = serde_json::json!({"textDocument": {"uri": "file:///p/tests/steps/a.rs"}});
        assert_eq!(
            reads(&request("textDocument/codeLens", lens), |_| false),
            Reads::Plans
        );
    }
}
