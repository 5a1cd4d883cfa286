//! The 3D manifold dispatcher: one entry point for every pair of [`Shape3`]s.
//!
//! Pairs with a specialised routine get it; a swapped pair calls the same routine with A and B
//! exchanged and flips the result ([`Manifold::flipped`]), so every routine is written for one
//! order only. Everything else goes to [`contact_convex`], the generic GJK/EPA-plus-clipping
//! routine that works for any two shapes. Adding a specialised routine means adding one arm (and
//! its swapped twin) to [`manifold3`]'s match.
//!
//! | pair | routine |
//! |---|---|
//! | ball–ball | [`contact_balls`] |
//! | ball–box | [`contact_ball_cuboid`] |
//! | ball–polyhedron | [`contact_ball_polyhedron`] |
//! | ball–capsule | [`contact_ball_capsule`] |
//! | capsule–capsule | [`contact_capsules`] |
//! | box–box | [`contact_cuboids`] (SAT over 15 axes) |
//! | triangle–box | [`contact_triangle_cuboid`] (SAT over 13 axes; every box on level geometry) |
//! | triangle–capsule | [`contact_triangle_capsule`] (closest points, or SAT over 4 axes when the core crosses; every capsule on level geometry) |
//! | polyhedron–polyhedron | [`contact_polyhedra`] (SAT with Gauss-map pruning) |
//! | anything else | [`contact_convex`] |

use kollide_manifold::Manifold;
use kollide_math::{Iso3, Scalar};
use kollide_shapes::Shape3;

use super::{
    contact_ball_capsule, contact_ball_cuboid, contact_ball_polyhedron, contact_balls,
    contact_capsules, contact_convex, contact_cuboids, contact_polyhedra, contact_triangle_capsule,
    contact_triangle_cuboid,
};

/// The contact manifold of two 3D shapes at `pos_a` and `pos_b`, with contacts up to `margin`
/// apart (the speculative margin), in world coordinates. The normal points from A to B; an empty
/// manifold means the shapes are farther apart than `margin`.
///
/// ```
/// use kollide_math::{Iso3, Vec3};
/// use kollide_shapes::{Cuboid, Shape3};
/// use kollide_narrowphase::manifold3;
/// let ground: Shape3<f64> = Cuboid::new(Vec3::new(5.0, 0.5, 5.0)).unwrap().into();
/// let crate_: Shape3<f64> = Cuboid::new(Vec3::new(0.5, 0.5, 0.5)).unwrap().into();
/// let m = manifold3::<f64, ()>(&Iso3::translation(0.0, -0.5, 0.0), &ground,
///                              &Iso3::translation(0.0, 0.49, 0.0), &crate_, 0.0);
/// assert_eq!(m.len(), 4); // a box resting on the ground touches at its four corners
/// assert!((m.contacts()[0].separation + 0.01).abs() < 1e-12);
/// ```
pub fn manifold3<N: Scalar, U: Copy + Default>(
    pos_a: &Iso3<N>,
    a: &Shape3<N>,
    pos_b: &Iso3<N>,
    b: &Shape3<N>,
    margin: N,
) -> Manifold<N, 3, U> {
    use Shape3 as S;
    match (a, b) {
        (S::Ball(x), S::Ball(y)) => contact_balls(pos_a, x.radius(), pos_b, y.radius(), margin),
        (S::Ball(x), S::Cuboid(y)) => contact_ball_cuboid(pos_a, x.radius(), pos_b, y, margin),
        (S::Cuboid(x), S::Ball(y)) => {
            contact_ball_cuboid::<N, U>(pos_b, y.radius(), pos_a, x, margin).flipped()
        }
        // A flat polygon (two faces) has no inside and no edge arcs on the Gauss map: the
        // ball-polyhedron and SAT paths assume a solid, so it takes the general path.
        (S::Ball(x), S::Polyhedron(y)) if !y.is_flat() => {
            contact_ball_polyhedron(pos_a, x.radius(), pos_b, y, margin)
        }
        (S::Polyhedron(x), S::Ball(y)) if !x.is_flat() => {
            contact_ball_polyhedron::<N, U>(pos_b, y.radius(), pos_a, x, margin).flipped()
        }
        (S::Ball(x), S::Capsule(y)) => contact_ball_capsule(pos_a, x.radius(), pos_b, y, margin),
        (S::Capsule(x), S::Ball(y)) => {
            contact_ball_capsule::<N, U>(pos_b, y.radius(), pos_a, x, margin).flipped()
        }
        (S::Capsule(x), S::Capsule(y)) => contact_capsules(pos_a, x, pos_b, y, margin),
        (S::Cuboid(x), S::Cuboid(y)) => contact_cuboids(pos_a, x, pos_b, y, margin),
        (S::Triangle(x), S::Cuboid(y)) => contact_triangle_cuboid(pos_a, x, pos_b, y, margin),
        (S::Cuboid(x), S::Triangle(y)) => {
            contact_triangle_cuboid::<N, U>(pos_b, y, pos_a, x, margin).flipped()
        }
        (S::Triangle(x), S::Capsule(y)) => contact_triangle_capsule(pos_a, x, pos_b, y, margin),
        (S::Capsule(x), S::Triangle(y)) => {
            contact_triangle_capsule::<N, U>(pos_b, y, pos_a, x, margin).flipped()
        }
        (S::Polyhedron(x), S::Polyhedron(y)) if !x.is_flat() && !y.is_flat() => {
            contact_polyhedra(pos_a, x, pos_b, y, margin)
        }
        _ => contact_convex(pos_a, a, pos_b, b, margin),
    }
}
