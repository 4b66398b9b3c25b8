//! perft: counts the leaves of the game tree to a fixed depth, the move generator's check.

use crate::base::{Isa, Kernel};
use crate::board::Board;
use crate::board::bits::{self, Squares};

/// How a forced pass is counted.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum PassPolicy {
    /// A pass is a move and uses one ply of depth ("mode 1").
    Move,
    /// A pass is free: the opponent moves at the same depth ("mode 2").
    Skip,
}

macro_rules! perft_impl {
    ($(#[$attr:meta])*) => {
        use super::*;

        $(#[$attr])*
        fn count(p: u64, o: u64, depth: u32, policy: PassPolicy) -> u64 {
            let m = bits::moves(p, o);
            if m == 0 {
                if bits::moves(o, p) == 0 {
                    return 1; // game over: a leaf
                }
                return match policy {
                    PassPolicy::Move if depth == 1 => 1,
                    PassPolicy::Move => count(o, p, depth - 1, policy),
                    PassPolicy::Skip => count(o, p, depth, policy),
                };
            }
            if depth == 1 {
                return m.count_ones() as u64;
            }
            Squares(m)
                .map(|sq| {
                    let f = bits::flips(p, o, sq);
                    count(o ^ f, p ^ f ^ (1u64 << sq), depth - 1, policy)
                })
                .sum()
        }

        /// Safety: the caller checked this copy's CPU features.
        #[allow(unused_unsafe)]
        $(#[$attr])*
        pub(super) unsafe fn run(b: Board, depth: u32, policy: PassPolicy) -> u64 {
            if depth == 0 { 1 } else { count(b.player, b.opponent, depth, policy) }
        }
    };
}

mod portable {
    perft_impl!();
}

#[cfg(target_arch = "x86_64")]
mod x86v3 {
    perft_impl!(#[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]);
}

/// Leaves at `depth` plies below `b`. Finished games count as one leaf where they end.
pub fn perft(b: Board, depth: u32, policy: PassPolicy, kernel: Kernel) -> u64 {
    // SAFETY: `kernel` comes from `Kernel::detect`, which checked the CPU features.
    match kernel.isa() {
        Isa::Portable => unsafe { portable::run(b, depth, policy) },
        #[cfg(target_arch = "x86_64")]
        Isa::X86V3 => unsafe { x86v3::run(b, depth, policy) },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODE1: [u64; 10] = [1, 4, 12, 56, 244, 1_396, 8_200, 55_092, 390_216, 3_005_288];

    #[test]
    fn perft_pass_as_move_to_depth_9() {
        for kernel in [Kernel::PORTABLE, Kernel::detect()] {
            for (d, &n) in MODE1.iter().enumerate() {
                assert_eq!(perft(Board::START, d as u32, PassPolicy::Move, kernel), n, "depth {d}");
            }
        }
    }

    #[test]
    fn perft_pass_skipped_to_depth_9() {
        for kernel in [Kernel::PORTABLE, Kernel::detect()] {
            for (d, &n) in MODE1.iter().enumerate().take(9) {
                assert_eq!(perft(Board::START, d as u32, PassPolicy::Skip, kernel), n, "depth {d}");
            }
            assert_eq!(perft(Board::START, 9, PassPolicy::Skip, kernel), 3_005_320);
        }
    }
}
