//! Tables: alignment, header-bound rows marked row by row (with a result
//! column), and cells that hold a failing span marked failed.

use std::fmt::Write as _;
use std::ops::Range;

use pulldown_cmark::Alignment;

use super::{Host, Renderer, TableState};
use crate::html_report::html::{State, badge};

impl Renderer<'_> {
    pub(super) fn start_table(&mut self, alignments: Vec<Alignment>, range: &Range<usize>) {
        let line = self.line_of(range.start);
        self.push("</tbody>\n</table>\n</div>\n", Host::No);
        self.table = Some(TableState {
            alignments,
            cell: 0,
            in_head: false,
            row_table: self.overlay.row_tables.contains(&line),
            row_state: State::NotRun,
        });
        let id = self.line_id(line);
        match self.overlay.attachments.get(&line) {
            Some(state) => {
                let _ = write!(
                    self.out,
                    "<div class=\"varar-table varar-attached varar-{}\">\n<table{id}",
                    state.key()
                );
            }
            None => {
                let _ = write!(self.out, "<div class=\"varar-table\">\n<table{id}");
            }
        }
        self.attached_state(line);
        self.out.push_str(">\n");
    }

    pub(super) fn start_row(&mut self, range: &Range<usize>) {
        self.push("</tr>\n", Host::No);
        let line = self.line_of(range.start);
        let id = self.line_id(line);
        let state = self
            .overlay
            .rows
            .get(&line)
            .copied()
            .unwrap_or(State::NotRun);
        let row_table = match self.table.as_mut() {
            Some(t) => {
                t.cell = 0;
                t.row_state = state;
                t.row_table
            }
            None => false,
        };
        if row_table {
            let k = state.key();
            let _ = write!(
                self.out,
                "<tr{id} class=\"varar-row varar-{k}\" data-varar-state=\"{k}\">"
            );
        } else {
            let _ = write!(self.out, "<tr{id}>");
        }
    }

    pub(super) fn start_cell(&mut self, range: &Range<usize>) {
        let (tag, align) = match self.table.as_mut() {
            Some(t) => {
                let align = t.alignments.get(t.cell).copied().unwrap_or(Alignment::None);
                t.cell += 1;
                (if t.in_head { "th" } else { "td" }, align)
            }
            None => ("td", Alignment::None),
        };
        self.push(if tag == "th" { "</th>" } else { "</td>" }, Host::Inside);
        let _ = write!(self.out, "<{tag}");
        match align {
            Alignment::Left => self.out.push_str(" class=\"varar-left"),
            Alignment::Center => self.out.push_str(" class=\"varar-center"),
            Alignment::Right => self.out.push_str(" class=\"varar-right"),
            Alignment::None => self.out.push_str(" class=\"varar-cell"),
        }
        let failed = self
            .overlay
            .regions
            .iter()
            .any(|r| r.start < range.end && range.start < r.end);
        if failed {
            self.out
                .push_str(" varar-cell-failed\" data-varar-state=\"failed\">");
        } else {
            self.out.push_str("\">");
        }
    }

    pub(super) fn end_head(&mut self) {
        if self.table.as_ref().is_some_and(|t| t.row_table) {
            self.out
                .push_str("<th class=\"varar-row-status\">result</th>");
        }
        self.out.push_str("</tr>\n</thead>\n<tbody>\n");
        if let Some(t) = self.table.as_mut() {
            t.in_head = false;
        }
    }

    pub(super) fn end_row(&mut self) {
        if let Some(state) = self
            .table
            .as_ref()
            .filter(|t| t.row_table)
            .map(|t| t.row_state)
        {
            let label = match state {
                State::Passed => "passed",
                State::Failed => "failed",
                _ => "not run",
            };
            self.out.push_str("<td class=\"varar-row-status\">");
            badge(&mut self.out, state, label);
            self.out.push_str("</td>");
        }
    }
}
