//! What a pair's manifold was computed from, so that a later step can tell whether it still
//! holds and, if so, carry it with the bodies instead of running the narrowphase again (Jolt's
//! body-pair cache does the same; Box2D v3 and rapier recycle contacts within a few centimetres).

use kollide_manifold::{MAX_CONTACTS, Manifold};
use kollide_math::{Point, Pose, Scalar, Vector};

use crate::{ContactImpulse, Dim, SolverDim};

/// What a pair's manifold was computed from, so that a later step can tell whether it still
/// holds (Jolt's body-pair cache does the same).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PairCache<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// B's pose in A's frame, and the speculative margin, when it was computed.
    relative: <Dim<D> as SolverDim<N, D>>::Pose,
    margin: N,
    /// The manifold's normal in A's frame and each contact's points in its body's frame (as
    /// [`Manifold::to_local`] puts them; ids and impulses stay in the pair's manifold).
    normal: Vector<N, D>,
    points: [[Point<N, D>; 2]; MAX_CONTACTS],
    /// The number of contacts; zero when there is nothing to reuse.
    len: u8,
}

impl<N: Scalar, const D: usize> PairCache<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// Whether the manifold still holds for B at `relative` (in A's frame) with `margin`: no
    /// point of B within `radius` of its origin has moved by `tolerance` or more as seen from
    /// A (a translation `Δt` and a turn by `θ` move such a point by at most
    /// `|Δt| + 2 sin(θ/2) · radius`), and the margin has not grown beyond the tolerance
    /// (a faster approach wants a wider margin, which may hold more contacts). With `about_a`,
    /// `radius` is A's and the points are A's, seen from B: the same relative motion, bounded
    /// about the other body, for a B (level geometry) whose own radius is far larger than the
    /// region where the two touch.
    pub(crate) fn fits(
        &self,
        relative: &<Dim<D> as SolverDim<N, D>>::Pose,
        margin: N,
        tolerance: N,
        radius: N,
        about_a: bool,
    ) -> bool {
        if self.len == 0 || margin > self.margin + tolerance {
            return false;
        }
        let shift = if about_a {
            (relative.inverse().translation() - self.relative.inverse().translation()).norm()
        } else {
            (relative.translation() - self.relative.translation()).norm()
        };
        let turn = Dim::<D>::rotation_delta(
            &Dim::<D>::rotation(relative),
            &Dim::<D>::rotation(&self.relative),
        );
        shift + Dim::<D>::rotation_chord(&turn) * radius < tolerance
    }

    /// The cache of the world-frame manifold `m` of bodies at `pose_a` and `pose_b` (B at
    /// `relative` in A's frame), computed with `margin`.
    pub(crate) fn of(
        m: &Manifold<N, D, ContactImpulse<N>>,
        pose_a: &<Dim<D> as SolverDim<N, D>>::Pose,
        pose_b: &<Dim<D> as SolverDim<N, D>>::Pose,
        relative: <Dim<D> as SolverDim<N, D>>::Pose,
        margin: N,
    ) -> Self {
        let mut points = [[Point::origin(); 2]; MAX_CONTACTS];
        for (p, c) in points.iter_mut().zip(m.contacts()) {
            *p = [
                pose_a.inverse_transform_point(&c.point_a),
                pose_b.inverse_transform_point(&c.point_b),
            ];
        }
        let normal = pose_a.inverse_transform_vector(&m.normal);
        Self { relative, margin, normal, points, len: m.len() as u8 }
    }

    /// Nothing to reuse.
    pub(crate) fn none(relative: <Dim<D> as SolverDim<N, D>>::Pose) -> Self {
        Self {
            relative,
            margin: N::zero(),
            normal: Vector::zeros(),
            points: [[Point::origin(); 2]; MAX_CONTACTS],
            len: 0,
        }
    }

    /// Nothing to reuse, and no pose recorded (a placeholder until the pair is updated).
    pub(crate) fn empty() -> Self {
        Self::none(Dim::<D>::pose_from(Vector::zeros(), Dim::<D>::rotation_identity()))
    }

    /// Moves the cached contacts with the bodies into `m`, which holds the same contacts (ids
    /// and impulses) from the step before: points back in the world, separations recomputed
    /// along the normal, as [`Manifold::to_world`] does.
    pub(crate) fn apply(
        &self,
        pose_a: &<Dim<D> as SolverDim<N, D>>::Pose,
        pose_b: &<Dim<D> as SolverDim<N, D>>::Pose,
        m: &mut Manifold<N, D, ContactImpulse<N>>,
    ) {
        let n = pose_a.transform_vector(&self.normal);
        m.normal = n;
        for (c, [pa, pb]) in m.contacts_mut().iter_mut().zip(&self.points) {
            c.point_a = pose_a.transform_point(pa);
            c.point_b = pose_b.transform_point(pb);
            c.separation = (c.point_b - c.point_a).dot(&n);
        }
    }
}

#[cfg(test)]
mod tests {
    use kollide_math::{Iso3, Vec3};
    use kollide_shapes::{BodyShape3, Cuboid};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// A manifold reused after a small relative motion against the one computed afresh: on
    /// random touching cuboid pairs moved by random amounts that `fits` accepts, the deepest
    /// separations agree within the tolerance (every point of B moved less than that) and the
    /// normals within the turn.
    #[test]
    fn reused_manifolds_agree_with_fresh_ones_within_the_tolerance() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut reused = 0;
        for _ in 0..8000 {
            let mut r = |lo: f64, hi: f64| rng.random_range(lo..hi);
            let size = |r: &mut dyn FnMut(f64, f64) -> f64| {
                Vec3::new(r(0.1, 1.0), r(0.1, 1.0), r(0.1, 1.0))
            };
            let a = BodyShape3::from(Cuboid::new(size(&mut r)).unwrap());
            let b = BodyShape3::from(Cuboid::new(size(&mut r)).unwrap());
            let pose_a = Iso3::new(
                Vec3::new(r(-5.0, 5.0), r(-5.0, 5.0), r(-5.0, 5.0)),
                Vec3::new(r(-2.0, 2.0), r(-2.0, 2.0), r(-2.0, 2.0)),
            );
            let rot_b = Vec3::new(r(-2.0, 2.0), r(-2.0, 2.0), r(-2.0, 2.0));
            // B placed so that the pair overlaps a little or nearly touches.
            let dir = Vec3::new(r(-1.0, 1.0), r(-1.0, 1.0), r(-1.0, 1.0)).normalize();
            let reach = a.bounding_radius() + b.bounding_radius();
            let mut pose_b =
                Iso3::new(pose_a.translation.vector + dir * reach * r(0.3, 0.8), rot_b);
            let margin = 0.04;
            let m0 = Dim::<3>::manifold(&pose_a, &a, &pose_b, &b, margin);
            if m0.is_empty() {
                continue;
            }
            let relative = pose_a.inv_compose(&pose_b);
            let cache = PairCache::<f64, 3>::of(&m0, &pose_a, &pose_b, relative, margin);
            // A small random motion of B.
            let step = r(0.0, 2e-3);
            let turn = r(0.0, 2e-3);
            pose_b = Iso3::new(
                pose_b.translation.vector
                    + Vec3::new(r(-1.0, 1.0), r(-1.0, 1.0), r(-1.0, 1.0)).normalize() * step,
                Vec3::zeros(),
            ) * Iso3::rotation(
                Vec3::new(r(-1.0, 1.0), r(-1.0, 1.0), r(-1.0, 1.0)).normalize() * turn,
            ) * Iso3::rotation(rot_b);
            let tolerance = 1e-3;
            let relative = pose_a.inv_compose(&pose_b);
            if !cache.fits(&relative, margin, tolerance, b.bounding_radius(), false) {
                continue;
            }
            reused += 1;
            let mut kept = m0;
            cache.apply(&pose_a, &pose_b, &mut kept);
            let fresh = Dim::<3>::manifold(&pose_a, &a, &pose_b, &b, margin);
            let deepest =
                |m: &Manifold<f64, 3, ContactImpulse<f64>>| m.min_separation().unwrap_or(margin);
            assert!(
                (deepest(&kept) - deepest(&fresh)).abs() <= tolerance + 1e-9 || fresh.is_empty(),
                "deepest separation {} reused against {} fresh",
                deepest(&kept),
                deepest(&fresh)
            );
            if !fresh.is_empty() {
                let angle = kept.normal.dot(&fresh.normal).clamp(-1.0, 1.0).acos();
                assert!(angle < 1e-2, "normals {} apart", angle);
            }
        }
        assert!(reused > 500, "only {reused} pairs reused");
    }
}
