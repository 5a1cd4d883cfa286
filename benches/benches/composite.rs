//! Benchmarks of convex-against-composite queries (`kollide_narrowphase::composite`) against
//! parry3d 0.31's `HeightField` and `TriMesh`, on the same seeded inputs (`f32` in both
//! libraries).
//!
//! The terrain is a 64 × 64-sample heightfield (63 × 63 cells of 1 m, 7,938 triangles) of
//! smooth hills (a sum of sines, up to about 3 m high) with a little seeded noise, built the
//! same way in both libraries (parry's layout: rows along z, columns along x, centred).
//!
//! * `heightfield_ray/steep` and `heightfield_ray/grazing`: 1,000 rays each, from 2–6 m above
//!   the terrain, pointing down at 20–70° below the horizon (a few cells walked) or at 2–10°
//!   (a long walk over many cells), up to 60 m long. kollide's `composite_ray_cast` against
//!   parry's `RayCast::cast_ray_and_get_normal`.
//! * `heightfield_contact/ball` and `heightfield_contact/box`: 1,000 shapes each (balls of
//!   radius 0.3–0.8, boxes of half extents 0.2–0.6 at random rotations), placed above a random
//!   point of the terrain at signed distances cycling through `+5e-2, +1e-2, −1e-2, −1e-1`
//!   (measured by kollide in `f64`), with a prediction margin of 0.1. kollide's
//!   `composite_contact` against parry's `contact_heightfield_shape` (what its dispatcher
//!   calls for a heightfield).
//!
//! * `trimesh_ray/*`, `trimesh_contact/*`: the same rays and shapes against the same terrain
//!   given as a [`TriMesh`] (the heightfield's 4,096 samples and 7,938 triangles, the same
//!   diagonals), kollide's static tree against parry's `TriMesh` (its BVH; no internal-edge
//!   flags, so like kollide's heightfield comparison parry has no internal-edge rule).
//! * `trimesh_build`: the tree over the 7,938 triangles' boxes (kollide's binned SAH build
//!   against parry's `Bvh::from_leaves` with its binned strategy), and the whole mesh
//!   (kollide's also computes adjacency and active edges; parry's without flags only its tree,
//!   with `FIX_INTERNAL_EDGES` its topology and pseudo-normals).
//!
//! As in the narrowphase benches, each group prints how far the two libraries' answers are apart
//! before timing. kollide's contacts may be deeper where its internal-edge rule replaced a
//! ghost contact by the face's depth (parry has no such rule), so a few differences are expected.
//! `KOLLIDE_ALT=<rounds>` times the two in turn instead ([`kollide_benches::alternate`]).

use std::hint::black_box;

use crate::parry_poses::parry_pose3;
use criterion::{Criterion, Throughput};
use kollide::narrowphase::composite::{
    composite_closest_points, composite_contact, composite_ray_cast,
};
use kollide::narrowphase::{QuerySettings, Ray};
use kollide::prelude::*;
use kollide::shapes::tree::Tree;
use kollide::shapes::{Aabb, HeightField, TriMesh};
use kollide_benches::{
    SEED, alternate, alternating_rounds, counting_instructions, find_crossing, one_iteration, rng,
};
use parry3d::query::RayCast;
use rand::Rng;

/// Queries per benchmark iteration.
const QUERIES: usize = 1000;
/// Samples per side of the terrain.
const SAMPLES: usize = 64;

/// The terrain's heights, row-major (rows along z).
fn terrain_heights() -> Vec<f64> {
    let mut r = rng(SEED ^ 0x4846);
    (0..SAMPLES * SAMPLES)
        .map(|k| {
            let (i, j) = ((k / SAMPLES) as f64, (k % SAMPLES) as f64);
            1.5 + (j * 0.21).sin() * (i * 0.17).cos()
                + 0.5 * (i * 0.43 + j * 0.11).sin()
                + r.random_range(-0.05..0.05)
        })
        .collect()
}

/// The terrain in kollide (`f32` and the `f64` used to place the inputs) and in parry.
struct Terrain {
    k: HeightField<f32>,
    k64: HeightField<f64>,
    p: parry3d::shape::HeightField,
}

fn terrain() -> Terrain {
    let h = terrain_heights();
    let size = (SAMPLES - 1) as f64;
    let k64 = HeightField::new(SAMPLES, SAMPLES, h.clone(), Vec3::new(size, 1.0, size)).unwrap();
    let k = HeightField::new(
        SAMPLES,
        SAMPLES,
        h.iter().map(|x| *x as f32).collect(),
        Vec3::new(size as f32, 1.0, size as f32),
    )
    .unwrap();
    let mut column_major = vec![0.0f32; h.len()];
    for i in 0..SAMPLES {
        for j in 0..SAMPLES {
            column_major[i + j * SAMPLES] = h[i * SAMPLES + j] as f32;
        }
    }
    let p = parry3d::shape::HeightField::new(
        parry3d::utils::Array2::new(SAMPLES, SAMPLES, column_major),
        parry3d::math::Vector::new(size as f32, 1.0, size as f32),
    );
    Terrain { k, k64, p }
}

/// The terrain's height under `(x, z)`, by a vertical ray in `f64`.
fn height_at(t: &Terrain, x: f64, z: f64) -> f64 {
    let ray = Ray { origin: Point3::new(x, 100.0, z), dir: -Vec3::y() };
    let hit = composite_ray_cast(&Iso3::identity(), &t.k64, &ray, 200.0, &QuerySettings::default());
    100.0 - hit.expect("inside the terrain").t
}

struct RayCase {
    k: Ray<f32, 3>,
    p: parry3d::query::Ray,
}

fn ray_cases(t: &Terrain, seed: u64, angles: (f64, f64)) -> Vec<RayCase> {
    let mut r = rng(seed);
    let half = (SAMPLES - 1) as f64 * 0.5 - 1.0;
    (0..QUERIES)
        .map(|_| {
            let (x, z) = (r.random_range(-half..half), r.random_range(-half..half));
            let y = height_at(t, x, z) + r.random_range(2.0..6.0);
            let (yaw, pitch) = (
                r.random_range(0.0..std::f64::consts::TAU),
                r.random_range(angles.0..angles.1).to_radians(),
            );
            let d = Vec3::new(yaw.cos() * pitch.cos(), -pitch.sin(), yaw.sin() * pitch.cos());
            let (o, d) = (Point3::new(x as f32, y as f32, z as f32), d.map(|v| v as f32));
            RayCase {
                k: Ray { origin: o, dir: d },
                p: parry3d::query::Ray::new(
                    parry3d::math::Vector::new(o.x, o.y, o.z),
                    parry3d::math::Vector::new(d.x, d.y, d.z),
                ),
            }
        })
        .collect()
}

struct ContactCase {
    k: Shape3<f32>,
    p: Box<dyn parry3d::shape::Shape>,
    pose: Iso3<f32>,
    p_pose: parry3d::math::Pose,
}

/// Shapes above random points of the terrain at the cycling signed distances.
fn contact_cases(t: &Terrain, seed: u64, boxes: bool) -> Vec<ContactCase> {
    let mut r = rng(seed);
    let half = (SAMPLES - 1) as f64 * 0.5 - 2.0;
    let targets = [0.05, 0.01, -0.01, -0.1];
    let s = QuerySettings::<f64>::default();
    let mut out = Vec::with_capacity(QUERIES);
    while out.len() < QUERIES {
        let target = targets[out.len() % targets.len()];
        let (x, z) = (r.random_range(-half..half), r.random_range(-half..half));
        let rot = Vec3::new(
            r.random_range(-1.0..1.0),
            r.random_range(-1.0..1.0),
            r.random_range(-1.0..1.0),
        );
        let (k64, k, p): (Shape3<f64>, Shape3<f32>, Box<dyn parry3d::shape::Shape>) = if boxes {
            let e = [r.random_range(0.2..0.6), r.random_range(0.2..0.6), r.random_range(0.2..0.6)];
            (
                Cuboid::new(Vec3::new(e[0], e[1], e[2])).unwrap().into(),
                Cuboid::new(Vec3::new(e[0] as f32, e[1] as f32, e[2] as f32)).unwrap().into(),
                Box::new(parry3d::shape::Cuboid::new(parry3d::math::Vector::new(
                    e[0] as f32,
                    e[1] as f32,
                    e[2] as f32,
                ))),
            )
        } else {
            let radius = r.random_range(0.3..0.8);
            (
                Ball::new(radius).unwrap().into(),
                Ball::new(radius as f32).unwrap().into(),
                Box::new(parry3d::shape::Ball::new(radius as f32)),
            )
        };
        let base = height_at(t, x, z);
        let place = |y: f64| Iso3::new(Vec3::new(x, base + y, z), rot);
        let sd = |y: f64| {
            composite_closest_points(&Iso3::identity(), &t.k64, &place(y), &k64, &s)
                .map_or(100.0, |c| c.separation)
        };
        let Some(y) = find_crossing(sd, 0.0, 3.0, target, 1e-9) else { continue };
        let pose64 = place(y);
        let pose: Iso3<f32> = pose64.cast();
        out.push(ContactCase { k, p, p_pose: parry_pose3(&pose), pose });
    }
    out
}

fn group(
    c: &mut Criterion,
    name: &str,
    ours: impl Fn(usize) -> f32,
    theirs: impl Fn(usize) -> f32,
) {
    if !counting_instructions() {
        let (mut differ, mut worst) = (0, 0.0f32);
        for i in 0..QUERIES {
            let d = (ours(i) - theirs(i)).abs();
            differ += usize::from(d > 1e-3);
            worst = worst.max(d);
        }
        eprintln!(
            "{name}: {QUERIES} queries; |kollide − parry| > 1e-3 on {differ}, worst {worst:.2e}"
        );
    }
    let batch =
        |f: &dyn Fn(usize) -> f32| one_iteration(|| (0..black_box(QUERIES)).map(f).sum::<f32>());
    if let Some(rounds) = alternating_rounds(name) {
        let (mut ours, mut theirs) = (|| batch(&ours), || batch(&theirs));
        let mut libs: [(&str, &mut dyn FnMut() -> f32); 2] =
            [("kollide", &mut ours), ("parry", &mut theirs)];
        alternate(name, rounds, &mut libs);
        return;
    }
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(QUERIES as u64));
    g.bench_function("kollide", |b| b.iter(|| batch(&ours)));
    g.bench_function("parry", |b| b.iter(|| batch(&theirs)));
    g.finish();
}

fn heightfield(c: &mut Criterion) {
    let t = terrain();
    let s = QuerySettings::<f32>::default();
    let id = Iso3::<f32>::identity();
    let p_id = parry_pose3(&id);
    for (name, angles, seed) in
        [("heightfield_ray/steep", (20.0, 70.0), 1), ("heightfield_ray/grazing", (2.0, 10.0), 2)]
    {
        let rays = ray_cases(&t, SEED ^ seed, angles);
        group(
            c,
            name,
            |i| composite_ray_cast(&id, &t.k, &rays[i].k, 60.0, &s).map_or(-1.0, |h| h.t),
            |i| {
                t.p.cast_ray_and_get_normal(&p_id, &rays[i].p, 60.0, true)
                    .map_or(-1.0, |h| h.time_of_impact)
            },
        );
    }
    let dispatcher = parry3d::query::DefaultQueryDispatcher;
    for (name, boxes, seed) in
        [("heightfield_contact/ball", false, 3), ("heightfield_contact/box", true, 4)]
    {
        let cases = contact_cases(&t, SEED ^ seed, boxes);
        group(
            c,
            name,
            |i| {
                let q = &cases[i];
                composite_contact(&id, &t.k, &q.pose, &q.k, 0.1, &s).map_or(1.0, |c| c.separation)
            },
            |i| {
                let q = &cases[i];
                let pos12 = p_id.inv_mul(&q.p_pose);
                parry3d::query::details::contact_heightfield_shape(
                    &dispatcher,
                    &pos12,
                    &t.p,
                    q.p.as_ref(),
                    0.1,
                )
                .map_or(1.0, |c| c.dist)
            },
        );
    }
}

/// The terrain as a triangle mesh (the heightfield's samples and triangles, the same
/// diagonals), as plain vertices and indices.
fn terrain_mesh(t: &Terrain) -> (Vec<Point3<f32>>, Vec<[u32; 3]>) {
    let vertices = (0..SAMPLES * SAMPLES).map(|k| t.k.sample(k / SAMPLES, k % SAMPLES)).collect();
    let at = |i: usize, j: usize| (i * SAMPLES + j) as u32;
    let mut indices = Vec::with_capacity(2 * (SAMPLES - 1) * (SAMPLES - 1));
    for i in 0..SAMPLES - 1 {
        for j in 0..SAMPLES - 1 {
            let (p00, p01, p10, p11) = (at(i, j), at(i, j + 1), at(i + 1, j), at(i + 1, j + 1));
            indices.extend([[p00, p10, p01], [p10, p11, p01]]);
        }
    }
    (vertices, indices)
}

fn parry_mesh(vertices: &[Point3<f32>], indices: &[[u32; 3]]) -> parry3d::shape::TriMesh {
    let v = vertices.iter().map(|p| parry3d::math::Vector::new(p.x, p.y, p.z)).collect();
    parry3d::shape::TriMesh::new(v, indices.to_vec()).expect("a valid mesh")
}

/// The same queries as [`heightfield`] on the terrain given as a [`TriMesh`] (7,938 triangles,
/// a static tree), against parry's `TriMesh` (its BVH, no internal-edge flags); and the build of
/// the mesh and of its tree alone.
fn trimesh(c: &mut Criterion) {
    let t = terrain();
    let (vertices, indices) = terrain_mesh(&t);
    let mesh = TriMesh::new(vertices.clone(), indices.clone()).unwrap();
    let pm = parry_mesh(&vertices, &indices);
    let s = QuerySettings::<f32>::default();
    let id = Iso3::<f32>::identity();
    let p_id = parry_pose3(&id);
    for (name, angles, seed) in
        [("trimesh_ray/steep", (20.0, 70.0), 1), ("trimesh_ray/grazing", (2.0, 10.0), 2)]
    {
        let rays = ray_cases(&t, SEED ^ seed, angles);
        group(
            c,
            name,
            |i| composite_ray_cast(&id, &mesh, &rays[i].k, 60.0, &s).map_or(-1.0, |h| h.t),
            |i| {
                pm.cast_ray_and_get_normal(&p_id, &rays[i].p, 60.0, true)
                    .map_or(-1.0, |h| h.time_of_impact)
            },
        );
    }
    let dispatcher = parry3d::query::DefaultQueryDispatcher;
    for (name, boxes, seed) in
        [("trimesh_contact/ball", false, 3), ("trimesh_contact/box", true, 4)]
    {
        let cases = contact_cases(&t, SEED ^ seed, boxes);
        group(
            c,
            name,
            |i| {
                let q = &cases[i];
                composite_contact(&id, &mesh, &q.pose, &q.k, 0.1, &s).map_or(1.0, |c| c.separation)
            },
            |i| {
                let q = &cases[i];
                let pos12 = p_id.inv_mul(&q.p_pose);
                parry3d::query::details::contact_composite_shape_shape(
                    &dispatcher,
                    &pos12,
                    &pm,
                    q.p.as_ref(),
                    0.1,
                )
                .map_or(1.0, |c| c.dist)
            },
        );
    }
    let boxes: Vec<Aabb<f32, 3>> = (0..mesh.triangle_count() as u32)
        .map(|i| {
            let [a, b, c] = mesh.triangle(i).vertices();
            Aabb::new(a.inf(&b).inf(&c), a.sup(&b).sup(&c))
        })
        .collect();
    let p_boxes: Vec<parry3d::bounding_volume::Aabb> = boxes
        .iter()
        .map(|b| {
            parry3d::bounding_volume::Aabb::new(
                parry3d::math::Vector::new(b.mins.x, b.mins.y, b.mins.z),
                parry3d::math::Vector::new(b.maxs.x, b.maxs.y, b.maxs.z),
            )
        })
        .collect();
    let mut g = c.benchmark_group("trimesh_build");
    g.throughput(Throughput::Elements(mesh.triangle_count() as u64));
    g.bench_function("tree/kollide", |b| {
        b.iter(|| one_iteration(|| Tree::build(black_box(&boxes)).unwrap().len()))
    });
    g.bench_function("tree/parry", |b| {
        b.iter(|| {
            one_iteration(|| {
                let strategy = parry3d::partitioning::BvhBuildStrategy::Binned;
                parry3d::partitioning::Bvh::from_leaves(strategy, black_box(&p_boxes)).leaf_count()
            })
        })
    });
    // kollide's mesh also computes its adjacency and active edges; parry's, with no flags, only
    // its tree (and with FIX_INTERNAL_EDGES, its topology and pseudo-normals too).
    g.bench_function("mesh/kollide", |b| {
        b.iter(|| {
            one_iteration(|| {
                TriMesh::new(black_box(vertices.clone()), indices.clone()).unwrap().triangle_count()
            })
        })
    });
    g.bench_function("mesh/parry", |b| {
        b.iter(|| one_iteration(|| parry_mesh(black_box(&vertices), &indices).indices().len()))
    });
    g.bench_function("mesh/parry_internal_edges", |b| {
        b.iter(|| {
            one_iteration(|| {
                let v = vertices.iter().map(|p| parry3d::math::Vector::new(p.x, p.y, p.z));
                let flags = parry3d::shape::TriMeshFlags::FIX_INTERNAL_EDGES;
                parry3d::shape::TriMesh::with_flags(v.collect(), indices.clone(), flags)
                    .expect("a valid mesh")
                    .indices()
                    .len()
            })
        })
    });
    g.finish();
}

short_bench_group!(super::heightfield, super::trimesh);
