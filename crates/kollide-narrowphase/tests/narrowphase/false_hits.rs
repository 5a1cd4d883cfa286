//! Pairs the hostile suite reported as false hits, each with its signed distance computed
//! another way (exact rational arithmetic, or a 50-digit support-gap search).
//!
//! * Two centimetre polygons in `f32`, 2.5e-7 apart: the touching tolerance had a floor at unit
//!   size (3.5e-7 in `f32`), so GJK stopped as "intersecting" and every query reported contact.
//! * A polyhedron and a cone in `f64` whose faces meet 2.3e-8 deep: kollide was right, the
//!   oracle's cone support cancelled catastrophically (see the hostile crate's tests).
//! * A 15 mm capsule 3e-3 from a 60 m polygon in `f32`: GJK's 2D triangle reduction put the
//!   origin inside a sliver triangle it was outside of.

use kollide_math::nalgebra as na;
use kollide_math::{Iso2, Iso3, Point2, Point3, Scalar, Vec2};
use kollide_narrowphase::{
    QuerySettings, closest_points, contact, directional_penetration, distance, intersection_test,
};
use kollide_shapes::{Capsule, Cone, ConvexPolygon, ConvexPolyhedron, SupportMap, Triangle};

/// A 2D pose as the hostile suite builds it: the rotation normalised in `N`.
fn iso2<N: Scalar>(t: [f64; 2], rot: [f64; 2]) -> Iso2<N> {
    let r = na::UnitComplex::new_normalize(na::Complex::new(N::lit(rot[0]), N::lit(rot[1])));
    Iso2::from_parts(na::Translation2::new(N::lit(t[0]), N::lit(t[1])), r)
}

/// A 3D pose as the hostile suite builds it: the quaternion normalised in `N`, then scaled by
/// `1 + ulp_k·ε`.
fn iso3<N: Scalar>(t: [f64; 3], rot: [f64; 4], ulp_k: i32) -> Iso3<N> {
    let [w, i, j, k] = rot.map(N::lit);
    let q = na::UnitQuaternion::new_normalize(na::Quaternion::new(w, i, j, k));
    let s = N::one() + N::lit(f64::from(ulp_k)) * N::EPSILON;
    Iso3::from_parts(
        na::Translation3::new(N::lit(t[0]), N::lit(t[1]), N::lit(t[2])),
        na::UnitQuaternion::new_unchecked(q.quaternion() * s),
    )
}

/// Hostile case 0xc47cf673edd4807c (2D, `f32`, near-touching). The distance of the shapes as
/// built (vertices, translations and normalised rotations in `f32`, transformed exactly in
/// rational arithmetic, then SAT over both polygons' edge normals to prove them apart and the
/// minimum vertex–edge distance) is 2.541797133e-7, about 2e-5 of their size.
#[test]
fn centimetre_polygons_apart_by_2p5e_7_do_not_touch() {
    type N = f32;
    let p = |x: f64, y: f64| Point2::new(x as N, y as N);
    let a = Triangle::new(
        p(-0.0022820718586444855, -0.0028044383507221937),
        p(-0.006848124787211418, -0.009170378558337688),
        p(0.008411211892962456, 0.0040265219286084175),
    )
    .unwrap();
    let b = ConvexPolygon::from_hull(&[
        p(-0.0050687724724411964, -0.005251798313111067),
        p(0.00526000140234828, 0.009411480277776718),
        p(-0.009824804961681366, 0.006677707191556692),
        p(0.005800371523946524, -0.008394541218876839),
        p(0.009813650511205196, 0.0024275826290249825),
        p(-0.00913772638887167, 0.006891894154250622),
        p(0.005657026078552008, 0.000764317053835839),
    ])
    .unwrap();
    let pa = iso2::<N>(
        [-0.0041783589084013525, -0.005250270758147179],
        [-0.07755979722033396, -0.9969877019578229],
    );
    let pb = iso2::<N>(
        [0.006962824116711051, -0.019997315727223793],
        [-0.6492752237473671, 0.7605535377787722],
    );
    let s = QuerySettings::default();
    // The exact distance, within the issue's `f32` accuracy at their size
    // (`1e-3 · max(|d|, 0.01 · size)`, size about 0.012).
    let apart = Apart { exact: 2.541797133e-7, tol: 1e-3 * 1.2e-4 };
    apart.check(&pa, &a, &pb, &b, &s);
    apart.check(&pb, &b, &pa, &a, &s);
    let dir = Vec2::new(-0.618_196_55_f32, 0.786_023_56);
    let push = directional_penetration(&pa, &a, &pb, &b, &dir, &s);
    assert!(push.is_none(), "a push out of a pair that is apart: {push:?}");
}

/// Two 2D shapes `exact` apart, to be reported so within `tol`.
struct Apart {
    exact: f64,
    tol: f64,
}

impl Apart {
    /// Every query of A and B says they are `exact` apart, within `tol`.
    fn check<A, B>(&self, pa: &Iso2<f32>, a: &A, pb: &Iso2<f32>, b: &B, s: &QuerySettings<f32>)
    where
        A: SupportMap<f32, 2>,
        B: SupportMap<f32, 2>,
    {
        let Apart { exact, tol } = *self;
        assert!(!intersection_test(pa, a, pb, b, None, s).intersecting, "reported touching");
        let c = contact(pa, a, pb, b, 0.0, s);
        assert!(c.is_none(), "a contact at margin 0: {c:?}");
        let (d, _) = distance(pa, a, pb, b, s);
        assert!((f64::from(d) - exact).abs() <= tol, "distance {d:e}, exact {exact:e}");
        let c = closest_points(pa, a, pb, b, s);
        assert!((f64::from(c.separation) - exact).abs() <= tol, "{c:?}");
    }
}

/// Hostile case 0xa31935f63b9ebc05 (3D, `f64`, rotations 4 ulps off unit): the cone's base
/// meets a face of the hull 2.2642665e-8 deep (the largest support gap, found in 50-digit
/// arithmetic, is −2.2642665e-8, and the hostile oracle's inscribed point proves the overlap).
/// kollide is right; this keeps it so, at every rotation scaling the suite tries.
#[test]
fn face_on_cone_and_hull_overlap_by_2p3e_8() {
    let p = Point3::new;
    let a = ConvexPolyhedron::from_points(&[
        p(1.7141960779156669, 3.157061296463379, 2.956688523820978),
        p(2.336456493822339, -0.5882987800363965, 1.9600988971237887),
        p(-3.096330120401809, 0.6240024451830216, 3.520542234673738),
        p(-2.5831792578269033, -1.532307716330635, -4.078209478530828),
        p(-1.58103323144956, -4.234484947408766, 1.9916793502499248),
    ])
    .unwrap();
    let b = Cone::new(2.861805840453543, 4.62748652717049).unwrap();
    let s = QuerySettings::default();
    for k in -8..=8 {
        let pa = iso3::<f64>(
            [2.6172135811778516, 6.058100994463354, 4.053318252593802],
            [0.04245082007463729, 0.586177571638291, -0.7820250829796269, -0.2074380678032234],
            k,
        );
        let pb = iso3::<f64>(
            [3.6925420404687457, 2.458455941489811, -0.283394126256978],
            [0.07043728986292214, 0.6865379586580518, 0.24891471574449958, -0.6795187148300161],
            k,
        );
        assert!(intersection_test(&pa, &a, &pb, &b, None, &s).intersecting, "k = {k}");
        let c = contact(&pa, &a, &pb, &b, 0.0, &s).expect("overlapping");
        // The f64 accuracy: 1e-9 relative to the shapes' size (about 5).
        assert!((c.separation + 2.2642665e-8).abs() < 5e-9, "k = {k}: {c:?}");
    }
}

/// Hostile case 0x388a4aa5dcc24cb0 (2D, `f32`, 1e4 : 1): a capsule 15 mm long 3.07e-3 from a
/// 60 m polygon, both 50 m from the origin. GJK's triangle of two capsule points and a polygon
/// vertex was a sliver 85 long and 0.014 wide, and the region tests' rounding put the origin
/// inside it: every query reported contact (the signed distance is the hostile oracle's, SAT
/// over the polygon's edges and the capsule's axis in `f64` on the shapes as built).
#[test]
fn a_small_capsule_apart_from_a_large_polygon_far_out_does_not_touch_f32() {
    type N = f32;
    let p = |x: f64, y: f64| Point2::new(x as N, y as N);
    let a = Capsule::new(
        p(0.0033439325634390116, -0.00683198357000947),
        p(-0.004525161813944578, 0.005271287634968758),
        0.0011501178378239274_f64 as N,
    )
    .unwrap();
    let b = ConvexPolygon::from_hull(&[
        p(-2.0140316486358643, -55.87173843383789),
        p(31.559572219848633, 19.628087997436523),
        p(-53.15980529785156, 2.3422012329101563),
        p(19.368316650390625, -64.50537872314453),
        p(4.263481140136719, -9.835524559020996),
    ])
    .unwrap();
    let pa = iso2::<N>(
        [-41.715149023560635, -10.429908759508773],
        [-0.9643699377251107, 0.26455741004943717],
    );
    let pb = iso2::<N>(
        [-50.543755870353976, 17.538266836945],
        [0.6425752590487309, -0.7662225763173885],
    );
    let s = QuerySettings::default();
    // The rounding of f32 coordinates near 60 m, a few ulps.
    let apart = Apart { exact: 3.0670424061725043e-3, tol: 2e-5 };
    apart.check(&pa, &a, &pb, &b, &s);
    apart.check(&pb, &b, &pa, &a, &s);
}
