//! The bounding-volume tree against brute force: after random inserts, moves and removes (and
//! on static builds), every query gives what a loop over all boxes gives, and the invariants
//! hold. 2D and 3D, f32 and f64, with zero-size boxes, rays parallel to the axes, rays
//! starting inside boxes, and coordinates near 1e5.

use kollide_math::{Point, Point2, Point3, Scalar, Vec2, Vector};
use kollide_shapes::Aabb;
use kollide_shapes::tree::{ProxyId, Tree, TreeError};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A scene: boxes in a cube of side `span` around `offset`, some of zero size.
struct Gen {
    rng: ChaCha8Rng,
    offset: f64,
    span: f64,
}

impl Gen {
    fn new(seed: u64, offset: f64, span: f64) -> Self {
        Self { rng: ChaCha8Rng::seed_from_u64(seed), offset, span }
    }

    fn unit(&mut self) -> f64 {
        self.rng.random::<f64>()
    }

    fn point<N: Scalar, const D: usize>(&mut self) -> Point<N, D> {
        let mut p = Point::<N, D>::origin();
        for k in 0..D {
            p[k] = N::lit(self.offset + (self.unit() - 0.5) * self.span);
        }
        p
    }

    fn aabb<N: Scalar, const D: usize>(&mut self) -> Aabb<N, D> {
        let c = self.point::<N, D>();
        let mut h = Vector::<N, D>::zeros();
        if self.unit() > 0.1 {
            for k in 0..D {
                h[k] = N::lit(self.unit() * self.span * 0.02);
            }
        }
        Aabb::new(c - h, c + h)
    }

    /// A direction: random, axis-parallel, or with one zero component.
    fn dir<N: Scalar, const D: usize>(&mut self) -> Vector<N, D> {
        let mut d = Vector::<N, D>::zeros();
        let kind = self.unit();
        for k in 0..D {
            d[k] = N::lit(self.unit() * 2.0 - 1.0);
        }
        if kind < 0.2 {
            let axis = (self.unit() * D as f64) as usize % D;
            d = Vector::zeros();
            d[axis] = N::lit(if self.unit() < 0.5 { -1.0 } else { 1.0 });
        } else if kind < 0.35 {
            d[0] = N::zero();
        }
        d
    }
}

/// The oracle's ray–box test, written with divisions in f64 and the box grown by `grow` (which
/// may be negative). `None` for a box the ray misses within `[0, max_t]`.
fn ray_box<N: Scalar, const D: usize>(
    aabb: &Aabb<N, D>,
    o: &Point<N, D>,
    d: &Vector<N, D>,
    max_t: f64,
    grow: f64,
) -> Option<f64> {
    let (mut lo, mut hi) = (0.0f64, max_t);
    for k in 0..D {
        let (min, max) = (aabb.mins[k].to_f64() - grow, aabb.maxs[k].to_f64() + grow);
        let (o, d) = (o[k].to_f64(), d[k].to_f64());
        if min > max {
            return None;
        }
        if d == 0.0 {
            if o < min || o > max {
                return None;
            }
            continue;
        }
        let (t1, t2) = ((min - o) / d, (max - o) / d);
        lo = lo.max(t1.min(t2));
        hi = hi.min(t1.max(t2));
    }
    (lo <= hi).then_some(lo)
}

fn distance<N: Scalar, const D: usize>(aabb: &Aabb<N, D>, p: &Point<N, D>) -> f64 {
    let mut s = 0.0;
    for k in 0..D {
        let (p, lo, hi) = (p[k].to_f64(), aabb.mins[k].to_f64(), aabb.maxs[k].to_f64());
        let d = (lo - p).max(p - hi).max(0.0);
        s += d * d;
    }
    s.sqrt()
}

/// The rounding slack of the oracle comparison at this scale.
fn slack<N: Scalar>(g: &Gen) -> f64 {
    (g.offset.abs() + g.span) * N::EPSILON.to_f64() * 64.0
}

/// Every query of `tree` (whose live leaves hold the boxes `boxes[data]`) against brute force.
fn check_queries<N: Scalar, const D: usize>(
    tree: &Tree<N, D>,
    boxes: &[Option<Aabb<N, D>>],
    g: &mut Gen,
    queries: usize,
) {
    let live: Vec<(u32, Aabb<N, D>)> =
        boxes.iter().enumerate().filter_map(|(i, b)| b.map(|b| (i as u32, b))).collect();
    let eps = slack::<N>(g);
    for _ in 0..queries {
        // Box overlap: exact (the same comparisons).
        let q = g.aabb::<N, D>();
        let mut found = Vec::new();
        tree.query_aabb(&q, |d| {
            found.push(d);
            true
        });
        found.sort_unstable();
        let brute: Vec<u32> =
            live.iter().filter(|(_, b)| b.intersects(&q)).map(|(i, _)| *i).collect();
        assert_eq!(found, brute, "aabb query");
        // Point: exact.
        let p = if g.unit() < 0.3 && !live.is_empty() {
            live[(g.unit() * live.len() as f64) as usize % live.len()].1.mins
        } else {
            g.point::<N, D>()
        };
        let mut found = Vec::new();
        tree.query_point(&p, |d| {
            found.push(d);
            true
        });
        found.sort_unstable();
        let brute: Vec<u32> =
            live.iter().filter(|(_, b)| b.contains_point(&p)).map(|(i, _)| *i).collect();
        assert_eq!(found, brute, "point query");
        // Ray, all boxes: between the oracle's hits on shrunk and on grown boxes.
        let o = if g.unit() < 0.3 && !live.is_empty() {
            live[(g.unit() * live.len() as f64) as usize % live.len()].1.center()
        } else {
            g.point::<N, D>()
        };
        let d = g.dir::<N, D>();
        let max_t = N::lit(g.unit() * g.span);
        let mut found = Vec::new();
        tree.cast_ray(&o, &d, max_t, |data, t| {
            found.push(data);
            Some(t)
        });
        found.sort_unstable();
        let m = max_t.to_f64();
        for (i, b) in &live {
            let sure = ray_box(b, &o, &d, m * (1.0 - 1e-6), -eps).is_some();
            let maybe = ray_box(b, &o, &d, m * (1.0 + 1e-6) + eps, eps).is_some();
            let got = found.binary_search(i).is_ok();
            assert!(!sure || got, "ray missed box {i}");
            assert!(!got || maybe, "ray found box {i} it does not reach");
        }
        // Ray, closest box: the callback shortens the ray to each hit.
        let mut best: Option<f64> = None;
        tree.cast_ray(&o, &d, max_t, |data, t| {
            let b = boxes[data as usize].unwrap();
            match ray_box(&b, &o, &d, m, 0.0) {
                Some(h) => {
                    best = Some(best.map_or(h, |x| x.min(h)));
                    Some(t.min_of(N::lit(h)))
                }
                None => Some(t),
            }
        });
        let brute = live.iter().filter_map(|(_, b)| ray_box(b, &o, &d, m, 0.0)).reduce(f64::min);
        let dnorm = (0..D).map(|k| d[k].to_f64().abs()).fold(0.0, f64::max).max(1e-300);
        match (best, brute) {
            (Some(a), Some(b)) => assert!((a - b).abs() * dnorm <= eps, "closest {a} vs {b}"),
            (None, None) => {}
            (a, b) => {
                // Only a grazing hit may be seen by one side alone.
                let t = a.or(b).unwrap();
                let near = live.iter().any(|(_, bx)| {
                    ray_box(bx, &o, &d, m, eps).is_some() != ray_box(bx, &o, &d, m, -eps).is_some()
                });
                assert!(near, "closest: tree {a:?}, brute force {b:?} (t {t})");
            }
        }
        // Nearest box to a point.
        let mut best = f64::INFINITY;
        tree.nearest(&p, N::MAX, |data, bound| {
            let dist = distance(&boxes[data as usize].unwrap(), &p);
            best = best.min(dist);
            Some(bound.min_of(N::lit(dist)))
        });
        let brute = live.iter().map(|(_, b)| distance(b, &p)).fold(f64::INFINITY, f64::min);
        assert!((best - brute).abs() <= eps || best == brute, "nearest {best} vs {brute}");
    }
}

/// Bits for a leaf or a mask: one bit (often the top two), none, all, or any.
fn random_bits(g: &mut Gen) -> u32 {
    let r = g.unit();
    let bit = |k: f64| 1u32 << ((k * 32.0) as u32).min(31);
    if r < 0.35 {
        bit(g.unit())
    } else if r < 0.55 {
        if g.unit() < 0.5 { 1 << 30 } else { 1 << 31 }
    } else if r < 0.65 {
        0
    } else if r < 0.75 {
        u32::MAX
    } else {
        g.rng.random::<u32>() & g.rng.random::<u32>()
    }
}

/// The masked queries against brute force: every live leaf whose box overlaps (the ray
/// reaches, lies within the distance) and whose bits meet the mask is reported, and every
/// reported leaf overlaps and meets the mask.
/// Returns how many box queries the mask pruned to less than the unmasked query visits.
fn check_masked<N: Scalar, const D: usize>(
    tree: &Tree<N, D>,
    boxes: &[Option<Aabb<N, D>>],
    bits: &[u32],
    g: &mut Gen,
    queries: usize,
) -> usize {
    let mut pruned = 0;
    for _ in 0..queries {
        let q = g.aabb::<N, D>().loosened(N::lit(g.unit() * 30.0));
        let mask = random_bits(g);
        let mut found = Vec::new();
        let visited = tree.query_aabb_masked(&q, mask, |d| {
            found.push(d);
            true
        });
        pruned += usize::from(visited < tree.query_aabb(&q, |_| true));
        for (i, b) in boxes.iter().enumerate() {
            let Some(b) = b else { continue };
            let overlaps = b.intersects(&q);
            let meets = bits[i] & mask != 0;
            let got = found.contains(&(i as u32));
            assert!(!(overlaps && meets) || got, "masked query missed leaf {i}");
            assert!(!got || (overlaps && meets), "masked query found leaf {i}");
        }
        if mask == 0 {
            assert!(found.is_empty() && visited <= 1, "mask 0 visited {visited} nodes");
        }
        // A ray and a nearest-box walk under the same mask: what they surely reach and meets
        // the mask is found, and what they find may be reached and meets it.
        let eps = slack::<N>(g);
        let (o, d, max_t) = (g.point::<N, D>(), g.dir::<N, D>(), N::lit(g.unit() * g.span));
        let mut rayed = Vec::new();
        tree.cast_ray_masked(&o, &d, max_t, mask, |data, t| {
            rayed.push(data);
            Some(t)
        });
        let (p, r) = (g.point::<N, D>(), g.unit() * g.span * 0.3);
        let mut near = Vec::new();
        tree.nearest_masked(&p, N::lit(r), mask, |data, bound| {
            near.push(data);
            Some(bound)
        });
        let m = max_t.to_f64();
        for (i, b) in boxes.iter().enumerate() {
            let Some(b) = b else { continue };
            let meets = bits[i] & mask != 0;
            let sure = ray_box(b, &o, &d, m * (1.0 - 1e-6), -eps).is_some();
            let maybe = ray_box(b, &o, &d, m * (1.0 + 1e-6) + eps, eps).is_some();
            let got = rayed.contains(&(i as u32));
            assert!(!(sure && meets) || got, "masked ray missed leaf {i}");
            assert!(!got || (maybe && meets), "masked ray found leaf {i}");
            let dist = distance(b, &p);
            let got = near.contains(&(i as u32));
            assert!(!(dist <= r - eps && meets) || got, "masked nearest missed leaf {i}");
            assert!(!got || (dist <= r + eps && meets), "masked nearest found leaf {i}");
        }
    }
    pruned
}

fn log2(n: usize) -> f64 {
    (n.max(2) as f64).log2()
}

/// Random inserts, moves and removes; invariants, fat boxes, height and queries checked.
fn dynamic_case<N: Scalar, const D: usize>(seed: u64, offset: f64) {
    dynamic_case_moved_by::<N, D>(seed, offset, false);
}

/// [`dynamic_case`], with the moved leaves either inserted again ([`Tree::move_proxy`]) or,
/// when `enlarge`, grown in place ([`Tree::enlarge_proxy`]) and the tree partly rebuilt every
/// so often ([`Tree::rebuild_enlarged`]); its queries are checked with the tree enlarged, before
/// the partial rebuild, and again after it.
fn dynamic_case_moved_by<N: Scalar, const D: usize>(seed: u64, offset: f64, enlarge: bool) {
    let mut g = Gen::new(seed, offset, 100.0);
    let margin = N::lit(0.5);
    let mut tree = Tree::<N, D>::new();
    let mut ids: Vec<Option<ProxyId>> = Vec::new();
    let mut tight: Vec<Option<Aabb<N, D>>> = Vec::new();
    let mut bits: Vec<u32> = Vec::new();
    let (mut reinserted, mut pruned) = (0, 0);
    for round in 0..8 {
        for _ in 0..150 {
            let r = g.unit();
            let live: Vec<usize> = (0..ids.len()).filter(|&i| ids[i].is_some()).collect();
            if r < 0.45 || live.is_empty() {
                let b = g.aabb::<N, D>();
                let id = tree.create_proxy(&b, margin, ids.len() as u32).unwrap();
                assert_eq!(tree.proxy_bits(id), Some(u32::MAX));
                bits.push(u32::MAX);
                // From the third round on: the tree first runs without bits, then takes them
                // while it holds many leaves.
                if round >= 2 && g.unit() < 0.7 {
                    bits[ids.len()] = random_bits(&mut g);
                    tree.set_proxy_bits(id, bits[ids.len()]).unwrap();
                }
                ids.push(Some(id));
                tight.push(Some(b));
            } else if r < 0.85 {
                let i = live[(g.unit() * live.len() as f64) as usize % live.len()];
                let old = tight[i].unwrap();
                // Small moves mostly stay inside the fat box; large ones do not.
                let step = if g.unit() < 0.7 { 0.2 } else { 20.0 };
                let mut dv = Vector::<N, D>::zeros();
                for k in 0..D {
                    dv[k] = N::lit((g.unit() - 0.5) * step);
                }
                let b = Aabb::new(old.mins + dv, old.maxs + dv);
                let id = ids[i].unwrap();
                let moved = if enlarge {
                    tree.enlarge_proxy(id, &b, margin).unwrap()
                } else {
                    tree.move_proxy(id, &b, margin).unwrap()
                };
                reinserted += usize::from(moved);
                tight[i] = Some(b);
                if round >= 2 && g.unit() < 0.1 {
                    bits[i] = random_bits(&mut g);
                    tree.set_proxy_bits(id, bits[i]).unwrap();
                }
            } else {
                let i = live[(g.unit() * live.len() as f64) as usize % live.len()];
                assert_eq!(tree.remove_proxy(ids[i].unwrap()), Ok(i as u32));
                ids[i] = None;
                tight[i] = None;
            }
        }
        if enlarge {
            // Enlarged, the tree answers exactly (its boxes still contain their children's).
            tree.check_invariants().unwrap();
            let fat: Vec<Option<Aabb<N, D>>> =
                ids.iter().map(|id| id.map(|id| *tree.fat_aabb(id).unwrap())).collect();
            check_queries(&tree, &fat, &mut g, 20);
            pruned += check_masked(&tree, &fat, &bits, &mut g, 20);
            tree.rebuild_enlarged();
        }
        if round % 3 == 2 {
            // A rebuild keeps every id, its box and its data.
            let cost = tree.area_cost().to_f64();
            tree.rebuild();
            assert!(tree.area_cost().to_f64() <= cost * 1.5, "the rebuild made the tree worse");
        }
        tree.check_invariants().unwrap();
        let fat: Vec<Option<Aabb<N, D>>> =
            ids.iter().map(|id| id.map(|id| *tree.fat_aabb(id).unwrap())).collect();
        for (i, id) in ids.iter().enumerate() {
            if let Some(id) = id {
                let (f, t) = (fat[i].unwrap(), tight[i].unwrap());
                assert!((0..D).all(|k| f.mins[k] <= t.mins[k] && t.maxs[k] <= f.maxs[k]));
                assert_eq!(tree.data(*id), Some(i as u32));
            }
        }
        let n = tree.len();
        assert_eq!(n, ids.iter().flatten().count());
        assert!(
            f64::from(tree.height()) <= 2.0 * log2(n),
            "round {round}: height {} for {n} leaves",
            tree.height()
        );
        check_queries(&tree, &fat, &mut g, 40);
        pruned += check_masked(&tree, &fat, &bits, &mut g, 40);
        for (i, id) in ids.iter().enumerate() {
            assert_eq!(id.map(|id| tree.proxy_bits(id).unwrap()), id.map(|_| bits[i]));
        }
    }
    assert!(reinserted > 50, "the re-insertion path ran only {reinserted} times");
    assert!(pruned > 40, "the mask pruned only {pruned} queries");
}

#[test]
fn dynamic_tree_matches_brute_force() {
    for seed in 0..6 {
        dynamic_case::<f64, 2>(seed, 0.0);
        dynamic_case::<f64, 3>(seed, 0.0);
        dynamic_case::<f32, 2>(seed, 0.0);
        dynamic_case::<f32, 3>(seed, 0.0);
    }
}

#[test]
fn dynamic_tree_with_leaves_enlarged_in_place_matches_brute_force() {
    for seed in 20..26 {
        dynamic_case_moved_by::<f64, 2>(seed, 0.0, true);
        dynamic_case_moved_by::<f64, 3>(seed, 0.0, true);
        dynamic_case_moved_by::<f32, 2>(seed, 0.0, true);
        dynamic_case_moved_by::<f32, 3>(seed, 1e5, true);
    }
}

/// One leaf of many moved far: the leaf answers where it went, a second move inside its new
/// box changes nothing, and after the partial rebuild the tree is as cheap to query as the
/// full build was.
#[test]
fn a_partial_rebuild_rebuilds_only_above_moved_leaves() {
    let mut g = Gen::new(77, 0.0, 100.0);
    let boxes: Vec<Aabb<f64, 2>> = (0..4096).map(|_| g.aabb::<f64, 2>()).collect();
    let mut tree = Tree::<f64, 2>::new();
    let ids: Vec<ProxyId> = boxes
        .iter()
        .enumerate()
        .map(|(i, b)| tree.create_proxy(b, 0.1, i as u32).unwrap())
        .collect();
    tree.rebuild();
    let cost = tree.area_cost();
    let b = Aabb::new(boxes[7].mins.map(|x| x + 30.0), boxes[7].maxs.map(|x| x + 30.0));
    assert!(tree.enlarge_proxy(ids[7], &b, 0.1).unwrap());
    assert!(!tree.enlarge_proxy(ids[7], &b, 0.1).unwrap(), "a box inside its leaf moves nothing");
    tree.rebuild_enlarged();
    tree.check_invariants().unwrap();
    assert!(tree.area_cost() < cost * 1.05, "{} against {cost}", tree.area_cost());
    let mut found = Vec::new();
    tree.query_aabb(&b, |d| {
        found.push(d);
        true
    });
    assert!(found.contains(&7));
}

#[test]
fn dynamic_tree_far_from_the_origin() {
    for seed in 10..13 {
        dynamic_case::<f64, 3>(seed, 1e5);
        dynamic_case::<f32, 2>(seed, 1e5);
        dynamic_case::<f32, 3>(seed, -1e5);
    }
}

fn static_case<N: Scalar, const D: usize>(seed: u64, n: usize, offset: f64) {
    let mut g = Gen::new(seed, offset, 100.0);
    let mut boxes: Vec<Aabb<N, D>> = (0..n).map(|_| g.aabb::<N, D>()).collect();
    // Duplicates and coincident centres.
    if n > 10 {
        boxes[1] = boxes[0];
        boxes[2] = boxes[0];
    }
    let tree = Tree::build(&boxes).unwrap();
    tree.check_invariants().unwrap();
    assert_eq!(tree.len(), n);
    assert!(f64::from(tree.height()) <= 3.0 * log2(n), "height {} for {n}", tree.height());
    let some: Vec<Option<Aabb<N, D>>> = boxes.iter().copied().map(Some).collect();
    check_queries(&tree, &some, &mut g, 100);
    // A built tree's leaves have every bit: a mask finds them all, or none when it is zero.
    check_masked(&tree, &some, &vec![u32::MAX; n], &mut g, 30);
}

#[test]
fn static_build_matches_brute_force() {
    for seed in 0..5 {
        for n in [0, 1, 2, 3, 17, 500] {
            static_case::<f64, 2>(seed, n, 0.0);
            static_case::<f32, 3>(seed, n, 0.0);
        }
        static_case::<f64, 3>(seed, 2000, 1e5);
        static_case::<f32, 2>(seed, 2000, 1e5);
    }
}

#[test]
fn static_build_of_identical_boxes_is_balanced() {
    let b = Aabb::new(Point3::<f64>::new(1.0, 2.0, 3.0), Point3::new(1.0, 2.0, 3.0));
    let tree = Tree::build(&vec![b; 1000]).unwrap();
    tree.check_invariants().unwrap();
    assert_eq!(tree.height(), 10);
    let mut count = 0;
    tree.query_point(&b.mins, |_| {
        count += 1;
        true
    });
    assert_eq!(count, 1000);
}

#[test]
fn queries_visit_few_nodes_on_large_trees() {
    let mut g = Gen::new(7, 0.0, 1000.0);
    let boxes: Vec<Aabb<f64, 2>> = (0..10_000).map(|_| g.aabb()).collect();
    let built = Tree::build(&boxes).unwrap();
    let mut dynamic = Tree::new();
    for (i, b) in boxes.iter().enumerate() {
        dynamic.create_proxy(b, 0.1, i as u32).unwrap();
    }
    let cost = dynamic.area_cost();
    let mut rebuilt = dynamic.clone();
    rebuilt.rebuild();
    rebuilt.check_invariants().unwrap();
    assert!(rebuilt.area_cost() < cost, "rebuilding lowers the cost of an inserted tree");
    for tree in [&built, &dynamic, &rebuilt] {
        let q = Aabb::new(Point2::<f64>::new(0.0, 0.0), Point2::new(5.0, 5.0));
        let visited = tree.query_aabb(&q, |_| true);
        assert!(visited < 200, "visited {visited}");
        let o = Point2::<f64>::new(-600.0, 1.0);
        let mut hits = 0;
        let visited = tree.cast_ray(&o, &Vec2::<f64>::new(1.0, 0.0), 1e9, |_, t| {
            hits += 1;
            Some(t.min(0.0))
        });
        assert!(hits >= 1 && visited < 200, "ray visited {visited}");
    }
}

#[test]
fn bad_input_is_refused() {
    let mut tree = Tree::<f32, 2>::new();
    let good = Aabb::new(Point2::<f32>::new(0.0, 0.0), Point2::new(1.0, 1.0));
    let nan = Aabb::new(Point2::<f32>::new(f32::NAN, 0.0), Point2::new(1.0, 1.0));
    let inverted = Aabb::new(Point2::<f32>::new(2.0, 0.0), Point2::new(1.0, 1.0));
    assert_eq!(tree.create_proxy(&nan, 0.1, 0), Err(TreeError::BadAabb));
    assert_eq!(tree.create_proxy(&inverted, 0.1, 0), Err(TreeError::BadAabb));
    assert_eq!(tree.create_proxy(&good, -0.1, 0), Err(TreeError::BadAabb));
    assert_eq!(tree.create_proxy(&good, f32::INFINITY, 0), Err(TreeError::BadAabb));
    assert!(tree.is_empty());
    let id = tree.create_proxy(&good, 0.1, 7).unwrap();
    assert_eq!(tree.move_proxy(id, &nan, 0.1), Err(TreeError::BadAabb));
    assert_eq!(tree.remove_proxy(id), Ok(7));
    assert!(matches!(tree.remove_proxy(id), Err(TreeError::UnknownProxy(_))));
    assert!(matches!(tree.move_proxy(id, &good, 0.1), Err(TreeError::UnknownProxy(_))));
    assert!(matches!(tree.set_proxy_bits(id, 1), Err(TreeError::UnknownProxy(_))));
    assert_eq!(tree.proxy_bits(id), None);
    assert!(Tree::build(&[good, nan]).is_err());
    tree.check_invariants().unwrap();
    // NaN rays and negative lengths visit nothing.
    tree.create_proxy(&good, 0.1, 1).unwrap();
    let o = Point2::<f32>::new(0.5, 0.5);
    let calls = |tree: &Tree<f32, 2>, o: Point<f32, 2>, d: Vector<f32, 2>, m: f32| {
        let mut n = 0;
        tree.cast_ray(&o, &d, m, |_, t| {
            n += 1;
            Some(t)
        });
        n
    };
    assert_eq!(calls(&tree, o, Vec2::<f32>::new(1.0, 0.0), 1.0), 1);
    assert_eq!(calls(&tree, o, Vec2::<f32>::new(f32::NAN, 0.0), 1.0), 0);
    assert_eq!(calls(&tree, o, Vec2::<f32>::new(1.0, 0.0), -1.0), 0);
    assert_eq!(calls(&tree, o, Vec2::<f32>::new(1.0, 0.0), f32::NAN), 0);
    // A zero direction is a point query along no axis.
    assert_eq!(calls(&tree, o, Vector::<f32, 2>::zeros(), 1.0), 1);
}

/// A tree taller than the queries' inline stack (box centres `2^(14·i)` apart, so each binned
/// split cuts off only the farthest box): every query still walks it whole, on a stack taken
/// from the heap.
#[test]
fn queries_walk_trees_taller_than_the_inline_stack() {
    let boxes: Vec<Aabb<f64, 2>> = (0..70)
        .map(|i| {
            let x = 2f64.powi(14 * i);
            Aabb::new(Point2::new(x, -1.0), Point2::new(x + 0.5, 1.0))
        })
        .collect();
    let tree = Tree::build(&boxes).unwrap();
    tree.check_invariants().unwrap();
    assert!(tree.height() >= 64, "height {}", tree.height());
    let everything = Aabb::new(Point2::new(0.0, -2.0), Point2::new(1e300, 2.0));
    let mut found = 0;
    tree.query_aabb(&everything, |_| {
        found += 1;
        true
    });
    assert_eq!(found, 70);
    // A ray along the row enters every box, nearest first.
    let mut order = Vec::new();
    tree.cast_ray(&Point2::new(0.0, 0.0), &Vec2::new(1.0, 0.0), f64::INFINITY, |i, t| {
        order.push(i);
        Some(t)
    });
    assert_eq!(order, (0..70).collect::<Vec<u32>>());
    let mut near = Vec::new();
    tree.nearest(&Point2::new(0.0, 0.0), f64::INFINITY, |i, d| {
        near.push(i);
        Some(d)
    });
    assert_eq!(near, (0..70).collect::<Vec<u32>>());
}

/// Every single insertion, move and removal leaves every invariant intact: the climb that
/// refits the ancestors stops at the first one that did not change, and a stop one node too
/// early would leave a stale box, height or branch above it. Small moves (which change only a
/// few ancestors' boxes) and jumps across the scene (which change many) are mixed.
#[test]
fn each_edit_keeps_the_invariants() {
    let mut g = Gen::new(41, 0.0, 100.0);
    let mut tree = Tree::<f64, 3>::new();
    let mut live: Vec<(ProxyId, Aabb<f64, 3>)> = Vec::new();
    let mut moved = 0;
    for _ in 0..3000 {
        let r = g.unit();
        if r < 0.4 || live.len() < 4 {
            let b = g.aabb::<f64, 3>();
            live.push((tree.create_proxy(&b, 0.1, live.len() as u32).unwrap(), b));
        } else if r < 0.9 {
            let i = (g.unit() * live.len() as f64) as usize % live.len();
            let step = if g.unit() < 0.8 { 0.5 } else { 60.0 };
            let d = Vector::<f64, 3>::from_fn(|_, _| (g.unit() - 0.5) * step);
            let b = Aabb::new(live[i].1.mins + d, live[i].1.maxs + d);
            moved += usize::from(tree.move_proxy(live[i].0, &b, 0.1).unwrap());
            live[i].1 = b;
        } else {
            let i = (g.unit() * live.len() as f64) as usize % live.len();
            tree.remove_proxy(live.swap_remove(i).0).unwrap();
        }
        tree.check_invariants().unwrap();
        let n = tree.len();
        assert!(f64::from(tree.height()) <= 2.0 * log2(n), "height {} for {n}", tree.height());
    }
    assert!(moved > 500 && tree.len() > 300, "{moved} moves, {} leaves", tree.len());
}
