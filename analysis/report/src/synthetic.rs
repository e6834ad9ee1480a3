//! Synthetic logs with known answers, for tests and the report benchmark:
//! a real experiment's schedule, with results drawn from a model (true Elo
//! per army, draw rate, White's edge, and an opening bias shared by the two
//! games of a pair) instead of played.

use std::path::Path;

use pocketlab_selfplay::Experiment;
use pocketlab_selfplay::log::{ChunkWriter, GameRecord, Manifest, Termination};
use pocketlab_selfplay::log::{game_id, game_seed};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use pocketlab_stats::sim::standard_normal;

/// How results are drawn.
#[derive(Clone, Debug)]
pub struct SyntheticModel {
    /// True strength per army name (Elo); armies not listed are 0.
    pub elo: Vec<(String, f64)>,
    /// Draw probability between equals (at most 0.5); it shrinks with the gap.
    pub draw_rate: f64,
    /// White's edge, Elo, added to the strength difference of every game.
    pub white_edge_elo: f64,
    /// Standard deviation (Elo) of a per-pair opening bias towards White.
    pub opening_bias_elo: f64,
    /// Pairs per matchup, unless `matchup_pairs` names the matchup.
    pub pairs: u64,
    /// Pairs of named matchups (e.g. a small pawn-odds calibration).
    pub matchup_pairs: Vec<(String, u64)>,
    /// Seed of the results drawn: the same seed and model draw the same
    /// results.
    pub seed: u64,
    /// Games per chunk file written.
    pub chunk_games: usize,
}

fn expected(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Write a log for `exp` (its matchups, `model.pairs` pairs each) into `dir`.
pub fn write_synthetic_log(
    exp: &Experiment,
    model: &SyntheticModel,
    dir: &Path,
) -> anyhow::Result<u64> {
    std::fs::create_dir_all(dir)?;
    Manifest::for_experiment(exp).write_or_check(dir, &exp.source_text)?;
    let mut writer = ChunkWriter::open(dir, 0, 1)?;
    let strength = |name: &str| {
        model
            .elo
            .iter()
            .find(|(n, _)| n == name)
            .map_or(0.0, |(_, e)| *e)
    };
    let mut rng = ChaCha8Rng::seed_from_u64(model.seed);
    let mut buffer = Vec::with_capacity(model.chunk_games);
    let mut written = 0;
    for (m_index, m) in exp.matchups.iter().enumerate() {
        let (a, b) = (&exp.armies[m.a], &exp.armies[m.b]);
        let pairs = model
            .matchup_pairs
            .iter()
            .find(|(name, _)| *name == m.name)
            .map_or(model.pairs, |&(_, n)| n);
        for pair in 0..pairs {
            let bias = model.opening_bias_elo * standard_normal(&mut rng);
            for b_is_white in [false, true] {
                let (white, black) = if b_is_white { (b, a) } else { (a, b) };
                let diff =
                    strength(&white.name) - strength(&black.name) + model.white_edge_elo + bias;
                // Draws are most likely between equals; the expected score is
                // exactly the logistic one, so the true Elo is known.
                let e = expected(diff);
                let p_draw = model.draw_rate * 4.0 * e * (1.0 - e);
                let p_win = e - p_draw / 2.0;
                let u: f64 = rng.random();
                let white_score = if u < p_win {
                    1.0
                } else if u < p_win + p_draw {
                    0.5
                } else {
                    0.0
                };
                let plies = 40 + rng.random_range(0..160u32);
                let termination = if white_score == 0.5 {
                    Termination::Repetition
                } else {
                    Termination::Checkmate
                };
                let id = game_id(m_index, pair, b_is_white);
                buffer.push(GameRecord {
                    experiment: exp.name.clone(),
                    matchup: m.name.clone(),
                    matchup_index: m_index as u32,
                    pair_index: pair,
                    game_id: id,
                    white: white.name.clone(),
                    black: black.name.clone(),
                    white_army: white.describe(&exp.variant),
                    black_army: black.describe(&exp.variant),
                    white_engine: white.engine.describe(),
                    black_engine: black.engine.describe(),
                    variant: exp.variant.name.clone(),
                    seed: game_seed(exp.seed, id),
                    start_fen: exp.variant.start_fen.clone(),
                    opening: String::new(),
                    result: match white_score {
                        s if s > 0.75 => "1-0".into(),
                        s if s < 0.25 => "0-1".into(),
                        _ => "1/2-1/2".into(),
                    },
                    white_score,
                    termination,
                    plies,
                    duration_ms: 0,
                    white_nodes: 0,
                    black_nodes: 0,
                    white_pocket_ins: 1,
                    black_pocket_ins: 0,
                    white_mutations: 0,
                    black_mutations: 0,
                    white_promotions: 0,
                    black_promotions: 0,
                    white_drops: 1,
                    black_drops: 0,
                    pocket_events: "w:@P".into(),
                    white_material: 0,
                    black_material: 0,
                    sprt_llr: None,
                    sprt_decision: None,
                });
                if buffer.len() >= model.chunk_games {
                    written += buffer.len() as u64;
                    writer.write(&buffer, &[])?;
                    buffer.clear();
                }
            }
        }
    }
    written += buffer.len() as u64;
    writer.write(&buffer, &[])?;
    Ok(written)
}
