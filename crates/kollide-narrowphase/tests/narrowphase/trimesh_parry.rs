//! Differential tests of [`TriMesh`] queries against parry3d 0.31's `TriMesh` (`f32`): the same
//! seeded meshes (welded terrains with random diagonals, unwelded soups of triangles in every
//! orientation), shapes, poses and rays go through kollide (`f32` and `f64`) and parry.
//!
//! * **Ray casts**: the first hits must agree to parry's `f32` rounding; where they disagree,
//!   kollide must agree with brute force over every triangle in `f64` (ray casts on each), and
//!   the run counts parry's own misses.
//! * **Contacts**: parry returns the deepest contact over the triangles, without an
//!   internal-edge rule (no `FIX_INTERNAL_EDGES` flag). On separated pairs the rule does nothing,
//!   so the separations must agree; on penetrating pairs kollide must be at least as deep, and
//!   the run counts where it is deeper.

use kollide_math::{Iso3, Point3, Scalar, Vec3};
use kollide_narrowphase::composite::{composite_contact, composite_ray_cast};
use kollide_narrowphase::{QuerySettings, Ray, contact, ray_cast};
use kollide_shapes::{Ball, Capsule, Cuboid, Shape3, TriMesh};
use nalgebra::{Translation3, UnitQuaternion};
use parry3d::math::{Pose as PPose, Rot3 as PRot, Vector as PVec};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A mesh as plain numbers, to build both libraries' meshes from.
struct Mesh {
    vertices: Vec<[f64; 3]>,
    indices: Vec<[u32; 3]>,
}

impl Mesh {
    /// A welded `n × n` terrain over `size²`, jittered, random heights and diagonals, facing +y.
    fn terrain(rng: &mut ChaCha8Rng) -> Self {
        let n = rng.random_range(2..10);
        let (size, amp) = (rng.random_range(4.0..10.0), rng.random_range(0.1..2.0));
        let cell = size / n as f64;
        let mut vertices = Vec::new();
        for i in 0..=n {
            for j in 0..=n {
                let jx = if j > 0 && j < n { rng.random_range(-0.25..0.25) * cell } else { 0.0 };
                let jz = if i > 0 && i < n { rng.random_range(-0.25..0.25) * cell } else { 0.0 };
                vertices.push([
                    -size / 2.0 + j as f64 * cell + jx,
                    rng.random_range(0.0..amp),
                    -size / 2.0 + i as f64 * cell + jz,
                ]);
            }
        }
        let at = |i: usize, j: usize| (i * (n + 1) + j) as u32;
        let mut indices = Vec::new();
        for i in 0..n {
            for j in 0..n {
                let (p00, p01, p10, p11) = (at(i, j), at(i, j + 1), at(i + 1, j), at(i + 1, j + 1));
                if rng.random_bool(0.5) {
                    indices.extend([[p00, p10, p01], [p10, p11, p01]]);
                } else {
                    indices.extend([[p00, p10, p11], [p00, p11, p01]]);
                }
            }
        }
        Self { vertices, indices }
    }

    /// Up to 40 well-shaped random triangles in a 6 × 2 × 6 box, unwelded.
    fn soup(rng: &mut ChaCha8Rng) -> Self {
        let count = rng.random_range(1..40);
        let (mut vertices, mut indices) = (Vec::new(), Vec::new());
        while indices.len() < count {
            let c = Vec3::new(
                rng.random_range(-3.0..3.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-3.0..3.0),
            );
            let mut corner = || {
                c + Vec3::new(
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                )
            };
            let [a, b, d] = [corner(), corner(), corner()];
            if (b - a).cross(&(d - a)).norm() < 0.2 {
                continue;
            }
            let base = vertices.len() as u32;
            vertices.extend([a, b, d].map(|p| [p.x, p.y, p.z]));
            indices.push([base, base + 1, base + 2]);
        }
        Self { vertices, indices }
    }

    fn random(rng: &mut ChaCha8Rng) -> Self {
        if rng.random_bool(0.6) { Self::terrain(rng) } else { Self::soup(rng) }
    }

    fn kollide<N: Scalar>(&self) -> TriMesh<N> {
        let v = self.vertices.iter().map(|p| Point3::new(N::lit(p[0]), N::lit(p[1]), N::lit(p[2])));
        TriMesh::new(v.collect(), self.indices.clone()).unwrap()
    }

    fn parry(&self) -> parry3d::shape::TriMesh {
        let v = self.vertices.iter().map(|p| PVec::new(p[0] as f32, p[1] as f32, p[2] as f32));
        parry3d::shape::TriMesh::new(v.collect(), self.indices.clone()).unwrap()
    }
}

fn to_n<N: Scalar>(p: &Iso3<f64>) -> Iso3<N> {
    let (t, q) = (p.translation.vector, p.rotation);
    Iso3::from_parts(
        Translation3::new(N::lit(t.x), N::lit(t.y), N::lit(t.z)),
        UnitQuaternion::new_normalize(nalgebra::Quaternion::new(
            N::lit(q.w),
            N::lit(q.i),
            N::lit(q.j),
            N::lit(q.k),
        )),
    )
}

fn to_parry(p: &Iso3<f64>) -> PPose {
    let (t, q) = (p.translation.vector, p.rotation);
    PPose::from_parts(
        PVec::new(t.x as f32, t.y as f32, t.z as f32),
        PRot::from_xyzw(q.i as f32, q.j as f32, q.k as f32, q.w as f32),
    )
}

fn random_pose(rng: &mut ChaCha8Rng, half: f64, y: (f64, f64)) -> Iso3<f64> {
    let axis = Vec3::new(
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
    );
    Iso3::from_parts(
        Translation3::new(
            rng.random_range(-half..half),
            rng.random_range(y.0..y.1),
            rng.random_range(-half..half),
        ),
        UnitQuaternion::from_scaled_axis(axis * 1.5),
    )
}

/// A random convex shape as kollide's (in `N`) and parry's.
fn random_shape<N: Scalar>(rng: &mut ChaCha8Rng) -> (Shape3<N>, Box<dyn parry3d::shape::Shape>) {
    match rng.random_range(0..3) {
        0 => {
            let r = rng.random_range(0.1..0.8);
            (Ball::new(N::lit(r)).unwrap().into(), Box::new(parry3d::shape::Ball::new(r as f32)))
        }
        1 => {
            let h = [0; 3].map(|_| rng.random_range(0.1..0.6));
            (
                Cuboid::new(Vec3::new(N::lit(h[0]), N::lit(h[1]), N::lit(h[2]))).unwrap().into(),
                Box::new(parry3d::shape::Cuboid::new(PVec::new(
                    h[0] as f32,
                    h[1] as f32,
                    h[2] as f32,
                ))),
            )
        }
        _ => {
            let a = [rng.random_range(-0.5..0.5), rng.random_range(-0.3..0.3), 0.2];
            let r = rng.random_range(0.1..0.4);
            let pa = Point3::new(N::lit(a[0]), N::lit(a[1]), N::lit(a[2]));
            (
                Capsule::new(pa, -pa, N::lit(r)).unwrap().into(),
                Box::new(parry3d::shape::Capsule::new(
                    PVec::new(a[0] as f32, a[1] as f32, a[2] as f32),
                    PVec::new(-a[0] as f32, -a[1] as f32, -a[2] as f32),
                    r as f32,
                )),
            )
        }
    }
}

/// `true` when the world point `p` (ray parameter `t`) is within `2e-3` of an edge of a
/// triangle of the mesh at `pose`, or `t` within `1e-3` relative of `max_t`.
fn grazes(mesh: &TriMesh<f64>, pose: &Iso3<f64>, p: &Point3<f64>, t: f64, max_t: f64) -> bool {
    let local = pose.inverse_transform_point(p);
    (t - max_t).abs() <= 1e-3 * max_t
        || (0..mesh.triangle_count() as u32).any(|i| {
            let [a, b, c] = mesh.triangle(i).vertices();
            [(a, b), (b, c), (c, a)].iter().any(|(u, v)| {
                let e = v - u;
                let w = local - u;
                let k = (w.dot(&e) / e.norm_squared()).clamp(0.0, 1.0);
                (w - e * k).norm() <= 2e-3
            })
        })
}

fn rays_against_parry<N: Scalar>(seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let s = QuerySettings::<N>::default();
    let (mut cases, mut hits, mut grazing, mut parry_wrong) = (0, 0, 0, 0);
    while cases < 3000 {
        let m = Mesh::random(&mut rng);
        let (ours_m, theirs_m) = (m.kollide::<N>(), m.parry());
        let pose = random_pose(&mut rng, 1.0, (-1.0, 1.0));
        let o = Vec3::new(
            rng.random_range(-6.0..6.0),
            rng.random_range(-3.0..4.0),
            rng.random_range(-6.0..6.0),
        );
        let aim = Vec3::new(
            rng.random_range(-3.0..3.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-3.0..3.0),
        );
        let d = (aim - o) * rng.random_range(0.05..1.0);
        if d.norm() < 1e-2 {
            continue;
        }
        cases += 1;
        let max_t = rng.random_range(0.5..5.0);
        let (wo, wd) = (pose * Point3::from(o), pose.transform_vector(&d));
        let ray = Ray {
            origin: Point3::new(N::lit(wo.x), N::lit(wo.y), N::lit(wo.z)),
            dir: Vec3::new(N::lit(wd.x), N::lit(wd.y), N::lit(wd.z)),
        };
        let ours = composite_ray_cast(&to_n::<N>(&pose), &ours_m, &ray, N::lit(max_t), &s)
            .map(|h| h.t.to_f64());
        let pr = parry3d::query::Ray::new(
            PVec::new(wo.x as f32, wo.y as f32, wo.z as f32),
            PVec::new(wd.x as f32, wd.y as f32, wd.z as f32),
        );
        use parry3d::query::RayCast;
        let theirs = theirs_m.cast_ray(&to_parry(&pose), &pr, max_t as f32, true).map(f64::from);
        let what = format!("ray {cases} ({seed}): kollide {ours:?}, parry {theirs:?}");
        let close = |a: f64, b: f64| (a - b).abs() <= 2e-4 * max_t.max(1.0) / d.norm().min(1.0);
        match (ours, theirs) {
            (Some(a), Some(b)) if close(a, b) => hits += 1,
            (None, None) => {}
            _ => {
                // They disagree: ray casts on every triangle in f64 decide (brute force).
                let mesh64 = m.kollide::<f64>();
                let brute = (0..mesh64.triangle_count() as u32)
                    .filter_map(|i| {
                        let r = Ray { origin: wo, dir: wd };
                        ray_cast(&pose, &mesh64.triangle(i), &r, max_t, &QuerySettings::default())
                            .map(|h| h.t)
                    })
                    .reduce(f64::min);
                let agrees = |x: Option<f64>| match (x, brute) {
                    (Some(a), Some(b)) => close(a, b),
                    (None, None) => true,
                    (Some(t), None) | (None, Some(t)) => {
                        grazes(&mesh64, &pose, &(wo + wd * t), t, max_t)
                    }
                };
                assert!(agrees(ours), "{what}; brute force {brute:?}");
                if agrees(theirs) {
                    grazing += 1;
                } else {
                    parry_wrong += 1;
                }
            }
        }
    }
    eprintln!(
        "rays: {cases}, both hit and agree: {hits}, grazing disagreements: {grazing}, \
         parry off brute force: {parry_wrong}"
    );
    assert!(hits > 500, "{hits}");
    assert!(grazing * 100 <= cases, "too many grazing disagreements: {grazing}");
}

#[test]
fn rays_against_parry_f64() {
    rays_against_parry::<f64>(271);
}

#[test]
fn rays_against_parry_f32() {
    rays_against_parry::<f32>(272);
}

fn contacts_against_parry<N: Scalar>(seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let s = QuerySettings::<N>::default();
    let (mut separated, mut penetrating, mut deeper, mut parry_wrong) = (0, 0, 0, 0);
    let tol = 3e-4;
    for case in 0..3000 {
        let m = Mesh::random(&mut rng);
        let (ours_m, theirs_m) = (m.kollide::<N>(), m.parry());
        let pose_a = random_pose(&mut rng, 0.5, (-0.5, 0.5));
        let (b_shape, pb) = random_shape::<N>(&mut rng);
        let pose_b = pose_a * random_pose(&mut rng, 3.0, (-0.5, 2.5));
        let margin = 0.3;
        let ours = composite_contact(
            &to_n::<N>(&pose_a),
            &ours_m,
            &to_n::<N>(&pose_b),
            &b_shape,
            N::lit(margin),
            &s,
        )
        .map(|c| c.separation.to_f64());
        let theirs = parry3d::query::contact(
            &to_parry(&pose_a),
            &theirs_m,
            &to_parry(&pose_b),
            pb.as_ref(),
            margin as f32,
        )
        .expect("supported")
        .map(|c| f64::from(c.dist));
        let what = format!("case {case} ({seed}): kollide {ours:?}, parry {theirs:?}");
        // Brute force in f64 over every triangle decides disagreements.
        let brute = || {
            let (mesh64, b64) = (m.kollide::<f64>(), to_f64_shape(&b_shape));
            (0..mesh64.triangle_count() as u32)
                .filter_map(|i| {
                    let q = QuerySettings::default();
                    contact(&pose_a, &mesh64.triangle(i), &pose_b, &b64, margin, &q)
                })
                .map(|c| c.separation)
                .reduce(f64::min)
        };
        match (ours, theirs) {
            (Some(a), Some(b)) if b > 1e-3 => {
                if (a - b).abs() > tol * 10.0 {
                    let x = brute().unwrap();
                    assert!((a - x).abs() <= tol, "{what}: brute force {x}");
                    parry_wrong += 1;
                }
                separated += 1;
            }
            (Some(a), Some(b)) => {
                assert!(a <= b + tol, "{what}: kollide shallower");
                if a < b - tol {
                    deeper += 1;
                }
                penetrating += 1;
            }
            (None, None) => {}
            (Some(a), None) | (None, Some(a)) if (a - margin).abs() <= tol => {}
            _ => {
                let x = brute();
                assert_eq!(ours.is_some(), x.is_some(), "{what}: brute force {x:?}");
                parry_wrong += 1;
            }
        }
    }
    eprintln!(
        "contacts: {separated} separated agree, {penetrating} penetrating ({deeper} deeper in \
         kollide by the internal-edge rule), parry off brute force: {parry_wrong}"
    );
    assert!(separated > 300 && penetrating > 300, "{separated} / {penetrating}");
}

/// The same shape in `f64`.
fn to_f64_shape<N: Scalar>(b: &Shape3<N>) -> Shape3<f64> {
    let p = |p: Point3<N>| Point3::new(p.x.to_f64(), p.y.to_f64(), p.z.to_f64());
    match b {
        Shape3::Ball(x) => Ball::new(x.radius().to_f64()).unwrap().into(),
        Shape3::Cuboid(x) => {
            let h = x.half_extents();
            Cuboid::new(Vec3::new(h.x.to_f64(), h.y.to_f64(), h.z.to_f64())).unwrap().into()
        }
        Shape3::Capsule(x) => {
            Capsule::new(p(x.segment().a()), p(x.segment().b()), x.radius().to_f64())
                .unwrap()
                .into()
        }
        _ => unreachable!("random_shape makes balls, cuboids and capsules"),
    }
}

#[test]
fn contacts_against_parry_f64() {
    contacts_against_parry::<f64>(281);
}

#[test]
fn contacts_against_parry_f32() {
    contacts_against_parry::<f32>(282);
}
