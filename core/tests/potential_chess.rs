//! Potential Chess (seed 004): the seed's worked example as the acceptance
//! test, consistency against a brute-force assignment search and against an
//! independent slow move generator, replay of random games as orthodox
//! chess from the implied starting array, notation round-trips and perft.

use std::collections::{BTreeSet, HashMap, HashSet};

use pocketlab_core::builtin;
use pocketlab_core::perft::perft;
use pocketlab_core::potential::{Army, Potential, PotentialMove, PotentialPosition, assign};
use pocketlab_core::{Color, GameStatus, Move, Position, Square, Variant};
use pocketlab_core::{Game, GamePosition};

fn army() -> &'static Army<'static> {
    let variant: &'static Variant = Box::leak(Box::new(builtin::load("potential-chess").unwrap()));
    Box::leak(Box::new(Army::of(variant).unwrap()))
}

/// A small deterministic generator (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

// ---------------------------------------------------------------------------
// The seed's worked example.

const SEED: &str = include_str!("data/potential_seed_example.txt");

fn seed_section(name: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for line in SEED.lines() {
        if let Some(n) = line.strip_prefix("== ") {
            inside = n == name;
            continue;
        }
        if inside && !line.starts_with('#') {
            out.push_str(line);
            out.push('\n');
        }
    }
    assert!(!out.is_empty(), "no section {name}");
    out
}

/// The seed's diagram read square by square: colour from the letters' case
/// (with `white_overrides` for the seed's lower-case White tokens) and the
/// potential from the token.
fn read_diagram(
    army: &Army<'_>,
    text: &str,
    white_overrides: &[&str],
) -> HashMap<Square, (Color, Potential)> {
    let mut out = HashMap::new();
    for line in text.lines() {
        let Some(rank) = line
            .trim_start()
            .chars()
            .next()
            .and_then(|c| c.to_digit(10))
        else {
            continue;
        };
        let cells: Vec<&str> = line.split('|').collect();
        assert_eq!(cells.len(), 10, "row {line:?}");
        for (file, cell) in cells[1..9].iter().enumerate() {
            let token = cell.trim();
            if token.is_empty() {
                continue;
            }
            let square = Square::from_coords(file as u8, rank as u8 - 1);
            let upper = token.chars().any(|c| c.is_ascii_uppercase());
            let color = if upper || white_overrides.contains(&square.to_string().as_str()) {
                Color::White
            } else {
                Color::Black
            };
            let pot = army
                .parse_token(token)
                .unwrap_or_else(|| panic!("seed token {token:?}"));
            out.insert(square, (color, pot));
        }
    }
    out
}

fn assert_matches_diagram(
    pos: &PotentialPosition<'_>,
    expected: &HashMap<Square, (Color, Potential)>,
) {
    let army = pos.army();
    let mut mismatches = Vec::new();
    for s in Square::all() {
        let got = pos.piece_at(s).map(|p| (p.color, p.potential));
        let want = expected.get(&s).copied();
        if got != want {
            let show = |x: Option<(Color, Potential)>| {
                x.map_or("empty".to_string(), |(c, p)| army.token(p, c))
            };
            mismatches.push(format!("{s}: got {} want {}", show(got), show(want)));
        }
    }
    assert!(mismatches.is_empty(), "squares differ: {mismatches:?}");
}

#[test]
fn seed_worked_example_square_by_square() {
    let army = army();
    let start = army.start_position();
    assert_eq!(
        start.to_text(),
        "xxxxxxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXXXXX[] w - 0 1"
    );
    assert_matches_diagram(&start, &read_diagram(army, &seed_section("initial"), &[]));
    assert_eq!(start.diagram(), seed_section("initial"));

    let mut game = Game::new(start);
    fn play(game: &mut Game<PotentialPosition<'_>>, text: &str, canonical: &str) {
        let pos = game.position().clone();
        let mv = pos.parse_move(text).unwrap();
        assert_eq!(pos.format_move(mv), canonical);
        game.play(mv).unwrap();
    }
    play(&mut game, "d2-d4>QRP", "d2-d4>QRP");
    // White's whole second rank was left attackable: no king there.
    assert_eq!(
        game.position().to_text(),
        "xxxxxxxx/xxxxxxxx/8/8/3{QRP}4/8/{!K}{!K}{!K}1{!K}{!K}{!K}{!K}/XXXXXXXX[] b - 0 1"
    );
    play(&mut game, "a7-b5>n", "a7-b5>n");
    let turn1 = seed_section("after-turn-1");
    assert_matches_diagram(game.position(), &read_diagram(army, &turn1, &[]));
    assert_eq!(game.position().diagram(), turn1);

    // The seed writes this White move and square in lower case.
    play(&mut game, "d1-d2>!bn", "d1-d2>!BN");
    play(&mut game, "h7-g5>n", "h7-g5>n");
    let turn2 = seed_section("after-turn-2");
    assert_matches_diagram(game.position(), &read_diagram(army, &turn2, &["d2"]));
    // The printer writes White in upper case: the seed's one lower-case
    // White cell is the only difference.
    assert_eq!(game.position().diagram(), turn2.replace("|!bn|", "|!BN|"));
    assert_eq!(
        game.position().to_text(),
        "(!kn)(!n)(!n)(!n)(!n)(!n)(!n)(!kn)/1(!kn)(!kn)(!kn)(!kn)(!kn)(!kn)1/8/1n4n1/\
         3{QRP}4/8/{!K}{!K}{!K}{!BN}'{!K}{!K}{!K}{!K}/XXX1XXXX[] w - 1 3",
        "the d1 piece has moved to d2 and may be a pawn: marked, no double step"
    );
    assert_eq!(game.status(), GameStatus::Ongoing);
}

// ---------------------------------------------------------------------------
// Brute-force assignment search (exhaustive depth-first search over the
// pieces, remembering dead (piece, remaining counts) states).

fn feasible(pots: &[u32], need: &mut [u8], i: usize, dead: &mut HashSet<u64>) -> bool {
    if i == pots.len() {
        return need.iter().all(|&n| n == 0);
    }
    let key = need
        .iter()
        .fold(i as u64, |acc, &n| acc << 6 | u64::from(n));
    if dead.contains(&key) {
        return false;
    }
    for t in 0..need.len() {
        if pots[i] & (1 << t) != 0 && need[t] > 0 {
            need[t] -= 1;
            let ok = feasible(pots, need, i + 1, dead);
            need[t] += 1;
            if ok {
                return true;
            }
        }
    }
    dead.insert(key);
    false
}

fn brute_feasible(pots: &[u32], need: &[u8]) -> bool {
    feasible(pots, &mut need.to_vec(), 0, &mut HashSet::new())
}

/// Each potential shrunk to the types of some complete assignment, or
/// `None` if there is no assignment: the assignment tree is walked piece by
/// piece over every reachable (piece, remaining counts) state, keeping a
/// choice when the rest of the tree below it can be completed.
fn brute_reduce(pots: &[u32], need: &[u8]) -> Option<Vec<u32>> {
    let mut dead = HashSet::new();
    if !feasible(pots, &mut need.to_vec(), 0, &mut dead) {
        return None;
    }
    let mut out = vec![0u32; pots.len()];
    let mut layer: BTreeSet<Vec<u8>> = BTreeSet::from([need.to_vec()]);
    for i in 0..pots.len() {
        let mut next = BTreeSet::new();
        for state in &layer {
            for t in 0..need.len() {
                if pots[i] & (1 << t) != 0 && state[t] > 0 {
                    let mut rest = state.clone();
                    rest[t] -= 1;
                    if feasible(pots, &mut rest.clone(), i + 1, &mut dead) {
                        out[i] |= 1 << t;
                        next.insert(rest);
                    }
                }
            }
        }
        layer = next;
    }
    Some(out)
}

/// One random assignment, by brute force.
fn brute_pick(pots: &[u32], need: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut fixed = pots.to_vec();
    for p in 0..pots.len() {
        let mut options: Vec<usize> = (0..need.len())
            .filter(|t| fixed[p] & (1 << t) != 0)
            .collect();
        while !options.is_empty() {
            let t = options.swap_remove(rng.below(options.len()));
            let saved = fixed[p];
            fixed[p] = 1 << t;
            if brute_feasible(&fixed, need) {
                break;
            }
            fixed[p] = saved;
        }
        assert_eq!(fixed[p].count_ones(), 1, "no assignment for piece {p}");
    }
    fixed.iter().map(|f| f.trailing_zeros() as u8).collect()
}

fn need_of(pos: &PotentialPosition<'_>, color: Color) -> Vec<u8> {
    let army = pos.army();
    (0..army.len() as u8)
        .map(|t| army.count(t) - pos.captured_count(color, t))
        .collect()
}

#[test]
fn matching_reduction_agrees_with_brute_force_on_random_problems() {
    let mut rng = Rng(7);
    let need = [1u8, 1, 2, 2, 2, 8];
    for _ in 0..400 {
        let n: usize = 16;
        let pots: Vec<u32> = (0..n)
            .map(|_| {
                let mut p = 0;
                while p == 0 {
                    p = (rng.next() & 63) as u32 | if rng.below(2) == 0 { 63 } else { 0 };
                    p &= (rng.next() | rng.next()) as u32 & 63;
                }
                p
            })
            .collect();
        let mut fast: Vec<Potential> = pots.iter().map(|&p| Potential(p)).collect();
        let ok = assign::reduce(&mut fast, &need);
        let brute = brute_reduce(&pots, &need);
        assert_eq!(ok, brute.is_some(), "{pots:?}");
        if let Some(b) = brute {
            assert_eq!(fast.iter().map(|p| p.0).collect::<Vec<_>>(), b, "{pots:?}");
        }
    }
}

// ---------------------------------------------------------------------------
// An independent slow reference for the orthodox army: hand-written piece
// movement and attacks, raw potentials, brute-force reduction.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Cell {
    color: Color,
    pot: u32,
    promoted: Option<u8>,
    /// Has moved (as the position marks it): no pawn double step.
    moved: bool,
}

struct Types {
    k: u8,
    q: u8,
    b: u8,
    r: u8,
    n: u8,
    p: u8,
}

fn types(army: &Army<'_>) -> Types {
    let t = |c| army.type_of_letter(c).unwrap();
    Types {
        k: t('K'),
        q: t('Q'),
        b: t('B'),
        r: t('R'),
        n: t('N'),
        p: t('P'),
    }
}

const ORTH: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// (to, capture) moves of type `t` for `color` from `from`, pawn en passant excluded.
fn naive_moves(
    ty: &Types,
    t: u8,
    color: Color,
    from: Square,
    board: &[Option<Cell>; 64],
) -> Vec<Square> {
    let mut out = Vec::new();
    let own = |s: Square| board[s.index()].is_some_and(|c| c.color == color);
    let enemy = |s: Square| board[s.index()].is_some_and(|c| c.color != color);
    let slide = |dirs: &[(i8, i8)], max: u8, out: &mut Vec<Square>| {
        for &(dx, dy) in dirs {
            let mut cur = from;
            for _ in 0..max {
                let Some(next) = cur.offset(dx, dy) else {
                    break;
                };
                if own(next) {
                    break;
                }
                out.push(next);
                if enemy(next) {
                    break;
                }
                cur = next;
            }
        }
    };
    if t == ty.k {
        slide(&ORTH, 1, &mut out);
        slide(&DIAG, 1, &mut out);
    } else if t == ty.q {
        slide(&ORTH, 7, &mut out);
        slide(&DIAG, 7, &mut out);
    } else if t == ty.r {
        slide(&ORTH, 7, &mut out);
    } else if t == ty.b {
        slide(&DIAG, 7, &mut out);
    } else if t == ty.n {
        slide(&KNIGHT, 1, &mut out);
    } else if t == ty.p {
        let f = color.forward();
        if let Some(one) = from.offset(0, f)
            && board[one.index()].is_none()
        {
            out.push(one);
            let unmoved = board[from.index()].is_some_and(|c| !c.moved);
            if color.relative_rank(from.rank()) == 1
                && unmoved
                && let Some(two) = one.offset(0, f)
                && board[two.index()].is_none()
            {
                out.push(two);
            }
        }
        for dx in [-1, 1] {
            if let Some(c) = from.offset(dx, f)
                && enemy(c)
            {
                out.push(c);
            }
        }
    }
    out
}

/// Squares type `t` of `color` on `from` attacks; `as_enemy` is the board
/// with every piece coloured as `color`'s enemy, so that the first piece on
/// each line counts as attacked.
fn naive_attacks(
    ty: &Types,
    t: u8,
    color: Color,
    from: Square,
    as_enemy: &[Option<Cell>; 64],
) -> Vec<Square> {
    if t == ty.p {
        return [-1, 1]
            .iter()
            .filter_map(|&dx| from.offset(dx, color.forward()))
            .collect();
    }
    naive_moves(ty, t, color, from, as_enemy)
}

/// A cell as compared: (White, potential, promoted type, moved).
type CellKey = (bool, u32, Option<u8>, bool);

#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Outcome {
    from: Square,
    to: Square,
    reduced: u32,
    promotion: Option<u8>,
    captured: Option<u8>,
    en_passant: bool,
    board: Vec<Option<CellKey>>,
    captured_counts: Vec<u8>,
    ep: Option<Square>,
    halfmove: u16,
}

fn board_of(pos: &PotentialPosition<'_>) -> [Option<Cell>; 64] {
    let mut b = [None; 64];
    for s in Square::all() {
        b[s.index()] = pos.piece_at(s).map(|p| Cell {
            color: p.color,
            pot: p.potential.0,
            promoted: p.promoted,
            moved: p.moved,
        });
    }
    b
}

fn outcome_key(
    mv: PotentialMove,
    board: &[Option<Cell>; 64],
    captured: Vec<u8>,
    ep: Option<Square>,
    halfmove: u16,
) -> Outcome {
    Outcome {
        from: mv.from,
        to: mv.to,
        reduced: mv.reduced.0,
        promotion: mv.promotion,
        captured: mv.captured,
        en_passant: mv.en_passant,
        board: board
            .iter()
            .map(|c| c.map(|c| (c.color == Color::White, c.pot, c.promoted, c.moved)))
            .collect(),
        captured_counts: captured,
        ep,
        halfmove,
    }
}

fn fast_outcomes(pos: &PotentialPosition<'_>) -> BTreeSet<Outcome> {
    let army = pos.army();
    pos.legal_successors()
        .into_iter()
        .map(|(mv, next)| {
            let caps = Color::ALL
                .iter()
                .flat_map(|&c| (0..army.len() as u8).map(move |t| (c, t)))
                .map(|(c, t)| next.captured_count(c, t))
                .collect();
            outcome_key(
                mv,
                &board_of(&next),
                caps,
                next.en_passant(),
                next.halfmove_clock(),
            )
        })
        .collect()
}

/// The slow reference: every legal move and its result.
fn naive_outcomes(pos: &PotentialPosition<'_>) -> BTreeSet<Outcome> {
    let army = pos.army();
    let ty = types(army);
    let us = pos.side_to_move();
    let them = !us;
    let board = board_of(pos);
    let mut caps: Vec<u8> = Color::ALL
        .iter()
        .flat_map(|&c| (0..army.len() as u8).map(move |t| (c, t)))
        .map(|(c, t)| pos.captured_count(c, t))
        .collect();
    let cap_index = |c: Color, t: u8| c.index() * army.len() + usize::from(t);
    let last = us.relative_rank(7);
    let mut out = BTreeSet::new();

    // Candidate moves: (from, to, reduced, promotion, en passant).
    let mut cands: Vec<(Square, Square, u32, Option<u8>, bool)> = Vec::new();
    for from in Square::all() {
        let Some(cell) = board[from.index()] else {
            continue;
        };
        if cell.color != us {
            continue;
        }
        if let Some(pr) = cell.promoted {
            for to in naive_moves(&ty, pr, us, from, &board) {
                cands.push((from, to, cell.pot, None, false));
            }
            continue;
        }
        let mut by_to: HashMap<Square, u32> = HashMap::new();
        for t in 0..army.len() as u8 {
            if cell.pot & (1 << t) != 0 {
                for to in naive_moves(&ty, t, us, from, &board) {
                    *by_to.entry(to).or_default() |= 1 << t;
                }
            }
        }
        for (to, could) in by_to {
            if could & (1 << ty.p) != 0 && to.rank() == last {
                if could != 1 << ty.p {
                    cands.push((from, to, could & !(1 << ty.p), None, false));
                }
                for promo in [ty.q, ty.r, ty.b, ty.n] {
                    cands.push((from, to, 1 << ty.p, Some(promo), false));
                }
            } else {
                cands.push((from, to, could, None, false));
            }
        }
        if let Some(ep) = pos.en_passant()
            && cell.pot & (1 << ty.p) != 0
            && ep.rank() == from.rank().wrapping_add_signed(us.forward())
            && ep.file().abs_diff(from.file()) == 1
        {
            let victim = ep.offset(0, -us.forward()).unwrap();
            if board[victim.index()].is_some_and(|v| {
                v.color == them && v.pot & (1 << ty.p) != 0 && v.promoted.is_none()
            }) {
                cands.push((from, ep, 1 << ty.p, None, true));
            }
        }
    }

    for (from, to, reduced, promotion, en_passant) in cands {
        let victim_sq = if en_passant {
            Some(to.offset(0, -us.forward()).unwrap())
        } else {
            board[to.index()].is_some().then_some(to)
        };
        let names: Vec<Option<u8>> = match victim_sq {
            None => vec![None],
            Some(v) => {
                let vc = board[v.index()].unwrap();
                if en_passant || vc.promoted.is_some() {
                    vec![Some(ty.p)]
                } else {
                    (0..army.len() as u8)
                        .filter(|&t| t != ty.k && vc.pot & (1 << t) != 0)
                        .map(Some)
                        .collect()
                }
            }
        };
        for name in names {
            let mut b = board;
            let mut c = caps.clone();
            if let (Some(v), Some(n)) = (victim_sq, name) {
                b[v.index()] = None;
                c[cap_index(them, n)] += 1;
            }
            let mover = b[from.index()].unwrap();
            b[from.index()] = None;
            b[to.index()] = Some(Cell {
                color: us,
                pot: reduced,
                promoted: promotion.or(mover.promoted),
                moved: true,
            });
            // Reduce a side by brute force; false if inconsistent.
            let reduce = |b: &mut [Option<Cell>; 64], c: &[u8], color: Color| -> bool {
                let squares: Vec<usize> = (0..64)
                    .filter(|&i| b[i].is_some_and(|x| x.color == color))
                    .collect();
                let pots: Vec<u32> = squares.iter().map(|&i| b[i].unwrap().pot).collect();
                let Some(need) = (0..army.len() as u8)
                    .map(|t| army.count(t).checked_sub(c[cap_index(color, t)]))
                    .collect::<Option<Vec<u8>>>()
                else {
                    return false;
                };
                match brute_reduce(&pots, &need) {
                    None => false,
                    Some(r) => {
                        for (&i, p) in squares.iter().zip(r) {
                            b[i].as_mut().unwrap().pot = p;
                        }
                        true
                    }
                }
            };
            if name.is_some() {
                assert!(
                    reduce(&mut b, &c, them),
                    "a legal naming leaves the victim's side inconsistent"
                );
            }
            // Rule 4.
            let mut attacked = [false; 64];
            let mut as_enemy = b;
            for cell in as_enemy.iter_mut().flatten() {
                cell.color = us;
            }
            for s in Square::all() {
                let Some(cell) = b[s.index()] else { continue };
                if cell.color != them {
                    continue;
                }
                let kinds: Vec<u8> = match cell.promoted {
                    Some(pr) => vec![pr],
                    None => (0..army.len() as u8)
                        .filter(|&t| cell.pot & (1 << t) != 0)
                        .collect(),
                };
                for t in kinds {
                    for a in naive_attacks(&ty, t, them, s, &as_enemy) {
                        attacked[a.index()] = true;
                    }
                }
            }
            for s in Square::all() {
                if attacked[s.index()]
                    && let Some(cell) = b[s.index()].as_mut()
                    && cell.color == us
                {
                    cell.pot &= !(1 << ty.k);
                }
            }
            if !reduce(&mut b, &c, us) {
                continue;
            }
            // Moved marks matter only for a possible pawn, unpromoted, on
            // its second rank (where the double step starts).
            for sq in Square::all() {
                if let Some(cell) = b[sq.index()].as_mut() {
                    cell.moved &= cell.pot & (1 << ty.p) != 0
                        && cell.promoted.is_none()
                        && cell.color.relative_rank(sq.rank()) == 1;
                }
            }
            // A move a pawn could have made: P left after the reduction.
            let moved_as_pawn =
                mover.promoted.is_none() && b[to.index()].unwrap().pot & (1 << ty.p) != 0;
            let mut ep = None;
            if moved_as_pawn
                && promotion.is_none()
                && from.rank().abs_diff(to.rank()) == 2
                && b[to.index()].unwrap().pot & (1 << ty.p) != 0
            {
                let beside = [-1, 1].iter().filter_map(|&dx| to.offset(dx, 0));
                let takers = beside.filter(|s| {
                    b[s.index()].is_some_and(|x| {
                        x.color == them && x.promoted.is_none() && x.pot & (1 << ty.p) != 0
                    })
                });
                if takers.count() > 0 {
                    ep = Some(Square::from_coords(
                        from.file(),
                        (from.rank() + to.rank()) / 2,
                    ));
                }
            }
            let halfmove = if name.is_some() || moved_as_pawn {
                0
            } else {
                pos.halfmove_clock() + 1
            };
            let mv = PotentialMove {
                from,
                to,
                reduced: Potential(reduced),
                promotion,
                captured: name,
                en_passant,
            };
            out.insert(outcome_key(mv, &b, c.clone(), ep, halfmove));
        }
    }
    caps.clear();
    out
}

fn naive_perft(pos: &PotentialPosition<'_>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let outcomes = naive_outcomes(pos);
    if depth == 1 {
        return outcomes.len() as u64;
    }
    // Walk the fast successors, after checking they are the reference's.
    assert_eq!(fast_outcomes(pos), outcomes, "at {}", pos.to_text());
    pos.legal_successors()
        .iter()
        .map(|(_, next)| naive_perft(next, depth - 1))
        .sum()
}

// ---------------------------------------------------------------------------
// Random playouts: reference generator, brute-force reduction, notation
// round-trips, and a replay as orthodox chess from the implied array.

/// One ply: from, to, promotion, en passant, named capture, victim was promoted.
type Ply = (Square, Square, Option<u8>, bool, Option<u8>, bool);

/// Orthodox replay from the array a brute-force assignment implies.
struct Tracker {
    /// Origin square of the piece now on each square.
    origin: [Option<Square>; 64],
    /// (colour, origin, named type) of every captured piece.
    captured: Vec<(Color, Square, u8)>,
    /// (from, to, promotion, en passant, named capture, victim was promoted) per ply.
    plies: Vec<Ply>,
}

impl Tracker {
    fn new(pos: &PotentialPosition<'_>) -> Tracker {
        let mut origin = [None; 64];
        for s in pos.pieces_of(Color::White) | pos.pieces_of(Color::Black) {
            origin[s.index()] = Some(s);
        }
        Tracker {
            origin,
            captured: Vec::new(),
            plies: Vec::new(),
        }
    }

    fn play(&mut self, pos: &PotentialPosition<'_>, mv: PotentialMove) {
        let mut victim_promoted = false;
        if let Some(name) = mv.captured {
            let v = if mv.en_passant {
                mv.to.offset(0, -pos.side_to_move().forward()).unwrap()
            } else {
                mv.to
            };
            victim_promoted = pos.piece_at(v).unwrap().promoted.is_some();
            let o = self.origin[v.index()].take().unwrap();
            self.captured.push((!pos.side_to_move(), o, name));
        }
        self.origin[mv.to.index()] = self.origin[mv.from.index()].take();
        self.plies.push((
            mv.from,
            mv.to,
            mv.promotion,
            mv.en_passant,
            mv.captured,
            victim_promoted,
        ));
    }

    /// The implied start FEN for `chess-nocastle`.
    fn implied_fen(&self, pos: &PotentialPosition<'_>, rng: &mut Rng) -> String {
        let army = pos.army();
        let mut array: [Option<(Color, u8)>; 64] = [None; 64];
        for color in Color::ALL {
            let squares: Vec<Square> = pos.pieces_of(color).collect();
            let pots: Vec<u32> = squares
                .iter()
                .map(|s| pos.piece_at(*s).unwrap().potential.0)
                .collect();
            let need = need_of(pos, color);
            let pick = brute_pick(&pots, &need, rng);
            for (s, t) in squares.iter().zip(pick) {
                let o = self.origin[s.index()].unwrap();
                array[o.index()] = Some((color, t));
            }
            for &(c, o, t) in &self.captured {
                if c == color {
                    array[o.index()] = Some((c, t));
                }
            }
        }
        let mut fen = String::new();
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                match array[usize::from(rank * 8 + file)] {
                    None => empty += 1,
                    Some((c, t)) => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let l = army.letter(t);
                        fen.push(if c == Color::White {
                            l
                        } else {
                            l.to_ascii_lowercase()
                        });
                    }
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(" w - - 0 1");
        fen
    }

    fn replay(&self, variant: &Variant, army: &Army<'_>, fen: &str) {
        let mut pos = Position::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for (i, &(from, to, promotion, en_passant, named, victim_promoted)) in
            self.plies.iter().enumerate()
        {
            let mv = if en_passant {
                Move::EnPassant { from, to }
            } else if let Some(p) = promotion {
                Move::Promotion {
                    from,
                    to,
                    into: army.kind(p),
                }
            } else if pos.piece_at(from).is_some_and(|p| variant.is_pawn(p.kind))
                && to.rank() == pos.side_to_move().relative_rank(7)
            {
                panic!("ply {i}: an orthodox pawn reaches the last rank without promoting ({fen})");
            } else {
                Move::Normal { from, to }
            };
            if let Some(n) = named {
                let victim = if en_passant {
                    to.offset(0, -pos.side_to_move().forward()).unwrap()
                } else {
                    to
                };
                let actual = pos.piece_at(victim).expect("a victim").kind;
                if victim_promoted {
                    assert_eq!(Some(n), army.pawn());
                } else {
                    assert_eq!(
                        actual,
                        army.kind(n),
                        "ply {i}: the named identity is the actual piece ({fen})"
                    );
                }
            }
            pos = pos.play(mv).unwrap_or_else(|e| {
                panic!("ply {i} {mv:?} illegal in orthodox chess from {fen}: {e}")
            });
        }
    }
}

#[test]
fn random_playouts_are_consistent_and_replay_as_orthodox_chess() {
    let army = army();
    let nocastle = builtin::load("chess-nocastle").unwrap();
    let mut rng = Rng(2024);
    let mut plies_total = 0;
    let mut captures = 0;
    let mut checked_replays = 0;
    for game_no in 0..7 {
        let mut game = Game::new(army.start_position());
        let mut tracker = Tracker::new(game.position());
        for ply in 0..50 {
            let pos = game.position().clone();
            // The position is reduced: brute force changes nothing.
            for color in Color::ALL {
                let pots: Vec<u32> = pos
                    .pieces_of(color)
                    .map(|s| pos.piece_at(s).unwrap().potential.0)
                    .collect();
                assert_eq!(
                    brute_reduce(&pots, &need_of(&pos, color)),
                    Some(pots.clone())
                );
                assert!(pos.assignment(color).is_some());
            }
            // Text round-trips.
            let text = pos.to_text();
            let back = PotentialPosition::from_text(army, &text).unwrap();
            assert_eq!(back, pos, "{text}");
            assert_eq!(back.hash(), pos.hash());
            // Every legal move and result agrees with the slow reference.
            if ply % 3 == 0 || game_no == 0 {
                assert_eq!(
                    fast_outcomes(&pos),
                    naive_outcomes(&pos),
                    "game {game_no} ply {ply} at {text}"
                );
            }
            let moves = pos.legal_moves();
            for &mv in &moves {
                let s = pos.format_move(mv);
                assert_eq!(pos.parse_move(&s), Ok(mv), "{s} at {text}");
            }
            if game.status() != GameStatus::Ongoing {
                break;
            }
            // Prefer captures now and then, to exercise naming.
            let caps: Vec<PotentialMove> = moves
                .iter()
                .copied()
                .filter(|m| m.captured.is_some())
                .collect();
            let mv = if !caps.is_empty() && rng.below(3) == 0 {
                caps[rng.below(caps.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            captures += usize::from(mv.captured.is_some());
            tracker.play(&pos, mv);
            game.play(mv).unwrap();
            plies_total += 1;
            if ply % 10 == 9 {
                let fen = tracker.implied_fen(game.position(), &mut rng);
                tracker.replay(&nocastle, army, &fen);
                checked_replays += 1;
            }
        }
        let fen = tracker.implied_fen(game.position(), &mut rng);
        tracker.replay(&nocastle, army, &fen);
        checked_replays += 1;
    }
    assert!(plies_total >= 300, "{plies_total} plies");
    assert!(captures >= 20, "{captures} captures");
    assert!(checked_replays >= 8);
}

// ---------------------------------------------------------------------------
// Notation.

#[test]
fn tokens_round_trip() {
    let army = army();
    for bits in 1..64u32 {
        for color in Color::ALL {
            let p = Potential(bits);
            let token = army.token(p, color);
            assert!(token.len() <= 3, "{token}");
            assert_eq!(army.parse_token(&token), Some(p), "{token}");
            assert_eq!(army.parse_token(&token.to_ascii_lowercase()), Some(p));
        }
    }
    let t = |s: &str| army.parse_token(s).map(|p| army.token(p, Color::White));
    assert_eq!(t("KQBRNP").as_deref(), Some("X"));
    assert_eq!(t("qbrnp").as_deref(), Some("!K"));
    assert_eq!(t("PRQ").as_deref(), Some("QRP"));
    assert_eq!(t("!nb").as_deref(), Some("!BN"));
    assert_eq!(army.parse_token("KK"), None);
    assert_eq!(army.parse_token("!KQBRNP"), None);
    assert_eq!(army.parse_token("Z"), None);
}

#[test]
fn position_text_round_trips_and_rejects_nonsense() {
    let army = army();
    for text in [
        "xxxxxxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXXXXX[] w - 0 1",
        "k7/8/8/3{P=Q}4/8/8/8/K7[QBBRRNNPPPPPPPqbbrrnnpppppppp] b - 3 40",
        "(!kn)(!n)(!n)(!n)(!n)(!n)(!n)(!kn)/1(!kn)(!kn)(!kn)(!kn)(!kn)(!kn)1/8/1n4n1/3{QRP}4/8/{!K}{!K}{!K}{!BN}{!K}{!K}{!K}{!K}/XXX1XXXX[] w - 2 3",
    ] {
        let pos = PotentialPosition::from_text(army, text).unwrap();
        assert_eq!(pos.to_text(), text);
    }
    for bad in [
        "xxxxxxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXXXX[] w - 0 1",
        "xxxxxxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXXXXX[] x - 0 1",
        "xxxxxxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXXXXX[K] w - 0 1",
        // Three white knights.
        "xxxxxxxx/xxxxxxxx/8/8/8/8/NNNXXXXX/XXXXXXXX[] w - 0 1",
        "xxxxxxxx/xxxxxxxx/8/8/8/8/{Z}XXXXXXX/XXXXXXXX[] w - 0 1",
    ] {
        assert!(PotentialPosition::from_text(army, bad).is_err(), "{bad}");
    }
}

#[test]
fn promotion_capture_naming_and_mate() {
    let army = army();
    // White: king a1, a rook-or-pawn on e7 and one on h3; Black: king h8 and
    // two queen-or-knights (d8, h5).
    let pos = PotentialPosition::from_text(
        army,
        "3(qn)3k/4{RP}3/8/7(qn)/8/7{RP}/8/K7[QBBRNNPPPPPPPbbrrnpppppppp] w - 0 1",
    )
    .unwrap();
    let moves: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| pos.format_move(m))
        .collect();
    for m in [
        "e7-e8>R",
        "e7-e8>P=Q",
        "e7-e8>P=R",
        "e7-e8>P=B",
        "e7-e8>P=N",
        "e7:d8>P=Q(q)",
        "e7:d8>P=N(n)",
        // As a rook going sideways it cannot be a pawn.
        "e7-a7>R",
    ] {
        assert!(moves.contains(&m.to_string()), "{m} missing from {moves:?}");
    }
    // Only a pawn captures diagonally: no non-pawn choice on d8.
    assert!(!moves.iter().any(|m| m.starts_with("e7:d8>R")));
    let after = pos.play(pos.parse_move("e7-e8>p=q").unwrap()).unwrap();
    // The promoted piece is the army's last pawn: h3 must be the rook.
    assert_eq!(
        after.to_text(),
        "3(qn){P=Q}2k/8/8/7(qn)/8/7R/8/K7[QBBRNNPPPPPPPbbrrnpppppppp] b - 0 1"
    );
    // The black king is attacked by the promoted queen.
    assert!(after.is_check());
    assert_eq!(after.status(), GameStatus::Ongoing);

    let mate = PotentialPosition::from_text(
        army,
        "R6k/1R6/8/8/8/8/8/K7[QBBNNPPPPPPPPqbbrrnnpppppppp] b - 0 1",
    )
    .unwrap();
    assert_eq!(mate.legal_moves(), vec![]);
    assert_eq!(
        mate.status(),
        GameStatus::Over {
            outcome: pocketlab_core::Outcome::Win(Color::White),
            termination: pocketlab_core::Termination::Checkmate,
        }
    );
    let stalemate = PotentialPosition::from_text(
        army,
        "7k/R7/8/8/8/8/8/K5R1[QBBNNPPPPPPPPqbbrrnnpppppppp] b - 0 1",
    )
    .unwrap();
    assert_eq!(
        stalemate.status(),
        GameStatus::Over {
            outcome: pocketlab_core::Outcome::Draw,
            termination: pocketlab_core::Termination::Stalemate,
        }
    );
}

/// Prints perft figures and timings (how `data/potential_perft.tsv` was made):
/// `POTENTIAL_PERFT_DEPTH=3 cargo test -p pocketlab-core --test potential_chess -- --ignored --nocapture`.
#[test]
#[ignore]
fn print_perft() {
    let army = army();
    let max: u32 = std::env::var("POTENTIAL_PERFT_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(3);
    for fen in PERFT_POSITIONS {
        let pos = PotentialPosition::from_text(army, fen).unwrap();
        for depth in 1..=max {
            let t = std::time::Instant::now();
            let n = perft(&pos, depth);
            println!("{fen}\t{depth}\t{n}\t# {:.2?}", t.elapsed());
        }
    }
}

/// The positions of `data/potential_perft.tsv`.
const PERFT_POSITIONS: [&str; 3] = [
    "xxxxxxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXXXXX[] w - 0 1",
    "(!kn)(!n)(!n)(!n)(!n)(!n)(!n)(!kn)/1(!kn)(!kn)(!kn)(!kn)(!kn)(!kn)1/8/1n4n1/3{QRP}4/8/{!K}{!K}{!K}{!BN}{!K}{!K}{!K}{!K}/XXX1XXXX[] w - 1 3",
    "3(qn)3k/4{RP}3/8/7(qn)/8/7{RP}/8/K7[QBBRNNPPPPPPPbbrrnpppppppp] w - 0 1",
];

// ---------------------------------------------------------------------------
// Perft.

const PERFT: &str = include_str!("data/potential_perft.tsv");

fn perft_rows() -> Vec<(&'static str, u32, u64)> {
    PERFT
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            (f[0], f[1].parse().unwrap(), f[2].parse().unwrap())
        })
        .collect()
}

#[test]
fn perft_from_the_start() {
    let army = army();
    let start = army.start_position();
    let rows = perft_rows();
    assert!(rows.len() >= 8);
    for (fen, depth, nodes) in rows {
        let pos = PotentialPosition::from_text(army, fen).unwrap();
        if fen.starts_with("xxxxxxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXXXXX") {
            assert_eq!(pos, start);
        }
        assert_eq!(perft(&pos, depth), nodes, "{fen} depth {depth}");
        // The slow reference: every depth-1 row, and depth 2 where it is
        // cheap (few pieces); `slow_reference_perft_depth_2` does the rest.
        if depth == 1 || (depth == 2 && pos.occupied().count() < 12) {
            assert_eq!(
                naive_perft(&pos, depth),
                nodes,
                "reference, {fen} depth {depth}"
            );
        }
    }
}

/// The slow reference on every depth-2 row (about 30 s; in CI).
#[test]
fn slow_reference_perft_depth_2() {
    let army = army();
    for (fen, depth, nodes) in perft_rows() {
        if depth == 2 {
            let pos = PotentialPosition::from_text(army, fen).unwrap();
            assert_eq!(
                naive_perft(&pos, depth),
                nodes,
                "reference, {fen} depth {depth}"
            );
        }
    }
}

#[test]
fn a_piece_that_has_moved_makes_no_pawn_double_step() {
    let army = army();
    let mut game = Game::new(army.start_position());
    for text in ["e2-f3", "a7-a6", "e1-e2", "h7-h6"] {
        let mv = game.position().parse_move(text).unwrap();
        game.play(mv).unwrap();
    }
    let pos = game.position().clone();
    let e2 = pos.piece_at("e2".parse().unwrap()).unwrap();
    assert!(e2.moved, "the e1 piece moved forward and may be a pawn");
    assert!(pos.to_text().contains('\''), "{}", pos.to_text());
    // As a pawn it would have moved before: only queen or rook can step two.
    assert!(pos.parse_move("e2-e4>QRP").is_err());
    let step = pos.parse_move("e2-e4").unwrap();
    assert_eq!(pos.format_move(step), "e2-e4>QR");
    let after = pos.play(step).unwrap();
    assert_eq!(after.en_passant(), None, "no double step a pawn made");
    assert_eq!(
        after.halfmove_clock(),
        1,
        "not a move a pawn could have made"
    );
    // The mark is part of the position: text and hash round-trip.
    let back = PotentialPosition::from_text(army, &pos.to_text()).unwrap();
    assert_eq!(back, pos);
    assert_eq!(back.hash(), pos.hash());
    let unmarked = PotentialPosition::from_text(army, &pos.to_text().replace('\'', "")).unwrap();
    assert_ne!(unmarked.hash(), pos.hash());
}

#[test]
fn the_n_move_counter_resets_on_the_reduced_potential() {
    let army = army();
    // White has only a king and a pawn, in two pieces that could each be
    // either. The e5 piece steps forward (a king or a pawn could); that
    // opens the h8 bishop's diagonal onto c3, whose piece so cannot be the
    // king (rule 4): it is the pawn, and the mover is the king.
    let pos = PotentialPosition::from_text(
        army,
        "k6b/8/8/4{KP}3/8/2{KP}5/8/8[QBBRRNNPPPPPPPqbrrnnpppppppp] w - 7 30",
    )
    .unwrap();
    let pawn = army.pawn().unwrap();
    let mv = pos.parse_move("e5-e6").unwrap();
    assert!(mv.reduced.contains(pawn), "a pawn could have made the move");
    let next = pos.play(mv).unwrap();
    let mover = next.piece_at("e6".parse().unwrap()).unwrap();
    assert!(!mover.potential.contains(pawn), "{}", next.to_text());
    assert_eq!(
        next.halfmove_clock(),
        8,
        "after the reduction it cannot be a pawn"
    );
}
