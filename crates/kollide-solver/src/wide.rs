//! What the SIMD contact solvers (`wide2.rs` for 2D, `wide3.rs` for 3D) share: the lane type,
//! masks and selects that behave like the scalar solver's comparisons, and how the constraints
//! of a wave are grouped into bundles of four.
//!
//! **Lanes.** A bundle holds up to [`LANES`] constraints of one *wave* (constraints that share no
//! dynamic body, see `World::step`), one per lane of an `f32x4`. Because constraints of a wave
//! commute, any grouping of a wave's constraints gives the scalar loop's numbers; the grouping
//! only has to keep waves in order.
//!
//! **Grouping.** [`group`] walks the waves in order and, inside a wave, puts constraints of the
//! same *class* next to each other (a stable sort by class), then cuts them into runs of up to
//! four. The class is what a bundle needs all its lanes to agree on: in 3D, manifolds of three or
//! more points rotate which point is solved first by `(i + pass) % count`, so their lanes must
//! have the same point count. In 2D the class is the likely outcome (two touching points that
//! pushed last step take the two-point block solve; the rest are solved point by point), so
//! that most bundles run only one of the two.

use wide::f32x4;

/// Constraints per bundle.
pub(crate) const LANES: usize = 4;

/// Four `f32` lanes.
pub(crate) type W = f32x4;

/// A mask with every bit of lane `l` set where `on[l]`.
pub(crate) fn mask(on: [bool; LANES]) -> W {
    W::new(on.map(|b| if b { f32::from_bits(u32::MAX) } else { 0.0 }))
}

/// `min_of` of the scalar solver (`a <= b ? a : b`) as one `minps` (`a < b ? a : b`): the same
/// number, NaNs included, except that a tie between `+0` and `−0` may give the other zero.
#[inline(always)]
pub(crate) fn min(a: W, b: W) -> W {
    a.fast_min(b)
}

/// `max_of` of the scalar solver (`a >= b ? a : b`) as one `maxps` (`a > b ? a : b`), with the
/// same caveat.
#[inline(always)]
pub(crate) fn max(a: W, b: W) -> W {
    a.fast_max(b)
}

/// `f` of each of four items, in lanes.
#[inline(always)]
pub(crate) fn gather<T>(items: &[&T; LANES], f: impl Fn(&T) -> f32) -> W {
    W::new([f(items[0]), f(items[1]), f(items[2]), f(items[3])])
}

/// The constraints of one bundle.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Group {
    /// Constraint index of each lane; unused lanes repeat lane 0's.
    pub lanes: [u32; LANES],
    /// Lanes in use (1 to 4).
    pub used: usize,
}

/// Groups the constraints (in wave order, `waves[k]` the wave of constraint `k`) into bundles of
/// up to four constraints of the same wave and the same class (`class(k)`), calling `emit` for
/// each bundle in wave order. `scratch` is reused storage.
pub(crate) fn group(
    waves: &[u32],
    class: impl Fn(usize) -> u8,
    scratch: &mut Vec<u32>,
    mut emit: impl FnMut(Group),
) {
    let mut start = 0;
    while start < waves.len() {
        let mut end = start + 1;
        while end < waves.len() && waves[end] == waves[start] {
            end += 1;
        }
        // The wave's constraints, grouped by class (stable: constraint order within a class),
        // one sweep per class present: classes are few, and this needs no sort buffer.
        scratch.clear();
        let top = (start..end).map(&class).max().unwrap_or(0);
        for c in 0..=top {
            scratch.extend((start as u32..end as u32).filter(|&k| class(k as usize) == c));
        }
        let mut i = 0;
        while i < scratch.len() {
            let c = class(scratch[i] as usize);
            let mut j = i + 1;
            while j < scratch.len() && j - i < LANES && class(scratch[j] as usize) == c {
                j += 1;
            }
            let lanes = core::array::from_fn(|l| scratch[if i + l < j { i + l } else { i }]);
            emit(Group { lanes, used: j - i });
            i = j;
        }
        start = end;
    }
}

/// Test support shared by `wide2.rs` and `wide3.rs`.
#[cfg(test)]
pub(crate) mod testing {
    use kollide_math::Scalar;

    use crate::{Dim, SolverDim, World};

    /// Steps two copies of a world, one on the SIMD path and one on the scalar loop, and
    /// requires every number `state` reads to be equal after every step (a zero velocity may
    /// differ in its sign: a masked lane adds a zero impulse where the scalar loop adds
    /// nothing, and `+0 == −0`).
    pub(crate) fn same_with_and_without_simd<N: Scalar, const D: usize>(
        make: impl Fn() -> World<N, D>,
        state: impl Fn(&World<N, D>) -> Vec<N>,
        steps: usize,
    ) where
        Dim<D>: SolverDim<N, D>,
    {
        let mut simd = make();
        let mut scalar = make();
        scalar.solver.simd = false;
        let dt = N::lit(1.0 / 60.0);
        for step in 0..steps {
            simd.step(dt).unwrap();
            scalar.step(dt).unwrap();
            assert!(state(&simd) == state(&scalar), "the SIMD solver diverged at step {step}");
        }
    }
}
