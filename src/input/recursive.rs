//! `-R/--recursive`: a directory given to `-f` or `--live` stands for the
//! manifests of its whole tree, as with kubectl's `-R`. Without it, a
//! directory stands for its own files only (the input module's rule).
//!
//! The walk reads what the plain directory read reads: regular files (a
//! symbolic link counts as what it points to), never a FIFO, socket or
//! device, whose read could block forever. Links are followed, and each
//! real directory and file is taken once, so a link loop ends and a tree
//! reached twice is not rendered twice.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Result};

/// The file names read from directories, as without `-R`.
fn is_manifest(path: &Path) -> bool {
    matches!(path.extension().and_then(|e| e.to_str()), Some("yaml" | "yml" | "json"))
}

/// Replaces each directory among `paths` by the manifests of its tree, in
/// the order of a lexical walk (as Go's filepath.Walk, which kubectl uses).
/// Other arguments (files, `-`) pass unchanged.
pub fn expand(paths: &[PathBuf], recursive: bool) -> Result<Vec<PathBuf>> {
    if !recursive {
        return Ok(paths.to_vec());
    }
    let mut out = Vec::new();
    let mut seen = Seen::default();
    for path in paths {
        if path.as_os_str() != "-" && path.is_dir() {
            if !seen.directory(path) {
                // The same tree given twice: its files are already taken.
                continue;
            }
            if walk(path, &mut out, &mut seen)? == 0 {
                bail!("{}: directory tree holds no *.yaml, *.yml or *.json files", path.display());
            }
        } else {
            out.push(path.clone());
        }
    }
    Ok(out)
}

/// The real (canonical) paths already taken.
#[derive(Default)]
struct Seen {
    directories: HashSet<PathBuf>,
    files: HashSet<PathBuf>,
}

impl Seen {
    /// Whether the directory is new to the walk.
    fn directory(&mut self, path: &Path) -> bool {
        self.directories.insert(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
    }

    /// Whether the file is new to the walk.
    fn file(&mut self, path: &Path) -> bool {
        self.files.insert(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
    }
}

/// Adds the tree's manifests not yet taken to `out`; returns how many
/// manifests the tree holds, taken before or not.
fn walk(dir: &Path, out: &mut Vec<PathBuf>, seen: &mut Seen) -> Result<usize> {
    let entries = std::fs::read_dir(dir).map_err(|e| anyhow!("{}: cannot read directory: {e}", dir.display()))?;
    let mut paths = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| anyhow!("{}: cannot read directory: {e}", dir.display()))?;
        paths.push(entry.path());
    }
    paths.sort();
    let mut found = 0;
    for path in paths {
        // What a link points to decides; a dangling link is skipped, as the
        // plain directory read skips it.
        let Ok(metadata) = std::fs::metadata(&path) else { continue };
        if metadata.is_dir() {
            if seen.directory(&path) {
                found += walk(&path, out, seen)?;
            }
        } else if metadata.is_file() && is_manifest(&path) {
            found += 1;
            if seen.file(&path) {
                out.push(path);
            }
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_the_tree_in_lexical_order_and_keeps_other_arguments() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        for file in ["b.yaml", "a/z.yml", "a/deeper/c.json", "notes.txt", "c/README"] {
            let path = root.join(file);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
            std::fs::write(&path, "").expect("write");
        }
        let found = expand(&[root.to_path_buf(), PathBuf::from("-")], true).expect("walks");
        let rel: Vec<_> =
            found.iter().map(|p| p.strip_prefix(root).unwrap_or(p).to_string_lossy().into_owned()).collect();
        assert_eq!(rel, ["a/deeper/c.json", "a/z.yml", "b.yaml", "-"]);
        assert_eq!(expand(&[root.to_path_buf()], false).expect("as given"), [root.to_path_buf()]);
        let empty = root.join("c");
        let err = expand(&[empty], true).expect_err("no manifests");
        assert!(err.to_string().contains("directory tree holds no"), "{err}");
    }

    #[test]
    fn links_are_followed_once_and_only_regular_files_are_read() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        std::fs::create_dir_all(root.join("real")).expect("mkdir");
        std::fs::write(root.join("real/router.yaml"), "").expect("write");
        // A link to a directory, named like a manifest; a link back up (a
        // loop); a link to a file already in the tree; a dangling link.
        symlink(root.join("real"), root.join("x.yaml")).expect("link");
        symlink(root, root.join("real/up")).expect("link");
        symlink(root.join("real/router.yaml"), root.join("same.yaml")).expect("link");
        symlink(root.join("gone.yaml"), root.join("dangling.yaml")).expect("link");
        // A FIFO named like a manifest: reading it would wait for a writer.
        let fifo = root.join("pipe.yaml");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
        assert!(made.success());
        let found = expand(&[root.to_path_buf()], true).expect("walks");
        let rel: Vec<_> =
            found.iter().map(|p| p.strip_prefix(root).unwrap_or(p).to_string_lossy().into_owned()).collect();
        assert_eq!(rel, ["real/router.yaml"]);
        // A tree given twice, or inside another one given, adds nothing.
        let again = expand(&[root.to_path_buf(), root.join("real"), root.to_path_buf()], true).expect("walks");
        assert_eq!(again, found);
    }
}
