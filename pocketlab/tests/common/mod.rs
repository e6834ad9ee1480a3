//! What the binary's integration tests share.

// Each test crate includes this module and uses only some of it.
#![allow(dead_code)]

use std::process::{Command, Output};

/// Runs the `pocketlab` binary with `args`: whether it exited with
/// success, and what it wrote (standard error, then standard output).
pub fn pocketlab(args: &[&str]) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_pocketlab"))
        .args(args)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned()
            + &String::from_utf8_lossy(&output.stdout),
    )
}

/// Asserts that a finished command succeeded, showing what it wrote if it
/// did not, and returns its standard output.
#[track_caller]
pub fn succeeded(output: &Output) -> String {
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{}; stderr: {}; stdout: {stdout}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// Asserts that a finished command was refused (a non-zero exit) and
/// returns its standard error, where the reason is given.
#[track_caller]
pub fn refused(output: &Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        !output.status.success(),
        "expected a refusal; stderr: {stderr}; stdout: {}",
        String::from_utf8_lossy(&output.stdout)
    );
    stderr
}
