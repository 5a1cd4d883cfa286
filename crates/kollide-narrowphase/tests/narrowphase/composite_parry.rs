//! Differential tests of heightfield queries against parry3d 0.31 (`f32`): the same seeded
//! fields, shapes, poses and rays go through kollide (`f32` and `f64`) and parry's `HeightField`
//! (same layout: rows along z, columns along x, centred, the same diagonal).
//!
//! * **Ray casts**: both walk the grid; the first hits must agree to parry's `f32` rounding
//!   (`2e-4` relative), except within that of grazing an edge or `max_t`.
//! * **Contacts**: parry returns the deepest contact over the triangles under the shape, with no
//!   internal-edge rule. On separated pairs the rule does nothing, so the separations must agree;
//!   on penetrating pairs kollide must be at least as deep (the rule only replaces a shallow
//!   sideways push by the face's depth), and the run counts where it is deeper.

use kollide_math::{Iso3, Point3, Scalar, Vec3};
use kollide_narrowphase::composite::{composite_contact, composite_ray_cast};
use kollide_narrowphase::{QuerySettings, Ray};
use kollide_shapes::{Ball, Capsule, Cuboid, HeightField, Shape3};
use nalgebra::{Translation3, UnitQuaternion};
use parry3d::math::{Pose as PPose, Rot3 as PRot, Vector as PVec};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

struct Field {
    rows: usize,
    cols: usize,
    heights: Vec<f64>,
    scale: [f64; 3],
}

impl Field {
    fn random(rng: &mut ChaCha8Rng) -> Self {
        let (rows, cols) = (rng.random_range(2..12), rng.random_range(2..12));
        let amp = rng.random_range(0.1..2.0);
        let heights = (0..rows * cols).map(|_| rng.random_range(0.0..amp)).collect();
        let scale =
            [rng.random_range(2.0..10.0), rng.random_range(0.5..2.0), rng.random_range(2.0..10.0)];
        Self { rows, cols, heights, scale }
    }

    fn kollide<N: Scalar>(&self) -> HeightField<N> {
        let [x, y, z] = self.scale;
        HeightField::new(
            self.rows,
            self.cols,
            self.heights.iter().map(|h| N::lit(*h)).collect(),
            Vec3::new(N::lit(x), N::lit(y), N::lit(z)),
        )
        .unwrap()
    }

    fn parry(&self) -> parry3d::shape::HeightField {
        // parry's array is column-major.
        let mut data = vec![0.0f32; self.rows * self.cols];
        for i in 0..self.rows {
            for j in 0..self.cols {
                data[i + j * self.rows] = self.heights[i * self.cols + j] as f32;
            }
        }
        let [x, y, z] = self.scale;
        parry3d::shape::HeightField::new(
            parry3d::utils::Array2::new(self.rows, self.cols, data),
            PVec::new(x as f32, y as f32, z as f32),
        )
    }
}

fn to_n<N: Scalar>(p: &Iso3<f64>) -> Iso3<N> {
    let t = p.translation.vector;
    let q = p.rotation;
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

fn random_pose(rng: &mut ChaCha8Rng, half: [f64; 3], y: (f64, f64)) -> Iso3<f64> {
    let axis = Vec3::new(
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
    );
    Iso3::from_parts(
        Translation3::new(
            rng.random_range(-half[0] * 0.5..half[0] * 0.5),
            rng.random_range(y.0..y.1),
            rng.random_range(-half[2] * 0.5..half[2] * 0.5),
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
            let h = [
                rng.random_range(0.1..0.6),
                rng.random_range(0.1..0.6),
                rng.random_range(0.1..0.6),
            ];
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
            let a = [
                rng.random_range(-0.5..0.5),
                rng.random_range(-0.3..0.3),
                rng.random_range(-0.5..0.5),
            ];
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
/// triangle of the field at `pose`, or `t` within `1e-3` relative of `max_t`.
fn grazes(field: &HeightField<f64>, pose: &Iso3<f64>, p: &Point3<f64>, t: f64, max_t: f64) -> bool {
    let local = pose.inverse_transform_point(p);
    (t - max_t).abs() <= 1e-3 * max_t
        || (0..field.triangle_count() as u32).any(|i| {
            let [a, b, c] = field.triangle(i).vertices();
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
        let f = Field::random(&mut rng);
        let (ours_f, theirs_f) = (f.kollide::<N>(), f.parry());
        let pose = random_pose(&mut rng, [2.0, 0.0, 2.0], (-1.0, 1.0));
        let o = Vec3::new(
            rng.random_range(-6.0..6.0),
            rng.random_range(-1.0..4.0),
            rng.random_range(-6.0..6.0),
        );
        let d = Vec3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..0.3),
            rng.random_range(-1.0..1.0),
        );
        if d.norm() < 1e-2 {
            continue;
        }
        cases += 1;
        let max_t = rng.random_range(1.0..20.0);
        let (wo, wd) = (pose * Point3::from(o), pose.transform_vector(&d));
        let pn = to_n::<N>(&pose);
        let ray = Ray {
            origin: Point3::new(N::lit(wo.x), N::lit(wo.y), N::lit(wo.z)),
            dir: Vec3::new(N::lit(wd.x), N::lit(wd.y), N::lit(wd.z)),
        };
        let ours = composite_ray_cast(&pn, &ours_f, &ray, N::lit(max_t), &s).map(|h| h.t.to_f64());
        let pr = parry3d::query::Ray::new(
            PVec::new(wo.x as f32, wo.y as f32, wo.z as f32),
            PVec::new(wd.x as f32, wd.y as f32, wd.z as f32),
        );
        use parry3d::query::RayCast;
        let theirs = theirs_f.cast_ray(&to_parry(&pose), &pr, max_t as f32, true).map(f64::from);
        let what = format!("ray {cases} ({seed}): kollide {ours:?}, parry {theirs:?}");
        match (ours, theirs) {
            (Some(a), Some(b)) if (a - b).abs() <= 2e-4 * max_t.max(1.0) / d.norm().min(1.0) => {
                hits += 1
            }
            (None, None) => {}
            _ => {
                // They disagree: GJK ray casts on every triangle in f64 decide (brute force).
                let field64 = f.kollide::<f64>();
                let brute = (0..field64.triangle_count() as u32)
                    .filter_map(|i| {
                        kollide_narrowphase::ray_cast(
                            &pose,
                            &field64.triangle(i),
                            &Ray { origin: wo, dir: wd },
                            max_t,
                            &QuerySettings::default(),
                        )
                        .map(|h| h.t)
                    })
                    .reduce(f64::min);
                let agrees = |x: Option<f64>| match (x, brute) {
                    (Some(a), Some(b)) => {
                        (a - b).abs() <= 2e-4 * max_t.max(1.0) / d.norm().min(1.0)
                    }
                    (None, None) => true,
                    // A graze within rounding of an edge or of max_t may go either way.
                    (Some(t), None) | (None, Some(t)) => {
                        grazes(&field64, &pose, &(wo + wd * t), t, max_t)
                    }
                };
                assert!(agrees(ours), "{what}; brute force {brute:?}");
                if !agrees(theirs) {
                    parry_wrong += 1;
                    if parry_wrong <= 3 {
                        eprintln!("  parry off: {what}; brute force {brute:?}");
                    }
                } else {
                    grazing += 1;
                }
            }
        }
    }
    eprintln!(
        "rays: {cases}, both hit and agree: {hits}, grazing disagreements: {grazing}, \
         parry off brute force: {parry_wrong}"
    );
    assert!(hits > 250, "{hits}");
    assert!(grazing * 100 <= cases, "too many grazing disagreements: {grazing}");
}

#[test]
fn rays_against_parry_f64() {
    rays_against_parry::<f64>(71);
}

#[test]
fn rays_against_parry_f32() {
    rays_against_parry::<f32>(72);
}

/// The closest point of triangle `abc` to `p` (Ericson, *Real-Time Collision Detection*,
/// 5.1.5): the exact oracle for a ball.
fn closest_on_triangle(
    p: Point3<f64>,
    a: Point3<f64>,
    b: Point3<f64>,
    c: Point3<f64>,
) -> Point3<f64> {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(&ap), ac.dot(&ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(&bp), ac.dot(&bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(&cp), ac.dot(&cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = 1.0 / (va + vb + vc);
    a + ab * (vb * denom) + ac * (vc * denom)
}

/// The exact separation of a ball (centre at `pose_b`) from the field: the distance from its
/// centre to the nearest triangle, minus the radius (for a separated ball).
fn ball_oracle(f: &Field, pose_a: &Iso3<f64>, pose_b: &Iso3<f64>, r: f64) -> f64 {
    let field = f.kollide::<f64>();
    let centre = pose_a.inverse_transform_point(&Point3::from(pose_b.translation.vector));
    (0..field.triangle_count() as u32)
        .map(|i| {
            let [a, b, c] = field.triangle(i).vertices();
            (centre - closest_on_triangle(centre, a, b, c)).norm()
        })
        .fold(f64::MAX, f64::min)
        - r
}

fn contacts_against_parry<N: Scalar>(seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let s = QuerySettings::<N>::default();
    let (mut separated, mut penetrating, mut deeper, mut balls) = (0, 0, 0, 0);
    let tol = 3e-4;
    for case in 0..3000 {
        let f = Field::random(&mut rng);
        let (ours_f, theirs_f) = (f.kollide::<N>(), f.parry());
        let pose_a = random_pose(&mut rng, [1.0, 0.0, 1.0], (-0.5, 0.5));
        let (b_shape, pb) = random_shape::<N>(&mut rng);
        let b = &b_shape;
        let local = random_pose(&mut rng, [f.scale[0], 0.0, f.scale[2]], (-0.3, 2.5 * f.scale[1]));
        let pose_b = pose_a * local;
        let margin = 0.3;
        let ours = composite_contact(
            &to_n::<N>(&pose_a),
            &ours_f,
            &to_n::<N>(&pose_b),
            b,
            N::lit(margin),
            &s,
        )
        .map(|c| c.separation.to_f64());
        let theirs = parry3d::query::contact(
            &to_parry(&pose_a),
            &theirs_f,
            &to_parry(&pose_b),
            pb.as_ref(),
            margin as f32,
        )
        .expect("supported")
        .map(|c| f64::from(c.dist));
        let what = format!("case {case} ({seed}): kollide {ours:?}, parry {theirs:?}");
        match (ours, theirs) {
            (Some(a), Some(b)) if b > 1e-3 => {
                // parry's f32 GJK stops at a relative gap of about 1e-3 of the pair's size.
                assert!((a - b).abs() <= tol * (1.0 + f.scale[0].max(f.scale[2])), "{what}");
                if let Shape3::Ball(ball) = &b_shape {
                    let exact = ball_oracle(&f, &pose_a, &pose_b, ball.radius().to_f64());
                    let t = if N::EPSILON.to_f64() > 1e-10 { 1e-4 } else { 1e-9 };
                    assert!((a - exact).abs() <= t, "{what}: exact {exact}");
                    balls += 1;
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
            // Within parry's f32 noise of the margin.
            (Some(a), None) | (None, Some(a)) if (a - margin).abs() <= tol => {}
            _ => panic!("{what}"),
        }
    }
    eprintln!(
        "contacts: {separated} separated agree, {penetrating} penetrating ({deeper} deeper in kollide by the internal-edge rule)"
    );
    assert!(
        separated > 300 && penetrating > 300 && balls > 100,
        "{separated} / {penetrating} / {balls}"
    );
}

#[test]
fn contacts_against_parry_f64() {
    contacts_against_parry::<f64>(81);
}

#[test]
fn contacts_against_parry_f32() {
    contacts_against_parry::<f32>(82);
}
