//! A plain FNV-1a hasher for the engine's own hash maps (drift's token
//! index, unique item names). Their keys come from the user's own
//! documents, so the DoS resistance of std's SipHash buys nothing, and
//! SipHash dominated those maps' cost in unoptimised (`cargo test`) builds.

use std::collections::HashMap;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// 64-bit FNV-1a.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // An index loop: no iterator adapters to pay for when unoptimised.
        let mut h = self.0;
        let mut i = 0;
        while i < bytes.len() {
            h = (h ^ u64::from(bytes[i])).wrapping_mul(0x0000_0100_0000_01b3);
            i += 1;
        }
        self.0 = h;
    }
}

/// A `HashMap` hashed with [`Fnv`].
pub(crate) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<Fnv>>;

/// A `HashSet` hashed with [`Fnv`].
pub(crate) type FastSet<K> = HashSet<K, BuildHasherDefault<Fnv>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_64_test_vectors() {
        let hash = |s: &str| {
            let mut h = Fnv::default();
            h.write(s.as_bytes());
            h.finish()
        };
        assert_eq!(hash(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(hash("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(hash("foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn maps_work_as_maps() {
        let mut m: FastMap<String, u32> = FastMap::default();
        m.insert("x".into(), 1);
        m.insert("y".into(), 2);
        assert_eq!(m.get("x"), Some(&1));
        let s: FastSet<&str> = ["a", "b", "a"].into_iter().collect();
        assert_eq!(s.len(), 2);
    }
}
