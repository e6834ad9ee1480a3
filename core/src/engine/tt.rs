//! Transposition table: 4-entry buckets, owned by one searcher. Generic
//! over the stored move so both searchers share it: the orthodox one keeps
//! a [`Move`] (16-byte entries), Potential Chess a packed potential move.

use crate::moves::Move;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    Exact,
    /// The score is at least this (a beta cutoff).
    Lower,
    /// The score is at most this (no move raised alpha).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry<M = Move> {
    check: u32,
    pub mv: Option<M>,
    pub score: i16,
    pub eval: i16,
    pub depth: i8,
    pub bound: Bound,
    generation: u8,
}

const BUCKET: usize = 4;

/// One bucket, aligned so that a probe touches one cache line (four
/// 16-byte entries).
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
struct Bucket<M>([Option<Entry<M>>; BUCKET]);

impl<M: Copy> Bucket<M> {
    const EMPTY: Bucket<M> = Bucket([None; BUCKET]);
}

#[derive(Debug)]
pub(crate) struct TranspositionTable<M = Move> {
    buckets: Vec<Bucket<M>>,
    mask: usize,
    generation: u8,
    /// Whether the size asked for could not be allocated.
    shrunk: bool,
}

impl<M: Copy> TranspositionTable<M> {
    /// A table of about `megabytes` (rounded down to a power of two of
    /// buckets), or the largest power of two below it that the process
    /// can allocate: a size the machine cannot give (an address-space
    /// limit, say) makes a smaller table, never an abort. See
    /// [`Self::megabytes`] for the size it got.
    pub fn new(megabytes: usize) -> TranspositionTable<M> {
        let bytes = megabytes.max(1) * 1024 * 1024;
        // Counted by the entries' own size, so alignment padding (entries
        // under 16 bytes) does not change how many a size buys.
        let fit = (bytes / (BUCKET * size_of::<Option<Entry<M>>>())).max(1);
        // The largest power of two that fits (the mask needs one).
        let asked = 1 << fit.ilog2();
        let mut buckets = asked;
        let table = loop {
            let mut table = Vec::new();
            if table.try_reserve_exact(buckets).is_ok() || buckets == 1 {
                table.resize(buckets, Bucket::EMPTY);
                break table;
            }
            buckets /= 2;
        };
        TranspositionTable {
            buckets: table,
            mask: buckets - 1,
            generation: 0,
            shrunk: buckets < asked,
        }
    }

    /// Whether the table is smaller than asked, for want of memory.
    pub fn shrunk(&self) -> bool {
        self.shrunk
    }

    /// The table's size in MiB (rounded down).
    pub fn megabytes(&self) -> usize {
        self.buckets.len() * BUCKET * size_of::<Option<Entry<M>>>() / (1024 * 1024)
    }

    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::EMPTY);
        self.generation = 0;
    }

    /// Call once per search so older entries yield their slots first.
    pub(crate) fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn bucket_index(&self, hash: u64) -> usize {
        hash as usize & self.mask
    }

    pub fn probe(&self, hash: u64) -> Option<Entry<M>> {
        let check = (hash >> 32) as u32;
        self.buckets[self.bucket_index(hash)]
            .0
            .iter()
            .flatten()
            .find(|e| e.check == check)
            .copied()
    }

    pub fn store(
        &mut self,
        hash: u64,
        mv: Option<M>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let check = (hash >> 32) as u32;
        let index = self.bucket_index(hash);
        let generation = self.generation;
        let bucket = &mut self.buckets[index].0;
        let slot = bucket
            .iter()
            .position(|e| e.is_some_and(|e| e.check == check))
            .unwrap_or_else(|| {
                // Replace an empty slot, else the shallowest entry of an older search, else the shallowest.
                (0..BUCKET)
                    .min_by_key(|&i| match bucket[i] {
                        None => i32::MIN,
                        Some(e) => {
                            i32::from(e.depth) + if e.generation == generation { 64 } else { 0 }
                        }
                    })
                    .expect("buckets are not empty")
            });
        let keep_move = bucket[slot].filter(|e| e.check == check).and_then(|e| e.mv);
        bucket[slot] = Some(Entry {
            check,
            mv: mv.or(keep_move),
            score: score.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
            eval: eval.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
            depth: depth.clamp(-1, 127) as i8,
            bound,
            generation,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_small_and_found_again() {
        assert!(size_of::<Option<Entry>>() <= 16);
        assert_eq!(
            (size_of::<Bucket<Move>>(), align_of::<Bucket<Move>>()),
            (64, 64)
        );
        let mut tt = TranspositionTable::<Move>::new(1);
        tt.store(0xdead_beef_0000_0001, None, 42, 7, 5, Bound::Exact);
        let e = tt.probe(0xdead_beef_0000_0001).unwrap();
        assert_eq!(
            (e.score, e.eval, e.depth, e.bound),
            (42, 7, 5, Bound::Exact)
        );
        assert!(tt.probe(0x1234_5678_0000_0001).is_none());
    }

    #[test]
    fn a_table_takes_the_largest_power_of_two_that_fits() {
        let entries = |mb| {
            let tt = TranspositionTable::<Move>::new(mb);
            tt.buckets.len() * size_of::<Bucket<Move>>()
        };
        assert_eq!(entries(8), 8 << 20, "a power of two is taken whole");
        assert_eq!(entries(16), 16 << 20);
        assert_eq!(entries(12), 8 << 20, "rounded down");
        assert_eq!(entries(1), 1 << 20);
    }
}
