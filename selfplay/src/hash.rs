//! A stable hash of text (experiment files, input files): the same
//! across Rust versions and platforms, unlike `DefaultHasher`, so a log's
//! manifest can be checked by any build.

/// FNV-1a, stable across Rust versions (unlike `DefaultHasher`).
pub fn stable_hash(bytes: &[u8]) -> u64 {
    fnv1a(None, bytes)
}

/// FNV-1a of `bytes` continued from `state` (`None`: from the start).
pub(crate) fn fnv1a(state: Option<u64>, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(state.unwrap_or(0xcbf2_9ce4_8422_2325), |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
}
