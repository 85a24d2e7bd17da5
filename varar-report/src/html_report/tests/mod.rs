//! The report's unit tests: the site as a whole ([`site`]), what it draws
//! as current ([`current`]), and the helpers the report's modules share in
//! their tests ([`support`]).

mod current;
mod site;
mod strips;
pub(crate) mod support;
