//! `-R/--recursive`: a directory given to `-f` or `--live` stands for the
//! manifests of its whole tree, as with kubectl's `-R`. Without it, a
//! directory stands for its own files only (the input module's rule).

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
    for path in paths {
        if path.as_os_str() != "-" && path.is_dir() {
            let before = out.len();
            walk(path, &mut out)?;
            if out.len() == before {
                bail!("{}: directory tree holds no *.yaml, *.yml or *.json files", path.display());
            }
        } else {
            out.push(path.clone());
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let entries = std::fs::read_dir(dir).map_err(|e| anyhow!("{}: cannot read directory: {e}", dir.display()))?;
    let mut paths = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| anyhow!("{}: cannot read directory: {e}", dir.display()))?;
        paths.push(entry.path());
    }
    paths.sort();
    for path in paths {
        // Symbolic links to directories are not followed, as in
        // filepath.Walk: a link loop cannot make the walk endless.
        let metadata = std::fs::symlink_metadata(&path).map_err(|e| anyhow!("{}: cannot read: {e}", path.display()))?;
        if metadata.is_dir() {
            walk(&path, out)?;
        } else if is_manifest(&path) {
            out.push(path);
        }
    }
    Ok(())
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
}
