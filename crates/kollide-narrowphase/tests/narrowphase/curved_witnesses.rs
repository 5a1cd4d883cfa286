//! Contacts of cylinders and cones in `f64`, held to a billionth of the pair's size: both points
//! on their shapes' surfaces (exact signed distance functions), their difference the separation
//! along the normal, and the separation attained by the normal (the shapes' support gap).
//!
//! A rim against an edge, a face or another rim is where GJK's and EPA's chords of support
//! points stall about `√ε` short of the normal, and the witness on the rim slid by the rim's
//! radius times that: `1e-6` of the size on a capsule and a cone at one pose. The contact is
//! now solved on the generators of both supporting sets (`refine.rs`). Each test counts the
//! contacts it checked, overlapping and apart, so it cannot pass empty.

use kollide_math::{Iso3, Point3, Vec3};
use kollide_narrowphase::{
    QuerySettings, ShapeContact, closest_points, contact, directional_penetration, shape_cast,
};
use kollide_shapes::{
    Capsule, Cone, ConvexPolyhedron, Cuboid, Cylinder, Rounded, Shape3, SupportMap,
};
use nalgebra::{Quaternion, Translation3, UnitQuaternion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The exact signed distance from the local point `p` to the shape (negative inside).
fn sdf(s: &Shape3<f64>, p: &Point3<f64>) -> f64 {
    match s {
        Shape3::Capsule(c) => {
            let [a, b] = c.core_segment().unwrap();
            let ab = b - a;
            let t = ((p - a).dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0);
            (p - (a + ab * t)).norm() - c.radius()
        }
        Shape3::Cuboid(c) => {
            let q = p.coords.abs() - c.half_extents();
            q.map(|x| x.max(0.0)).norm() + q.max().min(0.0)
        }
        Shape3::Cylinder(c) => {
            let d = (p.x.hypot(p.z) - c.radius(), p.y.abs() - c.half_height());
            d.0.max(d.1).min(0.0) + d.0.max(0.0).hypot(d.1.max(0.0))
        }
        Shape3::Cone(c) => cone_sdf(c.half_height(), c.radius(), p.x.hypot(p.z), p.y),
        _ => unreachable!("not generated"),
    }
}

/// The signed distance from `(q, y)` (radial, axial) to the cone's cross-section, the triangle
/// `(0, h), (r, −h), (0, −h)` with its axis side left out (`q ≥ 0`).
fn cone_sdf(h: f64, r: f64, q: f64, y: f64) -> f64 {
    let segment = |a: (f64, f64), b: (f64, f64)| {
        let ab = (b.0 - a.0, b.1 - a.1);
        let t =
            (((q - a.0) * ab.0 + (y - a.1) * ab.1) / (ab.0 * ab.0 + ab.1 * ab.1)).clamp(0.0, 1.0);
        (q - a.0 - ab.0 * t).hypot(y - a.1 - ab.1 * t)
    };
    let base = segment((0.0, -h), (r, -h));
    let side = segment((r, -h), (0.0, h));
    let inside = y >= -h && q * (h + h) <= r * (h - y);
    if inside { -base.min(side) } else { base.min(side) }
}

/// A random shape of one of the kinds, sized about `size`.
fn shape(r: &mut ChaCha8Rng, kind: usize, size: f64) -> Shape3<f64> {
    let mut len = || size * r.random_range(0.2..1.0);
    match kind {
        0 => {
            let (a, b) = (Point3::new(len(), len(), -len()), Point3::new(-len(), -len(), len()));
            Shape3::Capsule(Capsule::new(a, b, len() * 0.5).unwrap())
        }
        1 => Shape3::Cuboid(Cuboid::new(Vec3::new(len(), len(), len())).unwrap()),
        2 => Shape3::Cylinder(Cylinder::new(len(), len()).unwrap()),
        _ => Shape3::Cone(Cone::new(len(), len()).unwrap()),
    }
}

/// The worst of the contact's errors relative to `scale`: each point off its surface, the
/// points' difference off `separation · normal`, and the support gap along the normal off the
/// separation.
fn worst(
    c: &ShapeContact<f64, 3>,
    (pa, a): (&Iso3<f64>, &Shape3<f64>),
    (pb, b): (&Iso3<f64>, &Shape3<f64>),
    scale: f64,
) -> f64 {
    let off_a = sdf(a, &pa.inverse_transform_point(&c.point_a)).abs();
    let off_b = sdf(b, &pb.inverse_transform_point(&c.point_b)).abs();
    let identity = (c.point_b - c.point_a - c.normal * c.separation).norm();
    let sa = pa * a.local_support_point(&pa.inverse_transform_vector(&c.normal));
    let sb = pb * b.local_support_point(&pb.inverse_transform_vector(&-c.normal));
    let gap = (sb - sa).dot(&c.normal);
    off_a.max(off_b).max(identity).max((gap - c.separation).abs()) / scale
}

/// `cases` seeded pairs of `kinds` (A's kind, B's kind), a third at one pose, a third nested
/// and a third apart or grazing, each checked in both orders by `contact` and `closest_points`;
/// returns the worst error and the number of overlapping contacts checked.
fn run(kinds: (usize, usize), seed: u64, cases: usize) -> (f64, usize) {
    let s = QuerySettings::<f64>::default();
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    let (mut worst_seen, mut overlapping) = (0.0f64, 0);
    for i in 0..cases {
        let size = 10f64.powf(r.random_range(-2.0..2.0));
        let a = shape(&mut r, kinds.0, size);
        let b = shape(&mut r, kinds.1, size);
        let mut rot = || Vec3::new(r.random_range(-3.0..3.0), r.random_range(-3.0..3.0), 0.7);
        let pa = Iso3::new(Vec3::new(1.0, -2.0, 0.5) * size, rot());
        let offset = match i % 3 {
            0 => Vec3::zeros(),
            1 => Vec3::new(0.1, -0.2, 0.15) * size,
            _ => Vec3::new(1.6, 0.4, -0.9) * size,
        };
        let pb = if i % 3 == 0 { pa } else { Iso3::new(pa.translation.vector + offset, rot()) };
        let scale = a.bounding_radius().max(b.bounding_radius());
        for (p1, s1, p2, s2) in [(&pa, &a, &pb, &b), (&pb, &b, &pa, &a)] {
            let cp = closest_points(p1, s1, p2, s2, &s);
            worst_seen = worst_seen.max(worst(&cp, (p1, s1), (p2, s2), scale));
            if let Some(c) = contact(p1, s1, p2, s2, 0.0, &s) {
                worst_seen = worst_seen.max(worst(&c, (p1, s1), (p2, s2), scale));
                overlapping += 1;
            }
        }
    }
    (worst_seen, overlapping)
}

/// Every pair of kinds with a curved shape: capsule, box, cone and cylinder against cones and
/// cylinders, each from its own seed.
#[test]
fn curved_pairs_in_both_orders() {
    let pairs = [(0, 3), (0, 2), (1, 3), (1, 2), (3, 2), (3, 3), (2, 2)];
    for (k, kinds) in pairs.into_iter().enumerate() {
        let (worst, overlapping) = run(kinds, 0xc0e1 + k as u64, 300);
        assert!(overlapping >= 300, "{kinds:?}: only {overlapping} overlapping contacts checked");
        assert!(worst <= 1e-9, "{kinds:?}: worst error {worst:e} of the size");
    }
}

/// A random unit direction `u`, the point of `big` (placed by `pose`) farthest along it, and a
/// random rotation vector: where the tests below put a small shape near `big`'s surface.
fn near_surface(
    r: &mut ChaCha8Rng,
    big: &Shape3<f64>,
    pose: &Iso3<f64>,
) -> (Vec3<f64>, Point3<f64>, Vec3<f64>) {
    let mut x = || r.random_range(-1.0..1.0);
    let u = Vec3::new(x(), x(), x()).normalize();
    let on = pose * big.local_support_point(&pose.inverse_transform_vector(&u));
    (u, on, Vec3::new(3.0 * x(), 3.0 * x(), 0.2))
}

/// Small rounded boxes (1e-3 to 1e-1 of a 20 m shape) cast at a large cylinder or cone, and
/// pushed out of one along a direction, end touching it: the pair's separation at the reported
/// time is within a billionth of the large shape's size. The casts stop within their tolerance along their own normal, which near a
/// rim can slide off the contact's; they then settle the time on the pair query's separation.
#[test]
fn casts_at_a_large_curved_shape_end_touching_it() {
    let s = QuerySettings::<f64>::default();
    let mut r = ChaCha8Rng::seed_from_u64(0xca57);
    let (mut hits, mut pushes) = (0, 0);
    for i in 0..1000 {
        let big = shape(&mut r, 2 + i % 2, 20.0);
        let size = 10f64.powf(r.random_range(-3.0..-1.0));
        let mut len = || size * r.random_range(0.2..1.0);
        let core = Cuboid::new(Vec3::new(len(), len(), len())).unwrap();
        let small = Rounded::new(core, len() * 0.5).unwrap();
        let pa = Iso3::new(Vec3::new(3.0, -1.0, 2.0), Vec3::new(0.3, -1.1, 0.8));
        let (u, on, rot) = near_surface(&mut r, &big, &pa);
        let gap = size * r.random_range(4.0..8.0);
        let scale = big.bounding_radius();
        let pb = Iso3::new(on.coords + u * gap, rot);
        let slant = Vec3::new(r.random_range(-1.0..1.0), r.random_range(-1.0..1.0), 0.0) * gap;
        let vel = -u * (2.0 * gap) + slant;
        if let Some(h) = shape_cast(&pa, &Vec3::zeros(), &big, &pb, &vel, &small, 1.0, &s) {
            let at = Iso3::from_parts((pb.translation.vector + vel * h.t).into(), pb.rotation);
            let c = closest_points(&pa, &big, &at, &small, &s);
            assert!(c.separation.abs() <= 1e-9 * scale, "cast {i}: {h:?} leaves {c:?}");
            hits += 1;
        }
        // Sunk into the large shape, pushed out along a random direction.
        let inside = Iso3::new(on.coords - u * gap, rot);
        if let Some(h) = directional_penetration(&pa, &big, &inside, &small, &u, &s) {
            let at =
                Iso3::from_parts((inside.translation.vector + u * h.t).into(), inside.rotation);
            let c = closest_points(&pa, &big, &at, &small, &s);
            assert!(c.separation.abs() <= 1e-9 * scale, "push {i}: {h:?} leaves {c:?}");
            pushes += 1;
        }
    }
    assert!(hits >= 700 && pushes >= 800, "{hits} hits and {pushes} pushes checked");
}

/// Small boxes sunk into a large cylinder or cone near where the contact query's point is: the
/// manifold's deepest point is as deep as the contact within a billionth of the large shape's
/// size. A box at a rim clips against the cap's inscribed octagon, which cuts the deepest part
/// off; the manifold then carries the exact contact too.
#[test]
fn manifolds_on_a_large_curved_shape_are_as_deep_as_the_contact() {
    let s = QuerySettings::<f64>::default();
    let mut r = ChaCha8Rng::seed_from_u64(0x3a4f);
    let mut checked = 0;
    for i in 0..600 {
        let big = shape(&mut r, 2 + i % 2, 0.05);
        let size = 10f64.powf(r.random_range(-5.0..-3.0));
        let mut len = || size * r.random_range(0.2..1.0);
        let small: Shape3<f64> = Cuboid::new(Vec3::new(len(), len(), len())).unwrap().into();
        let pa = Iso3::new(Vec3::new(0.3, -0.1, 0.2), Vec3::new(0.3, -1.1, 0.8));
        let (u, on, rot) = near_surface(&mut r, &big, &pa);
        let pb = Iso3::new(on.coords - u * size * r.random_range(0.1..0.5), rot);
        let Some(c) = contact(&pa, &big, &pb, &small, 0.0, &s) else { continue };
        let m =
            kollide_narrowphase::manifold::contact_convex::<f64, ()>(&pa, &big, &pb, &small, 0.0);
        let deepest = m.contacts().iter().map(|k| k.separation).fold(f64::MAX, f64::min);
        let scale = big.bounding_radius();
        assert!(deepest <= c.separation + 1e-9 * scale, "case {i}: {deepest:e} vs {c:?}");
        checked += 1;
    }
    assert!(checked >= 500, "{checked} manifolds checked");
}

/// The least of `h_A(n) + h_B(−n)` over unit `n` for two shapes at one pose (so one frame):
/// the depth, by a scan of 4,000 directions and a pattern search about the best few. The
/// depth's value is right to rounding even where the search leaves the direction `√ε` off.
fn least_depth(a: &Shape3<f64>, b: &Shape3<f64>) -> f64 {
    let h = |n: &Vec3<f64>| {
        a.local_support_point(n).coords.dot(n) - b.local_support_point(&-n).coords.dot(n)
    };
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    let mut starts: Vec<(f64, Vec3<f64>)> = (0..4000)
        .map(|i| {
            let y = 1.0 - 2.0 * (i as f64 + 0.5) / 4000.0;
            let r = (1.0 - y * y).sqrt();
            let n = Vec3::new(r * (golden * i as f64).cos(), y, r * (golden * i as f64).sin());
            (h(&n), n)
        })
        .collect();
    starts.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut best = f64::MAX;
    for &(mut value, mut n) in starts.iter().take(8) {
        let mut step = 0.05;
        while step > 1e-12 {
            let mut moved = false;
            for k in 0..6 {
                let mut m = n;
                m[k / 2] += if k % 2 == 0 { step } else { -step };
                let m = m.normalize();
                if h(&m) < value {
                    (value, n, moved) = (h(&m), m, true);
                }
            }
            if !moved {
                step *= 0.5;
            }
        }
        best = best.min(value);
    }
    best
}

/// A cone and a cylinder at one pose, where EPA stops at its cap and the polish settles on a
/// stationary normal 1.7e-6 deeper than the least (the hostile suite's case), and seeded pairs
/// like it: the depth is the least over all directions. Where EPA stops short the flat parts'
/// normals are tried after the polish too.
#[test]
fn coincident_cones_and_cylinders_get_the_least_depth() {
    use kollide_math::nalgebra::{Quaternion, Translation3, UnitQuaternion};
    let s = QuerySettings::<f64>::default();
    let t = Translation3::new(0.012161760350854275, -0.00016564632281392645, -0.004403737889168802);
    let q = Quaternion::new(
        -0.12577363810550105,
        -0.6751318554306892,
        -0.6661861820333759,
        0.29081599097748245,
    );
    let pose = Iso3::from_parts(t, UnitQuaternion::from_quaternion(q));
    let cone: Shape3<f64> = Cone::new(0.010065448839074117, 0.007788683593503739).unwrap().into();
    let cylinder: Shape3<f64> =
        Cylinder::new(0.012879518700239265, 0.007308732523042475).unwrap().into();
    let mut pairs = vec![(cone, cylinder, pose)];
    let mut r = ChaCha8Rng::seed_from_u64(0x7e57);
    for i in 0..60 {
        let a = shape(&mut r, 2 + i % 2, 1.0);
        let b = shape(&mut r, 2 + i / 2 % 2, 1.0);
        let rot = Vec3::new(r.random_range(-3.0..3.0), r.random_range(-3.0..3.0), 0.4);
        pairs.push((a, b, Iso3::new(Vec3::new(0.3, 0.1, -0.2), rot)));
    }
    for (i, (a, b, pose)) in pairs.iter().enumerate() {
        let depth = least_depth(a, b);
        let scale = a.bounding_radius().max(b.bounding_radius());
        for c in [contact(pose, a, pose, b, 0.0, &s), contact(pose, b, pose, a, 0.0, &s)] {
            let c = c.unwrap();
            assert!((c.separation + depth).abs() <= 1e-9 * scale, "pair {i}: {c:?}, depth {depth}");
        }
    }
}

/// A capsule laid along the side of a large cone or cylinder, a micrometre off it, far from the
/// origin: the closed form's normal was the direction between the two nearest points, a
/// micrometre apart in coordinates of tens of metres, and missed the separation it came with by
/// 1e-9 of the size. It is now the side's own normal. (Along a ruling past the rim, the nearest
/// point can be the rim, where the normal is not the side's; the capsule stays short of it.)
#[test]
fn a_capsule_a_hair_off_a_large_side_gets_the_side_normal() {
    let s = QuerySettings::<f64>::default();
    let mut r = ChaCha8Rng::seed_from_u64(21);
    let (mut worst_seen, mut checked) = (0.0f64, 0);
    for i in 0..400 {
        let (h, rad) = (r.random_range(2.0..10.0), r.random_range(2.0..10.0));
        let phi = r.random_range(0.0..core::f64::consts::TAU);
        let (c, s_) = (phi.cos(), phi.sin());
        // A point of the side, the side's outward normal there and the room along the ruling to
        // the nearer end of the side, in B's frame.
        let (b, q, m, room): (Shape3<f64>, Vec3<f64>, Vec3<f64>, f64) = if i % 2 == 0 {
            let y = h * r.random_range(-0.8..0.8);
            let side = Vec3::new(c, 0.0, s_);
            (Cylinder::new(h, rad).unwrap().into(), side * rad + Vec3::y() * y, side, h - y.abs())
        } else {
            let k = r.random_range(0.2..0.8);
            let q = Vec3::new(c * rad * k, h - 2.0 * h * k, s_ * rad * k);
            let m = Vec3::new(2.0 * h * c, rad, 2.0 * h * s_).normalize();
            let slant = (4.0 * h * h + rad * rad).sqrt();
            (Cone::new(h, rad).unwrap().into(), q, m, slant * k.min(1.0 - k))
        };
        // Along the side's ruling (within its room), or across it, tangent to the side.
        let half = if i % 4 < 2 {
            let ruling = m.cross(&Vec3::new(-s_, 0.0, c)).normalize();
            ruling * room * r.random_range(0.3..0.9)
        } else {
            m.cross(&Vec3::y()).normalize() * r.random_range(5.0..15.0)
        };
        let (gap, radius) = (1e-6, 1e-3);
        let mid = q + m * (gap + radius);
        let pb = Iso3::new(Vec3::new(40.0, -25.0, 30.0), Vec3::new(0.3, -1.1, 0.8));
        let a: Shape3<f64> =
            Capsule::new((mid - half).into(), (mid + half).into(), radius).unwrap().into();
        let scale = a.bounding_radius().max(b.bounding_radius());
        for (p1, s1, p2, s2) in [(&pb, &a, &pb, &b), (&pb, &b, &pb, &a)] {
            let cp = closest_points(p1, s1, p2, s2, &s);
            let err =
                worst(&cp, (p1, s1), (p2, s2), scale).max((cp.separation - gap).abs() / scale);
            worst_seen = worst_seen.max(err);
            checked += 1;
        }
    }
    assert_eq!(checked, 800);
    // The direction between the nearest points was off by 5e-12 of the size here (2e-9 in a
    // hostile-suite case); the side's normal by 3e-13.
    assert!(worst_seen < 1e-12, "off by {worst_seen:e} of the size");
}

/// A 2 µm cylinder touching a 2 cm hull, from the hostile suite (seed 6161, issue 12): GJK
/// stalled next to the boundary with a direction 0.3 rad off the contact normal, and the polish
/// from it settled on a local minimum, reporting the touching pair 1.3e-8 deep; the shape cast
/// that asked stopped 6.5e-11 short of the contact on that answer. EPA's normal, through the
/// origin, now seeds the polish where its support gap is the larger.
#[test]
fn a_tiny_cylinder_touching_a_hull_is_not_reported_deep() {
    let hull = ConvexPolyhedron::from_points(&[
        Point3::new(0.013342083806009753, -0.0064227275431656084, 0.00335195852212356),
        Point3::new(-0.0004653839141333675, 0.014265256455295819, 0.0041808839048166875),
        Point3::new(-0.007884659030377496, -0.0039301749298407025, 0.007460052544282144),
        Point3::new(-0.0060897237546452794, 0.005247611899177044, -0.013977065635023336),
        Point3::new(0.006494032822286173, -0.006132746710647654, 0.012974788379484513),
        Point3::new(0.01664919245486064, 0.0018988334637511795, 0.005913105155988044),
        Point3::new(0.007180135611431797, 0.0004140280722321784, 0.005595144499652329),
    ])
    .unwrap();
    let (a, b): (Shape3<f64>, Shape3<f64>) =
        (hull.into(), Cylinder::new(1.3643235803036478e-6, 1.1707516418456276e-6).unwrap().into());
    let pose = |t: [f64; 3], [w, i, j, k]: [f64; 4]| {
        Iso3::from_parts(
            Translation3::new(t[0], t[1], t[2]),
            UnitQuaternion::new_unchecked(Quaternion::new(w, i, j, k)),
        )
    };
    let pa = pose(
        [-0.012973630742814149, -0.00464641171434093, -0.003307183248915968],
        [0.711777330073809, 0.4427442265042453, -0.2718034430222195, 0.47272980723815666],
    );
    let pb = pose(
        [-0.00777429822285463, -0.0023898740326153485, 0.013535792536011284],
        [0.08717370500565844, 0.6341463511039201, 0.4118553149529495, -0.6485632968972088],
    );
    let vb = Vec3::new(-0.00849738009697444, -0.005946324258661381, -0.02869008367490073);
    let s = QuerySettings::<f64>::default();
    let scale = a.bounding_radius();
    // At the time of contact the cast found before the fix too; the pair touches there.
    let t = 6.569896128130434e-6;
    let touching = Iso3::from_parts((pb.translation.vector + vb * t).into(), pb.rotation);
    let cp = closest_points(&pa, &a, &touching, &b, &s);
    let identity = (cp.point_b - cp.point_a - cp.normal * cp.separation).norm();
    let sa = pa * a.local_support_point(&pa.inverse_transform_vector(&cp.normal));
    let sb = touching * b.local_support_point(&touching.inverse_transform_vector(&-cp.normal));
    let gap = (sb - sa).dot(&cp.normal);
    let off_b = sdf(&b, &touching.inverse_transform_point(&cp.point_b)).abs();
    assert!(cp.separation.abs() < 1e-9 * scale, "{cp:?}");
    assert!(identity.max((gap - cp.separation).abs()).max(off_b) < 1e-9 * scale, "{cp:?}");
    // The time of impact is at least the hostile oracle's lower bound.
    let hit = shape_cast(&pa, &Vec3::zeros(), &a, &pb, &vb, &b, 1.0, &s).unwrap();
    assert!(hit.t >= 6.5698913969836095e-6 && hit.t <= 6.5699e-6, "{hit:?}");
}
