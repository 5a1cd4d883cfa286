//! # kollide-draw
//!
//! Debug drawing for kollide, independent of any rendering backend: collision code is understood
//! by looking at it.
//!
//! * [`DebugDraw`]: the 2D primitives (polyline, polygon filled or outlined, circle, point,
//!   arrow, text) that shapes, the narrowphase and the solver draw into, with a [`Style`].
//!   Geometry is in world units, legibility sizes (line width, dots, text) in screen units.
//! * [`Color`], with named constants and a [`palette`] giving every concept one colour.
//! * [`Ortho`]: an orthographic projection, so 3D shapes draw through the same 2D trait.
//! * [`SvgCanvas`] and [`SvgFigure`]: the SVG backend. A canvas records primitives and fits its
//!   view to them (y up, flipped when written); a figure lays out one or more canvases (small
//!   multiples) with a title, legend and caption, and writes a self-contained, deterministic SVG
//!   document.
//!
//! The figures in `docs/figures/` are drawn by the real code through this crate
//! (`cargo xtask figures`), and `cargo xtask ci` fails when a committed figure is stale.
//!
//! **Architecture invariant:** this crate knows nothing of shapes, contacts or bodies: it depends
//! on `kollide-math` only and draws points, lines and text. What a shape or a manifold looks like
//! is decided by the crate that defines it.

mod color;
mod debug_draw;
mod ortho;
mod svg;

pub use color::{Color, palette};
pub use debug_draw::{DebugDraw, Style};
pub use ortho::Ortho;
pub use svg::{Rect, SvgCanvas, SvgFigure};
