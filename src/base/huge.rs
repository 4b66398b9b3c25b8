//! Large read-mostly tables (the evaluation's weights) in 2 MB pages where the kernel offers
//! them: a leaf reads 60-odd rows at random across megabytes, and with 4 KB pages most of
//! those reads also miss the TLB.

/// A zeroed vector of `len` elements whose memory the kernel is asked to back with huge pages
/// (Linux `madvise(MADV_HUGEPAGE)`, before the first touch; elsewhere a plain vector).
pub fn zeroed_vec<T: Copy + Default>(len: usize) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(len);
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = v.as_ptr() as usize;
        let end = start + len * std::mem::size_of::<T>();
        // Only whole 2 MB pages inside the allocation: the advice must not cover other memory.
        let (lo, hi) = (start.next_multiple_of(HUGE), end / HUGE * HUGE);
        if hi > lo {
            // SAFETY: the range lies inside `v`'s own allocation; the advice changes how the
            // kernel backs it, not its contents or its validity. A failure is harmless (the
            // pages stay small), so the result is ignored.
            unsafe {
                libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_HUGEPAGE);
            }
        }
    }
    v.resize(len, T::default());
    v
}
