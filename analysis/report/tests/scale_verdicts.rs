//! A value scale's class tables with a class study's verdicts taken as
//! known (`pocketlab report --verdicts`), from synthetic logs with known
//! answers: on the scale the knight and the bishop are worth the same, so
//! the values alone put them in one class; the class study found the
//! knight stronger, so with its verdicts no table that can hold puts them
//! together, the least number of classes rises, and the proposed variant
//! file and the picture's brackets keep them apart. A confirmation of the
//! proposed table (same pieces, other classes) informs the scale in turn,
//! and the report never writes a new table over the one it played.
//! Verdicts of another variant's study, or asked of a report that is not
//! a value scale's, are refused by directory.

use std::path::{Path, PathBuf};

use pocketlab_report::build::{ReportError, ReportOptions, build_report};
use pocketlab_report::model::Report;
use pocketlab_report::render::write_report;
use pocketlab_report::synthetic::{SyntheticModel, write_synthetic_log};
use pocketlab_selfplay::Experiment;

const VARIANT: &str = r#"
name = "tiny-classes"
inherits = "chess"
classes = ["P", "NB", "RQ"]
"#;

const SCALE: &str = r#"
name = "tiny-scale"
variant = "tiny-classes.toml"
seed = 3
[stop]
pairs = 400
[[generators]]
kind = "value-scale"
"#;

const STUDY: &str = r#"
name = "tiny-study"
variant = "tiny-classes.toml"
seed = 4
[stop]
pairs = 600
[[generators]]
kind = "class-equivalence"
class = 2
[[generators]]
kind = "pawn-odds"
square = "f2"
"#;

/// True values in Elo: pawn 100, knight and bishop 300 each, rook 500,
/// queen 900.
fn value(letter: &str) -> f64 {
    match letter {
        "P" => 100.0,
        "N" | "B" => 300.0,
        "R" => 500.0,
        "Q" => 900.0,
        _ => 0.0,
    }
}

/// A synthetic log of `text` in `dir/<name>/log`, armies' strengths from
/// `elo` by army name.
fn log(dir: &Path, name: &str, text: &str, pairs: u64, elo: &dyn Fn(&str) -> f64) -> PathBuf {
    let exp = Experiment::parse(&format!("{name}.toml"), text, dir).unwrap();
    let model = SyntheticModel {
        elo: exp
            .armies
            .iter()
            .map(|a| (a.name.clone(), elo(&a.name)))
            .collect(),
        draw_rate: 0.2,
        white_edge_elo: 20.0,
        opening_bias_elo: 40.0,
        pairs,
        matchup_pairs: Vec::new(),
        seed: 5,
        chunk_games: 5000,
    };
    let log = dir.join(name).join("log");
    write_synthetic_log(&exp, &model, &log).unwrap();
    log
}

/// The scale (pieces on a square: `N@b1`; the empty square and the base
/// army 0; the army a pawn down one pawn below) and the class study (the
/// knight 60 Elo above the bishop).
fn logs(dir: &Path) -> (PathBuf, PathBuf) {
    std::fs::write(dir.join("tiny-classes.toml"), VARIANT).unwrap();
    let scale = log(
        dir,
        "tiny-scale",
        SCALE,
        400,
        &|army| match army.split_once('@') {
            Some((letter, _)) => value(letter),
            None if army.starts_with("pawn-odds") => -value("P"),
            None => 0.0,
        },
    );
    let study = log(dir, "tiny-study", STUDY, 600, &|army| match army {
        "N" => 60.0,
        a if a.starts_with("pawn-odds") => -value("P"),
        _ => 0.0,
    });
    (scale, study)
}

fn report(scale: &Path, verdicts: &[PathBuf], out: &Path) -> Result<Report, ReportError> {
    build_report(
        &[scale.to_path_buf()],
        &ReportOptions {
            out_dir: Some(out.to_path_buf()),
            verdict_logs: verdicts.to_vec(),
            ..ReportOptions::default()
        },
    )
}

#[test]
fn verdicts_keep_a_pair_found_different_apart() {
    let work = tempfile::tempdir().unwrap();
    let (scale_log, study_log) = logs(work.path());
    let out = work.path().join("report");

    // The values alone: knight and bishop share a class.
    let plain = report(&scale_log, &[], &out).unwrap();
    let scale = plain.value_scale.as_ref().unwrap();
    assert!(scale.known.is_none());
    let fewest = scale.fewest.as_ref().unwrap();
    assert!(
        fewest
            .classes
            .iter()
            .any(|c| c.len() == 2 && c.contains(&"N".to_owned()) && c.contains(&"B".to_owned())),
        "{:?}",
        fewest.classes
    );
    let plain_bound = scale.distinct.as_ref().unwrap().classes_needed;

    // With the class study's verdicts: N–B found different.
    let study = build_report(std::slice::from_ref(&study_log), &ReportOptions::default()).unwrap();
    let nb = study.groups[0]
        .pairs
        .iter()
        .find(|p| {
            [&p.a, &p.b] == [&"N".to_owned(), &"B".to_owned()]
                || [&p.a, &p.b] == [&"B".to_owned(), &"N".to_owned()]
        })
        .unwrap();
    assert_eq!(
        nb.kind,
        pocketlab_report::model::VerdictKind::Different,
        "{}",
        nb.text
    );

    let with = report(&scale_log, std::slice::from_ref(&study_log), &out).unwrap();
    let scale = with.value_scale.as_ref().unwrap();
    let known = scale.known.as_ref().unwrap();
    assert_eq!(known.sources, ["tiny-study"]);
    assert_eq!(known.different.len(), 1, "{:?}", known.different);
    assert_eq!(known.pairs_added, 1);
    assert_eq!(known.classes_needed, plain_bound + 1);
    let table = known.table.as_ref().unwrap();
    assert_eq!(table.classes.len(), 5, "{:?}", table.classes);
    assert_eq!(with.experiment.verdict_logs.len(), 1);

    // The proposed variant file is that table, and the report says why.
    let rendered = write_report(&with, &out).unwrap();
    let proposed = std::fs::read_to_string(rendered.proposed_variant.unwrap()).unwrap();
    let classes_line = proposed.lines().find(|l| l.starts_with("classes")).unwrap();
    assert_eq!(classes_line.matches('"').count(), 10, "{classes_line}");
    assert!(
        proposed.contains("class verdicts of tiny-study"),
        "{proposed}"
    );
    let md = std::fs::read_to_string(&rendered.markdown).unwrap();
    assert!(md.contains("taken as known"), "{md}");
    assert!(
        md.contains("--verdicts"),
        "the reproduction names the verdicts"
    );
}

#[test]
fn verdicts_of_another_variant_or_for_another_report_are_refused() {
    let work = tempfile::tempdir().unwrap();
    let (scale_log, study_log) = logs(work.path());
    let out = work.path().join("report");

    // A class study's own report takes no verdicts.
    let err = report(&study_log, std::slice::from_ref(&scale_log), &out).unwrap_err();
    let said = err.to_string();
    assert!(
        said.contains("tiny-study") && said.contains("not a value scale"),
        "{said}"
    );

    // A study of another variant: not the scale's pieces (its knight
    // also steps like a rook one square).
    let other = VARIANT.replace("tiny-classes", "other-classes")
        + "[pieces.N]\nname = \"knight\"\nbetza = \"NW\"\nvalue = 350\n";
    std::fs::write(work.path().join("other-classes.toml"), other).unwrap();
    let study = STUDY
        .replace("tiny-study", "other-study")
        .replace("tiny-classes.toml", "other-classes.toml");
    let other_log = log(work.path(), "other-study", &study, 20, &|_| 0.0);
    let err = report(&scale_log, std::slice::from_ref(&other_log), &out).unwrap_err();
    let said = err.to_string();
    assert!(
        said.contains(&other_log.display().to_string())
            && said.contains("variant other-classes, whose pieces are not"),
        "{said}"
    );

    // A value scale's log holds no class verdicts.
    let err = report(&scale_log, std::slice::from_ref(&scale_log), &out).unwrap_err();
    let said = err.to_string();
    assert!(said.contains("no class verdicts"), "{said}");
}

#[test]
fn a_confirmation_informs_the_scale_and_keeps_the_table_it_played() {
    let work = tempfile::tempdir().unwrap();
    let (scale_log, study_log) = logs(work.path());
    let out = work.path().join("report");
    std::fs::create_dir_all(&out).unwrap();
    let plain = report(&scale_log, &[], &out).unwrap();
    let proposed_path = write_report(&plain, &out)
        .unwrap()
        .proposed_variant
        .unwrap();
    let proposed = std::fs::read_to_string(&proposed_path).unwrap();

    // The confirmation, played beside the report: a class study of the
    // proposed file, on its first class of two pieces or more, which finds
    // that class's first piece stronger.
    let classes: Vec<String> = proposed
        .lines()
        .find_map(|l| l.strip_prefix("classes = "))
        .unwrap()
        .trim_matches(['[', ']'])
        .split(", ")
        .map(|c| c.trim_matches('"').to_owned())
        .collect();
    let (class, letters) = classes
        .iter()
        .enumerate()
        .find(|(_, c)| c.len() >= 2)
        .unwrap_or_else(|| panic!("no proposed class of two pieces: {proposed}"));
    let stronger = letters[..1].to_owned();
    let study = STUDY
        .replace("tiny-study", "confirmation")
        .replace("tiny-classes.toml", "proposed-classes.toml")
        .replace("class = 2", &format!("class = {}", class + 1));
    let confirmation = log(&out, "confirmation", &study, 600, &|army| {
        if army == stronger {
            120.0
        } else if army.starts_with("pawn-odds") {
            -value("P")
        } else {
            0.0
        }
    });

    // Its verdicts, or another study's, would change the proposal: it is
    // not written over the table the confirmation played, which still
    // reads back.
    for verdicts in [&confirmation, &study_log] {
        let err = report(&scale_log, std::slice::from_ref(verdicts), &out).unwrap_err();
        let said = err.to_string();
        assert!(
            said.contains(&confirmation.display().to_string()) && said.contains("another folder"),
            "{said}"
        );
        assert_eq!(std::fs::read_to_string(&proposed_path).unwrap(), proposed);
    }

    // Elsewhere the report takes them: the proposed variant, another name
    // with the same pieces, is the scale's.
    let elsewhere = work.path().join("after-confirmation");
    let with = report(&scale_log, std::slice::from_ref(&confirmation), &elsewhere).unwrap();
    let known = with.value_scale.as_ref().unwrap().known.as_ref().unwrap();
    assert_eq!(known.sources, ["confirmation"]);
    assert!(
        known.different.iter().any(|d| d.contains(&stronger)),
        "{:?}",
        known.different
    );

    // Once the table the confirmation played is edited, its log is
    // refused rather than read against other rules or classes; once it
    // is replaced by the new one, the log no longer loads (its class of
    // two is gone).
    let refused = |why: &[&str]| {
        let err = build_report(
            std::slice::from_ref(&confirmation),
            &ReportOptions::default(),
        )
        .unwrap_err();
        let said = err.to_string();
        assert!(why.iter().all(|w| said.contains(w)), "{said}");
    };
    std::fs::write(&proposed_path, format!("{proposed}# edited\n")).unwrap();
    refused(&["changed since the run", "proposed-classes.toml"]);
    let rendered = write_report(&with, &elsewhere).unwrap();
    std::fs::copy(rendered.proposed_variant.unwrap(), &proposed_path).unwrap();
    refused(&["no longer loads", "restore them"]);
}

#[test]
fn a_table_whose_pairs_were_all_found_equivalent_has_nothing_left_to_confirm() {
    let work = tempfile::tempdir().unwrap();
    let (scale_log, _) = logs(work.path());
    // A class study that finds knight and bishop equivalent, as they are.
    let study = STUDY.replace("tiny-study", "alike-study");
    let alike = log(work.path(), "alike-study", &study, 600, &|army| {
        if army.starts_with("pawn-odds") {
            -value("P")
        } else {
            0.0
        }
    });
    let out = work.path().join("report");
    let with = report(&scale_log, std::slice::from_ref(&alike), &out).unwrap();
    let known = with.value_scale.as_ref().unwrap().known.as_ref().unwrap();
    assert_eq!(known.equivalent.len(), 1, "{:?}", known.equivalent);
    let table = known.table.as_ref().unwrap();
    assert!(
        table.classes.iter().any(|c| c.len() == 2),
        "{:?}",
        table.classes
    );
    assert!(known.unconfirmed.is_empty(), "{:?}", known.unconfirmed);
    let rendered = write_report(&with, &out).unwrap();
    let proposed = std::fs::read_to_string(rendered.proposed_variant.unwrap()).unwrap();
    assert!(
        proposed.contains("nothing is left to confirm"),
        "{proposed}"
    );
    assert!(!proposed.contains("pocketlab study"), "{proposed}");
    let md = std::fs::read_to_string(&rendered.markdown).unwrap();
    assert!(md.contains("no confirmation is left to play"), "{md}");

    // Without the verdicts, the proposal asks for its confirmation.
    let plain = report(&scale_log, &[], &out).unwrap();
    let written = write_report(&plain, &out).unwrap();
    let proposed = std::fs::read_to_string(written.proposed_variant.unwrap()).unwrap();
    assert!(proposed.contains("To confirm it"), "{proposed}");
}
