//! The `tracegate` command: see `tracegate --help`.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    tracegate::cli::run(tracegate::cli::Cli::parse())
}
