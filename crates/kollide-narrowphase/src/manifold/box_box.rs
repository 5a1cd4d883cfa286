//! Two (possibly rounded) boxes in closed form: the polygon routine's steps with the box's
//! symmetry doing the searching.
//!
//! A box is the polygon with vertices `(∓hx, ∓hy)` counter-clockwise from `(−hx, −hy)` and edge
//! normals `(0, −1)`, `(1, 0)`, `(0, 1)`, `(−1, 0)` (the numbering of the feature ids).
//! [`contact_boxes`] takes the steps of [`super::contact_polygons`] (SAT over both boxes' face
//! normals, the biased reference face, the incident edge, clipping; see [`super::polygon`] and
//! the manifold seed) without searching any list, in the manner of Box2D-Lite's box–box routine:
//!
//! 1. **SAT from `|R|`.** With `R = (c, s)` the rotation of B in A's frame, B reaches
//!    `|c|·hx + |s|·hy` along A's x axis and `|s|·hx + |c|·hy` along its y axis (the support by
//!    sign: the smallest of B's four dot products with an axis is minus that). So A's two
//!    opposite faces along an axis cost two additions, and the four face separations of A are
//!    `(−ext ± t) − h` with `t` B's centre in A's frame; likewise for B with A's centre in B's
//!    frame. Four products serve both boxes.
//! 2. **Reference face** with the polygon routine's bias ([`super::polygon`]'s
//!    `b_is_reference`); the boxes' sizes (one square root each) only in the narrow band where
//!    the bias can go either way.
//! 3. **Incident edge** in closed form: with `m` the reference normal in the incident box's
//!    frame, the most anti-parallel normal is `∓x` or `∓y` by the sign of the larger of `|m.x|`,
//!    `|m.y|` (ties to the lower edge index, as the polygon's loop breaks them).
//! 4. **Clip** the incident edge against the reference face's two side planes and keep the
//!    points within the margin: the polygon routine's own clipping ([`super::clip`]).
//!
//! Each separation, the choice of reference face and of incident edge, and the clipping are the
//! polygon routine's arithmetic on the same numbers (constant unit normals make the dot
//! products exact selections of coordinates), so the two routines pick the same faces and ids and
//! give the same manifolds, bit for bit; the tests below check it on 40,000 random, nearly
//! aligned and stacked pairs (no near-tie goes the other way).
//!
//! **Branches, not selects.** Steps 3 and 4 are written out once per reference box, behind one
//! branch on the bias's answer, rather than once on values selected by it: the processor runs
//! ahead on its prediction instead of waiting for the comparison, and this measured faster
//! (about 12 %) than selecting, even though the choice is close to a coin flip on random pairs.
//! A branch-free variant (selects by index, clipping without branches) measured slower still.

use kollide_manifold::Manifold;
use kollide_math::{Iso2, Point2, Pose, Scalar, UnitVec2, Vec2};

use super::polygon::{
    Clipped, IncidentEdge, PolygonView, ReferenceEdge, b_is_reference, better_edge, clip_edges,
    deeper_of, exact_fallback, half_max_abs, to_world,
};

/// The box's four vertices, counter-clockwise from `(−hx, −hy)` (edge `i` joins vertex `i` to
/// `i + 1`).
pub(super) fn box_vertices<N: Scalar>(h: Vec2<N>) -> [Point2<N>; 4] {
    [Point2::new(-h.x, -h.y), Point2::new(h.x, -h.y), Point2::new(h.x, h.y), Point2::new(-h.x, h.y)]
}

/// The box's four edge normals: `(0, −1)`, `(1, −0)`, `(0, 1)`, `(−1, −0)`. They are exactly what
/// normalising the rotated edges gives (including the signs of the zeros), so a box reads the
/// same through [`PolygonView`] and through [`contact_boxes`].
pub(super) fn box_normals<N: Scalar>() -> [UnitVec2<N>; 4] {
    let (one, zero) = (N::one(), N::zero());
    [(zero, -one), (one, -zero), (zero, one), (-one, -zero)]
        .map(|(x, y)| UnitVec2::new_unchecked(Vec2::new(x, y)))
}

/// Vertex `i` (taken modulo 4) of the box with half extents `h`.
#[inline(always)]
fn vertex<N: Scalar>(h: Vec2<N>, i: usize) -> Point2<N> {
    // Counter-clockwise from (−hx, −hy): x is +hx for vertices 1 and 2, y is +hy for 2 and 3.
    Point2::new(if (i + 1) & 2 != 0 { h.x } else { -h.x }, if i & 2 != 0 { h.y } else { -h.y })
}

/// The largest separation of the other box over the four face normals of a box with half extents
/// `h`, with its edge (ties to the lowest index, as the polygon routine's loop): `ext` is how far
/// the other box reaches along this box's x and y axes from its centre, `t` that centre in this
/// box's frame. Each value is the polygon routine's `(min + t · n) − n · v`, with `min = −ext`.
#[inline(always)]
fn face_separation<N: Scalar>(h: Vec2<N>, ext: Vec2<N>, t: &Vec2<N>) -> (N, usize) {
    let seps =
        [(-ext.y - t.y) - h.y, (-ext.x + t.x) - h.x, (-ext.y + t.y) - h.y, (-ext.x - t.x) - h.x];
    // The polygon routine's running best. (A knock-out of pairs, three comparisons instead of
    // four in a chain, measured slower: the chain's branches predict well.)
    let mut best = (-N::MAX, 0);
    for (i, sep) in seps.into_iter().enumerate() {
        best = better_edge(best, i, sep);
    }
    best
}

/// The box's largest distance of a vertex from its centre, plus its radius (for the bias).
fn size<N: Scalar>(h: Vec2<N>, radius: N) -> N {
    (h.x * h.x + h.y * h.y).sqrt() + radius
}

/// The incident edge: the edge of a box whose normal is most anti-parallel to `m` (the reference
/// normal in the box's frame). The four dot products are `−m.y`, `m.x`, `m.y`, `−m.x`; the
/// smaller of each opposite pair is `−|m.x|` (edge 3 when `m.x > 0`, else 1) and `−|m.y|` (edge
/// 2 when `m.y < 0`, else 0), and ties go to the lower index, as in the polygon routine's loop.
#[inline(always)]
fn incident_edge<N: Scalar>(m: &Vec2<N>) -> usize {
    let ex = if m.x > N::zero() { 3 } else { 1 };
    let ey = if m.y < N::zero() { 2 } else { 0 };
    let (dx, dy) = (-m.x.abs(), -m.y.abs());
    if dx < dy || (dx == dy && ex < ey) { ex } else { ey }
}

/// Step 3 with the reference box of half extents `hr` and radius `rr` (its best face `edge`, at
/// separation `sep`) and the incident box `i` (placed by `pos_ri` in the reference box's frame):
/// the incident edge clipped against the reference face, in the reference box's frame.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn face_clip<N: Scalar>(
    hr: Vec2<N>,
    rr: N,
    edge: usize,
    sep: N,
    pos_ri: &Iso2<N>,
    hi: Vec2<N>,
    ri: N,
    margin: N,
) -> Clipped<N> {
    let n = box_normals::<N>()[edge].into_inner();
    let ie = incident_edge(&pos_ri.inverse_transform_vector(&n));
    let next = (edge + 1) & 3;
    let reference =
        ReferenceEdge { edge, next, v1: vertex(hr, edge), v2: vertex(hr, next), n, radius: rr };
    let (i1, i2) = (ie, (ie + 1) & 3);
    let incident = IncidentEdge {
        vertices: [i1, i2],
        ends: [pos_ri.transform_point(&vertex(hi, i1)), pos_ri.transform_point(&vertex(hi, i2))],
        radius: ri,
    };
    clip_edges(&reference, &incident, margin, sep > N::zero())
}

/// The manifold of two boxes with half extents `ha` and `hb` (rounded by `ra` and `rb`, zero for
/// sharp boxes) placed at `pos_a` and `pos_b`, with contacts up to `margin` apart, in world
/// coordinates. The same manifold as [`super::contact_polygons`] on the boxes' polygons (same
/// normal, reference face, feature ids and points), found in closed form.
///
/// ```
/// use kollide_math::{Iso2, Vec2};
/// use kollide_narrowphase::manifold::contact_boxes;
/// let (ground, crate_) = (Vec2::new(5.0, 0.5), Vec2::new(0.5, 0.5));
/// let m = contact_boxes::<f64, ()>(&Iso2::translation(0.0, -0.5), ground, 0.0,
///                                  &Iso2::translation(0.0, 0.49), crate_, 0.0, 0.0);
/// assert_eq!(m.len(), 2);
/// assert!((m.contacts()[0].separation + 0.01).abs() < 1e-12);
/// ```
pub fn contact_boxes<N: Scalar, U: Copy + Default>(
    pos_a: &Iso2<N>,
    ha: Vec2<N>,
    ra: N,
    pos_b: &Iso2<N>,
    hb: Vec2<N>,
    rb: N,
    margin: N,
) -> Manifold<N, 2, U> {
    let pos_ab = pos_a.inv_compose(pos_b);
    let pos_ba = pos_ab.inverse();
    let radius = ra + rb;
    // |R|: each box's reach along the other's axes.
    let (c, s) = (pos_ab.rotation.re.abs(), pos_ab.rotation.im.abs());
    let b_on_a = Vec2::new(c * hb.x + s * hb.y, s * hb.x + c * hb.y);
    let a_on_b = Vec2::new(c * ha.x + s * ha.y, s * ha.x + c * ha.y);
    let (sep_a, edge_a) = face_separation(ha, b_on_a, &pos_ab.translation.vector);
    if sep_a > margin + radius {
        return Manifold::new();
    }
    let (sep_b, edge_b) = face_separation(hb, a_on_b, &pos_ba.translation.vector);
    if sep_b > margin + radius {
        return Manifold::new();
    }
    let flip = b_is_reference(sep_a, sep_b, || size(ha, ra).max_of(size(hb, rb)));
    // Rare (clipping kept no point): the polygons, for GJK/EPA.
    let fallback = || {
        let normals = box_normals();
        let (va, vb) = (box_vertices(ha), box_vertices(hb));
        let a = PolygonView { vertices: &va, normals: &normals, radius: ra };
        let b = PolygonView { vertices: &vb, normals: &normals, radius: rb };
        exact_fallback(pos_a, &a, pos_b, &b, margin)
    };
    // Each reference box gets its own copy of step 3, so nothing in it waits for the comparison:
    // the processor runs ahead on its prediction.
    let (clipped, pos_r) = if flip {
        (face_clip(hb, rb, edge_b, sep_b, &pos_ba, ha, ra, margin), pos_b)
    } else {
        (face_clip(ha, ra, edge_a, sep_a, &pos_ab, hb, rb, margin), pos_a)
    };
    if clipped.len == 0 {
        return fallback();
    }
    // As for the polygons: a face kept by the bias but blind to the overlap yields to the other.
    let scale = || size(ha, ra).max_of(size(hb, rb)) + pos_ab.translation.vector.norm();
    let floor = half_max_abs(&pos_ab.translation.vector);
    if clipped.shallower_than_sat(sep_a.max_of(sep_b) - radius, floor, scale) {
        return deeper_of(to_world(&clipped, pos_r, flip), || {
            let other = if flip {
                face_clip(ha, ra, edge_a, sep_a, &pos_ab, hb, rb, margin)
            } else {
                face_clip(hb, rb, edge_b, sep_b, &pos_ba, ha, ra, margin)
            };
            match other.len {
                0 => Manifold::new(),
                _ => to_world(&other, if flip { pos_a } else { pos_b }, !flip),
            }
        });
    }
    to_world(&clipped, pos_r, flip)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifold::{contact_polygons, manifold2};
    use kollide_math::Vector;
    use kollide_shapes::{Cuboid, FeatureId, Shape2};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A box's polygon the way a general polygon gets its normals: each edge rotated a quarter
    /// turn and normalised.
    fn normalised_edges<N: Scalar>(v: &[Point2<N>; 4]) -> [UnitVec2<N>; 4] {
        std::array::from_fn(|i| {
            let e = v[(i + 1) % 4] - v[i];
            UnitVec2::new_normalize(Vec2::new(e.y, -e.x))
        })
    }

    fn same_bits<N: Scalar>(
        x: &Manifold<N, 2>,
        y: &Manifold<N, 2>,
        bits: impl Fn(N) -> u64,
    ) -> bool {
        let v = |p: &Vector<N, 2>| [bits(p.x), bits(p.y)];
        x.len() == y.len()
            && v(&x.normal) == v(&y.normal)
            && x.contacts().iter().zip(y.contacts()).all(|(c, d)| {
                v(&c.point_a.coords) == v(&d.point_a.coords)
                    && v(&c.point_b.coords) == v(&d.point_b.coords)
                    && bits(c.separation) == bits(d.separation)
                    && c.id == d.id
            })
    }

    /// Random boxes (sharp and rounded) at random poses, a fifth of them turned by nearly a
    /// multiple of a quarter turn (faces nearly parallel: where the bias and clipping matter) and
    /// a tenth of them equal boxes stacked exactly (the near-ties the bias is for), from apart to
    /// deeply overlapping: `contact_boxes` equals `contact_polygons` bit for bit (same normal,
    /// reference face, feature ids, points and separations).
    fn compare<N: Scalar>(seed: u64, cast: impl Fn(f64) -> N, bits: impl Fn(N) -> u64 + Copy) {
        let mut r = ChaCha8Rng::seed_from_u64(seed);
        let mut counts = [0usize; 3];
        let mut flipped = 0;
        for _ in 0..20_000 {
            let mut h =
                || Vec2::new(cast(r.random_range(0.05..2.0)), cast(r.random_range(0.05..2.0)));
            let (ha, mut hb) = (h(), h());
            let rounded = r.random_bool(0.25);
            let mut radius = || if rounded { cast(r.random_range(0.0..0.3)) } else { N::zero() };
            let (ra, rb) = (radius(), radius());
            let pos_a = Iso2::new(
                Vec2::new(cast(r.random_range(-5.0..5.0)), cast(r.random_range(-5.0..5.0))),
                cast(r.random_range(-3.2..3.2)),
            );
            let stacked = r.random_bool(0.1);
            let turn = if stacked {
                0.0
            } else if r.random_bool(0.2) {
                f64::from(r.random_range(-2..=2)) * std::f64::consts::FRAC_PI_2
                    + r.random_range(-1e-5..1e-5)
            } else {
                r.random_range(-3.2..3.2)
            };
            let mut d = Vec2::new(cast(r.random_range(-3.0..3.0)), cast(r.random_range(-3.0..3.0)));
            if stacked {
                // B on top of an equal A, in A's frame, by up to 1 % of the height either way.
                hb = ha;
                let gap = cast(r.random_range(-0.01..0.01)) * ha.y;
                let local = Vec2::new(cast(r.random_range(-0.5..0.5)) * ha.x, ha.y + hb.y + gap);
                d = pos_a.rotation * local;
            }
            let pos_b =
                Iso2::new(pos_a.translation.vector + d, cast(turn) + pos_a.rotation.angle());
            let margin = cast(0.02);

            let fast = contact_boxes::<N, ()>(&pos_a, ha, ra, &pos_b, hb, rb, margin);
            let (va, vb) = (box_vertices(ha), box_vertices(hb));
            let (na, nb) = (normalised_edges(&va), normalised_edges(&vb));
            let a = PolygonView { vertices: &va, normals: &na, radius: ra };
            let b = PolygonView { vertices: &vb, normals: &nb, radius: rb };
            let general = contact_polygons::<N, ()>(&pos_a, &a, &pos_b, &b, margin);
            assert!(same_bits(&fast, &general, bits), "{fast:?}\n{general:?}");
            counts[fast.len()] += 1;
            // B's face was the reference: its edge is the first feature of B's side.
            flipped += usize::from(
                fast.contacts().first().is_some_and(|c| matches!(c.id.b, FeatureId::Edge(_))),
            );
        }
        // Every kind of answer was exercised, with both boxes as the reference.
        assert!(counts.iter().all(|&c| c > 1000), "{counts:?}");
        assert!(flipped > 1000, "{flipped}");
    }

    #[test]
    fn same_manifolds_as_the_polygon_routine_f64() {
        compare::<f64>(7, |x| x, f64::to_bits);
    }

    #[test]
    fn same_manifolds_as_the_polygon_routine_f32() {
        compare::<f32>(8, |x| x as f32, |x| u64::from(x.to_bits()));
    }

    #[test]
    fn the_constant_normals_are_the_normalised_edges() {
        let h = Vec2::new(0.3f64, 1.7);
        let exact = box_normals::<f64>();
        for (n, e) in exact.iter().zip(normalised_edges(&box_vertices(h))) {
            assert_eq!(n.x.to_bits(), e.x.to_bits());
            assert_eq!(n.y.to_bits(), e.y.to_bits());
        }
    }

    /// The dispatcher sends two boxes here: its answer is this routine's, bit for bit.
    #[test]
    fn the_dispatcher_picks_it() {
        let (ha, hb) = (Vec2::new(1.0f32, 0.5), Vec2::new(0.4, 0.3));
        let a: Shape2<f32> = Cuboid::new(ha).unwrap().into();
        let b: Shape2<f32> = Cuboid::new(hb).unwrap().into();
        let (pos_a, pos_b) =
            (Iso2::new(Vec2::new(0.1, 0.2), 0.3), Iso2::new(Vec2::new(0.5, 0.9), 1.1));
        let direct = contact_boxes::<f32, ()>(&pos_a, ha, 0.0, &pos_b, hb, 0.0, 0.02);
        let dispatched = manifold2::<f32, ()>(&pos_a, &a, &pos_b, &b, 0.02);
        assert!(!direct.is_empty());
        assert!(same_bits(&direct, &dispatched, |x| u64::from(x.to_bits())));
    }

    /// Contacts up to the speculative margin apart are kept (with their positive separation), and
    /// none beyond it; the reference face and ids follow the conventions (normal from A to B).
    #[test]
    fn the_speculative_margin() {
        let (ground, crate_) = (Vec2::new(5.0f64, 0.5), Vec2::new(0.5, 0.5));
        let at = |gap: f64| {
            contact_boxes::<f64, ()>(
                &Iso2::translation(0.0, -0.5),
                ground,
                0.0,
                &Iso2::translation(0.0, 0.5 + gap),
                crate_,
                0.0,
                0.02,
            )
        };
        let m = at(0.01);
        assert_eq!(m.len(), 2);
        assert_eq!(m.normal, Vec2::y());
        for c in m.contacts() {
            assert!((c.separation - 0.01).abs() < 1e-12);
            assert!((c.point_b - c.point_a - m.normal * c.separation).norm() < 1e-12);
            // Ground's top face (edge 2) is the reference; the crate's bottom corners are
            // vertices 0 and 1.
            assert_eq!(c.id.a, FeatureId::Edge(2));
            assert!(matches!(c.id.b, FeatureId::Vertex(0 | 1)));
        }
        assert!(at(0.03).is_empty());
        // A crate turned 45° as A, its corner 0.1 into the ground as B: the ground's top face is
        // the reference, flipped to go from A to B (normal down, B's edge and A's corner).
        let m = contact_boxes::<f64, ()>(
            &Iso2::new(Vec2::new(0.0, 0.5f64.sqrt() - 0.1), std::f64::consts::FRAC_PI_4),
            crate_,
            0.0,
            &Iso2::translation(0.0, -0.5),
            ground,
            0.0,
            0.02,
        );
        assert_eq!(m.len(), 1);
        assert!((m.normal + Vec2::y()).norm() < 1e-12);
        let c = m.contacts()[0];
        assert!((c.separation + 0.1).abs() < 1e-12);
        assert_eq!(c.id.b, FeatureId::Edge(2));
        assert!(matches!(c.id.a, FeatureId::Vertex(_)));
    }
}
