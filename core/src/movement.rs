//! Piece moves compiled from Betza rules into per-square tables.
//!
//! Every table is indexed by the square a piece stands on, so a move set may
//! differ from square to square (initial-rank moves; square-dependent pieces).
//! Rays along ranks, files and diagonals use the magic slider lookups masked
//! by the squares the piece may reach; every other ray (nightrider lines) is
//! tabled per square and cut at its first occupied square by a bit scan.

use crate::betza::{MoveRule, Ray};
use crate::sliders::{bishop_attacks, rook_attacks};
use crate::types::{Bitboard, Color, Square};

/// A non-unit ray (nightrider and the like). Its squares from each start,
/// in either direction, are tabled: along a ray every step adds the same
/// number to the square index, so the nearest occupied square is the lowest
/// or the highest bit of the ray's occupied squares, and no ray is walked
/// at run time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WalkedRay {
    pub dx: i8,
    pub dy: i8,
    pub min_steps: u8,
    pub max_steps: u8,
    pub quiet: bool,
    pub capture: bool,
    /// Squares this ray may start from.
    pub from: Bitboard,
    lines: Box<RayLines>,
}

/// A ray's squares from every square, steps 1 to `max_steps`, forwards and
/// backwards, and the part of each at `min_steps` or more.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RayLines {
    forward: [Bitboard; 64],
    forward_far: [Bitboard; 64],
    backward: [Bitboard; 64],
    backward_far: [Bitboard; 64],
}

/// The squares of `line` from its start up to and including its first
/// square in `occupied`, for a line whose square indices grow (`ascending`)
/// or shrink step by step.
#[inline]
fn up_to_first_blocker(line: Bitboard, occupied: Bitboard, ascending: bool) -> Bitboard {
    let blockers = (line & occupied).0;
    if blockers == 0 {
        return line;
    }
    let keep = if ascending {
        // Bits up to the lowest blocker, inclusive.
        blockers ^ blockers.wrapping_sub(1)
    } else {
        // Bits from the highest blocker up.
        !((1u64 << (63 - blockers.leading_zeros())) - 1)
    };
    Bitboard(line.0 & keep)
}

impl WalkedRay {
    fn new(
        dx: i8,
        dy: i8,
        (min_steps, max_steps): (u8, u8),
        (quiet, capture): (bool, bool),
        from: Bitboard,
    ) -> WalkedRay {
        let mut lines = Box::new(RayLines {
            forward: [Bitboard::EMPTY; 64],
            forward_far: [Bitboard::EMPTY; 64],
            backward: [Bitboard::EMPTY; 64],
            backward_far: [Bitboard::EMPTY; 64],
        });
        for start in Square::all() {
            for (sign, all, far) in [
                (1, &mut lines.forward, &mut lines.forward_far),
                (-1, &mut lines.backward, &mut lines.backward_far),
            ] {
                let mut cur = start;
                for step in 1..=max_steps {
                    let Some(next) = cur.offset(sign * dx, sign * dy) else {
                        break;
                    };
                    all[start.index()] = all[start.index()].with(next);
                    if step >= min_steps {
                        far[start.index()] = far[start.index()].with(next);
                    }
                    cur = next;
                }
            }
        }
        WalkedRay {
            dx,
            dy,
            min_steps,
            max_steps,
            quiet,
            capture,
            from,
            lines,
        }
    }

    /// Whether square indices grow along the ray (forwards).
    #[inline]
    fn ascends(&self) -> bool {
        self.dy > 0 || (self.dy == 0 && self.dx > 0)
    }

    /// Squares reached from `from`: every square up to and including the
    /// first occupied one, within the step bounds.
    #[inline]
    pub fn reach(&self, from: Square, occupied: Bitboard) -> Bitboard {
        let i = from.index();
        up_to_first_blocker(self.lines.forward[i], occupied, self.ascends())
            & self.lines.forward_far[i]
    }

    /// The squares back from `to` along this ray, up to and including the
    /// first occupied one, nearer than `min_steps` included.
    #[inline]
    pub(crate) fn line_back(&self, to: Square, occupied: Bitboard) -> Bitboard {
        up_to_first_blocker(self.lines.backward[to.index()], occupied, !self.ascends())
    }

    /// Whether `from` is at least `min_steps` back from `to` on this ray.
    #[inline]
    pub(crate) fn far_enough_back(&self, to: Square, from: Square) -> bool {
        self.lines.backward_far[to.index()].contains(from)
    }

    /// Squares that reach `to` along this ray: every square back from `to`
    /// up to and including the first occupied one, within the step bounds
    /// (where the ray may start is not checked).
    #[inline]
    fn reach_back(&self, to: Square, occupied: Bitboard) -> Bitboard {
        self.line_back(to, occupied) & self.lines.backward_far[to.index()]
    }
}

/// A square under attack at one occupancy, with the rook and bishop lines
/// through it (blockers included): looked up once and shared by every piece
/// type asked who attacks the square or from where it could be attacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SliderLines {
    square: Square,
    occupied: Bitboard,
    orthogonal: Bitboard,
    diagonal: Bitboard,
}

impl SliderLines {
    #[inline]
    pub fn new(square: Square, occupied: Bitboard) -> SliderLines {
        SliderLines {
            square,
            occupied,
            orthogonal: rook_attacks(square, occupied),
            diagonal: bishop_attacks(square, occupied),
        }
    }
}

/// The moves of one piece type for one side.
#[derive(Clone, Debug)]
pub(crate) struct PieceMoves {
    pub(crate) leap_quiet: Box<[Bitboard; 64]>,
    pub(crate) leap_capture: Box<[Bitboard; 64]>,
    /// Leaping captures that may take en passant.
    pub(crate) leap_en_passant: Box<[Bitboard; 64]>,
    pub(crate) orth_quiet: Box<[Bitboard; 64]>,
    pub(crate) orth_capture: Box<[Bitboard; 64]>,
    pub(crate) diag_quiet: Box<[Bitboard; 64]>,
    pub(crate) diag_capture: Box<[Bitboard; 64]>,
    pub(crate) walked: Vec<WalkedRay>,
    /// Reverse tables: squares from which this piece captures onto a square.
    pub(crate) rev_leap_capture: Box<[Bitboard; 64]>,
    pub(crate) rev_orth_capture: Box<[Bitboard; 64]>,
    pub(crate) rev_diag_capture: Box<[Bitboard; 64]>,
    pub(crate) rev_leap_en_passant: Box<[Bitboard; 64]>,
    pub(crate) has_en_passant: bool,
    pub(crate) has_orth: bool,
    pub(crate) has_diag: bool,
    pub(crate) has_orth_capture: bool,
    pub(crate) has_diag_capture: bool,
    pub(crate) has_walked_capture: bool,
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
    /// Whether the piece moves alike on a board seen in a mirror (files a
    /// to h reversed): every table at the mirrored square is the mirrored
    /// table, and every walked ray has its mirror image.
    pub fn is_file_symmetric(&self) -> bool {
        let tables = [
            &self.leap_quiet,
            &self.leap_capture,
            &self.leap_en_passant,
            &self.orth_quiet,
            &self.orth_capture,
            &self.diag_quiet,
            &self.diag_capture,
        ];
        let tables_mirror = tables.iter().all(|table| {
            Square::all().all(|sq| {
                table[sq.flip_horizontal().index()] == table[sq.index()].flip_horizontal()
            })
        });
        tables_mirror
            && self.walked.iter().all(|ray| {
                self.walked.iter().any(|other| {
                    other.dx == -ray.dx
                        && other.dy == ray.dy
                        && other.min_steps == ray.min_steps
                        && other.max_steps == ray.max_steps
                        && other.quiet == ray.quiet
                        && other.capture == ray.capture
                        && other.from == ray.from.flip_horizontal()
                })
            })
    }

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
                    let same_ray = |w: &WalkedRay| {
                        (w.dx, w.dy, w.min_steps, w.max_steps, w.quiet, w.capture)
                            == (
                                dx,
                                dy,
                                ray.min_steps,
                                ray.max_steps,
                                rule.mode.quiet,
                                rule.mode.capture,
                            )
                    };
                    // Merge identical rays that differ only in where they start.
                    match m.walked.iter_mut().find(|w| same_ray(w)) {
                        Some(existing) => existing.from |= *region,
                        None => m.walked.push(WalkedRay::new(
                            dx,
                            dy,
                            (ray.min_steps, ray.max_steps),
                            (rule.mode.quiet, rule.mode.capture),
                            *region,
                        )),
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
    pub(crate) fn targets_and_capture_reach(
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
    pub(crate) fn capture_reach(&self, from: Square, occupied: Bitboard) -> Bitboard {
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

    /// Squares (empty or not) from which this piece would capture onto the
    /// target's square at its occupancy: where it could stand to check a
    /// king there.
    pub(crate) fn attack_origins(&self, target: &SliderLines) -> Bitboard {
        let i = target.square.index();
        let mut out = self.rev_leap_capture[i];
        if self.has_orth_capture {
            out |= target.orthogonal & self.rev_orth_capture[i];
        }
        if self.has_diag_capture {
            out |= target.diagonal & self.rev_diag_capture[i];
        }
        if self.has_walked_capture {
            for w in self.walked.iter().filter(|w| w.capture) {
                out |= w.reach_back(target.square, target.occupied) & w.from;
            }
        }
        out
    }

    /// Pieces among `candidates` (all of this type and side) that capture
    /// onto the target's square at its occupancy.
    #[inline]
    pub(crate) fn attackers_of(&self, target: &SliderLines, candidates: Bitboard) -> Bitboard {
        let i = target.square.index();
        let mut out = self.rev_leap_capture[i] & candidates;
        if self.has_orth_capture {
            out |= target.orthogonal & self.rev_orth_capture[i] & candidates;
        }
        if self.has_diag_capture {
            out |= target.diagonal & self.rev_diag_capture[i] & candidates;
        }
        if self.has_walked_capture {
            let occupied = target.occupied;
            for w in self.walked.iter().filter(|w| w.capture) {
                // Back from the target, only the first piece can capture.
                out |= w.reach_back(target.square, occupied) & occupied & candidates & w.from;
            }
        }
        out
    }
}
