//! kollide poses as parry poses, shared by the benches that compare with parry.

use kollide::math::{Iso2, Iso3};

/// A 2D pose for parry2d.
pub fn parry_pose2(p: &Iso2<f32>) -> parry2d::math::Pose {
    let t = p.translation.vector;
    parry2d::math::Pose::new(parry2d::math::Vector::new(t.x, t.y), p.rotation.angle())
}

/// A 3D pose for parry3d.
pub fn parry_pose3(p: &Iso3<f32>) -> parry3d::math::Pose {
    let t = p.translation.vector;
    let q = p.rotation.quaternion();
    parry3d::math::Pose::from_parts(
        parry3d::math::Vector::new(t.x, t.y, t.z),
        parry3d::math::Rot3::from_xyzw(q.i, q.j, q.k, q.w),
    )
}
