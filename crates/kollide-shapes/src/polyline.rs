//! [`Polyline`]: a 2D chain of one-sided segments, open (with optional ghost vertices) or a
//! closed loop: the 2D level geometry of terrain and walls.
//!
//! **One-sided segments.** Segment `i` runs from point `i` to point `i + 1` (the last of a loop
//! from the last point back to the first). It collides only on its **right**, the side its
//! normal `n = (d.y, −d.x) / |d|` points to, `d` being the direction of travel: a
//! counter-clockwise loop (kollide's winding) has its normals pointing **out**, so it is the
//! boundary of a solid on its left, like a polygon's edges (`docs/conventions.md`). For a floor
//! seen from above, list the points from right to left (decreasing x), as the top of a
//! counter-clockwise loop around the ground runs. A shape whose centre lies behind a segment
//! (on its left) gets no contact from it: it is inside the solid, or passing through from
//! behind, and the chain does not push it through (Catto's chain shapes do the same).
//!
//! **Ghost vertices and the internal-vertex rule** (Catto, "Ghost Vertices", 2010, and the
//! chain shapes of Box2D): a shape sliding along a flat chain must not catch on the vertex
//! between two segments, which a segment queried alone would give a sideways normal. Each
//! segment knows its neighbours' far points (the **ghost vertices**), so whether each of its two
//! end vertices is **active**, a convex corner (the chain turns left there, towards its solid
//! side) sharper than [`CREASE_ANGLE`](crate::CREASE_ANGLE), as for the active edges of a mesh.
//! A contact from an inactive vertex (flat, concave, gently bent) is given the segment's normal
//! instead (see `kollide-narrowphase`'s `composite` module). An open chain's two end vertices
//! are active unless ghost vertices are given for them: `ghost_start` before point 0 and
//! `ghost_end` after the last point stand for the geometry the chain continues into (another
//! chain, a wall), so that two chains meet without a seam.
//!
//! **Mid-phase.** A static [`Tree`] over the segments' boxes, as for a [`TriMesh`](crate::TriMesh).
//!
//! The flags are 2 bits per segment read through [`CompositeShape::active_edges`]: bit 0 for
//! the start vertex, bit 1 for the end vertex.

use core::ops::ControlFlow;

use kollide_math::{Iso2, Point, Point2, Scalar, Vec2, Vector};
use thiserror::Error;

use crate::active_edge::CREASE_ANGLE;
use crate::tree::Tree;
use crate::{Aabb, CompositeShape, Segment, ShapeError};

/// The most segments a chain holds (piece indices times the feature stride must fit a `u32`).
const MAX_SEGMENTS: usize = 1 << 30;

/// Why a [`Polyline`] could not be built. Every variant names the point at fault.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum PolylineError {
    /// Fewer points than the chain needs (2 for an open chain, 3 for a loop).
    #[error("a chain needs at least {needed} points, got {got}")]
    TooFewPoints {
        /// Points given.
        got: usize,
        /// Points needed.
        needed: usize,
    },
    /// More than 2^30 segments.
    #[error("a chain holds at most 2^30 segments, got {0}")]
    TooMany(usize),
    /// A point has a NaN or infinite coordinate (a ghost vertex is named `usize::MAX` for the
    /// start and the number of points for the end).
    #[error("point {point} is not finite")]
    NonFinitePoint {
        /// Index of the point.
        point: usize,
    },
    /// Two consecutive points coincide (within the relative tolerance of [`Segment::new`]): the
    /// segment between them has no direction.
    #[error("points {point} and {next} coincide")]
    RepeatedPoint {
        /// Index of the first point.
        point: usize,
        /// Index of the next point (0 for the closing segment of a loop).
        next: usize,
    },
    /// A coordinate is beyond `Scalar::MAX_COORDINATE`, or a segment's length outside
    /// `Scalar::MIN_SIZE ..= 2 · Scalar::MAX_SIZE`.
    #[error("{what} is {value}, beyond the limit {limit} of this scalar type's envelope")]
    OutOfEnvelope {
        /// What was out of range, e.g. `"point 3 coordinate"` or `"segment 2 length"`.
        what: String,
        /// The value.
        value: f64,
        /// The limit it broke.
        limit: f64,
    },
}

/// A 2D chain of one-sided segments (see the module docs).
///
/// ```
/// use kollide_math::Point2;
/// use kollide_shapes::{CompositeShape, Polyline, PolylineError};
/// // A floor at y = 0, listed right to left so that its normals point up.
/// let floor = Polyline::open(
///     vec![Point2::new(2.0f64, 0.0), Point2::new(0.0, 0.0), Point2::new(-2.0, 0.0)],
///     None,
///     None,
/// )
/// .unwrap();
/// assert_eq!(floor.segment_count(), 2);
/// assert!((floor.normal(0) - kollide_math::Vec2::new(0.0, 1.0)).norm() < 1e-12);
/// // The flat middle vertex is inactive, the chain's two ends are active.
/// assert_eq!(floor.active_edges(0), Some(0b01));
/// assert_eq!(floor.active_edges(1), Some(0b10));
/// let bad = Polyline::open(vec![Point2::new(0.0f64, 0.0), Point2::new(0.0, 0.0)], None, None);
/// assert_eq!(bad.unwrap_err(), PolylineError::RepeatedPoint { point: 0, next: 1 });
/// ```
#[derive(Clone, Debug)]
pub struct Polyline<N: Scalar> {
    points: Vec<Point2<N>>,
    closed: bool,
    ghosts: [Option<Point2<N>>; 2],
    segments: Vec<Segment<N, 2>>,
    /// Per segment: bit 0 when its start vertex is active, bit 1 its end vertex.
    active: Vec<u8>,
    tree: Tree<N, 2>,
    aabb: Aabb<N, 2>,
}

impl<N: Scalar> Polyline<N> {
    /// An open chain through `points` (at least 2), with optional ghost vertices before the
    /// first point and after the last (see the module docs).
    ///
    /// Fails with [`PolylineError::TooFewPoints`], [`PolylineError::NonFinitePoint`],
    /// [`PolylineError::RepeatedPoint`] (consecutive points, or a ghost equal to its end point),
    /// [`PolylineError::OutOfEnvelope`] and [`PolylineError::TooMany`].
    pub fn open(
        points: Vec<Point2<N>>,
        ghost_start: Option<Point2<N>>,
        ghost_end: Option<Point2<N>>,
    ) -> Result<Self, PolylineError> {
        Self::build(points, false, [ghost_start, ghost_end])
    }

    /// A closed loop through `points` (at least 3), the last joined back to the first. Give
    /// them counter-clockwise for normals pointing out of the enclosed solid.
    ///
    /// Fails like [`Polyline::open`]; the closing segment's points are `(last, 0)`.
    pub fn closed(points: Vec<Point2<N>>) -> Result<Self, PolylineError> {
        Self::build(points, true, [None, None])
    }

    fn build(
        points: Vec<Point2<N>>,
        closed: bool,
        ghosts: [Option<Point2<N>>; 2],
    ) -> Result<Self, PolylineError> {
        let needed = if closed { 3 } else { 2 };
        if points.len() < needed {
            return Err(PolylineError::TooFewPoints { got: points.len(), needed });
        }
        if points.len() > MAX_SEGMENTS {
            return Err(PolylineError::TooMany(points.len()));
        }
        let n = points.len();
        let named = [(usize::MAX, ghosts[0]), (n, ghosts[1])];
        let all = points.iter().enumerate().map(|(i, p)| (i, Some(*p))).chain(named);
        for (point, p) in all {
            let Some(p) = p else { continue };
            if !p.coords.iter().all(|x| x.is_finite_value()) {
                return Err(PolylineError::NonFinitePoint { point });
            }
            if p.coords.amax() > N::MAX_COORDINATE {
                return Err(PolylineError::OutOfEnvelope {
                    what: format!("point {point} coordinate"),
                    value: p.coords.amax().to_f64(),
                    limit: N::MAX_COORDINATE.to_f64(),
                });
            }
        }
        let count = if closed { n } else { n - 1 };
        let segments = (0..count)
            .map(|i| make_segment(&points, i, (i + 1) % n))
            .collect::<Result<Vec<_>, _>>()?;
        // A ghost makes a segment with its end point, checked as the chain's own.
        let ghost = |a: Point2<N>, b: Point2<N>, point: usize, next: usize| {
            make_segment(&[a, b], 0, 1).map(|_| ()).map_err(|e| match e {
                PolylineError::OutOfEnvelope { value, limit, .. } => PolylineError::OutOfEnvelope {
                    what: format!("ghost segment at point {}", point.min(next)),
                    value,
                    limit,
                },
                _ => PolylineError::RepeatedPoint { point, next },
            })
        };
        if let Some(g) = ghosts[0] {
            ghost(g, points[0], usize::MAX, 0)?;
        }
        if let Some(g) = ghosts[1] {
            ghost(points[n - 1], g, n - 1, n)?;
        }
        let boxes: Vec<Aabb<N, 2>> =
            segments.iter().map(|s| Aabb::new(s.a().inf(&s.b()), s.a().sup(&s.b()))).collect();
        let aabb = boxes.iter().skip(1).fold(boxes[0], |acc, b| acc.merged(b));
        let tree = Tree::build(&boxes).map_err(|_| PolylineError::TooMany(boxes.len()))?;
        let mut chain = Self { points, closed, ghosts, segments, active: Vec::new(), tree, aabb };
        chain.active = (0..count).map(|i| chain.segment_active_vertices(i)).collect();
        Ok(chain)
    }

    /// The points.
    pub fn points(&self) -> &[Point2<N>] {
        &self.points
    }

    /// `true` for a closed loop.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// The ghost vertices `[before the first point, after the last]` of an open chain.
    pub fn ghosts(&self) -> [Option<Point2<N>>; 2] {
        self.ghosts
    }

    /// The number of segments (points − 1 for an open chain, points for a loop).
    pub fn segment_count(&self) -> usize {
        self.segments.len()
    }

    /// Segment `i`, from point `i` to the next. Panics when out of range.
    pub fn segment(&self, i: u32) -> Segment<N, 2> {
        self.segments[i as usize]
    }

    /// The unit normal of segment `i`, on the right of its direction (see the module docs).
    pub fn normal(&self, i: u32) -> Vec2<N> {
        right_normal(&self.segments[i as usize])
    }

    /// The static tree over the segments' boxes (leaf data: segment indices).
    pub fn tree(&self) -> &Tree<N, 2> {
        &self.tree
    }

    /// The point before segment `i`'s start and after its end, from the neighbouring segments
    /// or the ghost vertices; `None` at an open end without a ghost.
    fn neighbours(&self, i: usize) -> [Option<Point2<N>>; 2] {
        let count = self.segments.len();
        let before = if i > 0 || self.closed {
            Some(self.segments[(i + count - 1) % count].a())
        } else {
            self.ghosts[0]
        };
        let after = if i + 1 < count || self.closed {
            Some(self.segments[(i + 1) % count].b())
        } else {
            self.ghosts[1]
        };
        [before, after]
    }

    fn segment_active_vertices(&self, i: usize) -> u8 {
        let s = &self.segments[i];
        let [before, after] = self.neighbours(i);
        let start = before.is_none_or(|p| corner_is_active(&p, &s.a(), &s.b()));
        let end = after.is_none_or(|p| corner_is_active(&s.a(), &s.b(), &p));
        u8::from(start) | u8::from(end) << 1
    }
}

/// The unit normal on the right of a segment's direction.
pub(crate) fn right_normal<N: Scalar>(s: &Segment<N, 2>) -> Vec2<N> {
    let d = s.direction();
    Vec2::new(d.y, -d.x) / d.norm()
}

/// Whether the chain's corner at `b` (coming from `a`, going to `c`) is active: a left turn
/// (convex, its solid side on the left) by more than [`CREASE_ANGLE`].
fn corner_is_active<N: Scalar>(a: &Point2<N>, b: &Point2<N>, c: &Point2<N>) -> bool {
    let (u, v) = ((b - a).normalize(), (c - b).normalize());
    let cross = u.x * v.y - u.y * v.x;
    cross > N::zero() && u.dot(&v) < N::lit(CREASE_ANGLE.cos())
}

/// Segment from `points[i]` to `points[j]`, its errors renamed to name the points.
fn make_segment<N: Scalar>(
    points: &[Point2<N>],
    i: usize,
    j: usize,
) -> Result<Segment<N, 2>, PolylineError> {
    Segment::new(points[i], points[j]).map_err(|e| match e {
        ShapeError::OutOfEnvelope { value, limit, .. } => {
            PolylineError::OutOfEnvelope { what: format!("segment {i} length"), value, limit }
        }
        // Coincident points (finiteness was checked before).
        _ => PolylineError::RepeatedPoint { point: i, next: j },
    })
}

impl<N: Scalar> CompositeShape<N, 2> for Polyline<N> {
    type Pose = Iso2<N>;
    type Piece = Segment<N, 2>;
    const FEATURE_STRIDE: u32 = 4;

    fn local_aabb(&self) -> Aabb<N, 2> {
        self.aabb
    }

    fn piece_count(&self) -> usize {
        self.segments.len()
    }

    fn visit_pieces_in<F>(&self, aabb: &Aabb<N, 2>, f: F) -> ControlFlow<()>
    where
        F: FnMut(u32, Option<&Self::Pose>, &Self::Piece) -> ControlFlow<()>,
    {
        crate::composite::visit_tree_pieces_in(&self.tree, &self.segments, aabb, f)
    }

    /// The segments whose boxes the ray enters, nearer subtrees first.
    fn visit_pieces_along_ray<F>(
        &self,
        origin: &Point<N, 2>,
        dir: &Vector<N, 2>,
        max_t: N,
        f: F,
    ) -> ControlFlow<()>
    where
        F: FnMut(u32, Option<&Self::Pose>, &Self::Piece) -> Option<N>,
    {
        crate::composite::visit_tree_pieces_along_ray(
            &self.tree,
            &self.segments,
            (origin, dir, max_t),
            f,
        )
    }

    /// Bit 0: the segment's start vertex is active; bit 1: its end vertex.
    fn active_edges(&self, piece: u32) -> Option<u8> {
        Some(self.active[piece as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Point2<f64> {
        Point2::new(x, y)
    }

    #[test]
    fn corners_and_ghosts() {
        // Right to left over a bump: up at x = 1, over the peak at x = 0, down to x = −1.
        let chain =
            Polyline::open(vec![p(3.0, 0.0), p(1.0, 0.0), p(0.0, 0.5), p(-1.0, 0.0)], None, None)
                .unwrap();
        // Going left, the chain turns right (clockwise) at (1, 0): concave, inactive.
        assert_eq!(chain.active_edges(0), Some(0b01));
        // At the peak (0, 0.5) it turns left: convex, active.
        assert_eq!(chain.active_edges(1), Some(0b10));
        assert_eq!(chain.active_edges(2), Some(0b11));
        // Ghosts continuing the line flat make the ends inactive.
        let ghosted = Polyline::open(
            vec![p(1.0, 0.0), p(0.0, 0.0), p(-1.0, 0.0)],
            Some(p(2.0, 0.0)),
            Some(p(-2.0, 0.0)),
        )
        .unwrap();
        assert_eq!(ghosted.active_edges(0), Some(0));
        assert_eq!(ghosted.active_edges(1), Some(0));
        // A gentle bend (0.5°) is flat; a counter-clockwise square's corners are all convex.
        let t = 0.5f64.to_radians().tan();
        let gentle =
            Polyline::open(vec![p(1.0, -t), p(0.0, 0.0), p(-1.0, -t)], None, None).unwrap();
        assert_eq!(gentle.active_edges(0), Some(0b01));
        let square =
            Polyline::closed(vec![p(0.0, 0.0), p(1.0, 0.0), p(1.0, 1.0), p(0.0, 1.0)]).unwrap();
        assert!((0..4).all(|i| square.active_edges(i) == Some(0b11)));
        assert!((square.normal(0) - Vec2::new(0.0, -1.0)).norm() < 1e-12);
    }

    #[test]
    fn every_error_names_its_point() {
        let ok = vec![p(0.0, 0.0), p(1.0, 0.0), p(1.0, 1.0)];
        assert_eq!(
            Polyline::open(vec![p(0.0, 0.0)], None, None).unwrap_err(),
            PolylineError::TooFewPoints { got: 1, needed: 2 }
        );
        assert_eq!(
            Polyline::closed(ok[..2].to_vec()).unwrap_err(),
            PolylineError::TooFewPoints { got: 2, needed: 3 }
        );
        let mut nan = ok.clone();
        nan[2].x = f64::NAN;
        assert_eq!(
            Polyline::open(nan, None, None).unwrap_err(),
            PolylineError::NonFinitePoint { point: 2 }
        );
        assert_eq!(
            Polyline::open(ok.clone(), None, Some(p(f64::INFINITY, 0.0))).unwrap_err(),
            PolylineError::NonFinitePoint { point: 3 }
        );
        let mut rep = ok.clone();
        rep[2] = rep[1];
        assert_eq!(
            Polyline::open(rep, None, None).unwrap_err(),
            PolylineError::RepeatedPoint { point: 1, next: 2 }
        );
        // A loop whose last point repeats its first.
        let mut lp = ok.clone();
        lp.push(p(0.0, 0.0));
        assert_eq!(
            Polyline::closed(lp).unwrap_err(),
            PolylineError::RepeatedPoint { point: 3, next: 0 }
        );
        assert_eq!(
            Polyline::open(ok.clone(), Some(p(0.0, 0.0)), None).unwrap_err(),
            PolylineError::RepeatedPoint { point: usize::MAX, next: 0 }
        );
        let mut far = ok.clone();
        far[0].y = -2e10;
        assert!(matches!(
            Polyline::open(far, None, None).unwrap_err(),
            PolylineError::OutOfEnvelope { what, .. } if what == "point 0 coordinate"
        ));
        let tiny = vec![p(0.0, 0.0), p(1e-8, 0.0)];
        assert!(matches!(
            Polyline::open(tiny, None, None).unwrap_err(),
            PolylineError::OutOfEnvelope { what, .. } if what == "segment 0 length"
        ));
    }
}
