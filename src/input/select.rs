//! `--skip-other-files`: in a directory named to `-f` (or `-t`,
//! `--against`, `--crd`), only the files that hold what routerctl reads.
//! An application's repository, where a pre-commit hook reads `-R -f .`,
//! also holds YAML and JSON that is not Kubernetes at all (`node_modules`,
//! a `tsconfig.json` with comments, CI files) or not yet (a Helm chart's
//! templates): those are skipped unread, so they can neither fail the run
//! nor slow it.
//!
//! A file is read when a `kind:` of its text names one of the kinds the
//! command gives (ModelRouter, InferenceService, ModelPool, RouterTest: this
//! module knows none itself), in YAML's block or flow style or JSON, and it
//! is not under a Helm chart's `templates/` (a directory beside a
//! `Chart.yaml`), whose files are templates, not manifests. The test is on the text, not on parsed documents: a file that
//! cannot be parsed is judged all the same, and one that holds a router and
//! a mistake is read, so the mistake is reported.

use std::path::Path;

/// Which files of a directory are read.
#[derive(Debug, Clone)]
pub struct Selection {
    kind_line: regex::bytes::Regex,
}

impl Selection {
    /// The files that hold an object of one of `kinds`.
    pub fn of_kinds(kinds: &[&str]) -> Selection {
        let kinds: Vec<String> = kinds.iter().map(|k| regex::escape(k)).collect();
        // `kind: ModelRouter`, `- kind: RouterTest`, `{kind: ModelPool, ...}`,
        // `"kind": "InferenceService"`, the kind quoted or not; at a line's
        // start (after spaces and sequence dashes) or after a flow
        // mapping's `{` or `,`: never in a comment or another key.
        let at = r"(?:^[ \t]*(?:-[ \t]+)*|[{,][ \t]*)";
        let kind = r#"["']?kind["']?[ \t]*:[ \t]*["']?"#;
        let end = r#"(?:["'\s,}]|$)"#;
        let kind_line = regex::bytes::Regex::new(&format!("(?m){at}{kind}(?:{}){end}", kinds.join("|")))
            .expect("a regex of escaped names");
        Selection { kind_line }
    }

    /// Whether the file found in a directory is to be read. A file that
    /// cannot be read is kept: the reader that reads it says why.
    pub fn keeps(&self, path: &Path) -> bool {
        if in_helm_templates(path) {
            return false;
        }
        let Ok(bytes) = std::fs::read(path) else { return true };
        // UTF-16 text (the input reader decodes it) is not searched as bytes.
        if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
            return true;
        }
        self.kind_line.is_match(&bytes)
    }
}

/// Whether a directory above the file is a Helm chart's `templates/`.
fn in_helm_templates(path: &Path) -> bool {
    path.ancestors().skip(1).any(|dir| {
        dir.file_name().is_some_and(|name| name == "templates")
            && dir.parent().is_some_and(|chart| chart.join("Chart.yaml").is_file())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const KINDS: [&str; 4] = ["ModelRouter", "InferenceService", "ModelPool", "RouterTest"];

    fn kept(text: &str) -> bool {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("file.yaml");
        std::fs::write(&path, text).expect("write");
        Selection::of_kinds(&KINDS).keeps(&path)
    }

    #[test]
    fn a_kind_line_naming_a_kind_routerctl_reads_keeps_the_file_in_every_style() {
        for text in [
            "apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\n",
            "kind: 'ModelRouter'\n",
            "items:\n- kind: InferenceService\n  metadata: {name: a}\n",
            "{apiVersion: v1, kind: ModelPool, metadata: {name: a}}\n",
            "{\"apiVersion\": \"x\",\"kind\":\"RouterTest\"}",
            "  \"kind\" :  \"ModelRouter\" ,\n",
            "kind: RouterTest",
            // A router with a mistake in it is read, so the mistake is said.
            "kind: ModelRouter\nspec: [unclosed\n",
        ] {
            assert!(kept(text), "{text:?} is read");
        }
    }

    #[test]
    fn other_files_are_skipped_even_when_they_mention_the_kinds() {
        for text in [
            "{\n  // comments\n  \"compilerOptions\": {\"strict\": true,},\n}\n",
            "apiVersion: apps/v1\nkind: Deployment\n",
            "kind: ModelRouterList2\n",
            "kind: MyModelRouter\n",
            "description: routes a ModelRouter's requests\n",
            "# kind: ModelRouter is how a router starts\nkey: [unclosed\n",
            "subkind: ModelRouter\n",
            "",
        ] {
            assert!(!kept(text), "{text:?} is skipped");
        }
    }

    #[test]
    fn a_helm_charts_templates_are_skipped_and_a_templates_directory_elsewhere_is_not() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        let router = "kind: ModelRouter\nmetadata:\n  name: {{ .Release.Name }}\n";
        for (file, text) in [
            ("chart/Chart.yaml", "apiVersion: v2\nname: chart\nversion: 0.1.0\n"),
            ("chart/templates/router.yaml", router),
            ("chart/templates/deep/router.yaml", router),
            ("kustomize/templates/router.yaml", "kind: ModelRouter\n"),
        ] {
            let path = root.join(file);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
            std::fs::write(&path, text).expect("write");
        }
        let selection = Selection::of_kinds(&KINDS);
        assert!(!selection.keeps(&root.join("chart/templates/router.yaml")));
        assert!(!selection.keeps(&root.join("chart/templates/deep/router.yaml")));
        assert!(selection.keeps(&root.join("kustomize/templates/router.yaml")), "no Chart.yaml beside it");
        assert!(selection.keeps(&root.join("missing.yaml")), "an unreadable file is left to the reader");
    }
}
