//! Studies planned from a variant's `classes`, written out as experiment
//! files (what `pocketlab study` plays, and what a designer may edit and
//! run): the class study ([`StudyPlan`]: every within-class pair of
//! pieces on stated slot squares, a pawn-odds calibration and the
//! sequential design) and the value scale ([`ScaleStudyPlan`]: every piece
//! of the classes on one square, linked to its neighbours in value, the
//! empty square and the pawn, under the value-scale design).
//!
//! # The slot rule
//!
//! A class's pieces are compared on the squares of one piece of the start
//! position, the class's *slot* piece, all of whose squares they take (so a
//! matchup exchanges as many pieces as the start army has of the slot):
//!
//! 1. a member of the class standing in the start position (the first so
//!    standing in the class's list);
//! 2. else the most valuable piece of the start position (by the variant's
//!    `value`) worth no more than the class's mean value;
//! 3. else the least valuable piece of the start position worth more.
//!
//! The royal piece and pawns are never slots. The pawn-odds calibration
//! removes White's pawn on the f-file, else White's first pawn in square
//! order (a1, b1, …, h8).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use pocketlab_core::{Color, PieceType, Position, Square, Variant};
use pocketlab_stats::sequential::{DEFAULT_ALPHA, DEFAULT_MARGIN_PAWNS};

/// Why a study cannot be planned for a variant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// The variant states no classes.
    #[error(
        "variant '{0}' has no `classes` list, so there is nothing to compare: add one, lowest \
         class first, each class the letters of the pieces claimed to be worth the same (for \
         example `classes = [\"P\", \"BN\", \"RQ\"]`)"
    )]
    NoClasses(String),
    /// Every class has fewer than two pieces.
    #[error("variant '{0}': no class has two pieces or more, so there is no pair to compare")]
    NoPairs(String),
    /// A slot override names a class the variant lacks, or one with fewer
    /// than two pieces.
    #[error("slots for class {class}: variant '{variant}' has no class {class} with two pieces")]
    NoSuchClass {
        /// The variant's name.
        variant: String,
        /// The class the override names.
        class: u8,
    },
    /// A slot override names no non-royal, non-pawn piece of the start
    /// position.
    #[error(
        "slots for class {class}: '{letter}' is no piece of the start position that can be a \
         slot (not the royal piece, not a pawn)"
    )]
    BadSlot {
        /// The class.
        class: u8,
        /// The letter given.
        letter: char,
    },
    /// No start-position piece can serve as a slot.
    #[error(
        "class {0}: the start position has no piece (other than the royal piece and pawns) to give its squares"
    )]
    NoSlot(u8),
    /// No White pawn for the pawn-odds calibration.
    #[error("the start position has no White pawn, so there is no pawn-odds calibration")]
    NoPawn,
    /// Every within-class pair is already within one class of the table
    /// revised.
    #[error("every within-class pair is already within one class of '{0}': no pair is new")]
    NoNewPairs(String),
    /// Fewer than two pieces of the classes (pawns and the royal piece
    /// aside) to put on a value scale.
    #[error(
        "variant '{0}': its classes hold fewer than two pieces other than pawns and the royal \
         piece, so there is no scale to measure"
    )]
    TooFewForScale(String),
    /// The scale's square holds no White piece that can be exchanged.
    #[error(
        "--square {0}: the start position has no White piece there other than the royal piece \
         and pawns (the scale exchanges the piece on that square)"
    )]
    BadScaleSquare(String),
    /// No White piece of the start position can give the scale its square.
    #[error(
        "the start position has no White piece other than the royal piece and pawns to give the \
         scale its square"
    )]
    NoScaleSquare,
}

/// One class of a planned study: its pieces and the slot piece.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedClass {
    /// Class number (1 is the lowest).
    pub class: u8,
    /// The class's pieces, by letter, in the variant's order.
    pub pieces: Vec<char>,
    /// The letter of the piece whose squares the class is compared on.
    pub slot: char,
    /// Only these pairs of the class (empty: every pair).
    pub only: Vec<(char, char)>,
}

impl PlannedClass {
    /// The pairs `only` keeps, each as its two letters (`"DG"`).
    pub fn only_letters(&self) -> Vec<String> {
        self.only.iter().map(|&(a, b)| format!("{a}{b}")).collect()
    }

    /// Within-class pairs this class compares.
    pub fn pairs(&self) -> usize {
        if self.only.is_empty() {
            self.pieces.len() * (self.pieces.len() - 1) / 2
        } else {
            self.only.len()
        }
    }
}

/// The settings of a planned study that are not read from the variant.
#[derive(Debug, Clone, PartialEq)]
pub struct StudySettings {
    /// The study's name (its log directory and report).
    pub name: String,
    /// The variant as the experiment file names it: a shipped name or a
    /// path relative to the experiment file.
    pub variant: String,
    /// Master seed.
    pub seed: u64,
    /// Nodes a move.
    pub nodes: u64,
    /// Pairs per matchup at most.
    pub max_pairs: u64,
    /// Pairs between looks (the class study's sequential design).
    pub look_every: u64,
    /// Games the whole study may play (`None`: only the caps).
    pub budget_games: Option<u64>,
    /// An evaluation file (relative to the experiment file), or `builtin`
    /// for the hand-written weights, if any; none plays the shipped one.
    pub eval: Option<String>,
}

/// A class study of one variant.
#[derive(Debug, Clone, PartialEq)]
pub struct StudyPlan {
    /// What the caller chose.
    pub settings: StudySettings,
    /// The classes with two pieces or more, lowest first.
    pub classes: Vec<PlannedClass>,
    /// The square of White's pawn the calibration removes.
    pub pawn_odds_square: Square,
    /// Whether the variant mutates pocketed pieces (switched off in the
    /// study, so a piece stays what it is compared as).
    pub mutation: bool,
}

impl StudyPlan {
    /// Plans the study of every class of `variant` with two pieces or
    /// more; `slots` overrides the slot piece of some classes (class to
    /// letter).
    pub fn new(
        variant: &Variant,
        settings: StudySettings,
        slots: &BTreeMap<u8, char>,
    ) -> Result<StudyPlan, PlanError> {
        if variant.classes.is_empty() {
            return Err(PlanError::NoClasses(variant.name.clone()));
        }
        let start = Position::start(variant);
        for &class in slots.keys() {
            if variant.class(class).is_none_or(|members| members.len() < 2) {
                return Err(PlanError::NoSuchClass {
                    variant: variant.name.clone(),
                    class,
                });
            }
        }
        let mut classes = Vec::new();
        for (index, members) in variant.classes.iter().enumerate() {
            if members.len() < 2 {
                continue;
            }
            let class = u8::try_from(index + 1).unwrap_or(u8::MAX);
            let slot = match slots.get(&class) {
                Some(&letter) => checked_slot(variant, &start, class, letter)?,
                None => slot_piece(variant, &start, members).ok_or(PlanError::NoSlot(class))?,
            };
            classes.push(PlannedClass {
                class,
                pieces: members.iter().map(|&t| variant.letter(t)).collect(),
                slot: variant.letter(slot),
                only: Vec::new(),
            });
        }
        if classes.is_empty() {
            return Err(PlanError::NoPairs(variant.name.clone()));
        }
        Ok(StudyPlan {
            settings,
            classes,
            pawn_odds_square: pawn_odds_square(variant, &start).ok_or(PlanError::NoPawn)?,
            mutation: variant.rules.pocket.as_ref().is_some_and(|p| p.mutation),
        })
    }

    /// Keeps only the within-class pairs `earlier` (the table this one
    /// revises) does not already hold in one class: those a class study of
    /// `earlier` has decided. Classes left without a pair are dropped; an
    /// error when no pair is new.
    pub fn keep_new_pairs(&mut self, earlier: &Variant) -> Result<(), PlanError> {
        let together = |a: char, b: char| {
            earlier.classes.iter().any(|class| {
                let has = |l: char| class.iter().any(|&t| earlier.letter(t) == l);
                has(a) && has(b)
            })
        };
        for c in &mut self.classes {
            c.only = c
                .pieces
                .iter()
                .enumerate()
                .flat_map(|(i, &a)| c.pieces[i + 1..].iter().map(move |&b| (a, b)))
                .filter(|&(a, b)| !together(a, b))
                .collect();
        }
        self.classes.retain(|c| !c.only.is_empty());
        if self.classes.is_empty() {
            return Err(PlanError::NoNewPairs(earlier.name.clone()));
        }
        Ok(())
    }

    /// Within-class pairs, over all classes.
    pub fn pairs(&self) -> usize {
        self.classes.iter().map(PlannedClass::pairs).sum()
    }

    /// Matchups the study plays: every pair and the calibration.
    pub fn matchups(&self) -> usize {
        self.pairs() + 1
    }

    /// Games the study plays at most: every matchup to its cap, within
    /// the budget.
    pub fn max_games(&self) -> u64 {
        let caps = self.matchups() as u64 * self.settings.max_pairs * 2;
        self.settings.budget_games.map_or(caps, |b| b.min(caps))
    }

    /// The experiment file, commented so a designer can read and edit it.
    pub fn to_toml(&self) -> String {
        let s = &self.settings;
        let mut t = String::new();
        let _ = writeln!(
            t,
            "# A class study of {}, written by `pocketlab study`: every pair of\n\
             # pieces within a class, compared on the squares of one piece of the\n\
             # start position, with a pawn-odds calibration, under the sequential\n\
             # design. Edit it and play it with `pocketlab run`.",
            s.variant
        );
        for c in &self.classes {
            let only = if c.only.is_empty() {
                String::new()
            } else {
                format!(", new pairs only: {}", c.only_letters().join(" "))
            };
            let _ = writeln!(
                t,
                "#   class {} ({}) on the squares of {}{only}",
                c.class,
                c.pieces.iter().collect::<String>(),
                c.slot
            );
        }
        let description = format!(
            "Class study of {}: {} within-class pairs at {} nodes a move, with pawn-odds calibration.",
            s.variant,
            self.pairs(),
            s.nodes
        );
        write_setup(
            &mut t,
            s,
            &description,
            self.mutation.then_some("compared as"),
        );
        let _ = writeln!(
            t,
            "[stop]\ndesign = \"sequential-equivalence\"\nmax_pairs = {}                 # per matchup, the calibration's too\nlook_every = {}                 # a look after every {} pairs",
            s.max_pairs, s.look_every, s.look_every
        );
        if let Some(budget) = s.budget_games {
            let _ = writeln!(t, "budget_games = {budget}             # the whole study");
        }
        let _ = writeln!(
            t,
            "margin = {DEFAULT_MARGIN_PAWNS}                  # pawns per piece exchanged\nalpha = {DEFAULT_ALPHA}\n\n[log]\nfen_every = 20"
        );
        for c in &self.classes {
            let _ = writeln!(
                t,
                "\n[[generators]]\nkind = \"class-equivalence\"\nclass = {}\nslots = \"{}\"",
                c.class, c.slot
            );
            if !c.only.is_empty() {
                let quoted: Vec<String> = c.only_letters().iter().map(|p| toml_string(p)).collect();
                let _ = writeln!(t, "pairs = [{}]", quoted.join(", "));
            }
        }
        let _ = writeln!(
            t,
            "\n[[generators]]\nkind = \"pawn-odds\"\nsquare = \"{}\"",
            self.pawn_odds_square
        );
        t
    }
}

/// A value scale of one variant: every piece of its classes (pawns and the
/// royal piece aside) alone on one square of White's start position (and
/// its mirror for Black), each against its next two up the variant's
/// values, the two lowest against the empty square, and the army against
/// itself a pawn down for the unit, under the value-scale design with its
/// default goals (each neighbour difference to ±0.2 pawns, the unit to
/// ±8%).
///
/// The square, unless given, is that of White's least valuable piece of the
/// start position other than the royal piece and pawns, the first such in
/// square order (b1 in chess and Pocket Mutation Chess): the square where
/// the lowest pieces are at home.
#[derive(Debug, Clone, PartialEq)]
pub struct ScaleStudyPlan {
    /// What the caller chose (`look_every` unused).
    pub settings: StudySettings,
    /// The pieces on the scale, by letter, lowest class first.
    pub pieces: Vec<char>,
    /// The square whose piece is exchanged.
    pub square: Square,
    /// The square of White's pawn the unit's matchup removes.
    pub pawn_odds_square: Square,
    /// The cap of the pawn odds' pairs: the unit's ±8% takes more pairs
    /// than a neighbour difference (about 2,000 for a pawn worth 120 Elo).
    pub unit_max_pairs: u64,
    /// Whether the variant mutates pocketed pieces (switched off, so a
    /// piece stays what it is valued as).
    pub mutation: bool,
}

impl ScaleStudyPlan {
    /// Plans the value scale of every piece of `variant`'s classes, on
    /// `square` if given.
    pub fn new(
        variant: &Variant,
        settings: StudySettings,
        square: Option<&str>,
    ) -> Result<ScaleStudyPlan, PlanError> {
        if variant.classes.is_empty() {
            return Err(PlanError::NoClasses(variant.name.clone()));
        }
        let start = Position::start(variant);
        let pieces: Vec<char> = variant
            .classes
            .iter()
            .flatten()
            .filter(|&&t| t != variant.royal && !variant.is_pawn(t))
            .map(|&t| variant.letter(t))
            .collect();
        if pieces.len() < 2 {
            return Err(PlanError::TooFewForScale(variant.name.clone()));
        }
        let exchangeable = |sq: Square| {
            start
                .piece_at(sq)
                .is_some_and(|p| p.color == Color::White && can_be_slot(variant, &start, p.kind))
        };
        let square = match square {
            Some(text) => text
                .parse::<Square>()
                .ok()
                .filter(|&sq| exchangeable(sq))
                .ok_or_else(|| PlanError::BadScaleSquare(text.to_owned()))?,
            None => (start.pieces_of(Color::White))
                .into_iter()
                .filter(|&sq| exchangeable(sq))
                .min_by_key(|&sq| {
                    let kind = start.piece_at(sq).map(|p| p.kind);
                    (
                        kind.map_or(i64::MAX, |k| i64::from(variant.piece(k).value)),
                        sq,
                    )
                })
                .ok_or(PlanError::NoScaleSquare)?,
        };
        let unit_max_pairs = 3 * settings.max_pairs;
        Ok(ScaleStudyPlan {
            settings,
            pieces,
            square,
            pawn_odds_square: pawn_odds_square(variant, &start).ok_or(PlanError::NoPawn)?,
            unit_max_pairs,
            mutation: variant.rules.pocket.as_ref().is_some_and(|p| p.mutation),
        })
    }

    /// The experiment file, commented so a designer can read and edit it.
    pub fn to_toml(&self) -> String {
        let s = &self.settings;
        let mut t = String::new();
        let _ = writeln!(
            t,
            "# A value scale of {}, written by `pocketlab study --scale`: every piece of\n\
             # the variant's classes alone on {} (Black's on the mirror square) against\n\
             # its next two up the variant's values, the two lowest against the empty\n\
             # square, and the army against itself a pawn down ({}) for the unit, under\n\
             # the value-scale design. Its report values every piece in pawns with 95%\n\
             # intervals and writes the class table the values support as a variant\n\
             # file (proposed-classes.toml). Edit it and play it with `pocketlab run`.",
            s.variant, self.square, self.pawn_odds_square
        );
        let description = format!(
            "Value scale of {}: {} pieces in pawns by single-piece substitutions on {} and pawn odds at {} nodes a move.",
            s.variant,
            self.pieces.len(),
            self.square,
            s.nodes
        );
        write_setup(
            &mut t,
            s,
            &description,
            self.mutation.then_some("valued as"),
        );
        let _ = writeln!(
            t,
            "[stop]\ndesign = \"value-scale\"\nmax_pairs = {}                 # per matchup",
            s.max_pairs
        );
        if let Some(budget) = s.budget_games {
            let _ = writeln!(t, "budget_games = {budget}             # the whole study");
        }
        let _ = writeln!(
            t,
            "adjacent_half_width = 0.2        # pawns, each neighbour difference\n\
             unit_precision = 0.08            # the pawn unit, ±8%\n\
             unit_max_pairs = {}            # the pawn odds\n\n[log]\nfen_every = 20",
            self.unit_max_pairs
        );
        let _ = writeln!(
            t,
            "\n[[generators]]\nkind = \"value-scale\"\nsquare = \"{}\"\npieces = \"{}\"\npawn_odds = \"{}\"",
            self.square,
            self.pieces.iter().collect::<String>(),
            self.pawn_odds_square
        );
        t
    }
}

/// What every planned study writes after its comment: name, description,
/// variant and seed; mutation switched off where the variant mutates
/// (`kept_as`: what the pieces stay, "compared as" or "valued as"); the
/// engine, openings and adjudication.
fn write_setup(t: &mut String, s: &StudySettings, description: &str, kept_as: Option<&str>) {
    let _ = writeln!(t, "name = {}", toml_string(&s.name));
    let _ = writeln!(t, "description = {}", toml_string(description));
    let _ = writeln!(t, "variant = {}", toml_string(&s.variant));
    let _ = writeln!(t, "seed = {}\n", s.seed);
    if let Some(kept_as) = kept_as {
        let _ = writeln!(
            t,
            "# Pieces stay what they are {kept_as}: no mutation in the pocket.\n\
             [rules]\npocket = {{ mutation = false }}\n"
        );
    }
    let _ = writeln!(t, "[engine]\nnodes = {}", s.nodes);
    if let Some(eval) = &s.eval {
        let _ = writeln!(t, "eval = {}", toml_string(eval));
    }
    t.push_str(
        "\n[openings]\nrandom_plies = 6\n\n\
         [adjudication]\nmax_plies = 400\nresign_score = 1000\nresign_moves = 4\n\
         draw_score = 10\ndraw_moves = 12\ndraw_after_ply = 140\n\n",
    );
}

/// `letter` as a slot of `class`, checked.
fn checked_slot(
    variant: &Variant,
    start: &Position<'_>,
    class: u8,
    letter: char,
) -> Result<PieceType, PlanError> {
    variant
        .piece_by_letter(letter)
        .filter(|&t| can_be_slot(variant, start, t))
        .ok_or(PlanError::BadSlot { class, letter })
}

fn can_be_slot(variant: &Variant, start: &Position<'_>, kind: PieceType) -> bool {
    kind != variant.royal && !variant.is_pawn(kind) && start.pieces_of_type(kind).any()
}

/// The slot piece of a class by the module's rule.
fn slot_piece(variant: &Variant, start: &Position<'_>, members: &[PieceType]) -> Option<PieceType> {
    if let Some(&member) = members.iter().find(|&&t| can_be_slot(variant, start, t)) {
        return Some(member);
    }
    let mean = members
        .iter()
        .map(|&t| f64::from(variant.piece(t).value))
        .sum::<f64>()
        / members.len() as f64;
    let candidates: Vec<(PieceType, f64)> = variant
        .piece_types()
        .filter(|&t| can_be_slot(variant, start, t))
        .map(|t| (t, f64::from(variant.piece(t).value)))
        .collect();
    let below = candidates
        .iter()
        .filter(|(_, v)| *v <= mean)
        .max_by(|a, b| a.1.total_cmp(&b.1));
    let above = candidates
        .iter()
        .filter(|(_, v)| *v > mean)
        .min_by(|a, b| a.1.total_cmp(&b.1));
    below.or(above).map(|&(t, _)| t)
}

/// White's pawn on the f-file, else White's first pawn in square order.
fn pawn_odds_square(variant: &Variant, start: &Position<'_>) -> Option<Square> {
    let pawns: Vec<Square> = variant
        .piece_types()
        .filter(|&t| variant.is_pawn(t))
        .flat_map(|t| start.pieces_of_type(t) & start.pieces_of(Color::White))
        .collect();
    pawns
        .iter()
        .copied()
        .filter(|sq| sq.file() == 5)
        .min()
        .or_else(|| pawns.iter().copied().min())
}

/// `text` as a TOML basic string.
fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Experiment;
    use std::path::Path;

    fn settings(variant: &str) -> StudySettings {
        StudySettings {
            name: "study".into(),
            variant: variant.into(),
            seed: 7,
            nodes: 1000,
            max_pairs: 40,
            look_every: 10,
            budget_games: Some(600),
            eval: None,
        }
    }

    #[test]
    fn pocket_mutation_chess_is_planned_as_its_study_of_record() {
        let variant = pocketlab_core::builtin::load("pocket-mutation").unwrap();
        let plan = StudyPlan::new(&variant, settings("pocket-mutation"), &BTreeMap::new()).unwrap();
        let slots: Vec<(u8, char)> = plan.classes.iter().map(|c| (c.class, c.slot)).collect();
        // Classes 2, 3 and 5 have a member in the start position; 4, 6 and
        // 7 take the most valuable start piece worth no more than their mean.
        assert_eq!(
            slots,
            [(2, 'B'), (3, 'R'), (4, 'R'), (5, 'Q'), (6, 'Q'), (7, 'Q')]
        );
        assert_eq!(plan.pairs(), 15);
        assert_eq!(plan.pawn_odds_square.to_string(), "f2");
        assert_eq!(plan.max_games(), 600);
        // The file plays: 15 pairs and the calibration.
        let exp = Experiment::parse("study.toml", &plan.to_toml(), Path::new(".")).unwrap();
        assert_eq!(exp.matchups.len(), plan.matchups());
        assert!(!exp.variant.rules.pocket.as_ref().unwrap().mutation);
    }

    #[test]
    fn slots_can_be_overridden_and_are_checked() {
        let variant = pocketlab_core::builtin::load("pocket-mutation").unwrap();
        let plan = StudyPlan::new(
            &variant,
            settings("pocket-mutation"),
            &BTreeMap::from([(2, 'N')]),
        )
        .unwrap();
        assert_eq!(plan.classes[0].slot, 'N');
        for (class, letter) in [(2, 'K'), (2, 'P'), (2, 'C')] {
            let e = StudyPlan::new(
                &variant,
                settings("pocket-mutation"),
                &BTreeMap::from([(class, letter)]),
            )
            .unwrap_err();
            assert_eq!(e, PlanError::BadSlot { class, letter });
        }
        let e = StudyPlan::new(
            &variant,
            settings("pocket-mutation"),
            &BTreeMap::from([(8, 'Q')]),
        )
        .unwrap_err();
        assert!(matches!(e, PlanError::NoSuchClass { class: 8, .. }), "{e}");
    }

    #[test]
    fn a_variant_without_classes_is_told_what_to_add() {
        let variant = pocketlab_core::builtin::load("chess").unwrap();
        let e = StudyPlan::new(&variant, settings("chess"), &BTreeMap::new()).unwrap_err();
        assert_eq!(e, PlanError::NoClasses("chess".into()));
        assert!(e.to_string().contains("classes = ["), "{e}");
    }

    #[test]
    fn pocket_mutation_chess_scale_is_planned_as_the_scale_of_record() {
        let variant = pocketlab_core::builtin::load("pocket-mutation").unwrap();
        let mut settings = settings("pocket-mutation");
        settings.max_pairs = 1000;
        settings.budget_games = Some(2000);
        let plan = ScaleStudyPlan::new(&variant, settings, None).unwrap();
        assert_eq!(plan.square.to_string(), "b1");
        assert_eq!(plan.pawn_odds_square.to_string(), "f2");
        assert_eq!(plan.pieces.len(), 17);
        assert_eq!(plan.unit_max_pairs, 3000);
        // The file plays the scale of record's 34 matchups.
        let exp = Experiment::parse("scale.toml", &plan.to_toml(), Path::new(".")).unwrap();
        assert_eq!(exp.matchups.len(), 34);
        assert!(exp.stop.value_scale().is_some());
        assert_eq!(exp.stop.budget_games(), Some(2000));
        assert!(!exp.variant.rules.pocket.as_ref().unwrap().mutation);
    }

    #[test]
    fn a_scale_square_must_hold_a_white_piece_that_can_be_exchanged() {
        let variant = pocketlab_core::builtin::load("pocket-mutation").unwrap();
        let on = |square| ScaleStudyPlan::new(&variant, settings("pocket-mutation"), Some(square));
        assert_eq!(on("g1").unwrap().square.to_string(), "g1");
        for bad in ["e1", "e2", "b8", "e4", "z9"] {
            assert_eq!(on(bad).unwrap_err(), PlanError::BadScaleSquare(bad.into()));
        }
        let chess = pocketlab_core::builtin::load("chess").unwrap();
        let e = ScaleStudyPlan::new(&chess, settings("chess"), None).unwrap_err();
        assert_eq!(e, PlanError::NoClasses("chess".into()));
    }

    #[test]
    fn a_revised_table_is_confirmed_on_its_new_pairs_only() {
        let today = pocketlab_core::builtin::load("pocket-mutation").unwrap();
        let text = r#"
name = "proposed"
inherits = "pocket-mutation"
classes = ["P", "BN", "RXI", "UC", "HQ", "DFGE", "JAL", "M"]
"#;
        let proposed = pocketlab_core::kind::parse_variant("proposed.toml", text, &|name| {
            pocketlab_core::builtin::resolve(name)
        })
        .unwrap();
        let mut plan =
            StudyPlan::new(&proposed, settings("proposed.toml"), &BTreeMap::new()).unwrap();
        assert_eq!(plan.pairs(), 15);
        plan.keep_new_pairs(&today).unwrap();
        // D and F were together in class 5, G and E in class 6, A and L in 7.
        let new: Vec<(u8, Vec<(char, char)>)> = plan
            .classes
            .iter()
            .map(|c| (c.class, c.only.clone()))
            .collect();
        assert_eq!(
            new,
            [
                (6, vec![('D', 'G'), ('D', 'E'), ('F', 'G'), ('F', 'E')]),
                (7, vec![('J', 'A'), ('J', 'L')]),
            ]
        );
        assert_eq!(plan.pairs(), 6);
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("proposed.toml"), text).unwrap();
        let exp = Experiment::parse("study.toml", &plan.to_toml(), dir.path()).unwrap();
        assert_eq!(exp.matchups.len(), 7, "6 pairs and the calibration");
        // The table itself has no new pair.
        let mut same =
            StudyPlan::new(&today, settings("pocket-mutation"), &BTreeMap::new()).unwrap();
        assert_eq!(
            same.keep_new_pairs(&today).unwrap_err(),
            PlanError::NoNewPairs("pocket-mutation".into())
        );
    }
}
