//! Manifold types: capacity, flipping, frames, warm-start matching and 3D reduction.

use kollide_manifold::{Contact, ContactId, FeatureId, Frame, Manifold, reduce_to_four};
use kollide_math::{Iso2, Iso3, Point2, Point3, Vec2, Vec3};
use rstest::rstest;

fn c2(x: f64, sep: f64, id: u32) -> Contact<f64, 2, f64> {
    Contact::new(
        Point2::new(x, 0.0),
        Point2::new(x, sep),
        sep,
        ContactId::new(FeatureId::Edge(0), FeatureId::Vertex(id)),
    )
}

#[test]
fn capacity_is_two_in_2d_and_four_in_3d() {
    let mut m = Manifold::<f64, 2, f64>::with_normal(Vec2::y());
    assert!(m.push(c2(0.0, -0.1, 0)));
    assert!(m.push(c2(1.0, -0.2, 1)));
    assert!(!m.push(c2(2.0, -0.3, 2)));
    assert_eq!(m.len(), 2);
    assert_eq!(m.min_separation(), Some(-0.2));
    assert_eq!(Manifold::<f32, 3>::CAPACITY, 4);
    assert!(Manifold::<f32, 3>::new().is_empty());
}

#[test]
fn flipping_twice_is_the_identity() {
    let mut m = Manifold::<f64, 2, f64>::with_normal(Vec2::y());
    m.push(c2(0.0, -0.1, 0));
    let f = m.flipped();
    assert_eq!(f.normal, -Vec2::y());
    assert_eq!(f.contacts()[0].point_a, m.contacts()[0].point_b);
    assert_eq!(f.contacts()[0].id, ContactId::new(FeatureId::Vertex(0), FeatureId::Edge(0)));
    assert_eq!(f.flipped(), m);
}

#[test]
fn matching_carries_user_data_by_feature_id() {
    let mut old = Manifold::<f64, 2, f64>::with_normal(Vec2::y());
    let mut a = c2(0.0, -0.1, 0);
    a.user = 3.5;
    let mut b = c2(1.0, -0.1, 1);
    b.user = 7.0;
    old.push(a);
    old.push(b);
    let mut new = Manifold::<f64, 2, f64>::with_normal(Vec2::y());
    new.push(c2(1.01, -0.09, 1));
    new.push(c2(0.5, -0.09, 9));
    assert_eq!(new.match_previous(&old), 1);
    assert_eq!(new.contacts()[0].user, 7.0);
    assert_eq!(new.contacts()[1].user, 0.0);
}

/// The two contacts of a box resting on a box, with ids as if `reference` were the reference
/// face's owner: A's top edge with B's corners, or B's bottom edge with A's corners.
fn resting(reference_is_a: bool, users: [f64; 2]) -> Manifold<f64, 2, f64> {
    let mut m = Manifold::<f64, 2, f64>::with_normal(Vec2::y());
    for (k, x) in [-0.5, 0.5].into_iter().enumerate() {
        let id = if reference_is_a {
            ContactId::new(FeatureId::Edge(2), FeatureId::Vertex(k as u32))
        } else {
            ContactId::new(FeatureId::Vertex(3 - k as u32), FeatureId::Edge(0))
        };
        let mut c = Contact::new(Point2::new(x, 0.0), Point2::new(x, -0.01), -0.01, id);
        c.user = users[k];
        m.push(c);
    }
    m
}

#[test]
fn matching_by_position_survives_a_reference_face_swap() {
    // Last frame A's top face was the reference; this frame B's bottom face is (a rotation by a
    // hair tipped the nearly tied comparison): every id changed, the points did not move.
    let old = resting(true, [4.0, 6.0]);
    let mut by_id = resting(false, [0.0, 0.0]);
    assert_eq!(by_id.match_previous(&old), 0);
    let mut near = resting(false, [0.0, 0.0]);
    assert_eq!(near.match_previous_or_nearest(&old, 0.01), 2);
    assert_eq!([near.contacts()[0].user, near.contacts()[1].user], [4.0, 6.0]);
}

#[test]
fn matching_by_position_respects_ids_distance_normals_and_uses_each_old_contact_once() {
    let old = resting(true, [4.0, 6.0]);
    // An id match wins over a nearer contact.
    let mut m = resting(true, [0.0, 0.0]);
    assert_eq!(m.match_previous_or_nearest(&old, 10.0), 2);
    assert_eq!([m.contacts()[0].user, m.contacts()[1].user], [4.0, 6.0]);
    // Too far: nothing inherited.
    let mut far = resting(false, [0.0, 0.0]);
    for c in far.contacts_mut() {
        c.point_a.x += 0.5;
        c.point_b.x += 0.5;
    }
    assert_eq!(far.match_previous_or_nearest(&old, 0.1), 0);
    // Two new contacts both nearest to the same old one: the nearer takes it, the other takes
    // the remaining old contact only if it is within reach.
    let mut crowd = resting(false, [0.0, 0.0]);
    for c in crowd.contacts_mut() {
        c.point_a.x = -0.5 + c.point_a.x * 0.02;
        c.point_b.x = c.point_a.x;
    }
    assert_eq!(crowd.match_previous_or_nearest(&old, 0.1), 1);
    assert_eq!(crowd.contacts().iter().map(|c| c.user).sum::<f64>(), 4.0);
    // A normal that turned over is a different contact.
    let mut turned = resting(false, [0.0, 0.0]);
    turned.normal = -Vec2::y();
    assert_eq!(turned.match_previous_or_nearest(&old, 10.0), 0);
}

#[rstest]
#[case::identity(Iso2::identity(), Iso2::identity())]
#[case::moved(Iso2::new(Vec2::new(1.0, 2.0), 0.4), Iso2::new(Vec2::new(-3.0, 0.5), -1.2))]
fn local_and_world_frames_round_trip(#[case] pa: Iso2<f64>, #[case] pb: Iso2<f64>) {
    let mut m = Manifold::<f64, 2>::with_normal(Vec2::new(0.6, 0.8));
    m.push(Contact::new(
        Point2::new(0.0, 0.0),
        Point2::new(-0.06, -0.08),
        -0.1,
        ContactId::default(),
    ));
    let local = m.to_local(&pa, &pb);
    assert_eq!(local.frame, Frame::Local);
    let back = local.to_world(&pa, &pb);
    assert!((back.normal - m.normal).norm() < 1e-12);
    let (c, d) = (back.contacts()[0], m.contacts()[0]);
    assert!((c.point_a - d.point_a).norm() < 1e-12);
    assert!((c.separation - d.separation).abs() < 1e-12);
    // Moving B by +0.05 along the normal after storing the manifold opens the gap by 0.05.
    let pb2 = Iso2::from_parts((pb.translation.vector + m.normal * 0.05).into(), pb.rotation);
    let moved = local.to_world(&pa, &pb2);
    assert!((moved.contacts()[0].separation - (-0.05)).abs() < 1e-12);
    let _ = Iso3::<f64>::identity();
}

#[test]
fn reduction_keeps_the_deepest_and_the_largest_area() {
    // Eight points on a 2×2 square's boundary, the deepest in the middle of an edge.
    let pts = [
        (-1.0, -1.0, -0.1),
        (0.0, -1.0, -0.3),
        (1.0, -1.0, -0.1),
        (1.0, 0.0, -0.1),
        (1.0, 1.0, -0.1),
        (0.0, 1.0, -0.1),
        (-1.0, 1.0, -0.1),
        (-1.0, 0.0, -0.1),
    ];
    let cands: Vec<Contact<f64, 3>> = pts
        .iter()
        .enumerate()
        .map(|(i, &(x, z, s))| {
            Contact::new(
                Point3::new(x, 0.0, z),
                Point3::new(x, s, z),
                s,
                ContactId::new(FeatureId::Face(0), FeatureId::Vertex(i as u32)),
            )
        })
        .collect();
    let mut out = [0; 4];
    let n = reduce_to_four(&cands, &Vec3::y(), &mut out);
    assert_eq!(n, 4);
    assert!(out.contains(&1), "the deepest point is kept: {out:?}");
    // The other three span the far side: total area of the quad is at least 3 (of 4 possible).
    let mut chosen: Vec<_> = out.iter().map(|&i| cands[i].point_a).collect();
    chosen.sort_by(|a, b| (a.z.atan2(a.x)).partial_cmp(&b.z.atan2(b.x)).unwrap());
    let area: f64 = (0..4)
        .map(|i| {
            let (p, q) = (chosen[i], chosen[(i + 1) % 4]);
            p.x * q.z - q.x * p.z
        })
        .sum::<f64>()
        .abs()
        / 2.0;
    assert!(area >= 3.0 - 1e-12, "area {area}");
    // Few candidates pass through unchanged.
    assert_eq!(reduce_to_four(&cands[..3], &Vec3::y(), &mut out), 3);
}
