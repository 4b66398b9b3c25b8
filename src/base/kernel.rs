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
//! (docs/measurements.md, forty-fifth session). Perft, bound by the move generator, keeps
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
pub struct Kernel(Isa);

/// The instruction sets the copies are compiled for; read one with `Kernel::isa`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Isa {
    Portable,
    #[cfg(target_arch = "x86_64")]
    X86V3,
}

impl Kernel {
    /// The portable copy: runs on every CPU.
    pub const PORTABLE: Kernel = Kernel(Isa::Portable);

    /// The instruction set of the copy to run.
    pub fn isa(self) -> Isa {
        self.0
    }

    /// The fastest kernel this CPU supports. `OXELLO_KERNEL=portable` forces the plain one.
    pub fn detect() -> Kernel {
        if std::env::var("OXELLO_KERNEL").is_ok_and(|v| v == "portable") {
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
                return Kernel(Isa::X86V3);
            }
        }
        Kernel::PORTABLE
    }

    pub fn name(self) -> &'static str {
        match self.0 {
            Isa::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Isa::X86V3 => "x86-64-v3 (popcnt, lzcnt, bmi1, bmi2, avx2)",
        }
    }
}
