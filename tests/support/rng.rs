//! SplitMix64: a small, seeded, dependency-free generator for shaping test
//! and benchmark data. Shared by `tests/it`, `benches/` and the redaction
//! unit tests (`crates/tracegate/src/redact/tests.rs`) via `#[path]`.
#![allow(dead_code)]

/// A seeded generator.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// An index in `0..n`.
    pub fn index(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A float in `[lo, hi)`.
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// One of `xs`.
    pub fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.index(xs.len())]
    }

    /// `n` characters drawn from `set`.
    pub fn chars(&mut self, set: &[u8], n: usize) -> String {
        (0..n)
            .map(|_| char::from(set[self.index(set.len())]))
            .collect()
    }
}
