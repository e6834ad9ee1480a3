//! Piece moves compiled from Betza rules into per-square tables.
//!
//! Every table is indexed by the square a piece stands on, so a move set may
//! differ from square to square (initial-rank moves; square-dependent pieces).
//! Rays along ranks, files and diagonals use the magic slider lookups masked
//! by the squares the piece may reach; every other ray (nightrider lines) is
//! walked step by step.

use crate::betza::{MoveRule, Ray};
use crate::sliders::{bishop_attacks, rook_attacks};
use crate::types::{Bitboard, Color, Square};

/// A non-unit ray (nightrider and the like), walked at run time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WalkedRay {
    pub dx: i8,
    pub dy: i8,
    pub min_steps: u8,
    pub max_steps: u8,
    pub quiet: bool,
    pub capture: bool,
    /// Squares this ray may start from.
    pub from: Bitboard,
}

impl WalkedRay {
    /// Squares reached from `from`: every square up to and including the
    /// first occupied one, within the step bounds.
    #[inline]
    pub fn reach(&self, from: Square, occupied: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        let mut cur = from;
        for step in 1..=self.max_steps {
            let Some(next) = cur.offset(self.dx, self.dy) else {
                break;
            };
            if step >= self.min_steps {
                out = out.with(next);
            }
            if occupied.contains(next) {
                break;
            }
            cur = next;
        }
        out
    }
}

/// The moves of one piece type for one side.
#[derive(Clone, Debug)]
pub struct PieceMoves {
    pub leap_quiet: Box<[Bitboard; 64]>,
    pub leap_capture: Box<[Bitboard; 64]>,
    /// Leaping captures that may take en passant.
    pub leap_en_passant: Box<[Bitboard; 64]>,
    pub orth_quiet: Box<[Bitboard; 64]>,
    pub orth_capture: Box<[Bitboard; 64]>,
    pub diag_quiet: Box<[Bitboard; 64]>,
    pub diag_capture: Box<[Bitboard; 64]>,
    pub walked: Vec<WalkedRay>,
    /// Reverse tables: squares from which this piece captures onto a square.
    pub rev_leap_capture: Box<[Bitboard; 64]>,
    pub rev_orth_capture: Box<[Bitboard; 64]>,
    pub rev_diag_capture: Box<[Bitboard; 64]>,
    pub rev_leap_en_passant: Box<[Bitboard; 64]>,
    pub has_en_passant: bool,
    pub has_orth: bool,
    pub has_diag: bool,
    pub has_orth_capture: bool,
    pub has_diag_capture: bool,
    pub has_walked_capture: bool,
}

fn empty_table() -> Box<[Bitboard; 64]> {
    Box::new([Bitboard::EMPTY; 64])
}

fn reverse(table: &[Bitboard; 64]) -> Box<[Bitboard; 64]> {
    let mut rev = empty_table();
    for from in Square::all() {
        for to in table[from.index()] {
            rev[to.index()] = rev[to.index()].with(from);
        }
    }
    rev
}

/// Squares `steps` unit steps along `(dx, dy)` from `from`, for steps in range.
fn unit_ray_mask(from: Square, ray: &Ray, dx: i8, dy: i8) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    let mut cur = from;
    for step in 1..=ray.max_steps {
        let Some(next) = cur.offset(dx, dy) else {
            break;
        };
        if step >= ray.min_steps {
            out = out.with(next);
        }
        cur = next;
    }
    out
}

impl PieceMoves {
    /// Compile rules for `color`; each rule applies from the squares given
    /// with it. Rays are written from White's side and mirrored for Black.
    pub fn compile(color: Color, rules: &[(MoveRule, Bitboard)]) -> PieceMoves {
        let mut m = PieceMoves {
            leap_quiet: empty_table(),
            leap_capture: empty_table(),
            leap_en_passant: empty_table(),
            orth_quiet: empty_table(),
            orth_capture: empty_table(),
            diag_quiet: empty_table(),
            diag_capture: empty_table(),
            walked: Vec::new(),
            rev_leap_capture: empty_table(),
            rev_orth_capture: empty_table(),
            rev_diag_capture: empty_table(),
            rev_leap_en_passant: empty_table(),
            has_en_passant: false,
            has_orth: false,
            has_diag: false,
            has_orth_capture: false,
            has_diag_capture: false,
            has_walked_capture: false,
        };
        for (rule, region) in rules {
            for ray in &rule.rays {
                let dy = ray.dy * color.forward();
                let dx = ray.dx;
                let is_unit = dx.abs() <= 1 && dy.abs() <= 1;
                if ray.max_steps == 1 {
                    for from in *region {
                        if let Some(to) = from.offset(dx, dy) {
                            let i = from.index();
                            if rule.mode.quiet {
                                m.leap_quiet[i] = m.leap_quiet[i].with(to);
                            }
                            if rule.mode.capture {
                                m.leap_capture[i] = m.leap_capture[i].with(to);
                            }
                            if rule.en_passant {
                                m.leap_en_passant[i] = m.leap_en_passant[i].with(to);
                            }
                        }
                    }
                } else if is_unit {
                    let diagonal = dx != 0 && dy != 0;
                    let (quiet, capture) = if diagonal {
                        (&mut m.diag_quiet, &mut m.diag_capture)
                    } else {
                        (&mut m.orth_quiet, &mut m.orth_capture)
                    };
                    for from in *region {
                        let mask = unit_ray_mask(from, ray, dx, dy);
                        if rule.mode.quiet {
                            quiet[from.index()] |= mask;
                        }
                        if rule.mode.capture {
                            capture[from.index()] |= mask;
                        }
                    }
                } else {
                    let walked = WalkedRay {
                        dx,
                        dy,
                        min_steps: ray.min_steps,
                        max_steps: ray.max_steps,
                        quiet: rule.mode.quiet,
                        capture: rule.mode.capture,
                        from: *region,
                    };
                    // Merge identical rays that differ only in where they start.
                    match m.walked.iter_mut().find(|w| {
                        WalkedRay {
                            from: w.from,
                            ..walked.clone()
                        } == **w
                    }) {
                        Some(existing) => existing.from |= *region,
                        None => m.walked.push(walked),
                    }
                }
            }
        }
        m.rev_leap_capture = reverse(&m.leap_capture);
        m.rev_orth_capture = reverse(&m.orth_capture);
        m.rev_diag_capture = reverse(&m.diag_capture);
        m.rev_leap_en_passant = reverse(&m.leap_en_passant);
        let any = |t: &[Bitboard; 64]| t.iter().any(|b| b.any());
        m.has_en_passant = any(&m.leap_en_passant);
        m.has_orth = any(&m.orth_quiet) || any(&m.orth_capture);
        m.has_diag = any(&m.diag_quiet) || any(&m.diag_capture);
        m.has_orth_capture = any(&m.orth_capture);
        m.has_diag_capture = any(&m.diag_capture);
        m.has_walked_capture = m.walked.iter().any(|w| w.capture);
        m
    }

    /// Board moves from `from`: quiet moves onto empty squares and captures
    /// onto `enemies` (en passant excluded).
    #[inline]
    pub fn targets(&self, from: Square, occupied: Bitboard, enemies: Bitboard) -> Bitboard {
        let i = from.index();
        let empty = !occupied;
        let mut out = (self.leap_quiet[i] & empty) | (self.leap_capture[i] & enemies);
        if self.has_orth {
            let a = rook_attacks(from, occupied);
            out |= a & ((self.orth_quiet[i] & empty) | (self.orth_capture[i] & enemies));
        }
        if self.has_diag {
            let a = bishop_attacks(from, occupied);
            out |= a & ((self.diag_quiet[i] & empty) | (self.diag_capture[i] & enemies));
        }
        for w in &self.walked {
            if w.from.contains(from) {
                let reach = w.reach(from, occupied);
                if w.quiet {
                    out |= reach & empty;
                }
                if w.capture {
                    out |= reach & enemies;
                }
            }
        }
        out
    }

    /// [`targets`](Self::targets) and [`capture_reach`](Self::capture_reach)
    /// at once, each line looked up or walked once (the evaluation needs both
    /// for every piece).
    #[inline]
    pub fn targets_and_capture_reach(
        &self,
        from: Square,
        occupied: Bitboard,
        enemies: Bitboard,
    ) -> (Bitboard, Bitboard) {
        let i = from.index();
        let empty = !occupied;
        let mut reach = self.leap_capture[i];
        let mut targets = (self.leap_quiet[i] & empty) | (reach & enemies);
        if self.has_orth {
            let a = rook_attacks(from, occupied);
            let capture = a & self.orth_capture[i];
            reach |= capture;
            targets |= (a & self.orth_quiet[i] & empty) | (capture & enemies);
        }
        if self.has_diag {
            let a = bishop_attacks(from, occupied);
            let capture = a & self.diag_capture[i];
            reach |= capture;
            targets |= (a & self.diag_quiet[i] & empty) | (capture & enemies);
        }
        for w in &self.walked {
            if w.from.contains(from) {
                let line = w.reach(from, occupied);
                if w.quiet {
                    targets |= line & empty;
                }
                if w.capture {
                    reach |= line;
                    targets |= line & enemies;
                }
            }
        }
        (targets, reach)
    }

    /// Squares this piece on `from` could capture on, occupied or not.
    #[inline]
    pub fn capture_reach(&self, from: Square, occupied: Bitboard) -> Bitboard {
        let i = from.index();
        let mut out = self.leap_capture[i];
        if self.has_orth_capture {
            out |= rook_attacks(from, occupied) & self.orth_capture[i];
        }
        if self.has_diag_capture {
            out |= bishop_attacks(from, occupied) & self.diag_capture[i];
        }
        for w in &self.walked {
            if w.capture && w.from.contains(from) {
                out |= w.reach(from, occupied);
            }
        }
        out
    }

    /// Squares (empty or not) from which this piece would capture onto `sq`
    /// given the occupancy: where it could stand to check a king on `sq`.
    pub fn attack_origins(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let i = sq.index();
        let mut out = self.rev_leap_capture[i];
        if self.has_orth_capture {
            out |= rook_attacks(sq, occupied) & self.rev_orth_capture[i];
        }
        if self.has_diag_capture {
            out |= bishop_attacks(sq, occupied) & self.rev_diag_capture[i];
        }
        if self.has_walked_capture {
            for w in self.walked.iter().filter(|w| w.capture) {
                let mut cur = sq;
                for step in 1..=w.max_steps {
                    let Some(prev) = cur.offset(-w.dx, -w.dy) else {
                        break;
                    };
                    if step >= w.min_steps && w.from.contains(prev) {
                        out = out.with(prev);
                    }
                    if occupied.contains(prev) {
                        break;
                    }
                    cur = prev;
                }
            }
        }
        out
    }

    /// Pieces among `candidates` (all of this type and side) that capture
    /// onto `sq` given the occupancy.
    #[inline]
    pub fn attackers_of(&self, sq: Square, occupied: Bitboard, candidates: Bitboard) -> Bitboard {
        let i = sq.index();
        let mut out = self.rev_leap_capture[i] & candidates;
        if self.has_orth_capture {
            out |= rook_attacks(sq, occupied) & self.rev_orth_capture[i] & candidates;
        }
        if self.has_diag_capture {
            out |= bishop_attacks(sq, occupied) & self.rev_diag_capture[i] & candidates;
        }
        if self.has_walked_capture {
            for w in &self.walked {
                if !w.capture {
                    continue;
                }
                // Walk backwards from the target to the first piece.
                let mut cur = sq;
                for step in 1..=w.max_steps {
                    let Some(prev) = cur.offset(-w.dx, -w.dy) else {
                        break;
                    };
                    if occupied.contains(prev) {
                        if step >= w.min_steps && candidates.contains(prev) && w.from.contains(prev)
                        {
                            out = out.with(prev);
                        }
                        break;
                    }
                    cur = prev;
                }
            }
        }
        out
    }
}
