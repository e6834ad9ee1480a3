//! What a balance report says, as data: computed from logs by
//! [`super::build`], rendered to HTML, Markdown, CSV and plots by
//! [`super::render`]. Every number a reader sees comes from here.

use serde::{Deserialize, Serialize};

mod scale;

pub use scale::{
    ScaleAdjacent, ScaleConsistency, ScaleDeparture, ScaleDesign, ScaleDistinct, ScaleKnown,
    ScalePiece, ScalePublished, ScaleTable, ScaleTarget, ScaleUnit, ValueScale,
};

/// Where the report came from, for reproduction.
#[derive(Clone, Debug, Serialize)]
pub struct ExperimentInfo {
    /// The experiment's name, as in its file.
    pub name: String,
    /// The experiment's description, as in its file (empty if it gives none).
    pub description: String,
    /// The variant as played (its name) and the rule overrides in force (variant-file TOML, empty if none).
    pub variant: String,
    /// The variant's one-line description, as in its file.
    pub variant_description: String,
    /// The rule overrides in force, as variant-file TOML (empty if none).
    pub rule_overrides: String,
    /// The experiment's seed, from which every game's seed is derived.
    pub seed: u64,
    /// The version of the lab that wrote the log (`pocketlab` and its version
    /// number), from the log's manifest.
    pub code_version: String,
    /// FNV-1a hash of the experiment file's text, as hex, from the log's
    /// manifest: logs with the same hash ran the same file.
    pub experiment_hash: String,
    /// The experiment file as run.
    pub experiment_text: String,
    /// Log directories read.
    pub logs: Vec<String>,
    /// Class studies' log directories whose verdicts a value scale's class
    /// tables took as known (`pocketlab report --verdicts`).
    pub verdict_logs: Vec<String>,
    /// Engine settings seen in the log (`nodes=10000 eval=default`).
    pub engines: Vec<String>,
    /// The piece values the lab's engines evaluate with, one entry per
    /// evaluation in use (they steer trades, so a verdict is read with
    /// them in mind); empty when only external engines play.
    pub eval_values: Vec<EvalPieceValues>,
}

/// The piece values one evaluation of the experiment uses.
#[derive(Clone, Debug, Serialize)]
pub struct EvalPieceValues {
    /// Where they come from: `default` (the variant file's) or a parameter file.
    pub eval: String,
    /// The armies whose engine evaluates with them.
    pub armies: Vec<String>,
    /// Every piece of the variant but the royal one, in the variant's order.
    pub pieces: Vec<EvalPieceValue>,
}

/// One piece's value under one evaluation.
#[derive(Clone, Debug, Serialize)]
pub struct EvalPieceValue {
    /// The piece's letter in the variant.
    pub letter: String,
    /// The piece's name, as in the variant file.
    pub name: String,
    /// Its class in the variant's class table (1-based; `None`: not in the
    /// table).
    pub class: Option<u8>,
    /// Its value on the board, centipawns: the evaluation's own entry for it,
    /// else the variant's.
    pub centipawns: i32,
}

/// Where the Elo value of a pawn came from.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum CalibrationSource {
    /// From a pawn-odds matchup in the log; its error is carried into every
    /// pawn interval and verdict.
    Measured,
    /// A pawn-odds matchup in which the side a pawn up did not score above
    /// 50%: no positive unit, so no pawn figures and no equivalence claims.
    NoPawnAdvantage,
    /// A pawn-odds matchup that gives no unit at all (one side won every game).
    Unmeasurable,
    /// No pawn-odds matchup: Muller's 15% of score per pawn, taken as exact.
    Assumed,
}

/// How Elo converts to pawns.
#[derive(Clone, Debug, Serialize)]
pub struct Calibration {
    /// Elo per pawn (NaN when no positive unit was measured).
    pub elo_per_pawn: f64,
    /// Its standard error (0 when assumed).
    pub std_error: f64,
    /// 95% interval of the Elo per pawn, when measured.
    pub interval: Option<(f64, f64)>,
    /// How the Elo per pawn was obtained (measured, assumed, or not
    /// measurable).
    pub source: CalibrationSource,
    /// Colour-swapped pairs of the pawn-odds matchup (0 when assumed).
    pub pairs: u64,
    /// One sentence saying how the figure was obtained.
    pub note: String,
}

/// The model of a matchup's score.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ScoreModel {
    /// Colour-swapped pairs are the independent unit.
    Pentanomial,
    /// Games are (unpaired games in the log).
    Trinomial,
}

/// What a matchup's two armies differ in, and so what its result
/// measures (derived from the armies by `super::matchups`).
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Compared {
    /// Their pieces differ, their engines do not: what pieces are worth.
    Pieces,
    /// Only their engines differ: playing strength, in Elo.
    Engines,
    /// Both differ: piece value and playing strength mixed in one figure.
    PiecesAndEngines,
    /// Nothing: the same army and engine on both sides (game balance).
    Nothing,
}

/// One matchup's result from army A's point of view.
#[derive(Clone, Debug, Serialize)]
pub struct MatchupStats {
    /// The matchup's name, as in the experiment file.
    pub name: String,
    /// Army A's name: every figure is A's side of the matchup.
    pub a: String,
    /// Army B's name.
    pub b: String,
    /// What the two armies differ in, and so what the result measures.
    pub compared: Compared,
    /// Games played.
    pub games: u64,
    /// Games A won.
    pub a_wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games B won.
    pub b_wins: u64,
    /// Complete colour-swapped pairs, and their A half-point counts 0..=4.
    pub pairs: u64,
    /// Complete pairs by A's half points in the pair: index 0 (A lost both
    /// games) to 4 (A won both).
    pub pentanomial: [u64; 5],
    /// The score model behind the figures: pentanomial over pairs when every
    /// game has its colour-swapped twin (and at least two pairs are complete),
    /// else trinomial over games.
    pub model: ScoreModel,
    /// A's mean score per game, 0..1 (NaN when the games give no score
    /// summary).
    pub score: f64,
    /// 95% interval of `score` (normal approximation, clipped to 0..1).
    pub score_interval: (f64, f64),
    /// Standard error of `score`.
    pub score_std_error: f64,
    /// A minus B in Elo, with its 95% interval and standard error.
    pub elo: f64,
    /// 95% interval of `elo`, mapped from the score's (asymmetric; an end is
    /// infinite at a score of 0 or 1).
    pub elo_interval: (f64, f64),
    /// Standard error of `elo` (delta method).
    pub elo_std_error: f64,
    /// Pieces the two armies exchange (two knights become bishops: 2), when
    /// they differ in nothing else.
    pub pieces: Option<u32>,
    /// A minus B in pawns for the armies, with its 95% interval (the pawn
    /// unit's uncertainty included: Fieller).
    pub pawns: f64,
    /// 95% interval of `pawns` (NaN, like `pawns`, where the pawn unit does not
    /// resolve sizes in pawns).
    pub pawns_interval: (f64, f64),
    /// The same per piece exchanged (NaN when `pieces` is unknown).
    pub pawns_per_piece: f64,
    /// 95% interval of `pawns_per_piece` (NaN when `pieces` is unknown or the
    /// pawn unit does not resolve it).
    pub pawns_per_piece_interval: (f64, f64),
    /// Likelihood that A is stronger.
    pub los: f64,
    /// White's score within this matchup (colours are balanced by design).
    pub white_score: f64,
    /// The SPRT's state at the matchup's last logged pair (`None`: no SPRT ran
    /// on it).
    pub sprt: Option<SprtOutcome>,
    /// The SPRT stopped this matchup once decided: its fixed-sample
    /// intervals and verdicts are conditional on stopping.
    pub stopped_early: bool,
}

/// Where a published figure stands against the lab's interval.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum PublishedAgreement {
    /// Inside the lab's 95% interval: no disagreement shown.
    Within,
    /// Inside an interval unbounded on one side or both (the pawn unit is
    /// still too uncertain): no test yet either way.
    Unbounded,
    /// Above the interval: the lab finds A's edge smaller than published.
    LabLower,
    /// Below the interval: the lab finds A's edge larger than published.
    LabHigher,
    /// The lab has no pawn figure for the matchup (not played, no pawn unit,
    /// or it compares engines).
    NotMeasured,
}

impl PublishedAgreement {
    /// Whether the lab's bounded interval put the figure to a test.
    pub fn is_tested(self) -> bool {
        matches!(self, Self::Within | Self::LabLower | Self::LabHigher)
    }
}

/// A published estimate of a matchup's difference beside the lab's
/// (known values as sanity checks, from the experiment file).
#[derive(Clone, Debug, Serialize)]
pub struct PublishedCheck {
    /// The matchup's name, as in the experiment file.
    pub matchup: String,
    /// Army A's name.
    pub a: String,
    /// Army B's name.
    pub b: String,
    /// Who published the figure.
    pub source: String,
    /// A minus B in pawns, as published.
    pub published_pawns: f64,
    /// A minus B in pawns as the lab measured it, with its 95% interval
    /// (NaN when not measured).
    pub lab_pawns: f64,
    /// The lab's 95% interval in pawns (NaN when not measured; an end is
    /// infinite while the pawn unit is too uncertain to bound it).
    pub lab_interval: (f64, f64),
    /// Games the lab played of the matchup (0: not played).
    pub games: u64,
    /// Where the published figure stands against the lab's interval.
    pub agreement: PublishedAgreement,
}

/// Where a matchup's SPRT stood at its last logged pair.
#[derive(Clone, Debug, Serialize)]
pub struct SprtOutcome {
    /// The log-likelihood ratio after the last logged pair.
    pub llr: f64,
    /// `H0`, `H1` or `continue`.
    pub decision: String,
}

impl SprtOutcome {
    /// Whether the test accepted a hypothesis (and so stopped the matchup).
    pub fn decided(&self) -> bool {
        matches!(self.decision.as_str(), "H0" | "H1")
    }
}

/// A matchup whose armies differ only in their engine: which plays
/// stronger, in Elo, and the SPRT's decision when one ran.
#[derive(Clone, Debug, Serialize)]
pub struct EngineVerdict {
    /// The matchup's name, as in the experiment file.
    pub matchup: String,
    /// Army A's name.
    pub a: String,
    /// Army B's name.
    pub b: String,
    /// The engines as logged (`uci=… nodes=3000`, `nodes=10000 eval=default`).
    pub a_engine: String,
    /// Army B's engine, described the same way.
    pub b_engine: String,
    /// A minus B in Elo, with its 95% interval.
    pub elo: f64,
    /// 95% interval of `elo`.
    pub elo_interval: (f64, f64),
    /// Likelihood of superiority: the probability that A's engine is truly
    /// stronger, 0..1.
    pub los: f64,
    /// Games played.
    pub games: u64,
    /// Complete colour-swapped pairs.
    pub pairs: u64,
    /// Stronger, weaker or undecided, by the 95% Elo interval.
    pub kind: EngineVerdictKind,
    /// The SPRT's state at the matchup's last logged pair (`None`: no SPRT ran
    /// on it).
    pub sprt: Option<SprtOutcome>,
    /// The SPRT's hypotheses in Elo (`elo0`, `elo1`) and its LLR bounds.
    pub sprt_elo: Option<(f64, f64)>,
    /// The SPRT's lower and upper LLR bounds (accept `H0` at or below the
    /// first, `H1` at or above the second); `None` when the experiment does not
    /// stop by SPRT.
    pub sprt_bounds: Option<(f64, f64)>,
    /// The verdict in plain words.
    pub text: String,
    /// The SPRT stopped the matchup: its interval is conditional on stopping.
    pub stopped_early: bool,
}

/// An engine comparison's outcome by its 95% Elo interval, from engine A's
/// side (the SPRT's decision is given beside it).
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum EngineVerdictKind {
    /// A is stronger: the interval lies above 0.
    Stronger,
    /// A is weaker: the interval lies below 0.
    Weaker,
    /// The interval holds 0.
    Undecided,
}

/// A piece's (or army's) rating within a group.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerRating {
    /// Army name (a piece letter in class experiments).
    pub name: String,
    /// Readable label: `N (knight)`.
    pub label: String,
    /// Rating in logistic Elo from the group's Bradley-Terry fit: its
    /// predicted head-to-head Elo against each player of the group, averaged
    /// over the group (the ratings of a group sum to 0).
    pub elo: f64,
    /// 95% interval of `elo`.
    pub elo_interval: (f64, f64),
    /// In pawns for the army, and per piece exchanged (when the group's
    /// matchups all exchange the same number of pieces).
    pub pawns: f64,
    /// 95% interval of `pawns` (Fieller; NaN where the pawn unit does not
    /// resolve sizes in pawns).
    pub pawns_interval: (f64, f64),
    /// The rating in pawns per piece exchanged (NaN when the group's matchups
    /// do not all exchange the same number of pieces).
    pub pawns_per_piece: f64,
    /// 95% interval of `pawns_per_piece`.
    pub pawns_per_piece_interval: (f64, f64),
    /// Games the player played against the group's other players.
    pub games: u64,
}

/// A pair's verdict: `equivalent`, `different`, `equivalent-stronger`
/// (equivalent within the margin, and yet one piece measurably stronger)
/// or `inconclusive`, as the `verdict` column of `tables/verdicts.csv`
/// spells them.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum VerdictKind {
    /// Equivalent: the difference per piece is shown to lie within the margin.
    Equivalent,
    /// Different: one side is shown stronger, and not equivalent.
    Different,
    /// Both: equivalent within the margin, and yet one side measurably
    /// stronger.
    #[serde(rename = "equivalent-stronger")]
    EquivalentStronger,
    /// Neither claim shown: the pair is not settled.
    Inconclusive,
}

impl VerdictKind {
    /// Whether the verdict includes equivalence within the margin.
    pub fn is_equivalent(self) -> bool {
        matches!(self, Self::Equivalent | Self::EquivalentStronger)
    }

    /// Whether the verdict shows one side stronger.
    pub fn shows_stronger(self) -> bool {
        matches!(self, Self::Different | Self::EquivalentStronger)
    }
}

/// The equivalence verdict for one pair of players.
#[derive(Clone, Debug, Serialize)]
pub struct PairVerdict {
    /// Army A's name (a piece letter in class experiments).
    pub a: String,
    /// Army B's name.
    pub b: String,
    /// A minus B in Elo for the armies, and the difference test's own
    /// interval at its level `elo_level` (it excludes 0 exactly when the
    /// verdict shows a side stronger), with the Elo's standard error.
    pub elo: f64,
    /// The difference test's interval of `elo`, at level `elo_level` (NaN when
    /// no test could be run).
    pub elo_interval: (f64, f64),
    /// Confidence level of `elo_interval` as a share (0.95 = 95%), Holm's level
    /// in force for the pair; NaN when no test could be run.
    pub elo_level: f64,
    /// Standard error of `elo`.
    pub elo_std_error: f64,
    /// Pieces the matchup exchanges (`None`: the armies differ in more, and
    /// are compared whole).
    pub pieces: Option<u32>,
    /// A minus B in pawns for the armies and per piece, in the unit the
    /// verdict's tests used, with the interval that is the verdict at level
    /// `pawns_level`: for a verdict of equivalence the equivalence interval
    /// (inside the margin), else the difference interval in pawns. NaN
    /// where the unit does not resolve a size in pawns (see
    /// [`pocketlab_stats::PawnUnit::resolves`]). The margin applies per piece.
    pub pawns: f64,
    /// The verdict's interval of `pawns`, at level `pawns_level`.
    pub pawns_interval: (f64, f64),
    /// A minus B in pawns per piece exchanged.
    pub pawns_per_piece: f64,
    /// The verdict's interval of `pawns_per_piece`, at level `pawns_level`.
    pub pawns_per_piece_interval: (f64, f64),
    /// Confidence level of the pawn intervals as a share (0.95 = 95%); NaN
    /// where no pawn figure is given.
    pub pawns_level: f64,
    /// The pawn unit the tests used (Elo per pawn and its standard error).
    pub unit_elo_per_pawn: f64,
    /// Standard error of `unit_elo_per_pawn`, Elo.
    pub unit_std_error: f64,
    /// A minus B in Elo for comparing studies, with its standard error:
    /// under the sequential design the bias-adjusted estimate (the lean of
    /// stopping at a boundary taken out, [`pocketlab_stats::sequential::adjust`]),
    /// else the plain one.
    pub elo_for_comparison: f64,
    /// Standard error of `elo_for_comparison` (NaN, like it, when the
    /// sequential design gives no adjusted estimate).
    pub elo_for_comparison_std_error: f64,
    /// Games of the matchup.
    pub games: u64,
    /// Complete colour-swapped pairs of the matchup.
    pub pairs: u64,
    /// The verdict.
    pub kind: VerdictKind,
    /// The verdict in one short sentence, e.g. "Bishop and knight:
    /// equivalent within a quarter pawn." or "Nightrider stronger than rook
    /// by 0.28 pawns (0.03 to 0.70)."; the figure it states is
    /// [`PairVerdict::stated`], and the level of its interval, the Elo, the
    /// look and the games are given beside it, not in it.
    pub text: String,
    /// Unadjusted p-values (the verdict is Holm-corrected within the group).
    pub tost_p: f64,
    /// Unadjusted two-sided p-value of no difference (NaN when no test could be
    /// run).
    pub difference_p: f64,
    /// Inconclusive: about how many more pairs of this matchup would settle it,
    /// the pawn unit as it is (`None`: no such figure, e.g. decided, or only
    /// more calibration pairs can settle it).
    pub more_pairs_needed: Option<u64>,
    /// Inconclusive, and more pairs of this matchup cannot settle it while
    /// the pawn unit is this uncertain: play more pawn-odds pairs.
    pub more_calibration_needed: bool,
    /// The matchup was stopped by the SPRT: conditional on stopping.
    pub stopped_early: bool,
    /// Under the sequential design: how the design ended it ("decided at
    /// look 3, after 75 pairs"); its intervals are then repeated
    /// confidence intervals, valid whatever look stopped it.
    pub sequential: Option<String>,
    /// Under the sequential design: the look (1-based) that decided it, or
    /// its last look.
    pub look: Option<usize>,
}

/// The interval a verdict's sentence states, so that what is printed
/// beside it does not state it again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatedInterval {
    /// The difference in pawns per piece (a difference the pawn unit resolves).
    Pawns,
    /// The difference in Elo per piece (a difference whose size in pawns is
    /// not yet known).
    Elo,
    /// No interval: the sentence says equivalent, or undecided.
    Nothing,
}

impl PairVerdict {
    /// Which of the verdict's intervals its sentence states.
    pub fn stated(&self) -> StatedInterval {
        match self.kind {
            VerdictKind::Different if self.pawns_per_piece.is_finite() => StatedInterval::Pawns,
            VerdictKind::Different => StatedInterval::Elo,
            _ => StatedInterval::Nothing,
        }
    }

    /// Pieces each side exchanges (1 for armies compared whole).
    pub fn pieces_each(&self) -> f64 {
        self.pieces.map_or(1.0, f64::from)
    }

    /// A minus B in Elo per piece exchanged, with the difference test's
    /// interval: the armies' figures divided by the pieces exchanged.
    pub fn elo_per_piece(&self) -> (f64, (f64, f64)) {
        let n = self.pieces_each();
        let (lo, hi) = self.elo_interval;
        (self.elo / n, (lo / n, hi / n))
    }
}

/// Where a class (or a group of armies) stands, by its pairs' verdicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupStatus {
    /// Every pair equivalent within the margin.
    Holds,
    /// At least one pair different.
    Fails,
    /// No pair different, and some undecided (or none measured).
    NotSettled,
}

/// Where a matchup of an adaptive study stands.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum AdaptiveStatus {
    /// Shown equivalent within the margin.
    Equivalent,
    /// Shown different.
    Different,
    /// Shown equivalent within the margin, and one side stronger.
    #[serde(rename = "equivalent-stronger")]
    EquivalentStronger,
    /// Undecided, and playing the next stage.
    Playing,
    /// Undecided at the per-matchup cap.
    Cap,
    /// Undecided: the study's budget did not pay for its next stage.
    Budget,
    /// The calibration, stopped when no pair of pieces needed it any more.
    CalibrationDone,
}

impl AdaptiveStatus {
    /// As the CSV tables spell it (serde's name).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Equivalent => "equivalent",
            Self::Different => "different",
            Self::EquivalentStronger => "equivalent-stronger",
            Self::Playing => "playing",
            Self::Cap => "cap",
            Self::Budget => "budget",
            Self::CalibrationDone => "calibration-done",
        }
    }
}

/// One matchup of an adaptive study: when it was decided and what it cost.
#[derive(Clone, Debug, Serialize)]
pub struct AdaptiveMatchup {
    /// The matchup's name, as in the experiment file.
    pub name: String,
    /// `R (rook) vs I (nightrider)`.
    pub label: String,
    /// Decided (and how), still playing, or stopped undecided.
    pub status: AdaptiveStatus,
    /// The look (1-based) that decided it, or its last look.
    pub look: usize,
    /// Pairs played through its last look.
    pub pairs: u64,
    /// Games played through its last look (two per pair).
    pub games: u64,
    /// For an undecided matchup: about how many more pairs would settle it
    /// (a fixed-sample planning figure at its Holm level).
    pub more_pairs_needed: Option<u64>,
    /// How it ended, in words.
    pub text: String,
}

/// The sequential-equivalence design of a study, and what it did.
#[derive(Clone, Debug, Serialize)]
pub struct AdaptiveSummary {
    /// How the design spends its α over the looks, as the experiment file
    /// spells it (`haybittle-peto`, `obrien-fleming` or `pocock`).
    pub spending: String,
    /// Pairs per matchup between two looks.
    pub look_every: u64,
    /// Pairs per matchup at most (the calibration's too).
    pub max_pairs: u64,
    /// Games the whole study may play (`None`: no limit but the caps).
    pub budget_games: Option<u64>,
    /// The equivalence margin, pawns per piece exchanged.
    pub margin_pawns: f64,
    /// Error rate of each kind of claim per class (Holm), e.g. 0.05.
    pub alpha: f64,
    /// The calibration stops once no open pair of pieces has this chance
    /// of an equivalence verdict (`None`: it plays while any is open).
    pub calibration_futility: Option<f64>,
    /// Looks the design plans, the last at `max_pairs`.
    pub looks_planned: usize,
    /// Looks taken so far.
    pub looks_done: usize,
    /// The stage still to play (`None`: the study is over).
    pub next_stage: Option<usize>,
    /// Games through the last look, and what the fixed design (every
    /// matchup and the calibration at `max_pairs`) would play.
    pub games: u64,
    /// Games the fixed design would play.
    pub fixed_games: u64,
    /// Pairs of pieces decided.
    pub decided: usize,
    /// One sentence.
    pub text: String,
    /// The pawn-odds matchup that calibrates the study (`None`: it has none).
    pub calibration: Option<AdaptiveMatchup>,
    /// The pairs of pieces, in experiment order.
    pub matchups: Vec<AdaptiveMatchup>,
}

/// Players rated together: a class of pieces, or any connected set of armies.
#[derive(Clone, Debug, Serialize)]
pub struct RatingGroup {
    /// `Class 3: rook, nightrider, super bishop` or `Armies: a, b, c`.
    pub title: String,
    /// The class, when every player is a piece of one class (`None`: a group of
    /// armies).
    pub class: Option<u8>,
    /// Pieces every matchup of the group exchanges, when they agree.
    pub pieces: Option<u32>,
    /// Each player's rating, in the experiment's army order (empty when the fit
    /// failed).
    pub players: Vec<PlayerRating>,
    /// White's advantage in Elo, from the group's Bradley-Terry fit (NaN
    /// when the fit failed).
    pub white_advantage_elo: f64,
    /// Davidson's draw parameter ν of the fit: P(draw)/P(win) between equal
    /// players, White's advantage removed (NaN when the fit failed).
    pub draw_parameter: f64,
    /// The verdict of every pair that met directly, in experiment order,
    /// Holm-corrected together.
    pub pairs: Vec<PairVerdict>,
    /// One line for the whole group: holds, fails or not settled, and how
    /// many pairs say so.
    pub summary: String,
    /// What a designer could change, from the verdicts: the piece that
    /// stands apart, the order of the pieces, the pairs still open.
    pub advice: String,
    /// `matrix[i][j]`: player i's score against player j (None: never met).
    pub matrix: Vec<Vec<Option<f64>>>,
    /// Games behind each cell.
    pub matrix_games: Vec<Vec<u64>>,
}

impl RatingGroup {
    /// Holds, fails or not settled, by the verdicts of its pairs.
    pub fn status(&self) -> GroupStatus {
        group_status(&self.pairs)
    }
}

/// Holds when every pair is equivalent, fails when any is different, else
/// not settled (no pair at all included).
pub fn group_status(pairs: &[PairVerdict]) -> GroupStatus {
    if pairs.iter().any(|p| p.kind == VerdictKind::Different) {
        GroupStatus::Fails
    } else if !pairs.is_empty() && pairs.iter().all(|p| p.kind.is_equivalent()) {
        GroupStatus::Holds
    } else {
        GroupStatus::NotSettled
    }
}

/// Game-balance figures like the published studies report them.
#[derive(Clone, Debug, Serialize)]
pub struct GameBalance {
    /// Games logged, over every matchup.
    pub games: u64,
    /// White's mean score per game, 0..1 (NaN without games).
    pub white_score: f64,
    /// 95% interval of `white_score`, the colour-swapped pair taken as the
    /// independent unit, clipped to 0..1.
    pub white_score_interval: (f64, f64),
    /// Share of games drawn, 0..1 (NaN without games).
    pub draw_rate: f64,
    /// Share of games won by either side, 0..1 (1 minus `draw_rate`).
    pub decisive_rate: f64,
    /// `(termination, games)`, most frequent first.
    pub terminations: Vec<(String, u64)>,
    /// How long the games were, plies.
    pub length: LengthStats,
    /// Mean legal moves per position over a sample of logged positions.
    pub branching_factor: Option<f64>,
    /// Positions behind `branching_factor` (those of the first 20 pairs of
    /// every matchup, replayed).
    pub branching_sample: u64,
    /// How deep and how wide the searches of the games went, one entry per
    /// engine setting that moved (empty: no searched move logged a depth).
    pub search_depth: Vec<SearchDepth>,
}

/// The depths one engine setting's searches reached and the nodes they
/// searched, over every move it searched.
#[derive(Clone, Debug, Serialize)]
pub struct SearchDepth {
    /// The armies that moved with this engine setting, sorted (their names
    /// label the figures when the games had more than one setting).
    pub armies: Vec<String>,
    /// Median depth reached, plies.
    pub median: f64,
    /// Mean depth reached, plies.
    pub mean: f64,
    /// Mean nodes searched per move (an external engine's as its last
    /// `info` line said).
    pub mean_nodes: f64,
    /// Searched moves behind the figures.
    pub moves: u64,
}

/// How long the games were, in plies (NaN figures and no histogram without
/// games).
#[derive(Clone, Debug, Serialize)]
pub struct LengthStats {
    /// Mean length, plies.
    pub mean: f64,
    /// Median length, plies.
    pub median: f64,
    /// 10th percentile of the lengths, plies.
    pub p10: f64,
    /// 90th percentile of the lengths, plies.
    pub p90: f64,
    /// `(from ply, to ply exclusive, games)`.
    pub histogram: Vec<(u32, u32, u64)>,
}

/// How often each piece type takes part in pocket moves, over all games.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PieceUse {
    /// The piece's letter in the variant.
    pub letter: String,
    /// The piece's name, as in the variant file.
    pub name: String,
    /// Pieces of this type put in a pocket (any choice).
    pub pocket_ins: u64,
    /// Mutations away from / into this type (ranks 1-7).
    pub mutated_from: u64,
    /// Mutations into this type.
    pub mutated_into: u64,
    /// Promotions (by pocketing from the last rank, or FIDE) into this type.
    pub promoted_into: u64,
    /// Drops of this type from a pocket onto the board.
    pub drops: u64,
}

/// The value of a piece standing on one colour of a square-colour map.
#[derive(Clone, Debug, Serialize)]
pub struct ColourValue {
    /// The map letter (`Y`) and the colour's name (`yellow`).
    pub letter: String,
    /// The colour's name (`yellow`).
    pub name: String,
    /// The Betza move of a piece standing there.
    pub betza: String,
    /// Squares of this colour on the board.
    pub squares: u32,
    /// Mean number of pieces (both sides, kings excepted) standing on this
    /// colour in the sampled positions.
    pub occupancy: f64,
    /// Value of one piece standing here, in average pieces (1.00 = the
    /// value of a piece averaged over where pieces stood), with its 95%
    /// bootstrap interval (NaN when too few games had a piece there).
    pub value: f64,
    /// 95% bootstrap interval of `value` (NaN when too few games had a piece
    /// there).
    pub interval: (f64, f64),
}

/// What standing on each colour is worth, fitted to game results: a
/// logistic regression of the result on the number of pieces each side has
/// on each colour, over quiet positions of the logged games.
#[derive(Clone, Debug, Serialize)]
pub struct ColourValues {
    /// Quiet positions sampled from the logged games.
    pub positions: u64,
    /// Games behind the fit (0 when nothing could be fitted).
    pub games: u64,
    /// Each colour of the map, in the map's order.
    pub colours: Vec<ColourValue>,
    /// The map as written, rank 8 first.
    pub map: Vec<String>,
    /// Value of a piece per square (a1 = 0), seen from its owner's side
    /// (Black's squares mirrored onto White's), shrunk towards its colour's
    /// value; `None` where too few games had a piece there.
    pub squares: Vec<Option<f64>>,
}

/// A whole balance report.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Where the report came from, for reproduction.
    pub experiment: ExperimentInfo,
    /// The headline verdicts in plain words, most important first.
    pub headlines: Vec<String>,
    /// How Elo converts to pawns in every figure and test of the report.
    pub calibration: Calibration,
    /// The equivalence margin in pawns per piece, and in Elo per piece at
    /// the point calibration (NaN without a positive pawn unit).
    pub margin_pawns: f64,
    /// The margin in Elo per piece at the point calibration (NaN without a
    /// positive pawn unit).
    pub margin_elo: f64,
    /// Every logged matchup, in experiment order.
    pub matchups: Vec<MatchupStats>,
    /// Published figures for matchups, beside the lab's (empty when the
    /// experiment file gives none).
    pub published: Vec<PublishedCheck>,
    /// Players rated together, ordered by class (empty for a value-scale
    /// experiment, which rates every piece on its scale instead).
    pub groups: Vec<RatingGroup>,
    /// Matchups that compare engines (their armies differ in nothing else).
    pub engines: Vec<EngineVerdict>,
    /// The game's balance over every logged game.
    pub balance: GameBalance,
    /// Pocket use of each piece type that took part in a pocket move, by
    /// letter.
    pub pocket_use: Vec<PieceUse>,
    /// Present when the variant has a square-colour map (Chess Mutation).
    pub colour_values: Option<ColourValues>,
    /// Present for a study under the sequential-equivalence design.
    pub adaptive: Option<AdaptiveSummary>,
    /// Present for an experiment with a value scale.
    pub value_scale: Option<ValueScale>,
    /// Caveats a reader must know (assumed calibration, small samples…).
    pub notes: Vec<String>,
    /// Present when the report belongs to a training run.
    pub training: Option<TrainingSummary>,
    /// A few real games per matchup, replayed for the game viewer.
    pub shown_games: ShownGames,
}

/// Games a designer can replay: per matchup the shortest decisive win each
/// way and a game of median length (see [`super::games`]).
#[derive(Clone, Debug, Default, Serialize)]
pub struct ShownGames {
    /// The chosen games that replayed, matchup by matchup.
    pub games: Vec<ShownGame>,
    /// Why no game is drawn: a variant whose positions the viewer cannot
    /// draw (its games are still listed), or a log that keeps no moves.
    pub not_drawn: Option<String>,
    /// Chosen games that did not replay, each with its reason.
    pub problems: Vec<String>,
}

/// One chosen game, replayed through the lab's rules: what the viewer
/// embeds and the check of [`super::games::check_shown_game`] compares.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShownGame {
    /// The game's id in the log.
    pub game_id: u64,
    /// The matchup's name, as in the experiment file.
    pub matchup: String,
    /// Why it was chosen ("shortest win for Bishop", "median length").
    pub why: String,
    /// The name of the army that played White.
    pub white: String,
    /// The name of the army that played Black.
    pub black: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// How the game ended, as logged (`checkmate`, `repetition`, …).
    pub termination: String,
    /// The game's length, plies.
    pub plies: u32,
    /// The start position's text.
    pub start: String,
    /// The moves as logged, in the lab's notation.
    pub moves: Vec<String>,
    /// The moves as a reader reads them (SAN where the variant has it),
    /// with the move number before White's moves and a first Black move.
    pub move_texts: Vec<String>,
    /// Files of the board (with `ranks`, its size).
    pub files: u8,
    /// Ranks of the board.
    pub ranks: u8,
    /// The position at each ply, the start first; empty when the
    /// variant's positions cannot be drawn.
    pub positions: Vec<DrawnPosition>,
}

/// A position as the viewer draws it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawnPosition {
    /// The position's text (FEN with the pockets in brackets).
    pub text: String,
    /// Ranks from the top (Black's side) down, one letter per square
    /// (upper case White, lower case Black), `.` where empty.
    pub rows: Vec<String>,
    /// White's pocket, then Black's, as letters.
    pub pockets: [String; 2],
}

/// A piece's learned value, in pawns, with intervals.
#[derive(Clone, Debug, Serialize)]
pub struct LearnedPiece {
    /// The piece's letter in the variant.
    pub letter: String,
    /// The piece's name, as in the variant file.
    pub name: String,
    /// Its class in the variant's class table (1-based; `None`: not in the
    /// table).
    pub class: Option<u8>,
    /// Its value on the board after the last generation, pawns (the pawn is 1).
    pub value: f64,
    /// 95% bootstrap interval of `value` (NaN when too little evidence to
    /// measure it).
    pub interval: (f64, f64),
    /// Its value in a pocket after the last generation, pawns (NaN when none
    /// was learned).
    pub pocket_value: f64,
    /// 95% bootstrap interval of `pocket_value` (NaN when not measured).
    pub pocket_interval: (f64, f64),
    /// Rating relative to its class from direct matches, when compared.
    pub direct_relative: Option<f64>,
    /// Learned value relative to its class's mean, for the same comparison.
    pub learned_relative: f64,
}

/// Orthodox values next to published ones (pawns).
#[derive(Clone, Debug, Serialize)]
pub struct PublishedValue {
    /// The piece's letter in the variant.
    pub letter: String,
    /// Its value learned by training, pawns.
    pub learned: f64,
    /// Kaufman's value (1999, chess) for the piece with the same move, pawns.
    pub kaufman_1999: f64,
    /// The AlphaZero study's value (Tomašev et al. 2020, chess) for the piece
    /// with the same move, pawns.
    pub alphazero_2020: f64,
}

/// Trained against starting values in a seeded match.
#[derive(Clone, Debug, Serialize)]
pub struct ValidationMatch {
    /// Games of complete colour-swapped pairs, every matchup of the match
    /// pooled.
    pub games: u64,
    /// Trained values minus starting values, Elo.
    pub elo: f64,
    /// 95% interval of `elo`.
    pub elo_interval: (f64, f64),
    /// The result in one sentence, with the variant's own army and the random
    /// armies also given apart.
    pub text: String,
}

/// What self-play training learned, for the report.
#[derive(Clone, Debug, Serialize)]
pub struct TrainingSummary {
    /// Generations fitted.
    pub generations: usize,
    /// Whether the values settled: the last generation's fit reached its
    /// optimum and moved no value by more than the training's tolerance.
    pub converged: bool,
    /// Board values (pawns) per generation, by letter: the convergence plot.
    pub history: Vec<(u32, Vec<(String, f64)>)>,
    /// The last generation's learned values, one per piece, by class then
    /// value.
    pub pieces: Vec<LearnedPiece>,
    /// Groups of pieces whose learned values cannot be told apart, lowest first.
    pub suggested_classes: Vec<Vec<String>>,
    /// The class table the learned values and direct matches propose.
    pub proposal: Option<ProposedTable>,
    /// Sentences: pieces whose learned value places them in another class,
    /// and disagreements with the direct matches.
    pub findings: Vec<String>,
    /// Learned values of the pieces whose move has published values, beside
    /// them (empty when none has).
    pub published: Vec<PublishedValue>,
    /// The match of trained against starting values (`None`: not played).
    pub validation: Option<ValidationMatch>,
    /// The file the learned values are saved in (its path).
    pub final_params: String,
}

/// A class table proposed from the evidence (`training::proposal`).
#[derive(Clone, Debug, Serialize)]
pub struct ProposedTable {
    /// The classes, lowest first.
    pub classes: Vec<ProposedClass>,
    /// The pieces that change class.
    pub moves: Vec<ProposedMove>,
    /// Pieces that share a class in the proposal and not in the variant:
    /// the pairs a confirmation run has to play.
    pub new_pairs: Vec<(String, String)>,
    /// Pairs within a proposed class that the compared studies have
    /// already decided, with their verdict and pawns per piece (A minus B).
    pub measured_pairs: Vec<(String, String, VerdictKind, f64)>,
}

/// One class of a proposed table.
#[derive(Clone, Debug, Serialize)]
pub struct ProposedClass {
    /// The class's number, as the variant numbers its classes (1-based).
    pub class: u8,
    /// Letters with their values on the common scale (pawns), lowest first.
    pub pieces: Vec<(String, f64)>,
    /// Mean value of its pieces on the common scale, pawns.
    pub mean: f64,
    /// Highest value less lowest.
    pub spread: f64,
}

/// A piece the proposal moves.
#[derive(Clone, Debug, Serialize)]
pub struct ProposedMove {
    /// The piece's letter in the variant.
    pub letter: String,
    /// The piece's name, as in the variant file.
    pub name: String,
    /// On the common scale, pawns.
    pub value: f64,
    /// Its class in the variant today.
    pub from: u8,
    /// The class the proposal puts it in.
    pub to: u8,
}

/// A verdict for tests: A minus B by `elo` for the armies (2 pieces
/// exchanged, 100 Elo a pawn), an interval of ±24 Elo at 95%, 2,000 games.
#[cfg(test)]
pub(crate) fn example_verdict(a: &str, b: &str, elo: f64, kind: VerdictKind) -> PairVerdict {
    let per_piece = |x: f64| x / 200.0;
    PairVerdict {
        a: a.into(),
        b: b.into(),
        elo,
        elo_interval: (elo - 24.0, elo + 24.0),
        elo_level: 0.95,
        elo_std_error: 12.0,
        pieces: Some(2),
        pawns: elo / 100.0,
        pawns_interval: ((elo - 24.0) / 100.0, (elo + 24.0) / 100.0),
        pawns_per_piece: per_piece(elo),
        pawns_per_piece_interval: (per_piece(elo - 24.0), per_piece(elo + 24.0)),
        pawns_level: 0.95,
        unit_elo_per_pawn: 100.0,
        unit_std_error: 10.0,
        elo_for_comparison: elo,
        elo_for_comparison_std_error: 12.0,
        games: 2000,
        pairs: 1000,
        kind,
        text: String::new(),
        tost_p: 0.5,
        difference_p: 0.001,
        more_pairs_needed: (kind == VerdictKind::Inconclusive).then_some(400),
        more_calibration_needed: false,
        stopped_early: false,
        sequential: None,
        look: None,
    }
}
