//! Rendering a balance report: a hand-built but realistic `Report` (two
//! classes of Pocket Mutation Chess) goes through `write_report`, and the
//! files a designer would open are checked for content, not just presence.
//!
//! The example report is rendered once and shared by the tests that only
//! read it (drawing PNGs is slow in unoptimised builds). It goes to
//! `$CARGO_TARGET_TMPDIR/render-example`, or to `$POCKETLAB_KEEP_REPORT`
//! when set (for looking at it, e.g. with `scripts/screenshot.sh`).

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use pocketlab_report::model::{
    AdaptiveMatchup, AdaptiveStatus, AdaptiveSummary, Calibration, CalibrationSource, Compared,
    EvalPieceValue, EvalPieceValues, ExperimentInfo, GameBalance, LearnedPiece, LengthStats,
    MatchupStats, PairVerdict, PieceUse, PlayerRating, PublishedAgreement, PublishedCheck,
    PublishedValue, RatingGroup, Report, ScoreModel, SearchDepth, SprtOutcome, TrainingSummary,
    ValidationMatch, VerdictKind,
};
use pocketlab_report::proposal::propose;
use pocketlab_report::render::{RenderedReport, write_report};

const ELO_PER_PAWN: f64 = 120.0;
/// Every class matchup of the example exchanges the two pieces on the
/// knights' or rooks' squares.
const PIECES: f64 = 2.0;

/// Every section of a training report, in order; the training section and
/// the published values are the optional ones.
const SECTIONS: [&str; 12] = [
    "What was asked",
    "Verdicts",
    CHANGES,
    "Ratings and head-to-head results",
    "All matchups",
    PUBLISHED,
    "Game balance",
    "Pocket use per piece",
    TRAINING,
    "Calibration: from Elo to pawns",
    "Notes and caveats",
    "Reproduction",
];

const TRAINING: &str = "What training learned";
const CHANGES: &str = "What to change";
const PUBLISHED: &str = "Sanity checks: published values";

const PLOTS: [&str; 10] = [
    "group-2-strength",
    "group-2-matrix",
    "group-3-strength",
    "group-3-matrix",
    "overview",
    "lengths",
    "terminations",
    "pocket-use",
    "training-values",
    "training-convergence",
];

// ---------------------------------------------------------------- builders

fn player(name: &str, label: &str, elo: f64, half_width: f64, games: u64) -> PlayerRating {
    PlayerRating {
        name: name.into(),
        label: label.into(),
        elo,
        elo_interval: (elo - half_width, elo + half_width),
        pawns: elo / ELO_PER_PAWN,
        pawns_interval: (
            (elo - half_width) / ELO_PER_PAWN,
            (elo + half_width) / ELO_PER_PAWN,
        ),
        pawns_per_piece: elo / ELO_PER_PAWN / PIECES,
        pawns_per_piece_interval: (
            (elo - half_width) / ELO_PER_PAWN / PIECES,
            (elo + half_width) / ELO_PER_PAWN / PIECES,
        ),
        games,
    }
}

#[allow(clippy::too_many_arguments)]
fn verdict(
    a: &str,
    b: &str,
    elo: f64,
    half: f64,
    games: u64,
    kind: VerdictKind,
    text: &str,
) -> PairVerdict {
    PairVerdict {
        a: a.into(),
        b: b.into(),
        elo,
        elo_interval: (elo - half, elo + half),
        elo_level: 0.95,
        elo_std_error: half / 1.96,
        pieces: Some(2),
        pawns: elo / ELO_PER_PAWN,
        pawns_interval: ((elo - half) / ELO_PER_PAWN, (elo + half) / ELO_PER_PAWN),
        pawns_per_piece: elo / ELO_PER_PAWN / PIECES,
        pawns_per_piece_interval: (
            (elo - half) / ELO_PER_PAWN / PIECES,
            (elo + half) / ELO_PER_PAWN / PIECES,
        ),
        pawns_level: 0.95,
        unit_elo_per_pawn: ELO_PER_PAWN,
        unit_std_error: 10.0,
        elo_for_comparison: elo,
        elo_for_comparison_std_error: half / 1.96,
        games,
        pairs: games / 2,
        kind,
        text: text.into(),
        sequential: None,
        look: None,
        tost_p: if kind == VerdictKind::Equivalent {
            0.01
        } else {
            0.4
        },
        difference_p: if kind == VerdictKind::Different {
            0.001
        } else {
            0.5
        },
        more_pairs_needed: (kind == VerdictKind::Inconclusive).then_some(400),
        more_calibration_needed: false,
        stopped_early: false,
    }
}

fn eval_values(eval: &str, armies: &[&str], pieces: &[(&str, &str, u8, i32)]) -> EvalPieceValues {
    EvalPieceValues {
        eval: eval.into(),
        armies: armies.iter().map(|a| (*a).into()).collect(),
        pieces: pieces
            .iter()
            .map(|&(letter, name, class, centipawns)| EvalPieceValue {
                letter: letter.into(),
                name: name.into(),
                class: Some(class),
                centipawns,
            })
            .collect(),
    }
}

fn published(
    a: &str,
    b: &str,
    source: &str,
    pawns: f64,
    agreement: PublishedAgreement,
) -> PublishedCheck {
    let m = matchup(a, b, 500, 500, 500, None);
    PublishedCheck {
        matchup: format!("{a}-vs-{b}"),
        a: a.into(),
        b: b.into(),
        source: source.into(),
        published_pawns: pawns,
        lab_pawns: m.pawns,
        lab_interval: m.pawns_interval,
        games: m.games,
        agreement,
    }
}

fn matchup(
    a: &str,
    b: &str,
    wins: u64,
    draws: u64,
    losses: u64,
    sprt: Option<(&str, f64)>,
) -> MatchupStats {
    let games = wins + draws + losses;
    let score = (wins as f64 + 0.5 * draws as f64) / games as f64;
    let elo = -400.0 * (1.0 / score - 1.0).log10();
    MatchupStats {
        name: format!("{a}-vs-{b}"),
        a: a.into(),
        b: b.into(),
        compared: Compared::Pieces,
        games,
        a_wins: wins,
        draws,
        b_wins: losses,
        pairs: games / 2,
        pentanomial: [games / 20, games / 8, games / 4, games / 8, games / 20],
        model: ScoreModel::Pentanomial,
        score,
        score_interval: (score - 0.02, score + 0.02),
        score_std_error: 0.01,
        elo,
        elo_interval: (elo - 14.0, elo + 14.0),
        elo_std_error: 7.0,
        pieces: (a.len() == 1).then_some(2),
        pawns: elo / ELO_PER_PAWN,
        pawns_interval: ((elo - 14.0) / ELO_PER_PAWN, (elo + 14.0) / ELO_PER_PAWN),
        pawns_per_piece: elo / ELO_PER_PAWN / PIECES,
        pawns_per_piece_interval: (
            (elo - 14.0) / ELO_PER_PAWN / PIECES,
            (elo + 14.0) / ELO_PER_PAWN / PIECES,
        ),
        los: 0.5 + score.clamp(0.0, 1.0) - 0.5,
        white_score: 0.54,
        stopped_early: sprt.is_some_and(|(decision, _)| decision != "continue"),
        sprt: sprt.map(|(decision, llr)| SprtOutcome {
            llr,
            decision: decision.into(),
        }),
    }
}

/// A realistic report: class 2 (bishop, knight: equivalent) and class 3
/// (rook, nightrider, super bishop: one different, one inconclusive, one
/// equivalent pair), a pawn-odds calibration matchup, balance, pocket use.
fn example_report() -> Report {
    let class2 = RatingGroup {
        title: "Class 2: bishop, knight".into(),
        class: Some(2),
        pieces: Some(2),
        players: vec![
            player("B", "B (bishop)", 2.0, 11.0, 1600),
            player("N", "N (knight)", -2.0, 11.0, 1600),
        ],
        white_advantage_elo: 31.0,
        draw_parameter: 0.62,
        pairs: vec![verdict(
            "B",
            "N",
            4.0,
            16.0,
            1600,
            VerdictKind::Equivalent,
            "Bishop and knight: equivalent within a quarter pawn.",
        )],
        summary: "Class 2: bishop, knight: holds (the one pair is equivalent).".into(),
        advice: "Class 2 holds: nothing to change.".into(),
        matrix: vec![vec![None, Some(0.506)], vec![Some(0.494), None]],
        matrix_games: vec![vec![0, 1600], vec![1600, 0]],
    };
    let class3 = RatingGroup {
        title: "Class 3: rook, nightrider, super bishop".into(),
        class: Some(3),
        pieces: Some(2),
        players: vec![
            player("R", "R (rook)", 38.0, 14.0, 2400),
            player("I", "I (nightrider)", -27.0, 14.0, 2400),
            player("C", "C (super bishop)", -11.0, 19.0, 1600),
        ],
        white_advantage_elo: 35.0,
        draw_parameter: 0.48,
        pairs: vec![
            verdict(
                "R",
                "I",
                65.0,
                20.0,
                1600,
                VerdictKind::Different,
                "Rook stronger than nightrider by 0.27 pawns (0.19 to 0.35).",
            ),
            verdict(
                "R",
                "C",
                30.0,
                45.0,
                800,
                VerdictKind::Inconclusive,
                "Rook and super bishop: not decided after 800 games.",
            ),
            verdict(
                "I",
                "C",
                -8.0,
                18.0,
                1600,
                VerdictKind::Equivalent,
                "Nightrider and super bishop: equivalent within a quarter pawn.",
            ),
        ],
        summary: "Class 3: rook, nightrider, super bishop: fails (1 of 3 pairs is different).".into(),
        advice: "Class 3 fails: Rook is stronger than nightrider. Still open: rook and super bishop (about 400 \
                 more pairs).".into(),
        matrix: vec![
            vec![None, Some(0.592), Some(0.543)],
            vec![Some(0.408), None, Some(0.489)],
            vec![Some(0.457), Some(0.511), None],
        ],
        matrix_games: vec![vec![0, 1600, 800], vec![1600, 0, 1600], vec![800, 1600, 0]],
    };
    let histogram: Vec<(u32, u32, u64)> = (0..16)
        .map(|k| {
            let centre = 7.0;
            let n = (900.0 * (-((k as f64 - centre) / 3.2).powi(2)).exp()) as u64 + 3;
            (k * 20, k * 20 + 20, n)
        })
        .collect();
    let games: u64 = histogram.iter().map(|h| h.2).sum();
    Report {
        experiment: ExperimentInfo {
            name: "pmc-classes-2-3".into(),
            description: "Are the class 2 and class 3 pieces of Pocket Mutation Chess worth the same?".into(),
            variant: "pocket-mutation".into(),
            variant_description: "Pocket Mutation Chess (Mike Nelson, 2003)".into(),
            rule_overrides: "[pocket]\nwhite_first_move_ban = true\n".into(),
            seed: 20_261_122,
            code_version: "0.1.0 (a8372f4)".into(),
            experiment_hash: "3f2a9c0e5d7b1a44".into(),
            experiment_text: "name = \"pmc-classes-2-3\"\nvariant = \"pocket-mutation\"\nseed = 20261122\n\
                              # check: a < b && \"quoted\"\n[engine]\nnodes = 10000\n"
                .into(),
            logs: vec!["runs/pmc-classes-2-3".into(), "runs/pawn odds".into()],
            verdict_logs: Vec::new(),
            engines: vec!["nodes=10000 eval=default".into()],
            eval_values: vec![
                eval_values("default", &["B", "N"], &[("N", "knight", 2, 300), ("B", "bishop", 2, 310)]),
                eval_values("learned.toml", &["R"], &[("N", "knight", 2, 318), ("B", "bishop", 2, 335)]),
            ],
        },
        headlines: vec![
            "Class 2 holds: bishop and knight are equivalent within ±0.25 pawns.".into(),
            "Class 3 does not hold: the rook is stronger than the nightrider by 0.54 pawns (0.38 to 0.71).".into(),
            "Rook vs super bishop: not enough games yet, about 400 more pairs needed.".into(),
        ],
        calibration: Calibration {
            elo_per_pawn: ELO_PER_PAWN,
            std_error: 9.0,
            interval: Some((104.0, 139.0)),
            source: CalibrationSource::Measured,
            pairs: 100,
            note: "From 2,000 games of chess against chess without the f-pawn.".into(),
        },
        margin_pawns: 0.25,
        margin_elo: 30.0,
        matchups: vec![
            matchup("B", "N", 560, 490, 550, Some(("H0", -2.94))),
            matchup("R", "I", 700, 500, 400, Some(("H1", 2.97))),
            matchup("R", "C", 300, 260, 240, Some(("continue", 1.12))),
            matchup("I", "C", 520, 530, 550, None),
            matchup("chess", "chess-minus-f-pawn", 1100, 500, 400, None),
        ],
        published: vec![
            published("B", "N", "Kaufman (1999)", 0.0, PublishedAgreement::Within),
            published("R", "I", "Betza", -0.5, PublishedAgreement::LabHigher),
        ],
        groups: vec![class2, class3],
        engines: Vec::new(),
        balance: GameBalance {
            games,
            white_score: 0.543,
            white_score_interval: (0.534, 0.552),
            draw_rate: 0.31,
            decisive_rate: 0.69,
            terminations: vec![
                ("checkmate".into(), games * 55 / 100),
                ("threefold repetition".into(), games * 20 / 100),
                ("n-move rule".into(), games * 11 / 100),
                ("adjudicated (score, 10 moves)".into(), games - games * 86 / 100),
            ],
            length: LengthStats { mean: 148.6, median: 146.0, p10: 92.0, p90: 206.0, histogram },
            branching_factor: Some(41.7),
            branching_sample: 2000,
            search_depth: vec![SearchDepth {
                armies: vec!["bishops".into(), "knights".into()],
                median: 6.0,
                mean: 5.8,
                mean_nodes: 19_987.4,
                moves: 12_345,
            }],
        },
        pocket_use: [
            ("P", "pawn", 4100, 0, 0, 0, 3900),
            ("B", "bishop", 1200, 600, 580, 40, 1100),
            ("N", "knight", 1150, 590, 610, 35, 1080),
            ("R", "rook", 900, 420, 380, 120, 850),
            ("I", "nightrider", 640, 300, 330, 90, 610),
            ("C", "super bishop", 700, 310, 320, 95, 660),
        ]
        .into_iter()
        .map(|(letter, name, pocket_ins, mutated_from, mutated_into, promoted_into, drops)| PieceUse {
            letter: letter.into(),
            name: name.into(),
            pocket_ins,
            mutated_from,
            mutated_into,
            promoted_into,
            drops,
        })
        .collect(),
        colour_values: None,
        adaptive: None,
        value_scale: None,
        notes: vec![
            "Engines searched 10,000 nodes per move; stronger play may value pieces differently.".into(),
            "The super bishop played half as many games as the others.".into(),
        ],
        training: Some(example_training()),
        shown_games: Default::default(),
    }
}

/// Twelve generations of training on the same pieces: the nightrider's
/// learned value sits below its class.
fn example_training() -> TrainingSummary {
    // (letter, name, class, learned value, half-width, starting value, direct relative)
    let pieces = [
        ("P", "pawn", 1, 1.0, 0.05, 1.0, None),
        ("B", "bishop", 2, 3.30, 0.12, 3.25, Some(0.02)),
        ("N", "knight", 2, 3.15, 0.12, 3.25, Some(-0.02)),
        ("R", "rook", 3, 5.20, 0.15, 5.0, Some(0.32)),
        ("I", "nightrider", 3, 4.40, 0.20, 5.0, Some(-0.23)),
        ("C", "super bishop", 3, 4.90, 0.18, 5.0, Some(-0.09)),
    ];
    let class_mean = |class: u8| {
        let values: Vec<f64> = pieces
            .iter()
            .filter(|p| p.2 == class)
            .map(|p| p.3)
            .collect();
        values.iter().sum::<f64>() / values.len() as f64
    };
    let history = (0..12u32)
        .map(|g| {
            let values = pieces
                .iter()
                .map(|p| (p.0.to_owned(), p.3 + (p.5 - p.3) * 0.6f64.powi(g as i32)))
                .collect();
            (g, values)
        })
        .collect();
    let pieces: Vec<LearnedPiece> = pieces
        .iter()
        .map(
            |&(letter, name, class, value, half, _, direct)| LearnedPiece {
                letter: letter.into(),
                name: name.into(),
                class: Some(class),
                value,
                interval: (value - half, value + half),
                pocket_value: value * 1.1,
                pocket_interval: ((value - half) * 1.1, (value + half) * 1.1),
                direct_relative: direct,
                learned_relative: value - class_mean(class),
            },
        )
        .collect();
    TrainingSummary {
        generations: 12,
        converged: true,
        history,
        proposal: propose(&pieces, &[]),
        pieces,
        suggested_classes: vec![vec!["P".into()], vec!["N".into(), "B".into()], vec!["I".into()], vec![
            "C".into(),
            "R".into(),
        ]],
        findings: vec![
            "I (nightrider) learned 4.40 pawns: closer to class 2 (mean 3.23) than to its own class 3 (mean 4.83)."
                .into(),
            "Sanity: the orthodox ordering pawn < knight, bishop < rook < queen holds.".into(),
        ],
        published: vec![
            PublishedValue { letter: "P".into(), learned: 1.0, kaufman_1999: 1.0, alphazero_2020: 1.0 },
            PublishedValue { letter: "N".into(), learned: 3.15, kaufman_1999: 3.25, alphazero_2020: 3.05 },
            PublishedValue { letter: "B".into(), learned: 3.30, kaufman_1999: 3.25, alphazero_2020: 3.33 },
            PublishedValue { letter: "R".into(), learned: 5.20, kaufman_1999: 5.0, alphazero_2020: 5.63 },
        ],
        validation: Some(ValidationMatch {
            games: 800,
            elo: 24.0,
            elo_interval: (8.0, 40.0),
            text: "Trained values against the starting values over 800 games: +24 Elo (+8 to +40); training made the \
                   engine clearly stronger."
                .into(),
        }),
        final_params: "reports/pmc-classes-2-3/training/final.toml".into(),
    }
}

/// A report with nothing in it: no groups, no matchups, no games.
fn empty_report() -> Report {
    Report {
        experiment: ExperimentInfo {
            name: String::new(),
            description: String::new(),
            variant: String::new(),
            variant_description: String::new(),
            rule_overrides: String::new(),
            seed: 0,
            code_version: String::new(),
            experiment_hash: String::new(),
            experiment_text: String::new(),
            logs: Vec::new(),
            verdict_logs: Vec::new(),
            engines: Vec::new(),
            eval_values: Vec::new(),
        },
        headlines: Vec::new(),
        calibration: Calibration {
            elo_per_pawn: f64::NAN,
            std_error: 0.0,
            interval: None,
            source: CalibrationSource::Assumed,
            pairs: 100,
            note: String::new(),
        },
        margin_pawns: 0.25,
        margin_elo: f64::NAN,
        matchups: Vec::new(),
        published: Vec::new(),
        groups: Vec::new(),
        engines: Vec::new(),
        balance: GameBalance {
            games: 0,
            white_score: f64::NAN,
            white_score_interval: (f64::NAN, f64::NAN),
            draw_rate: f64::NAN,
            decisive_rate: f64::NAN,
            terminations: Vec::new(),
            length: LengthStats {
                mean: f64::NAN,
                median: f64::NAN,
                p10: f64::NAN,
                p90: f64::NAN,
                histogram: Vec::new(),
            },
            branching_factor: None,
            branching_sample: 0,
            search_depth: Vec::new(),
        },
        pocket_use: Vec::new(),
        colour_values: None,
        adaptive: None,
        value_scale: None,
        notes: Vec::new(),
        training: None,
        shown_games: Default::default(),
    }
}

// ----------------------------------------------------------------- helpers

/// The example report, rendered once per test run.
fn example() -> (Report, &'static RenderedReport) {
    static RENDERED: OnceLock<RenderedReport> = OnceLock::new();
    let rendered = RENDERED.get_or_init(|| {
        let dir = match std::env::var_os("POCKETLAB_KEEP_REPORT") {
            Some(dir) => PathBuf::from(dir),
            None => {
                let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("render-example");
                let _ = fs::remove_dir_all(&dir);
                dir
            }
        };
        write_report(&example_report(), &dir).unwrap()
    });
    (example_report(), rendered)
}

/// Renders into a fresh temporary directory; with `POCKETLAB_KEEP_REPORT`
/// set, also into `<that>-<name>` for looking at.
fn render_named(report: &Report, name: &str) -> (tempfile::TempDir, RenderedReport) {
    if let Some(keep) = std::env::var_os("POCKETLAB_KEEP_REPORT") {
        let mut dir = keep;
        dir.push(format!("-{name}"));
        write_report(report, Path::new(&dir)).unwrap();
    }
    render(report)
}

fn render(report: &Report) -> (tempfile::TempDir, RenderedReport) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("reports").join("example");
    let rendered = write_report(report, &out).unwrap();
    (dir, rendered)
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The HTML with embedded images cut out, so text checks do not match
/// inside base64 data.
fn html_text(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(start) = rest.find("data:image/png;base64,") {
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        rest = &after[after.find('"').unwrap_or(after.len())..];
    }
    out.push_str(rest);
    out
}

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// A small RFC 4180 parser (quoted fields, doubled quotes, line breaks
/// inside quotes), independent of the writer under test.
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => field.push(c),
        }
    }
    assert!(!quoted, "unterminated quote");
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    rows
}

fn csv_table(rendered: &RenderedReport, name: &str) -> Vec<Vec<String>> {
    let path = rendered
        .tables
        .iter()
        .find(|p| p.file_name().unwrap() == name)
        .unwrap_or_else(|| panic!("no {name}"));
    let rows = parse_csv(&read(path));
    assert!(!rows.is_empty(), "{name} has no header");
    for row in &rows {
        assert_eq!(row.len(), rows[0].len(), "{name}: ragged row {row:?}");
    }
    rows
}

// ------------------------------------------------------------------- tests

#[test]
fn the_evaluations_piece_values_are_stated() {
    let (_, rendered) = example();
    let text = html_text(&read(&rendered.html));
    let md = read(&rendered.markdown);
    for doc in [&text, &md] {
        assert!(doc.contains("Piece values the engines evaluate with"));
        assert!(doc.contains("eval default and eval learned.toml"));
        assert!(doc.contains("default by B, N; learned.toml by R"));
    }
    assert!(md.contains("| N (knight) | 2 | 300 | 318 |"), "{md}");
    assert!(md.contains("| B (bishop) | 2 | 310 | 335 |"));
    let (_dir, empty) = render(&empty_report());
    assert!(!read(&empty.markdown).contains("Piece values the engines evaluate with"));
}

#[test]
fn published_values_stand_beside_the_labs_in_every_format() {
    let (_, rendered) = example();
    let text = html_text(&read(&rendered.html));
    let md = read(&rendered.markdown);
    for doc in [&text, &md] {
        assert!(doc.contains("Kaufman (1999)") && doc.contains("within the interval"));
        assert!(doc.contains("Betza") && doc.contains("outside: the lab finds more"));
    }
    let rows = csv_table(rendered, "published.csv");
    assert_eq!(
        rows[0],
        [
            "matchup",
            "a",
            "b",
            "source",
            "published_pawns",
            "lab_pawns",
            "lab_pawns_lo",
            "lab_pawns_hi",
            "games",
            "agreement"
        ]
    );
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[1][3], "Kaufman (1999)");
    assert_eq!(rows[2][4], "-0.5");
    assert_eq!(rows[2][9], "lab-higher");
}

#[test]
fn every_section_and_verdict_is_in_html_and_markdown() {
    let (report, rendered) = example();
    let html = read(&rendered.html);
    let text = html_text(&html);
    let md = read(&rendered.markdown);
    assert!(rendered.html.ends_with("report.html") && rendered.markdown.ends_with("report.md"));

    for heading in SECTIONS {
        assert!(
            text.contains(&format!(">{}</h2>", html_escape(heading))),
            "HTML lacks section {heading}"
        );
        assert!(
            md.contains(&format!("\n## {heading}\n")),
            "Markdown lacks section {heading}"
        );
    }
    for group in &report.groups {
        assert!(text.contains(&html_escape(&group.title)));
        assert!(md.contains(&group.title));
        assert!(
            text.contains(&html_escape(&group.summary)),
            "HTML lacks summary of {}",
            group.title
        );
        for pair in &group.pairs {
            assert!(
                text.contains(&html_escape(&pair.text)),
                "HTML lacks verdict {}",
                pair.text
            );
            // Markdown escapes punctuation such as `(` not at all and `_`/`*` with a backslash.
            assert!(
                md.contains(&pair.text),
                "Markdown lacks verdict {}",
                pair.text
            );
        }
    }
    for headline in &report.headlines {
        assert!(text.contains(&html_escape(headline)) && md.contains(headline));
    }
    // Order: verdicts before the evidence, reproduction last.
    let at = |s: &str| text.find(&format!(">{s}</h2>")).unwrap();
    assert!(at("What was asked") < at("Verdicts"));
    // The question names the rules the experiment changed.
    let changed = "the variant's rules were changed: pocket.white_first_move_ban = true.";
    assert!(text.contains(&html_escape(changed)));
    assert!(md.contains(&changed.replace('_', "\\_")));
    for w in SECTIONS.windows(2) {
        assert!(at(w[0]) < at(w[1]), "{} should come before {}", w[0], w[1]);
    }
    // Training: findings, validation, suggested classes, published values.
    let training = report.training.as_ref().unwrap();
    for finding in &training.findings {
        assert!(
            text.contains(&html_escape(finding)),
            "HTML lacks finding {finding}"
        );
    }
    assert!(text.contains(&html_escape(&training.validation.as_ref().unwrap().text)));
    assert!(text.contains("N (knight), B (bishop)") && md.contains("N (knight), B (bishop)"));
    assert!(text.contains("Kaufman (1999)") && text.contains("5.63"));
    // The proposal from the evidence: here it keeps the variant's table.
    assert!(
        md.contains("A class table from the evidence")
            && text.contains("A class table from the evidence")
    );
    assert!(md.contains("the evidence keeps the variant's table"));
    assert!(
        text.contains("4.40 (4.20 to 4.60)"),
        "learned value with interval"
    );
    // Verdicts are colour-coded.
    for tone in ["badge good", "badge bad", "badge unsure"] {
        assert!(text.contains(tone), "no {tone}");
    }
    // Numbers formatted for people: estimate with interval, percentages.
    assert!(
        text.contains("B (bishop) vs N (knight) (2 pieces each)"),
        "the pieces a pair exchanges"
    );
    // The interval a sentence states is not printed again: its level is.
    assert!(
        text.contains("Rook stronger than nightrider by 0.27 pawns (0.19 to 0.35).")
            && text.contains("stated above, 95%")
            && !text.contains("+0.27 (0.19 to 0.35, 95%)"),
        "pawn difference per piece with its interval, and its level beside it"
    );
    assert!(
        text.contains("+2 (-6 to 10, 95%)"),
        "the other interval in full, Elo per piece"
    );
    assert!(
        text.contains("Pawns per piece (interval, level)")
            && md.contains("Pawns per piece (interval, level)")
    );
    // An SPRT-stopped matchup says its interval is conditional on stopping.
    assert!(text.contains("H0 accepted (LLR -2.94, stopped: intervals conditional on stopping)"));
    assert!(
        text.contains("Fieller"),
        "the calibration section says how its uncertainty is carried"
    );
    assert!(text.contains("White scores 54.3% (53.4% to 55.2%)"));
    // Reproduction: the experiment file escaped, seed, hash, commands.
    assert!(text.contains("# check: a &lt; b &amp;&amp; &quot;quoted&quot;"));
    assert!(
        text.contains("20261122")
            && text.contains("3f2a9c0e5d7b1a44")
            && text.contains("0.1.0 (a8372f4)")
    );
    assert!(text.contains("pocketlab run pmc-classes-2-3.toml"));
    assert!(
        text.contains("pocketlab report runs/pmc-classes-2-3 &#39;runs/pawn odds&#39;"),
        "one report command over all logs, a directory with a space quoted"
    );
    assert!(text.contains("white_first_move_ban = true"));
    assert!(md.contains("pocketlab run pmc-classes-2-3.toml"));
    // Markdown tables and plot links.
    assert!(md.contains(
        "| Pair | Pawns per piece (interval, level) | Elo per piece (interval, level) |"
    ));
    assert!(
        md.contains("- ≠ Rook stronger than nightrider")
            && md.contains("- ≈ Bishop and knight: equivalent")
            && md.contains("- ? Rook and super bishop: not decided")
    );
    for stem in PLOTS {
        assert!(
            md.contains(&format!("](plots/{stem}.png)")),
            "Markdown does not link {stem}"
        );
    }
}

#[test]
fn an_adaptive_study_shows_the_look_and_games_of_every_pair() {
    let matchup = |name: &str, label: &str, status, look, pairs| AdaptiveMatchup {
        name: name.into(),
        label: label.into(),
        status,
        look,
        pairs,
        games: 2 * pairs,
        more_pairs_needed: (status == AdaptiveStatus::Cap).then_some(140),
        text: format!("ended at look {look}"),
    };
    let report = Report {
        adaptive: Some(AdaptiveSummary {
            spending: "haybittle-peto".into(),
            look_every: 25,
            max_pairs: 500,
            budget_games: Some(4000),
            margin_pawns: 0.25,
            alpha: 0.05,
            calibration_futility: Some(0.05),
            looks_planned: 20,
            looks_done: 20,
            next_stage: None,
            games: 2350,
            fixed_games: 4000,
            decided: 2,
            text: "Sequential design: 2 of 3 pairs of pieces decided in 2350 games.".into(),
            calibration: Some(matchup(
                "base-vs-pawn-odds-f2",
                "base vs pawn-odds-f2",
                AdaptiveStatus::Cap,
                20,
                500,
            )),
            matchups: vec![
                matchup(
                    "B-vs-N",
                    "B (bishop) vs N (knight)",
                    AdaptiveStatus::Equivalent,
                    9,
                    225,
                ),
                matchup(
                    "R-vs-I",
                    "R (rook) vs I (nightrider)",
                    AdaptiveStatus::Different,
                    2,
                    50,
                ),
                matchup(
                    "I-vs-X",
                    "I (nightrider) vs X (super bishop)",
                    AdaptiveStatus::Cap,
                    20,
                    500,
                ),
            ],
        }),
        ..example_report()
    };
    let mut report = report;
    report.groups[0].pairs[0].look = Some(9);
    report.groups[1].pairs[0].look = Some(2);
    let (_dir, rendered) = render_named(&report, "adaptive");
    let text = html_text(&read(&rendered.html));
    let md = read(&rendered.markdown);
    let heading = "Sequential design: looks and games";
    assert!(md.contains(&format!("\n## {heading}\n")) && text.contains(heading));
    // Each pair's look and games stand once, in the verdicts' details.
    assert!(
        md.contains("| **≈ B (bishop) vs N (knight) (2 pieces each)** |"),
        "{md}"
    );
    assert!(md.contains("| 9 of 20 | 1,600 (800) |"), "{md}");
    assert!(md.contains("| 2 of 20 | 1,600 (800) |"), "{md}");
    assert!(md.contains("| not looked at yet | 800 (400) |"), "{md}");
    assert!(!md.contains("ended at look 9"), "{md}");
    assert!(md.contains("undecided at the cap"), "{md}");
    assert!(
        md.contains("2 of 3 pairs of pieces decided; the fixed design: 4,000 games"),
        "{md}"
    );
    assert!(md.contains("budget 4,000 games"), "{md}");
    assert!(
        md.contains("could still be shown equivalent by the cap with a chance of 5% or more"),
        "{md}"
    );
    assert!(md.contains("Pawns per piece (interval, level)"), "{md}");
    let looks = csv_table(&rendered, "looks.csv");
    assert_eq!(
        looks[0],
        [
            "matchup",
            "pair",
            "outcome",
            "look",
            "looks_planned",
            "pairs",
            "games",
            "more_pairs_needed"
        ]
    );
    assert_eq!(looks.len(), 1 + 4);
    assert_eq!(looks[3][2], "cap");
    assert_eq!(looks[3][7], "140");
    assert_eq!(looks[4][0], "base-vs-pawn-odds-f2");
    // Without the design, no such section and no table.
    let (_, plain) = example();
    assert!(!read(&plain.markdown).contains(heading));
    assert!(!plain.tables.iter().any(|t| t.ends_with("looks.csv")));
}

#[test]
fn every_plot_is_written_as_png_and_svg() {
    let (_, rendered) = example();
    assert_eq!(
        rendered.plots.len(),
        2 * PLOTS.len(),
        "{:?}",
        rendered.plots
    );
    let titles = [
        (
            "group-2-strength",
            "Class 2: bishop, knight: strength of each piece (1,600 games)",
        ),
        ("group-2-matrix", "head-to-head scores (1,600 games)"),
        ("group-3-strength", "strength of each piece (4,000 games)"),
        (
            "group-3-matrix",
            "Class 3: rook, nightrider, super bishop: head-to-head scores",
        ),
        (
            "overview",
            "Every piece and every verdict: 5 rated pieces (5,600 games)",
        ),
        ("lengths", "Game length ("),
        ("terminations", "How games ended ("),
        ("pocket-use", "Pocket moves per piece"),
        (
            "training-values",
            "Learned piece values after 12 generations of training",
        ),
        (
            "training-convergence",
            "Learned piece values per generation (12 generations)",
        ),
    ];
    for (stem, title) in titles {
        let png = rendered
            .plots
            .iter()
            .find(|p| p.file_name().unwrap().to_str() == Some(&format!("{stem}.png")));
        let png = png.unwrap_or_else(|| panic!("no {stem}.png"));
        let bytes = fs::read(png).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{stem}.png is not a PNG");
        assert!(
            bytes.len() > 8 * 1024,
            "{stem}.png is only {} bytes",
            bytes.len()
        );
        // IHDR: width and height, at least the promised 1000x600-ish canvas.
        let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
        let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
        assert!(
            width >= 1000 && height >= 400,
            "{stem}.png is {width}x{height}"
        );

        let svg = read(&png.with_extension("svg"));
        assert!(svg.contains("<svg"), "{stem}.svg is not SVG");
        assert!(svg.contains(title), "{stem}.svg lacks its title {title:?}");
        assert!(svg.len() > 2 * 1024);
    }
    // No temporary files left behind.
    let plot_dir = rendered.html.parent().unwrap().join("plots");
    for entry in fs::read_dir(plot_dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(!name.starts_with('.'), "left over: {name}");
    }
}

#[test]
fn html_is_self_contained() {
    let (_, rendered) = example();
    let html = read(&rendered.html);
    for forbidden in [
        "src=\"http",
        "href=\"http",
        "src='http",
        "href='http",
        "<script",
        "<link",
        "@import",
        "url(",
    ] {
        assert!(!html.contains(forbidden), "HTML contains {forbidden}");
    }
    assert_eq!(
        html.matches("src=\"data:image/png;base64,").count(),
        PLOTS.len()
    );
    // Internal links only point at headings in the same file.
    let text = html_text(&html);
    for link in text.split("href=\"").skip(1) {
        let target = &link[..link.find('"').unwrap()];
        assert!(target.starts_with('#'), "external link {target}");
        assert!(
            text.contains(&format!("id=\"{}\"", &target[1..])),
            "dangling link {target}"
        );
    }
}

#[test]
fn tables_parse_back_with_the_right_rows() {
    let (report, rendered) = example();
    let names: Vec<String> = rendered
        .tables
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    let expected = [
        "matchups.csv",
        "published.csv",
        "ratings.csv",
        "verdicts.csv",
        "engines.csv",
        "terminations.csv",
        "lengths.csv",
        "pocket_use.csv",
        "learned_values.csv",
        "training_history.csv",
        "proposed_classes.csv",
    ];
    assert_eq!(names.len(), expected.len());
    for name in expected {
        assert!(names.contains(&name.to_owned()), "missing {name}");
    }

    let matchups = csv_table(rendered, "matchups.csv");
    assert_eq!(matchups.len(), 1 + report.matchups.len());
    assert_eq!(matchups[0][0], "name");
    assert_eq!(matchups[2][1..3], ["R".to_owned(), "I".to_owned()]);

    let ratings = csv_table(rendered, "ratings.csv");
    assert_eq!(ratings.len(), 1 + 5);
    assert_eq!(
        ratings[0][..5],
        ["group", "class", "player", "label", "elo"].map(String::from)
    );
    // A group title with commas survives quoting.
    assert_eq!(ratings[3][0], "Class 3: rook, nightrider, super bishop");
    assert_eq!(ratings[3][2], "R");
    assert_eq!(ratings[3][4].parse::<f64>().unwrap(), 38.0);

    let verdicts = csv_table(rendered, "verdicts.csv");
    assert_eq!(verdicts.len(), 1 + 4);
    let kinds: Vec<&str> = verdicts[1..].iter().map(|r| r[3].as_str()).collect();
    assert_eq!(
        kinds,
        ["equivalent", "different", "inconclusive", "equivalent"]
    );
    let column = |name: &str| verdicts[0].iter().position(|c| c == name).unwrap();
    assert_eq!(verdicts[3][column("more_pairs_needed")], "400");
    assert_eq!(verdicts[1][column("pieces")], "2");
    assert_eq!(
        verdicts[2][column("pawns_per_piece")]
            .parse::<f64>()
            .unwrap(),
        65.0 / ELO_PER_PAWN / PIECES
    );
    assert_eq!(verdicts[1][column("more_calibration_needed")], "false");

    let terminations = csv_table(rendered, "terminations.csv");
    assert_eq!(terminations.len(), 1 + 4);
    assert_eq!(terminations[4][0], "adjudicated (score, 10 moves)");

    let lengths = csv_table(rendered, "lengths.csv");
    assert_eq!(lengths.len(), 1 + report.balance.length.histogram.len());

    let pocket = csv_table(rendered, "pocket_use.csv");
    assert_eq!(pocket.len(), 1 + report.pocket_use.len());
    assert_eq!(pocket[6][1], "super bishop");

    let learned = csv_table(rendered, "learned_values.csv");
    assert_eq!(learned.len(), 1 + 6);
    assert_eq!(
        learned[5][..4],
        ["I", "nightrider", "3", "4.4"].map(String::from)
    );
    assert_eq!(
        learned[1][10], "",
        "no direct rating for the pawn: empty cell"
    );
    let history = csv_table(rendered, "training_history.csv");
    assert_eq!(history.len(), 1 + 12 * 6);
    // Every piece keeps its class: the nightrider's shortfall is within
    // class 3, nowhere near class 2's mean.
    let proposed = csv_table(rendered, "proposed_classes.csv");
    assert_eq!(proposed.len(), 1 + 6);
    assert_eq!(
        proposed[0][..4],
        ["letter", "name", "class", "proposed_class"].map(String::from)
    );
    assert!(proposed[1..].iter().all(|row| row[2] == row[3]));
}

#[test]
fn nan_and_infinite_numbers_render_as_na() {
    let mut report = example_report();
    let g = &mut report.groups[1];
    g.players[0].elo = f64::NAN;
    g.players[0].pawns = f64::NAN;
    g.players[1].elo_interval = (f64::NEG_INFINITY, f64::INFINITY);
    g.players[1].pawns_interval = (f64::NAN, f64::INFINITY);
    g.pairs[0].pawns = f64::NAN;
    g.pairs[1].elo_interval = (f64::NAN, f64::NAN);
    g.white_advantage_elo = f64::NAN;
    g.draw_parameter = f64::INFINITY;
    g.matrix[0][1] = Some(f64::NAN);
    report.matchups[0].score = f64::NAN;
    report.matchups[1].elo = f64::INFINITY;
    report.matchups[2].los = f64::NAN;
    report.matchups[3].sprt = Some(SprtOutcome {
        llr: f64::NAN,
        decision: "continue".into(),
    });
    report.calibration.interval = Some((f64::NAN, 140.0));
    report.balance.white_score = f64::NAN;
    report.balance.length.mean = f64::NAN;
    report.balance.branching_factor = Some(f64::NAN);
    let t = report.training.as_mut().unwrap();
    t.pieces[1].value = f64::NAN;
    t.pieces[2].interval = (f64::NEG_INFINITY, f64::NAN);
    t.pieces[3].pocket_value = f64::INFINITY;
    t.history[3].1[0].1 = f64::NAN;
    t.published[0].kaufman_1999 = f64::NAN;

    let (_dir, rendered) = render_named(&report, "nan");
    let text = html_text(&read(&rendered.html));
    let md = read(&rendered.markdown);
    for doc in [&text, &md] {
        assert!(doc.contains("n/a"));
        assert!(!doc.contains("NaN"), "NaN leaked");
        for inf in ["inf ", "inf)", "inf%", "inf<", "inf |", ">inf", "-inf"] {
            assert!(!doc.contains(inf), "infinity leaked as {inf:?}");
        }
    }
    // CSV: missing numbers are empty cells.
    let ratings = csv_table(&rendered, "ratings.csv");
    assert_eq!(ratings[3][4], "");
    assert_eq!(rendered.plots.len(), 2 * PLOTS.len());
}

#[test]
fn an_empty_report_still_renders() {
    let (_dir, rendered) = render(&empty_report());
    let text = html_text(&read(&rendered.html));
    let md = read(&rendered.markdown);
    for heading in SECTIONS
        .iter()
        .filter(|h| ![TRAINING, PUBLISHED, CHANGES].contains(h))
    {
        assert!(
            text.contains(&format!(">{}</h2>", html_escape(heading))),
            "HTML lacks {heading}"
        );
        assert!(
            md.contains(&format!("## {heading}")),
            "Markdown lacks {heading}"
        );
    }
    assert!(!text.contains(TRAINING), "no training, no training section");
    assert!(!text.contains(PUBLISHED), "no published figure, no section");
    assert!(!rendered.tables.iter().any(|t| t.ends_with("published.csv")));
    assert!(text.contains("No verdict yet"));
    assert!(
        rendered.plots.is_empty(),
        "nothing to plot, yet {:?}",
        rendered.plots
    );
    assert_eq!(rendered.tables.len(), 7);
    for table in &rendered.tables {
        assert_eq!(
            parse_csv(&read(table)).len(),
            1,
            "{} should hold only its header",
            table.display()
        );
    }
    assert!(text.contains("pocketlab report &lt;log dir&gt;"));
}

#[test]
fn odd_groups_and_long_names_do_not_break_rendering() {
    let mut report = example_report();
    let long = "an extraordinarily long piece name that no designer would ever type but a generated army might ".repeat(3);
    // One player; a group whose fit failed (matrix but no players); an
    // empty group without a class; a very long label; a hostile name.
    report.groups[0].players.truncate(1);
    report.groups[0].players[0].label = long.clone();
    report.groups[1].players.clear();
    report.groups.push(RatingGroup {
        title: format!("Armies: <script>alert(1)</script>, {long}"),
        class: None,
        pieces: None,
        players: Vec::new(),
        white_advantage_elo: f64::NAN,
        draw_parameter: f64::NAN,
        pairs: Vec::new(),
        summary: String::new(),
        advice: String::new(),
        matrix: Vec::new(),
        matrix_games: Vec::new(),
    });
    report.groups.push(RatingGroup {
        class: Some(2),
        ..report.groups[0].clone()
    });
    report.matchups[0].a = "<b>".into();
    let t = report.training.as_mut().unwrap();
    t.pieces.clear();
    t.history.clear();
    t.suggested_classes.clear();
    t.published.clear();
    t.validation = None;
    report.balance.length.histogram = vec![(10, 10, 5), (10, 20, 0)];
    let many: Vec<PlayerRating> = (0..20)
        .map(|i| {
            player(
                &format!("P{i}"),
                &format!("P{i} (piece number {i})"),
                i as f64 * 7.0 - 60.0,
                20.0,
                400,
            )
        })
        .collect();
    let n = many.len();
    report.groups.push(RatingGroup {
        title: "Class 9: twenty players".into(),
        class: Some(9),
        pieces: Some(1),
        players: many,
        white_advantage_elo: 20.0,
        draw_parameter: 0.5,
        pairs: Vec::new(),
        summary: String::new(),
        advice: String::new(),
        matrix: (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| (i != j).then_some(0.5 + (i as f64 - j as f64) / 60.0))
                    .collect()
            })
            .collect(),
        matrix_games: vec![vec![200; n]; n],
    });

    let (_dir, rendered) = render_named(&report, "odd");
    let html = read(&rendered.html);
    assert!(!html.contains("<script>") && html.contains("&lt;script&gt;"));
    assert!(!html.contains("<b>") && html.contains("&lt;b&gt; vs N"));
    let stems: Vec<String> = rendered
        .plots
        .iter()
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    // The failed fit still has its matrix; the empty group has no plot;
    // the duplicate class 2 gets its own file names.
    for stem in [
        "group-2-strength",
        "group-3-matrix",
        "group-2-2-strength",
        "group-9-strength",
        "group-9-matrix",
    ] {
        assert!(
            stems.contains(&stem.to_owned()),
            "missing {stem} in {stems:?}"
        );
    }
    assert!(!stems.contains(&"group-3-strength".to_owned()));
    assert!(!stems.iter().any(|s| s.starts_with("group-4")));
    assert!(
        !stems.iter().any(|s| s.starts_with("training-")),
        "no training values, no training plots"
    );
}

#[test]
fn rerendering_replaces_files_and_drops_stale_plots() {
    let dir = tempfile::tempdir().unwrap();
    let first = write_report(&example_report(), dir.path()).unwrap();
    assert!(first.plots.iter().all(|p| p.exists()));
    let second = write_report(&empty_report(), dir.path()).unwrap();
    assert!(second.plots.is_empty());
    assert!(
        first.plots.iter().all(|p| !p.exists()),
        "stale plots remain"
    );
    assert!(!read(&second.html).contains("data:image/png"));
}

#[test]
fn a_report_without_a_pawn_unit_says_why_and_shows_no_pawns() {
    let mut report = example_report();
    let note = "The pawn-odds matchup base-vs-pawn-odds-f2 (200 games) shows no pawn advantage: the side a pawn up \
                scored 48.0% (at most 50%).";
    report.calibration = Calibration {
        elo_per_pawn: f64::NAN,
        std_error: 20.0,
        interval: Some((-40.0, 30.0)),
        source: CalibrationSource::NoPawnAdvantage,
        pairs: 100,
        note: note.into(),
    };
    report.margin_elo = f64::NAN;
    report.headlines.insert(0, format!("No pawn unit: {note}"));
    for group in &mut report.groups {
        for p in &mut group.players {
            p.pawns = f64::NAN;
            p.pawns_per_piece = f64::NAN;
        }
        for v in &mut group.pairs {
            v.pawns = f64::NAN;
            v.pawns_per_piece = f64::NAN;
        }
    }
    let (_dir, rendered) = render_named(&report, "no-pawn-unit");
    let text = html_text(&read(&rendered.html));
    assert!(text.contains("No conversion from Elo to pawns"));
    assert!(text.contains(&html_escape(note)));
    assert!(!text.contains("NaN"));
    let matchups = csv_table(&rendered, "matchups.csv");
    let column = matchups[0].iter().position(|c| c == "calibration").unwrap();
    assert_eq!(matchups[1][column], "no-pawn-advantage");
}
