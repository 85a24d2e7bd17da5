use std::sync::Arc;

use std::any::{Any, TypeId};

use super::model::ResourceSpec;
use super::*;
use crate::drive::BuiltIn;
use crate::step::Lent;
use crate::step::{Access, DefaultCtor, ResourceBuild, StateBuild, StateParam, TeardownCall};

struct Shop;
struct Customer;
#[derive(Default)]
struct Basket;

fn resource_of<T: 'static>(name: &str, file: &str, line: u32) -> ResourceSpec {
    ResourceSpec {
        name: name.to_string(),
        type_id: TypeId::of::<T>(),
        type_name: std::any::type_name::<T>(),
        build: ResourceBuild::Sync(|| Err("unused".to_string())),
        unwrap: crate::step::unwrap_resource::<u8>,
        file: file.to_string(),
        line,
    }
}

fn factory_of<T: 'static>(name: &str, needs: Vec<(TypeId, &'static str)>) -> StateSpec {
    fn build(_: &Lent) -> crate::step::Built {
        Err("unused".to_string())
    }
    StateSpec {
        name: name.to_string(),
        type_id: TypeId::of::<T>(),
        type_name: std::any::type_name::<T>(),
        needs,
        build: StateBuild::Sync(build),
        file: "tests/steps.rs".to_string(),
        line: 30,
    }
}

fn param<T: 'static>(access: Access, default: fn() -> Option<DefaultCtor>) -> StateParam {
    StateParam {
        type_id: TypeId::of::<T>,
        type_name: std::any::type_name::<T>,
        access,
        default,
    }
}

fn no_default() -> Option<DefaultCtor> {
    None
}

fn basket_default() -> Option<DefaultCtor> {
    fn make() -> Box<dyn Any + Send> {
        Box::new(Basket)
    }
    Some(make)
}

fn step(expression: &'static str, state: Option<StateParam>) -> StepUse<'static> {
    StepUse {
        expression,
        file: "tests/steps.rs",
        line: 12,
        state,
    }
}

fn errors(result: Result<Lifecycle, LifecycleErrors>) -> Vec<String> {
    match result {
        Ok(_) => panic!("the lifecycle should not build"),
        Err(e) => e.to_string().lines().map(str::to_string).collect(),
    }
}

#[test]
fn routes_go_to_resources_factories_and_default() {
    let lifecycle = Lifecycle::build(
        vec![resource_of::<Shop>("shop", "tests/shop.rs", 3)],
        vec![factory_of::<Customer>(
            "customer",
            vec![(TypeId::of::<Shop>(), "Shop")],
        )],
        Vec::new(),
        &[
            step(
                "the shop is open",
                Some(param::<Shop>(Access::Shared, no_default)),
            ),
            step("I order", Some(param::<Customer>(Access::Mut, no_default))),
            step(
                "I pay",
                Some(param::<Basket>(Access::Owned, basket_default)),
            ),
            step("nothing", None),
        ],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(lifecycle.route(0), Some(Route::Resource(0))));
    assert!(matches!(
        lifecycle.route(1),
        Some(Route::State {
            make: Make::Factory(0),
            ..
        })
    ));
    assert!(matches!(
        lifecycle.route(2),
        Some(Route::State {
            make: Make::Default(_),
            ..
        })
    ));
    assert!(lifecycle.route(3).is_none());
}

#[test]
fn a_resource_taken_by_mut_or_by_value_is_refused_with_the_spec_text() {
    let e = errors(Lifecycle::build(
        vec![resource_of::<Shop>("shop", "tests/shop.rs", 3)],
        Vec::new(),
        Vec::new(),
        &[
            step(
                "I rob the shop",
                Some(param::<Shop>(Access::Mut, no_default)),
            ),
            step(
                "I buy the shop",
                Some(param::<Shop>(Access::Owned, no_default)),
            ),
        ],
    ));
    assert_eq!(
        e,
        [
            "tests/steps.rs:12: step \"I rob the shop\" takes Shop by mut reference, but Shop is a run-wide resource: take &Shop",
            "tests/steps.rs:12: step \"I buy the shop\" takes Shop by value, but Shop is a run-wide resource: take &Shop",
        ]
    );
}

#[test]
fn two_registrations_for_one_type_name_both_functions() {
    let e = errors(Lifecycle::build(
        vec![
            resource_of::<Shop>("shop", "tests/a.rs", 3),
            resource_of::<Shop>("other_shop", "tests/b.rs", 9),
        ],
        vec![
            factory_of::<Customer>("customer", Vec::new()),
            factory_of::<Customer>("walk_in", Vec::new()),
        ],
        Vec::new(),
        &[],
    ));
    assert_eq!(
        e,
        [
            "two #[varar::resource] functions for Shop: `shop` at tests/a.rs:3 and `other_shop` at tests/b.rs:9",
            "two #[varar::state] functions for Customer: `customer` at tests/steps.rs:30 and `walk_in` at tests/steps.rs:30",
        ]
    );
}

#[test]
fn a_state_needs_a_factory_or_default_and_is_reported_once() {
    let e = errors(Lifecycle::build(
        Vec::new(),
        Vec::new(),
        Vec::new(),
        &[
            step("I order", Some(param::<Customer>(Access::Mut, no_default))),
            step(
                "I order again",
                Some(param::<Customer>(Access::Mut, no_default)),
            ),
        ],
    ));
    assert_eq!(
        e,
        [
            "tests/steps.rs:12: step \"I order\" takes the state Customer, which has neither a #[varar::state] factory nor a Default implementation: derive or implement Default for Customer, or add a #[varar::state] function that returns it"
        ]
    );
}

#[test]
fn factories_take_only_resources_and_a_type_is_one_or_the_other() {
    let e = errors(Lifecycle::build(
        vec![resource_of::<Shop>("shop", "tests/shop.rs", 3)],
        vec![
            factory_of::<Customer>("customer", vec![(TypeId::of::<Basket>(), "my::Basket")]),
            factory_of::<Shop>("shop_state", Vec::new()),
        ],
        Vec::new(),
        &[],
    ));
    assert_eq!(
        e,
        [
            "tests/steps.rs:30: the state factory `customer` takes &Basket, but Basket is not a run-wide resource: declare a #[varar::resource] function that returns it",
            "Shop is both a run-wide resource (`shop` at tests/shop.rs:3) and a per-example state (`shop_state` at tests/steps.rs:30): keep one",
        ]
    );
}

#[test]
fn the_store_builds_once_remembers_failures_and_tears_down_newest_first() {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    static BUILDS: AtomicUsize = AtomicUsize::new(0);
    static LOG: Mutex<Vec<&str>> = Mutex::new(Vec::new());
    fn build_u8() -> Result<Arc<dyn Any + Send + Sync>, String> {
        BUILDS.fetch_add(1, Ordering::SeqCst);
        Ok(Arc::new(1_u8))
    }
    fn build_u16() -> Result<Arc<dyn Any + Send + Sync>, String> {
        Ok(Arc::new(2_u16))
    }
    fn fails() -> Result<Arc<dyn Any + Send + Sync>, String> {
        BUILDS.fetch_add(100, Ordering::SeqCst);
        Err("no disk".to_string())
    }
    fn down_u8(_: Box<dyn Any + Send>) -> TeardownCall {
        LOG.lock().unwrap().push("u8");
        TeardownCall::Done(Ok(()))
    }
    fn down_u16(_: Box<dyn Any + Send>) -> TeardownCall {
        LOG.lock().unwrap().push("u16");
        TeardownCall::Done(Err("still busy".to_string()))
    }
    let spec = |id: TypeId, name: &'static str, build, unwrap| ResourceSpec {
        name: name.to_string(),
        type_id: id,
        type_name: name,
        build: ResourceBuild::Sync(build),
        unwrap,
        file: "r.rs".to_string(),
        line: 1,
    };
    let store = ResourceStore::new(vec![
        spec(
            TypeId::of::<u8>(),
            "u8",
            build_u8,
            crate::step::unwrap_resource::<u8>,
        ),
        spec(
            TypeId::of::<u16>(),
            "u16",
            build_u16,
            crate::step::unwrap_resource::<u16>,
        ),
        spec(
            TypeId::of::<u32>(),
            "u32",
            fails,
            crate::step::unwrap_resource::<u32>,
        ),
    ]);
    let driver = BuiltIn::new();
    std::thread::scope(|s| {
        for _ in 0..8 {
            s.spawn(|| assert!(matches!(store.acquire(0, &driver), Acquired::Ready(_))));
        }
    });
    assert_eq!(BUILDS.load(Ordering::SeqCst), 1);
    assert!(matches!(store.acquire(1, &driver), Acquired::Ready(_)));
    for _ in 0..2 {
        match store.acquire(2, &driver) {
            Acquired::Failed(m) => assert_eq!(m, "resource u32 could not be built: no disk"),
            _ => panic!("the build fails"),
        }
    }
    assert_eq!(
        BUILDS.load(Ordering::SeqCst),
        101,
        "a failure is not retried"
    );
    let held = match store.acquire(0, &driver) {
        Acquired::Ready(v) => v,
        _ => panic!("built"),
    };
    let problems = store.teardown_all(
        |id| {
            if id == TypeId::of::<u8>() {
                Some(down_u8 as fn(Box<dyn Any + Send>) -> TeardownCall)
            } else if id == TypeId::of::<u16>() {
                Some(down_u16)
            } else {
                None
            }
        },
        &driver,
    );
    assert_eq!(
        problems,
        [
            ResourceTeardown::Failed("teardown of resource u16 failed: still busy".to_string()),
            ResourceTeardown::Skipped(
                "teardown of resource u8 skipped: an example whose step never returned still holds it"
                    .to_string()
            ),
        ]
    );
    assert_eq!(*LOG.lock().unwrap(), ["u16"]);
    drop(held);
}
