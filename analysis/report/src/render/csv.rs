//! The report's tables for machines (`tables/*.csv`): raw numbers at full
//! precision, one header row (the row types' field names, through serde),
//! RFC 4180 quoting by the `csv` crate, missing numbers as empty cells.
//! Column names are stable; scripts may depend on them.

use std::path::{Path, PathBuf};

use serde::{Serialize, Serializer};

use super::super::compare::{Comparison, Shift};
use super::super::model::{
    CalibrationSource, Compared, EngineVerdictKind, MatchupStats, PairVerdict, PublishedAgreement,
    Report, ScoreModel, VerdictKind,
};
use super::error::RenderError;
use super::files::remove_stale;
use pocketlab_selfplay::files::replace_whole;

/// Writes every table and returns their paths. The seven balance tables are
/// always written (header only when empty); the training tables only for
/// a training run and the colour tables only for a variant with a colour
/// map; an old copy is removed otherwise.
pub(super) fn write_all(report: &Report, dir: &Path) -> Result<Vec<PathBuf>, RenderError> {
    let training = report.training.is_some();
    let colours = report.colour_values.is_some();
    let adaptive = report.adaptive.is_some();
    let published = !report.published.is_empty();
    let proposal = report
        .training
        .as_ref()
        .is_some_and(|t| t.proposal.is_some());
    let tables: [(&str, Table); 14] = [
        ("looks", adaptive.then(|| table(&looks(report)))),
        ("matchups", Some(table(&matchups(report)))),
        (
            "published",
            published.then(|| table(&published_rows(report))),
        ),
        ("ratings", Some(table(&ratings(report)))),
        ("verdicts", Some(table(&verdicts(report)))),
        ("engines", Some(table(&engines(report)))),
        ("terminations", Some(table(&terminations(report)))),
        ("lengths", Some(table(&lengths(report)))),
        ("pocket_use", Some(table(&report.pocket_use))),
        (
            "colour_values",
            colours.then(|| table(&colour_values(report))),
        ),
        (
            "square_values",
            colours.then(|| table(&square_values(report))),
        ),
        (
            "learned_values",
            training.then(|| table(&learned_values(report))),
        ),
        (
            "training_history",
            training.then(|| table(&training_history(report))),
        ),
        (
            "proposed_classes",
            proposal.then(|| table(&proposed_classes(report))),
        ),
    ];
    write_tables(dir, tables)
}

/// A table's CSV bytes, or `None` when the report has no such table.
pub(super) type Table = Option<Result<Vec<u8>, csv::Error>>;

/// Writes each named table that is present and removes an old copy of each
/// that is not; returns the paths written.
pub(super) fn write_tables(
    dir: &Path,
    tables: impl IntoIterator<Item = (&'static str, Table)>,
) -> Result<Vec<PathBuf>, RenderError> {
    let mut paths = Vec::new();
    for (name, bytes) in tables {
        let path = dir.join(format!("{name}.csv"));
        match bytes {
            Some(bytes) => {
                let bytes = bytes.map_err(|e| RenderError::Table {
                    path: path.clone(),
                    reason: e.to_string(),
                })?;
                replace_whole(&path, &bytes)?;
                paths.push(path);
            }
            None => remove_stale(&path)?,
        }
    }
    Ok(paths)
}

/// Rows as CSV, the header from the row type's field names (also for an
/// empty table: serde names the fields only while serializing a record).
pub(super) fn table<R: Serialize + Default>(rows: &[R]) -> Result<Vec<u8>, csv::Error> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    if rows.is_empty() {
        let mut probe = csv::Writer::from_writer(Vec::new());
        probe.serialize(R::default())?;
        let text = probe.into_inner().map_err(|e| e.into_error())?;
        let header_end = text
            .iter()
            .position(|&b| b == b'\n')
            .map_or(text.len(), |i| i + 1);
        return Ok(text[..header_end].to_vec());
    }
    for row in rows {
        writer.serialize(row)?;
    }
    Ok(writer.into_inner().map_err(|e| e.into_error())?)
}

/// A number for machines: full precision, an empty cell when not finite.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Num(pub f64);

impl Serialize for Num {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0.is_finite() {
            s.serialize_f64(self.0)
        } else {
            s.serialize_none()
        }
    }
}

#[derive(Serialize, Default)]
struct ComparisonRow<'a> {
    group: &'a str,
    a: &'a str,
    b: &'a str,
    first_verdict: Option<VerdictKind>,
    first_elo_per_piece: Num,
    first_elo_per_piece_se: Num,
    first_pawns_per_piece: Num,
    first_pawns_per_piece_se: Num,
    first_games: u64,
    second_verdict: Option<VerdictKind>,
    second_elo_per_piece: Num,
    second_elo_per_piece_se: Num,
    second_pawns_per_piece: Num,
    second_pawns_per_piece_se: Num,
    second_games: u64,
    elo_change: Num,
    elo_change_lo: Num,
    elo_change_hi: Num,
    z: Num,
    pawns_change: Num,
    pawns_change_lo: Num,
    pawns_change_hi: Num,
    level: Num,
    shift: Option<Shift>,
}

/// A comparison of two studies as CSV, a row per shared pair.
pub(super) fn comparison(cmp: &Comparison) -> Result<Vec<u8>, csv::Error> {
    let rows: Vec<ComparisonRow<'_>> = cmp
        .pairs
        .iter()
        .map(|p| ComparisonRow {
            group: &p.group,
            a: &p.a,
            b: &p.b,
            first_verdict: Some(p.first.kind),
            first_elo_per_piece: Num(p.first.elo_per_piece),
            first_elo_per_piece_se: Num(p.first.elo_per_piece_std_error),
            first_pawns_per_piece: Num(p.first.pawns_per_piece),
            first_pawns_per_piece_se: Num(p.first.pawns_per_piece_std_error),
            first_games: p.first.games,
            second_verdict: Some(p.second.kind),
            second_elo_per_piece: Num(p.second.elo_per_piece),
            second_elo_per_piece_se: Num(p.second.elo_per_piece_std_error),
            second_pawns_per_piece: Num(p.second.pawns_per_piece),
            second_pawns_per_piece_se: Num(p.second.pawns_per_piece_std_error),
            second_games: p.second.games,
            elo_change: Num(p.elo_change),
            elo_change_lo: Num(p.elo_change_interval.0),
            elo_change_hi: Num(p.elo_change_interval.1),
            z: Num(p.z),
            pawns_change: Num(p.pawns_change),
            pawns_change_lo: Num(p.pawns_change_interval.0),
            pawns_change_hi: Num(p.pawns_change_interval.1),
            level: Num(cmp.level),
            shift: Some(p.shift),
        })
        .collect();
    table(&rows)
}

#[derive(Serialize, Default)]
struct PieceChangeRow<'a> {
    letter: &'a str,
    name: &'a str,
    first_elo: Num,
    first_elo_se: Num,
    first_pawns: Num,
    first_pawns_se: Num,
    second_elo: Num,
    second_elo_se: Num,
    second_pawns: Num,
    second_pawns_se: Num,
    elo_change: Num,
    elo_change_lo: Num,
    elo_change_hi: Num,
    z: Num,
    pawns_change: Num,
    pawns_change_lo: Num,
    pawns_change_hi: Num,
    level: Num,
    shift: Option<Shift>,
    pawns_level: Num,
    pawns_shift: Option<Shift>,
}

/// `pieces.csv` of a comparison of two value scales: one row per piece.
pub(super) fn piece_changes(cmp: &Comparison) -> Result<Vec<u8>, csv::Error> {
    let rows: Vec<PieceChangeRow<'_>> = cmp
        .pieces
        .iter()
        .map(|p| PieceChangeRow {
            letter: &p.letter,
            name: &p.name,
            first_elo: Num(p.first_elo),
            first_elo_se: Num(p.first_elo_std_error),
            first_pawns: Num(p.first_pawns),
            first_pawns_se: Num(p.first_pawns_std_error),
            second_elo: Num(p.second_elo),
            second_elo_se: Num(p.second_elo_std_error),
            second_pawns: Num(p.second_pawns),
            second_pawns_se: Num(p.second_pawns_std_error),
            elo_change: Num(p.elo_change),
            elo_change_lo: Num(p.elo_change_interval.0),
            elo_change_hi: Num(p.elo_change_interval.1),
            z: Num(p.z),
            pawns_change: Num(p.pawns_change),
            pawns_change_lo: Num(p.pawns_change_interval.0),
            pawns_change_hi: Num(p.pawns_change_interval.1),
            level: Num(cmp.pieces_level),
            shift: Some(p.shift),
            pawns_level: Num(cmp.pieces_pawns_level),
            pawns_shift: Some(p.pawns_shift),
        })
        .collect();
    table(&rows)
}

#[derive(Serialize, Default)]
struct PublishedRow<'a> {
    matchup: &'a str,
    a: &'a str,
    b: &'a str,
    source: &'a str,
    published_pawns: Num,
    lab_pawns: Num,
    lab_pawns_lo: Num,
    lab_pawns_hi: Num,
    games: u64,
    agreement: Option<PublishedAgreement>,
}

fn published_rows(report: &Report) -> Vec<PublishedRow<'_>> {
    report
        .published
        .iter()
        .map(|p| PublishedRow {
            matchup: &p.matchup,
            a: &p.a,
            b: &p.b,
            source: &p.source,
            published_pawns: Num(p.published_pawns),
            lab_pawns: Num(p.lab_pawns),
            lab_pawns_lo: Num(p.lab_interval.0),
            lab_pawns_hi: Num(p.lab_interval.1),
            games: p.games,
            agreement: Some(p.agreement),
        })
        .collect()
}

#[derive(Serialize, Default)]
struct MatchupRow<'a> {
    name: &'a str,
    a: &'a str,
    b: &'a str,
    games: u64,
    a_wins: u64,
    draws: u64,
    b_wins: u64,
    pairs: u64,
    penta_0: u64,
    penta_1: u64,
    penta_2: u64,
    penta_3: u64,
    penta_4: u64,
    model: Option<ScoreModel>,
    score: Num,
    score_lo: Num,
    score_hi: Num,
    elo: Num,
    elo_lo: Num,
    elo_hi: Num,
    elo_se: Num,
    pieces: Option<u32>,
    pawns: Num,
    pawns_lo: Num,
    pawns_hi: Num,
    pawns_per_piece: Num,
    pawns_per_piece_lo: Num,
    pawns_per_piece_hi: Num,
    los: Num,
    white_score: Num,
    sprt_llr: Option<Num>,
    sprt_decision: Option<&'a str>,
    stopped_early: bool,
    calibration: Option<CalibrationSource>,
    /// What the armies differ in (`pieces`, `engines`, …); last, so the
    /// columns before keep their places.
    compared: Option<Compared>,
}

fn matchups(report: &Report) -> Vec<MatchupRow<'_>> {
    report
        .matchups
        .iter()
        .map(|m: &MatchupStats| MatchupRow {
            name: &m.name,
            a: &m.a,
            b: &m.b,
            games: m.games,
            a_wins: m.a_wins,
            draws: m.draws,
            b_wins: m.b_wins,
            pairs: m.pairs,
            penta_0: m.pentanomial[0],
            penta_1: m.pentanomial[1],
            penta_2: m.pentanomial[2],
            penta_3: m.pentanomial[3],
            penta_4: m.pentanomial[4],
            model: Some(m.model),
            score: Num(m.score),
            score_lo: Num(m.score_interval.0),
            score_hi: Num(m.score_interval.1),
            elo: Num(m.elo),
            elo_lo: Num(m.elo_interval.0),
            elo_hi: Num(m.elo_interval.1),
            elo_se: Num(m.elo_std_error),
            pieces: m.pieces,
            pawns: Num(m.pawns),
            pawns_lo: Num(m.pawns_interval.0),
            pawns_hi: Num(m.pawns_interval.1),
            pawns_per_piece: Num(m.pawns_per_piece),
            pawns_per_piece_lo: Num(m.pawns_per_piece_interval.0),
            pawns_per_piece_hi: Num(m.pawns_per_piece_interval.1),
            los: Num(m.los),
            white_score: Num(m.white_score),
            sprt_llr: m.sprt.as_ref().map(|s| Num(s.llr)),
            sprt_decision: m.sprt.as_ref().map(|s| s.decision.as_str()),
            stopped_early: m.stopped_early,
            calibration: Some(report.calibration.source),
            compared: Some(m.compared),
        })
        .collect()
}

#[derive(Serialize, Default)]
struct EngineRow<'a> {
    matchup: &'a str,
    a: &'a str,
    b: &'a str,
    a_engine: &'a str,
    b_engine: &'a str,
    verdict: Option<EngineVerdictKind>,
    elo: Num,
    elo_lo: Num,
    elo_hi: Num,
    los: Num,
    games: u64,
    pairs: u64,
    sprt_elo0: Option<Num>,
    sprt_elo1: Option<Num>,
    sprt_llr: Option<Num>,
    sprt_decision: Option<&'a str>,
    stopped_early: bool,
    text: &'a str,
}

fn engines(report: &Report) -> Vec<EngineRow<'_>> {
    report
        .engines
        .iter()
        .map(|v| EngineRow {
            matchup: &v.matchup,
            a: &v.a,
            b: &v.b,
            a_engine: &v.a_engine,
            b_engine: &v.b_engine,
            verdict: Some(v.kind),
            elo: Num(v.elo),
            elo_lo: Num(v.elo_interval.0),
            elo_hi: Num(v.elo_interval.1),
            los: Num(v.los),
            games: v.games,
            pairs: v.pairs,
            sprt_elo0: v.sprt_elo.map(|e| Num(e.0)),
            sprt_elo1: v.sprt_elo.map(|e| Num(e.1)),
            sprt_llr: v.sprt.as_ref().map(|s| Num(s.llr)),
            sprt_decision: v.sprt.as_ref().map(|s| s.decision.as_str()),
            stopped_early: v.stopped_early,
            text: &v.text,
        })
        .collect()
}

#[derive(Serialize, Default)]
struct RatingRow<'a> {
    group: &'a str,
    class: Option<u8>,
    player: &'a str,
    label: &'a str,
    elo: Num,
    elo_lo: Num,
    elo_hi: Num,
    pawns: Num,
    pawns_lo: Num,
    pawns_hi: Num,
    pieces: Option<u32>,
    pawns_per_piece: Num,
    pawns_per_piece_lo: Num,
    pawns_per_piece_hi: Num,
    games: u64,
}

fn ratings(report: &Report) -> Vec<RatingRow<'_>> {
    report
        .groups
        .iter()
        .flat_map(|g| {
            g.players.iter().map(move |p| RatingRow {
                group: &g.title,
                class: g.class,
                player: &p.name,
                label: &p.label,
                elo: Num(p.elo),
                elo_lo: Num(p.elo_interval.0),
                elo_hi: Num(p.elo_interval.1),
                pawns: Num(p.pawns),
                pawns_lo: Num(p.pawns_interval.0),
                pawns_hi: Num(p.pawns_interval.1),
                pieces: g.pieces,
                pawns_per_piece: Num(p.pawns_per_piece),
                pawns_per_piece_lo: Num(p.pawns_per_piece_interval.0),
                pawns_per_piece_hi: Num(p.pawns_per_piece_interval.1),
                games: p.games,
            })
        })
        .collect()
}

#[derive(Serialize, Default)]
struct VerdictRow<'a> {
    group: &'a str,
    a: &'a str,
    b: &'a str,
    verdict: Option<VerdictKind>,
    text: &'a str,
    elo: Num,
    elo_lo: Num,
    elo_hi: Num,
    elo_level: Num,
    elo_std_error: Num,
    pieces: Option<u32>,
    pawns: Num,
    pawns_lo: Num,
    pawns_hi: Num,
    pawns_per_piece: Num,
    pawns_per_piece_lo: Num,
    pawns_per_piece_hi: Num,
    pawns_level: Num,
    elo_per_pawn: Num,
    elo_per_pawn_std_error: Num,
    margin_pawns_per_piece: Num,
    games: u64,
    pairs: u64,
    tost_p: Num,
    difference_p: Num,
    more_pairs_needed: Option<u64>,
    more_calibration_needed: bool,
    stopped_early: bool,
}

fn verdicts(report: &Report) -> Vec<VerdictRow<'_>> {
    report
        .groups
        .iter()
        .flat_map(|g| {
            g.pairs.iter().map(move |v: &PairVerdict| VerdictRow {
                group: &g.title,
                a: &v.a,
                b: &v.b,
                verdict: Some(v.kind),
                text: &v.text,
                elo: Num(v.elo),
                elo_lo: Num(v.elo_interval.0),
                elo_hi: Num(v.elo_interval.1),
                elo_level: Num(v.elo_level),
                elo_std_error: Num(v.elo_std_error),
                pieces: v.pieces,
                pawns: Num(v.pawns),
                pawns_lo: Num(v.pawns_interval.0),
                pawns_hi: Num(v.pawns_interval.1),
                pawns_per_piece: Num(v.pawns_per_piece),
                pawns_per_piece_lo: Num(v.pawns_per_piece_interval.0),
                pawns_per_piece_hi: Num(v.pawns_per_piece_interval.1),
                pawns_level: Num(v.pawns_level),
                elo_per_pawn: Num(v.unit_elo_per_pawn),
                elo_per_pawn_std_error: Num(v.unit_std_error),
                margin_pawns_per_piece: Num(report.margin_pawns),
                games: v.games,
                pairs: v.pairs,
                tost_p: Num(v.tost_p),
                difference_p: Num(v.difference_p),
                more_pairs_needed: v.more_pairs_needed,
                more_calibration_needed: v.more_calibration_needed,
                stopped_early: v.stopped_early,
            })
        })
        .collect()
}

#[derive(Serialize, Default)]
struct TerminationRow<'a> {
    termination: &'a str,
    games: u64,
    share: Num,
}

fn terminations(report: &Report) -> Vec<TerminationRow<'_>> {
    let total: u64 = report.balance.terminations.iter().map(|(_, n)| *n).sum();
    report
        .balance
        .terminations
        .iter()
        .map(|(name, n)| TerminationRow {
            termination: name,
            games: *n,
            share: Num(*n as f64 / total as f64),
        })
        .collect()
}

#[derive(Serialize, Default)]
struct LengthRow {
    from_ply: u32,
    to_ply: u32,
    games: u64,
}

fn lengths(report: &Report) -> Vec<LengthRow> {
    report
        .balance
        .length
        .histogram
        .iter()
        .map(|&(from_ply, to_ply, games)| LengthRow {
            from_ply,
            to_ply,
            games,
        })
        .collect()
}

#[derive(Serialize, Default)]
struct ColourRow<'a> {
    letter: &'a str,
    name: &'a str,
    betza: &'a str,
    squares: u32,
    occupancy: Num,
    value: Num,
    value_lo: Num,
    value_hi: Num,
}

fn colour_values(report: &Report) -> Vec<ColourRow<'_>> {
    report
        .colour_values
        .iter()
        .flat_map(|v| &v.colours)
        .map(|c| ColourRow {
            letter: &c.letter,
            name: &c.name,
            betza: &c.betza,
            squares: c.squares,
            occupancy: Num(c.occupancy),
            value: Num(c.value),
            value_lo: Num(c.interval.0),
            value_hi: Num(c.interval.1),
        })
        .collect()
}

/// One row per square (`a1`..`h8`): its map letter and the value of a
/// piece standing there from its owner's side.
#[derive(Serialize, Default)]
struct SquareRow {
    square: String,
    colour: String,
    value: Option<Num>,
}

fn square_values(report: &Report) -> Vec<SquareRow> {
    let Some(values) = &report.colour_values else {
        return Vec::new();
    };
    values
        .squares
        .iter()
        .enumerate()
        .map(|(sq, value)| SquareRow {
            square: format!("{}{}", char::from(b'a' + (sq % 8) as u8), sq / 8 + 1),
            colour: values
                .map
                .get(7 - sq / 8)
                .and_then(|row| row.chars().nth(sq % 8))
                .map_or(String::new(), String::from),
            value: value.map(Num),
        })
        .collect()
}

#[derive(Serialize, Default)]
struct LearnedRow<'a> {
    letter: &'a str,
    name: &'a str,
    class: Option<u8>,
    value: Num,
    value_lo: Num,
    value_hi: Num,
    pocket_value: Num,
    pocket_lo: Num,
    pocket_hi: Num,
    learned_relative: Num,
    direct_relative: Option<Num>,
}

fn learned_values(report: &Report) -> Vec<LearnedRow<'_>> {
    report
        .training
        .iter()
        .flat_map(|t| &t.pieces)
        .map(|p| LearnedRow {
            letter: &p.letter,
            name: &p.name,
            class: p.class,
            value: Num(p.value),
            value_lo: Num(p.interval.0),
            value_hi: Num(p.interval.1),
            pocket_value: Num(p.pocket_value),
            pocket_lo: Num(p.pocket_interval.0),
            pocket_hi: Num(p.pocket_interval.1),
            learned_relative: Num(p.learned_relative),
            direct_relative: p.direct_relative.map(Num),
        })
        .collect()
}

/// A proposed class table: one row per piece.
#[derive(Serialize, Default)]
struct ProposedRow<'a> {
    letter: &'a str,
    name: &'a str,
    class: Option<u8>,
    proposed_class: u8,
    /// On the proposal's common scale, pawns.
    value: Num,
}

fn proposed_classes(report: &Report) -> Vec<ProposedRow<'_>> {
    let Some(t) = &report.training else {
        return Vec::new();
    };
    let Some(proposal) = &t.proposal else {
        return Vec::new();
    };
    proposal
        .classes
        .iter()
        .flat_map(|c| c.pieces.iter().map(move |p| (c.class, p)))
        .map(|(proposed_class, (letter, value))| {
            let piece = t.pieces.iter().find(|p| &p.letter == letter);
            ProposedRow {
                letter,
                name: piece.map_or("", |p| p.name.as_str()),
                class: piece.and_then(|p| p.class),
                proposed_class,
                value: Num(*value),
            }
        })
        .collect()
}

/// A sequential study: per matchup, how the design ended it.
#[derive(Serialize, Default)]
struct LookRow<'a> {
    matchup: &'a str,
    pair: &'a str,
    outcome: &'a str,
    look: usize,
    looks_planned: usize,
    pairs: u64,
    games: u64,
    more_pairs_needed: Option<u64>,
}

fn looks(report: &Report) -> Vec<LookRow<'_>> {
    let Some(a) = &report.adaptive else {
        return Vec::new();
    };
    a.matchups
        .iter()
        .chain(&a.calibration)
        .map(|m| LookRow {
            matchup: &m.name,
            pair: &m.label,
            outcome: m.status.as_str(),
            look: m.look,
            looks_planned: a.looks_planned,
            pairs: m.pairs,
            games: m.games,
            more_pairs_needed: m.more_pairs_needed,
        })
        .collect()
}

/// Long format (one row per generation and piece), easy to plot elsewhere.
#[derive(Serialize, Default)]
struct HistoryRow<'a> {
    generation: u32,
    letter: &'a str,
    value: Num,
}

fn training_history(report: &Report) -> Vec<HistoryRow<'_>> {
    report
        .training
        .iter()
        .flat_map(|t| &t.history)
        .flat_map(|(generation, values)| {
            values.iter().map(move |(letter, value)| HistoryRow {
                generation: *generation,
                letter,
                value: Num(*value),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, Default)]
    struct Row<'a> {
        text: &'a str,
        number: Num,
    }

    #[test]
    fn fields_are_quoted_only_when_needed_and_missing_numbers_are_empty() {
        let rows = [
            Row {
                text: "rook",
                number: Num(1.5),
            },
            Row {
                text: "a, b \"c\"",
                number: Num(f64::NAN),
            },
        ];
        let text = String::from_utf8(table(&rows).unwrap()).unwrap();
        assert_eq!(text, "text,number\nrook,1.5\n\"a, b \"\"c\"\"\",\n");
        let empty: [Row<'_>; 0] = [];
        assert_eq!(
            String::from_utf8(table(&empty).unwrap()).unwrap(),
            "text,number\n"
        );
    }
}
