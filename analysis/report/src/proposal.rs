//! A class table proposed from the evidence: every piece on one scale,
//! then pieces moved to a neighbouring class whose mean is nearer.
//!
//! The scale takes each class's level from training (its mean learned
//! value, which crosses classes) and each piece's place within its class
//! from the direct matches where a study rated it (more precise than
//! training within a class), else from training.

use std::collections::BTreeMap;

use crate::model::{
    LearnedPiece, PairVerdict, ProposedClass, ProposedMove, ProposedTable, VerdictKind,
};

/// The proposal for `pieces` (their current classes and values), or `None`
/// when fewer than two classes have pieces; `verdicts` are the compared
/// studies' decisions, for the pairs each proposed class keeps together.
///
/// Rule: the piece that is nearer a neighbouring class's mean than its
/// own by the most moves there, the means are taken again, and so on
/// until no piece is nearer a neighbour. A lone piece is at its class's
/// mean, so no class is ever emptied: the table keeps its classes.
pub fn propose(pieces: &[LearnedPiece], verdicts: &[&PairVerdict]) -> Option<ProposedTable> {
    let scaled: Vec<(&LearnedPiece, f64)> = pieces
        .iter()
        .filter(|p| p.class.is_some() && p.value.is_finite())
        .map(|p| {
            let class_mean = p.value - p.learned_relative;
            let within = p.direct_relative.unwrap_or(p.learned_relative);
            (p, class_mean + within)
        })
        .collect();
    let mut class_of: Vec<u8> = scaled.iter().filter_map(|(p, _)| p.class).collect();
    let classes: Vec<u8> = {
        let mut c = class_of.clone();
        c.sort_unstable();
        c.dedup();
        c
    };
    if classes.len() < 2 {
        return None;
    }
    let means = |class_of: &[u8]| -> BTreeMap<u8, f64> {
        let mut sums: BTreeMap<u8, (f64, usize)> = BTreeMap::new();
        for (c, (_, v)) in class_of.iter().zip(&scaled) {
            let e = sums.entry(*c).or_default();
            e.0 += v;
            e.1 += 1;
        }
        sums.into_iter()
            .map(|(c, (s, n))| (c, s / n as f64))
            .collect()
    };
    let neighbours = |class: u8| {
        let i = classes.binary_search(&class).expect("a present class");
        [i.checked_sub(1), Some(i + 1)]
            .into_iter()
            .flatten()
            .filter_map(|j| classes.get(j).copied())
    };
    // Each move lowers the distance of one piece to its class's mean; the
    // bound only guards against a cycle the means could in principle make.
    for _ in 0..scaled.len() * classes.len() {
        let current = &means(&class_of);
        let best = scaled
            .iter()
            .enumerate()
            .flat_map(|(i, &(_, v))| {
                let own = (v - current[&class_of[i]]).abs();
                neighbours(class_of[i]).map(move |n| (i, n, own - (v - current[&n]).abs()))
            })
            .filter(|&(_, _, gain)| gain > 0.0)
            .max_by(|a, b| a.2.total_cmp(&b.2));
        let Some((i, to, _)) = best else { break };
        class_of[i] = to;
    }

    let final_means = means(&class_of);
    let proposed: Vec<ProposedClass> = classes
        .iter()
        .map(|&class| {
            let mut members: Vec<(String, f64)> = scaled
                .iter()
                .zip(&class_of)
                .filter(|&(_, &c)| c == class)
                .map(|((p, v), _)| (p.letter.clone(), *v))
                .collect();
            members.sort_by(|a, b| a.1.total_cmp(&b.1));
            let spread = members.last().map_or(0.0, |l| l.1) - members.first().map_or(0.0, |f| f.1);
            ProposedClass {
                class,
                mean: final_means[&class],
                spread,
                pieces: members,
            }
        })
        .collect();
    let moves: Vec<ProposedMove> = scaled
        .iter()
        .zip(&class_of)
        .filter(|((p, _), c)| p.class != Some(**c))
        .map(|((p, v), &to)| ProposedMove {
            letter: p.letter.clone(),
            name: p.name.clone(),
            value: *v,
            from: p.class.expect("classed pieces only"),
            to,
        })
        .collect();
    let mut new_pairs = Vec::new();
    for (i, ((a, _), ca)) in scaled.iter().zip(&class_of).enumerate() {
        for ((b, _), cb) in scaled.iter().zip(&class_of).skip(i + 1) {
            if ca == cb && a.class != b.class {
                new_pairs.push((a.letter.clone(), b.letter.clone()));
            }
        }
    }
    Some(ProposedTable {
        measured_pairs: measured_pairs(&proposed, verdicts),
        classes: proposed,
        moves,
        new_pairs,
    })
}

/// The pairs of each proposed class that `verdicts` (from studies) decided,
/// oriented as the class lists them (lower value first).
fn measured_pairs(
    classes: &[ProposedClass],
    verdicts: &[&PairVerdict],
) -> Vec<(String, String, VerdictKind, f64)> {
    let mut out = Vec::new();
    for class in classes {
        for (i, (a, _)) in class.pieces.iter().enumerate() {
            for (b, _) in &class.pieces[i + 1..] {
                let found = verdicts.iter().find_map(|v| {
                    if (&v.a, &v.b) == (a, b) {
                        Some((v.kind, v.pawns_per_piece))
                    } else if (&v.a, &v.b) == (b, a) {
                        Some((v.kind, -v.pawns_per_piece))
                    } else {
                        None
                    }
                });
                if let Some((kind, pawns)) =
                    found.filter(|(kind, _)| *kind != VerdictKind::Inconclusive)
                {
                    out.push((a.clone(), b.clone(), kind, pawns));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A piece with a learned value, its class's learned mean and, where
    /// a study rated it, its rating relative to that mean.
    fn piece(
        letter: &str,
        class: u8,
        value: f64,
        class_mean: f64,
        direct: Option<f64>,
    ) -> LearnedPiece {
        LearnedPiece {
            letter: letter.to_owned(),
            name: letter.to_lowercase(),
            class: Some(class),
            value,
            interval: (f64::NAN, f64::NAN),
            pocket_value: f64::NAN,
            pocket_interval: (f64::NAN, f64::NAN),
            direct_relative: direct,
            learned_relative: value - class_mean,
        }
    }

    fn letters(table: &ProposedTable) -> Vec<String> {
        table
            .classes
            .iter()
            .map(|c| c.pieces.iter().map(|p| p.0.as_str()).collect())
            .collect()
    }

    #[test]
    fn pieces_in_place_stay() {
        let pieces = [
            piece("N", 2, 3.0, 3.1, Some(-0.1)),
            piece("B", 2, 3.2, 3.1, Some(0.1)),
            piece("R", 3, 5.0, 5.0, None),
            piece("Q", 3, 5.0, 5.0, None),
        ];
        let table = propose(&pieces, &[]).unwrap();
        assert!(table.moves.is_empty());
        assert!(table.new_pairs.is_empty());
        assert_eq!(letters(&table), ["NB", "RQ"]);
        assert!((table.classes[0].spread - 0.2).abs() < 1e-12);
    }

    /// Engine version 3's figures for classes 5-7 (reports/pmc-study-v3):
    /// the super cardinal rider moves up first, and then, with class 6's
    /// mean taken again without it, the cardinal rider.
    #[test]
    fn moves_are_made_one_at_a_time_with_the_means_taken_again() {
        let (m5, m6, m7) = (9.4175, 11.1667, 12.565);
        let pieces = [
            piece("H", 5, 8.7, m5, Some(8.64 - m5)),
            piece("Q", 5, 9.9, m5, Some(8.94 - m5)),
            piece("F", 5, 9.6, m5, Some(9.82 - m5)),
            piece("D", 5, 9.5, m5, Some(10.27 - m5)),
            piece("G", 6, 11.0, m6, Some(10.61 - m6)),
            piece("E", 6, 10.5, m6, Some(10.85 - m6)),
            piece("J", 6, 12.0, m6, Some(12.04 - m6)),
            piece("A", 7, 12.4, m7, Some(12.27 - m7)),
            piece("L", 7, 12.7, m7, Some(12.86 - m7)),
        ];
        let table = propose(&pieces, &[]).unwrap();
        assert_eq!(letters(&table), ["HQF", "DGE", "JAL"]);
        let moved: Vec<(&str, u8, u8)> = table
            .moves
            .iter()
            .map(|m| (m.letter.as_str(), m.from, m.to))
            .collect();
        assert_eq!(moved, [("D", 5, 6), ("J", 6, 7)]);
        assert_eq!(
            table.new_pairs,
            [("D", "G"), ("D", "E"), ("J", "A"), ("J", "L")]
                .map(|(a, b)| (a.to_owned(), b.to_owned()))
        );
    }

    #[test]
    fn a_wide_class_stays_when_no_neighbour_is_nearer() {
        // The bishop is 0.5 from its class's mean but 0.6 from the rook's.
        let pieces = [
            piece("N", 2, 2.5, 3.0, None),
            piece("B", 2, 3.5, 3.0, None),
            piece("R", 3, 4.1, 4.1, None),
        ];
        let table = propose(&pieces, &[]).unwrap();
        assert!(table.moves.is_empty());
        assert_eq!(letters(&table), ["NB", "R"]);
        assert!((table.classes[0].spread - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_piece_nearer_a_neighbour_moves_there() {
        let pieces = [
            piece("N", 2, 2.5, 3.0, None),
            piece("B", 2, 3.5, 3.0, None),
            piece("R", 3, 3.9, 3.9, None),
        ];
        let table = propose(&pieces, &[]).unwrap();
        assert_eq!(letters(&table), ["N", "BR"]);
        assert_eq!(table.new_pairs, [("B".to_owned(), "R".to_owned())]);
    }

    fn verdict(a: &str, b: &str, kind: VerdictKind, pawns_per_piece: f64) -> PairVerdict {
        PairVerdict {
            a: a.to_owned(),
            b: b.to_owned(),
            elo: f64::NAN,
            elo_interval: (f64::NAN, f64::NAN),
            elo_level: 0.95,
            elo_std_error: f64::NAN,
            pieces: Some(2),
            pawns: 2.0 * pawns_per_piece,
            pawns_interval: (f64::NAN, f64::NAN),
            pawns_per_piece,
            pawns_per_piece_interval: (f64::NAN, f64::NAN),
            pawns_level: 0.95,
            unit_elo_per_pawn: 100.0,
            unit_std_error: 10.0,
            elo_for_comparison: f64::NAN,
            elo_for_comparison_std_error: f64::NAN,
            games: 100,
            pairs: 50,
            kind,
            text: String::new(),
            tost_p: f64::NAN,
            difference_p: f64::NAN,
            more_pairs_needed: None,
            more_calibration_needed: false,
            stopped_early: false,
            sequential: None,
            look: None,
        }
    }

    #[test]
    fn decided_pairs_within_a_proposed_class_are_listed_in_its_order() {
        let pieces = [
            piece("N", 2, 2.5, 3.0, None),
            piece("B", 2, 3.5, 3.0, None),
            piece("R", 3, 3.9, 3.9, None),
        ];
        let verdicts = [
            // Orientation turned round: B is the lower of the class.
            verdict("R", "B", VerdictKind::Different, 0.4),
            // In different proposed classes: not listed.
            verdict("N", "B", VerdictKind::Different, -1.0),
            verdict("N", "R", VerdictKind::Different, -1.4),
        ];
        let refs: Vec<&PairVerdict> = verdicts.iter().collect();
        let measured = propose(&pieces, &refs).unwrap().measured_pairs;
        assert_eq!(measured.len(), 1);
        let (a, b, kind, pawns) = &measured[0];
        assert_eq!(
            (a.as_str(), b.as_str(), *kind),
            ("B", "R", VerdictKind::Different)
        );
        assert!((pawns + 0.4).abs() < 1e-12);
        // An undecided pair says nothing yet.
        let undecided = verdict("B", "R", VerdictKind::Inconclusive, -0.4);
        let table = propose(&pieces, &[&undecided]).unwrap();
        assert!(table.measured_pairs.is_empty());
    }

    #[test]
    fn one_class_gives_no_proposal() {
        let pieces = [piece("N", 2, 3.0, 3.1, None), piece("B", 2, 3.2, 3.1, None)];
        assert!(propose(&pieces, &[]).is_none());
    }
}
