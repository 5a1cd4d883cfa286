//! Reducing many candidate contact points to the best four (3D).
//!
//! Clipping a face against a face can leave up to eight points, but four well-chosen ones hold a
//! box as well as eight. The choice, after Box2D-style and Bullet-style reductions:
//!
//! 1. the deepest point (smallest separation): it carries the most load;
//! 2. the point farthest from it (in the contact plane);
//! 3. the point that makes the largest triangle with the first two;
//! 4. the point that adds the most area to that triangle (the largest of the three triangles it
//!    forms with the triangle's edges, counted on the side away from the triangle).
//!
//! The result keeps the deepest point and spans the largest area the points allow, which is what
//! keeps a resting box from rocking.

use kollide_math::{Scalar, Vec3};

use crate::Contact;

/// Chooses at most four of `candidates` (see the module docs) and writes their indices into
/// `out`, returning how many were chosen. `normal` is the contact normal; areas are measured in
/// the plane perpendicular to it. Deterministic: ties go to the lowest index.
pub fn reduce_to_four<N: Scalar, U: Copy + Default>(
    candidates: &[Contact<N, 3, U>],
    normal: &Vec3<N>,
    out: &mut [usize; 4],
) -> usize {
    let n = candidates.len();
    if n <= 4 {
        for (i, o) in out.iter_mut().enumerate().take(n) {
            *o = i;
        }
        return n;
    }
    let p = |i: usize| candidates[i].midpoint().coords;
    // 1. Deepest.
    let mut i0 = 0;
    for i in 1..n {
        if candidates[i].separation < candidates[i0].separation {
            i0 = i;
        }
    }
    // 2. Farthest from it, in the plane.
    let planar = |v: Vec3<N>| v - normal * v.dot(normal);
    let mut i1 = usize::MAX;
    let mut best = -N::one();
    for i in 0..n {
        let d = planar(p(i) - p(i0)).norm_squared();
        if i != i0 && d > best {
            best = d;
            i1 = i;
        }
    }
    // 3. Largest triangle with the first two.
    let area = |a: usize, b: usize, c: usize| (p(b) - p(a)).cross(&(p(c) - p(a))).dot(normal);
    let mut i2 = usize::MAX;
    let mut best = -N::one();
    for i in 0..n {
        if i == i0 || i == i1 {
            continue;
        }
        let a = area(i0, i1, i).abs();
        if a > best {
            best = a;
            i2 = i;
        }
    }
    // Orient the triangle counter-clockwise around the normal.
    let (i1, i2) = if area(i0, i1, i2) < N::zero() { (i2, i1) } else { (i1, i2) };
    // 4. The point that adds the most area outside the triangle: for each edge, the area of the
    // triangle it forms with the point on the outer side (negative signed area).
    let mut i3 = usize::MAX;
    let mut best = N::zero();
    for i in 0..n {
        if i == i0 || i == i1 || i == i2 {
            continue;
        }
        let outside = [area(i0, i1, i), area(i1, i2, i), area(i2, i0, i)]
            .iter()
            .fold(N::zero(), |m, a| m.max_of(-*a));
        if outside > best {
            best = outside;
            i3 = i;
        }
    }
    out[0] = i0;
    out[1] = i1;
    out[2] = i2;
    if i3 == usize::MAX {
        3
    } else {
        out[3] = i3;
        4
    }
}
