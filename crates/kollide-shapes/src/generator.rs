//! Generators of a supporting set: the points whose convex hull is the part of a core that
//! touches its support plane, as functions of the support direction.
//!
//! A polytope's supporting set along `d` is the hull of the vertices on the support plane, and
//! those vertices stay put while `d` turns a little. A cylinder or a cone has curved parts, but
//! they are made of circles: a cylinder is a disc swept along its axis, a cone the hull of a disc
//! and its apex. The point of a circle (centre `c`, unit axis `a`, radius `r`) farthest along
//! `d` is
//!
//! ```text
//! c + r · (d − (d·a) a) / |d − (d·a) a|,
//! ```
//!
//! a smooth function of `d` away from the axis. So every core in kollide has, along each
//! direction off its caps, a supporting set spanned by a few [`Generator`]s: fixed points and
//! rim points that move with `d`. The narrowphase solves for the normal of a contact on these
//! (Newton's method on the optimality conditions), where GJK's and EPA's chords of support
//! points only approach a curved surface.

use kollide_math::{Point, Scalar, Vector};

/// One generator of a core's supporting set ([`crate::SupportMap::curved_generators`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Generator<N: Scalar, const D: usize> {
    /// A point that does not move with the direction (a vertex, an apex, a segment's end).
    Point(Point<N, D>),
    /// The point of a circle that supports the direction: a cylinder's or a cone's rim.
    Rim {
        /// The circle's centre.
        centre: Point<N, D>,
        /// The unit normal of the circle's plane.
        axis: Vector<N, D>,
        /// The circle's radius.
        radius: N,
    },
}

impl<N: Scalar, const D: usize> Generator<N, D> {
    /// The generator's point along `dir` (any length): a [`Generator::Point`] itself, a rim's
    /// point farthest along `dir`, or the rim's centre when `dir` is along its axis (where every
    /// point of the rim supports it).
    #[inline]
    pub fn at(&self, dir: &Vector<N, D>) -> Point<N, D> {
        match self {
            Generator::Point(p) => *p,
            Generator::Rim { centre, axis, radius } => {
                let planar = dir - *axis * axis.dot(dir);
                match planar.try_normalize(N::zero()) {
                    Some(u) => centre + u * *radius,
                    None => *centre,
                }
            }
        }
    }

    /// The generator placed by `point` (for its points) and `vector` (for its axis): a rigid
    /// motion, or a change of scalar type.
    #[inline]
    pub fn map<M: Scalar>(
        &self,
        point: impl Fn(&Point<N, D>) -> Point<M, D>,
        vector: impl Fn(&Vector<N, D>) -> Vector<M, D>,
        scalar: impl Fn(N) -> M,
    ) -> Generator<M, D> {
        match self {
            Generator::Point(p) => Generator::Point(point(p)),
            Generator::Rim { centre, axis, radius } => Generator::Rim {
                centre: point(centre),
                axis: vector(axis),
                radius: scalar(*radius),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kollide_math::{Point3, Vec3};

    #[test]
    fn a_rim_point_is_the_circles_farthest_point_along_the_direction() {
        let rim =
            Generator::Rim { centre: Point3::new(1.0, 2.0, 3.0), axis: Vec3::y(), radius: 2.0 };
        let p = rim.at(&Vec3::new(3.0, 5.0, 4.0));
        assert!((p - Point3::new(1.0 + 1.2, 2.0, 3.0 + 1.6)).norm() < 1e-15);
        // Along the axis every point supports; the centre stands for them.
        assert_eq!(rim.at(&Vec3::y()), Point3::new(1.0, 2.0, 3.0));
        assert_eq!(Generator::Point(Point3::new(0.5, 0.0, 0.0)).at(&Vec3::x()).x, 0.5);
    }
}
