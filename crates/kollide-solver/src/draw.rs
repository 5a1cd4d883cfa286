//! Drawing a world: every body's shape (dynamic bodies in one colour, static and kinematic in
//! another), optionally their AABBs, and every touching manifold's contacts and normal. 2D worlds
//! draw directly; 3D worlds through an orthographic view (`kollide_draw::Ortho`).
//!
//! The examples use this to write their frames as SVG (`--svg DIR`).

use kollide_draw::{DebugDraw, Ortho, Style, palette};
use kollide_math::{Iso2, Point2};
use kollide_narrowphase::draw::{ManifoldStyle, draw_manifold2};
use kollide_shapes::draw::{Draw2, Draw3};

use crate::{BodyKind, LaneScalar, World2, World3};

/// What [`World2::draw`] and [`World3::draw`] show.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldStyle {
    /// Draw each body's AABB (dashed).
    pub aabbs: bool,
    /// Draw contact points and normals.
    pub contacts: bool,
    /// Write depths next to contacts (busy in large scenes).
    pub labels: bool,
}

impl Default for WorldStyle {
    fn default() -> Self {
        Self { aabbs: false, contacts: true, labels: false }
    }
}

fn body_style(kind: BodyKind) -> Style {
    match kind {
        BodyKind::Dynamic => Style::filled(palette::SHAPE_A),
        BodyKind::Static => Style::filled(palette::CSO),
        BodyKind::Kinematic => Style::filled(palette::SHAPE),
    }
}

impl<N: LaneScalar> World2<N> {
    /// Draws the world into `dd`.
    pub fn draw(&self, dd: &mut dyn DebugDraw<N>, style: &WorldStyle) {
        for (_, b) in self.bodies() {
            if style.aabbs {
                b.shape().aabb(b.pose()).draw2(
                    &Iso2::identity(),
                    dd,
                    &Style::stroke(palette::AABB).width(0.6).dashed(),
                );
            }
            b.shape().draw2(b.pose(), dd, &body_style(b.kind()));
        }
        if style.contacts {
            let ms = ManifoldStyle { normal_length: N::lit(0.3), labels: style.labels };
            for p in self.contact_pairs() {
                draw_manifold2(&p.manifold, dd, &ms);
            }
        }
    }
}

impl<N: LaneScalar> World3<N> {
    /// Draws the world into `dd`, projected by `view`.
    pub fn draw(&self, view: &Ortho<N>, dd: &mut dyn DebugDraw<N>, style: &WorldStyle) {
        for (_, b) in self.bodies() {
            b.shape().draw3(b.pose(), view, dd, &body_style(b.kind()));
        }
        if style.contacts {
            for p in self.contact_pairs() {
                for c in p.manifold.contacts() {
                    let pa: Point2<N> = view.project(&c.point_a);
                    dd.point(&pa, palette::CONTACT);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{BodyDesc, World2, World3};
    use kollide_draw::{Ortho, SvgCanvas};
    use kollide_math::{Iso2, Iso3, Vec2, Vec3};
    use kollide_shapes::Cuboid;

    #[test]
    fn worlds_draw_into_an_svg() {
        let mut w = World2::<f64>::new(Vec2::new(0.0, -9.81)).unwrap();
        w.add(
            BodyDesc::fixed(Cuboid::new(Vec2::new(3.0, 0.5)).unwrap())
                .pose(Iso2::translation(0.0, -0.5)),
        )
        .unwrap();
        w.add(
            BodyDesc::dynamic(Cuboid::new(Vec2::new(0.5, 0.5)).unwrap())
                .pose(Iso2::translation(0.0, 0.5)),
        )
        .unwrap();
        w.step(1.0 / 60.0).unwrap();
        let mut c = SvgCanvas::new();
        w.draw(&mut c, &super::WorldStyle { aabbs: true, ..Default::default() });
        let svg = c.to_svg();
        assert!(svg.starts_with("<svg") && svg.contains("<polygon"));
        let mut w3 = World3::<f64>::new(Vec3::new(0.0, -9.81, 0.0)).unwrap();
        w3.add(BodyDesc::dynamic(Cuboid::new(Vec3::repeat(0.5)).unwrap()).pose(Iso3::identity()))
            .unwrap();
        let mut c3 = SvgCanvas::new();
        w3.draw(&Ortho::standard(), &mut c3, &super::WorldStyle::default());
        assert!(!c3.is_empty());
    }
}
