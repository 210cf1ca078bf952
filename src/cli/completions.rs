//! `tracegate completions SHELL` and `tracegate man`: generated from the
//! command-line definition itself (clap_complete, clap_mangen), so they
//! cannot drift from the flags the binary takes.

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::Context as _;
use clap::{Args, CommandFactory};
use clap_complete::Shell;

use super::input::is_broken_pipe;
use super::{Cli, exit};

/// `completions` options.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// `man` options.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write `tracegate.1` and one page per subcommand
    /// (`tracegate-check.1`, ...) into this folder (created if missing;
    /// pages of those names are replaced) instead of printing the main
    /// page.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Run `completions`; returns the exit code.
pub fn run_completions(args: &CompletionsArgs) -> u8 {
    // The generators panic on a failed write, so they write to memory and
    // the write to stdout is ours to handle.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "tracegate", &mut script);
    print(&script)
}

/// Run `man`; returns the exit code.
pub fn run_man(args: &ManArgs) -> u8 {
    let cmd = Cli::command();
    if let Some(dir) = &args.dir {
        let written =
            std::fs::create_dir_all(dir).and_then(|()| clap_mangen::generate_to(cmd, dir));
        let written =
            written.with_context(|| format!("cannot write manual pages to `{}`", dir.display()));
        return super::reported(written).map_or(exit::ERROR, |()| exit::OK);
    }
    let mut page = Vec::new();
    // The page names only pages `--dir` writes: clap's generated `help`
    // subcommand has none (`generate_to` skips it too).
    let cmd = cmd.disable_help_subcommand(true);
    if let Err(e) = clap_mangen::Man::new(cmd).render(&mut page) {
        super::report_error(&anyhow::Error::new(e).context("cannot render the manual page"));
        return exit::ERROR;
    }
    print(&page)
}

/// Write `bytes` to stdout: a closed pipe ends quietly (exit 0), another
/// error is exit 2.
fn print(bytes: &[u8]) -> u8 {
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => exit::OK,
        Err(e) if is_broken_pipe(&e) => exit::OK,
        Err(e) => {
            super::report_error(&anyhow::Error::new(e).context("cannot write to stdout"));
            exit::ERROR
        }
    }
}
