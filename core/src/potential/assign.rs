//! Potentials as sets of army types ([`Potential`]), and the consistency
//! reduction: which types can each piece of a side be, given that the whole
//! side (pieces on the board and captured pieces) must be assignable one
//! type each, matching the army's counts.
//!
//! This is a capacitated bipartite matching (pieces on one side, army types
//! with their remaining counts on the other). One perfect assignment is found
//! by augmenting paths; then a piece `p` assigned `t0` can also be `t` (in
//! its potential) exactly when, in the "type graph" with an edge `u → v`
//! whenever some piece assigned `u` could be `v`, `t0` is reachable from `t`:
//! `p` takes `t`, displacing a piece of `t` along the path until a piece
//! moves into the slot `p` freed. The transitive closure over at most 32
//! types is tiny, so the whole reduction costs one matching.

/// A set of army types (bit `i` is the army's type `i`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Potential(pub u32);

impl Potential {
    pub(crate) const EMPTY: Potential = Potential(0);

    /// The set of type `t` alone.
    #[inline]
    pub const fn single(t: u8) -> Potential {
        Potential(1 << t)
    }

    /// Whether type `t` is in the set.
    #[inline]
    pub const fn contains(self, t: u8) -> bool {
        self.0 & (1 << t) != 0
    }

    /// The set with type `t` added.
    #[inline]
    pub const fn with(self, t: u8) -> Potential {
        Potential(self.0 | 1 << t)
    }

    /// The set with type `t` taken out.
    #[inline]
    pub const fn without(self, t: u8) -> Potential {
        Potential(self.0 & !(1 << t))
    }

    /// Whether no type is left.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many types the set holds.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The type indices in the set, lowest first.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                None
            } else {
                let t = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                Some(t)
            }
        })
    }
}

/// Most pieces per side (and types) the matching handles.
pub(crate) const MAX_PIECES: usize = 32;

const UNASSIGNED: u8 = u8::MAX;

/// Capacitated matching of pieces to types. `assign[p]` is the type index.
struct Matcher<'a> {
    pots: &'a [Potential],
    need: &'a [u8],
    assign: [u8; MAX_PIECES],
    load: [u8; MAX_PIECES],
}

impl Matcher<'_> {
    /// Find a (new) type for piece `p`, moving others along an augmenting
    /// path if needed. `visited` holds the types already explored.
    fn augment(&mut self, p: usize, visited: &mut u32) -> bool {
        let current = self.assign[p];
        for t in self.pots[p].iter() {
            if t == current || *visited & (1 << t) != 0 {
                continue;
            }
            *visited |= 1 << t;
            let ti = usize::from(t);
            if self.load[ti] < self.need[ti] {
                self.take(p, t);
                return true;
            }
            for q in 0..self.pots.len() {
                if q != p && self.assign[q] == t && self.augment(q, visited) {
                    self.take(p, t);
                    return true;
                }
            }
        }
        false
    }

    fn take(&mut self, p: usize, t: u8) {
        let old = self.assign[p];
        if old != UNASSIGNED {
            self.load[usize::from(old)] -= 1;
        }
        self.assign[p] = t;
        self.load[usize::from(t)] += 1;
    }
}

/// Fill `assign` with one assignment; `false` if there is none.
fn match_into(pots: &[Potential], need: &[u8], assign: &mut [u8; MAX_PIECES]) -> bool {
    let total: usize = need.iter().map(|&n| usize::from(n)).sum();
    if total != pots.len() || need.len() > MAX_PIECES || pots.len() > MAX_PIECES {
        return false;
    }
    let mut m = Matcher {
        pots,
        need,
        assign: [UNASSIGNED; MAX_PIECES],
        load: [0; MAX_PIECES],
    };
    for p in 0..pots.len() {
        let mut visited = 0u32;
        if !m.augment(p, &mut visited) {
            return false;
        }
    }
    *assign = m.assign;
    true
}

/// One assignment of a type to every piece within its potential, using
/// exactly `need[t]` pieces of type `t`, if there is one.
pub(crate) fn find_assignment(pots: &[Potential], need: &[u8]) -> Option<Vec<u8>> {
    let mut assign = [UNASSIGNED; MAX_PIECES];
    match_into(pots, need, &mut assign).then(|| assign[..pots.len()].to_vec())
}

/// Shrink every potential to the types that appear in some consistent
/// assignment. Returns `false` (leaving `pots` untouched) if there is none.
pub fn reduce(pots: &mut [Potential], need: &[u8]) -> bool {
    let mut assign = [UNASSIGNED; MAX_PIECES];
    if !match_into(pots, need, &mut assign) {
        return false;
    }
    let n_types = need.len();
    // reach[u]: types reachable from `u`, where `u -> v` if some piece
    // assigned `u` could be `v`.
    let mut reach = [0u32; MAX_PIECES];
    for (u, r) in reach.iter_mut().enumerate().take(n_types) {
        *r = 1 << u;
    }
    for (p, &t) in assign.iter().enumerate().take(pots.len()) {
        reach[usize::from(t)] |= pots[p].0;
    }
    // Transitive closure (Warshall on bit rows).
    for k in 0..n_types {
        let row = reach[k];
        for r in reach.iter_mut().take(n_types) {
            if *r & (1 << k) != 0 {
                *r |= row;
            }
        }
    }
    for (p, pot) in pots.iter_mut().enumerate() {
        let t0 = assign[p];
        let keep = pot
            .iter()
            .filter(|&t| reach[usize::from(t)] & (1 << t0) != 0)
            .fold(0u32, |acc, t| acc | 1 << t);
        *pot = Potential(keep);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_known_knights_exclude_the_others() {
        // Types: 0 = K, 1 = N, 2 = P; counts 1, 2, 1.
        let all = Potential(0b111);
        let n = Potential(0b010);
        let mut pots = vec![n, n, all, all];
        assert!(reduce(&mut pots, &[1, 2, 1]));
        assert_eq!(pots, vec![n, n, Potential(0b101), Potential(0b101)]);
    }

    #[test]
    fn impossible_assignments_are_reported() {
        let k = Potential(0b001);
        let mut pots = vec![k, k];
        assert!(!reduce(&mut pots, &[1, 1]));
        assert_eq!(pots, vec![k, k]);
    }

    #[test]
    fn a_lone_king_candidate_becomes_the_king() {
        let all = Potential(0b11);
        let no_k = Potential(0b10);
        let mut pots = vec![no_k, all, no_k];
        assert!(reduce(&mut pots, &[1, 2]));
        assert_eq!(pots, vec![no_k, Potential(0b01), no_k]);
    }
}
