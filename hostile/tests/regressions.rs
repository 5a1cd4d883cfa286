//! Single cases the suite found, kept as tests of the library: each names what was wrong.

use kollide::prelude::*;
use kollide_hostile::cases::{Class, Kind, generate};
use kollide_hostile::run::{Built3, MakePose, build3};

/// A pair of generated case `seed`, built in `f64`.
fn case3(
    a: &str,
    b: &str,
    class: &str,
    seed: u64,
) -> (Iso3<f64>, Shape3<f64>, Iso3<f64>, Shape3<f64>) {
    let kind = |s: &str| *Kind::all(3).iter().find(|k| k.name(3) == s).unwrap();
    let class = *Class::ALL.iter().find(|k| k.name() == class).unwrap();
    let c = generate::<3>(kind(a), kind(b), class, seed, false);
    let (Ok(Built3::S(sa)), Ok(Built3::S(sb))) = (build3::<f64>(&c.a), build3::<f64>(&c.b)) else {
        panic!("not plain shapes");
    };
    let (pa, _) = <Iso3<f64> as MakePose<f64, 3>>::make(&c.pose_a);
    let (pb, _) = <Iso3<f64> as MakePose<f64, 3>>::make(&c.pose_b);
    (pa, sa, pb, sb)
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
