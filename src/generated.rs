//! Shell completions and man pages, generated from the clap definitions.
//! The copies checked in under `completions/` and `man/` are compared with
//! these by a test, so they cannot go stale.

use anyhow::{bail, Result};
use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::Cli;

/// Every shell routerctl completes, with the file name its script is kept
/// under in `completions/`.
pub const SHELLS: [(Shell, &str); 5] = [
    (Shell::Bash, "routerctl.bash"),
    (Shell::Zsh, "_routerctl"),
    (Shell::Fish, "routerctl.fish"),
    (Shell::PowerShell, "_routerctl.ps1"),
    (Shell::Elvish, "routerctl.elv"),
];

/// The completion script for `shell`.
pub fn completions(shell: Shell) -> String {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "routerctl", &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// The subcommands with a man page of their own.
pub fn man_page_names() -> Vec<String> {
    let cmd = Cli::command();
    let mut names = vec!["routerctl".to_string()];
    names.extend(
        cmd.get_subcommands().filter(|c| c.get_name() != "help").map(|c| format!("routerctl-{}", c.get_name())),
    );
    names
}

/// The man page of routerctl (`None`) or of one of its commands.
pub fn man_page(command: Option<&str>) -> Result<String> {
    let mut root = Cli::command();
    // Building propagates the version to the subcommands' pages.
    root.build();
    let cmd = match command {
        None => root,
        Some(name) => match root.find_subcommand(name) {
            Some(sub) => {
                let sub = sub.clone();
                let full = format!("routerctl-{name}");
                sub.name(full.clone()).display_name(full).bin_name(format!("routerctl {name}"))
            }
            None => bail!("routerctl has no command {name:?}; `routerctl --help` lists them"),
        },
    };
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut out)?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}
