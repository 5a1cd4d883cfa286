//! Benchmarks of every query on the hostile suite's worst inputs (issue 12's timing goal: no
//! query on shapes of at most 1000 vertices takes over 1 ms).
//!
//! The inputs come from the hostile suite's own generator (`kollide-hostile`), class
//! `hull1000`: two 1000-vertex hulls (polygons in 2D, polyhedra in 3D) that are coincident,
//! nested, or touching, in `f32` and `f64`; and the curved pairs whose EPA runs longest
//! (cylinder–cone and capsule–capsule, coincident); single cases pinned for what they once
//! cost ([`PINNED`]); and two 1000-vertex hulls of a cylinder stacked cap on cap, whose caps of
//! 500 vertices make the largest faces a hull of that size can have. Group `hostile/<dim>-<pair>-<config>-<scalar>`, one function per query. The suite's runner (`cargo xtask hostile`) also reports the slowest
//! single call per query over all its cases; that is a spot check, this is the measurement.

use std::hint::black_box;

use criterion::Criterion;
use kollide::math::{Iso2, Iso3, Point3, Pose, Scalar, Vector};
use kollide::narrowphase::{
    QuerySettings, Ray, closest_points, contact, directional_penetration, distance,
    intersection_test, manifold2, manifold3, ray_cast, shape_cast,
};
use kollide::shapes::{ConvexPolyhedron, Shape3, SupportMap};
use kollide_benches::one_iteration;
use kollide_hostile::cases::{Case, Class, Kind, case_seed, generate};
use kollide_hostile::geom::V;
use kollide_hostile::run::{Built3, MakePose, Motion, build2, build3, round};

/// The seed of the benchmark's cases.
const SEED: u64 = 2026;

/// The first case of `class` for kinds `(a, b)` whose configuration is `mode` (for `hull1000`:
/// 0 coincident, 1 nested, 2 touching, chosen by the seed modulo 3).
fn case<const D: usize>(a: Kind, b: Kind, class: Class, mode: Option<u64>, f32: bool) -> Case<D> {
    let seed = (0..)
        .map(|i| case_seed(SEED, D, a, b, class, i))
        .find(|s| mode.is_none_or(|m| s % 3 == m))
        .expect("some seed has the mode");
    generate::<D>(a, b, class, seed, f32)
}

fn vn<N: Scalar, const D: usize>(v: &kollide_hostile::geom::V<D>) -> Vector<N, D> {
    Vector::<N, D>::from_fn(|i, _| N::lit(v[i]))
}

/// Times `f`, one call per iteration, through `one_iteration` (so that `cargo xtask bench
/// --instructions` can count it).
fn time<R>(bch: &mut criterion::Bencher<'_>, mut f: impl FnMut() -> R) {
    bch.iter(|| one_iteration(&mut f));
}

/// Benchmarks the generic queries on one posed pair.
fn bench_queries<N, const D: usize, P, A, B>(
    c: &mut Criterion,
    group: &str,
    (pa, a): (&P, &A),
    (pb, b): (&P, &B),
    m: &Motion<D>,
    manifold: Option<&dyn Fn() -> usize>,
) where
    N: Scalar,
    P: Pose<N, D>,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    let s = QuerySettings::<N>::default();
    let mut g = c.benchmark_group(group);
    g.bench_function("intersection_test", |bch| {
        time(bch, || intersection_test(black_box(pa), a, black_box(pb), b, None, &s).intersecting)
    });
    g.bench_function("contact", |bch| {
        time(bch, || {
            contact(black_box(pa), a, black_box(pb), b, N::zero(), &s).map(|k| k.separation)
        })
    });
    g.bench_function("closest_points", |bch| {
        time(bch, || closest_points(black_box(pa), a, black_box(pb), b, &s).separation)
    });
    g.bench_function("distance", |bch| {
        time(bch, || distance(black_box(pa), a, black_box(pb), b, &s).0)
    });
    let dir = vn::<N, D>(&m.dir);
    g.bench_function("directional_penetration", |bch| {
        time(bch, || {
            directional_penetration(black_box(pa), a, black_box(pb), b, &dir, &s).map(|h| h.t)
        })
    });
    let (va, vb) = (vn::<N, D>(&m.vel_a), vn::<N, D>(&m.vel_b));
    g.bench_function("shape_cast", |bch| {
        time(bch, || {
            shape_cast(black_box(pa), &va, a, black_box(pb), &vb, b, N::one(), &s).map(|h| h.t)
        })
    });
    let ray = Ray { origin: (vn::<N, D>(&m.ray_origin)).into(), dir: vn::<N, D>(&m.ray_dir) };
    g.bench_function("ray_cast", |bch| {
        time(bch, || ray_cast(black_box(pa), a, black_box(&ray), N::lit(10.0), &s).map(|h| h.t))
    });
    if let Some(f) = manifold {
        g.bench_function("manifold", |bch| time(bch, f));
    }
    g.finish();
}

fn bench_2d<N: Scalar>(c: &mut Criterion, name: &str, kc: &Case<2>) {
    let (a, b) = (kc.a.map(&round::<N>), kc.b.map(&round::<N>));
    let (sa, sb) = (build2::<N>(&a).expect("valid A"), build2::<N>(&b).expect("valid B"));
    let (pa, _) = <Iso2<N> as MakePose<N, 2>>::make(&kc.pose_a);
    let (pb, _) = <Iso2<N> as MakePose<N, 2>>::make(&kc.pose_b);
    let m = Motion::of::<N>(kc);
    let man = || manifold2::<N, ()>(&pa, &sa, &pb, &sb, N::zero()).len();
    bench_queries(c, name, (&pa, &sa), (&pb, &sb), &m, Some(&man));
}

fn bench_3d<N: Scalar>(c: &mut Criterion, name: &str, kc: &Case<3>) {
    let (a, b) = (kc.a.map(&round::<N>), kc.b.map(&round::<N>));
    let (Built3::S(sa), Built3::S(sb)) =
        (build3::<N>(&a).expect("valid A"), build3::<N>(&b).expect("valid B"))
    else {
        panic!("the benchmarked pairs are Shape3 pairs");
    };
    let (pa, _) = <Iso3<N> as MakePose<N, 3>>::make(&kc.pose_a);
    let (pb, _) = <Iso3<N> as MakePose<N, 3>>::make(&kc.pose_b);
    let m = Motion::of::<N>(kc);
    let man = || manifold3::<N, ()>(&pa, &sa, &pb, &sb, N::zero()).len();
    bench_queries(c, name, (&pa, &sa), (&pb, &sb), &m, Some(&man));
}

/// `hostile/<dim>-hulls-<config>-<scalar>`: two 1000-vertex hulls.
fn hulls(c: &mut Criterion) {
    for (mode, config) in [(0, "coincident"), (1, "nested"), (2, "touching")] {
        let k2 = case::<2>(Kind::Hull, Kind::Hull, Class::Hull1000, Some(mode), true);
        bench_2d::<f32>(c, &format!("hostile/2d-hulls-{config}-f32"), &k2);
        let k2 = case::<2>(Kind::Hull, Kind::Hull, Class::Hull1000, Some(mode), false);
        bench_2d::<f64>(c, &format!("hostile/2d-hulls-{config}-f64"), &k2);
        let k3 = case::<3>(Kind::Hull, Kind::Hull, Class::Hull1000, Some(mode), true);
        bench_3d::<f32>(c, &format!("hostile/3d-hulls-{config}-f32"), &k3);
        let k3 = case::<3>(Kind::Hull, Kind::Hull, Class::Hull1000, Some(mode), false);
        bench_3d::<f64>(c, &format!("hostile/3d-hulls-{config}-f64"), &k3);
    }
}

/// `hostile/3d-<pair>-coincident-<scalar>`: curved pairs at one pose (EPA on round cores).
fn curved(c: &mut Criterion) {
    for (a, b, name) in [
        (Kind::Cylinder, Kind::Cone, "cylinder-cone"),
        (Kind::Capsule, Kind::Capsule, "capsule-capsule"),
    ] {
        let k = case::<3>(a, b, Class::Coincident, None, true);
        bench_3d::<f32>(c, &format!("hostile/3d-{name}-coincident-f32"), &k);
        let k = case::<3>(a, b, Class::Coincident, None, false);
        bench_3d::<f64>(c, &format!("hostile/3d-{name}-coincident-f64"), &k);
    }
}

/// A single case of the suite, kept for what it once cost: `hostile/<name>-<scalar>`, in `f32`
/// and, when `f64` is set, in `f64` as well.
struct Pinned {
    name: &'static str,
    dim: usize,
    kinds: (Kind, Kind),
    class: Class,
    seed: u64,
    f64: bool,
}

/// The pinned cases, each with why it is here.
const PINNED: [Pinned; 13] = [
    // A box against a 1000-vertex hull, touching: the slowest pair of the suite's CI slice before
    // the exact test of large hulls against small polytopes pruned its edge pairs by their
    // Gauss-map arcs (`sat_large.rs`).
    Pinned {
        name: "3d-cuboid-hull-touching",
        dim: 3,
        kinds: (Kind::Cuboid, Kind::Hull),
        class: Class::Hull1000,
        seed: 0x7d9d_9a8f_5fae_8178,
        f64: true,
    },
    // A 1000-vertex hull 55 deep in one 52 times its size, which in `f32` went to the exact test
    // of both hulls (1.4 ms a contact) before a depth was held to the length tolerance relative
    // to itself.
    Pinned {
        name: "3d-hull-deep-in-hull",
        dim: 3,
        kinds: (Kind::Hull, Kind::Hull),
        class: Class::Hull1000,
        seed: 0xc636_ab45_62de_1c3d,
        f64: true,
    },
    // Two touching 1000-vertex hulls on which `f32` GJK stalls: `distance` and `contact` went to
    // the exact test of both hulls (1.2–1.4 ms) before the stalled run was repeated in `f64`
    // first.
    Pinned {
        name: "3d-hulls-touching-stalled",
        dim: 3,
        kinds: (Kind::Hull, Kind::Hull),
        class: Class::Hull1000,
        seed: 0x3587_192b_bab5_0984,
        f64: false,
    },
    // Two coincident cones whose `f32` contact took 1.3 ms in the hostile suite (seed 999,
    // 2026-11-27): EPA on the curved difference runs to its cap, and `f32` runs it a second time
    // in `f64`.
    Pinned {
        name: "3d-cone-cone-slowest",
        dim: 3,
        kinds: (Kind::Cone, Kind::Cone),
        class: Class::Coincident,
        seed: 0x3dc7_42dc_1288_0cbc,
        f64: true,
    },
    // The slowest curved pairs of hostile seed 8484 (2026-11-29, minimum of five calls): two
    // coincident cones (`f32` contact 1.14 ms) and a cylinder in a cone (`f32` contact 1.07 ms),
    // whose EPA runs to its cap on a ring of equally deep normals; it scanned every vertex of
    // its polytope for each new support point before it looked at the horizon's alone.
    Pinned {
        name: "3d-cone-cone-slowest-8484",
        dim: 3,
        kinds: (Kind::Cone, Kind::Cone),
        class: Class::Coincident,
        seed: 0xffee_98cc_81e8_1e2a,
        f64: true,
    },
    Pinned {
        name: "3d-cylinder-cone-slowest-8484",
        dim: 3,
        kinds: (Kind::Cylinder, Kind::Cone),
        class: Class::Coincident,
        seed: 0xdc92_08b4_8818_5edf,
        f64: true,
    },
    // Two coincident 1000-vertex hulls (hostile seed 8484) whose `f32` manifold walked both
    // Gauss maps in full, over the 1 ms goal, until the certificate of the features around EPA's
    // normal allowed for the flatness of the hulls' merged faces.
    Pinned {
        name: "3d-hulls-manifold-slowest-8484",
        dim: 3,
        kinds: (Kind::Hull, Kind::Hull),
        class: Class::Hull1000,
        seed: 0x1f0f_459a_da19_45d6,
        f64: false,
    },
    // A 1000-point hull against a small segment whose `f32` directional penetration went to the
    // exact test and tried every axis against every vertex (1.1 ms) before 2D pairs with a vertex
    // loop walked it at a smaller size.
    Pinned {
        name: "2d-hull-segment-slowest",
        dim: 2,
        kinds: (Kind::Hull, Kind::Segment),
        class: Class::Hull1000,
        seed: 0xb333_184c_d10c_6653,
        f64: false,
    },
    // Two 1000-vertex hulls (the small one nested) whose `f32` directional penetration ended on a
    // normal that missed its depth, so that the pair query at its `t` settled it, in the exact
    // test of both hulls (1.34 ms in the suite, minimum of three calls; hostile seed 7070) before
    // the cast was repeated in `f64` first.
    Pinned {
        name: "3d-hulls-directional-slowest",
        dim: 3,
        kinds: (Kind::Hull, Kind::Hull),
        class: Class::Hull1000,
        seed: 0x1476_c81b_27db_9bdb,
        f64: false,
    },
    // A 1000-vertex hull pushed out of one 45 times its size (`f32`, hostile seed 4242; case
    // `0x8271e1e5e59004c4` is another): the cast's normal attains its depth, but the `f32` check
    // of it read the rounding of the cast's start a metre out as a miss, and the pair query at
    // the exit walked both hulls (1.3–2.1 ms) before the check allowed for that rounding.
    Pinned {
        name: "3d-hulls-directional-rounding",
        dim: 3,
        kinds: (Kind::Hull, Kind::Hull),
        class: Class::Hull1000,
        seed: 0x8d07_50e9_14ca_0e30,
        f64: false,
    },
    // Two overlapping 1000-vertex hulls cast at each other (hostile seed 4242): the cast asked
    // for a support point along a zero direction, on which every vertex ties, and the climb's
    // walk of that plateau visited the whole hull (about 1 ms a cast in both scalars).
    Pinned {
        name: "3d-hulls-overlapping-cast",
        dim: 3,
        kinds: (Kind::Hull, Kind::Hull),
        class: Class::Hull1000,
        seed: 0xf731_f439_8f49_92f4,
        f64: true,
    },
    // Two 1000-vertex hulls 4e-7 apart (a sweep of the `hull1000` cases, 2026-12-07): `f64` GJK
    // stalls with a bracket of 3e-8, and `distance` and `closest_points` walked both Gauss maps
    // in the exact test (1.0 ms) before they handed it GJK's direction to start from.
    Pinned {
        name: "3d-hulls-touching-distance",
        dim: 3,
        kinds: (Kind::Hull, Kind::Hull),
        class: Class::Hull1000,
        seed: 0x41fe_efa6_95aa_9948,
        f64: true,
    },
    // A 1 mm 1000-vertex hull sunk 6e-8 into one 0.13 across (hostile seed 4747): the `f32`
    // directional penetration's pair query went to the exact test, whose `f64` GJK found the
    // origin inside, and walked both hulls (0.92 ms, minimum of five) before EPA on the same
    // vertices gave the features to prove and the bound to prove them against.
    Pinned {
        name: "3d-hulls-overlapping-directional",
        dim: 3,
        kinds: (Kind::Hull, Kind::Hull),
        class: Class::Hull1000,
        seed: 0x5954_2bb3_1fdc_448b,
        f64: false,
    },
];

/// `hostile/<name>-<scalar>` for each of [`PINNED`].
fn pinned(c: &mut Criterion) {
    for p in &PINNED {
        let ((a, b), class, seed) = (p.kinds, p.class, p.seed);
        let group = |scalar: &str| format!("hostile/{}-{scalar}", p.name);
        if p.dim == 2 {
            bench_2d::<f32>(c, &group("f32"), &generate::<2>(a, b, class, seed, true));
            if p.f64 {
                bench_2d::<f64>(c, &group("f64"), &generate::<2>(a, b, class, seed, false));
            }
        } else {
            bench_3d::<f32>(c, &group("f32"), &generate::<3>(a, b, class, seed, true));
            if p.f64 {
                bench_3d::<f64>(c, &group("f64"), &generate::<3>(a, b, class, seed, false));
            }
        }
    }
}

/// `hostile/3d-cylinder-hulls-stacked-<scalar>`: two 1000-vertex hulls of a cylinder (two rings
/// of 500 points), one resting 0.1 deep on the other's cap, axes aligned. Every vertex of a cap
/// ties along the axis (the climb's plateau), and the manifold clips a 500-gon against the 500
/// side planes of the other.
fn stacked_cylinders(c: &mut Criterion) {
    fn run<N: Scalar>(c: &mut Criterion, name: &str) {
        let ring = |y: f64| {
            (0..500).map(move |k| {
                let a = k as f64 * core::f64::consts::TAU / 500.0;
                Point3::new(N::lit(a.cos()), N::lit(y), N::lit(a.sin()))
            })
        };
        let pts: Vec<_> = ring(-1.0).chain(ring(1.0)).collect();
        let hull: Shape3<N> =
            ConvexPolyhedron::from_points(&pts).expect("a cylinder's hull").into();
        let (pa, pb) = (Iso3::identity(), Iso3::translation(N::zero(), N::lit(1.9), N::zero()));
        let m = Motion {
            vel_a: V::<3>::zeros(),
            vel_b: V::<3>::new(0.3, -1.0, 0.2),
            dir: V::<3>::new(0.0, 1.0, 0.0),
            ray_origin: V::<3>::new(0.2, 5.0, 0.1),
            ray_dir: V::<3>::new(0.0, -1.0, 0.0),
        };
        let man = || manifold3::<N, ()>(&pa, &hull, &pb, &hull, N::zero()).len();
        bench_queries(c, name, (&pa, &hull), (&pb, &hull), &m, Some(&man));
    }
    run::<f32>(c, "hostile/3d-cylinder-hulls-stacked-f32");
    run::<f64>(c, "hostile/3d-cylinder-hulls-stacked-f64");
}

short_bench_group!(super::hulls, super::curved, super::pinned, super::stacked_cylinders);
