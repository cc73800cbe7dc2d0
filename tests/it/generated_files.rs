//! The completion scripts in `completions/` and the man pages in `man/` are
//! what the binary generates today, and the built-in schema's JSON is its
//! YAML as routerctl reads it. To refresh them after changing the CLI or the
//! schema: `ROUTERCTL_REGENERATE=1 cargo test --test it generated_files::`.

use crate::common;

use routerctl::commands::completion::{
    completions, kubectl_plugin_completion, man_page, man_page_names, KUBECTL_COMPLETE, SHELLS,
};
use routerctl::release::RELEASES;

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
        "{} is stale; run `ROUTERCTL_REGENERATE=1 cargo test --test it generated_files::` and commit the result",
        path.display()
    );
}

#[test]
fn the_built_in_schema_json_is_its_yaml() {
    let yaml = std::fs::read_to_string(common::root().join("src/validate/schemas/modelrouter-v1alpha1.yaml"))
        .expect("reads the schema");
    let value: serde_json::Value = routerctl::input::from_yaml_str(&yaml).expect("the schema is YAML");
    // Compact: routerctl reads it at every start, and indentation was
    // most of its bytes.
    let json = serde_json::to_string(&value).expect("serializes") + "\n";
    check("src/validate/schemas/modelrouter-v1alpha1.json", &json);
}

#[test]
fn completions_are_current() {
    for (shell, file) in SHELLS {
        check(&format!("completions/{file}"), &completions(shell));
    }
}

#[test]
fn the_kubectl_plugin_completion_script_is_current() {
    check(&format!("completions/{KUBECTL_COMPLETE}"), &kubectl_plugin_completion());
}

/// Runs the checked-in plugin completion script as kubectl would.
fn complete(words: &[&str]) -> String {
    let out = std::process::Command::new("sh")
        .arg(common::root().join(format!("completions/{KUBECTL_COMPLETE}")))
        .args(words)
        .output()
        .expect("sh runs the script");
    assert!(out.status.success());
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn the_kubectl_plugin_completion_script_answers_as_cobra_expects() {
    assert_eq!(
        complete(&[""]),
        "render\ndiff\nexplain\ntest\nroute\nverify\nreplay\nkrm\nschema\ncompletions\ncompletion\nversion\nman\n:4\n"
    );
    assert_eq!(complete(&["di"]), "diff\n:4\n");
    assert_eq!(complete(&["diff", "-f", "routers/", "--co"]), "--color\n--context\n:4\n");
    // File names are the shell's to complete.
    assert_eq!(complete(&["diff", "-f", ""]), ":0\n");
    assert_eq!(complete(&["render", "--kubeconfig", ""]), ":0\n");
    assert_eq!(complete(&["diff", "-o", ""]), "diff\njson\nmarkdown\n:4\n");
    assert_eq!(complete(&["render", "-f", "r.yaml", "-o", "n"]), "name\n:4\n");
    assert_eq!(complete(&["completion", "z"]), "zsh\n:4\n");
    assert_eq!(complete(&["-q", "man", "re"]), "render\nreplay\n:4\n");
    assert_eq!(complete(&["diff", "--context", ""]), ":4\n");
    assert_eq!(complete(&["schema", ""]), "modelrouter\nroutertest\n:4\n");
    assert_eq!(complete(&["schema", "modelrouter", "-o", ""]), "json\nyaml\n:4\n");
    // Release names come from the release table, `next` last.
    let v091x: String = RELEASES.iter().filter(|r| r.starts_with("v0.9.1")).map(|r| format!("{r}\n")).collect();
    assert_eq!(complete(&["render", "-f", "r.yaml", "--operator-version", "v0.9.1"]), format!("{v091x}:4\n"));
    assert_eq!(complete(&["schema", "modelrouter", "--operator-version", "n"]), "next\n:4\n");
}

/// bash, zsh and fish complete `--operator-version` with every release
/// routerctl knows, and `next`: bash in one word list, fish and zsh each
/// value with its description (`v0.9.1\t''`, `v0.9.1\:""`).
#[test]
fn the_shells_complete_release_names() {
    use clap_complete::Shell;
    let names: Vec<&str> = RELEASES.iter().copied().chain(["next"]).collect();
    let bash = completions(Shell::Bash);
    assert!(bash.contains(&format!("compgen -W \"{}\"", names.join(" "))), "bash");
    let fish = completions(Shell::Fish);
    let zsh = completions(Shell::Zsh);
    assert!(fish.contains("-l operator-version") && zsh.contains("--operator-version="));
    for name in names {
        assert!(fish.contains(&format!("{name}\\t")), "fish: {name}");
        assert!(zsh.contains(&format!("{name}\\:")), "zsh: {name}");
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

    // Its usage names the command the user typed.
    let run = |args: &[&str]| std::process::Command::new(&link).args(args).output().expect("runs");
    let help = run(&["--help"]);
    assert!(String::from_utf8_lossy(&help.stdout).contains("Usage: kubectl routerctl [OPTIONS] <COMMAND>"));
    let help = run(&["diff", "--help"]);
    assert!(String::from_utf8_lossy(&help.stdout).contains("Usage: kubectl routerctl diff [OPTIONS]"));
    let wrong = run(&["diff"]);
    assert_eq!(wrong.status.code(), Some(2));
    assert!(wrong.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&wrong.stderr);
    assert!(stderr.contains("Usage: kubectl routerctl diff --filename <FILE>"), "{stderr}");
    assert!(!stderr.contains("kubectl-routerctl"), "{stderr}");
    // Under its own name, its own usage.
    let own = common::routerctl(&["--help"], None);
    assert!(own.stdout.contains("Usage: routerctl [OPTIONS] <COMMAND>"));
}
