//! [`Lane`]: the number type the contact solver is written over, so that one implementation
//! runs on one constraint at a time (`f32`, `f64`) or on four (`f32x4`, SIMD).
//!
//! The constraints of one *wave* share no dynamic body (see `step/colouring.rs`), so any group of them
//! can be solved side by side, one per lane, with the same arithmetic in every lane (structure of
//! arrays). A lane type supplies that arithmetic, comparisons that give a mask, a select that
//! replaces the scalar solver's branches, and the gathers and scatters that move body states
//! between the solver's slots and the lanes.
//!
//! **Same answers in every lane type.** `min` and `max` are `a < b ? a : b` and `a > b ? a : b`
//! (what `minps`/`maxps` compute): NaNs and ties behave alike in one lane and in four. Nothing
//! is fused (no multiply-add), so a lane of `f32x4` performs exactly the operations of an `f32`
//! solve, in the same order.
//!
//! **Which lane type.** [`LaneScalar`] picks it at compile time from the world's scalar type:
//! `f32` worlds solve four constraints per instruction, `f64` worlds one.

use core::fmt::Debug;
use core::ops::{Add, AddAssign, BitAnd, BitOr, Div, Mul, Neg, Not, Sub, SubAssign};

use core::sync::atomic::Ordering::Relaxed;
use core::sync::atomic::{AtomicU32, AtomicU64};

use kollide_math::Scalar;
use wide::bytemuck::cast;
use wide::f32x4;

/// A scalar type a world can use, with the lane type its contact solver runs on.
pub trait LaneScalar: Scalar {
    /// The lanes the solver of a world of this scalar type runs on.
    type Lanes: Lane<Scalar = Self>;
    /// One lane of this type.
    type OneLane: Lane<Scalar = Self>;
}

impl LaneScalar for f32 {
    type Lanes = f32x4;
    type OneLane = f32;
}

impl LaneScalar for f64 {
    type Lanes = f64;
    type OneLane = f64;
}

/// One or more numbers that the contact solver treats alike (one constraint per lane).
pub trait Lane:
    Copy
    + Debug
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
{
    /// The number in each lane.
    type Scalar: Scalar;
    /// One truth value per lane.
    type Mask: Copy
        + Debug
        + Send
        + Sync
        + BitAnd<Output = Self::Mask>
        + BitOr<Output = Self::Mask>
        + Not<Output = Self::Mask>;
    /// Four numbers of one body as the solver's slots keep them (loaded and stored together).
    type Row: Copy + Debug + Send + Sync;
    /// One index per lane.
    type Index: Copy + Debug + Send + Sync;
    /// A row that several threads load and store at once: atomics, so that the threads of a
    /// parallel solve share the bodies without `unsafe` (see `slots.rs`).
    type SharedRow: Debug + Send + Sync;
    /// Lanes per value.
    const LANES: usize;

    /// `x` in every lane.
    fn splat(x: Self::Scalar) -> Self;
    /// Lane `l` holds `f(l)`.
    fn from_fn(f: impl FnMut(usize) -> Self::Scalar) -> Self;
    /// The number in lane `l`.
    fn lane(self, l: usize) -> Self::Scalar;
    /// `a < b ? a : b` in each lane.
    fn min(self, b: Self) -> Self;
    /// `a > b ? a : b` in each lane.
    fn max(self, b: Self) -> Self;
    /// `a > b` in each lane.
    fn gt(self, b: Self) -> Self::Mask;
    /// `a < b` in each lane.
    fn lt(self, b: Self) -> Self::Mask;
    /// `a >= b` in each lane.
    fn ge(self, b: Self) -> Self::Mask;
    /// `a == b` in each lane.
    fn eq(self, b: Self) -> Self::Mask;
    /// The square root of each lane.
    fn sqrt(self) -> Self;
    /// `if_true` where the mask is set, `if_false` elsewhere.
    fn select(mask: Self::Mask, if_true: Self, if_false: Self) -> Self;
    /// Lane `l` is set where `f(l)`.
    fn mask_from(f: impl FnMut(usize) -> bool) -> Self::Mask;
    /// Some lane is set.
    fn any(mask: Self::Mask) -> bool;
    /// Lane `l` holds index `f(l)`.
    fn index(f: impl FnMut(usize) -> u32) -> Self::Index;
    /// The index in lane `l`.
    fn index_lane(index: Self::Index, l: usize) -> u32;
    /// A row of four numbers.
    fn row(x: [Self::Scalar; 4]) -> Self::Row;
    /// The numbers of a row.
    fn row_array(row: Self::Row) -> [Self::Scalar; 4];
    /// The rows `rows(at[l])` turned into lanes: element `k` of lane `l`'s row is lane `l` of
    /// result `k` (a transpose).
    fn gather_rows(rows: impl Fn(u32) -> Self::Row, at: Self::Index) -> [Self; 4];
    /// A shared row holding `row`.
    fn share_row(row: Self::Row) -> Self::SharedRow;
    /// The numbers of a shared row.
    fn load_shared(shared: &Self::SharedRow) -> Self::Row;
    /// Overwrites a shared row.
    fn store_shared(shared: &Self::SharedRow, row: Self::Row);
    /// The inverse of [`Lane::gather_rows`]: lane `l` of the four values, as a row, is handed
    /// to `put(at[l], row)`.
    fn scatter_rows(values: [Self; 4], at: Self::Index, put: impl FnMut(u32, Self::Row));

    /// `0` in every lane.
    #[inline(always)]
    fn zero() -> Self {
        Self::splat(Self::Scalar::lit(0.0))
    }
    /// `1` in every lane.
    #[inline(always)]
    fn one() -> Self {
        Self::splat(Self::Scalar::lit(1.0))
    }
    /// No lane is set.
    #[inline(always)]
    fn none(mask: Self::Mask) -> bool {
        !Self::any(mask)
    }
}

/// One lane of a plain scalar: the mask is a `bool`, rows are arrays.
macro_rules! one_lane {
    ($t:ty, $atomic:ty) => {
        impl Lane for $t {
            type Scalar = $t;
            type Mask = bool;
            type Row = [$t; 4];
            type Index = u32;
            type SharedRow = [$atomic; 4];
            const LANES: usize = 1;

            #[inline(always)]
            fn share_row(row: [$t; 4]) -> [$atomic; 4] {
                row.map(|x| <$atomic>::new(x.to_bits()))
            }
            #[inline(always)]
            fn load_shared(shared: &[$atomic; 4]) -> [$t; 4] {
                core::array::from_fn(|k| <$t>::from_bits(shared[k].load(Relaxed)))
            }
            #[inline(always)]
            fn store_shared(shared: &[$atomic; 4], row: [$t; 4]) {
                for (s, x) in shared.iter().zip(row) {
                    s.store(x.to_bits(), Relaxed);
                }
            }

            #[inline(always)]
            fn splat(x: $t) -> Self {
                x
            }
            #[inline(always)]
            fn from_fn(mut f: impl FnMut(usize) -> $t) -> Self {
                f(0)
            }
            #[inline(always)]
            fn lane(self, _: usize) -> $t {
                self
            }
            #[inline(always)]
            fn min(self, b: Self) -> Self {
                if self < b { self } else { b }
            }
            #[inline(always)]
            fn max(self, b: Self) -> Self {
                if self > b { self } else { b }
            }
            #[inline(always)]
            fn gt(self, b: Self) -> bool {
                self > b
            }
            #[inline(always)]
            fn lt(self, b: Self) -> bool {
                self < b
            }
            #[inline(always)]
            fn ge(self, b: Self) -> bool {
                self >= b
            }
            #[inline(always)]
            fn eq(self, b: Self) -> bool {
                self == b
            }
            #[inline(always)]
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
            #[inline(always)]
            fn select(mask: bool, if_true: Self, if_false: Self) -> Self {
                if mask { if_true } else { if_false }
            }
            #[inline(always)]
            fn mask_from(mut f: impl FnMut(usize) -> bool) -> bool {
                f(0)
            }
            #[inline(always)]
            fn any(mask: bool) -> bool {
                mask
            }
            #[inline(always)]
            fn index(mut f: impl FnMut(usize) -> u32) -> u32 {
                f(0)
            }
            #[inline(always)]
            fn index_lane(index: u32, _: usize) -> u32 {
                index
            }
            #[inline(always)]
            fn row(x: [$t; 4]) -> [$t; 4] {
                x
            }
            #[inline(always)]
            fn row_array(row: [$t; 4]) -> [$t; 4] {
                row
            }
            #[inline(always)]
            fn gather_rows(rows: impl Fn(u32) -> [$t; 4], at: u32) -> [Self; 4] {
                rows(at)
            }
            #[inline(always)]
            fn scatter_rows(values: [Self; 4], at: u32, mut put: impl FnMut(u32, [$t; 4])) {
                put(at, values)
            }
        }
    };
}

one_lane!(f32, AtomicU32);
one_lane!(f64, AtomicU64);

impl Lane for f32x4 {
    type Scalar = f32;
    /// All bits of a lane set, or none.
    type Mask = f32x4;
    type Row = f32x4;
    type Index = [u32; 4];
    /// The row's 128 bits as two 64-bit halves (two loads or stores instead of one).
    type SharedRow = [AtomicU64; 2];
    const LANES: usize = 4;

    #[inline(always)]
    fn share_row(row: Self) -> [AtomicU64; 2] {
        cast::<Self, [u64; 2]>(row).map(AtomicU64::new)
    }
    #[inline(always)]
    fn load_shared(shared: &[AtomicU64; 2]) -> Self {
        cast([shared[0].load(Relaxed), shared[1].load(Relaxed)])
    }
    #[inline(always)]
    fn store_shared(shared: &[AtomicU64; 2], row: Self) {
        let [lo, hi] = cast::<Self, [u64; 2]>(row);
        shared[0].store(lo, Relaxed);
        shared[1].store(hi, Relaxed);
    }

    #[inline(always)]
    fn splat(x: f32) -> Self {
        f32x4::splat(x)
    }
    #[inline(always)]
    fn from_fn(f: impl FnMut(usize) -> f32) -> Self {
        f32x4::new(core::array::from_fn(f))
    }
    #[inline(always)]
    fn lane(self, l: usize) -> f32 {
        self.to_array()[l]
    }
    #[inline(always)]
    fn min(self, b: Self) -> Self {
        self.fast_min(b)
    }
    #[inline(always)]
    fn max(self, b: Self) -> Self {
        self.fast_max(b)
    }
    #[inline(always)]
    fn gt(self, b: Self) -> Self {
        self.simd_gt(b)
    }
    #[inline(always)]
    fn lt(self, b: Self) -> Self {
        self.simd_lt(b)
    }
    #[inline(always)]
    fn ge(self, b: Self) -> Self {
        self.simd_ge(b)
    }
    #[inline(always)]
    fn eq(self, b: Self) -> Self {
        self.simd_eq(b)
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        f32x4::sqrt(self)
    }
    #[inline(always)]
    fn select(mask: Self, if_true: Self, if_false: Self) -> Self {
        mask.select(if_true, if_false)
    }
    #[inline(always)]
    fn mask_from(f: impl FnMut(usize) -> bool) -> Self {
        let on: [bool; 4] = core::array::from_fn(f);
        f32x4::new(on.map(|b| if b { f32::from_bits(u32::MAX) } else { 0.0 }))
    }
    #[inline(always)]
    fn any(mask: Self) -> bool {
        mask.any()
    }
    #[inline(always)]
    fn index(f: impl FnMut(usize) -> u32) -> [u32; 4] {
        core::array::from_fn(f)
    }
    #[inline(always)]
    fn index_lane(index: [u32; 4], l: usize) -> u32 {
        index[l]
    }
    #[inline(always)]
    fn row(x: [f32; 4]) -> Self {
        f32x4::new(x)
    }
    #[inline(always)]
    fn row_array(row: Self) -> [f32; 4] {
        row.to_array()
    }
    #[inline(always)]
    fn gather_rows(rows: impl Fn(u32) -> Self, at: [u32; 4]) -> [Self; 4] {
        f32x4::transpose(at.map(rows))
    }
    #[inline(always)]
    fn scatter_rows(values: [Self; 4], at: [u32; 4], mut put: impl FnMut(u32, Self)) {
        let rows = f32x4::transpose(values);
        for l in 0..4 {
            put(at[l], rows[l]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The four-lane operations give, lane by lane, what the one-lane ones give, on numbers
    /// that include NaNs, infinities and both zeros.
    #[test]
    fn four_lanes_agree_with_one_lane() {
        let xs = [0.0f32, -0.0, 1.0, -2.5, f32::NAN, f32::INFINITY, -f32::INFINITY, 3.0];
        let same = |a: f32, b: f32| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
        for &a in &xs {
            for &b in &xs {
                let (wa, wb) = (f32x4::splat(a), f32x4::splat(b));
                assert!(same(Lane::min(wa, wb).lane(2), Lane::min(a, b)), "min({a}, {b})");
                assert!(same(Lane::max(wa, wb).lane(1), Lane::max(a, b)), "max({a}, {b})");
                let masks = [
                    (Lane::gt(wa, wb), Lane::gt(a, b)),
                    (Lane::lt(wa, wb), Lane::lt(a, b)),
                    (Lane::ge(wa, wb), Lane::ge(a, b)),
                    (Lane::eq(wa, wb), Lane::eq(a, b)),
                ];
                for (wide, one) in masks {
                    assert_eq!(<f32x4 as Lane>::any(wide), one, "{a} against {b}");
                    let picked = <f32x4 as Lane>::select(wide, wa, wb).lane(3);
                    assert!(same(picked, <f32 as Lane>::select(one, a, b)));
                }
            }
        }
    }

    /// Gathering rows and scattering them back is the identity, lane by lane.
    #[test]
    fn rows_round_trip_through_lanes() {
        let rows: Vec<f32x4> =
            (0..6).map(|i| f32x4::new([i as f32, 10.0 + i as f32, -(i as f32), 0.5])).collect();
        let at = [4, 1, 5, 1];
        let lanes = f32x4::gather_rows(|i| rows[i as usize], at);
        assert_eq!(lanes[1].to_array(), [14.0, 11.0, 15.0, 11.0]);
        let mut out = [f32x4::splat(0.0); 6];
        f32x4::scatter_rows(lanes, at, |i, r| out[i as usize] = r);
        for i in [1, 4, 5] {
            assert_eq!(out[i].to_array(), rows[i].to_array());
        }
        let one = f64::gather_rows(|_| [1.0, 2.0, 3.0, 4.0], 0);
        assert_eq!(one, [1.0, 2.0, 3.0, 4.0]);
    }
}
