//! The oracles on cases with known answers, and the checks on answers known to be wrong: the
//! suite can fail.

use kollide_hostile::cases::{Desc, PoseDesc, body};
use kollide_hostile::check::{Ctx, Fail, Tol, check};
use kollide_hostile::geom::{Body, Core, V};
use kollide_hostile::oracle::{directional_depth, sample_dirs, signed_distance, time_of_impact};
use kollide_hostile::run::{ContactOut, Motion, Outputs, Query};

fn v3(x: f64, y: f64, z: f64) -> V<3> {
    V::<3>::new(x, y, z)
}

fn at(t: V<3>) -> PoseDesc<3> {
    PoseDesc { t, rot: [1.0, 0.0, 0.0, 0.0], ulp_k: 0 }
}

fn cube(t: V<3>) -> Body<3> {
    body(&Desc::Cuboid { h: v3(1.0, 1.0, 1.0) }, &at(t))
}

#[test]
fn polytope_distances_are_exact() {
    let dirs = sample_dirs::<3>(64);
    let apart = signed_distance(&cube(V::zeros()), &cube(v3(3.0, 0.0, 0.0)), &dirs);
    assert!(apart.exact && (apart.lo - 1.0).abs() < 1e-12, "{apart:?}");
    let deep = signed_distance(&cube(V::zeros()), &cube(v3(1.5, 0.2, 0.0)), &dirs);
    assert!(deep.exact && (deep.lo + 0.5).abs() < 1e-12, "{deep:?}");
    // Edge to edge: the closest direction is no face normal.
    let ball = body(&Desc::Ball { r: 0.5 }, &at(v3(2.0, 2.0, 0.0)));
    let edge = signed_distance(&cube(V::zeros()), &ball, &dirs);
    assert!(edge.exact && (edge.lo - (2f64.sqrt() - 0.5)).abs() < 1e-12, "{edge:?}");
}

/// Two segments on one line touch (no radius), whether identical or overlapping in part: their
/// Minkowski difference is a segment through the origin, whose perpendiculars attain `0`.
#[test]
fn collinear_segments_touch() {
    let dirs = sample_dirs::<3>(64);
    let seg = |a: V<3>, b: V<3>| body(&Desc::Segment { a, b }, &at(v3(0.3, -0.2, 0.1)));
    let (p, q) = (v3(-0.08, -0.54, -0.75), v3(-0.1, 0.56, 1.06));
    let same = signed_distance(&seg(p, q), &seg(p, q), &dirs);
    assert!(same.exact && same.lo.abs() < 1e-12, "{same:?}");
    let part = signed_distance(&seg(p, q), &seg(p + (q - p) * 0.5, q * 2.0 - p), &dirs);
    assert!(part.exact && part.lo.abs() < 1e-12, "{part:?}");
    let apart = signed_distance(&seg(p, q), &seg(q * 2.0 - p, q * 3.0 - p * 2.0), &dirs);
    assert!(apart.exact && (apart.lo - (q - p).norm()).abs() < 1e-12, "{apart:?}");
}

#[test]
fn curved_distances_are_bracketed_tightly() {
    let dirs = sample_dirs::<3>(256);
    let cyl = body(&Desc::Cylinder { hh: 1.0, r: 1.0 }, &at(V::zeros()));
    let ball = body(&Desc::Ball { r: 0.5 }, &at(v3(3.0, 0.0, 0.0)));
    let t = signed_distance(&cyl, &ball, &dirs);
    assert!(!t.exact && (t.lo - 1.5).abs() < 1e-9 && t.hi >= 1.5 - 1e-12, "{t:?}");
    // Nested: the upper bound proves the overlap.
    let inside = body(&Desc::Ball { r: 0.1 }, &at(v3(0.0, 0.2, 0.0)));
    let t = signed_distance(&cyl, &inside, &dirs);
    assert!(t.hi < -0.5 && t.lo <= t.hi, "{t:?}");
    let cone =
        Body::new(Core::Cone { c: V::zeros(), axis: v3(0.0, 1.0, 0.0), hh: 1.0, r: 1.0 }, 0.0);
    assert!((cone.sdf_upper(&v3(0.0, 3.0, 0.0)) - 2.0).abs() < 1e-12);
    assert!((cone.sdf_upper(&v3(0.0, -1.5, 0.0)) - 0.5).abs() < 1e-12);
}

#[test]
fn casts_and_pushes_are_exact_for_polytopes() {
    let dirs = sample_dirs::<3>(64);
    let (a, b) = (cube(V::zeros()), cube(v3(5.0, 0.0, 0.0)));
    let toi = time_of_impact(&a, &b, &v3(-2.0, 0.0, 0.0), 2.0, 1e-9, &dirs);
    assert!(toi.exact && toi.hit == Some(true) && (toi.lo - 1.5).abs() < 1e-12, "{toi:?}");
    let away = time_of_impact(&a, &b, &v3(2.0, 0.1, 0.0), 2.0, 1e-9, &dirs);
    assert_eq!(away.hit, Some(false));
    let (depth, exact) = directional_depth(&a, &cube(v3(1.5, 0.0, 0.0)), &v3(1.0, 0.0, 0.0), &dirs);
    assert!(exact && (depth - 0.5).abs() < 1e-12);
}

fn outputs(hit: bool, c: ContactOut<3>) -> Outputs<3> {
    Outputs {
        intersect: Ok(hit),
        contact: Ok(Some(c)),
        contact_flip: Ok(Some(ContactOut { pa: c.pb, pb: c.pa, n: -c.n, sep: c.sep })),
        closest: Ok(c),
        distance: Ok(0.0),
        manifold: None,
        directional: Ok(None),
        cast: Ok(None),
        ray: Ok(None),
        times: [0.0; 8],
    }
}

#[test]
fn the_checks_catch_wrong_answers() {
    let dirs = sample_dirs::<3>(128);
    let (a, b) = (cube(V::zeros()), cube(v3(1.5, 0.0, 0.0)));
    let m = Motion {
        vel_a: V::zeros(),
        vel_b: V::zeros(),
        dir: v3(1.0, 0.0, 0.0),
        ray_origin: v3(9.0, 9.0, 9.0),
        ray_dir: V::zeros(),
    };
    let tol = Tol {
        f32: false,
        eps: f64::EPSILON,
        scale: 2.0,
        offset: 2.0,
        ulp_k: 0.0,
        built: 0.0,
        built_a: 0.0,
    };
    let cx = Ctx { a: &a, b: &b, m: &m, dirs: &dirs, tol };
    let right = ContactOut {
        pa: v3(1.0, 0.0, 0.0),
        pb: v3(0.5, 0.0, 0.0),
        n: v3(1.0, 0.0, 0.0),
        sep: -0.5,
    };
    let found = check(&outputs(true, right), &cx);
    let has = |f: &[(Query, Fail, String)], q: Query, k: Fail| {
        f.iter().any(|(q2, k2, _)| *q2 == q && *k2 == k)
    };
    // The right answer passes every contact check; the push is missing (overlap, but None).
    assert!(
        !found.iter().any(|(q, _, _)| *q == Query::Contact || *q == Query::ClosestPoints),
        "{found:?}"
    );
    assert!(has(&found, Query::Directional, Fail::SilentMiss), "{found:?}");
    // A silent miss, a wrong depth, a normal that does not attain it, broken identities.
    let wrong = ContactOut { sep: -0.4, ..right };
    let found = check(&outputs(false, wrong), &cx);
    assert!(has(&found, Query::Intersection, Fail::SilentMiss), "{found:?}");
    assert!(has(&found, Query::Contact, Fail::Error), "{found:?}");
    assert!(has(&found, Query::Contact, Fail::Attain), "{found:?}");
    assert!(has(&found, Query::Contact, Fail::Identity), "{found:?}");
    let tilted = ContactOut { n: v3(1.0, 0.1, 0.0).normalize(), ..right };
    let found = check(&outputs(true, tilted), &cx);
    assert!(has(&found, Query::ClosestPoints, Fail::Attain), "{found:?}");
    let nan = ContactOut { sep: f64::NAN, ..right };
    assert!(has(&check(&outputs(true, nan), &cx), Query::Contact, Fail::NaN));
}

/// A cone seen almost face-on: the support of its base along `n` is `hh + r·|n⊥|`, where `n⊥`,
/// the part of `n` across the axis, is a billionth of `n`. Computed as `√(|n|² − (axis·n)²)` it
/// cancels to zero (or to rounding noise of `√ε`), an error of `r·1e-9` in the support.
#[test]
fn cone_support_face_on_keeps_the_rim() {
    let (hh, r, d): (f64, f64, f64) = (1.0, 2.0, 1e-9);
    let cone = body(&Desc::Cone { hh, r }, &at(V::zeros()));
    let len = (1.0 + d * d).sqrt();
    let n = v3(d / len, -1.0 / len, 0.0);
    let exact = (hh + r * d) / len;
    assert!((cone.h(&n) - exact).abs() < 1e-15, "h = {:e}, exact {exact:e}", cone.h(&n));
}

/// The hostile suite's `ulp-rot` polyhedron–cone case (seed 0xa31935f63b9ebc05): the cone's base
/// faces one of the hull's faces. The support gap along the best direction, in 50-digit decimal
/// arithmetic, is −2.2642665e-8 (the shapes overlap; kollide reports −2.26427e-8). With the
/// cancelling `|n⊥|` the oracle read the gap as +3.6e-8, "apart", and charged kollide's contact
/// as a false hit.
#[test]
fn face_on_cone_overlap_is_seen() {
    let q = |w, i, j, k| [w, i, j, k];
    let hull = Desc::Hull {
        pts: vec![
            v3(1.7141960779156669, 3.157061296463379, 2.956688523820978),
            v3(2.336456493822339, -0.5882987800363965, 1.9600988971237887),
            v3(-3.096330120401809, 0.6240024451830216, 3.520542234673738),
            v3(-2.5831792578269033, -1.532307716330635, -4.078209478530828),
            v3(-1.58103323144956, -4.234484947408766, 1.9916793502499248),
        ],
        inner: 0,
    };
    let pose_a = PoseDesc {
        t: v3(2.6172135811778516, 6.058100994463354, 4.053318252593802),
        rot: q(0.04245082007463729, 0.586177571638291, -0.7820250829796269, -0.2074380678032234),
        ulp_k: 4,
    };
    let cone = Desc::Cone { hh: 2.861805840453543, r: 4.62748652717049 };
    let pose_b = PoseDesc {
        t: v3(3.6925420404687457, 2.458455941489811, -0.283394126256978),
        rot: q(0.07043728986292214, 0.6865379586580518, 0.24891471574449958, -0.6795187148300161),
        ulp_k: 4,
    };
    let (a, b) = (body(&hull, &pose_a), body(&cone, &pose_b));
    let n = v3(0.4375057150218797, -0.8661601049652035, -0.2415686690981709);
    let g = kollide_hostile::oracle::gap(&a, &b, &n);
    assert!((g + 2.2642665e-8).abs() < 1e-13, "gap {g:e}");
    let sd = signed_distance(&a, &b, &sample_dirs::<3>(512));
    assert!(sd.lo < 0.0 && (sd.lo + 2.2642665e-8).abs() < 1e-12, "{sd:?}");
    // The upper bound (a point inside both shapes) proves the overlap.
    assert!(sd.hi >= sd.lo && sd.hi < 0.0, "{sd:?}");
}
