//! The report's unit tests: the site as a whole ([`site`]), and the
//! helpers the report's modules share in their tests ([`support`]).

mod site;
mod strips;
pub(crate) mod support;
