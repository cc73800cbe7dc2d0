//! `--jobs`: routers reconciled on several threads print exactly what one
//! thread prints — the same stdout, the same warnings in the same order,
//! the same first error and exit code — on generated fleets with warnings
//! and errors mixed in, for `render` and `diff`.

use crate::common;

use std::fmt::Write as _;

use common::{routerctl, Run};

/// A small deterministic generator (splitmix64), so a failing fleet can be
/// rebuilt from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// What goes wrong in a fleet, somewhere in its middle.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Fault {
    None,
    /// A proxy field that is not an integer: the CRD schema refuses it.
    Schema,
    /// `a.b` and `a-b` own the same object names.
    NameCollision,
    /// A document that is not YAML.
    Malformed,
    /// A pod label key Kubernetes refuses.
    LabelKey,
}

const FAULTS: [Fault; 5] = [Fault::None, Fault::Schema, Fault::NameCollision, Fault::Malformed, Fault::LabelKey];

/// A router with an external backend; `label` and `proxy_field` are extra
/// lines under `podLabels` and `proxy`.
fn external_router(out: &mut String, name: &str, ns: &str, replicas: u64, label: &str, proxy_field: &str) {
    let _ = write!(
        out,
        "apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nmetadata:\n  name: {name}\n  namespace: {ns}\n\
         spec:\n  backends:\n  - name: gpt\n    external:\n      provider: openai\n      model: gpt-4o\n  proxy:\n\
         \x20   replicas: {replicas}\n{proxy_field}    podLabels:\n      team: {ns}\n{label}\
         \x20   podAnnotations:\n      example.com/owner: {name}\n"
    );
}

/// A fleet of `routers` ModelRouters over three namespaces: plain ones,
/// ones that draw warnings (an unknown field, an InferenceService missing
/// from the inputs, a Gateway router with no readiness known), a `List` of
/// two, and `fault` at a position chosen by the seed. `replicas_shift`
/// changes some routers' replicas, to make a live state that differs.
fn fleet(seed: u64, routers: usize, fault: Fault, replicas_shift: u64) -> String {
    let mut rng = Rng(seed);
    let fault_at = routers / 3 + rng.below(routers as u64 / 2) as usize;
    let mut out = String::new();
    for ns in ["alpha", "beta", "gamma"] {
        let _ = write!(
            out,
            "apiVersion: inference.llmkube.dev/v1alpha1\nkind: InferenceService\nmetadata:\n  name: qwen\n  namespace: {ns}\n\
             status:\n  readyReplicas: 1\n---\n"
        );
    }
    for i in 0..routers {
        let ns = ["alpha", "beta", "gamma"][rng.below(3) as usize];
        let name = format!("r{i:03}");
        let replicas = 1 + (i as u64 % 3) + if i % 4 == 0 { replicas_shift } else { 0 };
        if i == fault_at {
            match fault {
                Fault::None => {}
                Fault::Schema => {
                    let mut one = String::new();
                    external_router(&mut one, &name, ns, 1, "", "");
                    out.push_str(&one.replace("replicas: 1\n", "replicas: many\n"));
                }
                Fault::NameCollision => {
                    external_router(&mut out, "shared.name", ns, 1, "", "");
                    out.push_str("---\n");
                    external_router(&mut out, "shared-name", ns, 1, "", "");
                }
                Fault::Malformed => {
                    out.push_str("apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nspec: [unclosed\n")
                }
                Fault::LabelKey => external_router(&mut out, &name, ns, 1, "      \"bad key!\": x\n", ""),
            }
            if fault != Fault::None {
                out.push_str("---\n");
                continue;
            }
        }
        match rng.below(6) {
            0 => external_router(&mut out, &name, ns, replicas, "", "    colour: blue\n"),
            1 => {
                let _ = write!(
                    out,
                    "apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nmetadata:\n  name: {name}\n  namespace: {ns}\n\
                     spec:\n  backends:\n  - name: local\n    inferenceServiceRef:\n      name: {}\n  proxy:\n    replicas: {replicas}\n",
                    if i % 2 == 0 { "qwen" } else { "absent" }
                );
            }
            2 => {
                let _ = write!(
                    out,
                    "apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nmetadata:\n  name: {name}\n  namespace: {ns}\n\
                     spec:\n  dataPlane: Gateway\n  gatewayRef:\n    name: ai-gateway\n  backends:\n  - name: local-{name}\n    inferenceServiceRef:\n      name: {}\n  defaultRoute: local-{name}\n",
                    if i % 2 == 0 { "qwen" } else { "unknown-status" }
                );
            }
            3 => {
                let mut items = String::new();
                for part in ["a", "b"] {
                    let mut one = String::new();
                    external_router(&mut one, &format!("{name}{part}"), ns, replicas, "", "");
                    items.push_str("- ");
                    items.push_str(one.replace('\n', "\n  ").trim_end());
                    items.push('\n');
                }
                let _ = write!(out, "apiVersion: v1\nkind: List\nitems:\n{items}");
            }
            _ => external_router(&mut out, &name, ns, replicas, "", ""),
        }
        out.push_str("---\n");
    }
    out
}

/// Runs as `next`: the fleets' pod labels and annotations (and the bad
/// label key of [`Fault::LabelKey`]) are fields of no release yet.
fn run_with_jobs(args: &[&str], jobs: &str, stdin: Option<&str>) -> Run {
    let mut full: Vec<&str> = args.to_vec();
    full.extend(["--jobs", jobs, "--operator-version", "next"]);
    routerctl(&full, stdin)
}

fn assert_same(context: &str, one: &Run, many: &Run) {
    assert_eq!(one.code, many.code, "{context}: exit code\none thread:\n{}", one.stderr);
    for (stream, a, b) in [("stderr", &one.stderr, &many.stderr), ("stdout", &one.stdout, &many.stdout)] {
        if a != b {
            let line =
                a.lines().zip(b.lines()).position(|(x, y)| x != y).unwrap_or(a.lines().count().min(b.lines().count()));
            panic!(
                "{context}: {stream} differs from line {}:\none thread: {:?}\nseveral:    {:?}",
                line + 1,
                a.lines().nth(line),
                b.lines().nth(line)
            );
        }
    }
}

#[test]
fn parallel_runs_print_what_one_thread_prints() {
    let dir = tempfile::tempdir().expect("temporary directory");
    for seed in 0..10u64 {
        let fault = FAULTS[seed as usize % FAULTS.len()];
        let routers = 30 + (seed as usize * 7) % 40;
        let path = dir.path().join(format!("fleet-{seed}.yaml"));
        std::fs::write(&path, fleet(seed, routers, fault, 0)).expect("write fleet");
        let file = path.to_str().expect("UTF-8 path");

        // The live state: the same fleet, rendered with other replicas.
        let previous = run_with_jobs(&["render", "-f", "-"], "1", Some(&fleet(seed, routers, Fault::None, 2)));
        assert_eq!(previous.code, 0, "seed {seed}: the live state renders: {}", previous.stderr);
        let live = dir.path().join(format!("live-{seed}.yaml"));
        std::fs::write(&live, &previous.stdout).expect("write live");
        let live = live.to_str().expect("UTF-8 path");

        let commands: [&[&str]; 3] = [
            &["render", "-f", file],
            &["render", "-f", file, "-o", "json", "--live", live],
            &["diff", "-f", file, "--live", live],
        ];
        for args in commands {
            let one = run_with_jobs(args, "1", None);
            // The fleets are meant to exercise warnings and each fault.
            assert!(one.stderr.contains("warning: "), "seed {seed}: no warning drawn:\n{}", one.stderr);
            let expected_code = match (fault, args[0]) {
                (Fault::None, "render") => 0,
                (Fault::None, _) => 1,
                _ => 2,
            };
            assert_eq!(one.code, expected_code, "seed {seed} {args:?} ({fault:?}):\n{}", one.stderr);
            if fault != Fault::None {
                assert!(one.stdout.is_empty(), "seed {seed}: a failed run prints nothing on stdout");
            }
            for jobs in ["2", "5"] {
                let many = run_with_jobs(args, jobs, None);
                assert_same(&format!("seed {seed}, {fault:?}, {args:?}, --jobs {jobs}"), &one, &many);
            }
        }
    }
}

#[test]
fn jobs_must_be_a_positive_count() {
    let run = routerctl(&["render", "-f", "testdata/render/sample.yaml", "--jobs", "0"], None);
    assert_eq!(run.code, 2);
    assert!(run.stdout.is_empty());
    assert!(run.stderr.contains("--jobs"), "{}", run.stderr);
}
