//! Legal move generation, attacks, checks and pins for any Betza piece set.
//!
//! Outside check, only pinned pieces, the royal piece, en passant and
//! castling need care: a pin line is found for every rider direction
//! (nightrider lines included), the royal piece's targets are tested with it
//! lifted off the board, and the rare special moves are verified by playing
//! them. In check, candidates are narrowed to the checker and the line
//! towards it and each survivor is verified by playing it, which is exact
//! for every piece the Betza subset can describe.

use crate::movement::SliderLines;
use crate::moves::{Move, MoveList, castle_king_destination, castle_partner_destination};
use crate::position::Position;
use crate::sliders::{between, bishop_attacks, rook_attacks};
use crate::types::{Bitboard, Color, PieceType, Square};
use crate::variant::Variant;

/// Receives legal moves in batches: a list expands them, a counter only counts.
pub(crate) trait MoveSink {
    /// Normal moves from `from` to every square of `targets`.
    fn normal(&mut self, from: Square, targets: Bitboard);
    /// Promotions from `from` to every square of `targets`, one move per
    /// choice, plus the plain move when promotion is optional.
    fn promotions(
        &mut self,
        from: Square,
        targets: Bitboard,
        choices: &[PieceType],
        optional: bool,
    );
    fn drops(&mut self, kind: PieceType, targets: Bitboard);
    fn pocket_ins(&mut self, from: Square, choices: &[PieceType]);
    fn single(&mut self, mv: Move);
}

impl MoveSink for MoveList {
    fn normal(&mut self, from: Square, targets: Bitboard) {
        self.extend(targets.map(|to| Move::Normal { from, to }));
    }
    fn promotions(
        &mut self,
        from: Square,
        targets: Bitboard,
        choices: &[PieceType],
        optional: bool,
    ) {
        for to in targets {
            self.extend(
                choices
                    .iter()
                    .map(|&into| Move::Promotion { from, to, into }),
            );
            if optional {
                self.push(Move::Normal { from, to });
            }
        }
    }
    fn drops(&mut self, kind: PieceType, targets: Bitboard) {
        self.extend(targets.map(|to| Move::Drop { kind, to }));
    }
    fn pocket_ins(&mut self, from: Square, choices: &[PieceType]) {
        self.extend(choices.iter().map(|&into| Move::PocketIn { from, into }));
    }
    fn single(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// Counts moves without listing them (perft's bulk counting).
pub(crate) struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    fn normal(&mut self, _: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }
    fn promotions(&mut self, _: Square, targets: Bitboard, choices: &[PieceType], optional: bool) {
        self.0 += u64::from(targets.count()) * (choices.len() as u64 + u64::from(optional));
    }
    fn drops(&mut self, _: PieceType, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }
    fn pocket_ins(&mut self, _: Square, choices: &[PieceType]) {
        self.0 += choices.len() as u64;
    }
    fn single(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// Pieces pinned to their royal piece, each with the line it may move along.
struct Pins {
    pinned: Bitboard,
    lines: Vec<(Square, Bitboard)>,
}

impl Pins {
    fn line(&self, sq: Square) -> Bitboard {
        self.lines
            .iter()
            .filter(|(s, _)| *s == sq)
            .fold(Bitboard::FULL, |acc, (_, line)| acc & *line)
    }
}

/// Squares strictly between `a` and `b` at whole multiples of the smallest
/// step joining them (every ray that can join them passes only there).
fn line_between(a: Square, b: Square) -> Bitboard {
    let dx = b.file() as i8 - a.file() as i8;
    let dy = b.rank() as i8 - a.rank() as i8;
    let g = gcd(dx.unsigned_abs(), dy.unsigned_abs()) as i8;
    if g < 2 {
        return Bitboard::EMPTY;
    }
    (1..g)
        .filter_map(|k| a.offset(dx / g * k, dy / g * k))
        .collect()
}

fn gcd(a: u8, b: u8) -> u8 {
    if b == 0 { a } else { gcd(b, a % b) }
}

impl Position<'_> {
    /// Pieces of `by` that capture onto `sq` given the occupancy.
    pub(crate) fn attackers(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        let v = self.variant();
        let lines = SliderLines::new(sq, occupied);
        let mut out = Bitboard::EMPTY;
        for kind in v.piece_types() {
            let bb = self.pieces(by, kind);
            if bb.any() {
                out |= v.moves(by, kind).attackers_of(&lines, bb);
            }
        }
        out
    }

    /// Whether any piece of `by` captures onto `sq` given the occupancy.
    pub(crate) fn is_attacked(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let v = self.variant();
        let lines = SliderLines::new(sq, occupied);
        v.piece_types().any(|kind| {
            let bb = self.pieces(by, kind);
            bb.any() && v.moves(by, kind).attackers_of(&lines, bb).any()
        })
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::with_capacity(64);
        self.generate(&mut list);
        list
    }

    /// Append every legal move to `list`.
    pub(crate) fn append_legal_moves(&self, list: &mut MoveList) {
        self.generate(list);
    }

    /// The number of legal moves (faster than listing them).
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = MoveCounter(0);
        self.generate(&mut counter);
        counter.0
    }

    /// Whether `mv` is legal here.
    pub(crate) fn is_legal(&self, mv: Move) -> bool {
        self.legal_moves().contains(&mv)
    }

    /// Whether playing `mv` (assumed pseudo-legal) leaves the mover's royal piece safe.
    fn keeps_royal_safe(&self, mv: Move) -> bool {
        let us = self.side_to_move();
        let mut next = self.clone();
        next.move_pieces(mv);
        !next.is_attacked(next.royal_square(us), !us, next.occupied())
    }

    fn pins(&self, us: Color) -> Pins {
        let v = self.variant();
        let them = !us;
        let king = self.royal_square(us);
        let occ = self.occupied();
        let ours = self.pieces_of(us);
        let theirs = self.pieces_of(them);
        let mut pins = Pins {
            pinned: Bitboard::EMPTY,
            lines: Vec::new(),
        };
        for kind in v.piece_types() {
            let bb = self.pieces(them, kind);
            if bb.is_empty() {
                continue;
            }
            let m = v.moves(them, kind);
            let mut snipers = Bitboard::EMPTY;
            if m.has_orth_capture {
                snipers |= rook_attacks(king, theirs) & m.rev_orth_capture[king.index()] & bb;
            }
            if m.has_diag_capture {
                snipers |= bishop_attacks(king, theirs) & m.rev_diag_capture[king.index()] & bb;
            }
            for s in snipers {
                let blockers = between(king, s) & occ;
                if blockers.count() == 1 && (blockers & ours).any() {
                    let pinned = blockers.first().expect("one blocker");
                    pins.pinned |= blockers;
                    pins.lines.push((pinned, between(king, s).with(s)));
                }
            }
            for w in m.walked.iter().filter(|w| w.capture) {
                // From the royal piece backwards along the ray: our piece,
                // then the rider.
                let Some(pinned) = (w.line_back(king, occ) & ours).first() else {
                    continue;
                };
                let line = w.line_back(king, occ.without(pinned));
                let Some(rider) = (line & occ).without(pinned).first() else {
                    continue;
                };
                if bb.contains(rider) && w.from.contains(rider) && w.far_enough_back(king, rider) {
                    pins.pinned = pins.pinned.with(pinned);
                    pins.lines.push((pinned, line));
                }
            }
        }
        pins
    }

    /// Captures, promotions (FIDE and by pocketing from the last rank) and,
    /// when in check, every evasion: the moves quiescence search looks at.
    pub fn tactical_moves(&self, list: &mut MoveList) {
        self.generate_filtered(list, true);
    }

    /// Quiet moves and drops that give direct check: a piece moving or
    /// dropped to an empty square from which it attacks the enemy royal
    /// piece, for quiescence search. None when the side to move is in check
    /// (quiescence then searches every evasion). Discovered checks, and
    /// checks along a line the move itself opens, are not listed;
    /// promotions are not (they are tactical moves already). Every move
    /// listed is legal.
    pub fn quiet_checks(&self, list: &mut MoveList) {
        let v = self.variant();
        let us = self.side_to_move();
        let occ = self.occupied();
        if self.is_check() {
            return;
        }
        let lines = SliderLines::new(self.royal_square(!us), occ);
        let theirs = self.pieces_of(!us);
        let empty = !occ;
        let mut pins = None;
        for kind in v.piece_types() {
            let bb = self.pieces(us, kind);
            let pocketed = self.pocket_count(us, kind) > 0;
            if kind == v.royal || (bb.is_empty() && !pocketed) {
                continue;
            }
            let m = v.moves(us, kind);
            let origins = m.attack_origins(&lines) & empty;
            if origins.is_empty() {
                continue;
            }
            let promotion_zone = match v.rules.promotion.as_ref() {
                Some(p) if v.is_pawn(kind) => Variant::relative_ranks_mask(us, p.ranks),
                _ => Bitboard::EMPTY,
            };
            for from in bb {
                let mut targets = m.targets(from, occ, theirs) & origins & !promotion_zone;
                if targets.is_empty() {
                    continue;
                }
                let pins = pins.get_or_insert_with(|| self.pins(us));
                if pins.pinned.contains(from) {
                    targets &= pins.line(from);
                }
                list.normal(from, targets);
            }
            if pocketed {
                list.drops(kind, origins & v.drop_squares(us, kind));
            }
        }
    }

    pub(crate) fn generate(&self, sink: &mut impl MoveSink) {
        self.generate_filtered(sink, false);
    }

    fn generate_filtered(&self, sink: &mut impl MoveSink, tactical_only: bool) {
        let v = self.variant();
        let us = self.side_to_move();
        let them = !us;
        let occ = self.occupied();
        let theirs = self.pieces_of(them);
        let king = self.royal_square(us);
        let checkers = self.checkers();

        // The royal piece: its targets must not be attacked once it has left.
        let mut royal_targets = v.moves(us, v.royal).targets(king, occ, theirs);
        if tactical_only && checkers.is_empty() {
            royal_targets &= theirs;
        }
        let lifted = occ.without(king);
        let safe: Bitboard = royal_targets
            .filter(|&to| !self.is_attacked(to, them, lifted))
            .collect();
        sink.normal(king, safe);

        if checkers.has_more_than_one() {
            return;
        }
        if let Some(checker) = checkers.first() {
            self.generate_evasions(sink, checker);
            return;
        }

        // Found when a piece first has a target (quiescence's nodes often have none).
        let mut pins = None;
        let promotion = v.rules.promotion.as_ref();
        for kind in v.piece_types() {
            let bb = self.pieces(us, kind);
            if bb.is_empty() || kind == v.royal {
                continue;
            }
            let m = v.moves(us, kind);
            let promotion_zone = match promotion {
                Some(p) if v.is_pawn(kind) => Variant::relative_ranks_mask(us, p.ranks),
                _ => Bitboard::EMPTY,
            };
            for from in bb {
                let mut targets = m.targets(from, occ, theirs);
                if tactical_only {
                    targets &= theirs | promotion_zone;
                }
                if targets.is_empty() {
                    continue;
                }
                let pins = pins.get_or_insert_with(|| self.pins(us));
                if pins.pinned.contains(from) {
                    targets &= pins.line(from);
                }
                self.emit_board_moves(sink, from, targets, promotion_zone);
            }
        }
        self.generate_en_passant(sink);
        if !tactical_only {
            self.generate_castling(sink);
            self.generate_drops(sink, Bitboard::FULL, false);
        }
        // Tactical generation keeps the promoting pocket-ins only.
        let pinned = || pins.unwrap_or_else(|| self.pins(us)).pinned;
        self.generate_pocket_ins(sink, pinned, tactical_only);
    }

    fn emit_board_moves(
        &self,
        sink: &mut impl MoveSink,
        from: Square,
        targets: Bitboard,
        promotion_zone: Bitboard,
    ) {
        let promoting = targets & promotion_zone;
        sink.normal(from, targets & !promotion_zone);
        if promoting.any() {
            let p = self
                .variant()
                .rules
                .promotion
                .as_ref()
                .expect("a promotion zone implies promotion rules");
            sink.promotions(from, promoting, &p.choices, !p.mandatory);
        }
    }

    fn generate_evasions(&self, sink: &mut impl MoveSink, checker: Square) {
        let v = self.variant();
        let us = self.side_to_move();
        let occ = self.occupied();
        let theirs = self.pieces_of(!us);
        let king = self.royal_square(us);
        let blocks = line_between(king, checker);
        let promotion = v.rules.promotion.as_ref();
        for kind in v.piece_types() {
            let bb = self.pieces(us, kind);
            if bb.is_empty() || kind == v.royal {
                continue;
            }
            let m = v.moves(us, kind);
            let promotion_zone = match promotion {
                Some(p) if v.is_pawn(kind) => Variant::relative_ranks_mask(us, p.ranks),
                _ => Bitboard::EMPTY,
            };
            for from in bb {
                let candidates = m.targets(from, occ, theirs) & blocks.with(checker);
                let safe: Bitboard = candidates
                    .filter(|&to| self.keeps_royal_safe(Move::Normal { from, to }))
                    .collect();
                self.emit_board_moves(sink, from, safe, promotion_zone);
            }
        }
        self.generate_en_passant(sink);
        self.generate_drops(sink, blocks, true);
    }

    fn generate_en_passant(&self, sink: &mut impl MoveSink) {
        let v = self.variant();
        let Some(ep) = self.en_passant() else { return };
        let us = self.side_to_move();
        for kind in v.piece_types() {
            let m = v.moves(us, kind);
            if !m.has_en_passant {
                continue;
            }
            for from in m.rev_leap_en_passant[ep.index()] & self.pieces(us, kind) {
                let mv = Move::EnPassant { from, to: ep };
                if self.keeps_royal_safe(mv) {
                    sink.single(mv);
                }
            }
        }
    }

    fn generate_castling(&self, sink: &mut impl MoveSink) {
        let v = self.variant();
        let Some(rules) = v.rules.castling else {
            return;
        };
        let us = self.side_to_move();
        let rights = self.castling_rights();
        let back = us.relative_rank(0);
        let king = Square::from_coords(rules.king_file, back);
        let occ = self.occupied();
        for kingside in [true, false] {
            if !rights.has(us, kingside) {
                continue;
            }
            let partner = Square::from_coords(
                if kingside {
                    rules.kingside_file
                } else {
                    rules.queenside_file
                },
                back,
            );
            let king_to = castle_king_destination(king, partner);
            let partner_to = castle_partner_destination(king, partner);
            let must_be_empty = (between(king, partner)
                | between(king, king_to).with(king_to)
                | between(partner, partner_to).with(partner_to))
            .without(king)
            .without(partner);
            if (must_be_empty & occ).any() {
                continue;
            }
            let lifted = occ.without(king);
            let passes_safely = between(king, king_to).all(|sq| !self.is_attacked(sq, !us, lifted));
            let mv = Move::Castle { king, partner };
            if passes_safely && self.keeps_royal_safe(mv) {
                sink.single(mv);
            }
        }
    }

    /// Drops onto empty squares of the drop zone within `allowed`; `verify`
    /// plays each one to check it (needed only when in check).
    fn generate_drops(&self, sink: &mut impl MoveSink, allowed: Bitboard, verify: bool) {
        let v = self.variant();
        let us = self.side_to_move();
        if v.rules.pocket.is_none() || self.pocket_size(us) == 0 {
            return;
        }
        let empty = !self.occupied() & allowed;
        for (kind, _) in self.pocket(us) {
            let targets = empty & v.drop_squares(us, kind);
            if verify {
                let safe = targets
                    .filter(|&to| self.keeps_royal_safe(Move::Drop { kind, to }))
                    .collect();
                sink.drops(kind, safe);
            } else {
                sink.drops(kind, targets);
            }
        }
    }

    /// Pocket-ins of unpinned pieces (`pinned` finds them, asked only if
    /// some piece may go); `promotions_only` keeps those from the last rank.
    fn generate_pocket_ins(
        &self,
        sink: &mut impl MoveSink,
        pinned: impl FnOnce() -> Bitboard,
        promotions_only: bool,
    ) {
        let v = self.variant();
        let Some(rules) = &v.rules.pocket else { return };
        let us = self.side_to_move();
        if !rules.pocket_in || self.pocket_size(us) >= rules.size {
            return;
        }
        if rules.white_first_move_ban && us == Color::White && self.fullmove_number() == 1 {
            return;
        }
        if promotions_only && !rules.promote_from_last_rank {
            return;
        }
        let region = if promotions_only {
            Bitboard::rank(us.relative_rank(7))
        } else {
            Bitboard::FULL
        };
        let candidates = self.pieces_of(us) & region;
        if candidates.is_empty() {
            return;
        }
        // Lifting a pinned piece would expose the royal piece.
        for from in candidates & !pinned() {
            let piece = self
                .piece_at(from)
                .expect("own pieces stand on their squares");
            if piece.kind != v.royal {
                sink.pocket_ins(from, v.pocket_choices(us, piece.kind, from));
            }
        }
    }
}
