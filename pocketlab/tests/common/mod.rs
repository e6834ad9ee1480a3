//! What the binary's integration tests share.

use std::process::Command;

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
