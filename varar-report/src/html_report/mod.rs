//! The report as a pure function: the project's oaths, their run results
//! and the baseline in, the files of a static site out (`index.html`,
//! `style.css` and one `oaths/<oathPath>.html` per oath). Nothing here
//! reads or writes a file; [`crate::report`] does (through [`crate::site`]).

mod assemble;
mod callout;
pub mod html;
mod index_page;
pub mod links;
pub mod markdown;
mod model;
pub mod overlay;
mod page;
mod spliced;
mod strip;

pub use assemble::render_site;
pub use model::{
    Counts, Freshness, OathInput, OathSummary, ProjectInput, ResultsInput, Site, SiteFile,
};

#[cfg(test)]
mod tests;
