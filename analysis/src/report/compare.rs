//! Two studies of the same pairs of pieces side by side: has a pair's
//! difference moved with the engine's nodes, the pieces' squares or the
//! pocket rules? Each study is read as its own report (its own pawn unit,
//! its own verdicts); the comparison matches their pairs by the two
//! players' names, in either order, and tests whether the per-piece
//! differences in pawns agree.

use serde::Serialize;

use super::model::{PairVerdict, Report, VerdictKind};
use crate::stats::ConfidenceLevel;

/// One study's finding for a pair, oriented as the comparison's pair.
#[derive(Clone, Debug, Serialize)]
pub struct PairFinding {
    pub kind: VerdictKind,
    /// A minus B in pawns per piece exchanged, with the study's 95%
    /// interval (a repeated confidence interval under a sequential design).
    pub pawns_per_piece: f64,
    pub interval: (f64, f64),
    pub games: u64,
}

/// Whether a pair's difference moved between the two studies.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Shift {
    /// The interval of the change holds 0: no sign that the difference moved.
    Agree,
    /// The interval of the change excludes 0: the difference moved.
    Moved,
    /// A pawn figure is missing or unbounded (the pawn unit too uncertain).
    Untested,
}

#[derive(Clone, Debug, Serialize)]
pub struct PairComparison {
    /// The first study's group title (`Class 3: rook, nightrider, …`).
    pub group: String,
    pub a: String,
    pub b: String,
    pub first: PairFinding,
    pub second: PairFinding,
    /// Second minus first, pawns per piece, with its 95% interval.
    pub change: f64,
    pub change_interval: (f64, f64),
    pub shift: Shift,
}

/// The pairs two studies share, and those only one of them played.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    pub first_label: String,
    pub second_label: String,
    pub pairs: Vec<PairComparison>,
    /// `A vs B` of pairs only the first (second) study decided on.
    pub only_first: Vec<String>,
    pub only_second: Vec<String>,
}

impl Comparison {
    /// How many shared pairs have each shift.
    pub fn count(&self, shift: Shift) -> usize {
        self.pairs.iter().filter(|p| p.shift == shift).count()
    }
}

/// Compare every pair of pieces (and of armies) the two reports rate.
///
/// The change's interval takes each study's estimate as normal with the
/// standard error its 95% interval implies on the side facing the other
/// study's estimate (Fieller and repeated intervals are not symmetric), so
/// it is approximate and, for sequential studies, conservative. It is per
/// pair: over many pairs about one in twenty "moved" is expected by chance
/// even when nothing changed.
pub fn compare(
    first: &Report,
    second: &Report,
    first_label: &str,
    second_label: &str,
) -> Comparison {
    let first_pairs = pairs_of(first);
    let second_pairs = pairs_of(second);
    let mut matched = vec![false; second_pairs.len()];
    let mut pairs = Vec::new();
    let mut only_first = Vec::new();
    for (group, p) in &first_pairs {
        let Some((i, q)) = second_pairs
            .iter()
            .enumerate()
            .find_map(|(i, (_, q))| oriented(q, &p.a, &p.b).map(|f| (i, f)))
        else {
            only_first.push(format!("{} vs {}", p.a, p.b));
            continue;
        };
        matched[i] = true;
        let first = finding(p);
        let (change, change_interval) = change(&first, &q);
        let shift = match change_interval {
            (lo, hi) if !(lo.is_finite() && hi.is_finite()) => Shift::Untested,
            (lo, hi) if lo <= 0.0 && 0.0 <= hi => Shift::Agree,
            _ => Shift::Moved,
        };
        pairs.push(PairComparison {
            group: (*group).to_owned(),
            a: p.a.clone(),
            b: p.b.clone(),
            first,
            second: q,
            change,
            change_interval,
            shift,
        });
    }
    let only_second = second_pairs
        .iter()
        .zip(&matched)
        .filter(|(_, matched)| !**matched)
        .map(|((_, q), _)| format!("{} vs {}", q.a, q.b))
        .collect();
    Comparison {
        first_label: first_label.to_owned(),
        second_label: second_label.to_owned(),
        pairs,
        only_first,
        only_second,
    }
}

fn pairs_of(report: &Report) -> Vec<(&str, &PairVerdict)> {
    report
        .groups
        .iter()
        .flat_map(|g| g.pairs.iter().map(move |p| (g.title.as_str(), p)))
        .collect()
}

fn finding(p: &PairVerdict) -> PairFinding {
    PairFinding {
        kind: p.kind,
        pawns_per_piece: p.pawns_per_piece,
        interval: p.pawns_per_piece_interval,
        games: p.games,
    }
}

/// `q`'s finding as `a` minus `b`, if `q` is that pair in either order.
fn oriented(q: &PairVerdict, a: &str, b: &str) -> Option<PairFinding> {
    if q.a == a && q.b == b {
        Some(finding(q))
    } else if q.a == b && q.b == a {
        let (lo, hi) = q.pawns_per_piece_interval;
        Some(PairFinding {
            kind: q.kind,
            pawns_per_piece: -q.pawns_per_piece,
            interval: (-hi, -lo),
            games: q.games,
        })
    } else {
        None
    }
}

/// Second minus first with its approximate 95% interval (infinite ends
/// when either study's interval is unbounded on the side that matters).
fn change(first: &PairFinding, second: &PairFinding) -> (f64, (f64, f64)) {
    let z = ConfidenceLevel::NINETY_FIVE.z();
    let d = second.pawns_per_piece - first.pawns_per_piece;
    if !d.is_finite() {
        return (f64::NAN, (f64::NAN, f64::NAN));
    }
    // The half of each interval that faces the other estimate.
    let toward = |f: &PairFinding, up: bool| {
        let (lo, hi) = f.interval;
        let half = if up {
            hi - f.pawns_per_piece
        } else {
            f.pawns_per_piece - lo
        };
        if half.is_nan() { f64::INFINITY } else { half }
    };
    let up = d >= 0.0;
    let se = (toward(first, up) / z).hypot(toward(second, !up) / z);
    if !se.is_finite() {
        return (d, (f64::NEG_INFINITY, f64::INFINITY));
    }
    (d, (d - z * se, d + z * se))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(pawns: f64, lo: f64, hi: f64) -> PairFinding {
        PairFinding {
            kind: VerdictKind::Different,
            pawns_per_piece: pawns,
            interval: (lo, hi),
            games: 100,
        }
    }

    #[test]
    fn the_change_combines_the_facing_halves_of_both_intervals() {
        let z = ConfidenceLevel::NINETY_FIVE.z();
        // First 0.2 (its upper half 0.2), second 0.8 (its lower half 0.3).
        let (d, (lo, hi)) = change(&found(0.2, 0.1, 0.4), &found(0.8, 0.5, 1.5));
        let se = (0.2f64 / z).hypot(0.3 / z);
        assert!((d - 0.6).abs() < 1e-12);
        assert!((lo - (0.6 - z * se)).abs() < 1e-12 && (hi - (0.6 + z * se)).abs() < 1e-12);
        assert!(
            lo > 0.0,
            "{lo}: a change of 0.6 with these intervals is plain"
        );
        // Downwards the other halves face each other.
        let (d, (lo, hi)) = change(&found(0.8, 0.5, 1.5), &found(0.7, 0.6, 0.75));
        let se = (0.3f64 / z).hypot(0.05 / z);
        assert!((d + 0.1).abs() < 1e-12 && (hi - (-0.1 + z * se)).abs() < 1e-12);
        assert!(lo < 0.0 && hi > 0.0);
        // An unbounded interval tests nothing; a missing estimate neither.
        let (_, iv) = change(&found(0.2, 0.1, f64::INFINITY), &found(0.9, 0.8, 1.0));
        assert!(iv.0.is_infinite() && iv.1.is_infinite());
        let (d, _) = change(&found(f64::NAN, f64::NAN, f64::NAN), &found(0.9, 0.8, 1.0));
        assert!(d.is_nan());
    }

    #[test]
    fn a_pair_played_the_other_way_round_is_turned_round() {
        let q = PairVerdict {
            a: "N".into(),
            b: "B".into(),
            elo: -10.0,
            elo_interval: (-20.0, 0.0),
            pieces: Some(2),
            pawns: -0.2,
            pawns_interval: (-0.4, 0.0),
            pawns_per_piece: -0.1,
            pawns_per_piece_interval: (-0.2, 0.05),
            games: 400,
            pairs: 200,
            kind: VerdictKind::Equivalent,
            text: String::new(),
            tost_p: 0.01,
            difference_p: 0.2,
            more_pairs_needed: None,
            more_calibration_needed: false,
            stopped_early: false,
            sequential: None,
        };
        let f = oriented(&q, "B", "N").unwrap();
        assert_eq!((f.pawns_per_piece, f.interval), (0.1, (-0.05, 0.2)));
        assert_eq!(oriented(&q, "N", "B").unwrap().pawns_per_piece, -0.1);
        assert!(oriented(&q, "B", "R").is_none());
    }
}
