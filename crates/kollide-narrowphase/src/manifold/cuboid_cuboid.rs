//! Two boxes, by the separating axis test over 15 axes and clipping.
//!
//! 1. **SAT.** In A's frame, with B's rotation `R = AᵀB` (columns `bⱼ`, B's axes; entries
//!    `R_ij = eᵢ · bⱼ`) and translation `t`, the separation of the boxes along a unit axis `L` is
//!    `|t · L| − Σₖ hAₖ |eₖ · L| − Σₖ hBₖ |bₖ · L|` (the distance between the centres along `L`
//!    minus the two boxes' projected radii; Gottschalk, Lin & Manocha, "OBBTree", SIGGRAPH 1996;
//!    Ericson, *Real-Time Collision Detection*, §4.4.1). The candidate axes are A's three face
//!    normals `eᵢ`, B's three `bⱼ`, and the nine edge–edge cross products `eᵢ × bⱼ`. Every
//!    projection is an entry of `R` or of `|R|`, computed once:
//!    * along `eᵢ`: `|tᵢ| − hAᵢ − Σⱼ hBⱼ |R_ij|`;
//!    * along `bⱼ`: `|t · bⱼ| − Σᵢ hAᵢ |R_ij| − hBⱼ`;
//!    * along `L = eᵢ × bⱼ` (with `(i, i₁, i₂)` and `(j, j₁, j₂)` cyclic), whose components are
//!      `L_i = 0`, `L_i₁ = −R_i₂j`, `L_i₂ = R_i₁j` and whose length is `√(R_i₁j² + R_i₂j²)`, the
//!      sine of the angle between the edges: `t · L = t_i₂ R_i₁j − t_i₁ R_i₂j`, A's radius
//!      `hA_i₁ |R_i₂j| + hA_i₂ |R_i₁j|` and B's `hB_j₁ |R_ij₂| + hB_j₂ |R_ij₁|` (since
//!      `bⱼ × bⱼ₁ = bⱼ₂`); one division by the length normalises the separation. Pairs of
//!      parallel edges, whose cross product is nearly zero, are skipped: the face axes cover them.
//!
//!    Boxes are convex polyhedra, so the largest separation over these axes is the exact signed
//!    distance when they overlap. If any exceeds `margin`, there is no contact.
//! 2. **Biased choice.** A's best face axis is kept unless B's best face axis beats it by the
//!    bias tolerance (1e-4 of the boxes' size, [`kollide_math::geom::biased_greater`]); the best
//!    edge axis must beat the winner by the same amount. When two axes are nearly tied, as for a
//!    box resting on an equal box, the same face keeps winning from frame to frame, and A's face
//!    over B's, so reference faces do not flip. The reported depth may then be deeper than the
//!    exact one by at most the tolerance.
//! 3. **Face contact.** The reference face is the winner's face towards the other box; the
//!    incident face is the other box's face most anti-parallel to the reference normal. The
//!    incident quad is clipped against the reference face's four side planes, all axis-aligned in
//!    the reference box's frame ([`super::cuboid_face_clip`], the box case of
//!    [`super::clip_reference_face`]), points above the margin are dropped, and up to eight
//!    points are reduced to four ([`kollide_manifold::reduce_to_four`]). The contacts move to
//!    the world once, at the end, with the reference box's rotation matrix.
//! 4. **Edge contact.** For an edge axis `L` (oriented from A to B) the edges are those of A's
//!    support vertex in `+L` along `eᵢ` and of B's support vertex in `−L` along `bⱼ`; the one
//!    contact is at their closest points.
//!
//! If clipping leaves nothing (rounding, with every incident point just outside a side plane),
//! the manifold falls back to the exact GJK/EPA contact: it is never empty for boxes that touch.
//!
//! **Tested against the general routine.** The tests compare this routine with the previous one
//! (`cuboid_cuboid_oracle.rs`: the SAT written with vectors, faces through the general
//! [`super::clip_reference_face`]) on 60,000 random and resting box pairs in `f64` and `f32`:
//! the same contacts, ids and order, values within `1e-12` (`1e-4` in `f32`). The points handed
//! to the reduction to four are the general clipper's bit for bit, so where the reduction meets
//! equal areas (points on parallel box edges, common) it chooses alike.
//!
//! **Feature ids.** Faces `Face(2·axis + side)` and vertices `Vertex(i)` use the [`Cuboid`]
//! numbering; edges use the numbering of
//! [`ConvexPolyhedron::from_cuboid`](kollide_shapes::ConvexPolyhedron::from_cuboid) (see
//! [`cuboid_edge_id`]), so a box and its polyhedron twin name their features alike.

use kollide_manifold::{Contact, ContactId, Manifold, reduce_to_four};
use kollide_math::{Iso3, Mat3, Point3, Pose, Scalar, Vec3, geom};
use kollide_shapes::{Cuboid, FeatureId};

use super::assemble3::{UNKNOWN_ID, bias_tolerance, depth_slack, ensure_depth, exact_contact};
use super::cuboid_face_clip::{FacePoints, MAX_FACE_POINTS, cuboid_face_contact};
use super::segment_closest::segments_closest;

/// `EDGE_IDS[lo][axis]`: see [`cuboid_edge_id`]; 12 where bit `axis` of `lo` is set.
const EDGE_IDS: [[u32; 3]; 8] = edge_ids_table();

const fn edge_ids_table() -> [[u32; 3]; 8] {
    let mut table = [[12u32; 3]; 8];
    let mut index = 0;
    let mut a = 0;
    while a < 8 {
        let mut i = 0;
        while i < 3 {
            if a & (1 << i) == 0 {
                table[a][i] = index;
                index += 1;
            }
            i += 1;
        }
        a += 1;
    }
    table
}

/// The index of the box edge from vertex `lo` (whose bit `axis` is clear) to vertex
/// `lo | 1 << axis`, in the numbering of
/// [`ConvexPolyhedron::from_cuboid`](kollide_shapes::ConvexPolyhedron::from_cuboid): the twelve
/// edges sorted by their vertex pair. Returns 12 (no edge) for an invalid pair.
///
/// ```
/// use kollide_narrowphase::manifold::cuboid_edge_id;
/// assert_eq!(cuboid_edge_id(0, 0), 0); // (0, 1)
/// assert_eq!(cuboid_edge_id(6, 0), 11); // (6, 7)
/// ```
#[inline]
pub fn cuboid_edge_id(lo: u32, axis: u32) -> u32 {
    EDGE_IDS.get(lo as usize).and_then(|row| row.get(axis as usize)).copied().unwrap_or(12)
}

/// [`cuboid_edge_id`] for tables built at compile time: `lo < 8` and `axis < 3` (a bad pair
/// fails the build).
pub(crate) const fn cuboid_edge_id_const(lo: u32, axis: u32) -> u32 {
    EDGE_IDS[lo as usize][axis as usize]
}

/// The winning axis of the SAT.
#[derive(Clone, Copy, Debug)]
enum Axis<N: Scalar> {
    /// Face of A on `axis`; the normal from A to B is `sign · e_axis`.
    FaceA { axis: usize, sign: N },
    /// Face of B on `axis`; the normal from A to B is `sign · b_axis`.
    FaceB { axis: usize, sign: N },
    /// Edge of A along `i` and of B along `j`; the normal from A to B is `sign · eᵢ × bⱼ / len`.
    Edge { i: usize, j: usize, sign: N, len: N },
}

/// `+1` for `x ≥ 0`, `−1` otherwise.
#[inline]
fn sign_of<N: Scalar>(x: N) -> N {
    if x >= N::zero() { N::one() } else { -N::one() }
}

/// The manifold of two boxes placed at `pos_a` and `pos_b`, with contacts up to `margin` apart,
/// in world coordinates. See the module docs.
///
/// ```
/// use kollide_math::{Iso3, Vec3};
/// use kollide_shapes::Cuboid;
/// use kollide_narrowphase::manifold::contact_cuboids;
/// let ground = Cuboid::new(Vec3::new(5.0, 0.5, 5.0)).unwrap();
/// let cube = Cuboid::new(Vec3::new(0.5, 0.5, 0.5)).unwrap();
/// let m = contact_cuboids::<f64, ()>(&Iso3::translation(0.0, -0.5, 0.0), &ground,
///                                    &Iso3::translation(0.0, 0.49, 0.0), &cube, 0.0);
/// assert_eq!(m.len(), 4); // a cube resting on the ground touches at its four bottom corners
/// ```
pub fn contact_cuboids<N: Scalar, U: Copy + Default>(
    pos_a: &Iso3<N>,
    a: &Cuboid<N, 3>,
    pos_b: &Iso3<N>,
    b: &Cuboid<N, 3>,
    margin: N,
) -> Manifold<N, 3, U> {
    let pos_ab = pos_a.inv_compose(pos_b);
    let r: Mat3<N> = pos_ab.rotation.to_rotation_matrix().into_inner();
    let t = pos_ab.translation.vector;
    let (ha, hb) = (a.half_extents(), b.half_extents());
    let abs_r = r.abs();

    // A's faces.
    let mut best_a = (-N::MAX, 0usize);
    for i in 0..3 {
        let rb = hb.x * abs_r[(i, 0)] + hb.y * abs_r[(i, 1)] + hb.z * abs_r[(i, 2)];
        let sep = t[i].abs() - ha[i] - rb;
        if sep > best_a.0 {
            best_a = (sep, i);
        }
    }
    if best_a.0 > margin {
        return Manifold::new();
    }
    // B's faces.
    let mut tb = [N::zero(); 3];
    let mut best_b = (-N::MAX, 0usize);
    for j in 0..3 {
        let ra = ha.x * abs_r[(0, j)] + ha.y * abs_r[(1, j)] + ha.z * abs_r[(2, j)];
        tb[j] = t.x * r[(0, j)] + t.y * r[(1, j)] + t.z * r[(2, j)];
        let sep = tb[j].abs() - ra - hb[j];
        if sep > best_b.0 {
            best_b = (sep, j);
        }
    }
    if best_b.0 > margin {
        return Manifold::new();
    }
    // Edge pairs, from the entries of R (see the module docs). All nine separations first, then
    // the largest: no branch in the arithmetic.
    let parallel = N::EPSILON.sqrt() * N::lit(10.0);
    let mut seps = [-N::MAX; 9];
    let mut signs = [N::one(); 9];
    let mut lens = [N::one(); 9];
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let (r1, r2) = (r[(i1, j)], r[(i2, j)]);
            let len = (r1 * r1 + r2 * r2).sqrt();
            let ra = ha[i1] * abs_r[(i2, j)] + ha[i2] * abs_r[(i1, j)];
            let rb = hb[j1] * abs_r[(i, j2)] + hb[j2] * abs_r[(i, j1)];
            let d = t[i2] * r1 - t[i1] * r2;
            let sep = (d.abs() - ra - rb) / len;
            // Parallel edges (and a zero length) are skipped.
            seps[3 * i + j] = if len > parallel { sep } else { -N::MAX };
            signs[3 * i + j] = sign_of(d);
            lens[3 * i + j] = len;
        }
    }
    let mut best = 0;
    for k in 1..9 {
        if seps[k] > seps[best] {
            best = k;
        }
    }
    if seps[best] > margin {
        return Manifold::new();
    }
    let best_e = (seps[best], best / 3, best % 3, signs[best], lens[best]);

    let tol = bias_tolerance(ha.norm(), hb.norm());
    // The exact separation: the largest over all axes.
    let exact = best_e.0.max_of(best_a.0).max_of(best_b.0);
    let one = N::one();
    let mut axis = Axis::FaceA { axis: best_a.1, sign: sign_of(t[best_a.1]) };
    let mut sep = best_a.0;
    if geom::biased_greater(best_b.0, sep, one, tol) {
        let j = best_b.1;
        axis = Axis::FaceB { axis: j, sign: sign_of(tb[j]) };
        sep = best_b.0;
    }
    if geom::biased_greater(best_e.0, sep, one, tol) {
        let (_, i, j, sign, len) = best_e;
        axis = Axis::Edge { i, j, sign, len };
    }

    let m = match axis {
        Axis::FaceA { axis, sign } => {
            face_manifold(a, axis, sign, b, &pos_ab, pos_a, margin, tol, false)
        }
        Axis::FaceB { axis, sign } => {
            // Built in B's frame with B as the reference (normal −sign·e_axis there), then
            // flipped.
            let pos_ba = pos_ab.inverse();
            face_manifold(b, axis, -sign, a, &pos_ba, pos_b, margin, tol, true)
        }
        Axis::Edge { i, j, sign, len } => {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            let mut normal = Vec3::zeros();
            normal[i1] = -r[(i2, j)] / len * sign;
            normal[i2] = r[(i1, j)] / len * sign;
            edge_contact(a, b, &r, &t, i, j, &normal, pos_a, margin)
        }
    };
    // As deep as the SAT says (see `ensure_depth`); the check inline, the repair out of line.
    let slack = depth_slack(tol);
    match m.min_separation() {
        Some(s) if s <= exact + slack => m,
        Some(_) => ensure_depth(m, exact, slack, pos_a, a, pos_b, b, margin),
        None => exact_contact(pos_a, a, pos_b, b, margin, UNKNOWN_ID),
    }
}

/// The face manifold with the face of `rf` on `axis` (outward normal `sign · e_axis`) as the
/// reference and `inc` placed in `rf`'s frame by `pos_ri`, in world coordinates (`pos_r`
/// places `rf`), from `rf` to `inc`, or from `inc` to `rf` with `flip` (normal negated, points
/// and ids swapped, as [`Manifold::flipped`] does). Empty when clipping leaves nothing.
fn face_manifold<N: Scalar, U: Copy + Default>(
    rf: &Cuboid<N, 3>,
    axis: usize,
    sign: N,
    inc: &Cuboid<N, 3>,
    pos_ri: &Iso3<N>,
    pos_r: &Iso3<N>,
    margin: N,
    slack: N,
    flip: bool,
) -> Manifold<N, 3, U> {
    let mut face = FacePoints::new();
    let count = cuboid_face_contact(rf, axis, sign, inc, pos_ri, margin, slack, &mut face);
    // Up to four points are all kept, in order (what the reduction would choose); more are
    // reduced to four.
    let mut idx = [0, 1, 2, 3];
    let k = if count <= 4 {
        count
    } else {
        let cands: [Contact<N, 3, U>; MAX_FACE_POINTS] =
            core::array::from_fn(|i| face.contact(i, axis, sign));
        let mut n = Vec3::zeros();
        n[axis] = sign;
        reduce_to_four(&cands[..count], &n, &mut idx)
    };
    let world: Mat3<N> = pos_r.rotation.to_rotation_matrix().into_inner();
    let origin = pos_r.translation.vector;
    let place = |p: &Point3<N>| Point3::from(world * p.coords + origin);
    let normal = world.column(axis) * sign;
    let mut m = Manifold::with_normal(if flip { -normal } else { normal });
    for &i in &idx[..k] {
        let c = &face.contact::<U>(i, axis, sign);
        let (on_ref, on_inc) = (place(&c.point_a), place(&c.point_b));
        m.push(if flip {
            Contact::new(on_inc, on_ref, c.separation, c.id.flipped())
        } else {
            Contact::new(on_ref, on_inc, c.separation, c.id)
        });
    }
    m
}

/// The edge contact of A's edge along `i` and B's along `j`, B placed in A's frame by `r` and
/// `t`, in world coordinates (`pos_a` places A). Empty when the edges are farther apart than
/// `margin`.
fn edge_contact<N: Scalar, U: Copy + Default>(
    a: &Cuboid<N, 3>,
    b: &Cuboid<N, 3>,
    r: &Mat3<N>,
    t: &Vec3<N>,
    i: usize,
    j: usize,
    normal: &Vec3<N>,
    pos_a: &Iso3<N>,
    margin: N,
) -> Manifold<N, 3, U> {
    let va = a.support_vertex_index(normal);
    let vb = b.support_vertex_index(&(r.tr_mul(&-normal)));
    let (lo_a, lo_b) = (va & !(1 << i), vb & !(1 << j));
    let (p1, p2) = (a.vertex(lo_a), a.vertex(lo_a | (1 << i)));
    let place = |p: Point3<N>| Point3::from(r * p.coords + t);
    let (q1, q2) = (place(b.vertex(lo_b)), place(b.vertex(lo_b | (1 << j))));
    let (_, _, pa, pb) = segments_closest(&p1, &p2, &q1, &q2);
    let sep = (pb - pa).dot(normal);
    if sep > margin {
        return Manifold::new();
    }
    let id = ContactId::new(
        FeatureId::Edge(cuboid_edge_id(lo_a, i as u32)),
        FeatureId::Edge(cuboid_edge_id(lo_b, j as u32)),
    );
    // To the world as `to_world` does it.
    let mut m = Manifold::with_normal(pos_a.rotation * normal);
    m.push(Contact::new(pos_a * pa, pos_a * pb, sep, id));
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use kollide_shapes::ConvexPolyhedron;

    use super::super::cuboid_cuboid_oracle::contact_cuboids_reference;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Checks the specialised routine against the reference one on one pair: the same number of
    /// contacts in the same order, the same ids, and normals, separations and points within
    /// `1e-12`.
    /// Returns the number of contacts.
    fn agree(
        pa: &Iso3<f64>,
        a: &Cuboid<f64, 3>,
        pb: &Iso3<f64>,
        b: &Cuboid<f64, 3>,
        margin: f64,
    ) -> usize {
        agree_within(pa, a, pb, b, margin, 1e-12)
    }

    /// [`agree`] in any precision, with values within `tol`.
    fn agree_within<N: Scalar>(
        pa: &Iso3<N>,
        a: &Cuboid<N, 3>,
        pb: &Iso3<N>,
        b: &Cuboid<N, 3>,
        margin: N,
        tol: N,
    ) -> usize {
        let new = contact_cuboids::<N, ()>(pa, a, pb, b, margin);
        let old = contact_cuboids_reference::<N, ()>(pa, a, pb, b, margin);
        let ctx = || format!("{pa:?} {a:?} {pb:?} {b:?}\nnew {new:?}\nold {old:?}");
        assert_eq!(new.len(), old.len(), "{}", ctx());
        if new.is_empty() {
            return 0;
        }
        assert!((new.normal - old.normal).norm() < tol, "{}", ctx());
        // The same contacts in the same order: the points reaching the reduction to four are the
        // reference's bit for bit, so are its choices among equal areas.
        for (x, y) in new.contacts().iter().zip(old.contacts()) {
            assert_eq!(x.id, y.id, "{}", ctx());
            assert!((x.separation - y.separation).abs() < tol, "{}", ctx());
            assert!((x.point_a - y.point_a).norm() < tol, "{}", ctx());
            assert!((x.point_b - y.point_b).norm() < tol, "{}", ctx());
        }
        new.len()
    }

    fn random_box(r: &mut ChaCha8Rng) -> Cuboid<f64, 3> {
        let h = Vec3::new(
            r.random_range(0.05..2.0),
            r.random_range(0.05..2.0),
            r.random_range(0.05..2.0),
        );
        Cuboid::new(h).unwrap()
    }

    use crate::manifold::random_unit3 as random_unit;

    /// Random boxes in random poses, from separated to deeply overlapping.
    #[test]
    fn agrees_with_the_reference_on_random_pairs() {
        let mut r = ChaCha8Rng::seed_from_u64(0xc0b0);
        let mut counts = [0usize; 5];
        for _ in 0..20_000 {
            let (pa, a, pb, b, margin) = random_pair(&mut r);
            counts[agree(&pa, &a, &pb, &b, margin)] += 1;
        }
        // Every kind of manifold is covered.
        assert!(counts.iter().all(|&c| c > 200), "{counts:?}");
    }

    /// The same in `f32`, as the benchmarks and most users run it (values within 1e-4).
    #[test]
    fn agrees_with_the_reference_in_f32() {
        let mut r = ChaCha8Rng::seed_from_u64(0xf32);
        let mut counts = [0usize; 5];
        for _ in 0..20_000 {
            let f32_box = |c: Cuboid<f64, 3>| Cuboid::new(c.half_extents().cast::<f32>()).unwrap();
            let (a, b) = (f32_box(random_box(&mut r)), f32_box(random_box(&mut r)));
            let c = Vec3::new(r.random_range(-5.0..5.0), r.random_range(-5.0..5.0), 0.0);
            let pa = Iso3::new(c, random_unit(&mut r) * r.random_range(0.0..3.1));
            let reach = a.half_extents().norm() + b.half_extents().norm();
            let offset = random_unit(&mut r) * r.random_range(0.0..f64::from(reach));
            let pb = Iso3::new(c + offset, random_unit(&mut r) * r.random_range(0.0..3.1));
            let (pa, pb) = (pa.cast::<f32>(), pb.cast::<f32>());
            counts[agree_within(&pa, &a, &pb, &b, r.random_range(0.0..0.05), 1e-4)] += 1;
        }
        assert!(counts.iter().all(|&c| c > 200), "{counts:?}");
    }

    /// Resting and nearly resting boxes: axis-aligned stacks, small tilts and twists, equal
    /// boxes (ties between the face axes, where the bias decides).
    #[test]
    fn agrees_with_the_reference_on_resting_pairs() {
        let mut r = ChaCha8Rng::seed_from_u64(0x5eed);
        let mut counts = [0usize; 5];
        for k in 0..20_000 {
            let tilt = |r: &mut ChaCha8Rng| if k % 5 == 0 { 0.0 } else { r.random_range(0.0..0.2) };
            let gap = |r: &mut ChaCha8Rng| r.random_range(-0.05..0.03);
            let (pa, a, pb, b) = resting_pair(&mut r, k, tilt, gap);
            counts[agree(&pa, &a, &pb, &b, 0.02)] += 1;
        }
        assert!(counts.iter().all(|&c| c > 200), "{counts:?}");
    }

    /// Box B resting on a face of box A (equal boxes every third `k`; A at the origin every
    /// second), anywhere on that face, turned by a small random `tilt`, `gap` apart along the
    /// face normal (negative: overlapping).
    fn resting_pair(
        r: &mut ChaCha8Rng,
        k: usize,
        tilt: impl Fn(&mut ChaCha8Rng) -> f64,
        gap: impl Fn(&mut ChaCha8Rng) -> f64,
    ) -> (Iso3<f64>, Cuboid<f64, 3>, Iso3<f64>, Cuboid<f64, 3>) {
        let a = random_box(r);
        let b = if k.is_multiple_of(3) { a } else { random_box(r) };
        let pa = if k.is_multiple_of(2) {
            Iso3::identity()
        } else {
            Iso3::new(Vec3::new(1.0, -2.0, 0.5), random_unit(r) * r.random_range(0.0..3.1))
        };
        let tilt = tilt(r);
        let spin = random_unit(r) * tilt;
        let axis = r.random_range(0..3);
        let side = if r.random_bool(0.5) { 1.0 } else { -1.0 };
        let mut offset = Vec3::new(
            r.random_range(-1.0..1.0) * a.half_extents().x,
            r.random_range(-1.0..1.0) * a.half_extents().y,
            r.random_range(-1.0..1.0) * a.half_extents().z,
        );
        offset[axis] = side * (a.half_extents()[axis] + b.half_extents()[axis] + gap(r));
        (pa, a, pa * Iso3::new(offset, spin), b)
    }

    /// A posed pair and a margin: `(pose a, box a, pose b, box b, margin)`.
    type Pair = (Iso3<f64>, Cuboid<f64, 3>, Iso3<f64>, Cuboid<f64, 3>, f64);

    /// Two random boxes in random poses, from separated to deeply overlapping, and a margin.
    fn random_pair(r: &mut ChaCha8Rng) -> Pair {
        let (a, b) = (random_box(r), random_box(r));
        let c = Vec3::new(r.random_range(-5.0..5.0), r.random_range(-5.0..5.0), 0.0);
        let pa = Iso3::new(c, random_unit(r) * r.random_range(0.0..3.1));
        let reach = a.half_extents().norm() + b.half_extents().norm();
        let offset = random_unit(r) * r.random_range(0.0..reach);
        let pb = Iso3::new(c + offset, random_unit(r) * r.random_range(0.0..3.1));
        (pa, a, pb, b, r.random_range(0.0..0.05))
    }

    /// The pairs of [`dumps_every_answer`], in `f64`.
    fn dump_pairs() -> Vec<Pair> {
        use core::f64::consts::FRAC_PI_2;
        let mut r = ChaCha8Rng::seed_from_u64(0xd0_5eed);
        let mut out = Vec::new();
        let unit = Cuboid::new(Vec3::new(0.5, 0.5, 0.5)).unwrap();
        // The 24 rotations of a cube (as axis–angle, so not exact in floating point) and identity.
        let quarter = |r: &mut ChaCha8Rng| {
            let axis = [Vec3::x(), Vec3::y(), Vec3::z()][r.random_range(0..3)];
            let turns = r.random_range(0..4) as f64;
            let axis2 = [Vec3::x(), Vec3::y(), Vec3::z()][r.random_range(0..3)];
            let turns2 = r.random_range(0..4) as f64;
            Iso3::new(Vec3::zeros(), axis * turns * FRAC_PI_2)
                * Iso3::new(Vec3::zeros(), axis2 * turns2 * FRAC_PI_2)
        };
        for k in 0..50_000usize {
            match k % 5 {
                // Random boxes in random poses.
                0 => {
                    out.push(random_pair(&mut r));
                }
                // Resting: stacked on a face, tilted or not, equal boxes a third of the time.
                1 => {
                    let tilt = |r: &mut ChaCha8Rng| match r.random_range(0..4) {
                        0 => 0.0,
                        1 => r.random_range(0.0..1e-6),
                        _ => r.random_range(0.0..0.2),
                    };
                    let gap = |r: &mut ChaCha8Rng| match r.random_range(0..3) {
                        0 => 0.0,
                        1 => r.random_range(-1e-6..1e-6),
                        _ => r.random_range(-0.05..0.03),
                    };
                    let (pa, a, pb, b) = resting_pair(&mut r, k, tilt, gap);
                    out.push((pa, a, pb, b, 0.02));
                }
                // A pyramid of unit cubes: on four below (quarter faces) or beside a neighbour
                // (exactly touching), in cube rotations, jittered or not, far from the origin.
                2 | 3 => {
                    let base = Vec3::new(
                        r.random_range(-6.0f64..6.0).round(),
                        r.random_range(0.0f64..10.0).round() + 0.5,
                        r.random_range(-6.0f64..6.0).round(),
                    );
                    let offset = if k % 5 == 2 {
                        let (sx, sz) = (
                            if r.random_bool(0.5) { 0.5 } else { -0.5 },
                            if r.random_bool(0.5) { 0.5 } else { -0.5 },
                        );
                        Vec3::new(sx, 1.0, sz)
                    } else {
                        [Vec3::x(), -Vec3::x(), Vec3::z(), -Vec3::z(), Vec3::y()]
                            [r.random_range(0..5)]
                    };
                    let jitter = match r.random_range(0..4) {
                        0 => 0.0,
                        1 => 1e-7,
                        2 => 1e-4,
                        _ => 1e-2,
                    };
                    let j = |r: &mut ChaCha8Rng| random_unit(r) * r.random_range(0.0..1.0) * jitter;
                    let (rot_a, rot_b) = if r.random_bool(0.5) {
                        (Iso3::identity(), Iso3::identity())
                    } else {
                        (quarter(&mut r), quarter(&mut r))
                    };
                    let pa = Iso3::new(base + j(&mut r), j(&mut r)) * rot_a;
                    let pb = Iso3::new(base + offset + j(&mut r), j(&mut r)) * rot_b;
                    let (pa, pb) = if r.random_bool(0.5) { (pa, pb) } else { (pb, pa) };
                    let margin = [0.0, 0.02, 0.04][r.random_range(0..3)];
                    out.push((pa, unit, pb, unit, margin));
                }
                // Near ties: boxes of nearly equal sizes nearly aligned, overlapping a little on
                // two or three axes at once, and edge-on pairs (rotated 45° about an axis).
                _ => {
                    let a = random_box(&mut r);
                    let eps = |r: &mut ChaCha8Rng| r.random_range(-1e-5..1e-5);
                    let b = Cuboid::new(a.half_extents().map(|h| h * (1.0 + eps(&mut r)))).unwrap();
                    let pa = Iso3::new(Vec3::new(0.3, 0.1, -0.2), random_unit(&mut r) * 0.7);
                    let rot = if r.random_bool(0.5) {
                        random_unit(&mut r) * r.random_range(0.0..1e-3)
                    } else {
                        [Vec3::x(), Vec3::y(), Vec3::z()][r.random_range(0..3)]
                            * (core::f64::consts::FRAC_PI_4 + eps(&mut r))
                    };
                    let mut offset = Vec3::zeros();
                    for i in 0..3 {
                        if r.random_bool(0.6) {
                            let s = if r.random_bool(0.5) { 1.0 } else { -1.0 };
                            offset[i] = s
                                * (a.half_extents()[i] + b.half_extents()[i])
                                * r.random_range(0.9..1.01);
                        }
                    }
                    let pb = pa * Iso3::new(offset, rot);
                    out.push((pa, a, pb, b, r.random_range(0.0..0.03)));
                }
            }
        }
        out
    }

    /// Writes every answer of [`contact_cuboids`] on 50,000 pairs, in `f64` and in `f32`, to the
    /// file named by `KOLLIDE_CUBOID_DUMP` (floats in their shortest round-trip form, so two
    /// dumps are equal byte for byte exactly when the answers are bit for bit). Changes to the
    /// routine that must not change its output are checked by diffing the dumps before and after.
    #[test]
    #[ignore = "writes a file; run by hand with KOLLIDE_CUBOID_DUMP set"]
    fn dumps_every_answer() {
        use std::fmt::Write as _;
        let Ok(path) = std::env::var("KOLLIDE_CUBOID_DUMP") else { return };
        let mut text = String::new();
        let mut kinds = [0usize; 6];
        for (k, (pa, a, pb, b, margin)) in dump_pairs().iter().enumerate() {
            let m = contact_cuboids::<f64, ()>(pa, a, pb, b, *margin);
            writeln!(text, "{k} f64 {:?} {:?} {:?}", m.normal, m.frame, m.contacts()).unwrap();
            kinds[m.len()] += 1;
            let f32_box = |c: &Cuboid<f64, 3>| Cuboid::new(c.half_extents().cast::<f32>()).unwrap();
            let (a32, b32) = (f32_box(a), f32_box(b));
            let (pa32, pb32) = (pa.cast::<f32>(), pb.cast::<f32>());
            let m = contact_cuboids::<f32, ()>(&pa32, &a32, &pb32, &b32, *margin as f32);
            writeln!(text, "{k} f32 {:?} {:?} {:?}", m.normal, m.frame, m.contacts()).unwrap();
            kinds[m.len()] += 1;
        }
        writeln!(text, "contacts per manifold {kinds:?}").unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn edge_ids_match_the_polyhedron_twin() {
        let poly = ConvexPolyhedron::from_cuboid(Vec3::new(1.0f64, 2.0, 3.0)).unwrap();
        for (k, e) in poly.edges().iter().enumerate() {
            let [lo, hi] = e.vertices;
            assert_eq!(cuboid_edge_id(lo, (lo ^ hi).trailing_zeros()), k as u32);
        }
    }
}
