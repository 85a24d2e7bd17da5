//! A fast hasher for the engine's own hash maps (drift's token index,
//! unique item names). Their keys come from the user's own documents, so
//! the DoS resistance of std's SipHash buys nothing, and SipHash dominated
//! those maps' cost in unoptimised (`cargo test`) builds. Nothing hashed
//! here is written anywhere, and no map's order is read: the function can
//! change freely.

use std::collections::HashMap;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// Eight bytes at a time, each word mixed in by a multiplication (an item
/// name is about 150 bytes: a byte at a time, FNV-1a's way, was most of
/// the cost of claiming 5 000 of them).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Fast(u64);

/// An odd constant with well-spread bits (2^64 over the golden ratio).
const K: u64 = 0x9e37_79b9_7f4a_7c15;

impl Fast {
    fn mix(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
    }
}

impl Hasher for Fast {
    fn finish(&self) -> u64 {
        // The product's high bits are its best: fold them into the low
        // ones, which pick the bucket.
        self.0 ^ (self.0 >> 32)
    }

    fn write(&mut self, bytes: &[u8]) {
        // Index loops: no iterator adapters to pay for when unoptimised.
        let mut i = 0;
        while i + 8 <= bytes.len() {
            let mut word = [0u8; 8];
            word.copy_from_slice(&bytes[i..i + 8]);
            self.mix(u64::from_le_bytes(word));
            i += 8;
        }
        if i < bytes.len() {
            let mut word = [0u8; 8];
            word[..bytes.len() - i].copy_from_slice(&bytes[i..]);
            // The tail's length too: "a" and "a\0" differ.
            self.mix(u64::from_le_bytes(word) ^ ((bytes.len() - i) as u64) << 56);
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.mix(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.mix(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.mix(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.mix(n as u64);
    }
}

/// A `HashMap` hashed with [`Fast`].
pub(crate) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<Fast>>;

/// A `HashSet` hashed with [`Fast`].
pub(crate) type FastSet<K> = HashSet<K, BuildHasherDefault<Fast>>;

#[cfg(test)]
mod tests {
    use super::*;

    fn hash(bytes: &[u8]) -> u64 {
        let mut h = Fast::default();
        h.write(bytes);
        h.finish()
    }

    #[test]
    fn every_byte_counts_and_so_does_the_length() {
        let name = b"varar/shard-000/ledger-0001.md::Ledger 1::Monthly summary::156 / 63";
        let base = hash(name);
        assert_eq!(hash(name), base, "a function of the bytes");
        for i in 0..name.len() {
            let mut changed = name.to_vec();
            changed[i] ^= 1;
            assert_ne!(hash(&changed), base, "byte {i}");
        }
        for n in 0..name.len() {
            assert_ne!(hash(&name[..n]), base, "prefix of {n} bytes");
        }
        assert_ne!(hash(b"a"), hash(b"a\0"));
        assert_ne!(hash(b""), hash(b"\0"));
    }

    #[test]
    fn similar_names_spread_over_the_buckets() {
        // 4 096 names that differ only in a counter: every one of 256
        // buckets (the low bits) gets some, none more than four times its share.
        let mut buckets = [0u32; 256];
        for i in 0..4096 {
            let name = format!("varar/a.md::Shop::I add {i} apples");
            buckets[(hash(name.as_bytes()) & 255) as usize] += 1;
        }
        assert!(buckets.iter().all(|&n| n > 0 && n <= 64), "{buckets:?}");
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
