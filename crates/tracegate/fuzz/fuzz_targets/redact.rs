//! Fuzz target `redact`: see `tracegate_fuzz::invariants::redact`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tracegate_fuzz::invariants::redact(data));
