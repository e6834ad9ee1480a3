//! Two studies of the same pairs of pieces side by side: has a pair's
//! difference moved with the engine's nodes, the pieces' squares or the
//! pocket rules? Each study is read as its own report (its own pawn unit,
//! its own verdicts); the comparison matches their pairs by the two
//! players' names, in either order, and tests whether the per-piece
//! differences in pawns agree.
//!
//! A sequential study may decide a pair so early that the pawn unit (still
//! being calibrated) cannot bound the verdict's interval in pawns; such a
//! pair is then compared on its matchup's fixed-sample interval over all
//! its games with the study's final pawn unit, and says so.

use serde::Serialize;

use super::model::{Compared, MatchupStats, PairVerdict, Report, VerdictKind};
use crate::stats::ConfidenceLevel;

/// One study's finding for a pair, oriented as the comparison's pair.
#[derive(Clone, Debug, Serialize)]
pub struct PairFinding {
    pub kind: VerdictKind,
    /// A minus B in pawns per piece exchanged, with a 95% interval from
    /// `source`.
    pub pawns_per_piece: f64,
    pub interval: (f64, f64),
    pub source: IntervalSource,
    pub games: u64,
}

/// Where a finding's pawn interval comes from.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum IntervalSource {
    /// The verdict's own interval (a repeated confidence interval under a
    /// sequential design).
    Verdict,
    /// The verdict's interval was unbounded: the matchup's fixed-sample
    /// interval over all its games, with the study's final pawn unit. It is
    /// conditional on when the design stopped the pair, which tends to
    /// overstate an early-stopped difference.
    Matchup,
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

impl PairComparison {
    /// Whether either study's finding for the pair has its interval from `source`.
    pub fn uses(&self, source: IntervalSource) -> bool {
        self.first.source == source || self.second.source == source
    }
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
    first_report: &Report,
    second_report: &Report,
    first_label: &str,
    second_label: &str,
) -> Comparison {
    let first_pairs = pairs_of(first_report);
    let second_pairs = pairs_of(second_report);
    let mut matched = vec![false; second_pairs.len()];
    let mut pairs = Vec::new();
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
        let first = finding(p, matchup_of(first_report, &p.a, &p.b));
        let second = finding(q, matchup_of(second_report, &q.a, &q.b)).turned_if(turned);
        let (change, change_interval) = change(&first, &second);
        let shift = match change_interval {
            iv if !bounded(iv) => Shift::Untested,
            (lo, hi) if lo <= 0.0 && 0.0 <= hi => Shift::Agree,
            _ => Shift::Moved,
        };
        pairs.push(PairComparison {
            group: (*group).to_owned(),
            a: p.a.clone(),
            b: p.b.clone(),
            first,
            second,
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

/// The matchup that played pieces `a` against `b` (in either order) and
/// nothing else.
fn matchup_of<'r>(report: &'r Report, a: &str, b: &str) -> Option<&'r MatchupStats> {
    report.matchups.iter().find(|m| {
        m.compared == Compared::Pieces && ((m.a == a && m.b == b) || (m.a == b && m.b == a))
    })
}

/// Both ends of an interval finite.
fn bounded((lo, hi): (f64, f64)) -> bool {
    lo.is_finite() && hi.is_finite()
}

/// `p`'s finding as its own A minus B: the verdict's interval, or where that
/// is unbounded and `matchup`'s is not, the matchup's.
fn finding(p: &PairVerdict, matchup: Option<&MatchupStats>) -> PairFinding {
    let verdict = PairFinding {
        kind: p.kind,
        pawns_per_piece: p.pawns_per_piece,
        interval: p.pawns_per_piece_interval,
        source: IntervalSource::Verdict,
        games: p.games,
    };
    let fallback = matchup.filter(|m| {
        !bounded(p.pawns_per_piece_interval)
            && bounded(m.pawns_per_piece_interval)
            && m.pawns_per_piece.is_finite()
    });
    match fallback {
        None => verdict,
        Some(m) => PairFinding {
            pawns_per_piece: m.pawns_per_piece,
            interval: m.pawns_per_piece_interval,
            source: IntervalSource::Matchup,
            ..verdict
        }
        .turned_if(m.a != p.a),
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

impl PairFinding {
    /// The same finding as B minus A when `turn`.
    fn turned_if(self, turn: bool) -> PairFinding {
        if !turn {
            return self;
        }
        let (lo, hi) = self.interval;
        PairFinding {
            pawns_per_piece: -self.pawns_per_piece,
            interval: (-hi, -lo),
            ..self
        }
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
            source: IntervalSource::Verdict,
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

    fn matchup(a: &str, b: &str, pawns: f64, lo: f64, hi: f64) -> MatchupStats {
        use super::super::model::ScoreModel;
        MatchupStats {
            name: format!("{a}-vs-{b}"),
            a: a.into(),
            b: b.into(),
            compared: Compared::Pieces,
            games: 200,
            a_wins: 120,
            draws: 10,
            b_wins: 70,
            pairs: 100,
            pentanomial: [10, 10, 30, 20, 30],
            model: ScoreModel::Pentanomial,
            score: 0.625,
            score_interval: (0.57, 0.68),
            elo: 89.0,
            elo_interval: (50.0, 130.0),
            elo_std_error: 20.0,
            pieces: Some(1),
            pawns,
            pawns_interval: (lo, hi),
            pawns_per_piece: pawns,
            pawns_per_piece_interval: (lo, hi),
            los: 1.0,
            white_score: 0.55,
            sprt: None,
            stopped_early: false,
        }
    }

    fn early(a: &str, b: &str, pawns: f64) -> PairVerdict {
        PairVerdict {
            a: a.into(),
            b: b.into(),
            elo: 89.0,
            elo_interval: (20.0, 160.0),
            pieces: Some(1),
            pawns,
            pawns_interval: (0.1, f64::INFINITY),
            pawns_per_piece: pawns,
            pawns_per_piece_interval: (0.1, f64::INFINITY),
            games: 150,
            pairs: 75,
            kind: VerdictKind::Different,
            text: String::new(),
            tost_p: 0.9,
            difference_p: 0.001,
            more_pairs_needed: None,
            more_calibration_needed: false,
            stopped_early: false,
            sequential: Some("decided at look 3".into()),
        }
    }

    #[test]
    fn an_unbounded_verdict_falls_back_on_its_matchups_interval_and_says_so() {
        let m = matchup("Q", "D", 1.0, 0.6, 1.5);
        // Named the matchup's way round, and the other way round.
        let f = finding(&early("Q", "D", 1.0), Some(&m));
        assert_eq!(f.source, IntervalSource::Matchup);
        assert_eq!((f.pawns_per_piece, f.interval), (1.0, (0.6, 1.5)));
        let f = finding(&early("D", "Q", -1.0), Some(&m));
        assert_eq!((f.pawns_per_piece, f.interval), (-1.0, (-1.5, -0.6)));
        let turned = turned_to(&early("D", "Q", -1.0), "Q", "D").unwrap();
        let f = finding(&early("D", "Q", -1.0), Some(&m)).turned_if(turned);
        assert_eq!((f.pawns_per_piece, f.interval), (1.0, (0.6, 1.5)));
        // A bounded verdict keeps its own interval; an unbounded matchup
        // interval is no fallback; nor is a missing matchup.
        let mut bounded = early("Q", "D", 1.0);
        bounded.pawns_per_piece_interval = (0.2, 3.0);
        let f = finding(&bounded, Some(&m));
        assert_eq!(
            (f.source, f.interval),
            (IntervalSource::Verdict, (0.2, 3.0))
        );
        let loose = matchup("Q", "D", 1.0, 0.6, f64::INFINITY);
        assert_eq!(
            finding(&early("Q", "D", 1.0), Some(&loose)).source,
            IntervalSource::Verdict
        );
        assert_eq!(
            finding(&early("Q", "D", 1.0), None).source,
            IntervalSource::Verdict
        );
        // Two fallbacks give a bounded change, so the pair is tested.
        let other = matchup("Q", "D", 0.2, -0.1, 0.5);
        let (d, (lo, hi)) = change(
            &finding(&early("Q", "D", 1.0), Some(&m)),
            &finding(&early("Q", "D", 0.2), Some(&other)),
        );
        assert!(
            (d + 0.8).abs() < 1e-12 && lo.is_finite() && hi < 0.0,
            "{lo} {hi}"
        );
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
        let oriented = |a, b| turned_to(&q, a, b).map(|turned| finding(&q, None).turned_if(turned));
        let f = oriented("B", "N").unwrap();
        assert_eq!((f.pawns_per_piece, f.interval), (0.1, (-0.05, 0.2)));
        assert_eq!(oriented("N", "B").unwrap().pawns_per_piece, -0.1);
        assert!(oriented("B", "R").is_none());
    }
}
