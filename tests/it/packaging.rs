//! The ways in agree on the release archives: the targets the release
//! workflow builds (`.github/workflows/release.yml`), the archives
//! `packaging/archive.sh` packs for them (name and layout), the archive and
//! binary cargo-binstall looks for (Cargo.toml's
//! `[package.metadata.binstall]`), the krew manifest `packaging/krew/fill.sh`
//! writes (one platform per archive, its URI, SHA-256 and binary), and the
//! archive the GitHub Action (`action.yml`, `packaging/action/install.sh`)
//! downloads, checks and installs on each runner. Every address of the
//! project in them and in the docs is Cargo.toml's `repository`.
//!
//! The archives are packed from a stand-in binary (a script that says
//! which it is) under each target's name: what is checked is where things
//! are, not what the binary was built for.
//! The published crate leaves these files out (Cargo.toml's `include`), so
//! there the tests stand aside, saying so.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::common;

/// The version the archives are packed as: not the crate's, so that
/// nothing passes by taking the version from Cargo.toml where the
/// workflow passes the tag's.
const VERSION: &str = "1.2.3";

const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");

/// Whether the repository's release files are here; says why not.
fn in_repository() -> bool {
    if common::packaged() {
        eprintln!("the published crate has no release files (Cargo.toml's include): not checked");
        return false;
    }
    true
}

fn read(path: &str) -> String {
    let full = common::root().join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A YAML file's one document, read with routerctl's own YAML reader.
fn yaml(name: &str, text: &str) -> Value {
    let source = routerctl::input::Source { name: name.to_string(), text: text.to_string() };
    let mut documents = routerctl::input::documents(&source).unwrap_or_else(|e| panic!("{name}: {e:#}"));
    assert_eq!(documents.len(), 1, "{name}: one document");
    documents.remove(0).value
}

fn run(command: &mut Command) -> Output {
    command.output().unwrap_or_else(|e| panic!("{command:?}: {e}"))
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The targets the release workflow builds, in its order.
fn release_targets() -> Vec<String> {
    let workflow = yaml("release.yml", &read(".github/workflows/release.yml"));
    let include = workflow["jobs"]["build"]["strategy"]["matrix"]["include"].as_array().expect("a build matrix");
    include.iter().map(|entry| entry["target"].as_str().expect("each entry names its target").to_string()).collect()
}

fn is_windows(target: &str) -> bool {
    target.contains("-windows-")
}

/// The archive packaging/archive.sh should make for `target`.
fn archive_name(target: &str) -> String {
    let suffix = if is_windows(target) { "zip" } else { "tar.gz" };
    format!("routerctl-{VERSION}-{target}.{suffix}")
}

/// krew's and GitHub's names for a target's OS and architecture.
fn platform(target: &str) -> (&'static str, &'static str) {
    let arch = match target.split('-').next() {
        Some("x86_64") => "amd64",
        Some("aarch64") => "arm64",
        other => panic!("{target}: an architecture this test does not know: {other:?}"),
    };
    let os = if target.contains("-linux-") {
        "linux"
    } else if target.contains("-apple-darwin") {
        "darwin"
    } else if is_windows(target) {
        "windows"
    } else {
        panic!("{target}: an OS this test does not know")
    };
    (os, arch)
}

/// What the stand-in binary prints.
const STAND_IN: &str = "the stand-in routerctl";

/// Packs every release target's archive into `dir` with archive.sh.
fn pack_all(dir: &Path) -> Vec<(String, PathBuf)> {
    std::fs::create_dir_all(dir).expect("creates the archives' directory");
    let binary = dir.join("stand-in-routerctl");
    std::fs::write(&binary, format!("#!/bin/sh\necho '{STAND_IN}'\n")).expect("writes the stand-in");
    release_targets()
        .into_iter()
        .map(|target| {
            let out = run(Command::new("bash")
                .arg(common::root().join("packaging/archive.sh"))
                .args([VERSION, &target])
                .arg(&binary)
                .arg(dir));
            assert!(out.status.success(), "archive.sh for {target}: {}", stderr(&out));
            let printed = String::from_utf8(out.stdout).expect("a path");
            let path = PathBuf::from(printed.trim_end());
            assert_eq!(
                path.file_name().and_then(|n| n.to_str()),
                Some(archive_name(&target).as_str()),
                "archive.sh's archive for {target}"
            );
            assert!(path.is_file(), "{} is there", path.display());
            (target, path)
        })
        .collect()
}

/// The files of an archive (directories left out).
fn entries(archive: &Path) -> BTreeSet<String> {
    let out = if archive.extension().is_some_and(|e| e == "zip") {
        run(Command::new("unzip").arg("-Z1").arg(archive))
    } else {
        run(Command::new("tar").arg("-tzf").arg(archive))
    };
    assert!(out.status.success(), "listing {}: {}", archive.display(), stderr(&out));
    String::from_utf8(out.stdout)
        .expect("names")
        .lines()
        .filter(|l| !l.ends_with('/'))
        .map(|l| l.trim_start_matches("./").to_string())
        .collect()
}

fn sha256_hex(path: &Path) -> String {
    let bytes = std::fs::read(path).expect("reads an archive");
    Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA256SUMS as the release job writes it (sha256sum's format).
fn write_sums(archives: &[(String, PathBuf)], to: &Path) {
    let text: String = archives
        .iter()
        .map(|(_, path)| format!("{}  {}\n", sha256_hex(path), path.file_name().unwrap().to_string_lossy()))
        .collect();
    std::fs::write(to, text).expect("writes SHA256SUMS");
}

#[test]
fn the_release_builds_one_archive_per_platform_with_its_binary_completions_man_pages_license_and_readme() {
    if !in_repository() {
        return;
    }
    let targets = release_targets();
    let platforms: BTreeSet<(&str, &str)> = targets.iter().map(|t| platform(t)).collect();
    let expected: BTreeSet<(&str, &str)> =
        [("linux", "amd64"), ("linux", "arm64"), ("darwin", "amd64"), ("darwin", "arm64"), ("windows", "amd64")]
            .into_iter()
            .collect();
    assert_eq!(platforms, expected, "the platforms the release builds for");
    for target in targets.iter().filter(|t| t.contains("-linux-")) {
        assert!(target.ends_with("-linux-musl"), "{target}: Linux binaries are static, built for musl");
    }

    let dir = tempfile::tempdir().expect("a temporary directory");
    let listing = |sub: &str| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(common::root().join(sub))
            .expect("reads a directory")
            .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    for (target, archive) in pack_all(dir.path()) {
        let top = format!("routerctl-{VERSION}-{target}");
        let exe = if is_windows(&target) { ".exe" } else { "" };
        let mut want: BTreeSet<String> =
            [format!("{top}/routerctl{exe}"), format!("{top}/LICENSE"), format!("{top}/README.md")]
                .into_iter()
                .collect();
        want.extend(listing("completions").into_iter().map(|f| format!("{top}/completions/{f}")));
        want.extend(listing("man").into_iter().map(|f| format!("{top}/man/{f}")));
        assert_eq!(entries(&archive), want, "{}", archive.display());
    }
}

#[test]
fn the_workflow_builds_with_build_sh_packs_with_archive_sh_and_publishes_sums_the_krew_manifest_and_provenance() {
    if !in_repository() {
        return;
    }
    let workflow = yaml("release.yml", &read(".github/workflows/release.yml"));
    let runs = |job: &str| -> String {
        workflow["jobs"][job]["steps"]
            .as_array()
            .unwrap_or_else(|| panic!("release.yml: job {job} has steps"))
            .iter()
            .filter_map(|step| step["run"].as_str().or_else(|| step["uses"].as_str()))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let build = runs("build");
    assert!(build.contains(r#"packaging/build.sh "$TARGET""#), "the build job builds with build.sh:\n{build}");
    assert!(
        read("Dockerfile").contains(r#"packaging/build.sh "$host""#),
        "the image's binary is built as the archives' are"
    );
    assert!(
        build.contains(r#"packaging/archive.sh "$VERSION" "$TARGET""#),
        "the build job packs with archive.sh:\n{build}"
    );
    assert_eq!(workflow["jobs"]["build"]["env"]["TARGET"], "${{ matrix.target }}");
    assert_eq!(workflow["jobs"]["build"]["env"]["VERSION"], "${{ needs.version.outputs.version }}");
    let release = runs("release");
    for needed in [
        "sha256sum routerctl-* >SHA256SUMS",
        r#"packaging/krew/fill.sh "$VERSION" "$repository" dist/SHA256SUMS >dist/routerctl.yaml"#,
        "actions/attest-build-provenance@",
        "actions/attest-sbom@",
        "gh release create",
    ] {
        assert!(release.contains(needed), "the release job runs {needed}:\n{release}");
    }
    // The version the workflow packs with is the tag's, checked to be Cargo.toml's.
    let check = runs("version");
    assert!(check.contains(r#""v$version" != "$GITHUB_REF_NAME""#), "{check}");
    assert!(check.contains(r#""$repository" != "$GITHUB_SERVER_URL/$GITHUB_REPOSITORY""#), "{check}");
}

/// cargo-binstall's template syntax: `{ name }` with any spaces inside.
fn expand(template: &str, vars: &[(&str, &str)]) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let close = rest[open..].find('}').map(|c| open + c).expect("a closed { }");
        let name = rest[open + 1..close].trim();
        let value = vars.iter().find(|(k, _)| *k == name).unwrap_or_else(|| panic!("no {{ {name} }} in {vars:?}")).1;
        out.push_str(value);
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

#[test]
fn cargo_binstall_downloads_the_archive_of_its_target_and_finds_the_binary_in_it() {
    if !in_repository() {
        return;
    }
    let manifest = common::root().join("Cargo.toml");
    let out = run(Command::new(env!("CARGO"))
        .args(["metadata", "--no-deps", "--format-version=1", "--manifest-path"])
        .arg(&manifest));
    assert!(out.status.success(), "cargo metadata: {}", stderr(&out));
    let metadata: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let package = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .find(|p| p["name"] == "routerctl")
        .expect("routerctl");
    assert_eq!(package["repository"], REPOSITORY);
    let binstall = &package["metadata"]["binstall"];

    let dir = tempfile::tempdir().expect("a temporary directory");
    for (target, archive) in pack_all(dir.path()) {
        let setting = |key: &str| -> String {
            binstall["overrides"][&target][key]
                .as_str()
                .or_else(|| binstall[key].as_str())
                .unwrap_or_else(|| panic!("binstall's {key}"))
                .to_string()
        };
        let exe = if is_windows(&target) { ".exe" } else { "" };
        let vars = [
            ("repo", REPOSITORY),
            ("version", VERSION),
            ("name", "routerctl"),
            ("target", target.as_str()),
            ("bin", "routerctl"),
            ("binary-ext", exe),
        ];
        let url = expand(&setting("pkg-url"), &vars);
        assert_eq!(url, format!("{REPOSITORY}/releases/download/v{VERSION}/{}", archive_name(&target)), "{target}");
        let format = if is_windows(&target) { "zip" } else { "tgz" };
        assert_eq!(setting("pkg-fmt"), format, "{target}");
        let binary = expand(&setting("bin-dir"), &vars);
        assert!(
            entries(&archive).contains(&binary),
            "{target}: binstall's bin-dir {binary} is in {}",
            archive.display()
        );
    }
}

#[test]
fn the_krew_manifest_has_one_platform_per_archive_with_its_uri_sha256_and_binary() {
    if !in_repository() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let archives = pack_all(&dir.path().join("dist"));
    let sums = dir.path().join("SHA256SUMS");
    write_sums(&archives, &sums);
    let fill = common::root().join("packaging/krew/fill.sh");
    let out = run(Command::new("bash").arg(&fill).args([VERSION, REPOSITORY]).arg(&sums));
    assert!(out.status.success(), "fill.sh: {}", stderr(&out));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(!text.contains('@'), "no placeholder is left:\n{text}");
    let manifest = yaml("routerctl.yaml", &text);
    assert_eq!(manifest["apiVersion"], "krew.googlecontainertools.github.com/v1alpha2");
    assert_eq!(manifest["kind"], "Plugin");
    assert_eq!(manifest["metadata"]["name"], "routerctl");
    assert_eq!(manifest["spec"]["version"], format!("v{VERSION}"));
    assert_eq!(manifest["spec"]["homepage"], REPOSITORY);
    let platforms = manifest["spec"]["platforms"].as_array().expect("platforms");
    assert_eq!(platforms.len(), archives.len(), "one platform per archive");
    for (target, archive) in &archives {
        let (os, arch) = platform(target);
        let found: Vec<&Value> = platforms
            .iter()
            .filter(|p| p["selector"]["matchLabels"]["os"] == os && p["selector"]["matchLabels"]["arch"] == arch)
            .collect();
        assert_eq!(found.len(), 1, "{target}: one platform {os}/{arch}");
        let entry = found[0];
        assert_eq!(entry["uri"], format!("{REPOSITORY}/releases/download/v{VERSION}/{}", archive_name(target)));
        assert_eq!(entry["sha256"], sha256_hex(archive), "{target}");
        let bin = entry["bin"].as_str().expect("bin");
        assert!(entries(archive).contains(bin), "{target}: krew's bin {bin} is in the archive");
        assert!(entry.get("files").is_none(), "{target}: the whole archive is installed, as bin assumes");
    }

    // An archive without a sum: nothing is printed, and it says which.
    let partial = dir.path().join("PARTIAL");
    write_sums(&archives[1..], &partial);
    let out = run(Command::new("bash").arg(&fill).args([VERSION, REPOSITORY]).arg(&partial));
    assert!(!out.status.success(), "fill.sh fails on a missing sum");
    assert!(out.stdout.is_empty(), "and prints no manifest");
    assert!(stderr(&out).contains(&archive_name(&archives[0].0)), "{}", stderr(&out));
}

/// A release laid out as GitHub serves it, under `dir/releases`: the
/// archives and SHA256SUMS at `v1.2.3/`.
fn releases(dir: &Path) -> Vec<(String, PathBuf)> {
    let at = dir.join("releases").join(format!("v{VERSION}"));
    let archives = pack_all(&at);
    write_sums(&archives, &at.join("SHA256SUMS"));
    archives
}

/// What one run of the action's installer did.
struct Install {
    out: Output,
    /// What it added to GITHUB_PATH.
    path: String,
    /// What it set as outputs.
    outputs: String,
    /// The stand-in cargo's arguments, when it ran.
    cargo: Option<String>,
}

/// Runs packaging/action/install.sh as action.yml does, on a runner of
/// `os`/`arch`, with releases from `dir/releases` and a stand-in cargo
/// first on PATH that records its arguments.
fn install(dir: &Path, os: &str, arch: &str, version: &str) -> Install {
    let runner = tempfile::tempdir_in(dir).expect("a runner's temporary directory");
    let bin = runner.path().join("bin");
    std::fs::create_dir(&bin).expect("a bin directory");
    let cargo_log = runner.path().join("cargo.log");
    let stand_in = bin.join("cargo");
    std::fs::write(&stand_in, format!("#!/bin/sh\necho \"$*\" > '{}'\n", cargo_log.display())).expect("writes cargo");
    Command::new("chmod").arg("+x").arg(&stand_in).status().expect("chmod");
    let path = std::env::join_paths(
        std::iter::once(bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .expect("a PATH");
    let (github_path, github_output) = (runner.path().join("path"), runner.path().join("output"));
    let out = run(Command::new("bash")
        .arg(common::root().join("packaging/action/install.sh"))
        .env("PATH", path)
        .env("ROUTERCTL_VERSION", version)
        .env("ROUTERCTL_RELEASES_URL", format!("file://{}/releases", dir.display()))
        .env("RUNNER_OS", os)
        .env("RUNNER_ARCH", arch)
        .env("RUNNER_TEMP", runner.path())
        .env("GITHUB_PATH", &github_path)
        .env("GITHUB_OUTPUT", &github_output)
        .stdin(std::process::Stdio::null()));
    let result = Install {
        out,
        path: std::fs::read_to_string(&github_path).unwrap_or_default(),
        outputs: std::fs::read_to_string(&github_output).unwrap_or_default(),
        cargo: std::fs::read_to_string(&cargo_log).ok(),
    };
    // Kept for the caller to look into.
    let _ = runner.keep();
    result
}

#[test]
fn the_action_installs_the_archive_of_each_runner_checked_against_sha256sums() {
    if !in_repository() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let archives = releases(dir.path());
    let runner_arch = |arch: &str| if arch == "amd64" { "X64" } else { "ARM64" };
    let runner_os = |os: &str| match os {
        "linux" => "Linux",
        "darwin" => "macOS",
        _ => "Windows",
    };
    for (target, _) in &archives {
        let (os, arch) = platform(target);
        let (os, arch) = (runner_os(os), runner_arch(arch));
        let done = install(dir.path(), os, arch, &format!("v{VERSION}"));
        assert!(done.out.status.success(), "{os}/{arch}: {}", stderr(&done.out));
        assert_eq!(done.cargo, None, "{os}/{arch}: nothing is built");
        let added = done.path.trim_end();
        assert!(added.ends_with(&format!("/routerctl-{VERSION}-{target}")), "{os}/{arch} installs {target}: {added}");
        let exe = if is_windows(target) { ".exe" } else { "" };
        let binary = Path::new(added).join(format!("routerctl{exe}"));
        assert!(binary.is_file(), "{}", binary.display());
        assert!(done.outputs.contains(&format!("version={VERSION}\n")), "{}", done.outputs);
        assert!(done.outputs.contains(&format!("path={}\n", binary.display())), "{}", done.outputs);
        let ran = run(&mut Command::new(&binary));
        assert!(ran.status.success(), "the installed binary runs: {}", stderr(&ran));
        assert_eq!(String::from_utf8_lossy(&ran.stdout).trim_end(), STAND_IN);
    }
}

#[test]
fn the_action_refuses_an_archive_whose_sha256_is_not_the_releases_and_builds_nothing_instead() {
    if !in_repository() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let archives = releases(dir.path());
    let (target, archive) = archives.iter().find(|(t, _)| t == "x86_64-unknown-linux-musl").expect("Linux x86_64");
    let sums = archive.with_file_name("SHA256SUMS");
    let text = std::fs::read_to_string(&sums).expect("SHA256SUMS");
    let real = sha256_hex(archive);
    let wrong: String = real.chars().rev().collect();
    std::fs::write(&sums, text.replace(&real, &wrong)).expect("writes SHA256SUMS");

    let done = install(dir.path(), "Linux", "X64", VERSION);
    assert!(!done.out.status.success(), "{target}: a wrong checksum fails the step");
    let message = stderr(&done.out);
    assert!(message.contains("SHA-256") && message.contains(&wrong) && message.contains(&real), "{message}");
    assert_eq!(done.path, "", "nothing is put on PATH");
    assert_eq!(done.cargo, None, "and nothing is built instead");
}

#[test]
fn the_action_builds_with_cargo_install_locked_where_the_release_has_no_archive_for_the_runner() {
    if !in_repository() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    releases(dir.path());

    // No archive for the runner: the release from crates.io.
    let done = install(dir.path(), "Windows", "ARM64", VERSION);
    assert!(done.out.status.success(), "{}", stderr(&done.out));
    let cargo = done.cargo.expect("cargo ran");
    assert!(cargo.starts_with("install --locked --root "), "{cargo}");
    assert!(cargo.trim_end().ends_with(&format!("routerctl --version {VERSION}")), "{cargo}");
    assert!(done.path.trim_end().ends_with("/cargo/bin"), "{}", done.path);

    // No release of that version at all: the same.
    let done = install(dir.path(), "Linux", "X64", "9.9.9");
    assert!(done.out.status.success(), "{}", stderr(&done.out));
    assert!(done.cargo.expect("cargo ran").trim_end().ends_with("routerctl --version 9.9.9"));

    // No version given: the action's own (Cargo.toml's), built from the
    // action's own source when it has no release yet.
    let own = env!("CARGO_PKG_VERSION");
    let done = install(dir.path(), "Linux", "X64", "");
    assert!(done.out.status.success(), "{}", stderr(&done.out));
    let cargo = done.cargo.expect("cargo ran");
    assert!(cargo.trim_end().ends_with(&format!("--path {}", common::root().display())), "{cargo}");
    assert!(done.outputs.contains(&format!("version={own}\n")), "{}", done.outputs);
}

#[test]
fn action_yml_runs_the_installer_with_its_inputs() {
    if !in_repository() {
        return;
    }
    let action = yaml("action.yml", &read("action.yml"));
    assert_eq!(action["runs"]["using"], "composite");
    assert_eq!(action["inputs"]["version"]["default"], "", "the version defaults to the action's own");
    let steps = action["runs"]["steps"].as_array().expect("steps");
    assert_eq!(steps.len(), 1);
    assert_eq!(steps[0]["env"]["ROUTERCTL_VERSION"], "${{ inputs.version }}");
    assert_eq!(steps[0]["env"]["ROUTERCTL_RELEASES_URL"], "${{ inputs.releases-url }}");
    assert_eq!(steps[0]["run"], r#"bash "$GITHUB_ACTION_PATH/packaging/action/install.sh""#);
    assert_eq!(action["outputs"]["version"]["value"], "${{ steps.install.outputs.version }}");
    assert_eq!(steps[0]["id"], "install");
}

/// The files that name the project's address, its image or its action.
fn addressed_files() -> Vec<PathBuf> {
    let root = common::root();
    let mut files: Vec<PathBuf> =
        ["README.md", "CONTRIBUTING.md", "action.yml", "Dockerfile", ".pre-commit-hooks.yaml"]
            .iter()
            .map(|f| root.join(f))
            .collect();
    let mut stack = vec![root.join("docs"), root.join("packaging"), root.join(".github")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_address_of_the_project_is_cargo_tomls_repository() {
    if !in_repository() {
        return;
    }
    let (owner, name) = REPOSITORY
        .strip_prefix("https://github.com/")
        .and_then(|rest| rest.split_once('/'))
        .expect("Cargo.toml's repository is a GitHub repository");
    assert_eq!(name, "routerctl");
    let image = format!("ghcr.io/{}/{name}", owner.to_lowercase());
    let repository = regex::Regex::new(r"github\.com/([A-Za-z0-9_.-]+)/routerctl\b").expect("a regex");
    let images = regex::Regex::new(r"ghcr\.io/([A-Za-z0-9_.-]+)/routerctl\b").expect("a regex");
    let actions = regex::Regex::new(r"uses: ([A-Za-z0-9_.-]+)/routerctl@").expect("a regex");
    let mut wrong = Vec::new();
    let mut seen = 0;
    for file in addressed_files() {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let place = file.strip_prefix(common::root()).unwrap_or(&file).display().to_string();
        for (regex, want) in
            [(&repository, owner), (&images, image.split('/').nth(1).expect("owner")), (&actions, owner)]
        {
            for found in regex.captures_iter(&text) {
                seen += 1;
                if &found[1] != want {
                    wrong.push(format!("{place}: {} (Cargo.toml's repository is {REPOSITORY})", &found[0]));
                }
            }
        }
        assert!(!text.contains("<this repository>"), "{place}: names the repository as a placeholder");
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(seen > 0, "the docs name the project's address");
}

#[test]
fn every_release_the_docs_name_is_cargo_tomls_version() {
    if !in_repository() {
        return;
    }
    let version = env!("CARGO_PKG_VERSION");
    // An archive, the SBOM, the image's tag, the action's ref, a download
    // path, a pre-commit rev.
    let named = regex::Regex::new(
        r"routerctl-(\d+\.\d+\.\d+)[-.]|routerctl:(\d+\.\d+\.\d+)|routerctl@v(\d+\.\d+\.\d+)|/download/v(\d+\.\d+\.\d+)/|rev: v(\d+\.\d+\.\d+)",
    )
    .expect("a regex");
    let mut wrong = Vec::new();
    let mut seen = 0;
    for file in addressed_files() {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let place = file.strip_prefix(common::root()).unwrap_or(&file).display().to_string();
        for found in named.captures_iter(&text) {
            seen += 1;
            let release = found.iter().skip(1).flatten().next().expect("a version").as_str();
            if release != version {
                wrong.push(format!("{place}: {} (Cargo.toml's version is {version})", &found[0]));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(seen > 0, "the docs name a release");
}

/// The README's router, its proxy image given (so it renders with
/// `--strict`), a RouterTest whose first case passes and whose second
/// expects a backend the router does not pick, and a file that is not a
/// Kubernetes object.
const HOOKED_ROUTER: &str = "\
apiVersion: inference.llmkube.dev/v1alpha1
kind: InferenceService
metadata: {name: qwen3-coder, namespace: ml}
spec:
  endpoint: {port: 8080}
---
apiVersion: inference.llmkube.dev/v1alpha1
kind: ModelRouter
metadata: {name: coding-router, namespace: ml}
spec:
  proxy: {image: ghcr.io/defilantech/llmkube-router-proxy:0.9.19}
  backends:
  - name: local-qwen
    tier: local
    inferenceServiceRef: {name: qwen3-coder}
  - name: cloud-opus
    tier: cloud
    external: {provider: anthropic, model: claude-opus-4-7, credentialsSecretRef: {name: anthropic-key}}
  rules:
  - name: pii-stays-local
    match: {dataClassification: [pii, phi]}
    route: {backends: [local-qwen]}
    failClosed: true
  - name: complex-to-cloud
    match: {taskComplexity: complex}
    route: {backends: [cloud-opus, local-qwen]}
  defaultRoute: local-qwen
  policy:
    classification: {sensitiveClassifications: [pii, phi]}
";

const HOOKED_TESTS: &str = "\
apiVersion: routerctl.llmkube.dev/v1alpha1
kind: RouterTest
router: ml/coding-router
tests:
- name: complex tasks go to the cloud first
  request:
    headers: {x-llmkube-task-complexity: complex}
  expect: {rule: complex-to-cloud, backends: [cloud-opus, local-qwen]}
- name: pii goes to the cloud (wrong on purpose)
  request:
    headers: {x-llmkube-classification: pii}
  expect: {backends: [cloud-opus]}
";

#[test]
#[ignore = "needs pre-commit and git, and builds routerctl with cargo install (minutes); .ci/run runs it with --ignored where pre-commit is installed"]
fn pre_commit_installs_the_hooks_from_the_checkout_and_each_passes_or_fails_as_routerctl_does() {
    common::require_tool("pre-commit", &["--version"], "the pre-commit hooks' test");
    common::require_tool("git", &["--version"], "the pre-commit hooks' test");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let repo = dir.path().join("repo");
    for (file, text) in [
        ("routers/router.yaml", HOOKED_ROUTER),
        ("router-tests/router-test.yaml", HOOKED_TESTS),
        (".github/workflows/ci.yml", "on: push\njobs: {ci: {runs-on: ubuntu-24.04, steps: [{run: make}]}}\n"),
    ] {
        let path = repo.join(file);
        std::fs::create_dir_all(path.parent().expect("a directory")).expect("creates a directory");
        std::fs::write(&path, text).expect("writes a file");
    }
    for args in [&["init", "-q"][..], &["add", "-A"]] {
        let out = run(Command::new("git").args(args).current_dir(&repo));
        assert!(out.status.success(), "git {args:?}: {}", stderr(&out));
    }
    // The hooks' build (cargo install, a release build) in a target
    // directory of its own beside the tests' (cargo test holds the tests'
    // own while they run), unoptimised: what is tested is how pre-commit
    // installs and runs the hooks, and an optimised build of every
    // dependency takes minutes more.
    let target = Path::new(env!("CARGO_BIN_EXE_routerctl"))
        .ancestors()
        .nth(2)
        .expect("the binary is in TARGET/debug")
        .join("pre-commit");
    let started = std::time::Instant::now();
    let out = run(Command::new("pre-commit")
        .args(["try-repo"])
        .arg(common::root())
        .arg("--all-files")
        .current_dir(&repo)
        .env("PRE_COMMIT_HOME", dir.path().join("cache"))
        .env("CARGO_TARGET_DIR", &target)
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
        .env("CARGO_PROFILE_RELEASE_LTO", "off")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")
        .env_remove("PRE_COMMIT_COLOR")
        .stdin(std::process::Stdio::null()));
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &stderr(&out);
    eprintln!("pre-commit try-repo took {:.0?}", started.elapsed());
    assert_eq!(out.status.code(), Some(1), "one hook fails:\n{text}");
    let status = |name: &str| -> &str {
        let line = text.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("no {name} line:\n{text}"));
        line.rsplit('.').next().unwrap_or_default().trim()
    };
    assert_eq!(status("routerctl render --strict"), "Passed", "{text}");
    assert_eq!(status("routerctl verify"), "Passed", "{text}");
    assert_eq!(status("routerctl test"), "Failed", "{text}");
    assert!(text.contains("pii goes to the cloud (wrong on purpose)"), "the failing case is named:\n{text}");
    assert!(!text.contains("complex tasks go to the cloud first"), "a passing case is not reported with -q:\n{text}");
}
