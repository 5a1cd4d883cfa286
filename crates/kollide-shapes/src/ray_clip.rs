//! A ray against a convex polytope given by its face planes, in closed form: the Cyrus–Beck
//! clip (Cyrus and Beck, "Generalized Two- and Three-Dimensional Clipping", Computers &
//! Graphics, 1978).
//!
//! The polytope is the intersection of the half-spaces `n_i · x ≤ d_i`. Along the ray
//! `o + t d`, each half-space holds on one side of `t_i = (d_i − n_i · o) / (n_i · d)`: from
//! `t_i` on where the ray goes in through the plane (`n_i · d < 0`), up to `t_i` where it goes
//! out. The ray is inside on the latest entry to the earliest exit, and enters through the
//! plane of the latest entry, whose normal is the hit's. A plane the ray runs parallel to is
//! all or nothing. The cost is one pass over the faces, so the shapes use it up to
//! [`MAX_CLIPPED_FACES`] faces and leave larger hulls to the GJK cast, which climbs.

use kollide_math::{Scalar, Vector};

use crate::CoreRay;

/// Polytopes with at most this many faces take the clip; larger ones the GJK cast.
pub(crate) const MAX_CLIPPED_FACES: usize = 64;

/// The ray `origin + t dir`, `t ∈ [0, max_t]`, against the polytope of the planes
/// `(n_i, d_i)` (outward normals, unit or not, and offsets): see the module docs.
pub(crate) fn clip_ray<N: Scalar, const D: usize>(
    planes: impl Iterator<Item = (Vector<N, D>, N)>,
    origin: &Vector<N, D>,
    dir: &Vector<N, D>,
    max_t: N,
) -> CoreRay<N, D> {
    let (mut enter, mut exit, mut normal) = (-N::MAX, N::MAX, Vector::zeros());
    let mut inside = true;
    for (n, d) in planes {
        let (gap, rate) = (d - n.dot(origin), n.dot(dir));
        inside &= gap >= N::zero();
        if rate == N::zero() {
            if gap < N::zero() {
                return CoreRay::Miss;
            }
        } else if rate < N::zero() {
            let t = gap / rate;
            if t > enter {
                (enter, normal) = (t, n);
            }
        } else {
            exit = exit.min_of(gap / rate);
        }
    }
    if inside {
        let hit = CoreRay::Hit { t: N::zero(), normal: Vector::zeros() };
        return if max_t >= N::zero() { hit } else { CoreRay::Miss };
    }
    if enter > exit || enter < N::zero() || enter > max_t {
        return CoreRay::Miss;
    }
    let length = normal.norm();
    CoreRay::Hit { t: enter, normal: normal / length }
}
