//! Fuzzes the whole input pipeline — parse, validate, render, merge with live
//! objects, print and diff — through `routerctl::commands::exercise`. Bytes before
//! the first NUL are ModelRouter input; the rest are live objects.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    routerctl::commands::exercise(data);
});
