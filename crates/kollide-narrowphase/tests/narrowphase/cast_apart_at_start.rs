//! Shape casts between shapes that start apart and recede (or meet only after `max_toi`), in
//! `f32`, from the hostile suite's reproducers (`hostile/`, issue 12): each returned a hit at
//! `t = 0` with a zero normal. Two causes, both in `cast.rs`:
//!
//! * the cast's tolerance was floored at an absolute `1e-7`-ish length (`Tolerances::length`
//!   floors the scale at `1`), a sizeable fraction of centimetre shapes: a gap of `3e-7` between
//!   `2 cm` shapes counted as touching;
//! * a cast that stalled at its start (the support point already in the simplex, rounding in a
//!   small `v`) took the stall for contact when `|v|` was within a hundred tolerances, whatever
//!   the direction of motion.
//!
//! Each case is checked against the exact separation (`distance`, which agrees with the hostile
//! suite's SAT oracle) and the direction of motion, so the test fails if the pair stops being the
//! hostile one (shapes apart, not approaching).

use kollide_math::{Iso2, Iso3, Point2, Point3, Vec2, Vec3};
use kollide_narrowphase::{QuerySettings, distance, shape_cast};
use kollide_shapes::{Capsule, ConvexPolygon, ConvexPolyhedron, Cuboid, Segment, Triangle};
use nalgebra::{Complex, Quaternion, Translation2, Translation3, UnitComplex, UnitQuaternion};

fn pose2(t: [f64; 2], r: [f64; 2]) -> Iso2<f32> {
    Iso2::from_parts(
        Translation2::new(t[0] as f32, t[1] as f32),
        UnitComplex::new_normalize(Complex::new(r[0] as f32, r[1] as f32)),
    )
}

fn pose3(t: [f64; 3], q: [f64; 4]) -> Iso3<f32> {
    let [w, i, j, k] = q.map(|x| x as f32);
    Iso3::from_parts(
        Translation3::new(t[0] as f32, t[1] as f32, t[2] as f32),
        UnitQuaternion::new_normalize(Quaternion::new(w, i, j, k)),
    )
}

fn v2(v: [f64; 2]) -> Vec2<f32> {
    Vec2::new(v[0] as f32, v[1] as f32)
}

fn p2(v: [f64; 2]) -> Point2<f32> {
    Point2::from(v2(v))
}

fn v3(v: [f64; 3]) -> Vec3<f32> {
    Vec3::new(v[0] as f32, v[1] as f32, v[2] as f32)
}

fn p3(v: [f64; 3]) -> Point3<f32> {
    Point3::from(v3(v))
}

/// The pair is apart by at least `min_gap` at the start.
fn assert_apart(d: f32, min_gap: f32) {
    assert!(d >= min_gap, "the pair is no longer apart: distance {d:e}");
}

#[test]
fn receding_centimetre_box_and_capsule_do_not_hit() {
    let s = QuerySettings::default();
    let a = Cuboid::new(v2([0.007476505357772112, 0.006229556631296873])).unwrap();
    let pa = pose2(
        [-0.008262747750494579, 0.012904225750039248],
        [0.8035327508201062, -0.5952605466175909],
    );
    let b = Capsule::new(
        p2([0.0165083110332489, -0.007564999628812075]),
        p2([-0.015348339453339577, 0.006815655156970024]),
        0.004126599989831448_f64 as f32,
    )
    .unwrap();
    let pb = pose2(
        [-0.011928856260778506, 0.026539237181627262],
        [0.8944135927857442, 0.447240790894678],
    );
    // Exact gap 3.135e-7 (hostile oracle), 1.5e-5 of the shapes' size.
    assert_apart(distance(&pa, &a, &pb, &b, &s).0, 3.0e-7);
    let vb = v2([-0.005438263062387705, 0.024746354669332504]);
    let hit = shape_cast(&pa, &Vec2::zeros(), &a, &pb, &vb, &b, 1.0, &s);
    assert!(hit.is_none(), "{hit:?}");
}

#[test]
fn receding_box_and_triangle_stalled_at_the_start_do_not_hit() {
    let s = QuerySettings::default();
    let a = Cuboid::new(v2([0.24477346241474152, 0.2724863886833191])).unwrap();
    let pa =
        pose2([3.355950006470123, 1.0420805028815379], [0.8910908566345168, 0.4538249499778113]);
    let b = Triangle::new(
        p2([-0.07011332362890244, 0.19830061495304108]),
        p2([0.043104879558086395, -0.28319308161735535]),
        p2([0.1844693273305893, 0.1920020878314972]),
    )
    .unwrap();
    let pb =
        pose2([3.0561381700225665, 1.4669658584694627], [0.6345005786312246, 0.7729223866059524]);
    // Exact gap 1.05e-5.
    assert_apart(distance(&pa, &a, &pb, &b, &s).0, 1.0e-5);
    let va = v2([0.12349636107683182, 0.11821938306093216]);
    let vb = v2([-0.3880046308040619, 0.967126190662384]);
    let hit = shape_cast(&pa, &va, &a, &pb, &vb, &b, 1.0, &s);
    assert!(hit.is_none(), "{hit:?}");
}

#[test]
fn receding_segment_and_polygon_do_not_hit() {
    let s = QuerySettings::default();
    let a = Segment::new(
        p2([0.01484854519367218, -0.0413861908018589]),
        p2([-0.005758457351475954, 0.04696124419569969]),
    )
    .unwrap();
    let pa = pose2(
        [-0.011227598034078497, 0.018951722938561424],
        [0.2315612531317603, 0.9728203256758408],
    );
    let pts = [
        [0.013348786160349846, 0.013156251050531864],
        [-0.004593566060066223, 0.007769258692860603],
        [-0.031591419130563736, -0.02287546545267105],
        [-0.011387763544917107, 0.025782842189073563],
        [-0.0035223534796386957, -0.020077738910913467],
        [0.004003761801868677, 0.039406780153512955],
    ]
    .map(p2);
    let b = ConvexPolygon::from_hull(&pts).unwrap();
    let pb = pose2(
        [-0.0775919840028991, 0.04598688650328397],
        [0.11226253684706843, 0.9936785812427782],
    );
    // Exact gap 1.31e-6.
    assert_apart(distance(&pa, &a, &pb, &b, &s).0, 1.2e-6);
    let vb = v2([-0.0963161513209343, 0.022838473320007324]);
    let hit = shape_cast(&pa, &Vec2::zeros(), &a, &pb, &vb, &b, 1.0, &s);
    assert!(hit.is_none(), "{hit:?}");
}

#[test]
fn receding_small_box_next_to_a_large_hull_does_not_hit() {
    let s = QuerySettings::default();
    let pts = [
        [-32.85932159423828, -60.422542572021484, -76.12357330322266],
        [55.00106430053711, -1.2959953546524048, 5.975165367126465],
        [-46.67562484741211, -36.962074279785156, -66.21571350097656],
        [41.273529052734375, -17.138980865478516, -8.534541130065918],
        [-36.6229133605957, 12.9447603225708, 68.97272491455078],
        [-58.851234436035156, -69.76688385009766, 22.807716369628906],
        [4.7180399894714355, -4.340148448944092, 66.2168197631836],
    ]
    .map(p3);
    let a = ConvexPolyhedron::from_points(&pts).unwrap();
    let pa = pose3(
        [-17.809201250984994, 26.03792012968416, 33.761275048481124],
        [-0.18891150322106798, 0.325185685700633, -0.46395099901159215, -0.8020699372762399],
    );
    let b =
        Cuboid::new(v3([0.00516193313524127, 0.003551918314769864, 0.009552864357829094])).unwrap();
    let pb = pose3(
        [17.6085305766686, 61.826694703675166, 22.968736705566187],
        [-0.3715344807433644, 0.30262497135790817, 0.2502746436013479, 0.8412745444262546],
    );
    // Exact gap 2.18e-3 (a 1e4:1 pair).
    assert_apart(distance(&pa, &a, &pb, &b, &s).0, 2.0e-3);
    let va = v3([-1.6455084085464478, 0.5845250487327576, -7.444868087768555]);
    let vb = v3([19.41060447692871, 35.03757095336914, -12.426705360412598]);
    let hit = shape_cast(&pa, &va, &a, &pb, &vb, &b, 1.0, &s);
    assert!(hit.is_none(), "{hit:?}");
}

#[test]
fn receding_segment_beside_a_sliver_triangle_does_not_hit() {
    let s = QuerySettings::default();
    let a = Triangle::new(
        p3([-5.433692455291748, 0.0, 0.0]),
        p3([5.433692455291748, -0.0, -0.0]),
        p3([-0.3886233866214752, 0.004002233501523733, 0.0036194028798490763]),
    )
    .unwrap();
    let pa = pose3(
        [-0.17644247901997595, 0.8256444346714819, -2.0930060169394857],
        [-0.26164989541918793, 0.05471932565317609, 0.16324702027779225, -0.949681808816833],
    );
    let b = Segment::new(
        p3([2.3119540214538574, 0.10487953573465347, -3.7188398838043213]),
        p3([-3.245739221572876, -0.22746695578098297, 3.6221461296081543]),
    )
    .unwrap();
    let pb = pose3(
        [0.6566524674652672, -1.017126447361795, 1.4760631577634993],
        [-0.2576795373536331, 0.054748347403906786, 0.1637778846871764, -0.9506738026122065],
    );
    // Exact gap 1.75e-4.
    assert_apart(distance(&pa, &a, &pb, &b, &s).0, 1.6e-4);
    let vb = v3([1.9464010000228882, -3.26035737991333, 5.941830635070801]);
    let hit = shape_cast(&pa, &Vec3::zeros(), &a, &pb, &vb, &b, 1.0, &s);
    assert!(hit.is_none(), "{hit:?}");
}

/// A 4 mm box 1.4 mm from a 42 m one, 60 m from the origin, in `f32` (hostile seed 7, case
/// 0x2fb37a6aafbe5793), B moving away: GJK's simplex at the start held the origin, a sliver
/// misjudged by rounding, and the cast reported an overlap at `t = 0`. The pair query, with its
/// exact fallback, now has the last word on an overlap at the start.
#[test]
fn millimetre_box_beside_a_huge_one_far_out_does_not_hit() {
    let s = QuerySettings::default();
    let rot = |re: f32, im: f32| UnitComplex::new_unchecked(Complex::new(re, im));
    let a =
        Cuboid::new(Vec2::new(0.004102129489183426_f64 as f32, 0.0026256137061864138_f64 as f32))
            .unwrap();
    let pa = Iso2::from_parts(Translation2::new(-5.2354374, 57.69608), rot(0.25354472, 0.96732366));
    let b =
        Cuboid::new(Vec2::new(42.16203689575195_f64 as f32, 17.02566146850586_f64 as f32)).unwrap();
    let pb =
        Iso2::from_parts(Translation2::new(-13.535722, 72.62005), rot(-0.9068889, -0.42136994));
    assert_apart(distance(&pa, &a, &pb, &b, &s).0, 1.3e-3);
    let vb = Vec2::new(-13.086043, 23.528803);
    let hit = shape_cast(&pa, &Vec2::zeros(), &a, &pb, &vb, &b, 1.0, &s);
    assert!(hit.is_none(), "{hit:?}");
}
