//! Two studies of the same pairs of pieces side by side: has a pair's
//! difference moved with the engine's nodes, the pieces' squares or the
//! pocket rules? Each study is read as its own report (its own pawn unit,
//! its own verdicts); the comparison matches their pairs by the two
//! players' names, in either order, and tests the change of each pair's
//! difference per piece from the two estimates and their standard errors
//! ([`pocketlab_stats::shift`]): in Elo, Holm-corrected across the pairs, with
//! the same change in pawns beside it.
//!
//! Under the sequential design a pair's estimate at its deciding look leans
//! away from the hypothesis that look rejected, and two studies stop a pair
//! at different looks: the comparison takes each pair's bias-adjusted
//! estimate ([`pocketlab_stats::sequential::adjust`]). The rate of "moved" at
//! no shift is checked on simulated pairs of sequential studies
//! (`stats::sequential::simulate`'s tests).
//!
//! Two value scales are compared piece by piece: each piece's value against
//! the empty square in the two fits, the change tested twice, each test
//! Holm-corrected across the pieces on its own: in Elo, and in pawns of
//! each scale's own unit. Both are asked because they answer different
//! questions: a stronger player converts any material edge more surely, so
//! every value tends to grow in Elo with search strength; what a designer
//! weighs, a piece's worth against the others, moves only if its value in
//! pawns does. A value-scale design allocates pairs by the width of
//! intervals, never by which side of a boundary an estimate lies, so its
//! estimates need no adjustment.

use serde::Serialize;

use super::model::{PairVerdict, Report, ScalePiece, VerdictKind};
use pocketlab_stats::shift::{self, Change, Estimate};

/// The family-wise error rate of the "moved" claims across the pairs.
pub const ALPHA: f64 = 0.05;

/// One study's finding for a pair, oriented as the comparison's pair.
#[derive(Clone, Debug, Serialize)]
pub struct PairFinding {
    /// The study's verdict on the pair.
    pub kind: VerdictKind,
    /// A minus B per piece exchanged in Elo, and in pawns (NaN where the
    /// study's unit does not resolve it), each with its standard error.
    pub elo_per_piece: f64,
    /// Standard error of `elo_per_piece`.
    pub elo_per_piece_std_error: f64,
    /// A minus B per piece exchanged in pawns of the study's own unit (NaN
    /// where that unit does not resolve it).
    pub pawns_per_piece: f64,
    /// Standard error of `pawns_per_piece`, the unit's error included (delta
    /// method).
    pub pawns_per_piece_std_error: f64,
    /// Games the study played of the pair.
    pub games: u64,
}

/// Whether a pair's difference moved between the two studies.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Shift {
    /// No change shown: the interval of the change holds 0.
    Agree,
    /// The change is shown (Holm across the pairs at 5%).
    Moved,
    /// A standard error is missing (a one-sided score).
    Untested,
}

/// A pair both studies rated: each study's finding, and how much the difference
/// changed.
#[derive(Clone, Debug, Serialize)]
pub struct PairComparison {
    /// The first study's group title (`Class 3: rook, nightrider, …`).
    pub group: String,
    /// The pair's first player (A), as the first study names it.
    pub a: String,
    /// The pair's second player (B).
    pub b: String,
    /// The first study's finding.
    pub first: PairFinding,
    /// The second study's finding, turned round to A minus B where that study
    /// played the pair as B against A.
    pub second: PairFinding,
    /// Second minus first in Elo per piece: the change, its interval at
    /// the comparison's `level`, and z.
    pub elo_change: f64,
    /// Interval of `elo_change` at the comparison's `level`.
    pub elo_change_interval: (f64, f64),
    /// The change over its standard error.
    pub z: f64,
    /// The same in pawns per piece (NaN where either study gives no size
    /// in pawns).
    pub pawns_change: f64,
    /// Interval of `pawns_change` at the comparison's `level`.
    pub pawns_change_interval: (f64, f64),
    /// Whether the difference moved, by the Elo test (Holm across the pairs).
    pub shift: Shift,
}

/// A piece on both value scales: its value against the empty square in
/// each, and the change.
#[derive(Clone, Debug, Serialize)]
pub struct PieceComparison {
    /// The piece's letter in the variant.
    pub letter: String,
    /// The piece's name, as in the variant file.
    pub name: String,
    /// Each scale's value in Elo and in pawns with standard errors (pawns
    /// NaN where that scale's unit does not bound them).
    pub first_elo: f64,
    /// Standard error of `first_elo`.
    pub first_elo_std_error: f64,
    /// The first scale's value in pawns.
    pub first_pawns: f64,
    /// Standard error of `first_pawns`.
    pub first_pawns_std_error: f64,
    /// The second scale's value in Elo.
    pub second_elo: f64,
    /// Standard error of `second_elo`.
    pub second_elo_std_error: f64,
    /// The second scale's value in pawns.
    pub second_pawns: f64,
    /// Standard error of `second_pawns`.
    pub second_pawns_std_error: f64,
    /// Second minus first in Elo, with its interval at the comparison's
    /// `pieces_level`, z, and the Elo test's answer.
    pub elo_change: f64,
    /// Interval of `elo_change` at `pieces_level`.
    pub elo_change_interval: (f64, f64),
    /// The Elo change over its standard error.
    pub z: f64,
    /// Whether the value moved in Elo (Holm across the pieces).
    pub shift: Shift,
    /// Second minus first in pawns (each scale's own unit), with its
    /// interval at `pieces_pawns_level`, and the pawns test's answer
    /// (untested for the pawn, 1 by definition in both).
    pub pawns_change: f64,
    /// Interval of `pawns_change` at `pieces_pawns_level`.
    pub pawns_change_interval: (f64, f64),
    /// Whether the value moved in pawns (Holm across the pieces).
    pub pawns_shift: Shift,
}

/// The pairs two studies share, and those only one of them played.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// What the first study is called in the comparison.
    pub first_label: String,
    /// What the second study is called in the comparison.
    pub second_label: String,
    /// The pairs both studies rated, in the first study's order.
    pub pairs: Vec<PairComparison>,
    /// The pieces both value scales value (empty unless both studies are
    /// value scales), and the levels of their change intervals in Elo and
    /// in pawns (each Holm across the pieces, as `level` across the pairs).
    pub pieces: Vec<PieceComparison>,
    /// Confidence level of the pieces' Elo change intervals (1 without pieces).
    pub pieces_level: f64,
    /// Confidence level of the pieces' pawn change intervals (1 without
    /// pieces).
    pub pieces_pawns_level: f64,
    /// The confidence level of the change intervals: `1 - α/h` with `h`
    /// the pairs Holm left open, so an interval excludes 0 exactly when
    /// its pair moved.
    pub level: f64,
    /// `A vs B` of pairs only the first (second) study decided on.
    pub only_first: Vec<String>,
    /// `A vs B` of pairs only the second study decided on.
    pub only_second: Vec<String>,
}

impl Comparison {
    /// How many shared pairs have each shift.
    pub fn count(&self, shift: Shift) -> usize {
        self.pairs.iter().filter(|p| p.shift == shift).count()
    }
}

/// Compare every pair of pieces (and of armies) the two reports rate.
pub fn compare(
    first_report: &Report,
    second_report: &Report,
    first_label: &str,
    second_label: &str,
) -> Comparison {
    let first_pairs = pairs_of(first_report);
    let second_pairs = pairs_of(second_report);
    let mut matched = vec![false; second_pairs.len()];
    let mut found = Vec::new();
    let mut only_first = Vec::new();
    for (group, p) in &first_pairs {
        let Some((i, q, turned)) = second_pairs
            .iter()
            .enumerate()
            .find_map(|(i, (_, q))| turned_to(q, &p.a, &p.b).map(|turned| (i, q, turned)))
        else {
            only_first.push(format!("{} vs {}", p.a, p.b));
            continue;
        };
        matched[i] = true;
        found.push((
            (*group).to_owned(),
            p,
            finding(p, false),
            finding(q, turned),
        ));
    }
    let elo_changes: Vec<Option<Change>> = found
        .iter()
        .map(|(_, _, f, s)| Change::between(f.elo(), s.elo()))
        .collect();
    let (moved, open_level) = shift::moved(&elo_changes, ALPHA);
    let level = 1.0 - open_level;
    let nan2 = (f64::NAN, f64::NAN);
    let pairs = found
        .into_iter()
        .zip(elo_changes.iter().zip(moved))
        .map(|((group, p, first, second), (elo, moved))| {
            let pawns = Change::between(first.pawns(), second.pawns());
            PairComparison {
                group,
                a: p.a.clone(),
                b: p.b.clone(),
                elo_change: elo.map_or(f64::NAN, |c| c.change),
                elo_change_interval: elo.map_or(nan2, |c| c.interval(open_level)),
                z: elo.map_or(f64::NAN, |c| c.z),
                pawns_change: pawns.map_or(f64::NAN, |c| c.change),
                pawns_change_interval: pawns.map_or(nan2, |c| c.interval(open_level)),
                shift: match (elo, moved) {
                    (None, _) => Shift::Untested,
                    (Some(_), true) => Shift::Moved,
                    (Some(_), false) => Shift::Agree,
                },
                first,
                second,
            }
        })
        .collect();
    let only_second = second_pairs
        .iter()
        .zip(&matched)
        .filter(|(_, matched)| !**matched)
        .map(|((_, q), _)| format!("{} vs {}", q.a, q.b))
        .collect();
    let (pieces, pieces_level, pieces_pawns_level) = compare_scales(first_report, second_report);
    Comparison {
        first_label: first_label.to_owned(),
        second_label: second_label.to_owned(),
        pairs,
        pieces,
        pieces_level,
        pieces_pawns_level,
        level,
        only_first,
        only_second,
    }
}

/// The pieces both reports' value scales value, matched by letter, and the
/// levels of the change intervals in Elo and in pawns (1 without pieces).
fn compare_scales(first: &Report, second: &Report) -> (Vec<PieceComparison>, f64, f64) {
    match (&first.value_scale, &second.value_scale) {
        (Some(a), Some(b)) => compare_pieces(&a.pieces, &b.pieces),
        _ => (Vec::new(), 1.0, 1.0),
    }
}

/// [`compare_scales`] on the two scales' pieces.
fn compare_pieces(a: &[ScalePiece], b: &[ScalePiece]) -> (Vec<PieceComparison>, f64, f64) {
    let valued = |p: &&ScalePiece| p.elo.is_finite() && p.elo_std_error > 0.0;
    let found: Vec<(&ScalePiece, &ScalePiece)> = a
        .iter()
        .filter(valued)
        .filter_map(|p| {
            let q = b.iter().filter(valued).find(|q| q.letter == p.letter)?;
            Some((p, q))
        })
        .collect();
    let estimate = |value: f64, std_error: f64| Estimate { value, std_error };
    let elo_changes: Vec<Option<Change>> = found
        .iter()
        .map(|(p, q)| {
            Change::between(
                estimate(p.elo, p.elo_std_error),
                estimate(q.elo, q.elo_std_error),
            )
        })
        .collect();
    let pawns_changes: Vec<Option<Change>> = found
        .iter()
        .map(|(p, q)| {
            Change::between(
                estimate(p.pawns, p.pawns_std_error),
                estimate(q.pawns, q.pawns_std_error),
            )
        })
        .collect();
    let (elo_moved, elo_level) = shift::moved(&elo_changes, ALPHA);
    let (pawns_moved, pawns_level) = shift::moved(&pawns_changes, ALPHA);
    let nan2 = (f64::NAN, f64::NAN);
    let answer = |change: Option<Change>, moved: bool| match (change, moved) {
        (None, _) => Shift::Untested,
        (Some(_), true) => Shift::Moved,
        (Some(_), false) => Shift::Agree,
    };
    let pieces = found
        .into_iter()
        .enumerate()
        .map(|(i, (p, q))| {
            let (elo, pawns) = (elo_changes[i], pawns_changes[i]);
            PieceComparison {
                letter: p.letter.clone(),
                name: p.name.clone(),
                first_elo: p.elo,
                first_elo_std_error: p.elo_std_error,
                first_pawns: p.pawns,
                first_pawns_std_error: p.pawns_std_error,
                second_elo: q.elo,
                second_elo_std_error: q.elo_std_error,
                second_pawns: q.pawns,
                second_pawns_std_error: q.pawns_std_error,
                elo_change: elo.map_or(f64::NAN, |c| c.change),
                elo_change_interval: elo.map_or(nan2, |c| c.interval(elo_level)),
                z: elo.map_or(f64::NAN, |c| c.z),
                shift: answer(elo, elo_moved[i]),
                pawns_change: pawns.map_or(f64::NAN, |c| c.change),
                pawns_change_interval: pawns.map_or(nan2, |c| c.interval(pawns_level)),
                pawns_shift: answer(pawns, pawns_moved[i]),
            }
        })
        .collect();
    (pieces, 1.0 - elo_level, 1.0 - pawns_level)
}

fn pairs_of(report: &Report) -> Vec<(&str, &PairVerdict)> {
    report
        .groups
        .iter()
        .flat_map(|g| g.pairs.iter().map(move |p| (g.title.as_str(), p)))
        .collect()
}

/// `p`'s finding per piece, as B minus A when `turn`: under the sequential
/// design the bias-adjusted estimate at the pair's last look, else the
/// whole matchup's, with the delta method's standard error in pawns (the
/// unit's error included).
fn finding(p: &PairVerdict, turn: bool) -> PairFinding {
    let n = f64::from(p.pieces.unwrap_or(1).max(1));
    let sign = if turn { -1.0 } else { 1.0 };
    let (elo, se) = (p.elo_for_comparison / n, p.elo_for_comparison_std_error / n);
    let (k, sk) = (p.unit_elo_per_pawn, p.unit_std_error);
    // Pawns only where the study gave a size in pawns.
    let (pawns, pawns_se) = if p.pawns_per_piece.is_finite() && k > 0.0 {
        let theta = elo / k;
        (theta, ((se / k).powi(2) + (theta * sk / k).powi(2)).sqrt())
    } else {
        (f64::NAN, f64::NAN)
    };
    PairFinding {
        kind: p.kind,
        elo_per_piece: sign * elo,
        elo_per_piece_std_error: se,
        pawns_per_piece: sign * pawns,
        pawns_per_piece_std_error: pawns_se,
        games: p.games,
    }
}

impl PairFinding {
    fn elo(&self) -> Estimate {
        Estimate {
            value: self.elo_per_piece,
            std_error: self.elo_per_piece_std_error,
        }
    }

    fn pawns(&self) -> Estimate {
        Estimate {
            value: self.pawns_per_piece,
            std_error: self.pawns_per_piece_std_error,
        }
    }
}

/// Whether `q` is the pair `a` vs `b` (`Some(false)`) or `b` vs `a`
/// (`Some(true)`: turned round), or another pair.
fn turned_to(q: &PairVerdict, a: &str, b: &str) -> Option<bool> {
    if q.a == a && q.b == b {
        Some(false)
    } else if q.a == b && q.b == a {
        Some(true)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(a: &str, b: &str, elo: f64, se: f64) -> PairVerdict {
        PairVerdict {
            a: a.into(),
            b: b.into(),
            elo,
            elo_interval: (elo - 2.0 * se, elo + 2.0 * se),
            elo_level: 0.95,
            elo_std_error: se,
            pieces: Some(2),
            pawns: elo / 100.0,
            pawns_interval: (f64::NAN, f64::NAN),
            pawns_per_piece: elo / 200.0,
            pawns_per_piece_interval: (f64::NAN, f64::NAN),
            pawns_level: 0.95,
            unit_elo_per_pawn: 100.0,
            unit_std_error: 10.0,
            elo_for_comparison: elo,
            elo_for_comparison_std_error: se,
            games: 400,
            pairs: 200,
            kind: VerdictKind::Different,
            text: String::new(),
            tost_p: 0.5,
            difference_p: 0.01,
            more_pairs_needed: None,
            more_calibration_needed: false,
            stopped_early: false,
            sequential: None,
            look: None,
        }
    }

    #[test]
    fn a_finding_is_per_piece_with_the_units_error_and_turns_round() {
        let f = finding(&verdict("N", "B", -40.0, 10.0), false);
        assert_eq!((f.elo_per_piece, f.elo_per_piece_std_error), (-20.0, 5.0));
        // θ = -0.2 pawns; se² = (5/100)² + (0.2·10/100)² = 0.0025 + 0.0004.
        assert!((f.pawns_per_piece + 0.2).abs() < 1e-12);
        assert!((f.pawns_per_piece_std_error - 0.0029f64.sqrt()).abs() < 1e-12);
        let t = finding(&verdict("N", "B", -40.0, 10.0), true);
        assert_eq!(t.elo_per_piece, 20.0);
        assert_eq!(
            turned_to(&verdict("N", "B", 0.0, 1.0), "B", "N"),
            Some(true)
        );
        assert_eq!(turned_to(&verdict("N", "B", 0.0, 1.0), "B", "R"), None);
        // No size in pawns: no pawn figure, the Elo one stands.
        let mut unknown = verdict("N", "B", -40.0, 10.0);
        unknown.pawns_per_piece = f64::NAN;
        let f = finding(&unknown, false);
        assert!(f.pawns_per_piece.is_nan() && f.elo_per_piece == -20.0);
    }

    fn piece(letter: &str, elo: f64, elo_se: f64, pawns: f64, pawns_se: f64) -> ScalePiece {
        ScalePiece {
            letter: letter.into(),
            name: letter.into(),
            class: None,
            pawns,
            pawns_lo: pawns - 2.0 * pawns_se,
            pawns_hi: pawns + 2.0 * pawns_se,
            elo,
            elo_lo: elo - 2.0 * elo_se,
            elo_hi: elo + 2.0 * elo_se,
            elo_std_error: elo_se,
            pawns_std_error: pawns_se,
            pairs: 100,
            missing: None,
        }
    }

    /// The second scale's player converts more surely: every value grows
    /// in Elo, the pawn's too, so in pawns only the rook's worth moves.
    #[test]
    fn scales_are_compared_in_pawns_and_in_elo_each_on_its_own() {
        let first = [
            piece("P", 100.0, 5.0, 1.0, 0.0),
            piece("N", 300.0, 10.0, 3.0, 0.15),
            piece("R", 500.0, 10.0, 5.0, 0.2),
        ];
        let second = [
            piece("P", 150.0, 5.0, 1.0, 0.0),
            piece("N", 450.0, 10.0, 3.0, 0.15),
            piece("R", 600.0, 10.0, 4.0, 0.2),
        ];
        let (pieces, elo_level, pawns_level) = compare_pieces(&first, &second);
        let shifts: Vec<(Shift, Shift)> = pieces.iter().map(|p| (p.shift, p.pawns_shift)).collect();
        assert_eq!(
            shifts,
            [
                (Shift::Moved, Shift::Untested),
                (Shift::Moved, Shift::Agree),
                (Shift::Moved, Shift::Moved),
            ]
        );
        // Holm: every Elo claim made, so the level is 1 - 0.05; in pawns
        // one of two left open, so 1 - 0.05 / 1.
        assert!((elo_level - 0.95).abs() < 1e-12, "{elo_level}");
        assert!((pawns_level - 0.95).abs() < 1e-12, "{pawns_level}");
        for p in &pieces {
            let (lo, hi) = p.pawns_change_interval;
            if p.pawns_shift != Shift::Untested {
                assert_eq!(lo > 0.0 || hi < 0.0, p.pawns_shift == Shift::Moved, "{p:?}");
            }
            let (lo, hi) = p.elo_change_interval;
            assert_eq!(lo > 0.0 || hi < 0.0, p.shift == Shift::Moved, "{p:?}");
        }
        assert!((pieces[2].pawns_change + 1.0).abs() < 1e-12);
    }
}
