//! Two (possibly rounded) boxes: the polygon routine's steps, with the box's symmetry doing the
//! searching.
//!
//! A box is the polygon with vertices `(∓hx, ∓hy)` counter-clockwise from `(−hx, −hy)` and edge
//! normals `(0, −1)`, `(1, 0)`, `(0, 1)`, `(−1, 0)`. [`contact_boxes`] runs exactly the steps of
//! [`super::contact_polygons`] (SAT over both polygons' edge normals, the biased reference face,
//! the incident edge, clipping: see [`super::polygon`]) on that polygon, but reads it from the
//! half extents instead of from vertex and normal arrays:
//!
//! * **Support by sign.** The vertex of a box farthest along `−d` is `(−sign(dx)·hx,
//!   −sign(dy)·hy)`, so the smallest `d · v` over its four vertices is `−(|dx|·hx + |dy|·hy)`:
//!   two products instead of four dot products and three compares. It is the *same* floating-point
//!   number: the four dot products are `±p ± q` with `p = dx·hx` and `q = dy·hy` (negating a factor
//!   negates a product exactly), the smallest exact value is `−|p| − |q|`, and rounding to nearest
//!   is monotonic and symmetric, so the smallest rounded value is `−(|p| + |q|)` rounded.
//! * **Nothing to build.** Vertices, normals and the size used by the bias come from the half
//!   extents: no vertex array, no normalised edge (the normals are exact constants) and one square
//!   root for the size (all four corners are `√(hx² + hy²)` from the centre).
//!
//! Everything else (the order of the SAT loop, ties, the bias, the incident edge, clipping,
//! feature ids) is the polygon routine's own code, so both routines give the same manifolds, bit
//! for bit; the tests below check it on thousands of random pairs.

use kollide_manifold::Manifold;
use kollide_math::{Iso2, Point2, Scalar, UnitVec2, Vec2};

use super::polygon::{
    PolygonView, SatPolygon, better_edge, contact_sat, exact_fallback, max_separation, separation,
};

/// A box with half extents `h` and rounding radius `radius`, seen as a polygon.
#[derive(Clone, Copy, Debug)]
struct BoxView<N: Scalar> {
    h: Vec2<N>,
    radius: N,
}

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

impl<N: Scalar> SatPolygon<N> for BoxView<N> {
    fn len(&self) -> usize {
        4
    }

    #[inline(always)]
    fn v(&self, i: usize) -> Point2<N> {
        // Counter-clockwise from (−hx, −hy): x is +hx for vertices 1 and 2, y is +hy for 2 and 3
        // (and vertex 4 is vertex 0).
        let (hx, hy) = (self.h.x, self.h.y);
        Point2::new(if (i + 1) & 2 != 0 { hx } else { -hx }, if i & 2 != 0 { hy } else { -hy })
    }

    #[inline(always)]
    fn n(&self, i: usize) -> Vec2<N> {
        box_normals::<N>()[i].into_inner()
    }

    fn radius(&self) -> N {
        self.radius
    }

    #[inline(always)]
    fn min_dot(&self, d: &Vec2<N>) -> N {
        -(d.x.abs() * self.h.x + d.y.abs() * self.h.y)
    }

    fn size(&self) -> N {
        (self.h.x * self.h.x + self.h.y * self.h.y).sqrt() + self.radius
    }

    fn symmetric(&self) -> bool {
        true
    }

    /// Against another box, opposite normals share their support value: normal `i + 2` is
    /// normal `i` negated, so is its direction in B's frame (up to the signs of zeros), and B's
    /// `min_dot` reads only magnitudes. So two rotations and two support values serve all four
    /// normals; the separations, and the order they are compared in, are the general loop's.
    #[inline(always)]
    fn max_separation(&self, b: &impl SatPolygon<N>, pos_ab: &Iso2<N>) -> (N, usize) {
        if !b.symmetric() {
            return max_separation(self, b, pos_ab);
        }
        let normals = box_normals::<N>();
        let min = |i: usize| b.min_dot(&pos_ab.inverse_transform_vector(&normals[i]));
        let mins = [min(0), min(1)];
        let mut best = (-N::MAX, 0);
        for (i, n) in normals.iter().enumerate() {
            best = better_edge(best, i, separation(mins[i & 1], n, &self.v(i), pos_ab));
        }
        best
    }
}

/// The manifold of two boxes with half extents `ha` and `hb` (rounded by `ra` and `rb`, zero for
/// sharp boxes) placed at `pos_a` and `pos_b`, with contacts up to `margin` apart, in world
/// coordinates. The same manifold as [`super::contact_polygons`] on the boxes' polygons (same
/// normal, reference face, feature ids and points), found faster.
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
    let a = BoxView { h: ha, radius: ra };
    let b = BoxView { h: hb, radius: rb };
    contact_sat(pos_a, &a, pos_b, &b, margin, || {
        // Rare (clipping kept no point): the polygons, for GJK/EPA.
        let normals = box_normals();
        let (va, vb) = (box_vertices(ha), box_vertices(hb));
        let a = PolygonView { vertices: &va, normals: &normals, radius: ra };
        let b = PolygonView { vertices: &vb, normals: &normals, radius: rb };
        exact_fallback(pos_a, &a, pos_b, &b, margin)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifold::contact_polygons;
    use kollide_math::Vector;
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
    /// multiple of a quarter turn (faces nearly parallel: where the bias and clipping matter),
    /// from apart to deeply overlapping: `contact_boxes` equals `contact_polygons` bit for bit.
    fn compare<N: Scalar>(seed: u64, cast: impl Fn(f64) -> N, bits: impl Fn(N) -> u64 + Copy) {
        let mut r = ChaCha8Rng::seed_from_u64(seed);
        let mut counts = [0usize; 3];
        for _ in 0..20_000 {
            let mut h =
                || Vec2::new(cast(r.random_range(0.05..2.0)), cast(r.random_range(0.05..2.0)));
            let (ha, hb) = (h(), h());
            let rounded = r.random_bool(0.25);
            let mut radius = || if rounded { cast(r.random_range(0.0..0.3)) } else { N::zero() };
            let (ra, rb) = (radius(), radius());
            let pos_a = Iso2::new(
                Vec2::new(cast(r.random_range(-5.0..5.0)), cast(r.random_range(-5.0..5.0))),
                cast(r.random_range(-3.2..3.2)),
            );
            let turn = if r.random_bool(0.2) {
                f64::from(r.random_range(-2..=2)) * std::f64::consts::FRAC_PI_2
                    + r.random_range(-1e-5..1e-5)
            } else {
                r.random_range(-3.2..3.2)
            };
            let d = Vec2::new(cast(r.random_range(-3.0..3.0)), cast(r.random_range(-3.0..3.0)));
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
        }
        // Every kind of answer was exercised.
        assert!(counts.iter().all(|&c| c > 1000), "{counts:?}");
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
}
