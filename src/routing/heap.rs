//! The bytes the process holds on its heap, as the binary's allocator
//! counts them (`main.rs` wraps its allocator to add and take away): what
//! `verify`'s search reads to stop under `--max-memory`, whatever structure
//! grows. Where no counting allocator runs (the library's own tests), it
//! reads 0 and no search stops for memory.

use std::sync::atomic::{AtomicUsize, Ordering};

static IN_USE: AtomicUsize = AtomicUsize::new(0);

/// `bytes` more are held.
pub fn add(bytes: usize) {
    IN_USE.fetch_add(bytes, Ordering::Relaxed);
}

/// `bytes` are given back.
pub fn sub(bytes: usize) {
    IN_USE.fetch_sub(bytes, Ordering::Relaxed);
}

/// The bytes held now.
pub fn in_use() -> usize {
    IN_USE.load(Ordering::Relaxed)
}
