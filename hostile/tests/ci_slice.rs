//! The CI slice of the hostile suite: every pair of shape kinds, every query, both scalars, every
//! class, a few seeded cases each (`Options::ci()`), compared with the expectations table
//! `expected.tsv` (the allowed failures per category; a missing category allows none).
//!
//! A category failing more often than allowed fails the test and prints its reproducer; one
//! failing less often is printed so the table can be lowered.

use kollide_hostile::{Options, parse_expected, run_suite};

#[test]
fn hostile_ci_slice_meets_the_expectations_table() {
    let report = run_suite(&Options::ci());
    let cases: u64 = report.cases.values().sum();
    // The suite really ran: every dimension and scalar, a few thousand cases.
    assert_eq!(report.cases.len(), 4, "2D and 3D, f32 and f64: {:?}", report.cases);
    assert!(cases > 2000, "only {cases} cases ran");
    let expected = parse_expected(include_str!("../expected.tsv"));
    let (worse, better) = report.compare(&expected);
    if !better.is_empty() {
        eprintln!("categories now failing less often than allowed (lower expected.tsv):");
        for b in &better {
            eprintln!("  {b}");
        }
    }
    assert!(
        worse.is_empty(),
        "{} categories fail more often than expected.tsv allows:\n{}\n\nsummary:\n{}",
        worse.len(),
        worse.join("\n"),
        report.summary()
    );
}
