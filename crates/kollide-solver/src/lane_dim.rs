//! [`DimLanes`]: what the contact solver needs to know about the dimension, in lanes.
//!
//! Linear quantities are `[L; D]` in both dimensions. What differs is rotation, as in
//! [`SolverDim`](crate::SolverDim): in 2D an angular velocity and an inverse inertia are one
//! number per lane and a rotation is `(cos, sin)`; in 3D they are three numbers, a 3×3 matrix
//! and a unit quaternion `(i, j, k, w)`. Every operation is written as the scalar types compute
//! it (nalgebra's order of summation, no fused multiply-adds), so a lane gives the numbers a
//! scalar solve would.
//!
//! **Slots.** A body's state lives in a *slot* of rows of four numbers while the solver runs
//! (2D: `(v, ω, 0)` and `(Δp, cos, sin)`; 3D: `(v, 0)`, `(ω, 0)`, `(Δp, 0)` and the quaternion),
//! so that the bodies of a bundle load as whole rows and one transpose per row turns them into
//! lanes ([`Lane::gather_rows`]).

use core::fmt::Debug;

use crate::lane::Lane;
use kollide_math::Scalar;

/// A slot row's numbers.
type Row<L> = [<L as Lane>::Scalar; 4];

/// The dimension-specific parts of the contact solver in lanes of `Self` (implemented for every
/// lane type in 2D and 3D).
pub trait DimLanes<const D: usize>: Lane {
    /// Angular velocity, arm or turn: one lane in 2D, three in 3D.
    type Angular: Copy + Debug + Send + Sync;
    /// A rotation: `(cos, sin)` in 2D, a unit quaternion `(i, j, k, w)` in 3D.
    type Rotation: Copy;
    /// An inverse inertia: one lane in 2D, a 3×3 matrix (by rows) in 3D.
    type Inertia: Copy;
    /// A body's state as the solver keeps it (see the module docs).
    type Slot: Copy + Debug + Send + Sync;
    /// Friction acts on the manifold as a whole (3D) instead of on each point (2D).
    const PATCH_FRICTION: bool;
    /// A point's own friction row, its arms and turns (2D); nothing in 3D, whose friction rows
    /// belong to the manifold.
    type PointFriction: Copy + Debug + Send + Sync;

    /// A point's friction row from its arms and turns (3D: dropped).
    fn point_friction(arm: [Self::Angular; 2], turn: [Self::Angular; 2]) -> Self::PointFriction;
    /// The arms and turns of a point's friction row (3D: never called; zero).
    fn point_friction_rows(f: &Self::PointFriction) -> (&[Self::Angular; 2], &[Self::Angular; 2]);

    /// The zero angular quantity.
    fn angular_zero() -> Self::Angular;
    /// Lane `l` holds the angular quantity whose components are `f(l)` (2D: the first).
    fn angular_from_fn(f: impl FnMut(usize) -> [Self::Scalar; 3]) -> Self::Angular;
    /// Lane `l` holds the inverse inertia whose rows are `f(l)` (2D: the first entry).
    fn inertia_from_fn(f: impl FnMut(usize) -> [[Self::Scalar; 3]; 3]) -> Self::Inertia;
    /// `i` where the mask is set, zero elsewhere.
    fn inertia_where(mask: Self::Mask, i: &Self::Inertia) -> Self::Inertia;
    /// `w` where the mask is set, zero elsewhere.
    fn angular_where(mask: Self::Mask, w: &Self::Angular) -> Self::Angular;
    /// `a · b`.
    fn angular_dot(a: &Self::Angular, b: &Self::Angular) -> Self;
    /// `r × d`: the angular part of a row along `d` at offset `r`.
    fn cross(r: &[Self; D], d: &[Self; D]) -> Self::Angular;
    /// `ω × r`: the velocity of a point at offset `r` on a body spinning at `ω`.
    fn cross_angular(w: &Self::Angular, r: &[Self; D]) -> [Self; D];
    /// Applies an inverse inertia.
    fn apply_inertia(i: &Self::Inertia, w: &Self::Angular) -> Self::Angular;
    /// `w += t·x`.
    fn add_scaled(w: &mut Self::Angular, t: &Self::Angular, x: Self);
    /// `w −= t·x`.
    fn sub_scaled(w: &mut Self::Angular, t: &Self::Angular, x: Self);
    /// Rotates a vector.
    fn rotate(q: &Self::Rotation, r: &[Self; D]) -> [Self; D];
    /// The angular direction of a twist about the normal `n` (3D: `n`; 2D: zero).
    fn twist_axis(n: &[Self; D]) -> Self::Angular;

    /// A slot from a body's velocity `v`, angular velocity `w` (its components), motion `dp`
    /// and rotation `q` (its components) since the step started.
    fn slot(
        v: [Self::Scalar; D],
        w: [Self::Scalar; 3],
        dp: [Self::Scalar; D],
        q: Row<Self>,
    ) -> Self::Slot;
    /// The parts of a slot, as [`DimLanes::slot`] takes them.
    #[allow(clippy::type_complexity)]
    fn slot_parts(
        slot: &Self::Slot,
    ) -> ([Self::Scalar; D], [Self::Scalar; 3], [Self::Scalar; D], Row<Self>);
    /// Rows in a slot.
    const SLOT_ROWS: usize;
    /// Row `r` of a slot.
    fn slot_row(slot: &Self::Slot, r: usize) -> Self::Row;
    /// Overwrites row `r` of a slot.
    fn set_slot_row(slot: &mut Self::Slot, r: usize, row: Self::Row);
    /// The slot whose row `r` is `row(r)`.
    fn slot_from_rows(row: impl FnMut(usize) -> Self::Row) -> Self::Slot;
    /// The velocities of the bodies in slots `at` (one per lane); `row(i, r)` reads row `r` of
    /// slot `i`.
    fn load_velocity(
        row: impl Fn(u32, usize) -> Self::Row,
        at: Self::Index,
    ) -> ([Self; D], Self::Angular);
    /// The motion since the step started of the bodies in slots `at`.
    fn load_motion(
        row: impl Fn(u32, usize) -> Self::Row,
        at: Self::Index,
    ) -> ([Self; D], Self::Rotation);
    /// Writes velocities back, lane `l` to slot `to[l]`; `put(i, r, row)` writes row `r` of
    /// slot `i`.
    fn store_velocity(
        put: impl FnMut(u32, usize, Self::Row),
        to: Self::Index,
        v: &[Self; D],
        w: &Self::Angular,
    );
}

/// `a · b`, summed left to right as nalgebra sums it.
#[inline(always)]
pub(crate) fn dot<L: Lane, const D: usize>(a: &[L; D], b: &[L; D]) -> L {
    let mut s = a[0] * b[0];
    for k in 1..D {
        s += a[k] * b[k];
    }
    s
}

/// `a − b`.
#[inline(always)]
pub(crate) fn sub<L: Lane, const D: usize>(a: &[L; D], b: &[L; D]) -> [L; D] {
    core::array::from_fn(|k| a[k] - b[k])
}

/// `a + b`.
#[inline(always)]
pub(crate) fn add<L: Lane, const D: usize>(a: &[L; D], b: &[L; D]) -> [L; D] {
    core::array::from_fn(|k| a[k] + b[k])
}

impl<L: Lane> DimLanes<2> for L {
    type Angular = L;
    type Rotation = [L; 2];
    type Inertia = L;
    type Slot = [L::Row; 2];
    const PATCH_FRICTION: bool = false;
    type PointFriction = [[L; 2]; 2];

    #[inline(always)]
    fn point_friction(arm: [L; 2], turn: [L; 2]) -> [[L; 2]; 2] {
        [arm, turn]
    }
    #[inline(always)]
    fn point_friction_rows(f: &[[L; 2]; 2]) -> (&[L; 2], &[L; 2]) {
        (&f[0], &f[1])
    }

    #[inline(always)]
    fn angular_zero() -> L {
        L::zero()
    }
    #[inline(always)]
    fn angular_from_fn(mut f: impl FnMut(usize) -> [L::Scalar; 3]) -> L {
        L::from_fn(|l| f(l)[0])
    }
    #[inline(always)]
    fn inertia_from_fn(mut f: impl FnMut(usize) -> [[L::Scalar; 3]; 3]) -> L {
        L::from_fn(|l| f(l)[0][0])
    }
    #[inline(always)]
    fn inertia_where(mask: L::Mask, i: &L) -> L {
        L::select(mask, *i, L::zero())
    }
    #[inline(always)]
    fn angular_where(mask: L::Mask, w: &L) -> L {
        L::select(mask, *w, L::zero())
    }
    #[inline(always)]
    fn angular_dot(a: &L, b: &L) -> L {
        *a * *b
    }
    #[inline(always)]
    fn cross(r: &[L; 2], d: &[L; 2]) -> L {
        r[0] * d[1] - r[1] * d[0]
    }
    #[inline(always)]
    fn cross_angular(w: &L, r: &[L; 2]) -> [L; 2] {
        [-*w * r[1], *w * r[0]]
    }
    #[inline(always)]
    fn apply_inertia(i: &L, w: &L) -> L {
        *i * *w
    }
    #[inline(always)]
    fn add_scaled(w: &mut L, t: &L, x: L) {
        *w += *t * x;
    }
    #[inline(always)]
    fn sub_scaled(w: &mut L, t: &L, x: L) {
        *w -= *t * x;
    }
    #[inline(always)]
    fn rotate(q: &[L; 2], r: &[L; 2]) -> [L; 2] {
        let [c, s] = *q;
        [c * r[0] - s * r[1], s * r[0] + c * r[1]]
    }
    #[inline(always)]
    fn twist_axis(_: &[L; 2]) -> L {
        L::zero()
    }

    #[inline(always)]
    fn slot(v: [L::Scalar; 2], w: [L::Scalar; 3], dp: [L::Scalar; 2], q: Row<L>) -> [L::Row; 2] {
        let zero = L::Scalar::lit(0.0);
        [L::row([v[0], v[1], w[0], zero]), L::row([dp[0], dp[1], q[0], q[1]])]
    }
    #[inline(always)]
    fn slot_parts(slot: &[L::Row; 2]) -> ([L::Scalar; 2], [L::Scalar; 3], [L::Scalar; 2], Row<L>) {
        let zero = L::Scalar::lit(0.0);
        let ([vx, vy, w, _], [dx, dy, c, s]) = (L::row_array(slot[0]), L::row_array(slot[1]));
        ([vx, vy], [w, zero, zero], [dx, dy], [c, s, zero, zero])
    }
    const SLOT_ROWS: usize = 2;
    #[inline(always)]
    fn slot_row(slot: &[L::Row; 2], r: usize) -> L::Row {
        slot[r]
    }
    #[inline(always)]
    fn set_slot_row(slot: &mut [L::Row; 2], r: usize, row: L::Row) {
        slot[r] = row;
    }
    #[inline(always)]
    fn slot_from_rows(row: impl FnMut(usize) -> L::Row) -> [L::Row; 2] {
        core::array::from_fn(row)
    }
    #[inline(always)]
    fn load_velocity(row: impl Fn(u32, usize) -> L::Row, at: L::Index) -> ([L; 2], L) {
        let [vx, vy, w, _] = L::gather_rows(|i| row(i, 0), at);
        ([vx, vy], w)
    }
    #[inline(always)]
    fn load_motion(row: impl Fn(u32, usize) -> L::Row, at: L::Index) -> ([L; 2], [L; 2]) {
        let [dx, dy, c, s] = L::gather_rows(|i| row(i, 1), at);
        ([dx, dy], [c, s])
    }
    #[inline(always)]
    fn store_velocity(mut put: impl FnMut(u32, usize, L::Row), to: L::Index, v: &[L; 2], w: &L) {
        L::scatter_rows([v[0], v[1], *w, L::zero()], to, |i, row| put(i, 0, row));
    }
}

impl<L: Lane> DimLanes<3> for L {
    type Angular = [L; 3];
    type Rotation = [L; 4];
    type Inertia = [[L; 3]; 3];
    type Slot = [L::Row; 4];
    const PATCH_FRICTION: bool = true;
    type PointFriction = ();

    #[inline(always)]
    fn point_friction(_: [[L; 3]; 2], _: [[L; 3]; 2]) {}
    fn point_friction_rows(_: &()) -> (&[[L; 3]; 2], &[[L; 3]; 2]) {
        unreachable!("3D friction acts on the manifold, not on its points")
    }

    #[inline(always)]
    fn angular_zero() -> [L; 3] {
        [L::zero(); 3]
    }
    #[inline(always)]
    fn angular_from_fn(mut f: impl FnMut(usize) -> [L::Scalar; 3]) -> [L; 3] {
        let mut lanes = [[L::Scalar::lit(0.0); 3]; 4];
        for (l, lane) in lanes.iter_mut().enumerate().take(L::LANES) {
            *lane = f(l);
        }
        core::array::from_fn(|k| L::from_fn(|l| lanes[l][k]))
    }
    #[inline(always)]
    fn inertia_from_fn(mut f: impl FnMut(usize) -> [[L::Scalar; 3]; 3]) -> [[L; 3]; 3] {
        let mut lanes = [[[L::Scalar::lit(0.0); 3]; 3]; 4];
        for (l, lane) in lanes.iter_mut().enumerate().take(L::LANES) {
            *lane = f(l);
        }
        core::array::from_fn(|i| core::array::from_fn(|j| L::from_fn(|l| lanes[l][i][j])))
    }
    #[inline(always)]
    fn inertia_where(mask: L::Mask, i: &[[L; 3]; 3]) -> [[L; 3]; 3] {
        // (`from_fn`, not `map`: the compiler may leave `map` as a call in a hot loop.)
        core::array::from_fn(|r| core::array::from_fn(|c| L::select(mask, i[r][c], L::zero())))
    }
    #[inline(always)]
    fn angular_where(mask: L::Mask, w: &[L; 3]) -> [L; 3] {
        core::array::from_fn(|k| L::select(mask, w[k], L::zero()))
    }
    #[inline(always)]
    fn angular_dot(a: &[L; 3], b: &[L; 3]) -> L {
        dot(a, b)
    }
    #[inline(always)]
    fn cross(a: &[L; 3], b: &[L; 3]) -> [L; 3] {
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    }
    #[inline(always)]
    fn cross_angular(w: &[L; 3], r: &[L; 3]) -> [L; 3] {
        <L as DimLanes<3>>::cross(w, r)
    }
    #[inline(always)]
    fn apply_inertia(m: &[[L; 3]; 3], v: &[L; 3]) -> [L; 3] {
        core::array::from_fn(|i| m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2])
    }
    #[inline(always)]
    fn add_scaled(w: &mut [L; 3], t: &[L; 3], x: L) {
        for k in 0..3 {
            w[k] += t[k] * x;
        }
    }
    #[inline(always)]
    fn sub_scaled(w: &mut [L; 3], t: &[L; 3], x: L) {
        for k in 0..3 {
            w[k] -= t[k] * x;
        }
    }
    /// nalgebra's unit quaternion times vector: `t = 2 q⃗ × r`, `r + w t + q⃗ × t`.
    #[inline(always)]
    fn rotate(q: &[L; 4], r: &[L; 3]) -> [L; 3] {
        let qv = [q[0], q[1], q[2]];
        let two = L::splat(L::Scalar::lit(2.0));
        let c = <L as DimLanes<3>>::cross(&qv, r);
        let t = [c[0] * two, c[1] * two, c[2] * two];
        let u = <L as DimLanes<3>>::cross(&qv, &t);
        core::array::from_fn(|k| t[k] * q[3] + u[k] + r[k])
    }
    #[inline(always)]
    fn twist_axis(n: &[L; 3]) -> [L; 3] {
        *n
    }

    #[inline(always)]
    fn slot(v: [L::Scalar; 3], w: [L::Scalar; 3], dp: [L::Scalar; 3], q: Row<L>) -> [L::Row; 4] {
        let zero = L::Scalar::lit(0.0);
        [
            L::row([v[0], v[1], v[2], zero]),
            L::row([w[0], w[1], w[2], zero]),
            L::row([dp[0], dp[1], dp[2], zero]),
            L::row(q),
        ]
    }
    #[inline(always)]
    fn slot_parts(slot: &[L::Row; 4]) -> ([L::Scalar; 3], [L::Scalar; 3], [L::Scalar; 3], Row<L>) {
        let [v, w, dp, q] = slot.map(L::row_array);
        ([v[0], v[1], v[2]], [w[0], w[1], w[2]], [dp[0], dp[1], dp[2]], q)
    }
    const SLOT_ROWS: usize = 4;
    #[inline(always)]
    fn slot_row(slot: &[L::Row; 4], r: usize) -> L::Row {
        slot[r]
    }
    #[inline(always)]
    fn set_slot_row(slot: &mut [L::Row; 4], r: usize, row: L::Row) {
        slot[r] = row;
    }
    #[inline(always)]
    fn slot_from_rows(row: impl FnMut(usize) -> L::Row) -> [L::Row; 4] {
        core::array::from_fn(row)
    }
    #[inline(always)]
    fn load_velocity(row: impl Fn(u32, usize) -> L::Row, at: L::Index) -> ([L; 3], [L; 3]) {
        let [vx, vy, vz, _] = L::gather_rows(|i| row(i, 0), at);
        let [wx, wy, wz, _] = L::gather_rows(|i| row(i, 1), at);
        ([vx, vy, vz], [wx, wy, wz])
    }
    #[inline(always)]
    fn load_motion(row: impl Fn(u32, usize) -> L::Row, at: L::Index) -> ([L; 3], [L; 4]) {
        let [dx, dy, dz, _] = L::gather_rows(|i| row(i, 2), at);
        let q = L::gather_rows(|i| row(i, 3), at);
        ([dx, dy, dz], q)
    }
    #[inline(always)]
    fn store_velocity(
        mut put: impl FnMut(u32, usize, L::Row),
        to: L::Index,
        v: &[L; 3],
        w: &[L; 3],
    ) {
        let zero = L::zero();
        L::scatter_rows([v[0], v[1], v[2], zero], to, |i, row| put(i, 0, row));
        L::scatter_rows([w[0], w[1], w[2], zero], to, |i, row| put(i, 1, row));
    }
}
