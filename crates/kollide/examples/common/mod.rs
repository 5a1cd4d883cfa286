//! Shared scaffolding of the solver examples: stepping with progress lines, timing, and the
//! summary every example prints (steps, ms per step, bodies, contacts, max drift).
#![allow(dead_code, reason = "each example uses part of it")]

use std::time::Instant;

/// What an example reports at the end.
pub struct Summary {
    /// Steps taken.
    pub steps: usize,
    /// Total wall time in the step function (s).
    pub seconds: f64,
    /// Number of bodies.
    pub bodies: usize,
    /// Contact points in the last step.
    pub contacts: usize,
    /// The largest distance any body moved from where it started (m), when that is meaningful.
    pub max_drift: Option<f64>,
}

impl Summary {
    /// Prints the summary block.
    pub fn print(&self, name: &str) {
        println!("\n== {name} summary ==");
        println!("steps          {}", self.steps);
        println!("ms per step    {:.3}", 1000.0 * self.seconds / self.steps.max(1) as f64);
        println!("bodies         {}", self.bodies);
        println!("contacts       {}", self.contacts);
        if let Some(d) = self.max_drift {
            println!("max drift      {:.4} m", d);
        }
    }
}

/// Runs `steps` steps of `step`, printing a progress line every second of simulated time.
/// `step` returns the number of contacts; `probe` returns a line of state to print.
pub fn run(
    steps: usize,
    hz: usize,
    mut step: impl FnMut() -> usize,
    mut probe: impl FnMut() -> String,
) -> (f64, usize) {
    let mut seconds = 0.0;
    let mut contacts = 0;
    for i in 0..steps {
        let t0 = Instant::now();
        contacts = step();
        seconds += t0.elapsed().as_secs_f64();
        if (i + 1) % hz == 0 {
            println!(
                "t = {:5.1} s  {:7.3} ms/step  contacts {:5}  {}",
                (i + 1) as f64 / hz as f64,
                1000.0 * seconds / (i + 1) as f64,
                contacts,
                probe()
            );
        }
    }
    (seconds, contacts)
}

/// The value of `--name VALUE` on the command line, if given.
pub fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

/// Where `--svg DIR` asks frames to be written, creating the folder.
pub fn svg_dir() -> Option<std::path::PathBuf> {
    let dir = std::path::PathBuf::from(arg("--svg")?);
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir)
}

/// Writes one frame of a 2D world as `DIR/frame_NNNN.svg`.
pub fn write_frame2<N: kollide::math::Scalar>(
    dir: &std::path::Path,
    index: usize,
    world: &kollide::solver::World2<N>,
) -> std::io::Result<()> {
    let mut canvas = kollide::draw::SvgCanvas::with_title(format!("frame {index}"));
    world.draw(&mut canvas, &kollide::solver::WorldStyle::default());
    std::fs::write(dir.join(format!("frame_{index:04}.svg")), canvas.to_svg())
}

/// Writes one frame of a 3D world (orthographic view) as `DIR/frame_NNNN.svg`.
pub fn write_frame3<N: kollide::math::Scalar>(
    dir: &std::path::Path,
    index: usize,
    world: &kollide::solver::World3<N>,
) -> std::io::Result<()> {
    let mut canvas = kollide::draw::SvgCanvas::with_title(format!("frame {index}"));
    // Contact dots hide the bodies in a projected 3D view, so frames show the bodies only.
    let style = kollide::solver::WorldStyle { contacts: false, ..Default::default() };
    world.draw(&kollide::draw::Ortho::standard(), &mut canvas, &style);
    std::fs::write(dir.join(format!("frame_{index:04}.svg")), canvas.to_svg())
}
