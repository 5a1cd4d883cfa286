//! Integration tests of kollide-narrowphase: oracles, peers (parry, Box2D), hard cases.
//!
//! One test binary for the crate: each file below is a module, so the crate and its peers are
//! linked once rather than once per file (linking was most of CI's build time).

mod agreement;
mod cast_apart_at_start;
mod cast_oracle;
mod common;
mod composite;
mod composite_parry;
mod curved_witnesses;
mod epa2d_oracle;
mod epa3d_hulls;
mod epa3d_oracle;
mod f32_rounded_normals;
mod false_hits;
mod flat_difference;
mod flat_polygon;
mod hard_cases;
mod heightfield_ray;
mod manifold2d;
mod manifold3d;
mod manifold_blind_face;
mod manifold_diff;
mod manifold_rounded_incident;
mod parry_diff;
mod polyline;
mod polytope_degenerate;
mod polytope_oracle;
mod round_oracle;
mod toi;
mod triangle_capsule;
mod triangle_cuboid;
mod trimesh;
mod trimesh_parry;
mod witness_on_surface;
