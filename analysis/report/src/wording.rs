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
    Compared, EngineVerdict, EngineVerdictKind, GameBalance, MatchupStats, PairVerdict,
    PublishedAgreement, PublishedCheck, RatingGroup, ScoreModel, VerdictKind,
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

/// `0.27 pawns per piece (0.02 to 0.69, 95%)`, or for armies compared
/// whole `0.27 pawns (…)`; `None` where no size in pawns is given. `sign`
/// turns the figure to the other side's view.
fn pawn_size(v: &PairVerdict, sign: f64, margin: f64) -> Option<String> {
    if !v.pawns_per_piece.is_finite() {
        return None;
    }
    let (lo, hi) = v.pawns_per_piece_interval;
    let (lo, hi) = if sign < 0.0 { (-hi, -lo) } else { (lo, hi) };
    let per = if v.pieces.is_some() { " per piece" } else { "" };
    let d = pawn_decimals((lo, hi), margin);
    Some(format!(
        "{:.d$} pawns{per} ({lo:.d$} to {hi:.d$}, {})",
        sign * v.pawns_per_piece,
        level_percent(v.pawns_level)
    ))
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

/// `45 Elo (12 to 80, 95%)` for the armies, turned by `sign`.
fn elo_size(v: &PairVerdict, sign: f64) -> String {
    let (lo, hi) = v.elo_interval;
    let (lo, hi) = if sign < 0.0 { (-hi, -lo) } else { (lo, hi) };
    format!(
        "{:.0} Elo ({lo:.0} to {hi:.0}, {})",
        sign * v.elo,
        level_percent(v.elo_level)
    )
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

/// What resolves a size the pawn unit cannot yet give.
const SIZE_UNKNOWN: &str =
    "its size in pawns is not yet known (more pawn-odds pairs would measure the pawn well enough)";

/// One verdict in plain words: the verdict, then the interval that is the
/// verdict, at its level.
pub(super) fn pair_text(
    exp: &Experiment,
    v: &PairVerdict,
    margin_pawns: f64,
    estimable: bool,
) -> String {
    let (la, lb) = (player_label(exp, &v.a), player_label(exp, &v.b));
    let per = if v.pieces.is_some() { " per piece" } else { "" };
    let (strong, weak, sign) = if v.elo > 0.0 {
        (&la, &lb, 1.0)
    } else {
        (&lb, &la, -1.0)
    };
    let mut text = if !estimable {
        format!("{la} vs {lb}: too few games to estimate")
    } else {
        match v.kind {
            VerdictKind::Equivalent => format!(
                "{la} and {lb}: equivalent within ±{margin_pawns:.2} pawns{per}: {}",
                signed(&pawn_size(v, 1.0, margin_pawns).unwrap_or_default())
            ),
            VerdictKind::EquivalentStronger => format!(
                "{la} and {lb}: equivalent within ±{margin_pawns:.2} pawns{per}: {}; yet {strong} is measurably \
                 stronger, by {}",
                signed(&pawn_size(v, 1.0, margin_pawns).unwrap_or_default()),
                elo_size(v, sign)
            ),
            VerdictKind::Different => match pawn_size(v, sign, margin_pawns) {
                Some(size) => format!("{strong} is stronger than {weak} by {size}"),
                None => format!(
                    "{strong} is stronger than {weak} by {}; {SIZE_UNKNOWN}",
                    elo_size(v, sign)
                ),
            },
            VerdictKind::Inconclusive => {
                let so_far = pawn_size(v, 1.0, margin_pawns)
                    .map_or_else(|| signed(&elo_size(v, 1.0)), |s| signed(&s));
                if v.sequential.is_some() {
                    format!("{la} vs {lb}: undecided ({so_far} so far)")
                } else {
                    match v.more_pairs_needed {
                        Some(n) => format!(
                            "{la} vs {lb}: not enough games ({so_far} so far): about {n} more pairs needed"
                        ),
                        None => format!(
                            "{la} vs {lb}: undecided ({so_far} so far): the pawn calibration is too uncertain \
                             for more pairs of this matchup to settle it; play more pawn-odds pairs"
                        ),
                    }
                }
            }
        }
    };
    if v.stopped_early {
        text.push_str(
            " (stopped early by the SPRT: interval and verdict are conditional on stopping)",
        );
    }
    if let Some(how) = &v.sequential {
        text.push_str(&format!(" ({how})"));
    }
    text
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

/// A leading `+` on a figure that has no sign yet.
fn signed(figure: &str) -> String {
    if figure.starts_with('-') || figure.starts_with('+') {
        figure.to_owned()
    } else {
        format!("+{figure}")
    }
}

/// One sentence for a whole group; `is_class` when its players are the
/// pieces of one value class (else they are armies, and no class is
/// claimed to hold or fail).
pub(super) fn group_summary(
    title: &str,
    pairs: &[PairVerdict],
    margin_pawns: f64,
    is_class: bool,
) -> String {
    let count = |k: VerdictKind| pairs.iter().filter(|p| p.kind == k).count();
    let (eq, diff, inc) = (
        pairs.iter().filter(|p| p.kind.is_equivalent()).count(),
        count(VerdictKind::Different),
        count(VerdictKind::Inconclusive),
    );
    let per = if pairs.iter().all(|p| p.pieces.is_some()) {
        " per piece"
    } else {
        ""
    };
    if pairs.is_empty() {
        return format!("{title}: no pair measured yet.");
    }
    if diff == 0 && inc == 0 {
        let all = if eq == 1 {
            "the one pair is".to_owned()
        } else {
            format!("all {eq} pairs are")
        };
        let holds = if is_class {
            "the class holds"
        } else {
            "no army is stronger"
        };
        return format!("{title}: {all} equivalent within ±{margin_pawns:.2} pawns{per}: {holds}.");
    }
    let mut parts = Vec::new();
    if eq > 0 {
        parts.push(format!("{eq} equivalent"));
    }
    if diff > 0 {
        let which: Vec<&str> = pairs
            .iter()
            .filter(|p| p.kind == VerdictKind::Different)
            .map(|p| p.text.as_str())
            .collect();
        parts.push(format!("{diff} different ({})", which.join("; ")));
    }
    if inc > 0 {
        parts.push(format!("{inc} undecided"));
    }
    let verdict = if diff > 0 && is_class {
        "the class does not hold"
    } else if diff > 0 {
        "the armies are not all equal"
    } else {
        "no verdict yet"
    };
    let of = match pairs.len() {
        1 => "the one pair".to_owned(),
        n => format!("{n} pairs"),
    };
    format!("{title}: of {of}, {}: {verdict}.", parts.join(", "))
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

/// The headlines: the pawn unit when it failed, each group, each engine
/// comparison, the game's balance, and the colours when a colour map was
/// valued.
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
    out.extend(groups.iter().map(|g| g.summary.clone()));
    out.extend(engines.iter().map(|e| format!("Engines: {}.", e.text)));
    if groups.is_empty() && engines.is_empty() {
        out.push("No group of armies to rate: see the matchups below.".into());
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

    use super::super::model::SprtOutcome;
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
    fn a_group_sentence_counts_its_pairs_in_words_that_agree_in_number() {
        let one = group_summary("Class 4", &[different("C", "U")], 0.25, true);
        assert_eq!(
            one,
            "Class 4: of the one pair, 1 different (C is stronger than U): the class does not hold."
        );
        let two = group_summary(
            "Class 7",
            &[different("L", "A"), different("L", "M")],
            0.25,
            true,
        );
        assert!(two.starts_with("Class 7: of 2 pairs, 2 different"), "{two}");
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
            a: "B".into(),
            b: "N".into(),
            elo: 64.0,
            elo_interval: (40.0, 88.0),
            elo_level: 0.95,
            elo_std_error: 12.0,
            pieces: Some(2),
            pawns: 0.6,
            pawns_interval: (0.36, 0.84),
            pawns_per_piece: 0.3,
            pawns_per_piece_interval: (0.18, 0.42),
            pawns_level: 0.95,
            unit_elo_per_pawn: 107.0,
            unit_std_error: 10.0,
            elo_for_comparison: 64.0,
            elo_for_comparison_std_error: 12.0,
            games: 2000,
            pairs: 1000,
            kind,
            text: String::new(),
            tost_p: 0.5,
            difference_p: 0.001,
            more_pairs_needed: None,
            more_calibration_needed: false,
            stopped_early: false,
            sequential: None,
        }
    }

    #[test]
    fn verdicts_say_per_piece_and_sequential_stops() {
        let text = "name = \"t\"\nvariant = \"pocket-mutation\"\nseed = 1\n\
                    [[generators]]\nkind = \"class-equivalence\"\nclass = 2\n";
        let exp = Experiment::parse("t.toml", text, Path::new(".")).unwrap();
        let different = verdict(VerdictKind::Different);
        assert_eq!(
            pair_text(&exp, &different, 0.25, true),
            "B (bishop) is stronger than N (knight) by 0.30 pawns per piece (0.18 to 0.42, 95%)"
        );
        let stopped = PairVerdict {
            stopped_early: true,
            pawns_per_piece: 0.02,
            pawns_per_piece_interval: (-0.21, 0.24),
            pawns_level: 0.9,
            ..verdict(VerdictKind::Equivalent)
        };
        let said = pair_text(&exp, &stopped, 0.25, true);
        assert!(
            said.starts_with(
                "B (bishop) and N (knight): equivalent within ±0.25 pawns per piece: +0.02 pawns per \
                 piece (-0.21 to 0.24, 90%)"
            ),
            "{said}"
        );
        let both = PairVerdict {
            elo_level: 0.975,
            ..stopped.clone()
        };
        let said = pair_text(
            &exp,
            &PairVerdict {
                kind: VerdictKind::EquivalentStronger,
                stopped_early: false,
                ..both
            },
            0.25,
            true,
        );
        assert!(
            said.ends_with("yet B (bishop) is measurably stronger, by 64 Elo (40 to 88, 97.5%)"),
            "{said}"
        );
        let said = pair_text(&exp, &stopped, 0.25, true);
        assert!(said.ends_with("conditional on stopping)"), "{said}");
        let calibration = PairVerdict {
            more_calibration_needed: true,
            ..verdict(VerdictKind::Inconclusive)
        };
        assert!(pair_text(&exp, &calibration, 0.25, true).contains("play more pawn-odds pairs"));
        let no_unit = PairVerdict {
            pawns: f64::NAN,
            pawns_per_piece: f64::NAN,
            ..different
        };
        let said = pair_text(&exp, &no_unit, 0.25, true);
        assert!(
            said.contains("by 64 Elo (40 to 88, 95%); its size in pawns is not yet known"),
            "{said}"
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
        let class = group_summary("Class 2", &pairs, 0.25, true);
        assert!(
            class.ends_with("1 undecided: the class does not hold."),
            "{class}"
        );
        let armies = group_summary("Armies", &pairs, 0.25, false);
        assert!(
            armies.ends_with("1 undecided: the armies are not all equal."),
            "{armies}"
        );
        assert!(!armies.contains("class"), "{armies}");
        let level = [verdict(VerdictKind::Equivalent)];
        assert!(group_summary("Class 2", &level, 0.25, true).ends_with("the class holds."));
        assert!(group_summary("Armies", &level, 0.25, false).ends_with("no army is stronger."));
    }
}
