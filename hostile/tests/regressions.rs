//! Single cases the suite found, kept as tests of the library: each names what was wrong.

use kollide::prelude::*;
use kollide_hostile::cases::{Case, Class, Kind, PoseDesc, generate};
use kollide_hostile::run::{Built3, MakePose, build3};

/// A pair of generated case `seed`, built in `f64`.
fn case3(
    a: &str,
    b: &str,
    class: &str,
    seed: u64,
) -> (Iso3<f64>, Shape3<f64>, Iso3<f64>, Shape3<f64>) {
    case3_in(a, b, class, seed, false)
}

/// Generated case `seed` of the kinds named `a` and `b` in the class named `class`, from inputs
/// that `f32` holds exactly when `f32_inputs`.
fn generated(a: &str, b: &str, class: &str, seed: u64, f32_inputs: bool) -> Case<3> {
    let kind = |s: &str| *Kind::all(3).iter().find(|k| k.name(3) == s).unwrap();
    let class = *Class::ALL.iter().find(|k| k.name() == class).unwrap();
    generate::<3>(kind(a), kind(b), class, seed, f32_inputs)
}

/// A pair of generated case `seed` built in `N`, from the inputs generated for `f32` (numbers
/// that `f32` holds exactly) when `f32_inputs`.
fn case3_in<N: Scalar>(
    a: &str,
    b: &str,
    class: &str,
    seed: u64,
    f32_inputs: bool,
) -> (Iso3<N>, Shape3<N>, Iso3<N>, Shape3<N>) {
    let c = generated(a, b, class, seed, f32_inputs);
    let (Ok(Built3::S(sa)), Ok(Built3::S(sb))) = (build3::<N>(&c.a), build3::<N>(&c.b)) else {
        panic!("not plain shapes");
    };
    (pose3(&c.pose_a), sa, pose3(&c.pose_b), sb)
}

/// A generated pose, built in `N`.
fn pose3<N: Scalar>(p: &PoseDesc<3>) -> Iso3<N> {
    <Iso3<N> as MakePose<N, 3>>::make(p).0
}

/// A capsule 3e-5 from a cylinder of radius 6 (`f32`): GJK stopped with its estimate `|v|`
/// 1.4e-4 above the distance, within the length tolerance of the pair's size but six times the
/// distance, and `distance` returned it; `closest_points` settled the pair in `f64`.
#[test]
fn an_f32_distance_to_a_large_cylinder_is_settled_like_the_contact() {
    let (pa, a, pb, b) =
        case3_in::<f32>("capsule", "cylinder", "near", 0xc5c0_751c_ae23_1199, true);
    let (pa64, a64, pb64, b64) =
        case3_in::<f64>("capsule", "cylinder", "near", 0xc5c0_751c_ae23_1199, true);
    let (d, _) = distance(&pa, &a, &pb, &b, &QuerySettings::default());
    let (exact, status) = distance(&pa64, &a64, &pb64, &b64, &QuerySettings::default());
    assert_eq!(status, Status::Converged);
    assert!(exact > 1e-5 && exact < 5e-5, "the case is near touching: {exact:e}");
    let scale = f64::from(a.bounding_radius().max(b.bounding_radius()));
    // The hostile suite's `f32` tolerance: 1e-3 of the distance, or of a hundredth of the size.
    assert!((f64::from(d) - exact).abs() < 1e-3 * 0.01 * scale, "{d:e} against {exact:e}");
}

/// A box 6 mm across sunk 2.8 mm into a capsule of radius 18 (`f32`): GJK on the cores stalled
/// in its first step with a bracket 15 mm wide, which its acceptance, relative to the cores'
/// distance of 18, called converged; the radii lay inside the bracket, and `distance` read its
/// upper end as 3.6 mm apart, where `intersection_test` and `contact` settled the pair.
#[test]
fn an_f32_box_sunk_into_a_large_capsule_has_distance_zero() {
    let (pa, a, pb, b) =
        case3_in::<f32>("cuboid", "capsule", "ratio1e4", 0xc2dc_94cf_15de_836d, true);
    let s = QuerySettings::default();
    let depth = contact(&pa, &a, &pb, &b, 0.0, &s).expect("overlapping").separation;
    // The oracle's exact depth, to the suite's `f32` tolerance (1e-3 of a hundredth).
    assert!((depth + 2.7715e-3).abs() < 1e-5, "the exact depth is -2.7715e-3: {depth:e}");
    assert!(intersection_test(&pa, &a, &pb, &b, None, &s).intersecting);
    assert_eq!(distance(&pa, &a, &pb, &b, &s).0, 0.0);
}

/// A 1000-vertex hull sunk 55 deep in one 52 times its size (`f32`): the contact went to the
/// exact test of both hulls (1.4 ms) because rounding at the large hull's scale exceeds the
/// small one's length tolerance, though a depth is held to the tolerance relative to itself.
/// The answer must still match `f64`'s.
#[test]
fn an_f32_hull_deep_in_a_large_hull_matches_f64() {
    const SEED: u64 = 0xc636_ab45_62de_1c3d;
    let (pa, a, pb, b) = case3_in::<f32>("polyhedron", "polyhedron", "hull1000", SEED, true);
    let (pa64, a64, pb64, b64) =
        case3_in::<f64>("polyhedron", "polyhedron", "hull1000", SEED, true);
    let c = contact(&pa, &a, &pb, &b, 0.0, &QuerySettings::default()).unwrap();
    let e = contact(&pa64, &a64, &pb64, &b64, 0.0, &QuerySettings::default()).unwrap();
    assert_eq!((c.status, e.status), (Status::Converged, Status::Converged));
    assert!(e.separation < -50.0, "the small hull is deep inside: {e:?}");
    let off = (f64::from(c.separation) - e.separation).abs();
    assert!(off < 1e-5 * e.separation.abs(), "{c:?}\n{e:?}");
    let turn = (c.normal.cast::<f64>() - e.normal).norm();
    assert!(turn < 1e-4, "{c:?}\n{e:?}");
}

/// Two touching 1000-vertex hulls on which `f32` GJK stalls: the distance went to the exact
/// test of both hulls (1.2 ms); the run repeated in `f64` on the same support points settles it.
/// The answer must agree with `f64`'s and be converged.
#[test]
fn a_stalled_f32_distance_between_touching_hulls_matches_f64() {
    const SEED: u64 = 0x3587_192b_bab5_0984;
    let (pa, a, pb, b) = case3_in::<f32>("polyhedron", "polyhedron", "hull1000", SEED, true);
    let (pa64, a64, pb64, b64) =
        case3_in::<f64>("polyhedron", "polyhedron", "hull1000", SEED, true);
    let s = QuerySettings::default();
    let (d, status) = distance(&pa, &a, &pb, &b, &s);
    let c = closest_points(&pa, &a, &pb, &b, &s);
    let e = closest_points(&pa64, &a64, &pb64, &b64, &QuerySettings::default());
    assert_eq!(
        (status, c.status, e.status),
        (Status::Converged, Status::Converged, Status::Converged)
    );
    let scale = f64::from(a.bounding_radius().max(b.bounding_radius()));
    assert!(e.separation.abs() < 1e-9 * scale, "the case is touching: {e:?}");
    let tol = 1e-3 * 0.01 * scale;
    assert!((f64::from(d) - e.separation.max(0.0)).abs() < tol, "{d:e} against {e:?}");
    assert!((f64::from(c.separation) - e.separation).abs() < tol, "{c:?}\n{e:?}");
}

/// A 1000-vertex hull 3.66 deep in a cylinder: EPA needs a few hundred vertices on the curved
/// side, and at the old cap of 128 the two argument orders stopped 1.6e-5 apart, one of them
/// too deep.
#[test]
fn a_thousand_vertex_hull_deep_in_a_cylinder_settles_in_both_orders() {
    let (pa, a, pb, b) = case3("cylinder", "polyhedron", "hull1000", 0xbba4_bebd_25af_5233);
    let s = QuerySettings::<f64>::default();
    let ab = contact(&pa, &a, &pb, &b, 0.0, &s).unwrap();
    let ba = contact(&pb, &b, &pa, &a, 0.0, &s).unwrap();
    assert_eq!((ab.status, ba.status), (Status::Converged, Status::Converged));
    let scale = a.bounding_radius().max(b.bounding_radius());
    let apart = (ab.separation - ba.separation).abs();
    assert!(apart < 1e-9 * scale, "{ab:?}\n{ba:?}");
}

/// Sliver and thin-rim pairs whose least depth lies on a kink of the Minkowski difference: the
/// polish stopped within its acceptance but above its target, where the depth a normal attains
/// is off by about the witnesses' miss, and one argument order came out deeper than the other
/// by about a billionth of the size.
#[test]
fn contacts_on_a_kink_agree_in_both_orders() {
    let cases = [
        ("cuboid", "cone", "sliver", 0x0028_0c60_dd29_2cea),
        ("cone", "segment", "sliver", 0xd06e_977e_b92b_8b5c),
        ("cone", "cuboid", "sliver", 0x03fa_f380_4589_b339),
        ("cuboid", "cylinder", "near", 0x2518_72e7_f664_bb39),
    ];
    let s = QuerySettings::<f64>::default();
    for (ka, kb, class, seed) in cases {
        let (pa, a, pb, b) = case3(ka, kb, class, seed);
        let ab = contact(&pa, &a, &pb, &b, 0.0, &s).unwrap();
        let ba = contact(&pb, &b, &pa, &a, 0.0, &s).unwrap();
        let scale = a.bounding_radius().max(b.bounding_radius());
        let apart = (ab.separation - ba.separation).abs();
        assert!(apart < 1e-10 * scale, "{ka}-{kb} {seed:#x}\n{ab:?}\n{ba:?}");
    }
}

/// Two coincident cones pushed apart along a direction: the push's ray stopped on a chord of
/// the curved Minkowski difference, and its witnesses (the chord's points) missed each other
/// by the chord's sag, 1.4e-9 at unit size.
#[test]
fn a_push_out_of_a_curved_pair_has_meeting_witnesses() {
    let (pa, a, pb, b) = case3("cone", "cone", "coincident", 0x6a1a_e909_bcfe_2c50);
    let dir = Vec3::new(-0.7403402869263149, 0.3314819221311873, 0.584821335840336);
    let s = QuerySettings::<f64>::default();
    let h = kollide::narrowphase::directional_penetration(&pa, &a, &pb, &b, &dir, &s).unwrap();
    let scale = a.bounding_radius().max(b.bounding_radius());
    assert!((h.point_b - h.point_a).norm() < 1e-10 * scale, "{h:?}");
}

/// Segments grazing a cylinder's or a cone's rim, 1e-9 to 1e-5 of their size apart: the normal
/// from the closed form's nearest points was `(q − p)/d`, its rounding turned it off the
/// segment's normal plane by `ε·size/d`, and the gap it attains missed the separation by the
/// segment's length times that (1.5e-9 of the size), moving the segment's witness off its
/// support plane. The same held for a cone's own side normal (a segment 1.1e-6 from a cone 8
/// across, 2e-9 of the size): the bisection's `t` is set by rounding, and the normal turns with it.
#[test]
fn a_segment_grazing_a_rim_gets_a_normal_that_attains_its_distance() {
    use kollide_hostile::cases::body;
    use kollide_hostile::oracle::gap;
    let cases = [
        ("cylinder", "segment", "touching", 0xb150_2275_5ace_af6c),
        ("cylinder", "segment", "ulp-rot", 0x37fe_f43e_e4c0_3d0d),
        ("segment", "cylinder", "near", 0x6450_049b_3888_7385),
        ("cone", "segment", "touching", 0x8569_678f_0111_5b5f),
        ("cone", "segment", "ulp-rot", 0x59e0_b398_09ab_aad3),
    ];
    let s = QuerySettings::<f64>::default();
    for (ka, kb, class, seed) in cases {
        let (pa, a, pb, b) = case3(ka, kb, class, seed);
        let kind = |s: &str| *Kind::all(3).iter().find(|k| k.name(3) == s).unwrap();
        let class_of = *Class::ALL.iter().find(|k| k.name() == class).unwrap();
        let c = generate::<3>(kind(ka), kind(kb), class_of, seed, false);
        let (ba, bb) = (body(&c.a, &c.pose_a), body(&c.b, &c.pose_b));
        let r = closest_points(&pa, &a, &pb, &b, &s);
        let n = kollide_hostile::geom::V::<3>::new(r.normal.x, r.normal.y, r.normal.z);
        let scale = a.bounding_radius().max(b.bounding_radius());
        let miss = (gap(&ba, &bb, &n) - r.separation).abs();
        assert!(miss < 1e-10 * scale, "{ka}-{kb} {seed:#x}: {miss:e}\n{r:?}");
    }
}

/// A triangle resting on a cylinder's cap, its lowest vertex 1.2e-9 above the cap and 2e-8 in
/// from the rim (`f64`): GJK stalled on touching cores, and the polish of its normal settled on
/// the rim, where the triangle seemed 1.5e-8 deep. The cap's own normal attains the true gap:
/// the flat parts' normals are tried after the polish of a separated pair as after a
/// penetration's.
#[test]
fn a_triangle_just_above_a_cylinder_cap_is_apart_along_the_cap_normal() {
    use kollide_hostile::cases::body;
    use kollide_hostile::oracle::gap;
    let seed = 0xa88b_cf6e_5a01_6c75;
    let (pa, a, pb, b) = case3("triangle", "cylinder", "touching", seed);
    let c = generated("triangle", "cylinder", "touching", seed, false);
    let (ba, bb) = (body(&c.a, &c.pose_a), body(&c.b, &c.pose_b));
    let r = closest_points(&pa, &a, &pb, &b, &QuerySettings::default());
    let scale = a.bounding_radius().max(b.bounding_radius());
    assert!(r.separation > 0.0 && r.separation < 2e-9, "{r:?}");
    let axis = pb.rotation * Vec3::y();
    assert!(1.0 - r.normal.dot(&axis).abs() < 1e-9, "not the cap's normal: {r:?}");
    let n = kollide_hostile::geom::V::<3>::new(r.normal.x, r.normal.y, r.normal.z);
    assert!((gap(&ba, &bb, &n) - r.separation).abs() < 1e-10 * scale, "{r:?}");
}

/// A box 4e-4 across sunk 8e-6 into the edge of a hull 5 across (`f64`, the general manifold):
/// the clipping slack was 1e-4 of the *hull's* size, wider than the box, and let through a
/// corner of the box lifted onto one face of the hull 5e-5 beyond its edge, off the hull and
/// 3e-5 deep, four times the true depth. Every point must lie on the hull, none deeper than the
/// exact contact.
#[test]
fn a_tiny_box_on_a_hull_edge_has_its_manifold_on_the_hull() {
    let (pa, a, pb, b) = case3("cuboid", "polyhedron", "ratio1e4", 0xcd39_6edd_a71c_0926);
    let Shape3::Polyhedron(hull) = &b else { panic!("B is a hull") };
    let exact = contact(&pa, &a, &pb, &b, 0.0, &QuerySettings::default()).expect("overlapping");
    let m = manifold3::<f64, ()>(&pa, &a, &pb, &b, 0.0);
    assert!(m.len() >= 2, "clipped, not the exact contact alone: {m:?}");
    for c in m.contacts() {
        let q = pb.inverse_transform_point(&c.point_b);
        let outside = (0..hull.faces().len())
            .map(|f| hull.face_normal(f).dot(&(q - hull.vertices()[hull.face(f)[0] as usize])))
            .fold(f64::MIN, f64::max);
        assert!(outside < 1e-12, "{outside:e} off the hull: {c:?}");
        assert!(c.separation >= exact.separation - 1e-12, "deeper than exact: {c:?}");
    }
}

/// Deep hull manifolds whose clipped points are shallower than the least penetration (`f64`,
/// the general manifold).
/// - Two coincident hulls 0.013 across: the exact contact that repaired the manifold had its
///   separation measured along the face normal while its points lay along EPA's normal, 1.3e-3
///   rad away: 1.2e-5 off `separation·normal`, and 8e-9 shallower than the truth.
/// - Two slivers 0.006 across: the repair waited for a shortfall of 1.5e-9, the length tolerance
///   of a unit shape, and the manifold stayed 4.6e-10 (8e-8 of the size) shallower than the truth.
///
/// The repair now starts at the length tolerance of the pair's own size, and the exact contact
/// joins the clipped points only when its points lie along the manifold's normal within that
/// tolerance; otherwise it is the manifold alone.
#[test]
fn a_repaired_deep_hull_manifold_is_as_deep_as_the_contact_along_its_normal() {
    for (class, seed) in [("coincident", 0xbafd_c7ef_d5d2_d99b), ("sliver", 0xeb8c_a26a_123f_1698)]
    {
        let (pa, a, pb, b) = case3("polyhedron", "polyhedron", class, seed);
        let scale = a.bounding_radius().max(b.bounding_radius());
        let exact = contact(&pa, &a, &pb, &b, 0.0, &QuerySettings::default()).expect("overlap");
        let m = manifold3::<f64, ()>(&pa, &a, &pb, &b, 0.0);
        assert!(!m.is_empty(), "{class}");
        let deepest = m.contacts().iter().map(|c| c.separation).fold(f64::MAX, f64::min);
        assert!(deepest <= exact.separation + 1e-10 * scale, "{class}: {deepest:e}, {exact:?}");
        for c in m.contacts() {
            let off = (c.point_b - c.point_a - m.normal * c.separation).norm();
            assert!(off < 1e-10 * scale, "{class}: {off:e} off separation·normal: {c:?}");
        }
    }
}

/// A ray hitting the flat face of a rounded box 0.03 across (`f32`): the cast stops once the hit
/// point is within its tolerance of the surface, and its normal, from a simplex of the core's
/// support points, was 1.3e-3 rad off the face's, which moves the support plane along it by
/// 3.9e-5. The normal now comes from the core's point nearest to the hit.
#[test]
fn an_f32_ray_on_a_rounded_box_face_gets_the_face_normal() {
    use kollide::narrowphase::{Ray, ray_cast};
    let c = generated("rounded", "capsule", "near", 0x66fe_060f_90a6_b7eb, true);
    let Ok(Built3::R(a)) = build3::<f32>(&c.a) else { panic!("A is rounded") };
    let pose = pose3::<f32>(&c.pose_a);
    let ray = Ray { origin: Point3::from(c.ray_origin.cast::<f32>()), dir: c.ray_dir.cast() };
    let h = ray_cast(&pose, &a, &ray, 10.0, &QuerySettings::default()).expect("a hit");
    // The hit lies on the support plane of its own normal.
    let off = (a.support_point(&pose, &h.normal) - h.point_a).dot(&h.normal);
    assert!(off.abs() < 1e-6, "{off:e} off the support plane: {h:?}");
}

/// Two sliver triangles 130 m long, 7.5e-3 apart (`f64`): GJK on their vertices in `f64`
/// bracketed the distance to 6e-9, but its last simplex was a sliver, along whose face `v` had
/// slid by 1.9e-7: the normal was 2.5e-5 rad off, attained 1.9e-7 less than the separation, and
/// moved the witness on B off its triangle by as much. Its answer is taken as exact only when
/// its own normal attains it; here the exact axis settles it.
#[test]
fn sliver_triangles_apart_get_a_normal_that_attains_their_distance() {
    let (pa, a, pb, b) = case3("triangle", "triangle", "sliver", 0x924c_30b6_1cd8_29b5);
    let c = closest_points(&pa, &a, &pb, &b, &QuerySettings::default());
    let n = c.normal;
    let (top_a, low_b) = (a.support_point(&pa, &n), b.support_point(&pb, &-n));
    let gap = (low_b - top_a).dot(&n);
    let (off_a, off_b) = ((top_a - c.point_a).dot(&n), (c.point_b - low_b).dot(&n));
    assert!((gap - c.separation).abs() < 1e-11 * 65.0, "g(n) = {gap:e}: {c:?}");
    assert!(off_a.abs().max(off_b.abs()) < 1e-11 * 65.0, "off {off_a:e}, {off_b:e}: {c:?}");
}

/// A triangle touching a 1000-vertex polygon (`f64`, 2D): GJK stalled at the touch, and the exact
/// test had no answer for a pair of 1000 axes against 1000 vertices, so GJK's answer stood, its
/// normal 2.5e-8 short of attaining the separation. The exact test now walks the polygon's loop.
#[test]
fn a_triangle_touching_a_thousand_vertex_polygon_gets_the_exact_normal() {
    use kollide_hostile::run::build2;
    let kind = |s: &str| *Kind::all(2).iter().find(|k| k.name(2) == s).unwrap();
    let c = generate::<2>(
        kind("triangle"),
        kind("polygon"),
        Class::Hull1000,
        0xf39d_b222_ac4a_a6af,
        false,
    );
    let (a, b) = (build2::<f64>(&c.a).unwrap(), build2::<f64>(&c.b).unwrap());
    let pa = <Iso2<f64> as MakePose<f64, 2>>::make(&c.pose_a).0;
    let pb = <Iso2<f64> as MakePose<f64, 2>>::make(&c.pose_b).0;
    let k = closest_points(&pa, &a, &pb, &b, &QuerySettings::default());
    let n = k.normal;
    let gap = (b.support_point(&pb, &-n) - a.support_point(&pa, &n)).dot(&n);
    assert_eq!(k.status, Status::Converged, "{k:?}");
    assert!((gap - k.separation).abs() < 1e-12 && k.separation.abs() < 1e-12, "{gap:e}: {k:?}");
}

/// A segment's end 4.2e-8 from a 10 m triangle's edge, 1.3e-8 outside its face's region
/// (`f64`, rotations a few ulps off unit). GJK stalled, and the exact test, SAT over the faces
/// and edge pairs, took the face's normal: the plane's distance, 4.04e-8, with a point 1.3e-8
/// off the triangle. A pair apart now also has the vertex–vertex and vertex–edge axes, and the
/// answer is the point–triangle distance computed here by hand.
#[test]
fn a_segment_end_just_outside_a_triangles_face_region_gets_the_edge_distance() {
    let (pa, a, pb, b) = case3("triangle", "segment", "ulp-rot", 0xaaee_e6ac_987c_1055);
    let (Shape3::Triangle(t), Shape3::Segment(s)) = (&a, &b) else { panic!("not the pair") };
    let (q, tri) = (pa.inv_compose(&pb) * s.b(), [t.a(), t.b(), t.c()]);
    let to_edge = |p: Point3<f64>, u: Point3<f64>, v: Point3<f64>| {
        let e = v - u;
        (p - (u + e * ((p - u).dot(&e) / e.norm_squared()).clamp(0.0, 1.0))).norm()
    };
    let by_hand = to_edge(q, tri[2], tri[0]);
    let n = (tri[1] - tri[0]).cross(&(tri[2] - tri[0])).normalize();
    assert!((q - tri[0]).dot(&n).abs() < by_hand - 1e-9, "the face's plane is nearer");
    let c = closest_points(&pa, &a, &pb, &b, &QuerySettings::default());
    assert!((c.separation - by_hand).abs() < 1e-14, "{:e} against {by_hand:e}", c.separation);
    let off = to_edge(pa.inverse_transform_point(&c.point_a), tri[2], tri[0]);
    assert!(off < 1e-14, "point_a is {off:e} off the edge");
}

/// A 6 m segment through a box 4 mm thick (`f32`): EPA converged on a face of the sliver
/// difference whose normal, the cross product of long, nearly parallel edges, was 1e-4 deeper
/// along its support points than the depth reported with it. The `f32` contact now checks that
/// overlapping cores' normals attain their separation too, and settles the pair in `f64`.
#[test]
fn an_f32_segment_through_a_thin_box_gets_a_normal_that_attains_its_depth() {
    let (pa, a, pb, b) =
        case3_in::<f32>("cuboid", "segment", "sliver", 0x991b_45e9_16e5_5792, true);
    let c = contact(&pa, &a, &pb, &b, 0.0, &QuerySettings::default()).expect("they overlap");
    let n = c.normal;
    let gap = (b.support_point(&pb, &-n) - a.support_point(&pa, &n)).dot(&n);
    assert!(c.separation < -7e-4, "the segment is 7.2e-4 deep: {c:?}");
    // The hostile suite's `f32` tolerance: 1e-3 of a hundredth of the pair's size (3.1).
    assert!((gap - c.separation).abs() < 3.1e-5, "g(n) = {gap:e}: {c:?}");
}

/// Shapes a hair apart (1e-13 to 5e-10) where a rim crosses a vertex or an edge: every normal in
/// the kink's cone nearly attains the distance, so the polish settles its normal only to `√ε`,
/// and its support point on the rim slid by the rim's radius times that (5.8e-9 beyond a
/// cylinder's cap, at unit size). GJK's witnesses, which agree better with the distance, are
/// kept: both points must lie on their shapes to the suite's `f64` tolerance.
#[test]
fn witnesses_of_a_rim_touching_a_corner_lie_on_both_shapes() {
    use kollide_hostile::cases::body;
    use kollide_hostile::oracle::{outside_by, sample_dirs};
    let cases = [
        ("cone", "cylinder", "touching", 0x56bb_cb18_6e02_ed13),
        ("cone", "segment", "ulp-rot", 0xb460_b0f3_06e9_43ad),
        ("cylinder", "triangle", "touching", 0x474c_a80d_983c_333b),
        ("cylinder", "polyhedron", "ulp-rot", 0x3eb8_9917_6714_3ad9),
    ];
    let s = QuerySettings::<f64>::default();
    let dirs = sample_dirs::<3>(64);
    for (ka, kb, class, seed) in cases {
        let (pa, a, pb, b) = case3(ka, kb, class, seed);
        let c = generated(ka, kb, class, seed, false);
        let (ba, bb) = (body(&c.a, &c.pose_a), body(&c.b, &c.pose_b));
        let r = closest_points(&pa, &a, &pb, &b, &s);
        assert!(r.separation.abs() < 1e-9, "{ka}-{kb} {seed:#x}: the case touches: {r:?}");
        let v = |p: Point3<f64>| kollide_hostile::geom::V::<3>::new(p.x, p.y, p.z);
        let off_a = outside_by(&ba, &v(r.point_a), &dirs).abs();
        let off_b = outside_by(&bb, &v(r.point_b), &dirs).abs();
        let scale = a.bounding_radius().max(b.bounding_radius());
        assert!(off_a.max(off_b) < 1e-9 * scale, "{ka}-{kb} {seed:#x}: {off_a:e} {off_b:e}");
    }
}

/// Segments cast at cones, an edge meeting the rim:
/// - a 2 cm segment: the cast's witnesses, from its last simplex's weights, were 3.2e-11 apart
///   at the hit (1.5e-9 of the size); a curved cast whose witnesses do not meet is settled by
///   the pair query at the hit;
/// - there, a Newton step on the time overshot (2.6e-9 deep to 2.7e-9 apart, where the
///   separation bends at the rim); regula falsi between the two times settles it.
#[test]
fn a_segment_cast_across_a_cone_rim_has_meeting_witnesses() {
    use kollide_hostile::run::Motion;
    for seed in [0x3c0c_9668_8a4a_5ffc, 0x0f56_64de_5048_33dc] {
        let (pa, a, pb, b) = case3("segment", "cone", "near", seed);
        let m = Motion::of::<f64>(&generated("segment", "cone", "near", seed, false));
        let vel = |v: &kollide_hostile::geom::V<3>| Vec3::new(v[0], v[1], v[2]);
        let s = QuerySettings::<f64>::default();
        let h = shape_cast(&pa, &vel(&m.vel_a), &a, &pb, &vel(&m.vel_b), &b, 1.0, &s).unwrap();
        assert!(h.t > 0.0, "{seed:#x}: the shapes start apart: {h:?}");
        let scale = a.bounding_radius().max(b.bounding_radius());
        let gap = (h.point_b - h.point_a).norm();
        assert!(gap < 5e-10 * scale, "{seed:#x}: {gap:e} at scale {scale}\n{h:?}");
    }
}

/// Two segments a hair apart, an end of one 7.5e-15 from the other's interior (`f64`, 0.2 m
/// long): the normal from the closest points' offset was rounding noise square to B's axis,
/// and it leant out of the cone that A's end allows, so that A's other end lay 3.5e-5 beyond the
/// contact plane. The normal must attain the separation.
#[test]
fn a_segment_end_a_hair_from_another_segment_gets_a_normal_in_its_cone() {
    use kollide_hostile::cases::body;
    use kollide_hostile::oracle::gap;
    let cases = [("touching", 0xe50c_220a_fead_5efd_u64)];
    let s = QuerySettings::<f64>::default();
    for (class, seed) in cases {
        let (pa, a, pb, b) = case3("segment", "segment", class, seed);
        let c = generated("segment", "segment", class, seed, false);
        let (ba, bb) = (body(&c.a, &c.pose_a), body(&c.b, &c.pose_b));
        let r = closest_points(&pa, &a, &pb, &b, &s);
        assert!(r.separation.abs() < 1e-13, "{seed:#x}: the case touches: {r:?}");
        let n = kollide_hostile::geom::V::<3>::new(r.normal.x, r.normal.y, r.normal.z);
        let miss = (gap(&ba, &bb, &n) - r.separation).abs();
        assert!(miss < 1e-12, "{seed:#x}: {miss:e}\n{r:?}");
    }
}

/// Sharp pairs a few nanometres apart cast at each other (`f64`): the cast stalled a fraction
/// of the way (a 2.5 m segment 4e-9 from a box stopped at t = 1.7e-10 where the contact is at
/// 1.25e-9) and reported its hit there. A stalled cast is settled by the pair query with
/// Newton's steps on the time; the time must match the exact oracle's.
#[test]
fn a_stalled_cast_between_sharp_shapes_reaches_the_contact() {
    use kollide_hostile::cases::body;
    use kollide_hostile::oracle::{sample_dirs, time_of_impact};
    use kollide_hostile::run::Motion;
    let cases = [
        ("segment", "cuboid", 0x0e82_57b1_2624_7325_u64),
        ("triangle", "segment", 0xa015_78a5_835b_b450),
    ];
    let s = QuerySettings::<f64>::default();
    for (ka, kb, seed) in cases {
        let (pa, a, pb, b) = case3(ka, kb, "touching", seed);
        let c = generated(ka, kb, "touching", seed, false);
        let m = Motion::of::<f64>(&c);
        let vel = |v: &kollide_hostile::geom::V<3>| Vec3::new(v[0], v[1], v[2]);
        let h = shape_cast(&pa, &vel(&m.vel_a), &a, &pb, &vel(&m.vel_b), &b, 1.0, &s).unwrap();
        let (ba, bb) = (body(&c.a, &c.pose_a), body(&c.b, &c.pose_b));
        let toi = time_of_impact(&ba, &bb, &(m.vel_b - m.vel_a), 1.0, 0.0, &sample_dirs::<3>(64));
        assert!(toi.exact && toi.lo > 0.0, "{ka}-{kb} {seed:#x}: {toi:?}");
        let speed = (m.vel_b - m.vel_a).norm();
        let early = (toi.lo - h.t) * speed;
        assert!(early < 1e-10, "{ka}-{kb} {seed:#x}: {early:e} short: {h:?} {toi:?}");
        assert!((h.point_b - h.point_a).norm() < 1e-10, "{ka}-{kb} {seed:#x}: {h:?}");
    }
}

/// Small pairs whose EPA stopped with its gap within `Tolerances::length`, which is floored at
/// one metre (`f64`): a 1 cm rounded box around a tiny 1000-vertex polygon got a normal whose
/// depth missed the separation by 1.5e-9 of the pair's size, and a 1.6 cm cone sliver in another
/// came out 1.4e-10 deeper than the oracle's bound. EPA's tolerance is relative to the shapes'
/// size with no floor; both must hold to `1e-9` of it.
#[test]
fn small_pairs_are_resolved_to_a_billionth_of_their_size() {
    use kollide::shapes::SupportMap;
    use kollide_hostile::cases::body;
    use kollide_hostile::oracle::{gap, sample_dirs, signed_distance};
    use kollide_hostile::run::build2;
    let s = QuerySettings::<f64>::default();

    let seed = 0xf69a_6398_41ac_3d2a;
    let c = generate::<2>(Kind::Rounded, Kind::Hull, Class::Hull1000, seed, false);
    let (a, b) = (build2::<f64>(&c.a).unwrap(), build2::<f64>(&c.b).unwrap());
    let pose = |p: &PoseDesc<2>| <Iso2<f64> as MakePose<f64, 2>>::make(p).0;
    let (pa, pb) = (pose(&c.pose_a), pose(&c.pose_b));
    let k = contact(&pa, &a, &pb, &b, 0.0, &s).expect("nested");
    let (ba, bb) = (body(&c.a, &c.pose_a), body(&c.b, &c.pose_b));
    let n = kollide_hostile::geom::V::<2>::new(k.normal.x, k.normal.y);
    let scale = a.bounding_radius().max(b.bounding_radius());
    let miss = (gap(&ba, &bb, &n) - k.separation).abs();
    assert!(miss < 1e-9 * scale, "miss {miss:e} at scale {scale:e}: {k:?}");

    let seed = 0xfb8c_20d5_d9fc_1713;
    let (pa, a, pb, b) = case3("cone", "cone", "sliver", seed);
    let c = generated("cone", "cone", "sliver", seed, false);
    let (ba, bb) = (body(&c.a, &c.pose_a), body(&c.b, &c.pose_b));
    let truth = signed_distance(&ba, &bb, &sample_dirs::<3>(256));
    let k = contact(&pa, &a, &pb, &b, 0.0, &s).expect("overlapping");
    let scale = a.bounding_radius().max(b.bounding_radius());
    let too_deep = truth.lo - k.separation;
    assert!(too_deep < 1e-9 * scale, "{too_deep:e} too deep at scale {scale:e}: {k:?} {truth:?}");
}

/// A rounded box 2.5e-5 across sunk 6e-6 into a box 1e4 times larger (`f64`, the exact test):
/// its supporting feature was taken within a millionth of the *pair's* size, which took in
/// vertices off it, and the radius carried the witness 2.3e-7 off the rounded box's surface.
#[test]
fn a_tiny_rounded_box_in_a_large_box_has_its_witness_on_its_surface() {
    use kollide_hostile::cases::body;
    use kollide_hostile::oracle::{outside_by, sample_dirs};
    use kollide_hostile::run::build3;
    let seed = 0x44f3_1774_a2a7_d0f7;
    let c = generated("rounded", "cuboid", "ratio1e4", seed, false);
    let (Ok(Built3::R(a)), Ok(Built3::S(b))) = (build3::<f64>(&c.a), build3::<f64>(&c.b)) else {
        panic!("a rounded box and a box");
    };
    let (pa, pb) = (pose3::<f64>(&c.pose_a), pose3::<f64>(&c.pose_b));
    let k = contact(&pa, &a, &pb, &b, 0.0, &QuerySettings::default()).expect("overlapping");
    let ba = body(&c.a, &c.pose_a);
    let p = kollide_hostile::geom::V::<3>::new(k.point_a.x, k.point_a.y, k.point_a.z);
    let off = outside_by(&ba, &p, &sample_dirs::<3>(256));
    assert!(off.abs() < 1e-12, "point_a {off:e} off A: {k:?}");
}

/// A cylinder's cap sunk 5e-3 into a sliver hull at a corner of 7° (`f64`, the general
/// manifold): the clipping slack let the cap's octagon past the corner, and moving the points
/// back onto the rim by one pass of projections onto the side planes stopped short of a corner
/// that sharp, leaving two contacts 9e-3 off the hull.
#[test]
fn manifold_points_at_a_sharp_reference_corner_lie_on_both_shapes() {
    use kollide::narrowphase::manifold3;
    use kollide_hostile::cases::body;
    use kollide_hostile::oracle::{outside_by, sample_dirs};
    let seed = 0xc15b_77ef_a4fc_62c9;
    let (pa, a, pb, b) = case3("polyhedron", "cylinder", "sliver", seed);
    let c = generated("polyhedron", "cylinder", "sliver", seed, false);
    let (ba, bb) = (body(&c.a, &c.pose_a), body(&c.b, &c.pose_b));
    let m = manifold3::<f64, ()>(&pa, &a, &pb, &b, 0.0);
    assert!(m.len() >= 2, "{m:?}");
    let dirs = sample_dirs::<3>(1024);
    let v = |p: &Point3<f64>| kollide_hostile::geom::V::<3>::new(p.x, p.y, p.z);
    for k in m.contacts() {
        let (oa, ob) =
            (outside_by(&ba, &v(&k.point_a), &dirs), outside_by(&bb, &v(&k.point_b), &dirs));
        assert!(oa < 1e-9 && ob < 1e-9, "off A by {oa:e}, off B by {ob:e}: {m:?}");
    }
}

/// A cone's apex 9.9e-7 from another cone's side, far from the origin (`f64`): the polish of
/// GJK's stalled distance stopped with a residual just under its tolerance, and a separated
/// pair was not refined further, so the distance came out 2.7e-9 short on cones 2 m in size.
#[test]
fn an_apex_near_a_cone_side_gets_its_distance_to_a_billionth() {
    use kollide_hostile::cases::body;
    use kollide_hostile::oracle::{gap, maximize_on_sphere};
    let seed = 0x4a12_803f_04f0_5c34;
    let (pa, a, pb, b) = case3("cone", "cone", "far", seed);
    let c = generated("cone", "cone", "far", seed, false);
    let (ba, bb) = (body(&c.a, &c.pose_a), body(&c.b, &c.pose_b));
    let k = closest_points(&pa, &a, &pb, &b, &QuerySettings::default());
    let (d, _) = distance(&pa, &a, &pb, &b, &QuerySettings::default());
    assert_eq!(d, k.separation);
    // Every direction's support gap is a lower bound on the distance: the best one near
    // kollide's normal.
    let n = kollide_hostile::geom::V::<3>::new(k.normal.x, k.normal.y, k.normal.z);
    let (lower, _) = maximize_on_sphere(&[n], &|n| gap(&ba, &bb, n), 600);
    assert!(lower > 9e-7 && lower < 1e-6, "the case is near touching: {lower:e}");
    // Half a billionth of the cones' size, about 2 m.
    assert!(d >= lower - 1e-9, "distance {d:e} below the proven {lower:e}");
}

/// A triangle's vertex touching a cone's rim, shapes 60 m across (`f64`): the polish accepted
/// witnesses that missed the depth by up to the length tolerance, and the one on the triangle
/// was left 7.3e-8 off it.
#[test]
fn a_triangle_vertex_on_a_cone_rim_has_its_witness_on_the_triangle() {
    use kollide_hostile::cases::body;
    use kollide_hostile::oracle::{outside_by, sample_dirs};
    let seed = 0x7f7c_d4d6_d37d_092e;
    let (pa, a, pb, b) = case3("triangle", "cone", "touching", seed);
    let c = generated("triangle", "cone", "touching", seed, false);
    let k = closest_points(&pa, &a, &pb, &b, &QuerySettings::default());
    let p = kollide_hostile::geom::V::<3>::new(k.point_a.x, k.point_a.y, k.point_a.z);
    let off = outside_by(&body(&c.a, &c.pose_a), &p, &sample_dirs::<3>(256));
    assert!(k.separation.abs() < 1e-6, "the case is touching: {k:?}");
    assert!(off.abs() < 1e-8, "point_a {off:e} off the triangle: {k:?}");
}

/// Two touching 1000-vertex hulls pushed apart along a direction (`f32`): the cast's normal
/// missed its depth, and the pair query at the exit point walked both hulls in full (over a
/// millisecond) for an exit 6.7e-5 off, with witnesses as far apart. The same cast in `f64` on
/// the same support points attains its normal; this checks that it is the one that answers.
#[test]
fn an_f32_push_between_large_hulls_is_settled_by_the_cast_in_f64() {
    use kollide::narrowphase::directional_penetration;
    use kollide_hostile::run::Motion;
    let seed = 0x1476_c81b_27db_9bdb;
    let (pa, a, pb, b) = case3_in::<f32>("polyhedron", "polyhedron", "hull1000", seed, true);
    let (pa64, a64, pb64, b64) =
        case3_in::<f64>("polyhedron", "polyhedron", "hull1000", seed, true);
    let c = generated("polyhedron", "polyhedron", "hull1000", seed, true);
    let m = Motion::of::<f32>(&c);
    let dir64 = Vec3::new(m.dir[0], m.dir[1], m.dir[2]);
    let s = QuerySettings::default();
    let h = directional_penetration(&pa, &a, &pb, &b, &dir64.map(|x| x as f32), &s)
        .expect("overlapping");
    let exact =
        directional_penetration(&pa64, &a64, &pb64, &b64, &dir64, &QuerySettings::default())
            .expect("overlapping");
    // Exits about 7 m deep, on hulls 7 m across: a few f32 ulps of the depth.
    assert!((f64::from(h.t) - exact.t).abs() < 1e-5, "t {} against {}", h.t, exact.t);
    let gap = (h.point_b - h.point_a).norm();
    assert!(gap < 1e-5, "witnesses {gap:e} apart: {h:?}");
}

/// Two 3 m segments passing 5.2e-9 from each other (`f64`): the cast stalled at their closest
/// approach, and the pair query there was reported as a hit although the shapes were apart and
/// drawing away.
#[test]
fn segments_passing_close_by_are_a_miss() {
    use kollide_hostile::run::Motion;
    let seed = 0xa65e_e26a_e346_2f5f;
    let (pa, a, pb, b) = case3("segment", "segment", "touching", seed);
    let m = Motion::of::<f64>(&generated("segment", "segment", "touching", seed, false));
    let (va, vb) = (Vec3::from(m.vel_a), Vec3::from(m.vel_b));
    let s = QuerySettings::default();
    // The oracle: the distance is convex in time; sampled about its least value, it stays
    // above 5e-9.
    let at = |t: f64| {
        let (a_t, b_t) = (pa.translated(&(va * t)), pb.translated(&(vb * t)));
        closest_points(&a_t, &a, &b_t, &b, &s).separation
    };
    let least = (0..=200).map(|k| at(2e-10 * f64::from(k))).fold(f64::MAX, f64::min);
    assert!(least > 5e-9 && least < 6e-9, "the pair passes close by: {least:e}");
    let hit = shape_cast(&pa, &va, &a, &pb, &vb, &b, 1.0, &s);
    assert!(hit.is_none(), "{hit:?}");
}

/// A ball touching a rounded box's face, pushed out along a direction (`f32`): the pair is
/// within the touching band, so the push is 0, and the cast's normal there was a support
/// direction 5e-4 rad off the face's, which tilts the gap along it by the face's width times
/// that. The normal must be the contact's.
#[test]
fn a_touching_push_out_gets_the_contact_normal() {
    use kollide::narrowphase::directional_penetration;
    use kollide_hostile::run::Motion;
    let seed = 0xde4f_2e82_b21e_4f59;
    let c = generated("ball", "rounded", "touching", seed, true);
    let (Ok(Built3::S(a)), Ok(Built3::R(b))) = (build3::<f32>(&c.a), build3::<f32>(&c.b)) else {
        panic!("a ball and a rounded box");
    };
    let (pa, pb): (Iso3<f32>, Iso3<f32>) = (pose3(&c.pose_a), pose3(&c.pose_b));
    let m = Motion::of::<f32>(&c);
    let dir = Vec3::new(m.dir[0] as f32, m.dir[1] as f32, m.dir[2] as f32);
    let s = QuerySettings::default();
    let h = directional_penetration(&pa, &a, &pb, &b, &dir, &s).expect("touching");
    let contact = closest_points(&pa, &a, &pb, &b, &s);
    assert_eq!(h.t, 0.0, "the shapes only touch: {h:?}");
    assert!(contact.separation.abs() < 1e-6, "{contact:?}");
    let turn = (h.normal - contact.normal).norm();
    assert!(turn < 1e-5, "normal {:?} against the contact's {:?}", h.normal, contact.normal);
}

/// A triangle's corner 2.1e-5 from a box's edge, 50 m shapes at 1,300 m (`f64`): GJK stalled on
/// the rounding, and the exact test's axes for a pair apart, which include a vertex facing an
/// edge, took only the one edge per direction that a box lists for the crossings. The best
/// crossing fell 2.4e-9 short of the distance, tilted 0.015 rad, and its witness lay 3.2e-7
/// beyond the box. Every edge is now tried: the distance and both points are exact.
#[test]
fn a_corner_by_a_far_box_edge_gets_its_distance_and_points() {
    let seed = 0x5345_186a_d0bd_c5b9;
    let (pa, a, pb, b) = case3("triangle", "cuboid", "far", seed);
    let c = closest_points(&pa, &a, &pb, &b, &QuerySettings::default());
    // The oracle's exact distance (to the rounding of coordinates near 1e3).
    assert!((c.separation - 2.149_343_663_4e-5).abs() < 1e-11, "{c:?}");
    let Shape3::Cuboid(cuboid) = &b else { panic!("a box") };
    let q = pb.inverse_transform_point(&c.point_b);
    let beyond = (0..3).map(|k| q[k].abs() - cuboid.half_extents()[k]).fold(f64::MIN, f64::max);
    assert!(beyond.abs() < 1e-9, "point_b {beyond:e} off the box: {c:?}");
}

/// A 47 m sliver triangle 8.6e-3 deep in a rounded box 0.03 thick, nearly parallel to it
/// (`f32`): EPA's witnesses were clamped to its face, and the move onto both contact features
/// clipped the triangle's long edge by the box's face as a closed polygon of two points, which
/// left three collinear ones; every point of their line passed the inside test of the nearest
/// point, so the hint was kept 0.21 beyond the face's end, and the witness on the box lay 0.21
/// off it. The separation was right; both points must lie on their shapes.
#[test]
fn an_f32_sliver_triangle_in_a_thin_rounded_box_has_its_witnesses_on_both_shapes() {
    use kollide_hostile::cases::body;
    use kollide_hostile::oracle::{outside_by, sample_dirs, signed_distance};
    let seed = 0x3948_2678_1d80_a951;
    let c = generated("triangle", "rounded", "sliver", seed, true);
    let (Ok(Built3::S(a)), Ok(Built3::R(b))) = (build3::<f32>(&c.a), build3::<f32>(&c.b)) else {
        panic!("a triangle and a rounded box");
    };
    // The oracle sees the shapes and poses as `f32` builds them, as the suite does.
    let (pa, pose_a) = <Iso3<f32> as MakePose<f32, 3>>::make(&c.pose_a);
    let (pb, pose_b) = <Iso3<f32> as MakePose<f32, 3>>::make(&c.pose_b);
    let round = |x: f64| f64::from(x as f32);
    let (ba, bb) = (body(&c.a.map(&round), &pose_a), body(&c.b.map(&round), &pose_b));
    let dirs = sample_dirs::<3>(512);
    let truth = signed_distance(&ba, &bb, &dirs);
    assert!(truth.exact && (truth.lo + 8.5865e-3).abs() < 1e-7, "8.6e-3 deep: {truth:?}");
    let v = |p: &Point3<f32>| {
        kollide_hostile::geom::V::<3>::new(f64::from(p.x), f64::from(p.y), f64::from(p.z))
    };
    // The hostile suite's `f32` tolerance: 1e-3 of a hundredth of the pair's size (23.5).
    let scale = f64::from(a.bounding_radius().max(b.bounding_radius()));
    let tol = 1e-3 * 0.01 * scale;
    let s = QuerySettings::default();
    let k = contact(&pa, &a, &pb, &b, 0.0, &s).expect("overlapping");
    let cp = closest_points(&pa, &a, &pb, &b, &s);
    for k in [k, cp] {
        assert!((f64::from(k.separation) - truth.lo).abs() < tol, "{k:?}\n{truth:?}");
        let (oa, ob) =
            (outside_by(&ba, &v(&k.point_a), &dirs), outside_by(&bb, &v(&k.point_b), &dirs));
        assert!(oa.abs() < tol && ob.abs() < tol, "off A by {oa:e}, off B by {ob:e}: {k:?}");
    }
}

/// `f32`, a capsule 1.6e-2 deep in a hull of 1000 points 0.06 across (seed 6161): the witnesses
/// were moved onto both contact features, taken as every vertex within the length tolerance of
/// its supporting plane, floored at a size of 1 (3.5e-5). On the dense hull that was a cloud of
/// vertices down to 3.5e-5 below the plane, and the common point lifted onto the plane lay
/// 2.8e-5 outside the hull. The features are now held to the pair's own size.
#[test]
fn an_f32_capsule_in_a_small_dense_hull_has_its_witness_on_the_hull() {
    use kollide_hostile::cases::body;
    use kollide_hostile::oracle::{outside_by, sample_dirs};
    let c = generated("capsule", "polyhedron", "hull1000", 0x56d9_583f_92af_0f4b, true);
    let (Ok(Built3::S(a)), Ok(Built3::S(b))) = (build3::<f32>(&c.a), build3::<f32>(&c.b)) else {
        panic!("a capsule and a hull");
    };
    // The oracle sees the shapes and poses as `f32` builds them, as the suite does.
    let (pa, pose_a) = <Iso3<f32> as MakePose<f32, 3>>::make(&c.pose_a);
    let (pb, pose_b) = <Iso3<f32> as MakePose<f32, 3>>::make(&c.pose_b);
    let round = |x: f64| f64::from(x as f32);
    let (ba, bb) = (body(&c.a.map(&round), &pose_a), body(&c.b.map(&round), &pose_b));
    let dirs = sample_dirs::<3>(512);
    let v = |p: &Point3<f32>| {
        kollide_hostile::geom::V::<3>::new(f64::from(p.x), f64::from(p.y), f64::from(p.z))
    };
    let s = QuerySettings::default();
    let k = contact(&pa, &a, &pb, &b, 0.0, &s).expect("overlapping");
    let cp = closest_points(&pa, &a, &pb, &b, &s);
    for k in [k, cp] {
        // The hostile suite's `f32` tolerance: 1e-3 of the depth, 1.6e-5.
        let tol = 1e-3 * f64::from(k.separation).abs();
        assert!((f64::from(k.separation) + 1.62e-2).abs() < 1e-4, "{k:?}");
        let (oa, ob) =
            (outside_by(&ba, &v(&k.point_a), &dirs), outside_by(&bb, &v(&k.point_b), &dirs));
        assert!(oa < tol && ob < tol, "off A by {oa:e}, off B by {ob:e}: {k:?}");
    }
}

/// A cylinder's cap rim touching a cone near the end of its side (`f64`, 1.3e-10 apart): GJK
/// stalled, and the best normal was a flat one of the cone's side, whose witness on the cone
/// was the rim point projected onto the side's plane. That fell past the end of the side,
/// 2.1e-9 off the cone; GJK's witnesses, in both shapes, agree with the distance and are kept.
#[test]
fn witnesses_of_a_rim_on_a_cone_rim_lie_on_the_cone() {
    use kollide_hostile::cases::body;
    use kollide_hostile::oracle::{outside_by, sample_dirs};
    let seed = 0x208a_96a7_02d4_affb;
    let (pa, a, pb, b) = case3("cylinder", "cone", "touching", seed);
    let c = generated("cylinder", "cone", "touching", seed, false);
    let (ba, bb) = (body(&c.a, &c.pose_a), body(&c.b, &c.pose_b));
    let k = closest_points(&pa, &a, &pb, &b, &QuerySettings::default());
    assert!(k.separation.abs() < 1e-9, "the case touches: {k:?}");
    let v = |p: Point3<f64>| kollide_hostile::geom::V::<3>::new(p.x, p.y, p.z);
    let dirs = sample_dirs::<3>(256);
    let (off_a, off_b) =
        (outside_by(&ba, &v(k.point_a), &dirs), outside_by(&bb, &v(k.point_b), &dirs));
    let scale = a.bounding_radius().max(b.bounding_radius());
    assert!(off_a.abs().max(off_b.abs()) < 1e-9 * scale, "{off_a:e} {off_b:e}: {k:?}");
}

/// A hull's face over a triangle's, 2.6° from each other and 12° from the normal of an
/// edge-on-edge contact 1.4e-7 deep (`f64`): the manifold's clip, its side planes moved out by
/// the slack, kept the hull's corner the slackened planes made inside the triangle, and put it
/// back on the true corner, 1.8e-8 beyond the triangle's edge (and 4e-9 deeper than the exact
/// contact). A reference corner off the incident face now goes to the face clipped without
/// slack, here empty: the exact contact alone.
#[test]
fn a_hull_corner_past_a_triangle_edge_is_not_a_manifold_point() {
    use kollide::narrowphase::manifold3;
    use kollide_hostile::cases::body;
    let seed = 0xc85e_7add_101d_934c;
    let (pa, a, pb, b) = case3("polyhedron", "triangle", "near", seed);
    let c = generated("polyhedron", "triangle", "near", seed, false);
    let (ba, bb) = (body(&c.a, &c.pose_a), body(&c.b, &c.pose_b));
    let exact = contact(&pa, &a, &pb, &b, 0.0, &QuerySettings::default()).unwrap();
    assert!((exact.separation + 1.4148e-7).abs() < 1e-11, "{exact:?}");
    let m = manifold3::<f64, ()>(&pa, &a, &pb, &b, 0.0);
    assert!(!m.contacts().is_empty());
    let v = |p: Point3<f64>| kollide_hostile::geom::V::<3>::new(p.x, p.y, p.z);
    for k in m.contacts() {
        let (oa, ob) = (ba.sdf_upper(&v(k.point_a)), bb.sdf_upper(&v(k.point_b)));
        assert!(oa.abs().max(ob.abs()) < 1e-12, "off by {oa:e} and {ob:e}: {k:?}");
        assert!(k.separation >= exact.separation - 1e-12, "deeper than exact: {k:?}");
    }
}

/// A rounded box 1.5e-4 across 1e-5 into the side of a cone 1e4 times larger (`f64`): the
/// core's corner is 2.8e-6 from the cone's side, with the far end of one of its edges 2.6e-6
/// below the support plane. The refinement took the edge and the cone's generator as the
/// contact's active set, its solution gave the edge's far end a negative weight, and it gave
/// up; GJK's witnesses, a chord between two rim points, were kept, and both contact points
/// came out 2.5e-8 off their shapes. The refinement now drops that generator and solves again.
#[test]
fn a_tiny_rounded_box_corner_by_a_cone_side_has_its_points_on_both() {
    use kollide_hostile::cases::body;
    use kollide_hostile::oracle::{outside_by, sample_dirs};
    let c = generated("rounded", "cone", "ratio1e4", 0x7f57_c5fc_8993_d196, false);
    let (Ok(Built3::R(a)), Ok(Built3::S(b))) = (build3::<f64>(&c.a), build3::<f64>(&c.b)) else {
        panic!("a rounded box and a cone");
    };
    let (pa, pb) = (pose3::<f64>(&c.pose_a), pose3::<f64>(&c.pose_b));
    let k = contact(&pa, &a, &pb, &b, 0.0, &QuerySettings::default()).expect("overlapping");
    assert!(k.separation < -1e-5 && k.separation > -1.1e-5, "{k:?}");
    let dirs = sample_dirs::<3>(256);
    let v = |p: Point3<f64>| kollide_hostile::geom::V::<3>::new(p.x, p.y, p.z);
    let off_a = outside_by(&body(&c.a, &c.pose_a), &v(k.point_a), &dirs);
    let off_b = outside_by(&body(&c.b, &c.pose_b), &v(k.point_b), &dirs);
    assert!(off_a.abs() < 1e-12 && off_b.abs() < 1e-12, "{off_a:e}, {off_b:e} off: {k:?}");
}

/// Generated case `seed` in the sliver class, A of the kind named `a` and B a rounded box, built
/// in `f32` from inputs `f32` holds exactly.
struct SliverF32 {
    pa: Iso3<f32>,
    a: Built3<f32>,
    pb: Iso3<f32>,
    b: Rounded<Cuboid<f32, 3>, f32>,
    m: kollide_hostile::run::Motion<3>,
}

fn rounded_pair_f32(a: &str, seed: u64) -> SliverF32 {
    let c = generated(a, "rounded", "sliver", seed, true);
    let (Ok(sa), Ok(Built3::R(b))) = (build3::<f32>(&c.a), build3::<f32>(&c.b)) else {
        panic!("B is a rounded box");
    };
    let m = kollide_hostile::run::Motion::of::<f32>(&c);
    SliverF32 { pa: pose3(&c.pose_a), a: sa, pb: pose3(&c.pose_b), b, m }
}

/// Two nearly parallel rounded plates 28 m across, 30 m from the origin, pushed apart along a
/// direction (`f32`): the cast converged on a simplex that was a sliver, whose weights rounding
/// got wrong along the support plane, and its witnesses came out 7.8e-4 apart where the push
/// leaves the plates touching. The pair query at the exit point has them 3e-6 apart.
#[test]
fn an_f32_push_between_parallel_plates_has_witnesses_that_meet() {
    use kollide::narrowphase::directional_penetration;
    let SliverF32 { pa, a, pb, b, m } = rounded_pair_f32("rounded", 0x3efa_67c8_de1c_ace1);
    let Built3::R(a) = a else { panic!("A is a rounded box") };
    let dir = Vec3::new(m.dir[0] as f32, m.dir[1] as f32, m.dir[2] as f32);
    let h = directional_penetration(&pa, &a, &pb, &b, &dir, &QuerySettings::default())
        .expect("overlapping");
    let gap = (h.point_b - h.point_a).norm();
    assert!(gap < 2e-5, "witnesses {gap:e} apart: {h:?}");
}

/// A 50 m box plate cast onto a nearly parallel rounded plate (`f32`): as above, the converged
/// cast's witnesses were 8.2e-4 apart at the hit.
#[test]
fn an_f32_cast_onto_a_parallel_plate_has_witnesses_that_meet() {
    let SliverF32 { pa, a, pb, b, m } = rounded_pair_f32("cuboid", 0x4ff3_6e30_a214_036e);
    let Built3::S(a) = a else { panic!("A is a box") };
    let v = |x: &kollide_hostile::geom::V<3>| Vec3::new(x[0] as f32, x[1] as f32, x[2] as f32);
    let s = QuerySettings::default();
    let h = shape_cast(&pa, &v(&m.vel_a), &a, &pb, &v(&m.vel_b), &b, 1.0, &s).expect("a hit");
    let gap = (h.point_b - h.point_a).norm();
    assert!(gap < 2e-5, "witnesses {gap:e} apart: {h:?}");
}

/// Two nearly parallel box plates 60 m long, 100 m from the origin, meeting edge on edge
/// (`f32`): the closest points of the two edges, from a denominator `a·e − b²` that cancels for
/// nearly parallel segments, came out 0.068 m off along them, and the manifold's contact missed
/// `separation · normal` by 7.2e-4. Through cross products it misses by a few ulps of the
/// coordinates.
#[test]
fn an_f32_edge_contact_between_nearly_parallel_plates_keeps_its_identity() {
    let seed = 0x22bd_22e9_e780_b196;
    let (pa, a, pb, b) = case3_in::<f32>("cuboid", "cuboid", "sliver", seed, true);
    let m = manifold3::<f32, ()>(&pa, &a, &pb, &b, 0.0);
    let k = m.contacts().first().expect("the plates overlap");
    assert!(matches!(k.id.a, kollide::shapes::FeatureId::Edge(_)), "an edge contact: {m:?}");
    let miss = (k.point_b - k.point_a - m.normal * k.separation).norm();
    // 100 m out, an ulp of a coordinate is 7.6e-6.
    assert!(miss < 2e-5, "{miss:e} off the identity: {m:?}");
}
