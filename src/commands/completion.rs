//! Shell completions and man pages, generated from the clap definitions.
//! The copies checked in under `completions/` and `man/` are compared with
//! these by a test, so they cannot go stale.

use anyhow::{bail, Result};
use clap::{Arg, CommandFactory, ValueHint};
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

/// The file name kubectl (1.26 and newer) looks for on PATH to complete the
/// arguments of the plugin `kubectl routerctl`.
pub const KUBECTL_COMPLETE: &str = "kubectl_complete-routerctl";

/// The `kubectl_complete-routerctl` script. kubectl runs it with the words
/// after `kubectl routerctl`, the last one being the word to complete, and
/// reads back one candidate a line and then `:N`, cobra's directive (0: let
/// the shell complete file names, 4: nothing else to offer).
pub fn kubectl_plugin_completion() -> String {
    let mut root = Cli::command();
    root.build();
    let mut out = String::from(
        "#!/bin/sh\n\
         # Completion of `kubectl routerctl ...`, generated from routerctl's command line\n\
         # definitions. kubectl runs it with the words after `routerctl`, the last one\n\
         # being the word to complete; it prints one candidate a line, then cobra's\n\
         # directive (:0 lets the shell complete file names, :4 offers nothing more).\n\
         n=$#\n\
         i=0\n\
         sub=\"\"\n\
         prev=\"\"\n\
         cur=\"\"\n\
         for w in \"$@\"; do\n\
         \x20 i=$((i + 1))\n\
         \x20 if [ \"$i\" -lt \"$n\" ]; then\n\
         \x20   case \"$w\" in -*) ;; *) [ -z \"$sub\" ] && sub=\"$w\" ;; esac\n\
         \x20   prev=\"$w\"\n\
         \x20 else\n\
         \x20   cur=\"$w\"\n\
         \x20 fi\n\
         done\n\
         offer() {\n\
         \x20 for c in \"$@\"; do\n\
         \x20   case \"$c\" in \"$cur\"*) printf '%s\\n' \"$c\" ;; esac\n\
         \x20 done\n\
         \x20 echo :4\n\
         \x20 exit 0\n\
         }\n",
    );
    let subcommands: Vec<&clap::Command> = root.get_subcommands().filter(|c| c.get_name() != "help").collect();
    let names: Vec<String> = subcommands
        .iter()
        .flat_map(|c| std::iter::once(c.get_name().to_string()).chain(c.get_visible_aliases().map(str::to_string)))
        .collect();
    out.push_str("case \"$sub\" in\n");
    out.push_str(&format!(
        "\"\")\n  case \"$cur\" in -*) offer {} ;; esac\n  offer {}\n  ;;\n",
        flag_words(root.get_arguments()),
        names.join(" ")
    ));
    for sub in &subcommands {
        let mut patterns = vec![sub.get_name().to_string()];
        patterns.extend(sub.get_visible_aliases().map(str::to_string));
        out.push_str(&format!("{})\n", patterns.join("|")));
        let value_arms: Vec<String> = sub
            .get_arguments()
            .filter(|a| takes_value(a) && !a.is_positional())
            .map(|arg| (arg_spellings(arg), arg))
            .filter(|(spellings, _)| !spellings.is_empty())
            .map(|(spellings, arg)| format!("  {}) {} ;;\n", spellings.join("|"), value_completion(arg)))
            .collect();
        if !value_arms.is_empty() {
            out.push_str("  case \"$prev\" in\n");
            out.push_str(&value_arms.concat());
            out.push_str("  esac\n");
        }
        out.push_str(&format!("  case \"$cur\" in -*) offer {} ;; esac\n", flag_words(sub.get_arguments())));
        match sub.get_arguments().find(|a| a.is_positional()) {
            // `man COMMAND` takes a command name.
            Some(_) if sub.get_name() == "man" => {
                let commands: Vec<&str> = subcommands.iter().map(|c| c.get_name()).collect();
                out.push_str(&format!("  offer {}\n", commands.join(" ")));
            }
            Some(arg) => out.push_str(&format!("  {}\n", value_completion(arg))),
            None => out.push_str("  echo :4\n"),
        }
        out.push_str("  ;;\n");
    }
    out.push_str("*)\n  echo :4\n  ;;\nesac\n");
    out
}

fn takes_value(arg: &Arg) -> bool {
    arg.get_num_args().is_some_and(|n| n.takes_values())
}

/// `-f|--filename`: how the flag can be written.
fn arg_spellings(arg: &Arg) -> Vec<String> {
    let mut out: Vec<String> =
        arg.get_short_and_visible_aliases().unwrap_or_default().iter().map(|c| format!("-{c}")).collect();
    out.extend(arg.get_long_and_visible_aliases().unwrap_or_default().iter().map(|l| format!("--{l}")));
    out
}

/// Every flag spelling of `args`, long ones first, for `offer`.
fn flag_words<'a>(args: impl Iterator<Item = &'a Arg>) -> String {
    let mut longs = Vec::new();
    let mut shorts = Vec::new();
    for arg in args.filter(|a| !a.is_positional() && !a.is_hide_set()) {
        for s in arg_spellings(arg) {
            if s.starts_with("--") {
                longs.push(s);
            } else {
                shorts.push(s);
            }
        }
    }
    longs.sort();
    shorts.sort();
    longs.extend(shorts);
    longs.join(" ")
}

/// What completes the value of `arg`: its possible values, file names, or
/// nothing.
fn value_completion(arg: &Arg) -> String {
    let values: Vec<String> =
        arg.get_possible_values().iter().filter(|v| !v.is_hide_set()).map(|v| v.get_name().to_string()).collect();
    if !values.is_empty() {
        return format!("offer {}", values.join(" "));
    }
    match arg.get_value_hint() {
        ValueHint::AnyPath | ValueHint::FilePath | ValueHint::DirPath => "echo :0; exit 0".to_string(),
        _ => "echo :4; exit 0".to_string(),
    }
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
