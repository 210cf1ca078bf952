//! Fuzz target `otlp_json_encode`: see `tracegate_fuzz::invariants::otlp_json_encode`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tracegate_fuzz::invariants::otlp_json_encode(data));
