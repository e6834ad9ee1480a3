//! Rook- and bishop-line attacks by magic bitboards, and squares between.
//!
//! The tables are built once, on first use, into an immutable static, from
//! magic factors found once and shipped as constants (searching them at
//! start-up cost every process a third of a second).

use std::sync::LazyLock;

use crate::types::{Bitboard, Square};

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Magic factors for rook lines, by square (a1 = 0): found once by
/// [`tests::find_magic`] and checked collision-free by the tests.
const ROOK_MAGICS: [u64; 64] = [
    0x0080_0216_2080_4001,
    0x0040_0010_0020_0041,
    0x0200_1022_0008_8040,
    0x4080_0408_0082_1000,
    0x2200_0200_0420_0810,
    0x4b00_020c_000d_0008,
    0x0100_0c41_8300_0600,
    0x2080_0100_0040_2c80,
    0x8002_8008_2686_4000,
    0x0410_8020_0088_4000,
    0x0c01_0040_1020_0100,
    0xc802_0012_0008_4023,
    0x0202_000a_0010_2004,
    0x4010_8002_0004_0080,
    0x8804_0002_0804_8110,
    0x0c40_8000_8000_4100,
    0xa201_8880_0240_04a0,
    0x0100_9080_2000_4000,
    0x1010_4100_1020_0101,
    0x2010_0080_0800_8010,
    0x0a08_0100_0411_0008,
    0x0802_0801_0420_9040,
    0x0080_0400_9001_0802,
    0x0280_0200_0084_1069,
    0x080c_4000_8024_8000,
    0x2048_8501_0022_4008,
    0x0020_0800_c030_0040,
    0x1140_0d01_0020_1000,
    0x0208_0400_8080_0800,
    0x0060_0400_8080_0200,
    0x0420_0100_8080_0200,
    0x9008_0102_0000_4084,
    0x0080_0020_0040_0040,
    0x0420_1000_4040_0020,
    0x0190_1300_4500_2000,
    0x4010_0044_0240_0800,
    0x0104_0801_0100_1004,
    0x0000_0200_8080_0400,
    0x0600_4208_0400_8110,
    0x692c_0044_8200_1524,
    0x0020_8030_4000_8001,
    0x0020_0840_3000_4000,
    0x0480_2001_0445_0010,
    0x0190_1000_2501_0008,
    0x0401_0088_0111_0004,
    0x0809_0014_0009_0046,
    0x2004_8890_0104_0002,
    0x0008_03a2_4c02_0003,
    0x9000_4000_8000_2080,
    0x0200_4010_0020_0040,
    0x8299_a008_9000_8480,
    0x0224_0800_1000_8480,
    0x0028_0029_0010_2500,
    0x3101_8440_2010_0801,
    0x1001_000e_0004_0300,
    0x0080_1108_8044_0200,
    0x8100_9440_8005_2101,
    0x0c00_8200_4021_0012,
    0x0a20_1220_00c1_0901,
    0x0620_2100_0410_0109,
    0x0002_0020_0804_1002,
    0x0002_0001_0410_0802,
    0x8420_5002_0801_1084,
    0x0001_0000_2042_0081,
];

/// Magic factors for bishop lines, by square (a1 = 0): found once by
/// [`tests::find_magic`] and checked collision-free by the tests.
const BISHOP_MAGICS: [u64; 64] = [
    0x8049_0108_0800_4080,
    0x20a0_9c04_1040_4004,
    0x0010_0112_0020_0000,
    0x0002_0a02_0a00_2000,
    0x0841_1040_4818_9088,
    0x0051_1042_1040_2001,
    0x0201_0090_8460_04c1,
    0x2100_2201_00a0_1080,
    0x0020_1002_0244_0400,
    0x0c00_2022_0401_0034,
    0x0000_0808_0850_8200,
    0x0020_0220_8202_8011,
    0xc000_0404_2000_8010,
    0x1204_382a_3010_0020,
    0x0002_8508_0190_0800,
    0x2880_0422_1210_4440,
    0xa808_10c0_9001_9200,
    0x0004_c020_8c2c_0040,
    0x0008_8230_1400_4088,
    0x0208_0044_2202_2000,
    0x4242_8894_00a0_0618,
    0x400a_0001_0901_2002,
    0x0001_2800_8410_0222,
    0x0440_4008_9044_1040,
    0x0020_0831_1010_8108,
    0x0408_8400_2244_0800,
    0x8920_9001_0800_2020,
    0x8044_0100_5010_0408,
    0x0991_0041_0400_4051,
    0x0008_0200_0641_1880,
    0x0501_2202_0400_8402,
    0x8200_9200_0421_0400,
    0x82a1_0440_0111_1080,
    0x0101_0403_8410_1000,
    0x0022_0110_0001_0048,
    0x2011_0200_8208_0080,
    0x0000_5010_4004_0040,
    0x0210_0102_0140_4040,
    0x0010_0400_41a0_8208,
    0x8088_0241_4821_0300,
    0x0000_8848_0820_4082,
    0xc824_0114_0304_1001,
    0x0002_0080_2400_2080,
    0xf4d0_0111_4401_9800,
    0x0200_2101_2200_0400,
    0x8102_6014_0020_0501,
    0x0004_0808_0128_0442,
    0x0c02_4200_4112_d200,
    0x1014_2404_0404_4000,
    0x0103_0900_8220_0020,
    0x0c00_0104_1104_004c,
    0x4080_8050_8404_1020,
    0x080a_1020_4424_0002,
    0x0000_4011_0244_8484,
    0x100b_a001_1401_0000,
    0xa410_0222_0424_2600,
    0x182a_0108_8210_0200,
    0x1020_0042_0210_0200,
    0x9001_1c00_3402_0800,
    0x20e1_0000_0020_8800,
    0x2000_0040_90a0_2204,
    0x0001_0009_20a8_0880,
    0x1200_2060_89a1_0100,
    0x0110_5410_0442_0023,
];

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
pub(crate) fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let t = &*TABLES;
    t.lookup(&t.rook[sq.index()], occupied)
}

/// Squares a bishop on `sq` attacks given the occupied squares (blockers included).
#[inline]
pub(crate) fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
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
        let mut rook = [Magic::default(); 64];
        let mut bishop = [Magic::default(); 64];
        for sq in Square::all() {
            let i = sq.index();
            rook[i] = fill_magic(sq, &ROOK_DIRS, ROOK_MAGICS[i], &mut attacks);
            bishop[i] = fill_magic(sq, &BISHOP_DIRS, BISHOP_MAGICS[i], &mut attacks);
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

/// Every subset of `mask` (Carry-Rippler) with the attacks along `dirs`
/// from `sq` when exactly that subset is occupied.
fn occupancies(sq: Square, dirs: &[(i8, i8)], mask: u64) -> Vec<(u64, Bitboard)> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut subset = 0u64;
    loop {
        out.push((subset, ray_attacks(sq, dirs, Bitboard(subset))));
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            return out;
        }
    }
}

/// The lookup for `sq` with a known-good `factor`, its table appended to
/// `attacks`.
fn fill_magic(sq: Square, dirs: &[(i8, i8)], factor: u64, attacks: &mut Vec<Bitboard>) -> Magic {
    let mask = relevant_mask(sq, dirs);
    let bits = mask.count_ones();
    let shift = 64 - bits;
    let offset = attacks.len();
    attacks.resize(offset + (1 << bits), Bitboard::EMPTY);
    for (occ, att) in occupancies(sq, dirs, mask) {
        let index = (occ.wrapping_mul(factor) >> shift) as usize;
        // Collisions are only allowed between equal attack sets (the tests
        // check every shipped factor).
        debug_assert!(attacks[offset + index] == Bitboard::EMPTY || attacks[offset + index] == att);
        attacks[offset + index] = att;
    }
    Magic {
        mask,
        factor,
        shift,
        offset: offset as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::splitmix;

    /// Searches a magic factor for `sq`: random sparse factors until one
    /// maps every occupancy to a slot without a harmful collision. This is
    /// how the shipped constants were found.
    pub(super) fn find_magic(sq: Square, dirs: &[(i8, i8)], state: &mut u64) -> u64 {
        let mut next = || {
            let value = splitmix(*state);
            *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            value
        };
        let mask = relevant_mask(sq, dirs);
        let shift = 64 - mask.count_ones();
        let entries = occupancies(sq, dirs, mask);
        loop {
            let factor = next() & next() & next();
            if (mask.wrapping_mul(factor) >> 56).count_ones() >= 6
                && collision_free(&entries, factor, shift)
            {
                return factor;
            }
        }
    }

    fn collision_free(entries: &[(u64, Bitboard)], factor: u64, shift: u32) -> bool {
        let mut table: Vec<Option<Bitboard>> = vec![None; 1 << (64 - shift)];
        entries.iter().all(|&(occ, att)| {
            let slot = &mut table[(occ.wrapping_mul(factor) >> shift) as usize];
            *slot.get_or_insert(att) == att
        })
    }

    #[test]
    fn shipped_magic_factors_are_collision_free() {
        for sq in Square::all() {
            for (dirs, factors) in [(&ROOK_DIRS, &ROOK_MAGICS), (&BISHOP_DIRS, &BISHOP_MAGICS)] {
                let mask = relevant_mask(sq, dirs);
                let entries = occupancies(sq, dirs, mask);
                assert!(
                    collision_free(&entries, factors[sq.index()], 64 - mask.count_ones()),
                    "{sq:?}"
                );
            }
        }
    }

    #[test]
    fn the_shipped_factors_are_what_the_search_finds() {
        let mut state = 0x9e37_79b9_7f4a_7c15;
        for sq in Square::all() {
            assert_eq!(
                find_magic(sq, &ROOK_DIRS, &mut state),
                ROOK_MAGICS[sq.index()]
            );
            assert_eq!(
                find_magic(sq, &BISHOP_DIRS, &mut state),
                BISHOP_MAGICS[sq.index()]
            );
        }
    }

    #[test]
    fn magic_lookups_match_ray_walks() {
        let mut state = 7u64;
        let mut next = || {
            state = state.wrapping_add(1);
            splitmix(state)
        };
        for sq in Square::all() {
            for _ in 0..200 {
                let occ = Bitboard(next() & next());
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
