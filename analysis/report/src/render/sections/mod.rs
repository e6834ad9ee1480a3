//! The report's content, section by section, in the order a reader needs
//! it: the question, the verdicts in plain words, then the evidence behind
//! them, and how to reproduce everything last. Each submodule writes one
//! section into the shared [`Doc`].

mod adaptive;
mod balance;
mod calibration;
mod changes;
mod colours;
mod games;
mod intro;
mod matchups;
mod notes;
mod pocket;
mod published;
mod ratings;
mod reproduction;
mod training;
mod value_scale;
mod verdicts;

use super::super::model::{Report, VerdictKind};
use super::doc::{Doc, Tone};

pub(super) const WHAT_WAS_ASKED: &str = "What was asked";
pub(super) const VERDICTS: &str = "Verdicts";
pub(super) const CHANGES: &str = "What to change";
pub(super) const ADAPTIVE: &str = "Sequential design: looks and games";
pub(super) const RATINGS: &str = "Ratings and head-to-head results";
pub(super) const MATCHUPS: &str = "All matchups";
pub(super) const GAMES: &str = "Games to look at";
pub(super) const PUBLISHED: &str = "Sanity checks: published values";
pub(super) const BALANCE: &str = "Game balance";
pub(super) const POCKET_USE: &str = "Pocket use per piece";
pub(super) const COLOURS: &str = "What each square colour is worth";
pub(super) const TRAINING: &str = "What training learned";
pub(super) const CALIBRATION: &str = "Calibration: from Elo to pawns";
pub(super) const NOTES: &str = "Notes and caveats";
pub(super) const REPRODUCTION: &str = "Reproduction";
pub(super) const EVAL_VALUES: &str = "Piece values the engines evaluate with";

/// The whole report as a document.
pub(super) fn build(report: &Report) -> Doc {
    let mut doc = Doc {
        title: intro::title(report),
        blocks: Vec::new(),
    };
    intro::write(&mut doc, report);
    verdicts::write(&mut doc, report);
    changes::write(&mut doc, report);
    adaptive::write(&mut doc, report);
    value_scale::write(&mut doc, report);
    ratings::write(&mut doc, report);
    matchups::write(&mut doc, report);
    games::write(&mut doc, report);
    published::write(&mut doc, report);
    balance::write(&mut doc, report);
    pocket::write(&mut doc, report);
    colours::write(&mut doc, report);
    training::write(&mut doc, report);
    calibration::write(&mut doc, report);
    notes::write(&mut doc, report);
    reproduction::write(&mut doc, report);
    doc
}

/// A verdict's colour and its one-word name.
pub(super) fn verdict_tone(kind: VerdictKind) -> (Tone, &'static str) {
    match kind {
        VerdictKind::Equivalent => (Tone::Good, "equivalent"),
        VerdictKind::Different => (Tone::Bad, "different"),
        VerdictKind::EquivalentStronger => (Tone::Good, "equivalent, one stronger"),
        VerdictKind::Inconclusive => (Tone::Unsure, "inconclusive"),
    }
}

/// Games behind the whole report: the balance figure, or (if the log had
/// no balance data) the matchups' total.
fn total_games(report: &Report) -> u64 {
    if report.balance.games > 0 {
        report.balance.games
    } else {
        report.matchups.iter().map(|m| m.games).sum()
    }
}
