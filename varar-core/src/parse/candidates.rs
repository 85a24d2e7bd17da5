//! Structuring the flat block list into candidates (spec 10 §6, §7): scope
//! stacks, attachments, orphan attachments and `precededByDelimiter`.

use super::blocks::Block;
use super::headings::ScopeStack;
use crate::doc::{Attachment, Candidate, CandidateBody, Doc};
use crate::source::Span;

/// Turn `blocks` (in source order) into the document.
pub(crate) fn structure(path: &str, blocks: Vec<Block>) -> Doc {
    let mut scopes = ScopeStack::default();
    // At most one a block: made that large at once, not grown (and moved)
    // one doubling after another through a long oath.
    let mut examples: Vec<Candidate> = Vec::with_capacity(blocks.len());
    let mut orphan_attachments = Vec::new();
    let mut headings = Vec::new();
    // A table or fence attaches to the candidate before it unless a heading
    // or break came between (§7.2).
    let mut attachment_open = false;
    // True at the file start and after a heading or break (§7.3).
    let mut delimiter_pending = true;
    for block in blocks {
        let attachment = match block {
            Block::Text(text) => {
                examples.push(Candidate {
                    scope_stack: scopes.texts(),
                    span: text.span,
                    body: CandidateBody {
                        text,
                        attachments: Vec::new(),
                    },
                    preceded_by_delimiter: delimiter_pending,
                });
                delimiter_pending = false;
                attachment_open = true;
                continue;
            }
            Block::Heading(heading) => {
                scopes.push(heading.level, heading.text.clone());
                headings.push(heading);
                attachment_open = false;
                delimiter_pending = true;
                continue;
            }
            Block::Break => {
                attachment_open = false;
                delimiter_pending = true;
                continue;
            }
            Block::Table(table) => Attachment::Table(table),
            Block::Fence(fence) => Attachment::Fence(fence),
        };
        match examples.last_mut() {
            Some(candidate) if attachment_open => {
                candidate.span = stretch(candidate.span, attachment.span());
                candidate.body.attachments.push(attachment);
            }
            _ => orphan_attachments.push(attachment),
        }
    }
    Doc {
        path: path.to_owned(),
        examples,
        orphan_attachments,
        headings,
    }
}

/// `span` extended to end where `to` ends.
fn stretch(span: Span, to: Span) -> Span {
    Span {
        end_offset: to.end_offset,
        end_line: to.end_line,
        end_col: to.end_col,
        ..span
    }
}
