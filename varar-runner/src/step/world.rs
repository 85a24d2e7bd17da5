//! The states of one example (spec 30 §30.1.2, spec 60.5): one value per
//! (step file, state type), created before the first step that needs it by
//! the executor (from a factory, `Default`, or a lent run-wide resource), in
//! creation order so that teardown can run in reverse.
//!
//! Generated step code only *reads* the world ([`World::state_ref`],
//! [`World::state_mut`], [`World::take_state`], [`World::put_state`]); it
//! never creates a state, which is why a state type needs no `Default` bound
//! at compile time.

use std::any::TypeId;

use super::hooks::{Stored, type_label};
use super::result::StepError;

struct Slot {
    file: String,
    type_id: TypeId,
    type_name: &'static str,
    /// `None` while a by-value step holds it.
    value: Option<Stored>,
    /// The step index that created it (where a teardown failure points).
    step: usize,
}

/// A state the world held, handed back for teardown.
#[derive(Debug)]
pub struct Released {
    /// Its type.
    pub type_id: TypeId,
    /// `type_name` of its type.
    pub type_name: &'static str,
    /// The value.
    pub value: Stored,
    /// The step index that created it.
    pub step: usize,
}

/// The states of one example.
#[derive(Default)]
pub struct World {
    current_file: String,
    slots: Vec<Slot>,
}

impl World {
    /// An empty world, for one example.
    pub fn new() -> Self {
        World::default()
    }

    /// Set the step file whose state the next handler sees.
    pub fn enter_file(&mut self, file: &str) {
        if self.current_file != file {
            self.current_file.clear();
            self.current_file.push_str(file);
        }
    }

    fn position(&self, type_id: TypeId) -> Option<usize> {
        self.slots
            .iter()
            .position(|s| s.type_id == type_id && s.file == self.current_file)
    }

    /// Whether the current file has a value of this type.
    pub fn has(&self, type_id: TypeId) -> bool {
        self.position(type_id).is_some()
    }

    /// Keep `value` as the current file's state of this type, created by
    /// step `step`.
    pub fn insert(&mut self, type_id: TypeId, type_name: &'static str, value: Stored, step: usize) {
        match self.position(type_id) {
            Some(i) => self.slots[i].value = Some(value),
            None => self.slots.push(Slot {
                file: self.current_file.clone(),
                type_id,
                type_name,
                value: Some(value),
                step,
            }),
        }
    }

    /// Provide a state directly (tests, tools): `S` for the current file.
    pub fn provide<S: Send + 'static>(&mut self, value: S) {
        self.insert(
            TypeId::of::<S>(),
            std::any::type_name::<S>(),
            Stored::Owned(Box::new(value)),
            0,
        );
    }

    fn missing<S>() -> StepError {
        StepError::new(format!(
            "the state {} was not prepared for this step",
            type_label(std::any::type_name::<S>())
        ))
    }

    /// `&S` for a step: the current file's state, or a lent resource.
    pub fn state_ref<S: 'static>(&self) -> Result<&S, StepError> {
        self.position(TypeId::of::<S>())
            .and_then(|i| self.slots[i].value.as_ref())
            .and_then(Stored::downcast_ref::<S>)
            .ok_or_else(Self::missing::<S>)
    }

    /// `&mut S` for a step: the current file's own state.
    pub fn state_mut<S: 'static>(&mut self) -> Result<&mut S, StepError> {
        let i = self
            .position(TypeId::of::<S>())
            .ok_or_else(Self::missing::<S>)?;
        match &mut self.slots[i].value {
            Some(Stored::Owned(b)) => b.downcast_mut::<S>().ok_or_else(Self::missing::<S>),
            _ => Err(Self::missing::<S>()),
        }
    }

    /// `S` by value for a step: taken out until [`World::put_state`] puts
    /// the next one back.
    pub fn take_state<S: 'static>(&mut self) -> Result<S, StepError> {
        let i = self
            .position(TypeId::of::<S>())
            .ok_or_else(Self::missing::<S>)?;
        match self.slots[i].value.take() {
            Some(Stored::Owned(b)) => match b.downcast::<S>() {
                Ok(s) => Ok(*s),
                Err(b) => {
                    self.slots[i].value = Some(Stored::Owned(b));
                    Err(Self::missing::<S>())
                }
            },
            other => {
                self.slots[i].value = other;
                Err(Self::missing::<S>())
            }
        }
    }

    /// Put the next state in (full replacement).
    pub fn put_state<S: Send + 'static>(&mut self, next: S) {
        match self.position(TypeId::of::<S>()) {
            Some(i) => self.slots[i].value = Some(Stored::Owned(Box::new(next))),
            None => self.provide(next),
        }
    }

    /// Every value still held, newest first (teardown order), emptying the
    /// world. A by-value state a panicking step consumed is not among them.
    pub fn release(&mut self) -> Vec<Released> {
        let mut out = Vec::with_capacity(self.slots.len());
        while let Some(slot) = self.slots.pop() {
            if let Some(value) = slot.value {
                out.push(Released {
                    type_id: slot.type_id,
                    type_name: slot.type_name,
                    value,
                    step: slot.step,
                });
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[derive(Debug, PartialEq)]
    struct Count(i64);

    #[test]
    fn states_are_per_file_and_type() {
        let mut w = World::new();
        w.enter_file("a.rs");
        w.provide(Count(1));
        w.state_mut::<Count>().unwrap().0 += 1;
        assert_eq!(w.state_ref::<Count>().unwrap(), &Count(2));
        w.enter_file("b.rs");
        assert!(!w.has(TypeId::of::<Count>()));
        assert_eq!(
            w.state_ref::<Count>().unwrap_err().message,
            "the state Count was not prepared for this step"
        );
        w.enter_file("a.rs");
        let taken = w.take_state::<Count>().unwrap();
        assert!(w.state_ref::<Count>().is_err(), "taken out");
        w.put_state(Count(taken.0 * 10));
        assert_eq!(w.state_ref::<Count>().unwrap(), &Count(20));
    }

    #[test]
    fn resources_are_lent_read_only_and_released_newest_first() {
        let mut w = World::new();
        w.enter_file("a.rs");
        w.insert(
            TypeId::of::<String>(),
            "String",
            Stored::Shared(Arc::new(String::from("db"))),
            0,
        );
        w.provide(Count(0));
        assert_eq!(w.state_ref::<String>().unwrap(), "db");
        assert!(w.state_mut::<String>().is_err());
        assert!(w.take_state::<String>().is_err());
        assert_eq!(w.state_ref::<String>().unwrap(), "db", "still there");
        let released: Vec<TypeId> = w.release().iter().map(|r| r.type_id).collect();
        assert_eq!(
            released,
            vec![TypeId::of::<Count>(), TypeId::of::<String>()]
        );
        assert!(w.release().is_empty());
    }
}
