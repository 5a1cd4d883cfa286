//! `local_core_normal_toward` against the direction from the projection: for points well away
//! from a cone or a cylinder, where the direction from the projection is accurate, the two agree
//! wherever the boundary is smooth, and there is no normal beyond a rim or an apex.

use kollide_math::{Point3, Vec3};
use kollide_shapes::{Cone, Cylinder, Shape3, SupportMap};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[test]
fn core_normals_agree_with_the_direction_from_the_projection() {
    let mut r = ChaCha8Rng::seed_from_u64(3);
    let shapes: [Shape3<f64>; 2] =
        [Cylinder::new(1.5, 0.8).unwrap().into(), Cone::new(1.2, 0.9).unwrap().into()];
    for s in &shapes {
        let (mut smooth, mut corner) = (0, 0);
        for _ in 0..5000 {
            let p = Point3::from(Vec3::new(1.0, 1.0, 1.0).map(|_: f64| r.random_range(-4.0..4.0)));
            let Some(q) = s.local_core_projection(&p) else { continue };
            let d = p - q;
            if d.norm() < 0.1 {
                continue;
            }
            match s.local_core_normal_toward(&p) {
                Some(m) => {
                    assert!((m.norm() - 1.0).abs() < 1e-12);
                    let off = (m - d / d.norm()).norm();
                    assert!(off < 1e-9, "{s:?} at {p:?}: normal {m:?}, direction {d:?}");
                    smooth += 1;
                }
                None => corner += 1,
            }
        }
        assert!(smooth > 1000 && corner > 100, "{s:?}: {smooth} smooth, {corner} corners");
    }
}
