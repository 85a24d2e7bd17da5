//! Helpers the attribute macros expand to (spec 60): the `Default` probe,
//! the `Send`/`Sync` assertions at the user's type, and error text.

use std::any::Any;
use std::marker::PhantomData;

use super::hooks::{DefaultCtor, unwrap_resource};

/// Asks whether `T: Default` without requiring it (autoref
/// specialisation): `(&&Probe::<T>::new()).default_ctor()` finds
/// [`ViaDefault`] when `T: Default + Send` and falls back to [`NoDefault`].
pub struct Probe<T>(PhantomData<fn() -> T>);

impl<T> Probe<T> {
    /// A probe for `T`.
    pub const fn new() -> Self {
        Probe(PhantomData)
    }
}

impl<T> Default for Probe<T> {
    fn default() -> Self {
        Probe::new()
    }
}

/// The probe's answer for a `Default` type.
pub trait ViaDefault {
    /// `Some` constructor.
    fn default_ctor(&self) -> Option<DefaultCtor>;
}

impl<T: Default + Send + 'static> ViaDefault for &Probe<T> {
    fn default_ctor(&self) -> Option<DefaultCtor> {
        Some(make_default::<T>)
    }
}

/// The probe's answer for any other type.
pub trait NoDefault {
    /// `None`.
    fn default_ctor(&self) -> Option<DefaultCtor>;
}

impl<T> NoDefault for Probe<T> {
    fn default_ctor(&self) -> Option<DefaultCtor> {
        None
    }
}

fn make_default<T: Default + Send + 'static>() -> Box<dyn Any + Send> {
    Box::new(T::default())
}

/// Compiles only for a type an example can own on its thread: a step's
/// state, a factory's result, a teardown's argument.
pub const fn a_state_must_be_send<T: Send + 'static>() {}

/// The type a `#[varar::resource]` function builds. The bound is checked
/// once, where the macro names the type (the function's return type): a
/// run-wide resource is lent to examples running in parallel on several
/// threads, so it must be `Send + Sync`.
pub trait SharedResource {
    /// The resource type.
    type Value: Send + Sync + 'static;
}

/// The type a `#[varar::state]` factory builds: it moves to the example's
/// thread, so it must be `Send`. Checked once, at the return type.
pub trait ExampleState {
    /// The state type.
    type Value: Send + 'static;
}

/// A built resource, type-erased for sharing.
pub fn share<R: SharedResource>(value: R::Value) -> std::sync::Arc<dyn Any + Send + Sync> {
    std::sync::Arc::new(value)
}

/// [`unwrap_resource`] for the type a resource function builds.
pub fn unwrap_shared<R: SharedResource>(
    shared: std::sync::Arc<dyn Any + Send + Sync>,
) -> Result<Box<dyn Any + Send>, std::sync::Arc<dyn Any + Send + Sync>> {
    unwrap_resource::<R::Value>(shared)
}

/// A built state, type-erased for the example's world.
pub fn own<S: ExampleState>(value: S::Value) -> Box<dyn Any + Send> {
    Box::new(value)
}

/// The message of a failed factory, resource or teardown.
pub fn fail_text<E: std::fmt::Display + ?Sized>(error: &E) -> String {
    error.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Defaulted(u8);
    struct Plain;

    #[test]
    #[allow(clippy::needless_borrow)] // the double borrow is the probe
    fn the_probe_finds_default_only_where_it_exists() {
        let ctor = (&&Probe::<Defaulted>::new()).default_ctor();
        let value = ctor.map(|f| f());
        assert_eq!(
            value
                .and_then(|b| b.downcast::<Defaulted>().ok())
                .map(|d| d.0),
            Some(0)
        );
        assert!((&&Probe::<Plain>::new()).default_ctor().is_none());
        let _ = Plain;
    }
}
