//! Ray casts on a heightfield, answered by the grid walk itself.
//!
//! **The walk.** The segment is clipped to the field's box (the slab test), then visits the cells
//! it crosses in order with the grid walk of Amanatides and Woo ("A Fast Voxel Traversal
//! Algorithm for Ray Tracing", Eurographics 1987): of the next x and z cell boundaries, step over
//! whichever the ray reaches first. Each cell is handed out with the parameter interval
//! `[enter, exit]` the ray spends over it; the intervals follow each other with no gap.
//!
//! **The crossing.** Along the ray, its height above the surface,
//! `g(t) = y(t) − h(x(t), z(t))`, is continuous and piecewise linear: linear on each stretch of
//! the ray over one triangle, where `h` is the triangle's plane. Each cell's interval is split
//! where the ray crosses the cell's diagonal, `g` is evaluated at the ends of each stretch, and
//! the ray meets the surface on the first stretch that ends on the other side of it from where
//! the ray started, at the root of the linear `g` there. A cell whose height range lies entirely
//! above (or below) the ray over the cell is skipped after one comparison. No triangle is built
//! and no per-triangle ray test runs; the normal is computed once, for the triangle hit.
//!
//! **Nothing falls through a seam.** The side the ray starts on is fixed once, and a hit is any
//! stretch end on the other side or on the surface. Rounding can move the computed crossing by
//! a few ulps, but cannot lose it: the stretches cover the whole segment, so where `g` computed
//! at the end of one cell and the start of the next disagree in sign (the true crossing lies on
//! the boundary), the second cell reports it. Per-triangle ray tests (Möller–Trumbore) have no
//! such guarantee at shared edges.
//!
//! As with every query on a heightfield, the surface is two-sided: a ray from below hits it too,
//! and the normal returned faces the ray.

use kollide_math::{Point3, Scalar, Vec3};

use super::HeightField;
use crate::Aabb;

/// The planes of one cell's two triangles, as `h(x, z) = h₀ + sx · (x − x₀) + sz · (z − z₀)`
/// around a corner of each.
struct CellPlanes<N: Scalar> {
    /// `(x₀, z₀, h₀, sx, sz)` of triangle 0 (around `p00`) and of triangle 1 (around `p11`).
    planes: [(N, N, N, N, N); 2],
    /// The lower-left corner `(x_j, z_i)`, for the side of the diagonal.
    corner: (N, N),
    /// One over the cell's size along x and z.
    inv_cell: (N, N),
}

impl<N: Scalar> CellPlanes<N> {
    /// The height of triangle `k`'s plane at `(x, z)`.
    #[inline(always)]
    fn height(&self, k: usize, x: N, z: N) -> N {
        let (x0, z0, h0, sx, sz) = self.planes[k];
        h0 + sx * (x - x0) + sz * (z - z0)
    }

    /// The unit normal of triangle `k`'s plane (upward).
    fn normal(&self, k: usize) -> Vec3<N> {
        let (.., sx, sz) = self.planes[k];
        Vec3::new(-sx, N::one(), -sz).normalize()
    }

    /// Which side of the diagonal `p` lies over: negative over triangle 0, positive over
    /// triangle 1 (`u + v − 1` in the cell's unit coordinates).
    #[inline(always)]
    fn diagonal_side(&self, p: &Point3<N>) -> N {
        let (x0, z0) = self.corner;
        (p.x - x0) * self.inv_cell.0 + (p.z - z0) * self.inv_cell.1 - N::one()
    }

    /// The crossing of the stretch from `a` to `b` over triangle `k`: at `a` when `a` is already
    /// on the far side of the surface (or on it), else at the root of the linear height
    /// difference when `b` is; `None` when the whole stretch stays on the `above` side.
    #[inline(always)]
    fn cross(
        &self,
        k: usize,
        (ta, a): (N, &Point3<N>),
        (tb, b): (N, &Point3<N>),
        above: bool,
    ) -> Option<(N, Vec3<N>)> {
        let ga = a.y - self.height(k, a.x, a.z);
        let gb = b.y - self.height(k, b.x, b.z);
        let crossed = |g: N| if above { g <= N::zero() } else { g >= N::zero() };
        if crossed(ga) {
            return Some((ta, self.normal(k)));
        }
        if crossed(gb) {
            let t = (ta + (tb - ta) * (ga / (ga - gb))).max_of(ta).min_of(tb);
            return Some((t, self.normal(k)));
        }
        None
    }
}

impl<N: Scalar> HeightField<N> {
    /// The first hit of the segment `origin + t · dir`, `0 ≤ t ≤ max_t`, on the surface (in the
    /// field's frame): `t` and the unit normal facing the ray (see the module docs). A
    /// non-finite origin or direction, or a negative or NaN `max_t`, misses.
    pub(super) fn cast_local_ray(
        &self,
        origin: &Point3<N>,
        dir: &Vec3<N>,
        max_t: N,
    ) -> Option<(N, Vec3<N>)> {
        let finite = origin.iter().chain(dir.iter()).all(|x| x.is_finite_value());
        if !finite || max_t.is_nan_value() || max_t < N::zero() {
            return None;
        }
        // One division per axis, shared by the clip and the walk (unused where `dir` is zero).
        let inv = dir.map(|d| if d == N::zero() { N::zero() } else { N::one() / d });
        // The box is padded in y by more than the rounding of `y(t)`: clipped exactly, the
        // segment could end a rounding error short of a sample at the lowest or highest height.
        let (lo, hi) = (self.aabb.mins.y, self.aabb.maxs.y);
        let pad = (origin.y.abs() + lo.abs().max_of(hi.abs())) * N::EPSILON * N::lit(16.0);
        let mut aabb = self.aabb;
        (aabb.mins.y, aabb.maxs.y) = (lo - pad, hi + pad);
        let (t0, t1) = clip_to_box(&aabb, origin, dir, &inv, max_t)?;
        let at = |t: N| origin + dir * t;
        let start = at(t0);
        let (i, j) = self.cell_of(start.x, start.z);
        let above = match self.start_side(i, j, &start) {
            Ok(above) => above,
            Err(normal) => return Some(facing_ray((t0, normal), dir)),
        };
        let mut hit = None;
        self.walk_cells(origin, dir, &inv, (t0, t1), (i, j), |i, j, enter, exit| {
            let (ya, yb) = (origin.y + dir.y * enter, origin.y + dir.y * exit);
            let (y_lo, y_hi) = if ya < yb { (ya, yb) } else { (yb, ya) };
            let (lo, hi) = self.height_range(i, j);
            // The ray's height range lies above or below the whole cell: `g` keeps one sign here,
            // which is a crossing only when rounding put the previous cell's end on the wrong side.
            if y_lo > hi || y_hi < lo {
                let g_above = y_lo > hi;
                if g_above != above {
                    let planes = self.planes(i, j);
                    let p = at(enter);
                    hit = Some((enter, planes.normal(self.triangle_at(&planes, p.x, p.z))));
                }
                return hit.is_none();
            }
            hit = self.cross_cell(&self.planes(i, j), &at, (enter, exit), above);
            hit.is_none()
        });
        hit.map(|h| facing_ray(h, dir))
    }

    /// Whether `start`, over cell `(i, j)`, lies above the surface (`Ok(true)`) or below it
    /// (`Ok(false)`), or the surface's normal there when it lies on it.
    fn start_side(&self, i: usize, j: usize, start: &Point3<N>) -> Result<bool, Vec3<N>> {
        let (lo, hi) = self.height_range(i, j);
        if start.y > hi {
            return Ok(true);
        }
        if start.y < lo {
            return Ok(false);
        }
        let planes = self.planes(i, j);
        let k = self.triangle_at(&planes, start.x, start.z);
        let g = start.y - planes.height(k, start.x, start.z);
        if g == N::zero() { Err(planes.normal(k)) } else { Ok(g > N::zero()) }
    }

    /// The cell over the local point `(x, z)` (clamped to the grid).
    fn cell_of(&self, x: N, z: N) -> (usize, usize) {
        // Truncation of a non-negative value is its floor.
        let index = |v: N, n: usize| (v.max_of(N::zero()).to_f64() as usize).min(n - 2);
        let m = &self.aabb.mins;
        (
            index((z - m.z) * self.inv_cell.1, self.rows),
            index((x - m.x) * self.inv_cell.0, self.cols),
        )
    }

    /// The first stretch of `[enter, exit]` over the cell whose end lies on the other side of
    /// the surface than `above` says, with the crossing's `t` and its triangle's normal.
    fn cross_cell(
        &self,
        planes: &CellPlanes<N>,
        at: &impl Fn(N) -> Point3<N>,
        (enter, exit): (N, N),
        above: bool,
    ) -> Option<(N, Vec3<N>)> {
        let (pa, pb) = (at(enter), at(exit));
        let (sa, sb) = (planes.diagonal_side(&pa), planes.diagonal_side(&pb));
        let (ka, kb) = (usize::from(sa > N::zero()), usize::from(sb > N::zero()));
        if (sa < N::zero() && sb > N::zero()) || (sa > N::zero() && sb < N::zero()) {
            // The ends lie strictly on the diagonal's two sides: two stretches.
            let mid = enter + (exit - enter) * (sa / (sa - sb));
            let pm = at(mid);
            return planes
                .cross(ka, (enter, &pa), (mid, &pm), above)
                .or_else(|| planes.cross(kb, (mid, &pm), (exit, &pb), above));
        }
        planes.cross(ka.max(kb), (enter, &pa), (exit, &pb), above)
    }

    /// The triangle of the cell over `(x, z)`.
    fn triangle_at(&self, planes: &CellPlanes<N>, x: N, z: N) -> usize {
        usize::from(planes.diagonal_side(&Point3::new(x, N::zero(), z)) > N::zero())
    }

    /// The lowest and highest height of cell `(i, j)`'s corners.
    #[inline(always)]
    fn height_range(&self, i: usize, j: usize) -> (N, N) {
        self.ranges[i * (self.cols - 1) + j]
    }

    /// The planes of cell `(i, j)`'s two triangles.
    fn planes(&self, i: usize, j: usize) -> CellPlanes<N> {
        let (x0, x1) = (self.x_at(j), self.x_at(j + 1));
        let (z0, z1) = (self.z_at(i), self.z_at(i + 1));
        let [h00, h01, h10, h11] = self.corner_heights(i, j);
        let (ix, iz) = self.inv_cell;
        CellPlanes {
            planes: [
                (x0, z0, h00, (h01 - h00) * ix, (h10 - h00) * iz),
                (x1, z1, h11, (h11 - h10) * ix, (h11 - h01) * iz),
            ],
            corner: (x0, z0),
            inv_cell: self.inv_cell,
        }
    }

    /// Calls `f(i, j, enter, exit)` for the cells the segment crosses over `[t0, t1]` (already
    /// clipped to the field's box), in order from the cell `(i, j)` it starts in, until `f`
    /// returns `false` or the segment ends.
    fn walk_cells(
        &self,
        origin: &Point3<N>,
        dir: &Vec3<N>,
        inv: &Vec3<N>,
        (t0, t1): (N, N),
        (i, j): (usize, usize),
        mut f: impl FnMut(usize, usize, N, N) -> bool,
    ) {
        let m = &self.aabb.mins;
        // Per axis: the step (±1 or 0), the parameter of the next boundary, the parameter
        // between boundaries.
        let axis = |d: N, inv: N, o: N, lo: N, size: N, c: usize| -> (isize, N, N) {
            if d > N::zero() {
                let next = lo + size * N::from_count(c + 1);
                (1, t0.max_of((next - o) * inv), size * inv)
            } else if d < N::zero() {
                let next = lo + size * N::from_count(c);
                (-1, t0.max_of((next - o) * inv), -size * inv)
            } else {
                (0, N::MAX, N::MAX)
            }
        };
        let (sx, mut tx, dtx) = axis(dir.x, inv.x, origin.x, m.x, self.cell.0, j);
        let (sz, mut tz, dtz) = axis(dir.z, inv.z, origin.z, m.z, self.cell.1, i);
        let (w, h) = ((self.cols - 1) as isize, (self.rows - 1) as isize);
        let (mut ci, mut cj) = (i as isize, j as isize);
        let mut enter = t0;
        loop {
            // Plain comparisons: the boundary parameters are finite or `N::MAX`, never NaN.
            let exit = if tx < tz { tx } else { tz };
            let exit = if exit < t1 { exit } else { t1 };
            if !f(ci as usize, cj as usize, enter, exit) || exit >= t1 {
                return;
            }
            enter = exit;
            if tx <= tz {
                cj += sx;
                tx += dtx;
            } else {
                ci += sz;
                tz += dtz;
            }
            if cj < 0 || cj >= w || ci < 0 || ci >= h {
                return;
            }
        }
    }
}

/// A hit `(t, n)` with its normal turned to face the ray.
fn facing_ray<N: Scalar>((t, n): (N, Vec3<N>), dir: &Vec3<N>) -> (N, Vec3<N>) {
    if n.dot(dir) > N::zero() { (t, -n) } else { (t, n) }
}

/// The parameter range `[t0, t1] ⊂ [0, max_t]` of the segment inside `aabb` (slab test, with
/// `inv` one over `dir` where it is not zero), or `None` when it misses.
fn clip_to_box<N: Scalar>(
    aabb: &Aabb<N, 3>,
    origin: &Point3<N>,
    dir: &Vec3<N>,
    inv: &Vec3<N>,
    max_t: N,
) -> Option<(N, N)> {
    let (mut t0, mut t1) = (N::zero(), max_t);
    for k in 0..3 {
        if dir[k] == N::zero() {
            if origin[k] < aabb.mins[k] || origin[k] > aabb.maxs[k] {
                return None;
            }
            continue;
        }
        let (a, b) = ((aabb.mins[k] - origin[k]) * inv[k], (aabb.maxs[k] - origin[k]) * inv[k]);
        t0 = t0.max_of(a.min_of(b));
        t1 = t1.min_of(a.max_of(b));
        if t0 > t1 {
            return None;
        }
    }
    Some((t0, t1))
}
