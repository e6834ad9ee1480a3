//! Rook- and bishop-line attacks by magic bitboards, and squares between.
//!
//! The tables are built once, on first use, into an immutable static; the
//! magic factors are searched with a fixed-seed generator, so every process
//! builds identical tables (a few milliseconds).

use std::sync::LazyLock;

use crate::types::{Bitboard, Square};

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

#[derive(Clone, Copy, Default)]
struct Magic {
    mask: u64,
    factor: u64,
    shift: u32,
    offset: u32,
}

struct Tables {
    rook: [Magic; 64],
    bishop: [Magic; 64],
    attacks: Vec<Bitboard>,
    /// Squares strictly between two squares on a shared rank, file or diagonal.
    between: Vec<Bitboard>,
}

static TABLES: LazyLock<Tables> = LazyLock::new(Tables::build);

/// Squares a rook on `sq` attacks given the occupied squares (blockers included).
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let t = &*TABLES;
    t.lookup(&t.rook[sq.index()], occupied)
}

/// Squares a bishop on `sq` attacks given the occupied squares (blockers included).
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let t = &*TABLES;
    t.lookup(&t.bishop[sq.index()], occupied)
}

/// Squares strictly between `a` and `b` if they share a line, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    TABLES.between[a.index() * 64 + b.index()]
}

impl Tables {
    #[inline]
    fn lookup(&self, m: &Magic, occupied: Bitboard) -> Bitboard {
        let index = ((occupied.0 & m.mask).wrapping_mul(m.factor) >> m.shift) as usize;
        self.attacks[m.offset as usize + index]
    }

    fn build() -> Tables {
        let mut attacks = Vec::new();
        let mut rng = SplitMix(0x9e37_79b9_7f4a_7c15);
        let mut rook = [Magic::default(); 64];
        let mut bishop = [Magic::default(); 64];
        for sq in Square::all() {
            rook[sq.index()] = find_magic(sq, &ROOK_DIRS, &mut attacks, &mut rng);
            bishop[sq.index()] = find_magic(sq, &BISHOP_DIRS, &mut attacks, &mut rng);
        }
        let mut between = vec![Bitboard::EMPTY; 64 * 64];
        for a in Square::all() {
            for &(dx, dy) in ROOK_DIRS.iter().chain(&BISHOP_DIRS) {
                let mut path = Bitboard::EMPTY;
                let mut cur = a;
                while let Some(next) = cur.offset(dx, dy) {
                    between[a.index() * 64 + next.index()] = path;
                    path = path.with(next);
                    cur = next;
                }
            }
        }
        Tables {
            rook,
            bishop,
            attacks,
            between,
        }
    }
}

/// Attacks along `dirs` from `sq`, stopping at (and including) blockers.
pub(crate) fn ray_attacks(sq: Square, dirs: &[(i8, i8)], occupied: Bitboard) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for &(dx, dy) in dirs {
        let mut cur = sq;
        while let Some(next) = cur.offset(dx, dy) {
            out = out.with(next);
            if occupied.contains(next) {
                break;
            }
            cur = next;
        }
    }
    out
}

/// The squares whose occupancy matters: each ray without its last square.
fn relevant_mask(sq: Square, dirs: &[(i8, i8)]) -> u64 {
    let mut mask = 0;
    for &(dx, dy) in dirs {
        let mut cur = sq;
        while let Some(next) = cur.offset(dx, dy) {
            if next.offset(dx, dy).is_none() {
                break;
            }
            mask |= 1 << next.index();
            cur = next;
        }
    }
    mask
}

fn find_magic(
    sq: Square,
    dirs: &[(i8, i8)],
    attacks: &mut Vec<Bitboard>,
    rng: &mut SplitMix,
) -> Magic {
    let mask = relevant_mask(sq, dirs);
    let bits = mask.count_ones();
    let size = 1usize << bits;
    // Enumerate every subset of the mask (Carry-Rippler) with its attacks.
    let mut occupancies = Vec::with_capacity(size);
    let mut reference = Vec::with_capacity(size);
    let mut subset = 0u64;
    loop {
        occupancies.push(subset);
        reference.push(ray_attacks(sq, dirs, Bitboard(subset)));
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            break;
        }
    }
    let shift = 64 - bits;
    // Each slot remembers the attempt that filled it, so a failed candidate
    // costs nothing to clear.
    let mut table = vec![Bitboard::EMPTY; size];
    let mut filled_by = vec![0u32; size];
    let mut attempt = 0u32;
    loop {
        let factor = rng.next() & rng.next() & rng.next();
        if (mask.wrapping_mul(factor) >> 56).count_ones() < 6 {
            continue;
        }
        attempt += 1;
        let ok = occupancies.iter().zip(&reference).all(|(&occ, &att)| {
            let index = (occ.wrapping_mul(factor) >> shift) as usize;
            if filled_by[index] != attempt {
                filled_by[index] = attempt;
                table[index] = att;
                true
            } else {
                table[index] == att
            }
        });
        if ok {
            let offset = attacks.len() as u32;
            attacks.extend(
                table
                    .iter()
                    .zip(&filled_by)
                    .map(|(&a, &by)| if by == attempt { a } else { Bitboard::EMPTY }),
            );
            return Magic {
                mask,
                factor,
                shift,
                offset,
            };
        }
    }
}

/// A small deterministic generator for the magic search.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_lookups_match_ray_walks() {
        let mut rng = SplitMix(7);
        for sq in Square::all() {
            for _ in 0..200 {
                let occ = Bitboard(rng.next() & rng.next());
                assert_eq!(rook_attacks(sq, occ), ray_attacks(sq, &ROOK_DIRS, occ));
                assert_eq!(bishop_attacks(sq, occ), ray_attacks(sq, &BISHOP_DIRS, occ));
            }
        }
    }

    #[test]
    fn between_is_strict_and_line_only() {
        let a1: Square = "a1".parse().unwrap();
        let d4: Square = "d4".parse().unwrap();
        let b3: Square = "b3".parse().unwrap();
        assert_eq!(between(a1, d4).count(), 2);
        assert_eq!(between(a1, b3), Bitboard::EMPTY);
        assert_eq!(between(a1, a1), Bitboard::EMPTY);
    }
}
