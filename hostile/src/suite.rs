//! The suite: every (dimension, pair of kinds, class) category, `cases` seeded cases each, both
//! scalars; failures counted per (pair, query, scalar, class, kind) with the first reproducer;
//! the slowest call per query; and the comparison with the expectations table.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use kollide::math::{Iso2, Iso3, Scalar};

use crate::cases::{Case, Class, Desc, Kind, PoseDesc, body, case_seed, generate};
use crate::check::{Ctx, Fail, Tol, check};
use crate::geom::V;
use crate::oracle::sample_dirs;
use crate::run::{MakePose, Motion, Outputs, Query, build2, build3, round, run2, run3};

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Cases per (dimension, pair, class).
    pub cases: u64,
    /// Base seed.
    pub seed: u64,
    /// Dimensions to run (2, 3).
    pub dims: Vec<usize>,
    /// Only pairs whose name contains this (e.g. `"cuboid-cone"`).
    pub pair_filter: Option<String>,
    /// Only this class.
    pub class_filter: Option<String>,
    /// Print progress to stderr.
    pub progress: bool,
}

impl Options {
    /// The CI slice: the expectations table (`expected.tsv`) is for exactly these settings.
    pub fn ci() -> Self {
        Options {
            cases: 2,
            seed: 12,
            dims: vec![2, 3],
            pair_filter: None,
            class_filter: None,
            progress: false,
        }
    }
}

/// A failure category.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    /// `"2d"` or `"3d"`.
    pub dim: &'static str,
    /// `"a-b"`.
    pub pair: String,
    /// The query.
    pub query: &'static str,
    /// `"f32"` or `"f64"`.
    pub scalar: &'static str,
    /// The class.
    pub class: &'static str,
    /// The failure kind.
    pub fail: &'static str,
}

impl Key {
    /// The tab-separated form used by the expectations table.
    pub fn tsv(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}",
            self.dim, self.pair, self.query, self.scalar, self.class, self.fail
        )
    }
}

/// The failures of one category.
#[derive(Clone, Debug, Default)]
pub struct Row {
    /// How many cases failed this way.
    pub count: u64,
    /// The first failing case: seed, shapes, poses and what was seen.
    pub repro: String,
}

/// The result of a run.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Failures per category.
    pub rows: BTreeMap<Key, Row>,
    /// Cases run per (dim, scalar).
    pub cases: BTreeMap<(&'static str, &'static str), u64>,
    /// The slowest call per (query, dim, scalar): seconds and the case.
    pub slowest: BTreeMap<(&'static str, &'static str, &'static str), (f64, String)>,
}

fn fv<const D: usize>(v: &V<D>) -> String {
    let p: Vec<String> = v.iter().map(|x| format!("{x:?}")).collect();
    format!("({})", p.join(", "))
}

/// A description in constructor form, with exact numbers.
pub fn fmt_desc<const D: usize>(d: &Desc<D>) -> String {
    match d {
        Desc::Ball { r } => format!("Ball({r:?})"),
        Desc::Segment { a, b } => format!("Segment({}, {})", fv(a), fv(b)),
        Desc::Capsule { a, b, r } => format!("Capsule({}, {}, {r:?})", fv(a), fv(b)),
        Desc::Cuboid { h } => format!("Cuboid({})", fv(h)),
        Desc::Triangle { a, b, c } => format!("Triangle({}, {}, {})", fv(a), fv(b), fv(c)),
        Desc::Hull { pts, .. } if pts.len() > 24 => {
            format!(
                "Hull({} points: {}, {}, … regenerate from the seed)",
                pts.len(),
                fv(&pts[0]),
                fv(&pts[1])
            )
        }
        Desc::Hull { pts, .. } => {
            format!("Hull[{}]", pts.iter().map(fv).collect::<Vec<_>>().join(", "))
        }
        Desc::Cylinder { hh, r } => format!("Cylinder({hh:?}, {r:?})"),
        Desc::Cone { hh, r } => format!("Cone({hh:?}, {r:?})"),
        Desc::Rounded { h, r } => format!("Rounded(Cuboid({}), {r:?})", fv(h)),
    }
}

/// A pose as the queries got it (rounded to the scalar, the rotation already off unit by its
/// ulps): the translation, and the rotation's `(cos, sin)` in 2D or quaternion `[w, i, j, k]`
/// in 3D, to rebuild without normalising (`UnitQuaternion::new_unchecked`).
fn fmt_pose<const D: usize>(p: &PoseDesc<D>) -> String {
    let rot =
        if D == 2 { format!("({:?}, {:?})", p.rot[0], p.rot[1]) } else { format!("{:?}", p.rot) };
    format!("t={} rot={rot}", fv(&p.t))
}

/// One case, rounded to `N`, built, run and checked. Returns its failures and outputs' times.
struct Done {
    findings: Vec<(Query, Fail, String)>,
    times: [f64; 8],
    repro: String,
}

trait Dim<const D: usize> {
    fn execute<N: Scalar>(
        a: &Desc<D>,
        pa: &PoseDesc<D>,
        b: &Desc<D>,
        pb: &PoseDesc<D>,
        m: &Motion<D>,
    ) -> Result<Outputs<D>, String>;
}

struct Two;
struct Three;

impl Dim<2> for Two {
    fn execute<N: Scalar>(
        a: &Desc<2>,
        pa: &PoseDesc<2>,
        b: &Desc<2>,
        pb: &PoseDesc<2>,
        m: &Motion<2>,
    ) -> Result<Outputs<2>, String> {
        let sa = build2::<N>(a).map_err(|e| format!("A: {e}"))?;
        let sb = build2::<N>(b).map_err(|e| format!("B: {e}"))?;
        let (ia, _) = <Iso2<N> as MakePose<N, 2>>::make(pa);
        let (ib, _) = <Iso2<N> as MakePose<N, 2>>::make(pb);
        Ok(run2(&ia, &sa, &ib, &sb, m))
    }
}

impl Dim<3> for Three {
    fn execute<N: Scalar>(
        a: &Desc<3>,
        pa: &PoseDesc<3>,
        b: &Desc<3>,
        pb: &PoseDesc<3>,
        m: &Motion<3>,
    ) -> Result<Outputs<3>, String> {
        let sa = build3::<N>(a).map_err(|e| format!("A: {e}"))?;
        let sb = build3::<N>(b).map_err(|e| format!("B: {e}"))?;
        let (ia, _) = <Iso3<N> as MakePose<N, 3>>::make(pa);
        let (ib, _) = <Iso3<N> as MakePose<N, 3>>::make(pb);
        Ok(run3(&ia, &sa, &ib, &sb, m))
    }
}

fn rounded_pose<N: Scalar, const D: usize>(p: &PoseDesc<D>) -> PoseDesc<D>
where
    (): PoseRound<N, D>,
{
    <() as PoseRound<N, D>>::round(p)
}

/// Rounds a pose description the way [`MakePose`] builds it (dimension dispatch).
trait PoseRound<N: Scalar, const D: usize> {
    fn round(p: &PoseDesc<D>) -> PoseDesc<D>;
}

impl<N: Scalar> PoseRound<N, 2> for () {
    fn round(p: &PoseDesc<2>) -> PoseDesc<2> {
        <Iso2<N> as MakePose<N, 2>>::make(p).1
    }
}

impl<N: Scalar> PoseRound<N, 3> for () {
    fn round(p: &PoseDesc<3>) -> PoseDesc<3> {
        <Iso3<N> as MakePose<N, 3>>::make(p).1
    }
}

fn run_case<N: Scalar, const D: usize, X: Dim<D>>(case: &Case<D>, dirs: &[V<D>]) -> Done
where
    (): PoseRound<N, D>,
{
    let a = case.a.map(&round::<N>);
    let b = case.b.map(&round::<N>);
    let pa = rounded_pose::<N, D>(&case.pose_a);
    let pb = rounded_pose::<N, D>(&case.pose_b);
    let m = Motion::of::<N>(case);
    let repro = format!(
        "seed={:#018x} A={} @ {} B={} @ {} vel_a={} vel_b={} dir={} ray={}+t{}",
        case.seed,
        fmt_desc(&a),
        fmt_pose(&pa),
        fmt_desc(&b),
        fmt_pose(&pb),
        fv(&m.vel_a),
        fv(&m.vel_b),
        fv(&m.dir),
        fv(&m.ray_origin),
        fv(&m.ray_dir),
    );
    let outputs = match X::execute::<N>(&a, &case.pose_a, &b, &case.pose_b, &m) {
        Ok(o) => o,
        Err(e) => {
            return Done {
                findings: vec![(Query::Intersection, Fail::Rejected, e)],
                times: [0.0; 8],
                repro,
            };
        }
    };
    let (ba, bb) = (body(&a, &pa), body(&b, &pb));
    let eps = N::EPSILON.to_f64();
    let offset = pa.t.amax().max(pb.t.amax()).max(m.ray_origin.amax());
    let tol = Tol {
        f32: eps > 1e-10,
        eps,
        scale: ba.size.max(bb.size),
        offset,
        ulp_k: case.pose_a.ulp_k as f64,
        built: hull_coarsening(&a, eps).max(hull_coarsening(&b, eps)),
        built_a: hull_coarsening(&a, eps),
    };
    let cx = Ctx { a: &ba, b: &bb, m: &m, dirs, tol };
    let findings = check(&outputs, &cx);
    Done { findings, times: outputs.times, repro }
}

/// How far a hull built from `d`'s points may lie inside them: twice the tolerance of
/// `kollide_shapes::convex_hull_2d` and `hull_tolerance_3d` (64 ulps of the cloud's extent, at
/// least 8 ulps of its largest coordinate); zero for the other shapes.
fn hull_coarsening<const D: usize>(d: &Desc<D>, eps: f64) -> f64 {
    let Desc::Hull { pts, .. } = d else { return 0.0 };
    let (mut lo, mut hi, mut big) = (V::<D>::repeat(f64::MAX), V::<D>::repeat(f64::MIN), 0.0f64);
    for p in pts {
        lo = lo.inf(p);
        hi = hi.sup(p);
        big = big.max(p.amax());
    }
    2.0 * (64.0 * eps * (hi - lo).amax()).max(8.0 * eps * big)
}

fn record(
    report: &mut Report,
    dim: &'static str,
    pair: &str,
    scalar: &'static str,
    class: Class,
    done: Done,
) {
    *report.cases.entry((dim, scalar)).or_default() += 1;
    for (q, f, detail) in done.findings {
        let key = Key {
            dim,
            pair: pair.to_string(),
            query: q.name(),
            scalar,
            class: class.name(),
            fail: f.name(),
        };
        let row = report.rows.entry(key).or_default();
        if row.count == 0 {
            row.repro = format!("{}; saw: {detail}", done.repro);
        }
        row.count += 1;
    }
    for (i, q) in Query::ALL.iter().enumerate() {
        let e = report.slowest.entry((q.name(), dim, scalar)).or_insert((0.0, String::new()));
        if done.times[i] > e.0 {
            *e = (done.times[i], format!("{pair} {} {}", class.name(), done.repro));
        }
    }
}

fn run_dim<const D: usize, X: Dim<D>>(opts: &Options, report: &mut Report)
where
    (): PoseRound<f32, D> + PoseRound<f64, D>,
{
    let dim: &'static str = if D == 2 { "2d" } else { "3d" };
    let dirs = sample_dirs::<D>(if D == 2 { 256 } else { 512 });
    for &ka in Kind::all(D) {
        for &kb in Kind::all(D) {
            let pair = format!("{}-{}", ka.name(D), kb.name(D));
            if opts.pair_filter.as_ref().is_some_and(|f| !pair.contains(f.as_str())) {
                continue;
            }
            for class in Class::ALL {
                if !class.applies(ka, kb)
                    || opts.class_filter.as_ref().is_some_and(|f| f != class.name())
                {
                    continue;
                }
                if opts.progress {
                    eprintln!("{dim} {pair} {}", class.name());
                }
                for i in 0..opts.cases {
                    let seed = case_seed(opts.seed, D, ka, kb, class, i);
                    let c32 = generate::<D>(ka, kb, class, seed, true);
                    let done = run_case::<f32, D, X>(&c32, &dirs);
                    record(report, dim, &pair, "f32", class, done);
                    let c64 = generate::<D>(ka, kb, class, seed, false);
                    let done = run_case::<f64, D, X>(&c64, &dirs);
                    record(report, dim, &pair, "f64", class, done);
                }
            }
        }
    }
}

/// Runs the suite. Panics inside queries are caught (and counted); the default panic message is
/// silenced meanwhile.
pub fn run(opts: &Options) -> Report {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut report = Report::default();
    if opts.dims.contains(&2) {
        run_dim::<2, Two>(opts, &mut report);
    }
    if opts.dims.contains(&3) {
        run_dim::<3, Three>(opts, &mut report);
    }
    std::panic::set_hook(hook);
    report
}

/// The expectations table: allowed failure counts per category (missing rows allow none).
/// Lines are `dim pair query scalar class fail count`, tab-separated; `#` starts a comment.
pub fn parse_expected(text: &str) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some((key, count)) = line.rsplit_once('\t') {
            out.insert(key.to_string(), count.trim().parse().unwrap_or(0));
        }
    }
    out
}

impl Report {
    /// The expectations table that this report would pass exactly.
    pub fn to_expected(&self) -> String {
        let mut s = String::from(
            "# Allowed failures per category of the hostile suite's CI slice (Options::ci()).\n\
             # dim\tpair\tquery\tscalar\tclass\tfail\tcount. Missing categories allow 0.\n\
             # Regenerate with `cargo xtask hostile --ci --write-expected`; lower counts as fixes land.\n",
        );
        for (k, r) in &self.rows {
            let _ = writeln!(s, "{}\t{}", k.tsv(), r.count);
        }
        s
    }

    /// Categories that fail more often than allowed, and categories that now fail less often.
    pub fn compare(&self, expected: &BTreeMap<String, u64>) -> (Vec<String>, Vec<String>) {
        let mut worse = Vec::new();
        let mut better = Vec::new();
        for (k, r) in &self.rows {
            let allowed = expected.get(&k.tsv()).copied().unwrap_or(0);
            if r.count > allowed {
                worse.push(format!(
                    "{}\t{} (allowed {allowed})\n    {}",
                    k.tsv(),
                    r.count,
                    r.repro
                ));
            }
        }
        for (k, &allowed) in expected {
            let seen =
                self.rows.iter().find(|(key, _)| key.tsv() == *k).map_or(0, |(_, r)| r.count);
            if seen < allowed {
                better.push(format!("{k}\t{seen} (allowed {allowed})"));
            }
        }
        (worse, better)
    }

    /// The failure table: one line per category with its count, then its reproducer.
    pub fn table(&self, with_repro: bool) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "dim\tpair\tquery\tscalar\tclass\tfail\tcount");
        for (k, r) in &self.rows {
            let _ = writeln!(s, "{}\t{}", k.tsv(), r.count);
            if with_repro {
                let _ = writeln!(s, "    {}", r.repro);
            }
        }
        s
    }

    /// Totals per (dim, scalar, query, fail kind), and the cases run.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        for ((dim, scalar), n) in &self.cases {
            let _ = writeln!(s, "{dim} {scalar}: {n} cases");
        }
        let mut totals: BTreeMap<(String, &str, &str, &str), u64> = BTreeMap::new();
        for (k, r) in &self.rows {
            *totals.entry((k.dim.to_string(), k.scalar, k.query, k.fail)).or_default() += r.count;
        }
        let _ = writeln!(s, "\ntotals per dim, scalar, query, failure kind (cases):");
        for ((dim, scalar, q, f), n) in totals {
            let _ = writeln!(s, "  {dim} {scalar} {q:<24} {f:<20} {n}");
        }
        let _ = writeln!(
            s,
            "\nslowest call per query (this build's profile; a benchmark is the measure):"
        );
        for ((q, dim, scalar), (t, case)) in &self.slowest {
            let short: String = case.chars().take(160).collect();
            let _ = writeln!(s, "  {q:<24} {dim} {scalar} {:>10.1} µs  {short}", t * 1e6);
        }
        s
    }
}
