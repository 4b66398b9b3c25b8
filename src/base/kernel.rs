//! Run-time choice of the instruction set the hot search code is compiled for.
//!
//! The search is written once (as a macro body) and instantiated twice: a portable copy and,
//! on x86-64, a copy whose functions carry `#[target_feature]` for the x86-64-v3 extensions.
//! The x86-64-v3 copies of the midgame and of the endgame both enable AVX2 and compute flips
//! with the hand-written AVX2 routine (`bits::flips_avx2`: the four rays of each half in the
//! lanes of one vector), and the endgame's move ordering takes the legal moves of four children
//! at once (`bits::moves_x4_avx2`). Until the forty-fifth session the endgame copy left AVX2
//! out, because with it the compiler vectorised the scalar eight-ray flips, which measured 16 %
//! slower than the scalar LZCNT/BLSI code; the hand-written flips are faster than both
//! (docs/history/measurements.md#session-45). Perft, bound by the move generator, keeps
//! AVX2 (0.50 s -> 0.35 s for perft 11).
//! The bit routines of `board::bits` inline into either copy. The choice is made at run time
//! with `is_x86_feature_detected!`, so one binary runs on every x86-64 and uses the fast
//! instructions where they exist.

/// Which compiled copy of the search to use. Its field is private: a `Kernel` naming the
/// x86-64-v3 copy comes only from `detect`, which checked the CPU, so code that runs the copy
/// a `Kernel` names (`unsafe` calls into `#[target_feature]` functions) can trust it.
///
/// ```compile_fail
/// // Safe code cannot claim CPU features it has not checked:
/// let k = oxello::base::Kernel(oxello::base::kernel::Isa::Portable);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Kernel(Isa, Wide);

/// Whether the CPU also has AVX-512 (F, BW, VL), checked by `detect`: the x86-64-v3 leaf
/// evaluation then fetches its pattern weights sixteen lanes a gather instead of eight
/// (`Evaluator`, 3–4.5 % less time in a level-17 midgame search on an Emerald Rapids Xeon). Only
/// the leaf evaluation has such a copy: a third copy of the whole midgame search compiled with
/// AVX-512 took 1.03× the time of the x86-64-v3 one (forty-ninth session).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Wide(bool);

/// The instruction sets the copies are compiled for; read one with `Kernel::isa`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Isa {
    Portable,
    #[cfg(target_arch = "x86_64")]
    X86V3,
}

impl Kernel {
    /// The portable copy: runs on every CPU.
    pub const PORTABLE: Kernel = Kernel(Isa::Portable, Wide(false));

    /// The instruction set of the copy to run.
    pub fn isa(self) -> Isa {
        self.0
    }

    /// True when the CPU has AVX-512 F, BW and VL besides the x86-64-v3 extensions (`Wide`).
    pub fn wide(self) -> bool {
        self.1.0
    }

    /// The fastest kernel this CPU supports. `OXELLO_KERNEL=portable` forces the plain one,
    /// `OXELLO_KERNEL=x86-64-v3` the x86-64-v3 one without the AVX-512 gathers.
    pub fn detect() -> Kernel {
        let forced = std::env::var("OXELLO_KERNEL").ok();
        if forced.as_deref() == Some("portable") {
            return Kernel::PORTABLE;
        }
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("popcnt")
                && std::arch::is_x86_feature_detected!("lzcnt")
                && std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("avx2")
            {
                let wide = forced.as_deref() != Some("x86-64-v3")
                    && std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512bw")
                    && std::arch::is_x86_feature_detected!("avx512vl");
                return Kernel(Isa::X86V3, Wide(wide));
            }
        }
        Kernel::PORTABLE
    }

    /// Every kernel this CPU can run, the plain one first and `detect`'s last: what tests
    /// compare against each other.
    pub fn every() -> Vec<Kernel> {
        let best = Kernel::detect();
        let mut all = vec![Kernel::PORTABLE];
        #[cfg(target_arch = "x86_64")]
        if best.0 == Isa::X86V3 {
            all.push(Kernel(Isa::X86V3, Wide(false)));
            if best.wide() {
                all.push(best);
            }
        }
        all
    }

    /// True when the CPU has AVX-512 CD too (its per-lane leading-zero count) besides what
    /// `wide` says: the exact solver then runs its copy with `bits::flips_avx512`.
    pub fn lzcnt_wide(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        if self.wide() {
            return std::arch::is_x86_feature_detected!("avx512cd");
        }
        false
    }

    pub fn name(self) -> &'static str {
        match self.0 {
            Isa::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Isa::X86V3 if self.wide() => "x86-64-v3 (popcnt, lzcnt, bmi1, bmi2, avx2), leaf gathers with avx512",
            #[cfg(target_arch = "x86_64")]
            Isa::X86V3 => "x86-64-v3 (popcnt, lzcnt, bmi1, bmi2, avx2)",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kernel_is_listed_once_the_detected_one_last() {
        let all = Kernel::every();
        assert_eq!(all.first(), Some(&Kernel::PORTABLE));
        assert_eq!(all.last(), Some(&Kernel::detect()));
        for (i, a) in all.iter().enumerate() {
            assert!(all[i + 1..].iter().all(|b| b != a), "{all:?}");
            // The wide gathers come only with the x86-64-v3 copy.
            assert!(!a.wide() || a.isa() != Isa::Portable);
        }
    }
}
