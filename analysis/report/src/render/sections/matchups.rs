//! Every matchup as played, from army A's point of view: the raw evidence
//! behind the ratings and verdicts.

use super::super::super::model::{Compared, MatchupStats, Report, ScoreModel};
use super::super::doc::{Align, Doc, Table};
use super::super::format::{count, estimate, percent, percent_estimate, signed};
use super::MATCHUPS;

pub(super) fn write(doc: &mut Doc, report: &Report) {
    doc.heading(2, MATCHUPS);
    if report.matchups.is_empty() {
        doc.paragraph("No matchups were played.");
        return;
    }
    doc.aside(
        "Results from army A's point of view; a draw counts as half a point. LOS: the likelihood that A is the \
         stronger. Model: pentanomial when games come in colour-swapped pairs (the more precise estimate), \
         trinomial otherwise. SPRT: the sequential test's decision and log-likelihood ratio, when one ran.",
    );
    let mut table = Table::new(&[
        ("Matchup (A vs B)", Align::Left),
        ("Games", Align::Right),
        ("A wins / draws / B wins", Align::Right),
        ("Score of A (95% CI)", Align::Right),
        ("Elo A − B (95% CI)", Align::Right),
        ("Pawns A − B (95% CI)", Align::Right),
        ("Per piece (pieces)", Align::Right),
        ("LOS", Align::Right),
        ("Model", Align::Left),
        ("SPRT", Align::Left),
    ]);
    for m in &report.matchups {
        table.push(row(m));
    }
    doc.table(table);
}

fn row(m: &MatchupStats) -> Vec<String> {
    let model = match m.model {
        ScoreModel::Pentanomial => format!("pentanomial ({} pairs)", count(m.pairs)),
        ScoreModel::Trinomial => "trinomial".to_owned(),
    };
    let sprt = match &m.sprt {
        Some(s) => {
            let decision = match s.decision.as_str() {
                "H0" => "H0 accepted",
                "H1" => "H1 accepted",
                "continue" => "undecided",
                other => other,
            };
            let stopped = if m.stopped_early {
                ", stopped: intervals conditional on stopping"
            } else {
                ""
            };
            format!("{decision} (LLR {}{stopped})", signed(s.llr, 2))
        }
        None => "none".to_owned(),
    };
    let pairing = format!("{} vs {}", m.a, m.b);
    // The name only when it says more than the pairing (`pawn-odds`).
    let plain =
        m.name.trim().is_empty() || m.name == format!("{}-vs-{}", m.a, m.b) || m.name == pairing;
    vec![
        if plain {
            pairing
        } else {
            format!("{} ({pairing})", m.name)
        },
        count(m.games),
        format!(
            "{} / {} / {}",
            count(m.a_wins),
            count(m.draws),
            count(m.b_wins)
        ),
        percent_estimate(m.score, m.score_interval),
        estimate(m.elo, m.elo_interval, 0),
        // Strength between engines is not a number of pawns.
        if m.compared == Compared::Engines {
            "n/a (engines)".to_owned()
        } else {
            estimate(m.pawns, m.pawns_interval, 2)
        },
        match m.pieces {
            Some(n) => format!(
                "{} ({n})",
                estimate(m.pawns_per_piece, m.pawns_per_piece_interval, 2)
            ),
            None => "n/a".to_owned(),
        },
        percent(m.los, 1),
        model,
        sprt,
    ]
}
