//! Shared scaffolding of the solver examples: the stepping loop (with progress lines, timing and
//! optional SVG frames) and the summary every example prints (steps, ms per step, bodies,
//! contacts, max drift). One loop serves 2D and 3D worlds through [`Sim`].
#![allow(dead_code, reason = "each example uses part of it")]

use std::path::{Path, PathBuf};
use std::time::Instant;

use kollide::draw::{Ortho, SvgCanvas};
use kollide::solver::{LaneScalar, World2, World3, WorldStyle};

/// A world the examples can step and draw.
pub trait Sim {
    /// Steps by `dt` seconds and returns the number of contact points the solver saw, which is
    /// none in a step that every body sleeps through.
    fn step_once(&mut self, dt: f64) -> Contacts;
    /// Writes the current state as an SVG file.
    fn write_frame(&self, path: &Path) -> std::io::Result<()>;
    /// The number of bodies.
    fn body_count(&self) -> usize;
}

impl<N: LaneScalar> Sim for World2<N> {
    fn step_once(&mut self, dt: f64) -> Contacts {
        let r = self.step(N::lit(dt)).expect("a valid time step");
        Contacts { points: r.contacts, asleep: r.awake_bodies == 0 && r.sleeping_bodies > 0 }
    }
    fn write_frame(&self, path: &Path) -> std::io::Result<()> {
        let mut canvas = SvgCanvas::new();
        self.draw(&mut canvas, &WorldStyle::default());
        std::fs::write(path, canvas.to_svg())
    }
    fn body_count(&self) -> usize {
        self.len()
    }
}

impl<N: LaneScalar> Sim for World3<N> {
    fn step_once(&mut self, dt: f64) -> Contacts {
        let r = self.step(N::lit(dt)).expect("a valid time step");
        Contacts { points: r.contacts, asleep: r.awake_bodies == 0 && r.sleeping_bodies > 0 }
    }
    fn write_frame(&self, path: &Path) -> std::io::Result<()> {
        let mut canvas = SvgCanvas::new();
        // Contact dots hide the bodies in a projected 3D view, so frames show the bodies only.
        let style = WorldStyle { contacts: false, ..Default::default() };
        self.draw(&Ortho::standard(), &mut canvas, &style);
        std::fs::write(path, canvas.to_svg())
    }
    fn body_count(&self) -> usize {
        self.len()
    }
}

/// The contact points of a step, and whether every body slept through it (then the step
/// skips the solver, and there are none to count).
#[derive(Clone, Copy, Default)]
pub struct Contacts {
    pub points: usize,
    pub asleep: bool,
}

impl std::fmt::Display for Contacts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:5}", self.points)?;
        if self.asleep { write!(f, " (every body asleep)") } else { Ok(()) }
    }
}

/// What an example reports at the end.
pub struct Summary {
    /// Steps taken.
    pub steps: usize,
    /// Total wall time in the step function (s).
    pub seconds: f64,
    /// Number of bodies.
    pub bodies: usize,
    /// Contact points in the last step.
    pub contacts: Contacts,
}

impl Summary {
    /// Prints the summary block, with the largest drift from the start when it is meaningful.
    pub fn print(&self, name: &str, max_drift: Option<f64>) {
        println!("\n== {name} summary ==");
        println!("steps          {}", self.steps);
        println!("ms per step    {:.3}", 1000.0 * self.seconds / self.steps.max(1) as f64);
        println!("bodies         {}", self.bodies);
        println!("contacts       {}", self.contacts.to_string().trim_start());
        if let Some(d) = max_drift {
            println!("max drift      {d:.4} m");
        }
    }
}

/// Steps `world` for `seconds` at `hz`, printing a progress line (with `probe`'s text) every
/// simulated second, and writing four SVG frames per second into the folder given by
/// `--svg DIR`, if any.
pub fn run<W: Sim>(
    world: &mut W,
    seconds: f64,
    hz: usize,
    mut probe: impl FnMut(&W) -> String,
) -> Summary {
    let svg = svg_dir();
    let steps = (seconds * hz as f64).round() as usize;
    let frame_every = (hz / 4).max(1);
    let mut spent = 0.0;
    let mut contacts = Contacts::default();
    for i in 0..steps {
        let t0 = Instant::now();
        contacts = world.step_once(1.0 / hz as f64);
        spent += t0.elapsed().as_secs_f64();
        if let Some(dir) = &svg
            && i.is_multiple_of(frame_every)
        {
            let path = dir.join(format!("frame_{:04}.svg", i / frame_every));
            if let Err(e) = world.write_frame(&path) {
                eprintln!("could not write {}: {e}", path.display());
            }
        }
        if (i + 1) % hz == 0 {
            println!(
                "t = {:5.1} s  {:7.3} ms/step  contacts {}  {}",
                (i + 1) as f64 / hz as f64,
                1000.0 * spent / (i + 1) as f64,
                contacts,
                probe(world)
            );
        }
    }
    Summary { steps, seconds: spent, bodies: world.body_count(), contacts }
}

/// The value of `--name VALUE` on the command line, if given.
pub fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

/// Where `--svg DIR` asks frames to be written, creating the folder.
fn svg_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(arg("--svg")?);
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir)
}
