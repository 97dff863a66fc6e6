//! The random part of every id agentbox mints (home ids, evolve run ids,
//! foresight items, the model route's request and session ids), drawn in
//! one place so that `AGENTBOX_SEED` can make them reproducible.
//!
//! Without the variable the bytes are the system's randomness (a v4 UUID's).
//! With it (test-only, like `AGENTBOX_NOW`: docs/CONTRACTS.md) they are
//! sha256(seed, n) for the n-th draw of the process, so two draws of one
//! process differ and a fixed seed gives the same ids run after run. Two
//! processes with the same seed draw the same ids: a harness that runs many
//! commands gives each its own seed (tests/it/docs_examples.rs does). An id
//! that names something stored is drawn again while it is taken (foresight
//! items, evolve runs' folders; episode ids count past the taken ones), so
//! a seed left set in normal use makes ids repeat but loses nothing.

use sha2::{Digest, Sha256};
use std::sync::atomic::{AtomicU64, Ordering};

/// The draws made so far by this process under a seed.
static DRAWS: AtomicU64 = AtomicU64::new(0);

/// `N` (at most 32) random bytes: the system's, or the seed's next ones
/// when `AGENTBOX_SEED` is set (any non-empty value is a seed).
pub fn random_bytes<const N: usize>() -> [u8; N] {
    const { assert!(N <= 32, "a draw is at most 32 bytes") };
    match std::env::var("AGENTBOX_SEED") {
        Ok(seed) if !seed.is_empty() => seeded(&seed, DRAWS.fetch_add(1, Ordering::Relaxed)),
        _ => {
            let random = *uuid::Uuid::new_v4().as_bytes();
            let mut out = [0u8; N];
            // Past 16 bytes, a second UUID's.
            let more = *uuid::Uuid::new_v4().as_bytes();
            for (i, b) in out.iter_mut().enumerate() {
                *b = if i < 16 { random[i] } else { more[i - 16] };
            }
            out
        }
    }
}

/// The `draw`-th bytes of `seed`.
fn seeded<const N: usize>(seed: &str, draw: u64) -> [u8; N] {
    let mut hash = Sha256::new();
    hash.update(b"agentbox-seed\0");
    hash.update(seed.as_bytes());
    hash.update([0]);
    hash.update(draw.to_le_bytes());
    let digest = hash.finalize();
    let mut out = [0u8; N];
    out.copy_from_slice(&digest[..N]);
    out
}

/// A random v4 UUID (from [`random_bytes`]).
pub fn uuid_v4() -> uuid::Uuid {
    uuid::Builder::from_random_bytes(random_bytes::<16>()).into_uuid()
}

/// `len` (at most 32) random lowercase hex digits (from [`random_bytes`]).
pub fn hex(len: usize) -> String {
    assert!(len <= 32, "at most 32 hex digits");
    let bytes = random_bytes::<16>();
    let mut out = String::with_capacity(32);
    for b in bytes {
        out.push_str(&format!("{b:02x}"));
    }
    out.truncate(len);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_gives_the_same_draws_and_each_draw_differs() {
        let a: [u8; 16] = seeded("7", 0);
        assert_eq!(a, seeded::<16>("7", 0));
        assert_ne!(a, seeded::<16>("7", 1));
        assert_ne!(a, seeded::<16>("8", 0));
    }

    #[test]
    fn a_v4_uuid_stays_a_v4_uuid() {
        let id = uuid_v4();
        assert_eq!(id.get_version_num(), 4);
        assert_eq!(hex(12).len(), 12);
    }
}
