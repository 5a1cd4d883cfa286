//! [`Ortho`]: an orthographic projection of 3D world points onto a 2D drawing plane, so that 3D
//! shapes draw through the same [`DebugDraw`](crate::DebugDraw) as 2D ones.
//!
//! The camera looks at the scene from the unit direction `toward_viewer`, given by a yaw about the
//! world y axis and a pitch above the xz plane; world y projects to screen up. A point `p` maps to
//! `(p · right, p · up)`, and `p · toward_viewer` is its depth (larger is nearer), which drawing
//! code uses to dash hidden edges.

use kollide_math::{Point2, Point3, Scalar, Vec3};

/// An orthographic view: a right-handed screen basis `right × up = toward_viewer`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ortho<N: Scalar> {
    /// World direction that maps to screen x.
    pub right: Vec3<N>,
    /// World direction that maps to screen y.
    pub up: Vec3<N>,
    /// Unit direction from the scene towards the viewer.
    pub toward_viewer: Vec3<N>,
}

impl<N: Scalar> Ortho<N> {
    /// A view from yaw `yaw` (radians about world y, 0 looks down −z) and pitch `pitch` (radians
    /// above the horizon).
    pub fn new(yaw: N, pitch: N) -> Self {
        let (sy, cy) = (yaw.sin(), yaw.cos());
        let (sp, cp) = (pitch.sin(), pitch.cos());
        let toward_viewer = Vec3::new(cp * sy, sp, cp * cy);
        let right = Vec3::new(cy, N::zero(), -sy);
        let up = toward_viewer.cross(&right);
        Self { right, up, toward_viewer }
    }

    /// The view used by kollide's figures: 35° to the right, 25° from above.
    pub fn standard() -> Self {
        Self::new(N::lit(35f64.to_radians()), N::lit(25f64.to_radians()))
    }

    /// The screen position of a world point.
    pub fn project(&self, p: &Point3<N>) -> Point2<N> {
        Point2::new(p.coords.dot(&self.right), p.coords.dot(&self.up))
    }

    /// The depth of a world point: larger is nearer the viewer.
    pub fn depth(&self, p: &Point3<N>) -> N {
        p.coords.dot(&self.toward_viewer)
    }

    /// The world direction of a screen direction `(x, y)`.
    pub fn unproject_dir(&self, x: N, y: N) -> Vec3<N> {
        self.right * x + self.up * y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_view_is_xy() {
        let o = Ortho::<f64>::new(0.0, 0.0);
        let p = o.project(&Point3::new(1.0, 2.0, 3.0));
        assert!((p - Point2::new(1.0, 2.0)).norm() < 1e-15);
        assert!((o.depth(&Point3::new(0.0, 0.0, 3.0)) - 3.0).abs() < 1e-15);
    }

    #[test]
    fn basis_is_orthonormal_and_right_handed() {
        let o = Ortho::<f64>::standard();
        assert!((o.right.norm() - 1.0).abs() < 1e-12);
        assert!((o.up.norm() - 1.0).abs() < 1e-12);
        assert!(o.right.dot(&o.up).abs() < 1e-12);
        assert!((o.right.cross(&o.up) - o.toward_viewer).norm() < 1e-12);
        assert!(o.up.y > 0.0, "world y points up on screen");
    }
}
