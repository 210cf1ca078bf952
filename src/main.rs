//! The `tracegate` command: see `tracegate --help`.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    tracegate_cli::cli::run(tracegate_cli::cli::Cli::parse())
}
