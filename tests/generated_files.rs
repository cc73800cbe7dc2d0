//! The completion scripts in `completions/` and the man pages in `man/` are
//! what the binary generates today. To refresh them after changing the CLI:
//! `ROUTERCTL_REGENERATE=1 cargo test --test generated_files`.

mod common;

use routerctl::generated::{completions, man_page, man_page_names, SHELLS};

fn check(path: &str, generated: &str) {
    let path = common::root().join(path);
    if std::env::var_os("ROUTERCTL_REGENERATE").is_some() {
        std::fs::create_dir_all(path.parent().expect("a parent directory")).expect("creates the directory");
        std::fs::write(&path, generated).expect("writes the generated file");
        return;
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "{} is stale; run `ROUTERCTL_REGENERATE=1 cargo test --test generated_files` and commit the result",
        path.display()
    );
}

#[test]
fn completions_are_current() {
    for (shell, file) in SHELLS {
        check(&format!("completions/{file}"), &completions(shell));
    }
}

#[test]
fn man_pages_are_current() {
    for name in man_page_names() {
        let command = name.strip_prefix("routerctl-");
        check(&format!("man/{name}.1"), &man_page(command).expect("a page"));
    }
}

#[test]
fn the_binary_prints_the_same_completions_and_pages() {
    let run = common::routerctl(&["completions", "fish"], None);
    assert_eq!(run.code, 0);
    assert_eq!(run.stdout, completions(clap_complete::Shell::Fish));
    let run = common::routerctl(&["man", "diff"], None);
    assert_eq!(run.stdout, man_page(Some("diff")).expect("a page"));
    let run = common::routerctl(&["man", "nope"], None);
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
}

#[test]
fn works_as_a_kubectl_plugin() {
    // kubectl runs `kubectl-routerctl` for `kubectl routerctl ...`.
    let dir = tempfile::tempdir().expect("temp dir");
    let link = dir.path().join("kubectl-routerctl");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_routerctl"), &link).expect("symlink");
    let out = std::process::Command::new(&link)
        .args(["render", "-f", "testdata/render/sample.yaml"])
        .current_dir(common::root())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("kind: Deployment"));
}
