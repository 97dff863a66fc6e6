//! What this process has done to the store, for the layers that must act
//! on it: whether a write has landed (an interrupt then lets the call end
//! honestly), how many have (a long-lived server notices changes), and
//! whether the call was asked to stop.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Set once this process has begun to make a write visible (the rename). From
/// then on an interrupt must not report `cancelled`: the write has landed, so
/// the call runs to its honest end.
static COMMITTED: AtomicBool = AtomicBool::new(false);

/// Writes made visible by this process so far.
static WRITES: AtomicU64 = AtomicU64::new(0);

/// Marks a write as visible (see `COMMITTED`) and counts it.
pub(super) fn committed() {
    COMMITTED.store(true, Ordering::SeqCst);
    WRITES.fetch_add(1, Ordering::SeqCst);
}

/// How many writes this process has made visible: a long-lived server
/// compares two counts to learn whether anything changed in between.
pub fn writes() -> u64 {
    WRITES.load(Ordering::SeqCst)
}

/// Whether this process has already made a write visible.
pub fn write_committed() -> bool {
    COMMITTED.load(Ordering::SeqCst)
}

/// Set when an interrupt (Ctrl-C) arrives after a write has landed: the call
/// is not killed then, but a long one (`evolve run`) polls this, stops at the
/// next safe point, keeps what it did and reports `cancelled`.
static INTERRUPT: AtomicBool = AtomicBool::new(false);

/// Asks the running call to stop at its next safe point.
pub fn request_interrupt() {
    INTERRUPT.store(true, Ordering::SeqCst);
}

/// Whether the call has been asked to stop.
pub fn interrupt_requested() -> bool {
    INTERRUPT.load(Ordering::SeqCst)
}

/// Set by a long-lived process that polls [`interrupt_requested`] itself
/// (`agentbox view`): Ctrl-C then asks it to stop rather than ending it.
static POLLS: AtomicBool = AtomicBool::new(false);

/// Says this process polls for interrupts and stops by itself.
pub fn poll_interrupts() {
    POLLS.store(true, Ordering::SeqCst);
}

/// Whether this process stops by itself when interrupted.
pub fn polls_interrupts() -> bool {
    POLLS.load(Ordering::SeqCst)
}
