//! The two hashes of the project's files: `sourceHash` (spec 40 §3), 32-bit
//! FNV-1a over the UTF-16 code units of the oath text exactly as read (no
//! BOM, line-ending or Unicode normalisation), what results and the lock name
//! a source by; and SHA-256 ([`sha256_hex`]), what the run record's manifest
//! and attestations name a file by (seed 002, issue 19).

/// FNV-1a offset basis.
const OFFSET_BASIS: u32 = 0x811c_9dc5;
/// FNV-1a prime.
const PRIME: u32 = 0x0100_0193;

/// `fnv1a:` followed by the 8 lowercase, zero-padded hex digits of the hash of
/// `text`'s UTF-16 code units. Characters above U+FFFF contribute both
/// surrogates, so the value matches the other ports, which hash JavaScript
/// strings.
///
/// ```
/// assert_eq!(varar_core::hash::source_hash("hello"), "fnv1a:4f9f2cab");
/// ```
pub fn source_hash(text: &str) -> String {
    let hash = if crate::text::is_ascii(text) {
        // Each byte is one UTF-16 unit; an index loop stays cheap in
        // unoptimised builds, where iterator adapters are not.
        let bytes = text.as_bytes();
        let mut h = OFFSET_BASIS;
        let mut i = 0;
        while i < bytes.len() {
            h = (h ^ u32::from(bytes[i])).wrapping_mul(PRIME);
            i += 1;
        }
        h
    } else {
        text.encode_utf16().fold(OFFSET_BASIS, |h, unit| {
            (h ^ u32::from(unit)).wrapping_mul(PRIME)
        })
    };
    format!("fnv1a:{hash:08x}")
}

/// The lowercase hexadecimal SHA-256 of `bytes`.
///
/// ```
/// assert_eq!(
///     varar_core::hash::sha256_hex(b"abc"),
///     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// );
/// ```
pub fn sha256_hex(bytes: &[u8]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(bytes);
    hasher.finish_hex()
}

/// SHA-256 fed piece by piece, for what should not be held whole (the
/// shell hashes a test binary of tens of megabytes in chunks).
///
/// ```
/// let mut h = varar_core::hash::Sha256::new();
/// h.update(b"a");
/// h.update(b"bc");
/// assert_eq!(h.finish_hex(), varar_core::hash::sha256_hex(b"abc"));
/// ```
pub struct Sha256(ring::digest::Context);

impl Default for Sha256 {
    fn default() -> Self {
        Sha256::new()
    }
}

impl Sha256 {
    /// A hasher of nothing yet.
    pub fn new() -> Sha256 {
        Sha256(ring::digest::Context::new(&ring::digest::SHA256))
    }

    /// Feed `bytes`.
    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// The lowercase hexadecimal digest of everything fed.
    pub fn finish_hex(self) -> String {
        let digest = self.0.finish();
        let mut out = String::with_capacity(64);
        for &byte in digest.as_ref() {
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0xf)]));
        }
        out
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

#[cfg(test)]
mod tests {
    use super::{sha256_hex, source_hash};

    #[test]
    fn sha256_of_the_standard_vectors() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            sha256_hex(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
    }

    proptest::proptest! {
        /// The ASCII byte loop hashes what the UTF-16 fold hashes.
        #[test]
        fn the_ascii_path_equals_the_utf16_fold(s in "[\\x00-\\x7f]{0,40}") {
            let fold = s.encode_utf16().fold(super::OFFSET_BASIS, |h, unit| {
                (h ^ u32::from(unit)).wrapping_mul(super::PRIME)
            });
            proptest::prop_assert_eq!(source_hash(&s), format!("fnv1a:{fold:08x}"));
        }
    }

    #[test]
    fn spec_vectors() {
        // Spec 40 §3 and spec 30 §30.8.3.
        let cases = [
            ("", "fnv1a:811c9dc5"),
            ("hello", "fnv1a:4f9f2cab"),
            ("abc", "fnv1a:1a47e90b"),
            ("# Title\n", "fnv1a:4eace75e"),
            ("# Title\r\n", "fnv1a:b037b1a7"),
            ("\u{feff}# Title\n", "fnv1a:425f21a9"),
            ("a", "fnv1a:e40c292c"),
            ("é", "fnv1a:6c0b6c44"),
            ("😀", "fnv1a:cb31c4b8"),
            ("£2.50", "fnv1a:9eb344e7"),
            ("x2", "fnv1a:0f630cef"),
        ];
        for (input, want) in cases {
            assert_eq!(source_hash(input), want, "hash of {input:?}");
        }
    }

    #[test]
    fn conformance_bundle_vectors() {
        // Spec 30 §30.8.3: the vendored bundle oaths, byte for byte.
        let cases = [
            (
                include_str!("../../conformance/corpus/bundles/01-roman-numerals/example.md"),
                "fnv1a:e981c263",
            ),
            (
                include_str!("../../conformance/corpus/bundles/06-doc-string-mismatch/example.md"),
                "fnv1a:03463d36",
            ),
            (
                include_str!("../../conformance/corpus/bundles/07-row-check-mismatch/example.md"),
                "fnv1a:95da5ba8",
            ),
            (
                include_str!(
                    "../../conformance/corpus/bundles/15-custom-parameter-format/example.md"
                ),
                "fnv1a:07f36bca",
            ),
            (
                include_str!("../../conformance/corpus/bundles/17-unexpected-pass/example.md"),
                "fnv1a:7bcf94db",
            ),
            (
                include_str!("../../conformance/corpus/bundles/18-multi-table-example/example.md"),
                "fnv1a:f4bdc34f",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(source_hash(input), want);
        }
    }

    #[test]
    fn astral_chars_hash_both_surrogates() {
        // U+1F600 is D83D DE00; hashing the two units by hand gives the vector.
        let by_hand = [0xd83du32, 0xde00]
            .iter()
            .fold(0x811c_9dc5u32, |h, u| (h ^ u).wrapping_mul(0x0100_0193));
        assert_eq!(source_hash("😀"), format!("fnv1a:{by_hand:08x}"));
    }
}
