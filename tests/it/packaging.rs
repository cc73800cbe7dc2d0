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

/// The name the crate is published as (crates.io's `routerctl` is another
/// project's); its binary is `routerctl`.
const CRATE: &str = "llmkube-routerctl";

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
        .find(|p| p["name"] == CRATE)
        .unwrap_or_else(|| panic!("the package {CRATE}"));
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
            // binstall's { name } is the crate's.
            ("name", CRATE),
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
    /// The stand-in gh's arguments, when it ran.
    gh: Option<String>,
}

impl Install {
    fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.out.stdout).into_owned()
    }

    /// The step failed as GitHub shows it: a non-zero exit, an `::error`
    /// workflow command on stdout holding `what`, and nothing installed.
    fn assert_failed(&self, what: &str) {
        let (stdout, stderr) = (self.stdout(), stderr(&self.out));
        assert_ne!(self.out.status.code(), Some(0), "the step fails:\n{stdout}{stderr}");
        assert!(
            stdout.lines().any(|l| l.starts_with("::error::routerctl: ") && l.contains(what)),
            "an ::error line on stdout says {what:?}:\n{stdout}\nstderr:\n{stderr}"
        );
        assert_eq!(self.path, "", "nothing is put on PATH");
        assert_eq!(self.outputs, "", "and no output is set");
    }
}

/// The runner's cargo and gh, as stand-ins that record their arguments.
#[derive(Clone, Copy, PartialEq)]
enum Tool {
    Absent,
    Passes,
    Fails,
}

/// The programs the installer runs besides cargo and gh, linked into the
/// runner's own PATH: the real cargo and gh of this machine (or of CI's
/// GitHub runner, which has gh) are never reached.
const RUNNER_TOOLS: &[&str] = &[
    "bash",
    "sh",
    "curl",
    "sed",
    "awk",
    "head",
    "cut",
    "mkdir",
    "rm",
    "dirname",
    "tar",
    "gzip",
    "unzip",
    "sha256sum",
    "shasum",
    "cat",
    "chmod",
];

fn on_path(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

fn executable(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let out = run(Command::new("chmod").arg("+x").arg(path));
    assert!(out.status.success(), "chmod: {}", stderr(&out));
}

/// Runs packaging/action/install.sh as action.yml does, on a runner of
/// `os`/`arch`, with releases from `dir/releases`, cargo and gh as given.
fn install(dir: &Path, os: &str, arch: &str, version: &str) -> Install {
    install_with(dir, os, arch, version, Tool::Passes, Tool::Absent, &[])
}

fn install_with(
    dir: &Path,
    os: &str,
    arch: &str,
    version: &str,
    cargo: Tool,
    gh: Tool,
    env: &[(&str, &str)],
) -> Install {
    let runner = tempfile::tempdir_in(dir).expect("a runner's temporary directory");
    let bin = runner.path().join("bin");
    std::fs::create_dir(&bin).expect("a bin directory");
    for tool in RUNNER_TOOLS {
        if let Some(real) = on_path(tool) {
            std::os::unix::fs::symlink(real, bin.join(tool)).expect("links a tool");
        }
    }
    let (cargo_log, gh_log) = (runner.path().join("cargo.log"), runner.path().join("gh.log"));
    let exe = if os == "Windows" { ".exe" } else { "" };
    // cargo install --root ROOT puts the binary in ROOT/bin, as cargo does.
    let cargo_script = match cargo {
        Tool::Absent => None,
        Tool::Passes => Some(format!(
            "#!/bin/sh\necho \"$*\" > '{log}'\nroot=\nwhile [ $# -gt 0 ]; do [ \"$1\" = --root ] && root=$2; shift; done\n\
             mkdir -p \"$root/bin\" && printf '#!/bin/sh\\necho built\\n' > \"$root/bin/routerctl{exe}\" && chmod +x \"$root/bin/routerctl{exe}\"\n",
            log = cargo_log.display()
        )),
        Tool::Fails => Some(format!(
            "#!/bin/sh\necho \"$*\" > '{}'\necho 'error: could not compile `llmkube-routerctl` (bin \"routerctl\")' >&2\nexit 101\n",
            cargo_log.display()
        )),
    };
    let gh_script = match gh {
        Tool::Absent => None,
        Tool::Passes => Some(format!("#!/bin/sh\necho \"$*\" > '{}'\necho 'Verification succeeded!' >&2\n", gh_log.display())),
        Tool::Fails => Some(format!(
            "#!/bin/sh\necho \"$*\" > '{}'\necho 'Error: failed to fetch attestations: no attestations found' >&2\nexit 1\n",
            gh_log.display()
        )),
    };
    for (name, script) in [("cargo", cargo_script), ("gh", gh_script)] {
        if let Some(script) = script {
            executable(&bin.join(name), &script);
        }
    }
    let (github_path, github_output) = (runner.path().join("path"), runner.path().join("output"));
    let mut command = Command::new(bin.join("bash"));
    command
        .arg(common::root().join("packaging/action/install.sh"))
        .env_clear()
        .env("PATH", &bin)
        .env("HOME", runner.path())
        .env("ROUTERCTL_VERSION", version)
        .env("ROUTERCTL_RELEASES_URL", format!("file://{}/releases", dir.display()))
        .env("RUNNER_OS", os)
        .env("RUNNER_ARCH", arch)
        .env("RUNNER_TEMP", runner.path())
        .env("GITHUB_PATH", &github_path)
        .env("GITHUB_OUTPUT", &github_output)
        .stdin(std::process::Stdio::null());
    for (key, value) in env {
        command.env(key, value);
    }
    let out = run(&mut command);
    let result = Install {
        out,
        path: std::fs::read_to_string(&github_path).unwrap_or_default(),
        outputs: std::fs::read_to_string(&github_output).unwrap_or_default(),
        cargo: std::fs::read_to_string(&cargo_log).ok(),
        gh: std::fs::read_to_string(&gh_log).ok(),
    };
    // Kept for the caller to look into.
    let _ = runner.keep();
    result
}

/// The GitHub runner's names for a target's OS and architecture.
fn runner_of(target: &str) -> (&'static str, &'static str) {
    let (os, arch) = platform(target);
    let os = match os {
        "linux" => "Linux",
        "darwin" => "macOS",
        _ => "Windows",
    };
    (os, if arch == "amd64" { "X64" } else { "ARM64" })
}

/// The `owner/name` of Cargo.toml's repository, as gh takes it.
fn owner_repo() -> &'static str {
    REPOSITORY.strip_prefix("https://github.com/").expect("a GitHub repository")
}

#[test]
fn the_action_installs_the_archive_of_each_runner_checked_against_sha256sums_and_its_provenance() {
    if !in_repository() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let archives = releases(dir.path());
    for (target, archive) in &archives {
        let (os, arch) = runner_of(target);
        let done = install_with(dir.path(), os, arch, &format!("v{VERSION}"), Tool::Passes, Tool::Passes, &[]);
        assert!(done.out.status.success(), "{os}/{arch}: {}{}", done.stdout(), stderr(&done.out));
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
        // gh checked the downloaded archive (the same bytes as the release's)
        // against this repository's attestations.
        let gh = done.gh.expect("gh ran");
        let words: Vec<&str> = gh.split_whitespace().collect();
        assert_eq!(words.len(), 5, "{gh}");
        assert_eq!(words[..2], ["attestation", "verify"], "{gh}");
        assert_eq!(words[3..], ["--repo", owner_repo()], "{gh}");
        assert_eq!(sha256_hex(Path::new(words[2])), sha256_hex(archive), "{gh}");
    }
}

#[test]
fn the_action_says_it_did_not_check_provenance_where_gh_is_not_installed_or_provenance_is_false() {
    if !in_repository() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    releases(dir.path());
    let done = install_with(dir.path(), "Linux", "X64", VERSION, Tool::Passes, Tool::Absent, &[]);
    assert!(done.out.status.success(), "{}", stderr(&done.out));
    let said = stderr(&done.out);
    assert!(said.contains("gh is not installed: the build provenance of") && said.contains("is not checked"), "{said}");

    let done = install_with(
        dir.path(),
        "Linux",
        "X64",
        VERSION,
        Tool::Passes,
        Tool::Passes,
        &[("ROUTERCTL_PROVENANCE", "false")],
    );
    assert!(done.out.status.success(), "{}", stderr(&done.out));
    assert_eq!(done.gh, None, "gh is not asked");
    assert!(stderr(&done.out).contains("build provenance not checked (provenance: false)"), "{}", stderr(&done.out));
}

#[test]
fn the_action_refuses_an_archive_whose_provenance_gh_does_not_verify() {
    if !in_repository() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    releases(dir.path());
    let done = install_with(dir.path(), "Linux", "X64", VERSION, Tool::Passes, Tool::Fails, &[]);
    done.assert_failed("has no build provenance from");
    assert!(stderr(&done.out).contains("no attestations found"), "gh's own words are shown: {}", stderr(&done.out));
    assert_eq!(done.cargo, None, "and nothing is built instead");
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

    let done = install_with(dir.path(), "Linux", "X64", VERSION, Tool::Passes, Tool::Passes, &[]);
    done.assert_failed("SHA-256");
    let message = done.stdout();
    assert!(message.contains(&wrong) && message.contains(&real), "{target}: {message}");
    assert_eq!(done.cargo, None, "nothing is built instead");
    assert_eq!(done.gh, None, "and its provenance is not asked for");

    // An archive the release's SHA256SUMS does not list: the same.
    std::fs::write(&sums, "").expect("writes SHA256SUMS");
    let done = install(dir.path(), "Linux", "X64", VERSION);
    done.assert_failed("is not in the SHA256SUMS of release v1.2.3");
    assert_eq!(done.cargo, None, "nothing is built instead");
}

#[test]
fn the_action_builds_the_crate_at_exactly_the_release_where_the_release_has_no_archive_for_the_runner() {
    if !in_repository() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    releases(dir.path());

    // No archive for the runner: that release of this crate, from crates.io.
    let done = install(dir.path(), "Windows", "ARM64", VERSION);
    assert!(done.out.status.success(), "{}{}", done.stdout(), stderr(&done.out));
    let cargo = done.cargo.expect("cargo ran");
    assert!(cargo.starts_with("install --locked --root "), "{cargo}");
    assert!(cargo.trim_end().ends_with(&format!("llmkube-routerctl --version {VERSION}")), "{cargo}");
    let added = done.path.trim_end();
    assert!(added.ends_with("/cargo/bin"), "{added}");
    assert!(Path::new(added).join("routerctl.exe").is_file(), "the Windows binary is there");
    assert!(done.outputs.contains(&format!("path={added}/routerctl.exe\n")), "{}", done.outputs);

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
fn the_action_refuses_a_version_that_is_no_release_and_builds_nothing() {
    if !in_repository() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    releases(dir.path());
    // No release 9.9.9: not built from crates.io, where that number may be
    // anything.
    let done = install(dir.path(), "Linux", "X64", "9.9.9");
    done.assert_failed("there is no release v9.9.9");
    assert_eq!(done.cargo, None, "nothing is built");
    let done = install(dir.path(), "Windows", "ARM64", "v9.9.9");
    done.assert_failed("there is no release v9.9.9");
    assert_eq!(done.cargo, None, "nothing is built");
    // Not a release number at all: refused before anything is fetched.
    for wrong in ["latest", "1.2", "1.2.3\n::warning::x", "../1.2.3"] {
        let done = install(dir.path(), "Linux", "X64", wrong);
        done.assert_failed("the version input is not a release number");
        assert_eq!(done.cargo, None, "{wrong:?}: nothing is built");
    }
}

#[test]
fn the_action_fails_the_step_with_an_error_when_its_build_fails() {
    if !in_repository() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    releases(dir.path());
    // The release's crate, on a runner with no archive.
    let done = install_with(dir.path(), "Windows", "ARM64", VERSION, Tool::Fails, Tool::Absent, &[]);
    done.assert_failed(&format!("cargo install --locked llmkube-routerctl --version {VERSION} failed"));
    assert!(stderr(&done.out).contains("could not compile"), "cargo's own words are shown: {}", stderr(&done.out));
    // The action's own source.
    let done = install_with(dir.path(), "Linux", "X64", "", Tool::Fails, Tool::Absent, &[]);
    done.assert_failed("cargo install --locked --path");
    // No cargo on the runner at all.
    let done = install_with(dir.path(), "Linux", "X64", "", Tool::Absent, Tool::Absent, &[]);
    done.assert_failed("cargo is not installed");
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

/// The files that name the project's address, its image or its action
/// (the docs' pictures, PNG images, name nothing).
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
            } else if path.extension().is_none_or(|e| e != "png") {
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

/// `cargo metadata --locked` (with the dependencies) of the crate.
fn metadata(extra: &[&str]) -> Value {
    let out = run(Command::new(env!("CARGO"))
        .args(["metadata", "--locked", "--format-version=1", "--manifest-path"])
        .arg(common::root().join("Cargo.toml"))
        .args(extra));
    assert!(out.status.success(), "cargo metadata: {}", stderr(&out));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// The crate each `cargo install` or `cargo binstall` command of `text`
/// names: its first word that is not a flag nor a flag's value (a shell
/// variable, such as the installer's `"$@"`, names none).
fn crates_installed(text: &str) -> Vec<String> {
    let command = regex::Regex::new(r"cargo (?:b)?install\b([^\n`]*)").expect("a regex");
    let mut named = Vec::new();
    for found in command.captures_iter(text) {
        let mut words = found[1].split_whitespace().map(|w| w.trim_matches(|c| c == '"' || c == '\''));
        while let Some(word) = words.next() {
            if ["--root", "--version", "--path", "--bin", "--target", "--git", "--index"].contains(&word) {
                words.next();
            } else if !word.starts_with('-') {
                if !word.starts_with('$') {
                    named.push(word.split('@').next().unwrap_or(word).to_string());
                }
                break;
            }
        }
    }
    named
}

#[test]
fn the_crate_is_llmkube_routerctl_its_binary_routerctl_and_every_install_path_names_them() {
    if !in_repository() {
        return;
    }
    assert_eq!(env!("CARGO_PKG_NAME"), CRATE, "Cargo.toml's package name");
    let metadata = metadata(&["--no-deps"]);
    let package = &metadata["packages"][0];
    assert_eq!(package["name"], CRATE);
    let targets = package["targets"].as_array().expect("targets");
    let named = |kind: &str| -> Vec<&str> {
        targets
            .iter()
            .filter(|t| t["kind"].as_array().is_some_and(|k| k.iter().any(|k| k == kind)))
            .map(|t| t["name"].as_str().expect("a name"))
            .collect()
    };
    assert_eq!(named("bin"), ["routerctl"], "the one binary is routerctl");
    assert_eq!(named("lib"), ["routerctl"], "the library keeps the name `use routerctl::` takes");

    // No page, script or workflow installs a crate by another name: the
    // crates.io `routerctl` is another project.
    let root = common::root();
    let mut files = addressed_files();
    files.extend(["ARCHITECTURE.md", "Cargo.toml", "bench/README.md"].iter().map(|f| root.join(f)));
    let mut wrong = Vec::new();
    let mut seen = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let place = file.strip_prefix(&root).unwrap_or(file).display().to_string();
        for name in crates_installed(&text) {
            if name == CRATE {
                seen += 1;
            } else if name == "routerctl" {
                wrong.push(format!("{place}: installs the crate routerctl (another project's), not {CRATE}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let install = read("docs/install.md");
    for command in [format!("cargo binstall {CRATE}"), format!("cargo install --locked {CRATE}")] {
        assert!(install.contains(&command), "docs/install.md says {command}");
    }
    assert!(seen >= 3, "the docs install {CRATE} ({seen} times)");

    // The release workflow reads the package by its name; the fuzz target
    // depends on it by its name.
    let workflow = read(".github/workflows/release.yml");
    let select = regex::Regex::new(r#"select\(\.name == "([^"]+)"\)"#).expect("a regex");
    let selected: Vec<String> = select.captures_iter(&workflow).map(|c| c[1].to_string()).collect();
    assert!(!selected.is_empty(), "release.yml reads Cargo.toml's package");
    assert!(selected.iter().all(|n| n == CRATE), "release.yml selects {selected:?}");
    assert!(
        read("fuzz/Cargo.toml").contains(&format!(r#"routerctl = {{ package = "{CRATE}", path = ".." }}"#)),
        "fuzz/Cargo.toml depends on {CRATE}"
    );
    // The action's installer builds the crate Cargo.toml names.
    assert!(read("packaging/action/install.sh").contains("crate=$(package_field name)"));
}

/// A Rust version as (major, minor, patch).
fn rust_version(text: &str) -> (u32, u32, u32) {
    let mut parts = text.split('.').map(|p| p.parse::<u32>().unwrap_or_else(|e| panic!("{text}: {e}")));
    (parts.next().expect("a major"), parts.next().unwrap_or(0), parts.next().unwrap_or(0))
}

#[test]
fn rust_version_is_the_highest_of_the_locked_dependencies_and_ci_builds_with_it_and_the_docs_say_it() {
    if !in_repository() {
        return;
    }
    let stated = env!("CARGO_PKG_RUST_VERSION");
    // Every package a build reaches (no dev-dependency), for any platform.
    let metadata = metadata(&[]);
    let packages: std::collections::HashMap<&str, &Value> = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|p| (p["id"].as_str().expect("an id"), p))
        .collect();
    let nodes: std::collections::HashMap<&str, &Value> = metadata["resolve"]["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .map(|n| (n["id"].as_str().expect("an id"), n))
        .collect();
    let root = metadata["resolve"]["root"].as_str().expect("a root");
    let mut reached = BTreeSet::from([root]);
    let mut todo = vec![root];
    while let Some(at) = todo.pop() {
        for dep in nodes[at]["deps"].as_array().expect("deps") {
            let kinds = dep["dep_kinds"].as_array().expect("kinds");
            if kinds.iter().all(|k| k["kind"] == "dev") {
                continue;
            }
            let id = dep["pkg"].as_str().expect("an id");
            if reached.insert(id) {
                todo.push(id);
            }
        }
    }
    let (highest, by) = reached
        .iter()
        .filter(|id| **id != root)
        .filter_map(|id| {
            let p = packages[id];
            p["rust_version"].as_str().map(|v| (rust_version(v), format!("{} {}", p["name"], p["version"])))
        })
        .max()
        .expect("a dependency states its rust-version");
    assert_eq!(
        rust_version(stated),
        highest,
        "Cargo.toml's rust-version {stated} is the highest a locked dependency needs ({by} needs {highest:?})"
    );

    // CI builds with exactly that toolchain.
    let ci = yaml("ci.yml", &read(".github/workflows/ci.yml"));
    let steps = ci["jobs"]["rust-version"]["steps"].as_array().expect("ci.yml has a rust-version job");
    let toolchain = steps
        .iter()
        .find(|s| s["uses"].as_str().is_some_and(|u| u.starts_with("dtolnay/rust-toolchain@")))
        .and_then(|s| s["with"]["toolchain"].as_str())
        .expect("the job installs a toolchain");
    assert_eq!(toolchain, stated, "the rust-version job's toolchain");
    let runs: Vec<&str> = steps.iter().filter_map(|s| s["run"].as_str()).collect();
    assert!(
        runs.iter().any(|r| r.contains(&format!("cargo +{stated} build --locked"))),
        "the job builds with it, from the lock: {runs:?}"
    );

    // The docs say the same number wherever they name one.
    let said = regex::Regex::new(r"Rust (\d+\.\d+(?:\.\d+)?) or newer").expect("a regex");
    for page in ["README.md", "docs/install.md"] {
        let text = read(page);
        let numbers: Vec<String> = said.captures_iter(&text).map(|c| c[1].to_string()).collect();
        assert!(!numbers.is_empty(), "{page} names the Rust it needs");
        assert!(numbers.iter().all(|n| n == stated), "{page} says Rust {numbers:?}, Cargo.toml {stated}");
    }
}

#[test]
fn every_action_a_workflow_uses_is_pinned_by_a_full_commit_sha_with_its_release_in_a_comment() {
    if !in_repository() {
        return;
    }
    let pinned = regex::Regex::new(
        r"^\s*(?:- )?uses: ([A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+)@([0-9a-f]{40}) # (v\d+(?:\.\d+){0,2})$",
    )
    .expect("a regex");
    let dir = common::root().join(".github/workflows");
    let mut by_action: std::collections::BTreeMap<String, BTreeSet<(String, String)>> = Default::default();
    let mut wrong = Vec::new();
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).expect("reads .github/workflows") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().expect("a name").to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).expect("a workflow");
        files += 1;
        let mut lines = 0;
        for (n, line) in
            text.lines().enumerate().filter(|(_, l)| l.trim_start().trim_start_matches("- ").starts_with("uses:"))
        {
            lines += 1;
            match pinned.captures(line) {
                Some(c) => {
                    by_action.entry(c[1].to_string()).or_default().insert((c[2].to_string(), c[3].to_string()));
                }
                None => wrong.push(format!("{name}:{}: {}", n + 1, line.trim())),
            }
        }
        // Every `uses` the workflow holds is on a line of its own, as read.
        let workflow = yaml(&name, &text);
        let uses: usize = workflow["jobs"]
            .as_object()
            .expect("jobs")
            .values()
            .map(|job| job["steps"].as_array().map_or(0, |s| s.iter().filter(|s| s.get("uses").is_some()).count()))
            .sum();
        assert_eq!(uses, lines, "{name}: each step's uses is a line of its own");
    }
    assert!(files >= 2, "the ci and release workflows");
    assert!(wrong.is_empty(), "not pinned as owner/repo@<commit> # vX:\n{}", wrong.join("\n"));
    for (action, pins) in &by_action {
        assert_eq!(pins.len(), 1, "{action} is pinned to one commit and release everywhere: {pins:?}");
    }
    assert!(by_action.contains_key("actions/checkout"), "{by_action:?}");
}

#[test]
fn the_release_waits_for_the_image_and_the_sbom_is_packaging_sbom_py_on_the_archives() {
    if !in_repository() {
        return;
    }
    let workflow = yaml("release.yml", &read(".github/workflows/release.yml"));
    let needs = |job: &str| -> Vec<String> {
        workflow["jobs"][job]["needs"]
            .as_array()
            .map(|n| n.iter().map(|n| n.as_str().expect("a job").to_string()).collect())
            .or_else(|| workflow["jobs"][job]["needs"].as_str().map(|n| vec![n.to_string()]))
            .unwrap_or_default()
    };
    assert!(needs("image-manifest").contains(&"image".to_string()), "{:?}", needs("image-manifest"));
    for job in ["build", "image-manifest"] {
        assert!(needs("release").contains(&job.to_string()), "the release waits for {job}: {:?}", needs("release"));
    }
    assert_eq!(needs("crate"), ["release"], "the crate is published after the release");
    let steps = workflow["jobs"]["release"]["steps"].as_array().expect("steps");
    let sbom = steps.iter().find(|s| s["name"] == "SBOM").expect("an SBOM step");
    let run = sbom["run"].as_str().expect("the SBOM step runs a script");
    assert!(
        run.contains(r#"python3 packaging/sbom.py "$VERSION" dist/routerctl-*.tar.gz dist/routerctl-*.zip >"dist/routerctl-$VERSION.spdx.json""#),
        "{run}"
    );
    let attested = steps.iter().find(|s| s["uses"].as_str().is_some_and(|u| u.starts_with("actions/attest-sbom@")));
    assert_eq!(
        attested.expect("the SBOM is attested")["with"]["sbom-path"],
        "dist/routerctl-${{ env.VERSION }}.spdx.json"
    );
}

/// The SBOM packaging/sbom.py writes for `targets`, and the archives'
/// directory it was given.
fn sbom(targets: &[String]) -> Value {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let version = env!("CARGO_PKG_VERSION");
    let archives: Vec<PathBuf> = targets
        .iter()
        .map(|target| {
            let suffix = if is_windows(target) { "zip" } else { "tar.gz" };
            let path = dir.path().join(format!("routerctl-{version}-{target}.{suffix}"));
            std::fs::write(&path, "").expect("an archive's name");
            path
        })
        .collect();
    let out = run(Command::new("python3")
        .arg(common::root().join("packaging/sbom.py"))
        .arg(version)
        .args(&archives)
        .env("SOURCE_DATE_EPOCH", "1700000000"));
    assert!(out.status.success(), "sbom.py: {}", stderr(&out));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

#[test]
fn the_sbom_lists_the_crates_cargo_builds_for_the_release_targets_and_no_others() {
    if !in_repository() {
        return;
    }
    let targets = release_targets();
    let document = sbom(&targets);
    assert_eq!(document["spdxVersion"], "SPDX-2.3");
    assert_eq!(document["creationInfo"]["created"], "2023-11-14T22:13:20Z", "SOURCE_DATE_EPOCH");
    let listed: BTreeSet<String> = document["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|p| format!("{} {}", p["name"].as_str().expect("a name"), p["versionInfo"].as_str().expect("a version")))
        .collect();

    // What cargo itself says it builds for each target: normal and build
    // dependencies, no dev-dependencies.
    let mut built = BTreeSet::new();
    for target in &targets {
        let out = run(Command::new(env!("CARGO"))
            .args(["tree", "--locked", "-e", "normal,build", "--prefix", "none", "--format", "{p}", "--target", target])
            .arg("--manifest-path")
            .arg(common::root().join("Cargo.toml")));
        assert!(out.status.success(), "cargo tree --target {target}: {}", stderr(&out));
        for line in String::from_utf8_lossy(&out.stdout).lines().filter(|l| !l.trim().is_empty()) {
            let mut words = line.split_whitespace();
            let (name, version) = (words.next().expect("a name"), words.next().expect("a version"));
            built.insert(format!("{name} {}", version.trim_start_matches('v')));
        }
    }
    assert_eq!(listed, built, "the SBOM's crates are what cargo builds for {targets:?}");
    assert!(listed.contains(&format!("{CRATE} {}", env!("CARGO_PKG_VERSION"))));
    for not_shipped in ["insta ", "proptest ", "jsonschema ", "roxmltree ", "serde-sarif ", "libfuzzer-sys "] {
        assert!(!listed.iter().any(|p| p.starts_with(not_shipped)), "{not_shipped}is not in the binaries");
    }

    // Each crates.io crate carries Cargo.lock's checksum and its purl; the
    // document describes the package.
    let lock = read("Cargo.lock");
    for package in document["packages"].as_array().expect("packages") {
        let name = package["name"].as_str().expect("a name");
        let version = package["versionInfo"].as_str().expect("a version");
        let purl = &package["externalRefs"][0];
        assert_eq!(purl["referenceType"], "purl");
        assert_eq!(purl["referenceLocator"], format!("pkg:cargo/{name}@{version}"));
        if name == CRATE {
            continue;
        }
        let sum = package["checksums"][0]["checksumValue"].as_str().expect("a checksum");
        let entry = format!("name = \"{name}\"\nversion = \"{version}\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\nchecksum = \"{sum}\"");
        assert!(lock.contains(&entry), "{name} {version}: Cargo.lock's checksum");
    }
    let root =
        document["packages"].as_array().expect("packages").iter().find(|p| p["name"] == CRATE).expect("the crate");
    assert!(document["relationships"]
        .as_array()
        .expect("relationships")
        .iter()
        .any(|r| r["relationshipType"] == "DESCRIBES"
            && r["spdxElementId"] == "SPDXRef-DOCUMENT"
            && r["relatedSpdxElement"] == root["SPDXID"]));

    // An archive of another version is refused.
    let out = run(Command::new("python3")
        .arg(common::root().join("packaging/sbom.py"))
        .arg(env!("CARGO_PKG_VERSION"))
        .arg("routerctl-9.9.9-x86_64-unknown-linux-musl.tar.gz"));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
}

#[test]
#[ignore = "needs pyspdxtools (PyPI spdx-tools); .ci/run installs it and runs this with --ignored"]
fn the_sbom_is_a_valid_spdx_2_3_document() {
    common::require_tool("pyspdxtools", &["--help"], "the SBOM's validation");
    let document = sbom(&release_targets());
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("routerctl.spdx.json");
    std::fs::write(&path, serde_json::to_vec_pretty(&document).expect("JSON")).expect("writes the SBOM");
    let out = run(Command::new("pyspdxtools").arg("-i").arg(&path));
    let said = String::from_utf8_lossy(&out.stdout).into_owned() + &stderr(&out);
    assert!(out.status.success() && !said.contains("ERROR"), "pyspdxtools: {said}");

    // And the validator refuses a broken one: it checks what it is given.
    let mut broken = document.clone();
    broken["packages"][0]["licenseDeclared"] = "Not A License Expression (".into();
    std::fs::write(&path, serde_json::to_vec_pretty(&broken).expect("JSON")).expect("writes the SBOM");
    let out = run(Command::new("pyspdxtools").arg("-i").arg(&path));
    let said = String::from_utf8_lossy(&out.stdout).into_owned() + &stderr(&out);
    assert!(!out.status.success() || said.contains("ERROR"), "a broken SBOM is refused: {said}");
}

/// A RouterTest of the README's router whose first case passes and whose
/// second expects a backend the router does not pick.
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

/// An application's repository with the hooks' work in it: the README's
/// router (no proxy image: the operator's flag gives it), a RouterTest of
/// it, and what such a repository also holds and the hooks must not read:
/// `node_modules` (one file not even YAML), a `tsconfig.json` with
/// comments, a Helm chart's templates, a CI workflow.
fn app_repository(repo: &Path) {
    let files = [
        ("deploy/router.yaml", crate::docs_examples::file_block("README.md", "router.yaml")),
        ("router-tests/router-test.yaml", HOOKED_TESTS.to_string()),
        (".github/workflows/ci.yml", "on: push\njobs: {ci: {runs-on: ubuntu-24.04, steps: [{run: make}]}}\n".into()),
        ("node_modules/left-pad/package.json", "{\"name\": \"left-pad\", \"version\": \"1.3.0\"}\n".into()),
        ("node_modules/@types/x/broken.yaml", "key: [unclosed\n".into()),
        (
            "tsconfig.json",
            "{\n  // The compiler's options\n  \"compilerOptions\": {\n    \"strict\": true, /* no any */\n    \"target\": \"es2022\",\n  },\n}\n".into(),
        ),
        ("charts/web/Chart.yaml", "apiVersion: v2\nname: web\nversion: 0.1.0\n".into()),
        ("charts/web/values.yaml", "replicas: 2\n".into()),
        (
            "charts/web/templates/deployment.yaml",
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}-web\n  labels:\n    {{- include \"web.labels\" . | nindent 4 }}\nspec:\n  replicas: {{ .Values.replicas }}\n".into(),
        ),
    ];
    for (file, text) in files {
        let path = repo.join(file);
        std::fs::create_dir_all(path.parent().expect("a directory")).expect("creates a directory");
        std::fs::write(&path, text).expect("writes a file");
    }
}

/// The hooks of .pre-commit-hooks.yaml: id, entry's words, default args.
fn hooks() -> Vec<(String, Vec<String>, Vec<String>)> {
    // The file is a YAML list; routerctl's reader takes mappings.
    let text: String = read(".pre-commit-hooks.yaml").lines().map(|l| format!("  {l}\n")).collect();
    let file: Value = routerctl::input::from_yaml_str(&format!("hooks:\n{text}")).expect("YAML");
    let hooks = &file["hooks"];
    let words = |v: &Value| -> Vec<String> {
        v.as_array().expect("a list").iter().map(|w| w.as_str().expect("a word").to_string()).collect()
    };
    hooks
        .as_array()
        .expect("a list of hooks")
        .iter()
        .map(|hook| {
            assert_eq!(hook["language"], "rust", "{hook}");
            assert_eq!(hook["pass_filenames"], false, "{hook}");
            (
                hook["id"].as_str().expect("an id").to_string(),
                hook["entry"].as_str().expect("an entry").split_whitespace().map(String::from).collect(),
                words(&hook["args"]),
            )
        })
        .collect()
}

/// Runs a hook's entry with `args` in `repo` as pre-commit does (the
/// built binary for `routerctl`); its exit code and what it said.
fn run_hook(repo: &Path, entry: &[String], args: &[String]) -> (Option<i32>, String) {
    assert_eq!(entry[0], "routerctl", "{entry:?}");
    let out = run(Command::new(env!("CARGO_BIN_EXE_routerctl"))
        .args(&entry[1..])
        .args(args)
        .current_dir(repo)
        .stdin(std::process::Stdio::null()));
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned() + &stderr(&out))
}

#[test]
fn the_hooks_read_only_the_files_of_an_app_repository_that_hold_routers_and_take_the_proxy_image_from_args() {
    if !in_repository() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    app_repository(dir.path());
    let hooks = hooks();
    let ids: Vec<&str> = hooks.iter().map(|(id, _, _)| id.as_str()).collect();
    assert_eq!(ids, ["routerctl-render", "routerctl-test", "routerctl-verify"]);
    for (id, entry, args) in &hooks {
        assert_eq!(args, &["-R", "-f", "."], "{id}: the whole repository by default");
        assert!(entry.contains(&"--skip-other-files".to_string()), "{id}: {entry:?}");
        let (code, said) = run_hook(dir.path(), entry, args);
        // The test hook fails on the case that is wrong on purpose, and
        // only there; the others pass, the router's image left unsaid.
        let expected = if id == "routerctl-test" { 1 } else { 0 };
        assert_eq!(code, Some(expected), "{id}:\n{said}");
        for junk in ["node_modules", "tsconfig.json", "charts/", ".github"] {
            assert!(!said.contains(junk), "{id} read {junk}:\n{said}");
        }
        if id == "routerctl-test" {
            assert!(said.contains("pii goes to the cloud (wrong on purpose)"), "{said}");
        }
        // Without the skip, the repository's other files are read, and
        // refused: what the fixture holds is real trouble.
        let plain: Vec<String> = entry.iter().filter(|w| *w != "--skip-other-files").cloned().collect();
        let (code, said) = run_hook(dir.path(), &plain, args);
        assert_eq!(code, Some(2), "{id} without --skip-other-files:\n{said}");
    }

    // --strict in args wants the operator's image in args too.
    let (_, render, _) = &hooks[0];
    let strict: Vec<String> = ["--strict", "-R", "-f", "."].map(String::from).to_vec();
    let (code, said) = run_hook(dir.path(), render, &strict);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("spec.proxy.image") && said.contains("--router-proxy-image"), "{said}");
    let image = "ghcr.io/defilantech/llmkube-router-proxy:0.9.19";
    let given: Vec<String> = ["--strict", "--router-proxy-image", image, "-R", "-f", "."].map(String::from).to_vec();
    let (code, said) = run_hook(dir.path(), render, &given);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains(&format!("image: {image}")), "{said}");
}

#[test]
#[ignore = "needs pre-commit and git, and builds routerctl with cargo install (minutes); .ci/run runs it with --ignored where pre-commit is installed"]
fn pre_commit_installs_the_hooks_from_the_checkout_and_each_passes_or_fails_as_routerctl_does() {
    common::require_tool("pre-commit", &["--version"], "the pre-commit hooks' test");
    common::require_tool("git", &["--version"], "the pre-commit hooks' test");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let repo = dir.path().join("repo");
    app_repository(&repo);
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
    assert_eq!(status("routerctl render"), "Passed", "{text}");
    assert_eq!(status("routerctl verify"), "Passed", "{text}");
    assert_eq!(status("routerctl test"), "Failed", "{text}");
    assert!(text.contains("pii goes to the cloud (wrong on purpose)"), "the failing case is named:\n{text}");
    assert!(!text.contains("complex tasks go to the cloud first"), "a passing case is not reported with -q:\n{text}");
    for junk in ["node_modules", "tsconfig.json", "charts/web", "{{"] {
        assert!(!text.contains(junk), "no hook reads {junk}:\n{text}");
    }
}
