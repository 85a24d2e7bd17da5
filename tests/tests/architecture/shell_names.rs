//! What only one place may name (issue 35, STYLE §2.2): every environment
//! variable is one constant (`varar_core::env`), and only the store
//! (`varar-project/src/store/`) joins the paths of `.varar/` and the lock.
//! Read with `syn` from each file's non-test code, as the purity check
//! reads it.

use syn::visit::{self, Visit};

use crate::modules::test_only;

/// The constants whose join makes a path of the store's files.
const STORE_NAMES: &[&str] = &["SCRATCH_DIR", "CACHE_DIR", "RUNS_DIR", "LOCK_FILE_NAME"];

/// What one file's non-test code names.
#[derive(Default)]
pub struct Named {
    /// Every string literal that is the whole name of an environment
    /// variable we read or set (`VARAR_*`, `CARGO_TARGET_DIR`).
    pub variables: Vec<String>,
    /// Every `.join(…)` of a store path: the argument as written.
    pub store_joins: Vec<String>,
}

/// Whether a string is the name of an environment variable of ours.
fn is_variable(s: &str) -> bool {
    s == "CARGO_TARGET_DIR"
        || s.strip_prefix("VARAR_").is_some_and(|rest| {
            !rest.is_empty()
                && rest
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        })
}

/// Whether a string literal names a file or directory of the store.
fn is_store_literal(s: &str) -> bool {
    s.starts_with(".varar") || matches!(s, ".runs" | ".cache" | ".locks" | "varar.lock.json")
}

impl<'ast> Visit<'ast> for Named {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs: &[syn::Attribute] = match item {
            syn::Item::Const(i) => &i.attrs,
            syn::Item::Fn(i) => &i.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Mod(i) => &i.attrs,
            syn::Item::Static(i) => &i.attrs,
            _ => &[],
        };
        if !test_only(attrs) {
            visit::visit_item(self, item);
        }
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        let attrs: &[syn::Attribute] = match item {
            syn::ImplItem::Fn(f) => &f.attrs,
            syn::ImplItem::Const(c) => &c.attrs,
            _ => &[],
        };
        if !test_only(attrs) {
            visit::visit_impl_item(self, item);
        }
    }

    fn visit_lit_str(&mut self, lit: &'ast syn::LitStr) {
        let value = lit.value();
        if is_variable(&value) {
            self.variables.push(value);
        }
    }

    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        if call.method == "join"
            && let Some(arg) = call.args.first()
        {
            let store = match arg {
                syn::Expr::Path(p) => p
                    .path
                    .segments
                    .last()
                    .is_some_and(|s| STORE_NAMES.contains(&s.ident.to_string().as_str())),
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => is_store_literal(&s.value()),
                _ => false,
            };
            if store {
                self.store_joins
                    .push(quote_expr(arg).unwrap_or_else(|| "?".to_owned()));
            }
        }
        visit::visit_expr_method_call(self, call);
    }
}

/// An expression as written, for the report (paths and literals only).
fn quote_expr(expr: &syn::Expr) -> Option<String> {
    match expr {
        syn::Expr::Path(p) => Some(
            p.path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect::<Vec<_>>()
                .join("::"),
        ),
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(format!("{:?}", s.value())),
        _ => None,
    }
}

/// What `text`'s non-test code names.
pub fn named_in(text: &str) -> Result<Named, String> {
    let parsed = syn::parse_file(text).map_err(|e| e.to_string())?;
    let mut named = Named::default();
    named.visit_file(&parsed);
    Ok(named)
}
