//! The registrations of spec 60: run-wide resources (`#[varar::resource]`),
//! state factories (`#[varar::state]`), teardowns (`#[varar::teardown]`) and
//! the state parameter a step records, so that the engine can route `&T` to a
//! resource or to the example's state before anything runs.
//!
//! Types are named by `TypeId` (to match) and `type_name` (to report); the
//! macros cannot see each other, so every cross-check happens when the
//! registry is built (`lifecycle`).

use std::any::{Any, TypeId};
use std::sync::Arc;

use super::result::BoxFuture;

/// How a step takes its state (spec 50 §50.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    /// `&S`: read (or a run-wide resource).
    Shared,
    /// `&mut S`: mutate in place.
    Mut,
    /// `S` by value: replaced by what the step returns.
    Owned,
}

impl Access {
    /// The words of spec 60.4's error: `by mut reference`, `by value`.
    pub fn describe(self) -> &'static str {
        match self {
            Access::Shared => "by reference",
            Access::Mut => "by mut reference",
            Access::Owned => "by value",
        }
    }
}

/// A constructor of a state's `Default` value, type-erased.
pub type DefaultCtor = fn() -> Box<dyn Any + Send>;

/// The state parameter of a step, as the macro saw it.
#[derive(Clone, Copy, Debug)]
pub struct StateParam {
    /// `TypeId::of::<S>`.
    pub type_id: fn() -> TypeId,
    /// `type_name::<S>`, for messages (see `type_label`).
    pub type_name: fn() -> &'static str,
    /// How the step takes it.
    pub access: Access,
    /// `Some(ctor)` when `S: Default` (probed by the macro without
    /// requiring the bound, so a type with a factory needs no `Default`).
    pub default: fn() -> Option<DefaultCtor>,
}

/// A value the world keeps: an example's own state, or a run-wide resource
/// lent to it.
pub enum Stored {
    /// A per-example state.
    Owned(Box<dyn Any + Send>),
    /// A run-wide resource, shared by every example.
    Shared(Arc<dyn Any + Send + Sync>),
}

impl std::fmt::Debug for Stored {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Stored::Owned(_) => "Owned(..)",
            Stored::Shared(_) => "Shared(..)",
        })
    }
}

impl Stored {
    /// The value as `&T`, whichever way it is kept.
    pub fn downcast_ref<T: 'static>(&self) -> Option<&T> {
        match self {
            Stored::Owned(b) => b.downcast_ref(),
            Stored::Shared(a) => a.downcast_ref(),
        }
    }
}

/// A resource handed back for teardown: `Err` while someone else still
/// holds it. Generated for each `#[varar::resource]` type.
pub type Unwrap =
    fn(Arc<dyn Any + Send + Sync>) -> Result<Box<dyn Any + Send>, Arc<dyn Any + Send + Sync>>;

/// The `Unwrap` of a resource type.
pub fn unwrap_resource<T: Send + Sync + 'static>(
    shared: Arc<dyn Any + Send + Sync>,
) -> Result<Box<dyn Any + Send>, Arc<dyn Any + Send + Sync>> {
    match shared.downcast::<T>() {
        Ok(typed) => match Arc::try_unwrap(typed) {
            Ok(value) => Ok(Box::new(value)),
            Err(typed) => Err(typed),
        },
        Err(other) => Err(other),
    }
}

/// Take a teardown's argument out of its box.
pub fn take<T: 'static>(value: Box<dyn Any + Send>) -> Result<T, String> {
    value.downcast::<T>().map(|b| *b).map_err(|_| {
        format!(
            "teardown was handed a value that is not {}",
            type_label(std::any::type_name::<T>())
        )
    })
}

/// The resources a factory asked for, already built, by type.
#[derive(Default)]
pub struct Lent {
    items: Vec<(TypeId, Arc<dyn Any + Send + Sync>)>,
}

impl Lent {
    /// An empty set.
    pub fn new() -> Self {
        Lent::default()
    }

    /// Add a built resource.
    pub fn push(&mut self, type_id: TypeId, value: Arc<dyn Any + Send + Sync>) {
        self.items.push((type_id, value));
    }

    /// The resource of type `T`; an error only if the engine did not build
    /// what the factory declared (a bug, reported rather than panicking).
    pub fn get<T: 'static>(&self) -> Result<&T, String> {
        self.items
            .iter()
            .find(|(id, _)| *id == TypeId::of::<T>())
            .and_then(|(_, v)| v.downcast_ref::<T>())
            .ok_or_else(|| {
                format!(
                    "resource {} was not built for this factory",
                    type_label(std::any::type_name::<T>())
                )
            })
    }
}

/// A built resource, shared, or the build's error message.
pub type SharedBuilt = Result<Arc<dyn Any + Send + Sync>, String>;

/// What a resource function's entry point does.
#[derive(Clone, Copy, Debug)]
pub enum ResourceBuild {
    /// A `fn`.
    Sync(fn() -> SharedBuilt),
    /// An `async fn`.
    Async(fn() -> BoxFuture<'static, SharedBuilt>),
}

/// A `#[varar::resource]` function, collected with `inventory`.
#[derive(Debug)]
pub struct ResourceDef {
    /// The function's name.
    pub name: &'static str,
    /// `TypeId::of::<T>`.
    pub type_id: fn() -> TypeId,
    /// `type_name::<T>`.
    pub type_name: fn() -> &'static str,
    /// The entry point.
    pub build: ResourceBuild,
    /// Takes the value back for teardown ([`unwrap_resource`]).
    pub unwrap: Unwrap,
    /// `file!()`.
    pub file: &'static str,
    /// `line!()`.
    pub line: u32,
    /// `module_path!()`.
    pub module_path: &'static str,
}

inventory::collect!(ResourceDef);

/// The result of a factory: the new state, or the factory's error message.
pub type Built = Result<Box<dyn Any + Send>, String>;

/// What a state factory's entry point does.
#[derive(Clone, Copy, Debug)]
pub enum StateBuild {
    /// A `fn`.
    Sync(fn(&Lent) -> Built),
    /// An `async fn`; the future may borrow the lent resources.
    Async(for<'a> fn(&'a Lent) -> BoxFuture<'a, Built>),
}

/// A resource a factory takes, by type.
#[derive(Clone, Copy, Debug)]
pub struct Need {
    /// `TypeId::of::<R>`.
    pub type_id: fn() -> TypeId,
    /// `type_name::<R>`.
    pub type_name: fn() -> &'static str,
}

/// A `#[varar::state]` factory, collected with `inventory`.
#[derive(Debug)]
pub struct StateDef {
    /// The function's name.
    pub name: &'static str,
    /// `TypeId::of::<S>`.
    pub type_id: fn() -> TypeId,
    /// `type_name::<S>`.
    pub type_name: fn() -> &'static str,
    /// The resources it takes (`&R` parameters), in order.
    pub needs: &'static [Need],
    /// The entry point.
    pub build: StateBuild,
    /// `file!()`.
    pub file: &'static str,
    /// `line!()`.
    pub line: u32,
    /// `module_path!()`.
    pub module_path: &'static str,
}

inventory::collect!(StateDef);

/// What calling a teardown's entry point gave.
pub enum TeardownCall {
    /// A `fn` teardown ran: `Err` holds its message.
    Done(Result<(), String>),
    /// An `async fn` teardown: drive this future.
    Pending(BoxFuture<'static, Result<(), String>>),
}

/// A `#[varar::teardown]` function, collected with `inventory`.
#[derive(Debug)]
pub struct TeardownDef {
    /// The function's name.
    pub name: &'static str,
    /// `TypeId::of::<T>`.
    pub type_id: fn() -> TypeId,
    /// `type_name::<T>`.
    pub type_name: fn() -> &'static str,
    /// The entry point: takes the value and runs.
    pub run: fn(Box<dyn Any + Send>) -> TeardownCall,
    /// `file!()`.
    pub file: &'static str,
    /// `line!()`.
    pub line: u32,
    /// `module_path!()`.
    pub module_path: &'static str,
}

inventory::collect!(TeardownDef);

/// A type's name as a user wrote it: `type_name` without module paths
/// (`shop::steps::Shop` → `Shop`, `alloc::vec::Vec<my::Item>` →
/// `Vec<Item>`).
pub fn type_label(full: &str) -> String {
    let mut out = String::with_capacity(full.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let last = word.rsplit("::").next().unwrap_or(word);
        out.push_str(last);
        word.clear();
    };
    for c in full.chars() {
        if c.is_alphanumeric() || c == '_' || c == ':' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_drop_module_paths() {
        assert_eq!(type_label("shop::steps::Shop"), "Shop");
        assert_eq!(type_label("alloc::vec::Vec<my::Item>"), "Vec<Item>");
        assert_eq!(
            type_label("(core::option::Option<i64>, &str)"),
            "(Option<i64>, &str)"
        );
        assert_eq!(type_label("u8"), "u8");
    }

    #[test]
    fn resources_come_back_only_when_nobody_holds_them() {
        let shared: Arc<dyn Any + Send + Sync> = Arc::new(String::from("db"));
        let held = Arc::clone(&shared);
        let back = match unwrap_resource::<String>(shared) {
            Ok(_) => panic!("a held resource must not come back"),
            Err(back) => back,
        };
        drop(held);
        let value = unwrap_resource::<String>(back).unwrap();
        assert_eq!(take::<String>(value).as_deref(), Ok("db"));
        assert_eq!(
            take::<i64>(Box::new(1_u8)).unwrap_err(),
            "teardown was handed a value that is not i64"
        );
    }

    #[test]
    fn lent_resources_are_found_by_type() {
        let mut lent = Lent::new();
        lent.push(TypeId::of::<u32>(), Arc::new(7_u32));
        assert_eq!(lent.get::<u32>(), Ok(&7));
        assert_eq!(
            lent.get::<String>().unwrap_err(),
            "resource String was not built for this factory"
        );
    }
}
