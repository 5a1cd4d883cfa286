//! The scene of the world query benches (`queries`, `tree_update`): 10,000 bodies, boxes and
//! balls (discs in 2D), at seeded places in a square (2D) or a cube (3D).

use kollide_benches::rng;
use rand::Rng;

/// Bodies in the scene.
pub const BODIES: usize = 10_000;

/// The side of the 2D scene's square (m).
pub const SIDE: f32 = 1000.0;

/// The side of the 3D scene's cube (m): 10,000 bodies in it are as dense per ray as the 2D
/// scene's (about 0.7 hits per ray of length 50).
pub const SIDE_3D: f32 = 100.0;

/// One body of the scene: centre, and half extents (a box) or radius (a disc or a ball).
#[derive(Clone, Copy)]
pub enum Body<const D: usize> {
    /// A box: centre and half extents.
    Box([f32; D], [f32; D]),
    /// A ball or a disc: centre and radius.
    Ball([f32; D], f32),
}

impl<const D: usize> Body<D> {
    /// Centre and half extents of the body's AABB.
    pub fn aabb(&self) -> ([f32; D], [f32; D]) {
        match *self {
            Body::Box(c, h) => (c, h),
            Body::Ball(c, r) => (c, [r; D]),
        }
    }
}

/// A point drawn uniformly in the cube of side `side` about the origin.
pub fn point<const D: usize>(r: &mut impl Rng, side: f32) -> [f32; D] {
    core::array::from_fn(|_| r.random::<f32>() * side - side / 2.0)
}

/// The [`BODIES`] bodies (seed 16) in the cube of side `side`: half extents or radii in
/// [0.25, 1.5] m.
pub fn scene<const D: usize>(side: f32) -> Vec<Body<D>> {
    let mut r = rng(16);
    (0..BODIES)
        .map(|_| {
            let c = point(&mut r, side);
            let is_box = r.random::<bool>();
            let mut size = || 0.25 + r.random::<f32>() * 1.25;
            if is_box {
                Body::Box(c, core::array::from_fn(|_| size()))
            } else {
                Body::Ball(c, size())
            }
        })
        .collect()
}
