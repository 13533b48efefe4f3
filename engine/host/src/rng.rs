//! The one random number generator rules may use.
//!
//! ChaCha8 is portable and fully specified: the same seed gives the same
//! stream on every machine and every version of the engine, which replays and
//! snapshot tests depend on. `thread_rng`/`StdRng` are never used by rules.

use rand::SeedableRng;

/// The seeded generator every game draws its randomness from.
pub type GameRng = rand_chacha::ChaCha8Rng;

/// Creates the generator for a session started with `seed`.
pub fn game_rng(seed: u64) -> GameRng {
    GameRng::seed_from_u64(seed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngCore;

    /// ChaCha8's first output for seed 42, as rand_chacha 0.9 defines it.
    const PINNED_FIRST_U64_OF_SEED_42: u64 = 12_578_764_544_318_200_737;

    #[test]
    fn same_seed_same_stream_and_pinned_first_value() {
        let mut a = game_rng(42);
        let mut b = game_rng(42);
        let first = a.next_u64();
        assert_eq!(first, b.next_u64());
        // Pinned: if this changes, every replay and snapshot changes too.
        assert_eq!(first, PINNED_FIRST_U64_OF_SEED_42, "got {first}");
        assert_ne!(first, game_rng(43).next_u64());
    }
}
