//! A learned correction to the evaluation: a small network over where each
//! piece stands, added to the hand-written terms.
//!
//! The inputs are generic over variant files: one per (side, piece letter,
//! square) seen from the side to move (its own pieces first, squares
//! mirrored rank for rank when Black is to move) and one per (side, piece
//! letter) counting pocketed pieces. One hidden layer of clipped units
//! (linear, or squared: [`Activation`]) feeds one output in centipawns for
//! the side to move. The layer may read the position twice ([`Views`]):
//! from the mover's side and, with the same input weights, from the other
//! side's, each view with output weights of its own, as Stockfish's
//! networks do. The weights are integers, so a position's correction is
//! the same on every machine and for every thread count; `pocketlab tune
//! --network` fits them.
//!
//! A piece whose letter the network does not list adds no input: a network
//! fitted for one army reads the pieces it knows in another.

use serde::{Deserialize, Serialize};

use crate::position::Position;
use crate::types::{Bitboard, ByColor, Color, MAX_PIECE_TYPES, PieceType, Square};
use crate::variant::Variant;

/// A hidden unit's full activation in the units of the input weights and
/// biases: an activation runs from 0 to this.
pub const ACTIVATION_ONE: i32 = 256;
/// Output weights are in 1/`OUTPUT_UNIT` centipawn per full activation.
pub const OUTPUT_UNIT: i64 = 16;
/// Most hidden units a network may have.
pub const MAX_HIDDEN: usize = 1024;
/// Most output buckets a network may have.
pub const MAX_BUCKETS: usize = 16;
/// The king-bucket counts a network may have ([`Network::king_buckets`]).
pub const KING_BUCKET_COUNTS: [usize; 3] = [1, 2, 4];
/// Largest input weight or hidden bias (in absolute value): with at most
/// 64 board pieces and 2 × 32 pocket counts of at most 255, no hidden sum
/// can overflow.
pub const MAX_INPUT_WEIGHT: i32 = 1 << 14;
/// Largest output weight or output bias (in absolute value).
pub const MAX_OUTPUT_WEIGHT: i32 = 1 << 20;

/// From which sides the hidden layer reads a position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Views {
    /// The mover's side only: one output weight per hidden unit.
    #[default]
    Mover,
    /// The mover's side, then the other side's (the same input weights,
    /// the board seen as if the other side were to move): two output
    /// weights per hidden unit, the mover's view's first.
    Both,
}

impl Views {
    /// How many times the hidden layer is read.
    pub fn count(self) -> usize {
        match self {
            Views::Mover => 1,
            Views::Both => 2,
        }
    }

    /// The name a file gives it.
    pub fn name(self) -> &'static str {
        match self {
            Views::Mover => "mover",
            Views::Both => "both",
        }
    }
}

impl std::str::FromStr for Views {
    type Err = String;

    fn from_str(name: &str) -> Result<Views, String> {
        [Views::Mover, Views::Both]
            .into_iter()
            .find(|v| v.name() == name)
            .ok_or_else(|| format!("'{name}' is not a view: mover or both"))
    }
}

/// What a hidden unit passes on of its sum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Activation {
    /// The sum clipped to 0 to one full activation.
    #[default]
    Clipped,
    /// The clipped sum squared (in full activations): small sums count
    /// little, which lets few units say more.
    Squared,
}

impl Activation {
    /// The name a file gives it.
    pub fn name(self) -> &'static str {
        match self {
            Activation::Clipped => "clipped",
            Activation::Squared => "squared",
        }
    }
}

impl std::str::FromStr for Activation {
    type Err = String;

    fn from_str(name: &str) -> Result<Activation, String> {
        [Activation::Clipped, Activation::Squared]
            .into_iter()
            .find(|a| a.name() == name)
            .ok_or_else(|| format!("'{name}' is not an activation: clipped or squared"))
    }
}

/// The network as a parameter file holds it (`[network]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Network {
    /// The piece letters of the inputs, in input order (upper case).
    pub pieces: String,
    /// Hidden units.
    pub hidden: usize,
    /// From which sides the hidden layer reads the position (a file
    /// without the key: the mover's only).
    #[serde(default)]
    pub views: Views,
    /// The hidden units' activation (a file without the key: clipped).
    #[serde(default)]
    pub activation: Activation,
    /// Output buckets: the output layer has one set of weights and a bias
    /// per bucket, chosen by the material on the board and in the pockets
    /// ([`NetworkInputs::bucket`]), so that an endgame weighs the hidden
    /// units otherwise than the opening (a file without the key: 1, one
    /// output layer for every position).
    #[serde(default = "one_bucket")]
    pub buckets: usize,
    /// King buckets: the input layer has one set of weights per bucket of
    /// where the reading side's royal piece stands, seen from its side
    /// ([`NetworkInputs::king_bucket`]), so that a piece near a sheltered
    /// king may weigh otherwise than near an exposed one. 1 (a file
    /// without the key): one set; 2: the royal piece on its first rank, or
    /// farther; 4: on its first rank on files c to f, on its first rank on
    /// files a, b, g or h, on its second rank, farther.
    #[serde(default = "one_bucket")]
    pub king_buckets: usize,
    /// Input weights, feature by feature: `hidden` values per input (see
    /// [`Network::inputs`] for the order).
    pub input: Vec<i32>,
    /// One bias per hidden unit.
    pub bias: Vec<i32>,
    /// Output weights: per bucket (the least material first), one per
    /// hidden unit and view, the mover's view's units first.
    pub output: Vec<i32>,
    /// Added to the output, in centipawns: one per bucket (a file writes a
    /// single number for one bucket, a list for more).
    #[serde(deserialize_with = "one_or_many")]
    pub output_bias: Vec<i32>,
}

fn one_bucket() -> usize {
    1
}

/// `output_bias` as a number (one bucket) or a list (one per bucket).
fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<i32>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(i32),
        Many(Vec<i32>),
    }
    Ok(match OneOrMany::deserialize(d)? {
        OneOrMany::One(v) => vec![v],
        OneOrMany::Many(v) => v,
    })
}

impl Network {
    /// Inputs, king bucket by king bucket: within a bucket, for the side
    /// to move then the other side, per listed piece, 64 squares; then for
    /// each side per listed piece its pocket count.
    pub fn inputs(&self) -> usize {
        Self::inputs_for(self.pieces.len(), self.king_buckets)
    }

    /// [`Network::inputs`] for a network of `pieces` letters and
    /// `king_buckets` king buckets.
    pub fn inputs_for(pieces: usize, king_buckets: usize) -> usize {
        king_buckets * Self::bucket_inputs(pieces)
    }

    /// Whether a network may have `count` king buckets (one of
    /// [`KING_BUCKET_COUNTS`]); the reason when not.
    pub fn check_king_buckets(count: usize) -> Result<(), String> {
        if KING_BUCKET_COUNTS.contains(&count) {
            Ok(())
        } else {
            Err(format!("{count} is not one of {KING_BUCKET_COUNTS:?}"))
        }
    }

    /// The inputs of one king bucket of a network of `pieces` letters.
    fn bucket_inputs(pieces: usize) -> usize {
        2 * pieces * 64 + 2 * pieces
    }

    /// The input of a piece of the side `side` (0: to move) and the listed
    /// piece `slot` on square `square` (from the mover's view, a1 = 0), in
    /// king bucket 0.
    pub(crate) fn board_input(pieces: usize, side: usize, slot: usize, square: usize) -> usize {
        (side * pieces + slot) * 64 + square
    }

    /// The input counting the pocketed pieces of listed piece `slot` of
    /// `side`, in king bucket 0.
    pub(crate) fn pocket_input(pieces: usize, side: usize, slot: usize) -> usize {
        2 * pieces * 64 + side * pieces + slot
    }

    /// The input that `input` (of king bucket 0 of a network of `pieces`
    /// letters) becomes when the same position is seen from the other
    /// side, again in bucket 0: the sides swap and the ranks are mirrored.
    pub fn other_view_input(pieces: usize, input: usize) -> usize {
        let boards = 2 * pieces * 64;
        if input < boards {
            let (piece, square) = (input / 64, input % 64);
            let (side, slot) = (piece / pieces, piece % pieces);
            Network::board_input(pieces, 1 - side, slot, square ^ 56)
        } else {
            let (side, slot) = ((input - boards) / pieces, (input - boards) % pieces);
            Network::pocket_input(pieces, 1 - side, slot)
        }
    }

    /// The `[network]` table of a parameter file: the input weights one
    /// input to a line.
    pub fn to_toml(&self) -> String {
        let line = |values: &[i32]| {
            values
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        // The defaults are left unwritten: a file fitted before the keys
        // existed is written as it was.
        let mut shape = String::new();
        if self.views != Views::default() {
            shape += &format!("views = \"{}\"\n", self.views.name());
        }
        if self.activation != Activation::default() {
            shape += &format!("activation = \"{}\"\n", self.activation.name());
        }
        if self.buckets != one_bucket() {
            shape += &format!("buckets = {}\n", self.buckets);
        }
        if self.king_buckets != one_bucket() {
            shape += &format!("king_buckets = {}\n", self.king_buckets);
        }
        let output_bias = match self.output_bias.as_slice() {
            [one] => one.to_string(),
            many => format!("[{}]", line(many)),
        };
        // A file of one king bucket is written as before king buckets
        // existed: label files know an evaluation by its text.
        let order = if self.king_buckets == 1 {
            "the mover's and the other's."
        } else {
            "the mover's and the other's;\n# king bucket after king bucket."
        };
        let mut out = format!(
            "\n[network]\npieces = \"{}\"\nhidden = {}\n{shape}output_bias = {}\nbias = [{}]\noutput = [{}]\n\
             # One line per input: the mover's pieces by listed letter, squares a1 to h8 from\n\
             # its side; the other side's; then pocket counts, {order}\n\
             input = [\n",
            self.pieces,
            self.hidden,
            output_bias,
            line(&self.bias),
            line(&self.output)
        );
        for row in self.input.chunks(self.hidden.max(1)) {
            out.push_str(&format!("    {},\n", line(row)));
        }
        out.push_str("]\n");
        out
    }

    /// Every bound a file must keep: letters, sizes, weight ranges.
    pub fn validate(&self) -> Result<(), String> {
        let mut seen = String::new();
        for c in self.pieces.chars() {
            if !c.is_ascii_uppercase() {
                return Err(format!(
                    "network.pieces: '{c}' is not an upper-case piece letter"
                ));
            }
            if seen.contains(c) {
                return Err(format!("network.pieces: '{c}' is listed twice"));
            }
            seen.push(c);
        }
        if self.pieces.is_empty() || self.pieces.len() > MAX_PIECE_TYPES {
            return Err(format!(
                "network.pieces: {} letters; a network lists 1 to {MAX_PIECE_TYPES}",
                self.pieces.len()
            ));
        }
        if !(1..=MAX_HIDDEN).contains(&self.hidden) {
            return Err(format!(
                "network.hidden: {} is outside 1 to {MAX_HIDDEN}",
                self.hidden
            ));
        }
        if !(1..=MAX_BUCKETS).contains(&self.buckets) {
            return Err(format!(
                "network.buckets: {} is outside 1 to {MAX_BUCKETS}",
                self.buckets
            ));
        }
        Self::check_king_buckets(self.king_buckets)
            .map_err(|reason| format!("network.king_buckets: {reason}"))?;
        let (views, buckets) = (self.views.count(), self.buckets);
        let sizes = [
            ("input", self.input.len(), self.inputs() * self.hidden),
            ("bias", self.bias.len(), self.hidden),
            ("output", self.output.len(), buckets * views * self.hidden),
            ("output_bias", self.output_bias.len(), buckets),
        ];
        for (key, len, want) in sizes {
            if len != want {
                return Err(format!(
                    "network.{key}: {len} values where {} pieces, {} king bucket(s), {} hidden \
                     units, {views} view(s) and {buckets} bucket(s) need {want}",
                    self.pieces.len(),
                    self.king_buckets,
                    self.hidden
                ));
            }
        }
        let bounded = [
            ("input", &self.input, MAX_INPUT_WEIGHT),
            ("bias", &self.bias, MAX_INPUT_WEIGHT),
            ("output", &self.output, MAX_OUTPUT_WEIGHT),
            ("output_bias", &self.output_bias, MAX_OUTPUT_WEIGHT),
        ];
        for (key, values, bound) in bounded {
            if let Some((i, v)) = values.iter().enumerate().find(|(_, v)| v.abs() > bound) {
                return Err(format!("network.{key}[{i}]: {v} is outside ±{bound}"));
            }
        }
        Ok(())
    }
}

/// The inputs of a network listing `pieces`, bound to a variant's piece
/// types: what the evaluator feeds the network, and what a trainer fits.
#[derive(Clone, Debug)]
pub struct NetworkInputs {
    /// The variant's piece types the network lists, with their slots.
    kinds: Vec<(PieceType, u8)>,
    listed: usize,
    /// Pieces on the board and in the pockets at the variant's start: the
    /// material that fills every bucket.
    start_material: u32,
    /// King buckets ([`Network::king_buckets`]).
    king_buckets: usize,
}

impl NetworkInputs {
    /// Inputs for the (validated) letters `pieces` in `variant`, with
    /// `king_buckets` king buckets (one of [`KING_BUCKET_COUNTS`]).
    pub fn new(variant: &Variant, pieces: &str, king_buckets: usize) -> NetworkInputs {
        debug_assert!(KING_BUCKET_COUNTS.contains(&king_buckets));
        NetworkInputs {
            kinds: variant
                .piece_types()
                .filter_map(|kind| {
                    let letter = variant.letter(kind).to_ascii_uppercase();
                    Some((kind, pieces.find(letter)? as u8))
                })
                .collect(),
            listed: pieces.len(),
            start_material: material(&Position::start(variant)).max(1),
            king_buckets,
        }
    }

    /// The king bucket `view` reads `pos` in: where its royal piece
    /// stands, seen from its side ([`Network::king_buckets`] has the
    /// layouts).
    pub fn king_bucket(&self, pos: &Position<'_>, view: Color) -> usize {
        if self.king_buckets == 1 {
            return 0;
        }
        let royal = match view {
            Color::White => pos.royal_square(view),
            Color::Black => pos.royal_square(view).flip_vertical(),
        };
        match (self.king_buckets, royal.rank()) {
            (2, 0) => 0,
            (2, _) => 1,
            (_, 0) if (2..6).contains(&royal.file()) => 0,
            (_, 0) => 1,
            (_, 1) => 2,
            _ => 3,
        }
    }

    /// Where the inputs of `view`'s king bucket in `pos` begin.
    #[inline]
    fn bucket_offset(&self, pos: &Position<'_>, view: Color) -> usize {
        self.king_bucket(pos, view) * Network::bucket_inputs(self.listed)
    }

    /// The output bucket of `pos` among `buckets`: the material left (every
    /// piece on the board, kings included, and in the pockets) as a share
    /// of the start's, cut into equal steps, the least material in bucket
    /// 0. In chess with 8 buckets, 29 to 32 pieces are bucket 7 and 2 to
    /// 4 bucket 0.
    pub fn bucket(&self, pos: &Position<'_>, buckets: usize) -> usize {
        if buckets <= 1 {
            return 0;
        }
        let left = material(pos).max(1) - 1;
        let bucket = left as usize * buckets / self.start_material as usize;
        bucket.min(buckets - 1)
    }

    /// The active inputs of `pos` with their values (1 for a board piece,
    /// the count for a pocket), passed to `visit` in a fixed order.
    pub fn for_each(&self, pos: &Position<'_>, visit: impl FnMut(usize, i32)) {
        self.for_each_from(pos, pos.side_to_move(), visit);
    }

    /// [`NetworkInputs::for_each`] with `view` seen as the mover: from
    /// the other side, its inputs are those of [`Views::Both`]'s second view.
    pub fn for_each_from(
        &self,
        pos: &Position<'_>,
        view: Color,
        mut visit: impl FnMut(usize, i32),
    ) {
        let offset = self.bucket_offset(pos, view);
        for &(kind, slot) in &self.kinds {
            let slot = usize::from(slot);
            for color in Color::ALL {
                for sq in pos.pieces(color, kind) {
                    visit(offset + self.board_input(view, color, slot, sq), 1);
                }
                let pocketed = pos.pocket_count(color, kind);
                if pocketed > 0 {
                    let input = offset + self.pocket_input(view, color, slot);
                    visit(input, i32::from(pocketed));
                }
            }
        }
    }

    /// The input of a `color` piece of listed `slot` on `sq` when `view`
    /// is to move, in king bucket 0: its pieces come first, and Black sees
    /// the ranks mirrored.
    #[inline]
    fn board_input(&self, view: Color, color: Color, slot: usize, sq: Square) -> usize {
        let sq = match view {
            Color::White => sq,
            Color::Black => sq.flip_vertical(),
        };
        Network::board_input(self.listed, usize::from(color != view), slot, sq.index())
    }

    /// The input counting `color`'s pocketed pieces of listed `slot` when
    /// `view` is to move, in king bucket 0.
    #[inline]
    fn pocket_input(&self, view: Color, color: Color, slot: usize) -> usize {
        Network::pocket_input(self.listed, usize::from(color != view), slot)
    }
}

/// Pieces on the board (kings included) and in both pockets.
fn material(pos: &Position<'_>) -> u32 {
    pos.occupied().count()
        + Color::ALL
            .into_iter()
            .map(|c| u32::from(pos.pocket_size(c)))
            .sum::<u32>()
}

/// Hidden units summed at a time: a fixed stack buffer whatever the
/// network's width, so an evaluation never allocates.
const UNIT_BLOCK: usize = 64;

impl Network {
    /// The correction for the side to move of `pos`, in centipawns;
    /// `inputs` must be bound to this network's `pieces` and the network
    /// must have passed [`Network::validate`].
    pub(crate) fn evaluate(&self, inputs: &NetworkInputs, pos: &Position<'_>) -> i32 {
        let hidden = self.hidden;
        let us = pos.side_to_move();
        let bucket = inputs.bucket(pos, self.buckets);
        let output = self.bucket_output(bucket);
        let mut sum = 0i64;
        let mut acc = [0i32; UNIT_BLOCK];
        let views = [us, !us];
        for (v, &view) in views[..self.views.count()].iter().enumerate() {
            // Block by block, the inputs found again for each (one block
            // for most networks): cheaper than gathering them into a buffer.
            for first in (0..hidden).step_by(UNIT_BLOCK) {
                let units = first..(first + UNIT_BLOCK).min(hidden);
                let acc = &mut acc[..units.len()];
                acc.copy_from_slice(&self.bias[units.clone()]);
                inputs.for_each_from(pos, view, |input, value| {
                    add_row(acc, &self.input[input * hidden..][units.clone()], value);
                });
                sum += self.output_sum(acc, &output[v * hidden + first..]);
            }
        }
        self.centipawns(sum, bucket)
    }

    /// The output weights of `bucket`: every view's.
    #[inline]
    fn bucket_output(&self, bucket: usize) -> &[i32] {
        let per_bucket = self.views.count() * self.hidden;
        &self.output[bucket * per_bucket..][..per_bucket]
    }

    /// What the hidden sums `sums` give through the output weights
    /// `output` (as many or more), in 1/(`ACTIVATION_ONE`² × `OUTPUT_UNIT`)
    /// centipawns.
    #[inline]
    fn output_sum(&self, sums: &[i32], output: &[i32]) -> i64 {
        // An activation times itself or `ACTIVATION_ONE` is at most 2^16,
        // so it stays an i32 and each product is one widening 32 x 32 bit
        // multiply, which vectorises (a 64-bit one does not).
        let clipped = sums.iter().map(|&a| a.clamp(0, ACTIVATION_ONE));
        let weighted = |(a, &o): (i32, &i32)| i64::from(a) * i64::from(o);
        match self.activation {
            Activation::Clipped => clipped
                .map(|a| a * ACTIVATION_ONE)
                .zip(output)
                .map(weighted)
                .sum(),
            Activation::Squared => clipped.map(|a| a * a).zip(output).map(weighted).sum(),
        }
    }

    /// The correction in centipawns of the output sum of every view,
    /// through the output layer of `bucket`.
    #[inline]
    fn centipawns(&self, output_sum: i64, bucket: usize) -> i32 {
        let one = i64::from(ACTIVATION_ONE);
        let cp = output_sum / (one * one * OUTPUT_UNIT) + i64::from(self.output_bias[bucket]);
        // Bounded by the weights' bounds: far inside i32.
        cp as i32
    }
}

/// `sums += value × row`, unit by unit.
#[inline]
fn add_row(sums: &mut [i32], row: &[i32], value: i32) {
    match value {
        1 => sums.iter_mut().zip(row).for_each(|(a, w)| *a += w),
        -1 => sums.iter_mut().zip(row).for_each(|(a, w)| *a -= w),
        _ => sums.iter_mut().zip(row).for_each(|(a, w)| *a += w * value),
    }
}

/// The hidden sums of the position evaluated last, from both sides' points
/// of view, carried to the next position by the pieces that differ: a
/// search evaluates positions a few moves apart, so an evaluation adds a
/// few input rows where a fresh one adds a row per piece. The sums are
/// exact integers, so the correction is the one [`Network::evaluate`]
/// gives, whatever was evaluated before.
#[derive(Clone, Debug, Default)]
pub(crate) struct Accumulator {
    /// Where the summed pieces stand, by piece type and colour.
    boards: [ByColor<Bitboard>; MAX_PIECE_TYPES],
    /// The summed pocket counts, by piece type and colour.
    pockets: [ByColor<u8>; MAX_PIECE_TYPES],
    /// The hidden sums seen from White (its pieces as the mover's) and
    /// from Black (ranks mirrored), biases included; empty until first used.
    sums: ByColor<Vec<i32>>,
    /// The king bucket each view's sums are in.
    king_buckets: ByColor<usize>,
    /// The inputs (seen from White, from Black, in king bucket 0) that
    /// changed since the sums were last brought up to date, with the
    /// change of their values: kept to spare an allocation per evaluation.
    changes: Vec<(ByColor<usize>, i32)>,
    /// Every input of a view whose king bucket changed, summed afresh
    /// (kept for the same reason).
    refresh: Vec<(usize, i32)>,
}

impl Accumulator {
    /// The correction for the side to move of `pos`: [`Network::evaluate`],
    /// sooner. `inputs` must be bound to `net`, and one accumulator serves
    /// one network.
    pub(crate) fn evaluate(
        &mut self,
        net: &Network,
        inputs: &NetworkInputs,
        pos: &Position<'_>,
    ) -> i32 {
        self.update(net, inputs, pos);
        let us = pos.side_to_move();
        let bucket = inputs.bucket(pos, net.buckets);
        let output = net.bucket_output(bucket);
        let mut sum = net.output_sum(&self.sums[us], output);
        if net.views == Views::Both {
            sum += net.output_sum(&self.sums[!us], &output[net.hidden..]);
        }
        net.centipawns(sum, bucket)
    }

    fn update(&mut self, net: &Network, inputs: &NetworkInputs, pos: &Position<'_>) {
        let king_buckets = ByColor::new_with(|view| inputs.king_bucket(pos, view));
        if self.sums.white.len() != net.hidden {
            for color in Color::ALL {
                self.sums[color].clear();
                self.sums[color].extend_from_slice(&net.bias);
            }
            self.boards = Default::default();
            self.pockets = Default::default();
            self.king_buckets = king_buckets;
        }
        // Positions far apart would cost at most a row per piece of each:
        // twice a fresh sum, and a search rarely jumps so far. A partial
        // sum holds at most the inputs of two positions, within i32 by the
        // bounds validation keeps.
        self.changes.clear();
        for &(kind, slot) in &inputs.kinds {
            let slot = usize::from(slot);
            for color in Color::ALL {
                let was = &mut self.boards[kind.index()][color];
                let now = pos.pieces(color, kind);
                let changed = *was ^ now;
                if changed.any() {
                    let removed = *was & changed;
                    *was = now;
                    let input = |view, sq| inputs.board_input(view, color, slot, sq);
                    for sq in removed {
                        self.changes
                            .push((ByColor::new_with(|view| input(view, sq)), -1));
                    }
                    for sq in now & changed {
                        self.changes
                            .push((ByColor::new_with(|view| input(view, sq)), 1));
                    }
                }
                let was = &mut self.pockets[kind.index()][color];
                let now = pos.pocket_count(color, kind);
                if *was != now {
                    let delta = i32::from(now) - i32::from(*was);
                    *was = now;
                    let input = ByColor::new_with(|view| inputs.pocket_input(view, color, slot));
                    self.changes.push((input, delta));
                }
            }
        }
        let bucket_inputs = Network::bucket_inputs(inputs.listed);
        for view in Color::ALL {
            if king_buckets[view] != self.king_buckets[view] {
                // A view whose royal piece changed bucket reads every input
                // anew: a fresh sum costs what a far jump would.
                self.king_buckets[view] = king_buckets[view];
                self.refresh.clear();
                inputs.for_each_from(pos, view, |input, value| self.refresh.push((input, value)));
                self.sums[view].clear();
                self.sums[view].extend_from_slice(&net.bias);
                add_rows(&mut self.sums[view], net, self.refresh.iter().copied());
            } else if !self.changes.is_empty() {
                let offset = king_buckets[view] * bucket_inputs;
                let rows = self
                    .changes
                    .iter()
                    .map(|&(input, value)| (offset + input[view], value));
                add_rows(&mut self.sums[view], net, rows);
            }
        }
    }
}

/// `sums += value × row` for every `(input, value)` of `rows`, a block of
/// units at a time: each block of sums is read and written once, and held
/// in registers while the rows are added (the same integer sums, unit by
/// unit in the same order, as adding row after row).
fn add_rows(sums: &mut [i32], net: &Network, rows: impl Iterator<Item = (usize, i32)> + Clone) {
    let hidden = net.hidden;
    let mut blocks = sums.chunks_exact_mut(UNIT_BLOCK);
    for (b, block) in blocks.by_ref().enumerate() {
        let block: &mut [i32; UNIT_BLOCK] = block.try_into().expect("exact chunks");
        let mut acc = *block;
        for (input, value) in rows.clone() {
            let start = input * hidden + b * UNIT_BLOCK;
            let row: &[i32; UNIT_BLOCK] = net.input[start..start + UNIT_BLOCK]
                .try_into()
                .expect("a block of one row");
            add_row(&mut acc, row, value);
        }
        *block = acc;
    }
    let tail = blocks.into_remainder();
    if !tail.is_empty() {
        let first = hidden - tail.len();
        for (input, value) in rows {
            add_row(
                tail,
                &net.input[input * hidden + first..][..tail.len()],
                value,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;

    fn zero_network(pieces: &str, hidden: usize) -> Network {
        Network {
            pieces: pieces.into(),
            hidden,
            views: Views::Mover,
            activation: Activation::Clipped,
            buckets: 1,
            king_buckets: 1,
            input: vec![0; Network::inputs_for(pieces.len(), 1) * hidden],
            bias: vec![0; hidden],
            output: vec![0; hidden],
            output_bias: vec![0],
        }
    }

    #[test]
    fn a_network_reads_the_same_position_the_same_for_either_colour() {
        let chess = builtin::load("chess").unwrap();
        let mut net = zero_network("PNBRQK", 2);
        // Unit 0: a knight of the side to move on its c3 (from its view).
        let knight_c3 = Network::board_input(6, 0, 1, 18);
        net.input[knight_c3 * 2] = ACTIVATION_ONE;
        net.output[0] = 50 * OUTPUT_UNIT as i32;
        net.validate().unwrap();
        let inputs = NetworkInputs::new(&chess, &net.pieces, 1);
        let white = Position::from_fen(&chess, "4k3/8/8/8/8/2N5/8/4K3 w - - 0 1").unwrap();
        let black = Position::from_fen(&chess, "4k3/8/2n5/8/8/8/8/4K3 b - - 0 1").unwrap();
        let other = Position::from_fen(&chess, "4k3/8/8/8/8/2N5/8/4K3 b - - 0 1").unwrap();
        assert_eq!(net.evaluate(&inputs, &white), 50);
        assert_eq!(net.evaluate(&inputs, &black), 50);
        assert_eq!(net.evaluate(&inputs, &other), 0);
    }

    #[test]
    fn the_evaluator_adds_the_network_for_the_side_to_move() {
        let chess = builtin::load("chess").unwrap();
        let plain = crate::engine::EvalParams::default();
        let mut with_net = plain.clone();
        let mut net = zero_network("PNBRQK", 2);
        net.output_bias = vec![37];
        // A rook of the side to move on its a1 lights unit 1, worth 20.
        net.input[Network::board_input(6, 0, 3, 0) * 2 + 1] = ACTIVATION_ONE;
        net.output[1] = 20 * OUTPUT_UNIT as i32;
        with_net.network = Some(net);
        let (a, b) = (
            crate::engine::Evaluator::new(&chess, &plain),
            crate::engine::Evaluator::new(&chess, &with_net),
        );
        for (fen, extra) in [
            ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 57),
            ("r3k3/8/8/8/8/8/8/4K3 b - - 0 1", 57),
            ("4k3/8/8/8/8/8/8/R3K3 b - - 0 1", 37),
        ] {
            let pos = Position::from_fen(&chess, fen).unwrap();
            assert_eq!(b.evaluate(&pos) - a.evaluate(&pos), extra, "{fen}");
        }
    }

    #[test]
    fn a_network_wider_than_one_block_sums_every_unit() {
        let chess = builtin::load("chess").unwrap();
        let hidden = 2 * UNIT_BLOCK + 5;
        let mut net = zero_network("PNBRQK", hidden);
        let rook_a1 = Network::board_input(6, 0, 3, 0);
        // One unit in the first block, one in the last, partial one.
        for unit in [3, 2 * UNIT_BLOCK + 4] {
            net.input[rook_a1 * hidden + unit] = ACTIVATION_ONE;
            net.output[unit] = 20 * OUTPUT_UNIT as i32;
        }
        net.validate().unwrap();
        let inputs = NetworkInputs::new(&chess, &net.pieces, 1);
        let pos = Position::from_fen(&chess, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        assert_eq!(net.evaluate(&inputs, &pos), 40);
    }

    #[test]
    fn activations_are_clipped_at_one() {
        let chess = builtin::load("chess").unwrap();
        let mut net = zero_network("P", 1);
        for sq in 0..64 {
            net.input[Network::board_input(1, 0, 0, sq)] = ACTIVATION_ONE;
        }
        net.output[0] = 10 * OUTPUT_UNIT as i32;
        let inputs = NetworkInputs::new(&chess, &net.pieces, 1);
        // Three own pawns: the unit would reach 3, it stops at 1.
        let pos = Position::from_fen(&chess, "4k3/8/8/8/8/8/PPP5/4K3 w - - 0 1").unwrap();
        assert_eq!(net.evaluate(&inputs, &pos), 10);
    }

    #[test]
    fn the_other_view_reads_the_board_as_the_other_side_would() {
        let pmc = builtin::load("pocket-mutation").unwrap();
        let letters: String = pmc
            .piece_types()
            .map(|k| pmc.letter(k).to_ascii_uppercase())
            .collect();
        let inputs = NetworkInputs::new(&pmc, &letters, 1);
        let n = letters.len();
        for input in 0..Network::inputs_for(n, 1) {
            let other = Network::other_view_input(n, input);
            assert!(other < Network::inputs_for(n, 1));
            assert_eq!(Network::other_view_input(n, other), input);
        }
        let mut pos = Position::start(&pmc);
        for ply in 0..12 {
            let us = pos.side_to_move();
            let (mut mover, mut other) = (Vec::new(), Vec::new());
            inputs.for_each_from(&pos, us, |i, v| {
                mover.push((Network::other_view_input(n, i), v));
            });
            inputs.for_each_from(&pos, !us, |i, v| other.push((i, v)));
            mover.sort_unstable();
            other.sort_unstable();
            assert_eq!(mover, other, "ply {ply}");
            let moves = pos.legal_moves();
            pos.play_unchecked(moves[(ply * 7) % moves.len()]);
        }
    }

    #[test]
    fn both_views_read_the_position_from_each_side() {
        let chess = builtin::load("chess").unwrap();
        let mut net = zero_network("PNBRQK", 1);
        net.views = Views::Both;
        net.output = vec![50 * OUTPUT_UNIT as i32, -20 * OUTPUT_UNIT as i32];
        // The unit fires for a mover's knight on its c3.
        net.input[Network::board_input(6, 0, 1, 18)] = ACTIVATION_ONE;
        net.validate().unwrap();
        let inputs = NetworkInputs::new(&chess, &net.pieces, 1);
        let eval = |fen: &str| net.evaluate(&inputs, &Position::from_fen(&chess, fen).unwrap());
        // White's knight on c3: White to move reads it in the first view,
        // Black to move in the second (the other side is White).
        assert_eq!(eval("4k3/8/8/8/8/2N5/8/4K3 w - - 0 1"), 50);
        assert_eq!(eval("4k3/8/8/8/8/2N5/8/4K3 b - - 0 1"), -20);
        // Both knights on their c3: both views fire.
        assert_eq!(eval("4k3/8/2n5/8/8/2N5/8/4K3 b - - 0 1"), 30);
        net.output.pop();
        assert!(net.validate().unwrap_err().contains("network.output"));
    }

    #[test]
    fn squared_units_pass_the_square_of_their_activation() {
        let chess = builtin::load("chess").unwrap();
        let mut net = zero_network("P", 1);
        net.activation = Activation::Squared;
        for sq in 0..64 {
            net.input[Network::board_input(1, 0, 0, sq)] = ACTIVATION_ONE / 2;
        }
        net.output[0] = 40 * OUTPUT_UNIT as i32;
        let inputs = NetworkInputs::new(&chess, &net.pieces, 1);
        let eval = |fen: &str| net.evaluate(&inputs, &Position::from_fen(&chess, fen).unwrap());
        // Half an activation gives a quarter; two pawns a full one.
        assert_eq!(eval("4k3/8/8/8/8/8/P7/4K3 w - - 0 1"), 10);
        assert_eq!(eval("4k3/8/8/8/8/8/PP6/4K3 w - - 0 1"), 40);
        assert_eq!(eval("4k3/8/8/8/8/8/PPP5/4K3 w - - 0 1"), 40);
    }

    #[test]
    fn a_networks_shape_round_trips_and_defaults_when_unwritten() {
        let mut params = crate::engine::EvalParams::default();
        let mut net = zero_network("PK", 2);
        net.views = Views::Both;
        net.activation = Activation::Squared;
        net.output = vec![1, 2, 3, 4];
        params.network = Some(net);
        let text = params.to_toml();
        assert!(text.contains("views = \"both\"") && text.contains("activation = \"squared\""));
        let back = crate::engine::EvalParams::from_toml("net.toml", &text).unwrap();
        assert_eq!(back, params);
        let plain = crate::engine::EvalParams {
            network: Some(zero_network("PK", 2)),
            ..Default::default()
        };
        let text = plain.to_toml();
        assert!(!text.contains("views") && !text.contains("activation"));
        let bad = text.replace("hidden = 2", "hidden = 2\nviews = \"sideways\"");
        assert!(crate::engine::EvalParams::from_toml("net.toml", &bad).is_err());
    }

    #[test]
    fn a_network_round_trips_through_its_file_form() {
        let mut params = crate::engine::EvalParams::default();
        let mut net = zero_network("PK", 3);
        net.input[5] = -7;
        net.bias[2] = 100;
        net.output[0] = 12;
        net.output_bias = vec![-3];
        params.network = Some(net.clone());
        let text = params.to_toml();
        assert!(text.contains("output_bias = -3\n"), "one bucket: a number");
        let back = crate::engine::EvalParams::from_toml("net.toml", &text).unwrap();
        assert_eq!(back, params);
        net.buckets = 2;
        net.output = vec![12, 0, 0, -4, 5, 6];
        net.output_bias = vec![-3, 9];
        params.network = Some(net);
        let text = params.to_toml();
        assert!(text.contains("buckets = 2\n") && text.contains("output_bias = [-3, 9]\n"));
        assert!(!text.contains("king_buckets"), "one king bucket: unwritten");
        // Written as before king buckets existed: label files key on the text.
        assert!(text.contains("then pocket counts, the mover's and the other's.\ninput = [\n"));
        let back = crate::engine::EvalParams::from_toml("net.toml", &text).unwrap();
        assert_eq!(back, params);
        let mut net = params.network.take().unwrap();
        net.king_buckets = 4;
        net.input = (0..Network::inputs_for(2, 4) * 3)
            .map(|i| i as i32 % 9 - 4)
            .collect();
        params.network = Some(net);
        let text = params.to_toml();
        assert!(text.contains("king_buckets = 4\n"));
        let back = crate::engine::EvalParams::from_toml("net.toml", &text).unwrap();
        assert_eq!(back, params);
    }

    #[test]
    fn the_output_layer_is_chosen_by_the_material_left() {
        let chess = builtin::load("chess").unwrap();
        let mut net = zero_network("PNBRQK", 1);
        net.buckets = 8;
        net.output = vec![0; 8];
        net.output_bias = (0..8).map(|b| 100 * b).collect();
        net.validate().unwrap();
        let inputs = NetworkInputs::new(&chess, &net.pieces, 1);
        let bucket = |fen: &str| {
            let pos = Position::from_fen(&chess, fen).unwrap();
            let b = inputs.bucket(&pos, 8);
            assert_eq!(net.evaluate(&inputs, &pos), 100 * b as i32, "{fen}");
            let mut acc = Accumulator::default();
            assert_eq!(acc.evaluate(&net, &inputs, &pos), 100 * b as i32, "{fen}");
            b
        };
        // 32 pieces: the last bucket; 29 still there, 28 one down.
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(bucket(start), 7);
        assert_eq!(
            bucket("rnbqkbnr/pppppppp/8/8/8/8/3PPPPP/RNBQKBNR w KQkq - 0 1"),
            7
        );
        assert_eq!(
            bucket("rnbqkbnr/pppppppp/8/8/8/8/4PPPP/RNBQKBNR w KQkq - 0 1"),
            6
        );
        // Two to four pieces: the first bucket; five, the second.
        assert_eq!(bucket("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), 0);
        assert_eq!(bucket("4k3/8/8/8/8/8/8/RR2K3 w - - 0 1"), 0);
        assert_eq!(bucket("4k3/8/8/8/8/8/8/RRR1K3 w - - 0 1"), 1);
        // One bucket: every position in it, the material not even counted.
        assert_eq!(inputs.bucket(&Position::start(&chess), 1), 0);
        // Pocketed pieces are material too.
        let pmc = builtin::load("pocket-mutation").unwrap();
        let inputs = NetworkInputs::new(&pmc, "PNBRQK", 1);
        let fen = |pocket: &str| {
            Position::from_fen(&pmc, &format!("4k3/8/8/8/8/8/8/RR2K3[{pocket}] w - - 0 1")).unwrap()
        };
        assert_eq!(inputs.bucket(&fen(""), 8), 0);
        assert_eq!(inputs.bucket(&fen("Q"), 8), 1);
        assert_eq!(inputs.bucket(&fen("Qq"), 8), 1);
    }

    #[test]
    fn bad_networks_are_refused_with_the_key() {
        let mut net = zero_network("PNK", 4);
        net.input.pop();
        assert!(net.validate().unwrap_err().contains("network.input"));
        let mut net = zero_network("PNK", 4);
        net.output[1] = MAX_OUTPUT_WEIGHT + 1;
        assert!(net.validate().unwrap_err().contains("network.output[1]"));
        let net = zero_network("PNP", 4);
        assert!(net.validate().unwrap_err().contains("twice"));
        let net = zero_network("Pn", 4);
        assert!(net.validate().unwrap_err().contains("upper-case"));
        let net = zero_network("P", 0);
        assert!(net.validate().unwrap_err().contains("network.hidden"));
        let mut net = zero_network("PNK", 4);
        net.buckets = 0;
        assert!(net.validate().unwrap_err().contains("network.buckets"));
        net.buckets = MAX_BUCKETS + 1;
        assert!(net.validate().unwrap_err().contains("network.buckets"));
        net.buckets = 2;
        assert!(net.validate().unwrap_err().contains("network.output:"));
        net.output = vec![0; 8];
        assert!(net.validate().unwrap_err().contains("network.output_bias"));
        net.output_bias = vec![0, MAX_OUTPUT_WEIGHT + 1];
        assert!(
            net.validate()
                .unwrap_err()
                .contains("network.output_bias[1]")
        );
        net.output_bias[1] = 0;
        assert!(net.validate().is_ok());
        net.king_buckets = 3;
        assert!(net.validate().unwrap_err().contains("network.king_buckets"));
        net.king_buckets = 2;
        assert!(net.validate().unwrap_err().contains("network.input:"));
        net.input = vec![0; Network::inputs_for(3, 2) * 4];
        assert!(net.validate().is_ok());
    }

    #[test]
    fn king_buckets_follow_each_sides_royal_piece_from_its_side() {
        let chess = builtin::load("chess").unwrap();
        let (one, two, four) = (
            NetworkInputs::new(&chess, "PNBRQK", 1),
            NetworkInputs::new(&chess, "PNBRQK", 2),
            NetworkInputs::new(&chess, "PNBRQK", 4),
        );
        // (position, White's bucket of four, Black's)
        for (fen, white, black) in [
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0, 0),
            ("2k5/8/8/8/8/8/8/5K2 b - - 0 1", 0, 0),
            ("6k1/8/8/8/8/8/8/1K6 w - - 0 1", 1, 1),
            ("k7/8/8/8/8/8/8/7K w - - 0 1", 1, 1),
            ("8/4k3/8/8/8/8/5K2/8 w - - 0 1", 2, 2),
            ("8/8/8/3k4/8/2K5/8/8 b - - 0 1", 3, 3),
            ("3k4/8/8/8/8/8/6K1/8 w - - 0 1", 2, 0),
            ("8/8/8/8/8/8/1k6/4K3 w - - 0 1", 0, 3),
        ] {
            let pos = Position::from_fen(&chess, fen).unwrap();
            for (view, want) in [(Color::White, white), (Color::Black, black)] {
                assert_eq!(four.king_bucket(&pos, view), want, "{fen} {view:?}");
                assert_eq!(two.king_bucket(&pos, view), usize::from(want >= 2), "{fen}");
                assert_eq!(one.king_bucket(&pos, view), 0, "{fen}");
            }
        }
    }

    #[test]
    fn a_piece_weighs_what_its_sides_king_bucket_says() {
        let chess = builtin::load("chess").unwrap();
        let mut net = zero_network("PNBRQK", 1);
        net.king_buckets = 2;
        net.views = Views::Both;
        net.input = vec![0; Network::inputs_for(6, 2)];
        net.output = vec![30 * OUTPUT_UNIT as i32, -10 * OUTPUT_UNIT as i32];
        // The unit fires for a rook of the reading side on its a1 while
        // that side's king has left its first rank (bucket 1).
        let bucket_one = Network::inputs_for(6, 1);
        net.input[bucket_one + Network::board_input(6, 0, 3, 0)] = ACTIVATION_ONE;
        net.validate().unwrap();
        let inputs = NetworkInputs::new(&chess, &net.pieces, 2);
        let mut acc = Accumulator::default();
        for (fen, want) in [
            ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 0),
            ("4k3/8/8/8/8/8/4K3/R7 w - - 0 1", 30),
            ("4k3/8/8/8/8/8/4K3/R7 b - - 0 1", -10),
            ("r7/4k3/8/8/8/8/8/4K3 b - - 0 1", 30),
            ("r7/4k3/8/8/8/8/4K3/R7 w - - 0 1", 20),
            ("r3k3/8/8/8/8/8/4K3/R7 w - - 0 1", 30),
        ] {
            let pos = Position::from_fen(&chess, fen).unwrap();
            assert_eq!(net.evaluate(&inputs, &pos), want, "{fen}");
            assert_eq!(acc.evaluate(&net, &inputs, &pos), want, "{fen} carried");
        }
    }
}
