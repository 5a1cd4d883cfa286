use kollide_math::{Iso3, Iso2, Vec3, Vec2, Rot3, Point2};
use kollide_narrowphase::*;
use kollide_shapes::{Cuboid, ConvexPolygon, Triangle};
use nalgebra::{Quaternion, UnitQuaternion};

#[test]
fn ex1() {
    let h = Vec3::new(1.8403647f32, 1.7992817, 0.52072513);
    let b = Cuboid::new(h).unwrap();
    let base = Iso3::<f32>::new(Vec3::new(0.62156, 1.98289, -1.44452), Vec3::new(-0.55663, 1.37908, -0.39351));
    let q = base.rotation.into_inner();
    let s = QuerySettings::<f32>::default();
    for k in -8..=8 {
        let f = 1.0 + k as f32 * f32::EPSILON;
        let q2 = Quaternion::new(q.w * f, q.i * f, q.j * f, q.k * f);
        let pose = Iso3::from_parts(base.translation, UnitQuaternion::new_unchecked(q2));
        let c = contact(&pose, &b, &pose, &b, 0.0, &s);
        let i = intersection_test(&pose, &b, &pose, &b, None, &s);
        let d = distance(&pose, &b, &pose, &b, &s);
        println!("k={k} contact={:?} inter={:?} dist={:?}", c.map(|c| (c.separation, c.status)), i, d);
    }
}

#[test]
fn ex1_trace() {
    use kollide_math::Pose;
    use kollide_shapes::MinkowskiDifference;
    let h = Vec3::new(1.8403647f32, 1.7992817, 0.52072513);
    let b = Cuboid::new(h).unwrap();
    let base = Iso3::<f32>::new(Vec3::new(0.62156, 1.98289, -1.44452), Vec3::new(-0.55663, 1.37908, -0.39351));
    let q = base.rotation.into_inner();
    let s = QuerySettings::<f32>::default();
    for k in [-4, -1, 2, 0] {
        let f = 1.0 + k as f32 * f32::EPSILON;
        let q2 = Quaternion::new(q.w * f, q.i * f, q.j * f, q.k * f);
        let pose = Iso3::from_parts(base.translation, UnitQuaternion::new_unchecked(q2));
        let pab = pose.inv_compose(&pose);
        println!("k={k} pab={:?}", pab);
        let md = MinkowskiDifference::new(&b, &b, pab);
        let g = gjk(&md, &pab.translation(), 0.0, s.tolerances.length(h.norm())*0.01, &s);
        println!("  outcome={:?} it={} status={:?}", g.outcome, g.iterations, g.status);
        for p in g.simplex.points() { println!("   {:?}", p.point); }
    }
}
