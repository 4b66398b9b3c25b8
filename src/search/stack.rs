//! A fixed-capacity list on the stack that is not zeroed when made: the endgame solver makes
//! one or two per node, and clearing a full array each time measurably cost time.

use std::mem::MaybeUninit;

pub struct Stack<T: Copy, const N: usize> {
    items: [MaybeUninit<T>; N],
    len: usize,
}

impl<T: Copy, const N: usize> Stack<T, N> {
    #[inline(always)]
    pub fn new() -> Self {
        Stack {
            items: [const { MaybeUninit::uninit() }; N],
            len: 0,
        }
    }

    /// Appends `x`; beyond the capacity it is dropped (callers size N for the worst case).
    #[inline(always)]
    pub fn push(&mut self, x: T) {
        if self.len < N {
            self.items[self.len] = MaybeUninit::new(x);
            self.len += 1;
        }
    }

    /// Inserts `x` before the first item that `before(x, item)` says it precedes, keeping a
    /// list sorted by that order (insertion sort: the lists are short).
    #[inline(always)]
    pub fn insert_sorted(&mut self, x: T, before: impl Fn(&T, &T) -> bool) {
        if self.len >= N {
            return;
        }
        let mut i = self.len;
        while i > 0 && before(&x, &self.as_slice()[i - 1]) {
            self.items[i] = self.items[i - 1];
            i -= 1;
        }
        self.items[i] = MaybeUninit::new(x);
        self.len += 1;
    }

    /// Appends the items in order, as many as fit.
    #[inline(always)]
    pub fn extend_from_slice(&mut self, xs: &[T]) {
        for &x in xs {
            self.push(x);
        }
    }

    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.items.as_mut_ptr().cast::<T>(), self.len) }
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: the first `len` items were written by `push`/`insert_sorted`, and
        // `MaybeUninit<T>` has the layout of `T`.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().cast::<T>(), self.len) }
    }
}

impl<T: Copy, const N: usize> Default for Stack<T, N> {
    fn default() -> Self {
        Stack::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_insertion_and_capacity() {
        let mut s: Stack<i32, 4> = Stack::new();
        for x in [3, 9, 1, 7, 5] {
            s.insert_sorted(x, |a, b| a > b);
        }
        assert_eq!(s.as_slice(), &[9, 7, 3, 1]);
        let mut p: Stack<u8, 2> = Stack::default();
        assert!(p.as_slice().is_empty());
        p.push(1);
        p.push(2);
        p.push(3);
        assert_eq!((p.as_slice().len(), p.as_slice()), (2, &[1u8, 2][..]));
    }
}
