//! [`Color`]: an sRGB colour with alpha, named constants, and the [`palette`] that gives every
//! concept (shape A, shape B, the Minkowski difference, normals, ...) one colour in every figure.
//!
//! The named colours are the Okabe–Ito palette (Okabe and Ito, "Color Universal Design", 2008),
//! which stays distinguishable for the common forms of colour blindness.

/// An sRGB colour with straight (not premultiplied) alpha, 8 bits per channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Color {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
    /// Alpha: 0 is transparent, 255 opaque.
    pub a: u8,
}

impl Color {
    /// An opaque colour.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Self { r, g, b, a: 255 }
    }

    /// The same colour with another alpha.
    pub const fn with_alpha(self, a: u8) -> Self {
        Self { a, ..self }
    }

    /// `#rrggbb` (the alpha is written separately, as an opacity).
    pub fn hex(&self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }

    /// The alpha as an opacity in `[0, 1]`.
    pub fn opacity(&self) -> f64 {
        f64::from(self.a) / 255.0
    }

    /// Black.
    pub const BLACK: Self = Self::rgb(0, 0, 0);
    /// White.
    pub const WHITE: Self = Self::rgb(255, 255, 255);
    /// Mid grey.
    pub const GREY: Self = Self::rgb(140, 140, 140);
    /// Light grey.
    pub const LIGHT_GREY: Self = Self::rgb(215, 215, 215);
    /// Orange (Okabe–Ito).
    pub const ORANGE: Self = Self::rgb(230, 159, 0);
    /// Sky blue (Okabe–Ito).
    pub const SKY_BLUE: Self = Self::rgb(86, 180, 233);
    /// Bluish green (Okabe–Ito).
    pub const GREEN: Self = Self::rgb(0, 158, 115);
    /// Yellow (Okabe–Ito).
    pub const YELLOW: Self = Self::rgb(240, 228, 66);
    /// Blue (Okabe–Ito).
    pub const BLUE: Self = Self::rgb(0, 114, 178);
    /// Vermilion (Okabe–Ito).
    pub const VERMILION: Self = Self::rgb(213, 94, 0);
    /// Reddish purple (Okabe–Ito).
    pub const PURPLE: Self = Self::rgb(204, 121, 167);
}

/// One colour per concept, shared by every crate that draws, so that a figure of GJK and a figure
/// of a manifold use the same colour for shape A.
pub mod palette {
    use super::Color;

    /// Shape A of a pair (and the first body of a scene).
    pub const SHAPE_A: Color = Color::BLUE;
    /// Shape B of a pair.
    pub const SHAPE_B: Color = Color::VERMILION;
    /// Any other shape (a third body, a lone shape).
    pub const SHAPE: Color = Color::GREEN;
    /// The Minkowski difference `A − B` (the configuration-space obstacle).
    pub const CSO: Color = Color::GREY;
    /// A GJK simplex or an EPA polytope.
    pub const SIMPLEX: Color = Color::ORANGE;
    /// A new support point, a search direction.
    pub const SUPPORT: Color = Color::PURPLE;
    /// Contact normals.
    pub const NORMAL: Color = Color::PURPLE;
    /// The reference face of a manifold.
    pub const REFERENCE: Color = Color::BLUE;
    /// The incident face of a manifold.
    pub const INCIDENT: Color = Color::VERMILION;
    /// Contact points.
    pub const CONTACT: Color = Color::BLACK;
    /// Bounding boxes.
    pub const AABB: Color = Color::GREY;
    /// The origin and axes.
    pub const ORIGIN: Color = Color::BLACK;
    /// Labels.
    pub const TEXT: Color = Color::BLACK;
}
