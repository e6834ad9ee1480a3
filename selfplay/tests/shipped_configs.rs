//! Every shipped experiment file loads and validates (variants resolve,
//! armies build, start positions exist).

use std::path::Path;

use pocketlab_selfplay::Experiment;

#[test]
fn every_shipped_experiment_file_is_valid() {
    let configs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs");
    let mut checked = 0;
    for dir in ["experiments", "tuning", "build"] {
        for entry in std::fs::read_dir(configs.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                let exp = Experiment::load(&path).unwrap_or_else(|e| panic!("{e}"));
                assert!(!exp.matchups.is_empty(), "{}", path.display());
                checked += 1;
            }
        }
    }
    assert!(checked >= 12, "found only {checked} experiment files");
}
