//! The value-scale section as data: every piece on one scale, the class
//! tables it supports, and where the design stands. Numbers that do not
//! exist (a piece without a value, a figure in pawns without a bounded
//! unit) are NaN, rendered as empty cells or "not yet known".

use serde::Serialize;

/// Every piece of a value-scale study on one scale.
#[derive(Clone, Debug, Serialize)]
pub struct ValueScale {
    /// The square the pieces are exchanged on (`b1`).
    pub square: String,
    /// Valued pieces from the lowest value up, then the pieces without one.
    pub pieces: Vec<ScalePiece>,
    /// Each valued piece against the next one up the scale.
    pub adjacent: Vec<ScaleAdjacent>,
    /// The pawn's value, the unit of every figure in pawns (`None`: the
    /// pawn has no value yet).
    pub unit: Option<ScaleUnit>,
    /// Whether the matchups agree with one additive scale (`None`: no more
    /// matchups than values).
    pub consistency: Option<ScaleConsistency>,
    /// The variant's class table today, its classes placed on the scale.
    pub today: ScaleTable,
    /// The table with the variant's number of classes that minimises the
    /// largest within-class spread.
    pub best: Option<ScaleTable>,
    /// The fewest classes whose estimates are all within `within_pawns`.
    pub fewest: Option<ScaleTable>,
    /// The margin of `fewest`, pawns.
    pub within_pawns: f64,
    /// How many classes a table that holds needs at least.
    pub distinct: Option<ScaleDistinct>,
    /// With class studies' verdicts taken as known (`report --verdicts`):
    /// the pairs they found different kept apart too, the bound that gives
    /// and the table that can still hold (`None`: no verdicts given).
    pub known: Option<ScaleKnown>,
    /// Why a table is missing, in words.
    pub table_note: Option<String>,
    /// Every precision target of the design and where it stands.
    pub targets: Vec<ScaleTarget>,
    /// Where the design stands (`None`: the experiment's `[stop]` is not
    /// the value-scale design).
    pub design: Option<ScaleDesign>,
    /// The proposed table as a variant file, `proposed-classes.toml`: the
    /// table of `known` that can still hold when verdicts are given, else
    /// the best table with the variant's number of classes (`None`:
    /// no table, or pieces of the variant's classes not on the scale;
    /// `proposal_note` says why).
    pub proposed_variant: Option<String>,
    /// Why there is no proposed variant file, in words (`None` when there is
    /// one).
    pub proposal_note: Option<String>,
    /// The command that confirms the proposed table (present exactly when
    /// `proposed_variant` is): a class study of `proposed-classes.toml`'s
    /// new pairs with the scale's player (its nodes and evaluation), files
    /// named from the working directory.
    pub confirmation: Option<String>,
    /// Published values of the scale's pieces beside the lab's
    /// ([`crate::published_values`]).
    pub published: Vec<ScalePublished>,
}

/// A published value (or difference) beside the scale's.
#[derive(Clone, Debug, Serialize)]
pub struct ScalePublished {
    /// Who published it, for which game.
    pub source: String,
    /// The piece's letter and name (`N (knight)`), or two pieces' for a
    /// difference (`C (cardinal) − Q (queen)`).
    pub what: String,
    /// Whether the figure is a difference of two pieces' values.
    pub difference: bool,
    /// The published figure, pawns.
    pub published_pawns: f64,
    /// The lab's, with its 95% interval (NaN where the pawn unit does not
    /// bound it).
    pub lab_pawns: f64,
    /// Lower end of the lab's 95% interval, pawns.
    pub lab_lo: f64,
    /// Upper end of the lab's 95% interval, pawns.
    pub lab_hi: f64,
    /// Where the published figure stands against the lab's interval.
    pub agreement: super::PublishedAgreement,
}

/// One piece on the scale.
#[derive(Clone, Debug, Serialize)]
pub struct ScalePiece {
    /// The piece's letter in the variant.
    pub letter: String,
    /// The piece's name, as in the variant file.
    pub name: String,
    /// Its class in the variant's table today.
    pub class: Option<u8>,
    /// Value in pawns with its 95% interval (Fieller's, with the unit's
    /// uncertainty); NaN where the unit does not bound it.
    pub pawns: f64,
    /// Lower end of the 95% interval of `pawns`.
    pub pawns_lo: f64,
    /// Upper end of the 95% interval of `pawns`.
    pub pawns_hi: f64,
    /// Value in logistic Elo against the empty square with its 95%
    /// interval; NaN without a value.
    pub elo: f64,
    /// Lower end of the 95% interval of `elo`.
    pub elo_lo: f64,
    /// Upper end of the 95% interval of `elo`.
    pub elo_hi: f64,
    /// The standard errors of `elo` and (by the delta method, the unit's
    /// error and covariance included) of `pawns`; NaN where missing.
    pub elo_std_error: f64,
    /// Standard error of `pawns`.
    pub pawns_std_error: f64,
    /// Pairs played by the matchups the piece is in.
    pub pairs: u64,
    /// Why it has no value, in words (`None` when it has one).
    pub missing: Option<String>,
}

/// A piece against the next one up the scale.
#[derive(Clone, Debug, Serialize)]
pub struct ScaleAdjacent {
    /// Letters: the lower piece and the next one up.
    pub lower: String,
    /// The next piece up the scale.
    pub upper: String,
    /// `upper - lower` in pawns with its 95% interval (NaN where the unit
    /// does not bound it), and in Elo.
    pub pawns: f64,
    /// Lower end of the 95% interval of `pawns`.
    pub pawns_lo: f64,
    /// Upper end of the 95% interval of `pawns`.
    pub pawns_hi: f64,
    /// `upper - lower` in logistic Elo.
    pub elo: f64,
    /// Lower end of the 95% interval of `elo`.
    pub elo_lo: f64,
    /// Upper end of the 95% interval of `elo`.
    pub elo_hi: f64,
}

/// The pawn's value as the unit of the scale.
#[derive(Clone, Debug, Serialize)]
pub struct ScaleUnit {
    /// Elo per pawn and its 95% interval.
    pub elo: f64,
    /// Lower end of the 95% interval of `elo`.
    pub elo_lo: f64,
    /// Upper end of the 95% interval of `elo`.
    pub elo_hi: f64,
    /// Half-width over value: every figure in pawns is at best this precise.
    pub relative_precision: f64,
    /// Whether the value is shown positive (without it, no figure in pawns).
    pub shown_positive: bool,
}

/// The residual check of the fit.
#[derive(Clone, Debug, Serialize)]
pub struct ScaleConsistency {
    /// Pearson's statistic of the fit on one additive scale: the sum of the
    /// matchups' squared Pearson residuals.
    pub chi_square: f64,
    /// Matchups used minus pieces valued.
    pub degrees_of_freedom: usize,
    /// Chance of a statistic this large were the scale additive (small: some
    /// exchange is not worth the difference of the two values, e.g. a piece
    /// whose worth depends on the square or the army).
    pub p_value: f64,
    /// Standard deviation of a matchup's departure from the difference of
    /// its two values beyond chance, Elo (0: none shown); every interval
    /// carries it.
    pub departure: f64,
    /// The matchups that depart most from the scale (largest Pearson
    /// residuals in size, at most three), the largest first.
    pub departing: Vec<ScaleDeparture>,
}

/// A matchup and how far it departs from the scale.
#[derive(Clone, Debug, Serialize)]
pub struct ScaleDeparture {
    /// The experiment's index of the matchup.
    pub matchup: usize,
    /// Its name.
    pub name: String,
    /// Its Pearson residual on one additive scale (positive: army A did
    /// better than the two values say).
    pub residual: f64,
}

/// The least number of classes a table that holds needs: pairs shown to
/// differ by more than the margin (Holm across every pair of valued pieces
/// at `alpha`) cannot share a class.
#[derive(Clone, Debug, Serialize)]
pub struct ScaleDistinct {
    /// Classes at least (the chromatic number of the pairs shown apart).
    pub classes_needed: usize,
    /// The largest set of pieces that pairwise differ by more than the
    /// margin, by letter from the lowest value up.
    pub pieces: Vec<String>,
    /// Pairs tested and pairs shown apart.
    pub pairs_tested: usize,
    /// Pairs shown to differ by more than the margin.
    pub pairs_apart: usize,
    /// The margin, pawns, and the family-wise error rate of the claims.
    pub margin_pawns: f64,
    /// The family-wise error rate of the claims, as a share (0.05 = 5%).
    pub alpha: f64,
    /// The classes today's table has among the scale's pieces.
    pub classes_today: usize,
}

/// Class studies' verdicts beside the scale: a pair a study found
/// different cannot share a class of a table that holds, any more than a
/// pair the scale shows beyond the margin.
#[derive(Clone, Debug, Serialize)]
pub struct ScaleKnown {
    /// The class studies (experiment names) whose verdicts count.
    pub sources: Vec<String>,
    /// The pairs they found different among the scale's pieces, as `R–I`.
    pub different: Vec<String>,
    /// The pairs they found equivalent within their margin, as `B–N`.
    pub equivalent: Vec<String>,
    /// Different pairs the scale did not already show beyond the margin.
    pub pairs_added: usize,
    /// Classes at least a table that holds needs, both kinds of pair kept
    /// apart (the chromatic number of their graph).
    pub classes_needed: usize,
    /// A largest set of pieces every two of which are kept apart, by letter
    /// from the lowest value up.
    pub pieces: Vec<String>,
    /// The fewest contiguous classes of the scale that keep every such pair
    /// apart, every other pair of a class within the margin by the
    /// estimates or found equivalent, the smallest largest spread among
    /// them (`None`: no table).
    pub table: Option<ScaleTable>,
    /// The pairs within one class of `table` that no class study found
    /// equivalent, as `C–H`: what its confirmation has to play (empty: the
    /// table stands on the verdicts already played).
    pub unconfirmed: Vec<String>,
}

/// A class table on the scale.
#[derive(Clone, Debug, Serialize)]
pub struct ScaleTable {
    /// Classes from the lowest up, each its pieces' letters from the lowest
    /// value up.
    pub classes: Vec<Vec<String>>,
    /// Each class's spread (highest minus lowest value) and the largest.
    pub spreads: Vec<f64>,
    /// The largest of `spreads`, in `units`.
    pub largest_spread: f64,
    /// `"pawns"` or `"Elo"`.
    pub units: String,
    /// Share of bootstrap draws of the values giving the same table (for
    /// today's table: in which the best table with as many classes is
    /// today's); NaN when not computed.
    pub stability: f64,
    /// Bootstrap draws behind the share.
    pub draws: usize,
}

impl ScaleTable {
    /// Every pair of pieces within one class, by letter, class by class.
    pub fn within_class_pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.classes.iter().flat_map(|class| {
            class.iter().enumerate().flat_map(move |(i, a)| {
                class[i + 1..].iter().map(move |b| (a.as_str(), b.as_str()))
            })
        })
    }
}

/// One precision target of the design.
#[derive(Clone, Debug, Serialize)]
pub struct ScaleTarget {
    /// What is measured: `"pawn unit"` or `"N to B"`.
    pub label: String,
    /// The current half-width (a share of the pawn's value for the unit,
    /// pawns otherwise; ∞ while unbounded) and the goal.
    pub half_width: f64,
    /// The largest half-width the design aims for, in the same units.
    pub goal: f64,
    /// Whether `half_width` is within `goal`.
    pub met: bool,
    /// Whether the figures are shares (the unit) rather than pawns.
    pub relative: bool,
    /// The half-width the departures leave however many pairs are played
    /// (NaN: no floor, for the unit or without departures).
    pub floor: f64,
    /// Not met, and with 95% confidence the departures keep it from ever
    /// being met by more pairs of the same matchups.
    pub out_of_reach: bool,
    /// Out of reach and within a tenth of its floor: the design no longer
    /// pursues it.
    pub settled: bool,
}

/// Where the value-scale design stands.
#[derive(Clone, Debug, Serialize)]
pub struct ScaleDesign {
    /// Stages complete in the log (0 when the log is off design).
    pub stages_done: usize,
    /// Games of the complete stages.
    pub games: u64,
    /// The stage to play next (`None`: the study is over).
    pub next_stage: Option<usize>,
    /// The design's settings and its state, in words.
    pub text: String,
    /// Set when the log holds pairs the design never planned: the fit uses
    /// every logged pair, the design's state is not known.
    pub off_design: Option<String>,
}
