//! What training tells the designer: learned values by class, a suggested
//! class table, misplaced pieces, and comparisons with direct matches and
//! published values.

use std::collections::BTreeMap;

use pocketlab_core::Variant;

use super::generations::TrainingOutcome;
use pocketlab_report::model::{
    LearnedPiece, PublishedValue, Report, TrainingSummary, ValidationMatch,
};
use pocketlab_report::published_values::{ALPHAZERO_2020, KAUFMAN_1999, published_value};
use pocketlab_stats::{ConfidenceLevel, Pentanomial};

/// Difference (pawns) between learned and direct relative values worth a remark.
const DISAGREEMENT_PAWNS: f64 = 0.25;

/// The report's training section: the learned values of the last
/// generation beside the direct matches, with what they suggest.
pub fn summarize(
    outcome: &TrainingOutcome,
    variant: &Variant,
    direct: &[Report],
    validation: Option<&Report>,
) -> TrainingSummary {
    let mut pieces = learned_pieces(outcome, variant);
    let class_means = set_relative_values(&mut pieces, direct);
    let findings = findings(&pieces, &class_means);
    // The orthodox pieces both sources value, by their moves.
    let published = variant
        .piece_types()
        .filter_map(|kind| {
            let betza = &variant.piece(kind).betza;
            let letter = variant.letter(kind).to_string();
            let learned = pieces.iter().find(|p| p.letter == letter)?.value;
            Some(PublishedValue {
                letter,
                learned,
                kaufman_1999: published_value(KAUFMAN_1999, betza)?,
                alphazero_2020: published_value(ALPHAZERO_2020, betza)?,
            })
        })
        .collect();

    let direct_verdicts: Vec<_> = direct
        .iter()
        .flat_map(|r| &r.groups)
        .flat_map(|g| &g.pairs)
        .collect();
    TrainingSummary {
        generations: outcome.fits.len(),
        converged: outcome.converged,
        history: outcome
            .fits
            .iter()
            .map(|f| {
                (
                    f.generation,
                    f.board
                        .iter()
                        .map(|(l, v)| (l.clone(), v.value / 100.0))
                        .collect(),
                )
            })
            .collect(),
        suggested_classes: suggest_classes(&pieces),
        proposal: pocketlab_report::proposal::propose(&pieces, &direct_verdicts),
        findings,
        published,
        validation: validation.and_then(validation_match),
        pieces,
        final_params: outcome.final_params.display().to_string(),
    }
}

/// The last generation's values, one per piece, by class then value.
fn learned_pieces(outcome: &TrainingOutcome, variant: &Variant) -> Vec<LearnedPiece> {
    let last = outcome.fits.last();
    let mut pieces: Vec<LearnedPiece> = Vec::new();
    if let Some(fit) = last {
        for (letter, v) in &fit.board {
            let Some(kind) = letter
                .chars()
                .next()
                .and_then(|c| variant.piece_by_letter(c))
            else {
                continue;
            };
            let pocket = fit.pocket.get(letter);
            pieces.push(LearnedPiece {
                letter: letter.clone(),
                name: variant.piece(kind).name.clone(),
                class: variant.piece(kind).class,
                value: v.value / 100.0,
                interval: (v.low / 100.0, v.high / 100.0),
                pocket_value: pocket.map_or(f64::NAN, |p| p.value / 100.0),
                pocket_interval: pocket
                    .map_or((f64::NAN, f64::NAN), |p| (p.low / 100.0, p.high / 100.0)),
                direct_relative: None,
                learned_relative: 0.0,
            });
        }
    }
    pieces.sort_by(|a, b| a.class.cmp(&b.class).then(a.value.total_cmp(&b.value)));
    pieces
}

/// Sets each piece's value relative to its class mean, learned and from
/// the direct matches (as their ratings are); returns the class means.
fn set_relative_values(pieces: &mut [LearnedPiece], direct: &[Report]) -> BTreeMap<u8, f64> {
    // Relative to the class mean, as the direct-match ratings are.
    let mut class_means: BTreeMap<u8, f64> = BTreeMap::new();
    for class in pieces
        .iter()
        .filter_map(|p| p.class)
        .collect::<std::collections::BTreeSet<_>>()
    {
        let members: Vec<f64> = pieces
            .iter()
            .filter(|p| p.class == Some(class))
            .map(|p| p.value)
            .collect();
        class_means.insert(class, members.iter().sum::<f64>() / members.len() as f64);
    }
    let direct_ratings: BTreeMap<String, f64> = direct
        .iter()
        .flat_map(|r| {
            r.groups
                .iter()
                .filter(|g| g.class.is_some())
                // Per piece, as learned values are (a class matchup exchanges two pieces
                // on the knights' or rooks' squares).
                .flat_map(|g| {
                    g.players.iter().map(|p| {
                        let per_piece = if p.pawns_per_piece.is_finite() {
                            p.pawns_per_piece
                        } else {
                            p.pawns
                        };
                        (p.name.clone(), per_piece)
                    })
                })
        })
        .collect();
    for p in pieces.iter_mut() {
        p.learned_relative = p
            .class
            .and_then(|c| class_means.get(&c))
            .map_or(0.0, |m| p.value - m);
        p.direct_relative = direct_ratings.get(&p.letter).copied();
    }
    class_means
}

/// What the learned values say, in sentences: pieces not measured, pieces
/// nearer another class, disagreements with direct matches, and the
/// orthodox ordering as a sanity check.
fn findings(pieces: &[LearnedPiece], class_means: &BTreeMap<u8, f64>) -> Vec<String> {
    let mut findings = Vec::new();
    let unmeasured: Vec<String> = pieces
        .iter()
        .filter(|p| !p.interval.0.is_finite())
        .map(|p| format!("{} ({})", p.letter, p.name))
        .collect();
    if !unmeasured.is_empty() {
        findings.push(format!(
            "Too little evidence on {} to measure them (too few positions where they are imbalanced, so the prior outweighs the games): their values stay close to the starting ones and get no interval. Play more generations or more random armies.",
            unmeasured.join(", ")
        ));
    }
    for p in pieces.iter().filter(|p| p.interval.0.is_finite()) {
        let Some(class) = p.class else { continue };
        let own = class_means[&class];
        let nearest = class_means
            .iter()
            .min_by(|a, b| (a.1 - p.value).abs().total_cmp(&(b.1 - p.value).abs()))
            .map(|(&c, &m)| (c, m));
        if let Some((c, m)) = nearest {
            let outside_own = p.interval.0 > own || p.interval.1 < own;
            if c != class && outside_own {
                findings.push(format!(
                    "{} ({}) learned {:.2} pawns: closer to class {c} (mean {m:.2}) than to its own class {class} (mean {own:.2}).",
                    p.letter, p.name, p.value
                ));
            }
        }
        if let Some(d) = p
            .direct_relative
            .filter(|d| (d - p.learned_relative).abs() > DISAGREEMENT_PAWNS)
        {
            findings.push(format!(
                "{} ({}): training puts it {:+.2} pawns from its class mean, direct matches {:+.2}: the two disagree.",
                p.letter, p.name, p.learned_relative, d
            ));
        }
    }
    let orthodox: Vec<(char, f64)> = ['P', 'N', 'B', 'R', 'Q']
        .iter()
        .filter_map(|&c| {
            pieces
                .iter()
                .find(|p| p.letter == c.to_string())
                .map(|p| (c, p.value))
        })
        .collect();
    if orthodox.len() == 5 {
        let v = |c: char| orthodox.iter().find(|x| x.0 == c).map_or(f64::NAN, |x| x.1);
        let ordered = v('P') < v('N').min(v('B')) && v('N').max(v('B')) < v('R') && v('R') < v('Q');
        findings.push(if ordered {
            "Sanity: the orthodox ordering pawn < knight, bishop < rook < queen holds.".to_owned()
        } else {
            "Sanity check failed: the learned orthodox values do not follow pawn < knight, bishop < rook < queen; more games are needed.".to_owned()
        });
    }
    findings
}

/// Pieces sorted by value, grouped while every member's interval shares a
/// point with the others' (so a group's values cannot be told apart).
fn suggest_classes(pieces: &[LearnedPiece]) -> Vec<Vec<String>> {
    let mut sorted: Vec<&LearnedPiece> =
        pieces.iter().filter(|p| p.interval.0.is_finite()).collect();
    sorted.sort_by(|a, b| a.value.total_cmp(&b.value));
    let mut groups: Vec<Vec<String>> = Vec::new();
    let mut shared_high = f64::NEG_INFINITY;
    for p in sorted {
        match groups.last_mut() {
            Some(group) if p.interval.0 <= shared_high => {
                group.push(p.letter.clone());
                shared_high = shared_high.min(p.interval.1);
            }
            _ => {
                groups.push(vec![p.letter.clone()]);
                shared_high = p.interval.1;
            }
        }
    }
    groups
}

/// The validation match's result over all its matchups (each is trained
/// values as A against starting values as B, same army), pooled as
/// colour-swapped pairs, with the variant's own army and the random armies
/// also given apart.
fn validation_match(report: &Report) -> Option<ValidationMatch> {
    let pooled = |own: Option<bool>| -> Option<(u64, f64, (f64, f64))> {
        let mut counts = [0u64; 5];
        for m in report
            .matchups
            .iter()
            .filter(|m| own.is_none_or(|own| (m.a == "trained") == own))
        {
            for (c, n) in counts.iter_mut().zip(m.pentanomial) {
                *c += n;
            }
        }
        let summary = Pentanomial::new(counts)
            .summary(ConfidenceLevel::NINETY_FIVE)
            .ok()?;
        Some((
            summary.games,
            summary.elo,
            (summary.elo_interval.lower, summary.elo_interval.upper),
        ))
    };
    let (games, elo, interval) = pooled(None)?;
    let part = |own: bool, label: &str| {
        pooled(Some(own)).map_or(String::new(), |(g, e, (lo, hi))| {
            format!("; {label}: {e:+.0} ({lo:+.0} to {hi:+.0}) over {g} games")
        })
    };
    let text = format!(
        "Trained values against the starting values over {games} games: {elo:+.0} Elo ({:+.0} to {:+.0}); {}{}{}.",
        interval.0,
        interval.1,
        if interval.0 > 0.0 {
            "training made the engine clearly stronger"
        } else if interval.1 < 0.0 {
            "training made the engine weaker"
        } else {
            "no clear difference yet"
        },
        part(true, "the variant's own army"),
        part(false, "random armies"),
    );
    Some(ValidationMatch {
        games,
        elo,
        elo_interval: interval,
        text,
    })
}
