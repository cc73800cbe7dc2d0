//! One owner of a run's inputs: every `-f`, `-t`, `--against`, `--crd` and
//! `--live` argument is read through [`Inputs`], which reads each list of
//! arguments once per run (a router rendered on two data planes, or read
//! both as routers and as RouterTests, is read once) and hands stdin to
//! one argument list only, whichever flag names it.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, Result};

use super::select::Selection;
use super::{expand_paths, read_sources, InputPath, Source};

/// What stdin was given to.
#[derive(Debug, Clone, PartialEq, Eq)]
enum StdinUse {
    /// Read whole, for this argument list.
    Read(Key),
    /// Handed out as a stream (`--live -`, indexed as it arrives).
    Streamed,
}

/// An argument list as given, and whether `-R` expands its directories.
type Key = (Vec<PathBuf>, bool);

/// The inputs of one run.
pub struct Inputs<'a> {
    stdin: &'a mut dyn Read,
    stdin_use: Option<StdinUse>,
    read: HashMap<Key, Arc<[Source]>>,
    /// The files read whose names are not UTF-8: the name messages use
    /// (U+FFFD for each bad byte) and the name's bytes.
    raw_names: Vec<(String, Vec<u8>)>,
    /// `--skip-other-files`: of the files found in directories, only those
    /// the selection keeps.
    selection: Option<Selection>,
}

impl<'a> Inputs<'a> {
    pub fn new(stdin: &'a mut dyn Read) -> Inputs<'a> {
        Inputs { stdin, stdin_use: None, read: HashMap::new(), raw_names: Vec::new(), selection: None }
    }

    /// Of the files directories stand for in [`Inputs::sources`], read only
    /// those `selection` keeps (`--skip-other-files`); files named on their
    /// own are read whatever they hold.
    pub fn select(&mut self, selection: Selection) {
        self.selection = Some(selection);
    }

    /// The sources `paths` stand for (`-` is stdin, a directory its
    /// manifests, its whole tree with `recursive`), read on the first ask
    /// and the same sources on every later one.
    pub fn sources(&mut self, paths: &[PathBuf], recursive: bool) -> Result<Arc<[Source]>> {
        let key: Key = (paths.to_vec(), recursive);
        if let Some(sources) = self.read.get(&key) {
            return Ok(Arc::clone(sources));
        }
        let expanded = super::recursive::expand(paths, recursive)?;
        if has_stdin(&expanded) {
            self.claim_stdin(&expanded, StdinUse::Read(key.clone()))?;
        }
        let mut inputs = expand_paths(&expanded)?;
        if let Some(selection) = &self.selection {
            // A path given as it is, not found in a directory, is read.
            let named: Vec<&PathBuf> = paths.iter().filter(|p| !p.is_dir()).collect();
            inputs.retain(|input| match input {
                InputPath::File(path) => named.contains(&path) || selection.keeps(path),
                InputPath::Stdin => true,
            });
        }
        self.note_names(&inputs);
        let sources: Arc<[Source]> = read_sources(inputs, self.stdin)?.into();
        self.read.insert(key, Arc::clone(&sources));
        Ok(sources)
    }

    /// The inputs `paths` stand for, for a reader that streams them (live
    /// objects are indexed as they arrive, never held whole): a `-` among
    /// them is read from [`Inputs::stdin`], once.
    pub fn streamed(&mut self, paths: &[PathBuf], recursive: bool) -> Result<Vec<InputPath>> {
        let expanded = super::recursive::expand(paths, recursive)?;
        if has_stdin(&expanded) {
            self.claim_stdin(&expanded, StdinUse::Streamed)?;
        }
        let inputs = expand_paths(&expanded)?;
        self.note_names(&inputs);
        Ok(inputs)
    }

    /// The files of the run whose names are not UTF-8, each as messages
    /// name it and as its bytes, for a format that can carry the bytes
    /// (SARIF's percent-encoded URIs).
    pub fn raw_names(&self) -> &[(String, Vec<u8>)] {
        &self.raw_names
    }

    fn note_names(&mut self, inputs: &[InputPath]) {
        for input in inputs {
            if let InputPath::File(path) = input {
                if let Some(bytes) = raw_name(path) {
                    self.raw_names.push((path.display().to_string(), bytes));
                }
            }
        }
    }

    /// Stdin, for the one streamed input that names it.
    pub fn stdin(&mut self) -> &mut dyn Read {
        self.stdin
    }

    /// Stdin for one argument list, `-` once in it.
    fn claim_stdin(&mut self, paths: &[PathBuf], by: StdinUse) -> Result<()> {
        if paths.iter().filter(|p| p.as_os_str() == "-").count() > 1 {
            bail!(STDIN_ONCE);
        }
        match &self.stdin_use {
            None => {
                self.stdin_use = Some(by);
                Ok(())
            }
            Some(_) => bail!(STDIN_ONCE),
        }
    }
}

/// A path's bytes, when they are not UTF-8 (and so not its name in
/// messages).
#[cfg(unix)]
fn raw_name(path: &Path) -> Option<Vec<u8>> {
    use std::os::unix::ffi::OsStrExt;
    path.to_str().is_none().then(|| path.as_os_str().as_bytes().to_vec())
}

/// Elsewhere a path is UTF-16: what cannot be shown cannot be written as bytes.
#[cfg(not(unix))]
fn raw_name(_: &Path) -> Option<Vec<u8>> {
    None
}

fn has_stdin(paths: &[PathBuf]) -> bool {
    paths.iter().any(|p| p.as_os_str() == "-")
}

const STDIN_ONCE: &str = "stdin (`-`) can be given only once across -f, -t, --against, --crd and --live";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stdin_is_read_once_and_served_again_to_the_same_arguments() {
        let mut stdin: &[u8] = b"kind: ConfigMap\n";
        let mut inputs = Inputs::new(&mut stdin);
        let dash = [PathBuf::from("-")];
        let first = inputs.sources(&dash, false).expect("reads stdin");
        let again = inputs.sources(&dash, false).expect("the same sources");
        assert!(Arc::ptr_eq(&first, &again));
        assert_eq!(first[0].text, "kind: ConfigMap\n");
        let other = inputs.sources(&[PathBuf::from("-"), PathBuf::from("x.yaml")], false);
        assert!(other.expect_err("stdin twice").to_string().contains("only once"));
        assert!(inputs.streamed(&dash, false).is_err(), "nor streamed after it was read");
        let twice = [PathBuf::from("-"), PathBuf::from("-")];
        let mut stdin: &[u8] = b"";
        assert!(Inputs::new(&mut stdin).sources(&twice, false).is_err(), "nor twice in one list");
    }

    #[test]
    fn streamed_stdin_is_not_read_again() {
        let mut stdin: &[u8] = b"";
        let mut inputs = Inputs::new(&mut stdin);
        let dash = [PathBuf::from("-")];
        assert_eq!(inputs.streamed(&dash, false).expect("claims stdin"), [InputPath::Stdin]);
        assert!(inputs.sources(&dash, false).is_err());
    }
}
