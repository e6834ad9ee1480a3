//! Small facts derived from the model that several outputs need to agree
//! on: file names of the per-group plots, how many games stand behind a
//! group, a player's readable label, the order players are ranked in.

use std::collections::HashSet;

use super::super::model::{RatingGroup, Report};

pub(super) const OVERVIEW: &str = "overview";
pub(super) const LENGTHS: &str = "lengths";
pub(super) const TERMINATIONS: &str = "terminations";
pub(super) const POCKET_USE: &str = "pocket-use";
pub(super) const COLOUR_MAP: &str = "colour-map";
pub(super) const TRAINING_VALUES: &str = "training-values";
pub(super) const TRAINING_CONVERGENCE: &str = "training-convergence";
pub(super) const VALUE_SCALE: &str = "value-scale";

/// ` (1 pawn = 127 Elo)` after an axis in pawns, where the calibration
/// gives the pawn's value; empty otherwise.
pub(super) fn pawn_in_elo(report: &Report, in_pawns: bool) -> String {
    if in_pawns && report.calibration.elo_per_pawn.is_finite() {
        format!(
            " (1 pawn = {} Elo)",
            super::format::fixed(report.calibration.elo_per_pawn, 0)
        )
    } else {
        String::new()
    }
}

/// One file-name key per group, in order: `group-<class>` for a class
/// group, else `group-<position>`; made unique if two groups collide.
pub(super) fn group_keys(report: &Report) -> Vec<String> {
    let mut used = HashSet::new();
    let mut keys = Vec::with_capacity(report.groups.len());
    for (i, group) in report.groups.iter().enumerate() {
        let preferred = match group.class {
            Some(class) => format!("group-{class}"),
            None => format!("group-{}", i + 1),
        };
        let key = if used.contains(&preferred) {
            (2..)
                .map(|k| format!("{preferred}-{k}"))
                .find(|k| !used.contains(k))
                .unwrap_or(preferred)
        } else {
            preferred
        };
        used.insert(key.clone());
        keys.push(key);
    }
    keys
}

pub(super) fn strength_stem(key: &str) -> String {
    format!("{key}-strength")
}

pub(super) fn matrix_stem(key: &str) -> String {
    format!("{key}-matrix")
}

/// Games played between members of the group: from the pair verdicts, or
/// the head-to-head matrix, or (no pairs at all) half the players' games.
pub(super) fn group_games(group: &RatingGroup) -> u64 {
    let from_pairs: u64 = group.pairs.iter().map(|p| p.games).sum();
    if from_pairs > 0 {
        return from_pairs;
    }
    let from_matrix: u64 = group
        .matrix_games
        .iter()
        .enumerate()
        .flat_map(|(i, row)| {
            row.iter()
                .enumerate()
                .filter(move |(j, _)| *j > i)
                .map(|(_, g)| *g)
        })
        .sum();
    if from_matrix > 0 {
        return from_matrix;
    }
    group.players.iter().map(|p| p.games).sum::<u64>() / 2
}

/// The readable label of a player of the group (`N (knight)`), or the bare
/// name if the group does not list it.
pub(super) fn player_label(group: &RatingGroup, name: &str) -> String {
    group
        .players
        .iter()
        .find(|p| p.name == name)
        .map(|p| {
            if p.label.trim().is_empty() {
                p.name.clone()
            } else {
                p.label.clone()
            }
        })
        .unwrap_or_else(|| name.to_owned())
}

/// Label of the `i`-th row of the head-to-head matrix. The matrix is indexed
/// like `players`; if the fit produced no players the rows still need names.
pub(super) fn matrix_label(group: &RatingGroup, i: usize) -> String {
    match group.players.get(i) {
        Some(p) if !p.label.trim().is_empty() => p.label.clone(),
        Some(p) => p.name.clone(),
        None => format!("player {}", i + 1),
    }
}

/// Short name of the `i`-th matrix column (the piece letter).
pub(super) fn matrix_short(group: &RatingGroup, i: usize) -> String {
    match group.players.get(i) {
        Some(p) if !p.name.trim().is_empty() => p.name.clone(),
        _ => format!("#{}", i + 1),
    }
}

/// Indices of `players` strongest first; unrated (NaN) players last.
pub(super) fn ranking(group: &RatingGroup) -> Vec<usize> {
    let mut order: Vec<usize> = (0..group.players.len()).collect();
    let key = |i: usize| {
        let elo = group.players[i].elo;
        if elo.is_finite() {
            elo
        } else {
            f64::NEG_INFINITY
        }
    };
    order.sort_by(|&a, &b| key(b).total_cmp(&key(a)));
    order
}

/// Mean of the finite values (0 if none): the centre ratings are shown
/// relative to.
pub(super) fn finite_mean(values: impl IntoIterator<Item = f64>) -> f64 {
    let (sum, n) = values
        .into_iter()
        .filter(|x| x.is_finite())
        .fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    if n == 0 { 0.0 } else { sum / n as f64 }
}

/// `N (knight)`, or whichever of letter and name exists.
pub(super) fn piece_label(letter: &str, name: &str) -> String {
    match (
        letter.trim().is_empty(),
        name.trim().is_empty() || name == letter,
    ) {
        (false, false) => format!("{letter} ({name})"),
        (false, true) => letter.to_owned(),
        (true, _) => name.to_owned(),
    }
}
