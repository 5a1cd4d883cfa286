//! [`HeightField`]: terrain as a regular grid of heights, two triangles per cell.
//!
//! **Layout** (the same as parry's, so that the two can be compared sample for sample). The grid
//! has `rows × cols` samples (`rows, cols ≥ 2`); row `i` runs along local z, column `j` along
//! local x. The field is centred on its local origin and spans `scale.x` along x and `scale.z`
//! along z; sample `(i, j)` is the point
//!
//! ```text
//! x_j = (−½ + j / (cols − 1)) · scale.x,   y = heights[i · cols + j] · scale.y,
//! z_i = (−½ + i / (rows − 1)) · scale.z.
//! ```
//!
//! Cell `(i, j)` (`i < rows − 1`, `j < cols − 1`) has corners `p00 = (x_j, z_i)`,
//! `p10 = (x_j, z_{i+1})`, `p01 = (x_{j+1}, z_i)`, `p11 = (x_{j+1}, z_{i+1})` and is split along
//! the diagonal `p10 – p01` into triangle 0 = `(p00, p10, p01)` and triangle 1 =
//! `(p10, p11, p01)`, both with upward normals. Triangle `t` of cell `(i, j)` is piece
//! `2 · (i · (cols − 1) + j) + t` of the [`CompositeShape`].
//!
//! **A surface, not a solid.** Like a mesh, a heightfield is the surface of its triangles: a shape
//! overlapping a triangle is pushed out of it, and a shape entirely below the terrain is apart
//! from it (as in parry). Keep bodies above the terrain with speculative contacts or casts.
//!
//! **Finding pieces without a tree.** The cells under a box are a rectangle of the grid,
//! computed from the box's x and z ranges in O(1). A ray visits the cells it crosses in order
//! with the grid walk of Amanatides and Woo ("A Fast Voxel Traversal Algorithm for Ray
//! Tracing", Eurographics 1987), and the field finds the crossing itself, from the ray's height
//! above the surface along the walk, with no per-triangle test ([`CompositeShape::surface_ray`];
//! the `ray` module's docs give the method and why no ray slips through a seam).
//!
//! **Active edges (no ghost collisions).** A body sliding over a flat, tessellated floor must not
//! catch on the edges between triangles: against one triangle alone, a box corner dipping a
//! millimetre below the floor near an edge is pushed *sideways* out of that edge, against its
//! motion, although the neighbour triangle continues the floor there. Jolt (Rouwé, "Jolt
//! Physics: active edges", after Bullet's internal-edge utility) marks each internal edge
//! **active** only where the surface really creases outward there, and gives a contact on an
//! inactive edge or vertex the triangle's face normal instead; Box2D (Catto, "Ghost Vertices",
//! 2010, and the chain shapes of Box2D v3) does the same in 2D with the neighbours' "ghost"
//! vertices. kollide follows the rule:
//!
//! * an edge is **active** when it lies on the grid's boundary (nothing continues the surface),
//!   or when the two triangles meet there in a convex crease sharper than [`CREASE_ANGLE`];
//! * flat, concave and gently bent edges are **inactive**; a vertex is active when one of the
//!   triangle's two edges at it is.
//!
//! The flags are computed once at construction from the grid's neighbours (3 bits per triangle)
//! and read through [`CompositeShape::active_edges`]. A concave edge needs no normal of its own:
//! each of its two faces gives its own contact. A gently bent convex edge (below the crease
//! angle) given one face's normal tilts the contact by at most the bend itself.

use core::ops::ControlFlow;

use kollide_math::{Point, Point3, Scalar, Vec3, Vector};
use thiserror::Error;

#[cfg(doc)]
use crate::active_edge::CREASE_ANGLE;
use crate::active_edge::shared_edge_is_active;
use crate::composite::SurfaceRay;
use crate::{Aabb, CompositeShape, Triangle};

mod ray;

/// How far past the diagonal (in cell units) a query box may seem to end and still have the
/// triangle beyond it visited: a rounding margin, as the visit may visit more, never fewer.
const DIAGONAL_SLACK: f64 = 1e-4;

/// Why a [`HeightField`] could not be built. Every variant names the sample or input at fault.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum HeightFieldError {
    /// Fewer than two rows or two columns of samples.
    #[error("a heightfield needs at least 2 × 2 samples, got {rows} × {cols}")]
    TooSmall {
        /// Rows given (along z).
        rows: usize,
        /// Columns given (along x).
        cols: usize,
    },
    /// The number of heights is not `rows · cols` (or that product overflows).
    #[error("a {rows} × {cols} grid needs {} heights, got {len}", rows.saturating_mul(*cols))]
    WrongLength {
        /// Rows given.
        rows: usize,
        /// Columns given.
        cols: usize,
        /// Heights given.
        len: usize,
    },
    /// A height is NaN or infinite.
    #[error("the height at row {row}, column {col} is not finite ({value})")]
    NonFiniteHeight {
        /// Row of the sample.
        row: usize,
        /// Column of the sample.
        col: usize,
        /// The value given.
        value: f64,
    },
    /// A scale factor is zero, negative, NaN or infinite.
    #[error("scale.{axis} must be positive and finite, got {value}")]
    BadScale {
        /// `'x'`, `'y'` or `'z'`.
        axis: char,
        /// The value given.
        value: f64,
    },
    /// A scaled height, the field's extent or its cell size is outside the scalar type's
    /// envelope (`Scalar::MAX_COORDINATE`, `Scalar::MIN_SIZE`, `Scalar::MAX_SIZE`).
    #[error("{what} is {value}, beyond the limit {limit} of this scalar type's envelope")]
    OutOfEnvelope {
        /// What was out of range, e.g. `"height at row 3, column 4"` or `"cell size along x"`.
        what: String,
        /// The value (after scaling).
        value: f64,
        /// The limit it broke.
        limit: f64,
    },
}

/// A heightfield: terrain as a regular grid of heights (see the module docs for the layout and
/// the active-edge rule).
///
/// ```
/// use kollide_math::Vec3;
/// use kollide_shapes::{HeightField, HeightFieldError};
/// // 3 × 4 samples spanning 3 m along x and 2 m along z, flat at y = 0.
/// let field = HeightField::new(3, 4, vec![0.0f64; 12], Vec3::new(3.0, 1.0, 2.0)).unwrap();
/// assert_eq!(field.triangle_count(), 2 * 2 * 3);
/// let bad = HeightField::new(3, 4, vec![f64::NAN; 12], Vec3::new(3.0, 1.0, 2.0));
/// assert!(matches!(bad, Err(HeightFieldError::NonFiniteHeight { row: 0, col: 0, .. })));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct HeightField<N: Scalar> {
    rows: usize,
    cols: usize,
    /// Scaled heights (local y), row-major.
    heights: Vec<N>,
    scale: Vec3<N>,
    /// Cell size along x and z.
    cell: (N, N),
    /// One over the cell size along x and z.
    inv_cell: (N, N),
    /// The local x of each column and z of each row (the last exactly on the field's edge).
    xs: Vec<N>,
    zs: Vec<N>,
    aabb: Aabb<N, 3>,
    /// Per cell: bits 0–2 the active edges of triangle 0, bits 3–5 those of triangle 1.
    active: Vec<u8>,
    /// Per cell: the lowest and highest of its four corners' heights, which a ray walk
    /// compares with the ray's heights over the cell before anything else.
    ranges: Vec<(N, N)>,
}

impl<N: Scalar> HeightField<N> {
    /// A heightfield of `rows × cols` samples (row-major `heights`, row `i` along z, column `j`
    /// along x), spanning `scale.x × scale.z` centred on the origin, heights multiplied by
    /// `scale.y`.
    ///
    /// Fails with [`HeightFieldError::TooSmall`] below 2 × 2 samples,
    /// [`HeightFieldError::WrongLength`] when `heights.len() ≠ rows · cols`,
    /// [`HeightFieldError::BadScale`] for a non-positive or non-finite scale,
    /// [`HeightFieldError::NonFiniteHeight`] for a NaN or infinite height (naming the first
    /// such sample), and [`HeightFieldError::OutOfEnvelope`] when a scaled height or the half
    /// extent exceeds `Scalar::MAX_COORDINATE` or a cell is smaller than `Scalar::MIN_SIZE`.
    pub fn new(
        rows: usize,
        cols: usize,
        heights: Vec<N>,
        scale: Vec3<N>,
    ) -> Result<Self, HeightFieldError> {
        if rows < 2 || cols < 2 {
            return Err(HeightFieldError::TooSmall { rows, cols });
        }
        if rows.checked_mul(cols) != Some(heights.len()) {
            return Err(HeightFieldError::WrongLength { rows, cols, len: heights.len() });
        }
        for (axis, value) in [('x', scale.x), ('y', scale.y), ('z', scale.z)] {
            if !(value.is_finite_value() && value > N::zero()) {
                return Err(HeightFieldError::BadScale { axis, value: value.to_f64() });
            }
        }
        let out = |what: String, value: N, limit: N| HeightFieldError::OutOfEnvelope {
            what,
            value: value.to_f64(),
            limit: limit.to_f64(),
        };
        let half = N::lit(0.5);
        for (axis, extent) in [("x", scale.x), ("z", scale.z)] {
            if extent * half > N::MAX_COORDINATE {
                return Err(out(
                    format!("half extent along {axis}"),
                    extent * half,
                    N::MAX_COORDINATE,
                ));
            }
        }
        let cell = (scale.x / N::from_count(cols - 1), scale.z / N::from_count(rows - 1));
        for (axis, size) in [("x", cell.0), ("z", cell.1)] {
            if size < N::MIN_SIZE {
                return Err(out(format!("cell size along {axis}"), size, N::MIN_SIZE));
            }
        }
        let mut scaled = heights;
        let (mut lo, mut hi) = (N::MAX, -N::MAX);
        for (k, h) in scaled.iter_mut().enumerate() {
            let (row, col) = (k / cols, k % cols);
            if !h.is_finite_value() {
                return Err(HeightFieldError::NonFiniteHeight { row, col, value: h.to_f64() });
            }
            *h *= scale.y;
            if h.abs() > N::MAX_COORDINATE || !h.is_finite_value() {
                let what = format!("scaled height at row {row}, column {col}");
                return Err(out(what, *h, N::MAX_COORDINATE));
            }
            lo = lo.min_of(*h);
            hi = hi.max_of(*h);
        }
        let aabb = Aabb::new(
            Point3::new(-scale.x * half, lo, -scale.z * half),
            Point3::new(scale.x * half, hi, scale.z * half),
        );
        let inv_cell = (N::one() / cell.0, N::one() / cell.1);
        // The last sample lands exactly on the edge of the field, whatever the rounding.
        let at = |k: usize, n: usize, lo: N, hi: N, size: N| {
            if k + 1 == n { hi } else { lo + size * N::from_count(k) }
        };
        let xs = (0..cols).map(|j| at(j, cols, aabb.mins.x, aabb.maxs.x, cell.0)).collect();
        let zs = (0..rows).map(|i| at(i, rows, aabb.mins.z, aabb.maxs.z, cell.1)).collect();
        let mut field = Self {
            rows,
            cols,
            heights: scaled,
            scale,
            cell,
            inv_cell,
            xs,
            zs,
            aabb,
            active: Vec::new(),
            ranges: Vec::new(),
        };
        field.active = (0..(rows - 1) * (cols - 1)).map(|c| field.cell_active_edges(c)).collect();
        field.ranges = (0..(rows - 1) * (cols - 1))
            .map(|c| {
                let [h00, h01, h10, h11] = field.corner_heights(c / (cols - 1), c % (cols - 1));
                (h00.min_of(h01).min_of(h10.min_of(h11)), h00.max_of(h01).max_of(h10.max_of(h11)))
            })
            .collect();
        Ok(field)
    }

    /// Samples along z.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Samples along x.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The scale given at construction.
    pub fn scale(&self) -> Vec3<N> {
        self.scale
    }

    /// The cell size along x and z.
    pub fn cell_size(&self) -> (N, N) {
        self.cell
    }

    /// The scaled height (local y) of sample `(row, col)`. Panics when out of range.
    pub fn height(&self, row: usize, col: usize) -> N {
        self.heights[row * self.cols + col]
    }

    /// The number of triangles, `2 (rows − 1)(cols − 1)`.
    pub fn triangle_count(&self) -> usize {
        2 * (self.rows - 1) * (self.cols - 1)
    }

    /// The local point of sample `(row, col)`.
    pub fn sample(&self, row: usize, col: usize) -> Point3<N> {
        Point3::new(self.x_at(col), self.height(row, col), self.z_at(row))
    }

    #[inline(always)]
    fn x_at(&self, col: usize) -> N {
        self.xs[col]
    }

    #[inline(always)]
    fn z_at(&self, row: usize) -> N {
        self.zs[row]
    }

    /// Triangle `piece` (see the module docs for the numbering), in the field's frame. Panics
    /// when `piece ≥ triangle_count()`.
    pub fn triangle(&self, piece: u32) -> Triangle<N, 3> {
        let piece = piece as usize;
        let cell = piece / 2;
        let (i, j) = (cell / (self.cols - 1), cell % (self.cols - 1));
        self.cell(i, j)[piece % 2]
    }

    /// The piece across edge `k` of triangle `piece`, with the index of the shared edge in it,
    /// or `None` on the grid's boundary.
    pub fn neighbour(&self, piece: u32, k: u32) -> Option<(u32, u32)> {
        let (w, h) = (self.cols - 1, self.rows - 1);
        let cell = piece as usize / 2;
        let (i, j) = (cell / w, cell % w);
        let tri = |i: usize, j: usize, t: usize| (2 * (i * w + j) + t) as u32;
        match (piece % 2, k) {
            // Triangle 0: edge 0 is x = x_j, edge 1 the diagonal, edge 2 is z = z_i.
            (0, 0) => (j > 0).then(|| (tri(i, j - 1, 1), 1)),
            (0, 1) => Some((piece + 1, 2)),
            (0, _) => (i > 0).then(|| (tri(i - 1, j, 1), 0)),
            // Triangle 1: edge 0 is z = z_{i+1}, edge 1 is x = x_{j+1}, edge 2 the diagonal.
            (_, 0) => (i + 1 < h).then(|| (tri(i + 1, j, 0), 2)),
            (_, 1) => (j + 1 < w).then(|| (tri(i, j + 1, 0), 0)),
            _ => Some((piece - 1, 1)),
        }
    }

    /// Whether edge `k` of triangle `piece` is active (see the module docs).
    fn edge_is_active(&self, piece: u32, k: u32) -> bool {
        let Some((other, k_other)) = self.neighbour(piece, k) else {
            return true;
        };
        shared_edge_is_active(&self.triangle(piece), k, &self.triangle(other), k_other)
    }

    fn cell_active_edges(&self, cell: usize) -> u8 {
        let mut bits = 0u8;
        for t in 0..2u32 {
            for k in 0..3u32 {
                if self.edge_is_active(2 * cell as u32 + t, k) {
                    bits |= 1 << (3 * t + k);
                }
            }
        }
        bits
    }

    /// The range of cells `[lo, hi]` (inclusive, clamped to the grid) covering `[a, b]` along
    /// an axis starting at `start` with cells of `size`, `count` cells; `None` when disjoint.
    fn cell_range(a: N, b: N, start: N, size: N, count: usize) -> Option<(usize, usize)> {
        let lo = ((a - start) / size).floor();
        let hi = ((b - start) / size).floor();
        if hi < N::zero()
            || lo >= N::from_count(count)
            || lo.is_nan_value()
            || hi.is_nan_value()
            || lo > hi
        {
            return None;
        }
        let clamp = |x: N| x.max_of(N::zero()).min_of(N::from_count(count - 1)).to_f64() as usize;
        Some((clamp(lo), clamp(hi)))
    }

    /// The two triangles of cell `(i, j)`.
    #[inline]
    fn cell(&self, i: usize, j: usize) -> [Triangle<N, 3>; 2] {
        let (x0, x1) = (self.x_at(j), self.x_at(j + 1));
        let (z0, z1) = (self.z_at(i), self.z_at(i + 1));
        let [h00, h01, h10, h11] = self.corner_heights(i, j);
        let p10 = Point3::new(x0, h10, z1);
        let p01 = Point3::new(x1, h01, z0);
        [
            Triangle::new_unchecked(Point3::new(x0, h00, z0), p10, p01),
            Triangle::new_unchecked(p10, Point3::new(x1, h11, z1), p01),
        ]
    }

    /// The heights of cell `(i, j)`'s corners `p00, p01, p10, p11`.
    #[inline(always)]
    fn corner_heights(&self, i: usize, j: usize) -> [N; 4] {
        let k = i * self.cols + j;
        let h = &self.heights;
        [h[k], h[k + 1], h[k + self.cols], h[k + self.cols + 1]]
    }

    /// Visits the triangles of cell `(i, j)` whose bounding boxes meet `query`. The cell
    /// already overlaps the query's x and z ranges; a triangle is skipped when its heights miss
    /// the query's y range, or when the query's corner nearest it lies beyond the diagonal.
    #[inline]
    fn visit_cell<F>(&self, i: usize, j: usize, query: &Aabb<N, 3>, f: &mut F) -> ControlFlow<()>
    where
        F: FnMut(u32, Option<&kollide_math::Iso3<N>>, &Triangle<N, 3>) -> ControlFlow<()>,
    {
        let [h00, h01, h10, h11] = self.corner_heights(i, j);
        // Heights are finite (checked at construction): plain comparisons, no NaN handling.
        let lo = |a: N, b: N| if a < b { a } else { b };
        let hi = |a: N, b: N| if a > b { a } else { b };
        let (y0, y1) = (query.mins.y, query.maxs.y);
        let shared = (lo(h10, h01), hi(h10, h01));
        let meets = |h: N| lo(shared.0, h) <= y1 && hi(shared.1, h) >= y0;
        // The diagonal is `u + v = 1` in the cell's unit coordinates: triangle 0 lies below it,
        // triangle 1 above.
        let (x0, z0) = (self.x_at(j), self.z_at(i));
        let (ix, iz) = self.inv_cell;
        let side = |x: N, z: N| (x - x0) * ix + (z - z0) * iz;
        let near = [
            meets(h00) && side(query.mins.x, query.mins.z) <= N::one() + N::lit(DIAGONAL_SLACK),
            meets(h11) && side(query.maxs.x, query.maxs.z) >= N::one() - N::lit(DIAGONAL_SLACK),
        ];
        if !(near[0] || near[1]) {
            return ControlFlow::Continue(());
        }
        let tris = self.cell(i, j);
        let first = (2 * (i * (self.cols - 1) + j)) as u32;
        for k in 0..2 {
            if near[k] {
                f(first + k as u32, None, &tris[k])?;
            }
        }
        ControlFlow::Continue(())
    }
}

impl<N: Scalar> CompositeShape<N, 3> for HeightField<N> {
    type Pose = kollide_math::Iso3<N>;
    type Piece = Triangle<N, 3>;
    const FEATURE_STRIDE: u32 = 4;

    fn local_aabb(&self) -> Aabb<N, 3> {
        self.aabb
    }

    fn piece_count(&self) -> usize {
        self.triangle_count()
    }

    fn visit_pieces_in<F>(&self, aabb: &Aabb<N, 3>, mut f: F) -> ControlFlow<()>
    where
        F: FnMut(u32, Option<&Self::Pose>, &Self::Piece) -> ControlFlow<()>,
    {
        if aabb.mins.y > self.aabb.maxs.y || aabb.maxs.y < self.aabb.mins.y {
            return ControlFlow::Continue(());
        }
        let m = &self.aabb.mins;
        let xs = Self::cell_range(aabb.mins.x, aabb.maxs.x, m.x, self.cell.0, self.cols - 1);
        let zs = Self::cell_range(aabb.mins.z, aabb.maxs.z, m.z, self.cell.1, self.rows - 1);
        let (Some((j0, j1)), Some((i0, i1))) = (xs, zs) else {
            return ControlFlow::Continue(());
        };
        for i in i0..=i1 {
            for j in j0..=j1 {
                self.visit_cell(i, j, aabb, &mut f)?;
            }
        }
        ControlFlow::Continue(())
    }

    fn surface_ray(&self, origin: &Point<N, 3>, dir: &Vector<N, 3>, max_t: N) -> SurfaceRay<N, 3> {
        match self.cast_local_ray(origin, dir, max_t) {
            Some((t, normal)) => SurfaceRay::Hit { t, normal },
            None => SurfaceRay::Miss,
        }
    }

    fn active_edges(&self, piece: u32) -> Option<u8> {
        let bits = self.active[piece as usize / 2];
        Some(if piece.is_multiple_of(2) { bits & 7 } else { bits >> 3 })
    }
}
