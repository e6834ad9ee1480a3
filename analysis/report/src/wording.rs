//! The report in words: labels, one sentence per verdict, a summary per
//! group, the headlines and the caveats. Only wording: every number comes
//! from the statistics already computed.

use pocketlab_core::PieceType;
use pocketlab_selfplay::Experiment;
use pocketlab_selfplay::experiment::EngineSettings;
use pocketlab_selfplay::log::Termination;

use pocketlab_stats::sequential::SequentialStop;

use super::model::{
    AdaptiveStatus, AdaptiveSummary, Calibration, CalibrationSource, ColourValue, ColourValues,
    Compared, EngineVerdict, EngineVerdictKind, GameBalance, GroupStatus, MatchupStats,
    PairVerdict, PublishedAgreement, PublishedCheck, RatingGroup, ScoreModel, StatedInterval,
    VerdictKind, group_status,
};
use pocketlab_stats::equivalence::{Leaning, Plan};
use pocketlab_stats::sequential::StudyHistory;

/// The piece a player stands for, when its name is a piece letter.
pub(super) fn piece_of(exp: &Experiment, name: &str) -> Option<PieceType> {
    name.chars()
        .next()
        .filter(|_| name.len() == 1)
        .and_then(|c| exp.variant.piece_by_letter(c))
}

/// `N (knight)` for a piece letter, else the army's name.
pub(super) fn player_label(exp: &Experiment, name: &str) -> String {
    match piece_of(exp, name) {
        Some(t) => format!("{name} ({})", exp.variant.piece(t).name),
        None => name.to_owned(),
    }
}

/// `Class 3: rook, nightrider, super bishop` or `Armies: a, b, c`.
pub(super) fn group_title(exp: &Experiment, players: &[String], class: Option<u8>) -> String {
    let names: Vec<String> = players
        .iter()
        .map(|p| piece_of(exp, p).map_or(p.clone(), |t| exp.variant.piece(t).name.clone()))
        .collect();
    match class {
        Some(c) => format!("Class {c}: {}", names.join(", ")),
        None => format!("Armies: {}", names.join(", ")),
    }
}

/// Decimals for a pawn interval: 2, or up to 4 where an end inside the
/// margin would round onto it (an equivalence interval of -0.23 to 0.2496
/// must not read "to 0.25", which looks like a bound on the margin).
pub(crate) fn pawn_decimals((lo, hi): (f64, f64), margin: f64) -> usize {
    let onto = |x: f64, d: i32| {
        let scale = 10f64.powi(d);
        x.abs() < margin && (scale * x.abs()).round() / scale >= margin
    };
    (2..=4)
        .find(|&d| !onto(lo, d) && !onto(hi, d))
        .map_or(4, |d| d as usize)
}

/// A confidence level as `95%`, or `96.7%` when not a whole percentage.
pub(crate) fn level_percent(level: f64) -> String {
    let p = 100.0 * level;
    if !p.is_finite() {
        "level unknown".to_owned()
    } else if (p - p.round()).abs() < 0.05 {
        format!("{p:.0}%")
    } else {
        format!("{p:.1}%")
    }
}

/// A player's plain name: the piece's name (`nightrider`) for a piece
/// letter, else the army's name.
pub(super) fn player_name(exp: &Experiment, name: &str) -> String {
    piece_of(exp, name).map_or_else(|| name.to_owned(), |t| exp.variant.piece(t).name.clone())
}

/// `text` with its first letter in capitals, to open a sentence.
pub(crate) fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The margin in words: `a quarter pawn`, `half a pawn`, `one pawn`, else
/// `0.30 pawns`.
pub(crate) fn margin_words(margin_pawns: f64) -> String {
    let is = |x: f64| (margin_pawns - x).abs() < 1e-9;
    if is(0.25) {
        "a quarter pawn".to_owned()
    } else if is(0.5) {
        "half a pawn".to_owned()
    } else if is(1.0) {
        "one pawn".to_owned()
    } else {
        format!("{margin_pawns:.2} pawns")
    }
}

/// An Elo bound in words (an interval turned round from a score of 0 or 1
/// is open on that side).
fn elo_bound(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.0}")
    } else if x > 0.0 {
        "∞".to_owned()
    } else {
        "-∞".to_owned()
    }
}

/// One verdict in one short sentence, pieces by their plain names: the
/// verdict, and for a difference its size per piece with the interval
/// that made it (in pawns where the pawn unit resolves it, else in Elo).
/// The interval's level, the look, the games and the Elo are printed
/// beside the sentence, once.
pub(super) fn pair_text(
    exp: &Experiment,
    v: &PairVerdict,
    margin_pawns: f64,
    estimable: bool,
) -> String {
    let (a, b) = (player_name(exp, &v.a), player_name(exp, &v.b));
    let (strong, weak, sign) = if v.elo > 0.0 {
        (&a, &b, 1.0)
    } else {
        (&b, &a, -1.0)
    };
    let turned = |(lo, hi): (f64, f64)| if sign < 0.0 { (-hi, -lo) } else { (lo, hi) };
    let within = margin_words(margin_pawns);
    let sentence = if !estimable {
        format!(
            "{a} and {b}: too few games to estimate ({} games).",
            v.games
        )
    } else {
        match (v.kind, v.stated()) {
            (VerdictKind::Equivalent, _) => format!("{a} and {b}: equivalent within {within}."),
            (VerdictKind::EquivalentStronger, _) => format!(
                "{a} and {b}: equivalent within {within}, yet {strong} is measurably stronger."
            ),
            (VerdictKind::Different, StatedInterval::Pawns) => {
                let (lo, hi) = turned(v.pawns_per_piece_interval);
                let d = pawn_decimals((lo, hi), margin_pawns);
                format!(
                    "{strong} stronger than {weak} by {:.d$} pawns ({lo:.d$} to {hi:.d$}).",
                    sign * v.pawns_per_piece
                )
            }
            (VerdictKind::Different, _) => {
                let (elo, interval) = v.elo_per_piece();
                let (lo, hi) = turned(interval);
                format!(
                    "{strong} stronger than {weak} by {:.0} Elo ({} to {}); its size in pawns is not yet \
                     known.",
                    sign * elo,
                    elo_bound(lo),
                    elo_bound(hi)
                )
            }
            (VerdictKind::Inconclusive, _) => {
                format!("{a} and {b}: not decided after {} games.", v.games)
            }
        }
    };
    capitalised(&sentence)
}

/// How an adaptive study's matchup ended, in words: "decided at look 3,
/// after 75 pairs (150 games)", "undecided at the cap of 500 pairs: about
/// 120 more pairs would settle it".
pub(super) fn adaptive_how(
    status: AdaptiveStatus,
    look: usize,
    pairs: u64,
    plan: Option<Plan>,
    stop: &SequentialStop,
) -> String {
    let games = 2 * pairs;
    let need = match plan {
        Some(Plan::MorePairs(n)) => format!(": about {n} more pairs would settle it"),
        Some(Plan::MoreCalibration) => {
            ": the pawn unit is too uncertain for more pairs of it to settle it".to_owned()
        }
        Some(Plan::BoundaryAhead(leaning)) => {
            let claim = match leaning {
                Leaning::Equivalent => "equivalent",
                Leaning::Different => "different",
            };
            format!(
                ": a fixed-sample test would already call it {claim}, but this look's boundary is \
                 stricter (kept so that every look together holds the error rate)"
            )
        }
        None => String::new(),
    };
    match status {
        AdaptiveStatus::Equivalent
        | AdaptiveStatus::Different
        | AdaptiveStatus::EquivalentStronger => {
            format!("decided at look {look}, after {pairs} pairs ({games} games)")
        }
        AdaptiveStatus::Playing => {
            format!("undecided after look {look} ({pairs} pairs), playing the next stage{need}")
        }
        AdaptiveStatus::Cap => format!(
            "undecided at the cap of {} pairs{need}; raise max_pairs to go on",
            stop.max_pairs
        ),
        AdaptiveStatus::Budget => format!(
            "undecided: the study's budget of {} games ran out after look {look} ({pairs} \
             pairs){need}",
            stop.budget_games.unwrap_or(0)
        ),
        AdaptiveStatus::CalibrationDone => {
            let until = match stop.calibration_futility {
                None => "no pair of pieces needed it",
                Some(_) => "no open pair of pieces could still be shown equivalent",
            };
            format!("played until {until}: {pairs} pairs ({games} games), to look {look}")
        }
    }
}

/// The design's result in one sentence.
pub(super) fn adaptive_summary(
    decided: usize,
    pairs_of_pieces: usize,
    history: &StudyHistory,
    fixed_games: u64,
) -> String {
    let share = 100.0 * history.games as f64 / fixed_games.max(1) as f64;
    let state = match &history.next {
        None => "the study is over".to_owned(),
        Some(s) => format!("stage {} is next", s.number),
    };
    format!(
        "Sequential design: {decided} of {pairs_of_pieces} pairs of pieces decided in {} games after {} \
         looks, {share:.0}% of the {fixed_games} games the fixed design would play; {state}.",
        history.games, history.looks_done
    )
}

/// One line for a whole group: holds, fails or not settled, and the
/// count of pairs that says so (the pairs' own sentences stand below it);
/// `is_class` when its players are the pieces of one value class (else
/// they are armies, and no class is claimed to hold or fail).
pub(super) fn group_summary(title: &str, pairs: &[PairVerdict], is_class: bool) -> String {
    if pairs.is_empty() {
        return format!("{title}: no pair measured yet.");
    }
    let of = |n: usize, what: &str| match (pairs.len(), n) {
        (1, _) => format!("the one pair is {what}"),
        (total, n) if n == total => format!("all {total} pairs are {what}"),
        (total, 1) => format!("1 of {total} pairs is {what}"),
        (total, n) => format!("{n} of {total} pairs are {what}"),
    };
    let count = |keep: fn(VerdictKind) -> bool| pairs.iter().filter(|p| keep(p.kind)).count();
    let (status, why) = match group_status(pairs) {
        GroupStatus::Holds => (
            if is_class { "holds" } else { "all equal" },
            of(pairs.len(), "equivalent"),
        ),
        GroupStatus::Fails => (
            if is_class { "fails" } else { "not all equal" },
            of(count(|k| k == VerdictKind::Different), "different"),
        ),
        GroupStatus::NotSettled => (
            "not settled",
            of(count(|k| k == VerdictKind::Inconclusive), "undecided"),
        ),
    };
    format!("{title}: {status} ({why}).")
}

/// An engine comparison in one sentence: who is stronger by how much (or
/// that it is not clear yet), and the SPRT's decision.
pub(super) fn engine_text(v: &EngineVerdict) -> String {
    let (lo, hi) = v.elo_interval;
    let over = format!("over {} games ({} pairs)", v.games, v.pairs);
    let mut text = if !(v.elo.is_finite() && lo.is_finite() && hi.is_finite()) {
        format!(
            "{} vs {}: no Elo estimate yet {over} (too few, or one side scored every point)",
            v.a, v.b
        )
    } else {
        let los = if v.los.is_finite() {
            format!("; LOS {:.1}%", 100.0 * v.los)
        } else {
            String::new()
        };
        match v.kind {
            EngineVerdictKind::Stronger => format!(
                "{} is stronger than {} by {:.0} Elo (95%: {lo:.0} to {hi:.0}{los}) {over}",
                v.a, v.b, v.elo
            ),
            EngineVerdictKind::Weaker => format!(
                "{} is stronger than {} by {:.0} Elo (95%: {:.0} to {:.0}{los}) {over}",
                v.b, v.a, -v.elo, -hi, -lo
            ),
            EngineVerdictKind::Undecided => format!(
                "{} vs {}: no clear difference yet, {:+.0} Elo (95%: {lo:+.0} to {hi:+.0}{los}) {over}",
                v.a, v.b, v.elo
            ),
        }
    };
    if let Some(s) = &v.sprt {
        let hypotheses = v.sprt_elo.map_or(String::new(), |(e0, e1)| {
            format!(" of H0: {e0:+} Elo against H1: {e1:+} Elo")
        });
        let (lower, upper) = v.sprt_bounds.unwrap_or((f64::NAN, f64::NAN));
        let outcome = match s.decision.as_str() {
            "H1" => format!("H1 accepted (LLR {:+.2} reached {upper:+.2})", s.llr),
            "H0" => format!("H0 accepted (LLR {:+.2} reached {lower:+.2})", s.llr),
            _ => format!(
                "undecided so far (LLR {:+.2}, between {lower:+.2} and {upper:+.2})",
                s.llr
            ),
        };
        text.push_str(&format!(
            "; SPRT{hypotheses} for {} − {}: {outcome}",
            v.a, v.b
        ));
    }
    if v.stopped_early {
        text.push_str(" (stopped by the SPRT: the interval is conditional on stopping)");
    }
    text
}

/// The headline of a report with no class to rate and no engines to
/// compare.
pub(super) const NOTHING_RATED: &str = "No group of armies to rate: see the matchups below.";

/// The headlines: the pawn unit when it failed, each engine comparison,
/// the game's balance, and the colours when a colour map was valued (each
/// group's line stands with its verdicts).
pub(super) fn headlines(
    calibration: &Calibration,
    groups: &[RatingGroup],
    engines: &[EngineVerdict],
    balance: &GameBalance,
    colour_values: Option<&ColourValues>,
    adaptive: Option<&AdaptiveSummary>,
    published: &[PublishedCheck],
) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(a) = adaptive {
        out.push(a.text.clone());
    }
    if !groups.is_empty()
        && matches!(
            calibration.source,
            CalibrationSource::NoPawnAdvantage | CalibrationSource::Unmeasurable
        )
    {
        out.push(format!("No pawn unit: {}", calibration.note));
    }
    out.extend(engines.iter().map(|e| format!("Engines: {}.", e.text)));
    if groups.is_empty() && engines.is_empty() {
        out.push(NOTHING_RATED.into());
    }
    out.push(format!(
        "Game balance: White scores {:.1}% over {} games; {:.1}% draws.",
        100.0 * balance.white_score,
        balance.games,
        100.0 * balance.draw_rate
    ));
    if let Some(line) = colour_values.and_then(colour_headline) {
        out.push(line);
    }
    if let Some(line) = published_headline(published) {
        out.push(line);
    }
    out
}

/// How the published figures fare against the lab's intervals, naming
/// those outside.
fn published_headline(published: &[PublishedCheck]) -> Option<String> {
    if published.is_empty() {
        return None;
    }
    let measured: Vec<&PublishedCheck> = published
        .iter()
        .filter(|p| p.agreement.is_tested())
        .collect();
    if measured.is_empty() {
        return Some(format!(
            "Published values: none of the {} can be compared yet (no bounded pawn figure for their \
             matchups).",
            published.len()
        ));
    }
    let within = measured
        .iter()
        .filter(|p| p.agreement == PublishedAgreement::Within)
        .count();
    let outside: Vec<String> = measured
        .iter()
        .filter(|p| p.agreement != PublishedAgreement::Within)
        .map(|p| {
            format!(
                "{} vs {}: {} {:+.2}, the lab {:+.2}",
                p.a, p.b, p.source, p.published_pawns, p.lab_pawns
            )
        })
        .collect();
    let mut line = format!(
        "Published values: {within} of {} lie within the lab's 95% intervals",
        measured.len()
    );
    if !outside.is_empty() {
        line.push_str(&format!(
            " ({} outside: {})",
            outside.len(),
            outside.join("; ")
        ));
    }
    let untested = published.len() - measured.len();
    if untested > 0 {
        line.push_str(&format!(
            "; {untested} not tested yet (no bounded pawn figure)"
        ));
    }
    line.push('.');
    Some(line)
}

/// The most and least valuable colour of a colour map, in one sentence.
fn colour_headline(values: &ColourValues) -> Option<String> {
    let valued: Vec<&ColourValue> = values
        .colours
        .iter()
        .filter(|c| c.value.is_finite())
        .collect();
    let best = valued.iter().max_by(|a, b| a.value.total_cmp(&b.value))?;
    let worst = valued.iter().min_by(|a, b| a.value.total_cmp(&b.value))?;
    Some(format!(
        "Square colours: a piece on {} ({}) is worth {:.2} average pieces, on {} ({}) {:.2}.",
        best.name, best.betza, best.value, worst.name, worst.betza, worst.value
    ))
}

/// Caveats a reader must know before trusting a verdict: `engines` are
/// the engine descriptions of the log.
pub(super) fn notes(
    calibration: &Calibration,
    matchups: &[MatchupStats],
    groups: &[RatingGroup],
    engines: &[String],
    balance: &GameBalance,
    adaptive: Option<&AdaptiveSummary>,
    off_design: Option<&str>,
) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(problem) = off_design {
        out.push(format!(
            "The experiment uses the sequential design, but this log holds pairs the design did not \
             schedule ({problem}): the verdicts are fixed-sample tests over every logged pair, not the \
             design's, and its error rates under looks do not apply."
        ));
    }
    if let Some(a) = adaptive {
        out.push(format!(
            "Sequential design ({} spending, a look every {} pairs up to {}, α = {} per kind of claim and \
             class): each verdict was made at a look, Holm-corrected across the looks and the pairs of its \
             class, and holds its error rate whatever look stopped it. The intervals beside the verdicts are \
             repeated confidence intervals at the matchup's last look (they cover the truth at every look at \
             once); the matchup table's intervals and the ratings are fixed-sample figures over the games \
             played, conditional on when the design stopped (an early stop tends to overstate a difference).",
            a.spending, a.look_every, a.max_pairs, a.alpha
        ));
    }
    // The pawn unit matters only where pieces are compared.
    let pieces_compared = matchups
        .iter()
        .any(|m| matches!(m.compared, Compared::Pieces | Compared::PiecesAndEngines));
    if calibration.source != CalibrationSource::Measured && (pieces_compared || !groups.is_empty())
    {
        out.push(calibration.note.clone());
    }
    let timed: Vec<&str> = engines
        .iter()
        .filter(|e| EngineSettings::describes_time_limit(e))
        .map(String::as_str)
        .collect();
    if !timed.is_empty() {
        out.push(format!(
            "Time-limited engines ({}): their moves depend on the machine's speed and load, so the results of \
             time-limited games are not reproducible (the same experiment and seed give other games); node- and \
             depth-limited games are the same on every run. Time limits are for measuring strength.",
            timed.join("; ")
        ));
    }
    let faults: Vec<String> = balance
        .terminations
        .iter()
        .filter(|(t, _)| {
            t.parse::<Termination>()
                .is_ok_and(Termination::is_engine_fault)
        })
        .map(|(t, n)| format!("{t}: {n}"))
        .collect();
    if !faults.is_empty() {
        out.push(format!(
            "Games lost by an external engine's fault ({}): each counts as a loss for the faulty side (an illegal \
             or unreadable move, no bestmove, a crash or no answer in time); the run's standard error named the \
             engine, the game and the fault.",
            faults.join(", ")
        ));
    }
    let mixed: Vec<&str> = matchups
        .iter()
        .filter(|m| m.compared == Compared::PiecesAndEngines)
        .map(|m| m.name.as_str())
        .collect();
    if !mixed.is_empty() {
        out.push(format!(
            "Matchups whose armies differ in both pieces and engine ({}): their figures mix what the pieces are \
             worth with how strongly each engine plays.",
            mixed.join(", ")
        ));
    }
    if matchups.iter().any(|m| m.model == ScoreModel::Trinomial) {
        out.push(
            "Some matchups have games without their colour-swapped twin; their intervals use the trinomial model \
             over games."
                .into(),
        );
    }
    let stopped: Vec<&str> = matchups
        .iter()
        .filter(|m| m.stopped_early)
        .map(|m| m.name.as_str())
        .collect();
    if !stopped.is_empty() {
        out.push(format!(
            "Stopped early by the SPRT: {}. Their intervals, p-values and verdicts are computed as if the number of \
             pairs had been fixed in advance; after a sequential stop they are conditional on stopping (the \
             estimate tends to overstate the difference in the direction the test decided), so their stated error \
             rates are not guaranteed. For a verdict that holds its rate, play a fixed number of pairs.",
            stopped.join(", ")
        ));
    }
    let exchanged: Vec<String> = groups
        .iter()
        .filter_map(|g| {
            g.pieces
                .filter(|&n| n > 1)
                .map(|n| format!("{} ({n})", g.title))
        })
        .collect();
    if !exchanged.is_empty() {
        out.push(format!(
            "Per-piece figures: a matchup exchanges several pieces ({}), so its difference is the armies' \
             difference divided by the pieces exchanged; it includes pair effects (two bishops bring a bishop \
             pair). The margin and the verdicts apply per piece. To measure one piece alone, narrow the \
             generator's slots with `squares = [\"b1\"]`.",
            exchanged.join("; ")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::super::model::{SprtOutcome, example_verdict};
    use super::*;

    fn published(
        source: &str,
        pawns: f64,
        lab: f64,
        agreement: PublishedAgreement,
    ) -> PublishedCheck {
        PublishedCheck {
            matchup: "no-knight-vs-no-rook".into(),
            a: "no-knight".into(),
            b: "no-rook".into(),
            source: source.into(),
            published_pawns: pawns,
            lab_pawns: lab,
            lab_interval: (lab - 0.3, lab + 0.3),
            games: 200,
            agreement,
        }
    }

    fn different(a: &str, b: &str) -> PairVerdict {
        PairVerdict {
            a: a.into(),
            b: b.into(),
            text: format!("{a} is stronger than {b}"),
            ..verdict(VerdictKind::Different)
        }
    }

    #[test]
    fn a_group_line_counts_its_pairs_in_words_that_agree_in_number() {
        let one = group_summary("Class 4", &[different("C", "U")], true);
        assert_eq!(one, "Class 4: fails (the one pair is different).");
        let two = group_summary(
            "Class 7",
            &[different("L", "A"), verdict(VerdictKind::Equivalent)],
            true,
        );
        assert_eq!(two, "Class 7: fails (1 of 2 pairs is different).");
        let all = group_summary(
            "Class 2",
            &[
                verdict(VerdictKind::Equivalent),
                verdict(VerdictKind::EquivalentStronger),
            ],
            true,
        );
        assert_eq!(all, "Class 2: holds (all 2 pairs are equivalent).");
    }

    #[test]
    fn the_published_headline_counts_and_names_the_figures_outside() {
        use PublishedAgreement::*;
        assert_eq!(published_headline(&[]), None);
        let unmeasured = [published("Kaufman (1999)", 1.75, f64::NAN, NotMeasured)];
        assert!(
            published_headline(&unmeasured)
                .unwrap()
                .contains("none of the 1")
        );
        let line = published_headline(&[
            published("Kaufman (1999)", 1.75, 1.6, Within),
            published("Muller", 1.5, 2.4, LabHigher),
            published("Other", 1.0, f64::NAN, NotMeasured),
        ])
        .unwrap();
        assert_eq!(
            line,
            "Published values: 1 of 2 lie within the lab's 95% intervals (1 outside: no-knight vs \
             no-rook: Muller +1.50, the lab +2.40); 1 not tested yet (no bounded pawn figure)."
        );
        let unbounded = [published("Kaufman (1999)", 1.75, 1.6, Unbounded)];
        assert!(
            published_headline(&unbounded)
                .unwrap()
                .contains("none of the 1")
        );
    }

    fn engines(elo: f64, interval: (f64, f64), sprt: Option<&str>) -> EngineVerdict {
        let kind = if interval.0 > 0.0 {
            EngineVerdictKind::Stronger
        } else if interval.1 < 0.0 {
            EngineVerdictKind::Weaker
        } else {
            EngineVerdictKind::Undecided
        };
        EngineVerdict {
            matchup: "new-vs-base".into(),
            a: "new".into(),
            b: "base".into(),
            a_engine: "uci=new nodes=3000".into(),
            b_engine: "uci=base nodes=3000".into(),
            elo,
            elo_interval: interval,
            los: 0.97,
            games: 800,
            pairs: 400,
            kind,
            sprt: sprt.map(|d| SprtOutcome {
                llr: if d == "H1" { 2.96 } else { 0.5 },
                decision: d.into(),
            }),
            sprt_elo: sprt.map(|_| (0.0, 10.0)),
            sprt_bounds: sprt.map(|_| (-2.94, 2.94)),
            text: String::new(),
            stopped_early: sprt == Some("H1"),
        }
    }

    #[test]
    fn engine_comparisons_speak_of_elo_and_the_sprt() {
        assert_eq!(
            engine_text(&engines(14.0, (3.0, 25.0), None)),
            "new is stronger than base by 14 Elo (95%: 3 to 25; LOS 97.0%) over 800 games (400 pairs)"
        );
        assert_eq!(
            engine_text(&engines(-14.0, (-25.0, -3.0), None)),
            "base is stronger than new by 14 Elo (95%: 3 to 25; LOS 97.0%) over 800 games (400 pairs)"
        );
        let passed = engine_text(&engines(12.0, (2.0, 22.0), Some("H1")));
        assert!(
            passed.ends_with(
                "SPRT of H0: +0 Elo against H1: +10 Elo for new − base: H1 accepted (LLR +2.96 reached \
                 +2.94) (stopped by the SPRT: the interval is conditional on stopping)"
            ),
            "{passed}"
        );
        let running = engine_text(&engines(3.0, (-8.0, 14.0), Some("continue")));
        assert!(
            running.starts_with("new vs base: no clear difference yet, +3 Elo (95%: -8 to +14")
        );
        assert!(running.ends_with("undecided so far (LLR +0.50, between -2.94 and +2.94)"));
    }

    fn verdict(kind: VerdictKind) -> PairVerdict {
        PairVerdict {
            elo_interval: (40.0, 88.0),
            pawns_per_piece: 0.3,
            pawns_per_piece_interval: (0.18, 0.42),
            more_pairs_needed: None,
            ..example_verdict("B", "N", 64.0, kind)
        }
    }

    fn class_2() -> Experiment {
        let text = "name = \"t\"\nvariant = \"pocket-mutation\"\nseed = 1\n\
                    [[generators]]\nkind = \"class-equivalence\"\nclass = 2\n";
        Experiment::parse("t.toml", text, Path::new(".")).unwrap()
    }

    #[test]
    fn each_kind_of_verdict_is_one_short_sentence() {
        let exp = class_2();
        let say = |v: &PairVerdict| pair_text(&exp, v, 0.25, true);
        assert_eq!(
            say(&verdict(VerdictKind::Equivalent)),
            "Bishop and knight: equivalent within a quarter pawn."
        );
        assert_eq!(
            say(&verdict(VerdictKind::EquivalentStronger)),
            "Bishop and knight: equivalent within a quarter pawn, yet bishop is measurably stronger."
        );
        assert_eq!(
            say(&verdict(VerdictKind::Different)),
            "Bishop stronger than knight by 0.30 pawns (0.18 to 0.42)."
        );
        // Knight the stronger: the figure and interval turn to its side.
        let turned = PairVerdict {
            elo: -64.0,
            elo_interval: (-88.0, -40.0),
            pawns_per_piece: -0.3,
            pawns_per_piece_interval: (-0.42, -0.18),
            ..verdict(VerdictKind::Different)
        };
        assert_eq!(
            say(&turned),
            "Knight stronger than bishop by 0.30 pawns (0.18 to 0.42)."
        );
        // No size in pawns: Elo per piece (the armies exchange 2 each).
        let no_unit = PairVerdict {
            pawns: f64::NAN,
            pawns_per_piece: f64::NAN,
            ..verdict(VerdictKind::Different)
        };
        assert_eq!(
            say(&no_unit),
            "Bishop stronger than knight by 32 Elo (20 to 44); its size in pawns is not yet known."
        );
        assert_eq!(
            say(&verdict(VerdictKind::Inconclusive)),
            "Bishop and knight: not decided after 2000 games."
        );
        assert_eq!(
            pair_text(&exp, &verdict(VerdictKind::Inconclusive), 0.25, false),
            "Bishop and knight: too few games to estimate (2000 games)."
        );
        assert_eq!(
            pair_text(&exp, &verdict(VerdictKind::Equivalent), 0.5, true),
            "Bishop and knight: equivalent within half a pawn."
        );
    }

    #[test]
    fn an_end_inside_the_margin_never_reads_as_the_margin() {
        assert_eq!(pawn_decimals((-0.231, 0.2486), 0.25), 3);
        assert_eq!(pawn_decimals((-0.231, 0.2496), 0.25), 4);
        assert_eq!(pawn_decimals((-0.231, 0.24), 0.25), 2);
        // An end beyond the margin may round to it: it is not inside.
        assert_eq!(pawn_decimals((0.02, 0.2504), 0.25), 2);
    }

    #[test]
    fn only_a_class_is_said_to_hold_or_fail() {
        let pairs = [
            verdict(VerdictKind::Different),
            verdict(VerdictKind::Inconclusive),
        ];
        let class = group_summary("Class 2", &pairs, true);
        assert_eq!(class, "Class 2: fails (1 of 2 pairs is different).");
        let armies = group_summary("Armies", &pairs, false);
        assert_eq!(armies, "Armies: not all equal (1 of 2 pairs is different).");
        let open = [
            verdict(VerdictKind::Equivalent),
            verdict(VerdictKind::Inconclusive),
        ];
        assert_eq!(
            group_summary("Class 2", &open, true),
            "Class 2: not settled (1 of 2 pairs is undecided)."
        );
        let level = [verdict(VerdictKind::Equivalent)];
        assert!(
            group_summary("Class 2", &level, true).ends_with("holds (the one pair is equivalent).")
        );
        assert!(
            group_summary("Armies", &level, false)
                .ends_with("all equal (the one pair is equivalent).")
        );
    }
}
