//! Fuzz target `policy_compile`: see `tracegate_fuzz::invariants::policy_compile`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tracegate_fuzz::invariants::policy_compile(data));
