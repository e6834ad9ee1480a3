//! Every matchup of a report in units of one of them: each matchup's Elo
//! divided by the unit matchup's, with Fieller's 95% interval (the unit's
//! own error carried, as for pawn units). Reads the `tables/matchups.csv`
//! that `pocketlab report` writes; the matchups must be played apart (no
//! shared games), as the matchups of one experiment are.
//!
//! ```sh
//! pocketlab report reports/chess-mutation-study/values/log
//! cargo run --release -p pocketlab --example elo_ratio -- \
//!     reports/chess-mutation-study/values/tables/matchups.csv full-vs-no-white-a2
//! ```

use pocketlab_stats::PawnUnit;
use pocketlab_stats::estimate::ConfidenceLevel;

/// A matchup's name, Elo (A minus B) and its standard error.
struct Row {
    name: String,
    elo: f64,
    elo_se: f64,
}

fn read_rows(path: &str) -> Result<Vec<Row>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines
        .next()
        .ok_or(format!("{path}: empty"))?
        .split(',')
        .collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|&h| h == name)
            .ok_or(format!("{path}: no column '{name}'"))
    };
    let (name, elo, se) = (column("name")?, column("elo")?, column("elo_se")?);
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            let number = |i: usize| -> Result<f64, String> {
                fields.get(i).and_then(|f| f.parse().ok()).ok_or(format!(
                    "{path}: '{line}' has no number in column {}",
                    header[i]
                ))
            };
            Ok(Row {
                name: fields[name].to_owned(),
                elo: number(elo)?,
                elo_se: number(se)?,
            })
        })
        .collect()
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path, unit_name] = args.as_slice() else {
        return Err("usage: elo_ratio MATCHUPS_CSV UNIT_MATCHUP".into());
    };
    let rows = read_rows(path)?;
    let unit = rows
        .iter()
        .find(|r| &r.name == unit_name)
        .ok_or(format!("{path}: no matchup '{unit_name}'"))?;
    let scale = PawnUnit::estimated(unit.elo, unit.elo_se).map_err(|e| e.to_string())?;
    let level = ConfidenceLevel::default();
    println!(
        "unit: {unit_name} = {:.0} Elo (standard error {:.0}); {}",
        unit.elo,
        unit.elo_se,
        if scale.resolves(level.z()) {
            "ratios with Fieller's 95% intervals"
        } else {
            "the unit is not known well enough for bounded ratios"
        }
    );
    for r in &rows {
        if &r.name == unit_name {
            println!("{:<28} {:>6.0} Elo  1 (the unit)", r.name, r.elo);
            continue;
        }
        let interval = scale.interval(r.elo, r.elo_se, level);
        println!(
            "{:<28} {:>6.0} Elo  {:>5.2} units ({:.2} to {:.2})",
            r.name,
            r.elo,
            scale.to_pawns(r.elo),
            interval.lower,
            interval.upper
        );
    }
    Ok(())
}
