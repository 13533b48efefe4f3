//! Fixed-width cell sets for the solver: `u64` and `u128` for the usual
//! boxes, [`Wide`] for anything up to [`super::level::MAX_VOLUME`] cells.

use std::fmt::Debug;
use std::hash::Hash;

/// A set of box cells as a bit mask; bit `i` is the solver's cell `i`.
pub trait Mask: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    /// How many cells fit.
    const BITS: usize;
    /// The empty set.
    const ZERO: Self;
    /// Every bit set.
    const ONES: Self;
    /// The set holding only cell `i` (`i < BITS`).
    fn bit(i: usize) -> Self;
    /// Intersection.
    fn and(self, other: Self) -> Self;
    /// Union.
    fn or(self, other: Self) -> Self;
    /// Symmetric difference.
    fn xor(self, other: Self) -> Self;
    /// Complement.
    fn not(self) -> Self;
    /// Whether the set is empty.
    fn is_zero(self) -> bool;
    /// Index of the lowest clear bit (`BITS` when all are set).
    fn lowest_clear(self) -> usize;
    /// How many cells the set holds.
    fn count(self) -> u32;
    /// Cells 0 to 63 as a `u64` (cell `i` is bit `i`).
    fn low_u64(self) -> u64;
    /// Shift towards higher cells.
    fn shl(self, n: u32) -> Self;
    /// Shift towards lower cells.
    fn shr(self, n: u32) -> Self;
    /// Whether cell `i` is in the set.
    fn test(self, i: usize) -> bool {
        !self.and(Self::bit(i)).is_zero()
    }
}

macro_rules! prim_mask {
    ($t:ty) => {
        impl Mask for $t {
            const BITS: usize = <$t>::BITS as usize;
            const ZERO: Self = 0;
            const ONES: Self = <$t>::MAX;
            #[inline(always)]
            fn bit(i: usize) -> Self {
                1 << i
            }
            #[inline(always)]
            fn and(self, other: Self) -> Self {
                self & other
            }
            #[inline(always)]
            fn or(self, other: Self) -> Self {
                self | other
            }
            #[inline(always)]
            fn xor(self, other: Self) -> Self {
                self ^ other
            }
            #[inline(always)]
            fn not(self) -> Self {
                !self
            }
            #[inline(always)]
            fn is_zero(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn lowest_clear(self) -> usize {
                self.trailing_ones() as usize
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn low_u64(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            fn shl(self, n: u32) -> Self {
                self.checked_shl(n).unwrap_or(0)
            }
            #[inline(always)]
            fn shr(self, n: u32) -> Self {
                self.checked_shr(n).unwrap_or(0)
            }
        }
    };
}

prim_mask!(u64);
prim_mask!(u128);

/// Words in a [`Wide`] mask: 1024 cells.
pub const WIDE_WORDS: usize = 16;

/// A 1024-cell set for big boxes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Wide(pub [u64; WIDE_WORDS]);

impl Mask for Wide {
    const BITS: usize = 64 * WIDE_WORDS;
    const ZERO: Self = Wide([0; WIDE_WORDS]);
    const ONES: Self = Wide([u64::MAX; WIDE_WORDS]);

    fn bit(i: usize) -> Self {
        let mut w = [0; WIDE_WORDS];
        w[i / 64] = 1 << (i % 64);
        Wide(w)
    }
    fn and(self, other: Self) -> Self {
        Wide(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }
    fn or(self, other: Self) -> Self {
        Wide(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }
    fn xor(self, other: Self) -> Self {
        Wide(std::array::from_fn(|i| self.0[i] ^ other.0[i]))
    }
    fn not(self) -> Self {
        Wide(std::array::from_fn(|i| !self.0[i]))
    }
    fn is_zero(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    fn lowest_clear(self) -> usize {
        for (i, w) in self.0.iter().enumerate() {
            if *w != u64::MAX {
                return i * 64 + w.trailing_ones() as usize;
            }
        }
        Self::BITS
    }
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    fn low_u64(self) -> u64 {
        self.0[0]
    }
    fn shl(self, n: u32) -> Self {
        let (words, bits) = ((n / 64) as usize, n % 64);
        Wide(std::array::from_fn(|i| {
            if i < words {
                return 0;
            }
            let lo = self.0[i - words];
            let carry = if bits > 0 && i > words {
                self.0[i - words - 1] >> (64 - bits)
            } else {
                0
            };
            (lo << bits) | carry
        }))
    }
    fn shr(self, n: u32) -> Self {
        let (words, bits) = ((n / 64) as usize, n % 64);
        Wide(std::array::from_fn(|i| {
            if i + words >= WIDE_WORDS {
                return 0;
            }
            let hi = self.0[i + words];
            let carry = if bits > 0 && i + words + 1 < WIDE_WORDS {
                self.0[i + words + 1] << (64 - bits)
            } else {
                0
            };
            (hi >> bits) | carry
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_shifts_match_u128() {
        let v: u128 = 0x8000_0000_0000_0001_8000_0000_0000_0013;
        let mut w = Wide::ZERO;
        for i in 0..128 {
            if v >> i & 1 == 1 {
                w = w.or(Wide::bit(i));
            }
        }
        for n in [1, 3, 63, 64, 65, 100] {
            let l = w.shl(n);
            let r = w.shr(n);
            for i in 0..128 {
                assert_eq!(l.test(i), v.shl(n).test(i), "shl {n} bit {i}");
                assert_eq!(r.test(i), v.shr(n).test(i), "shr {n} bit {i}");
            }
        }
        assert_eq!(Wide::bit(70).lowest_clear(), 0);
        assert_eq!(Wide::ONES.lowest_clear(), Wide::BITS);
        assert_eq!(Wide::ONES.and(Wide::bit(70).not()).lowest_clear(), 70);
    }
}
