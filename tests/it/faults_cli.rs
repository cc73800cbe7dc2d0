//! Values routerctl would pass on unchecked, refused with the rule the API
//! server applies: namespaces from flags and the KRM function's config, and
//! kubectl flags left empty by an unset variable.

use crate::common;

use common::{routerctl, FakeKubectl};

const ROUTER: &str = "testdata/render/sample.yaml";

#[test]
fn a_namespace_flag_that_names_no_namespace_is_refused() {
    for bad in ["a b", "UPPER", "x-", ""] {
        let run = routerctl(&["render", "-f", ROUTER, "-n", bad], None);
        assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{bad:?}");
        assert!(run.stderr.starts_with(&format!("error: -n {bad:?}: not a namespace name: ")), "{}", run.stderr);
    }
}

#[test]
fn a_krm_namespace_that_names_no_namespace_is_an_error_result() {
    let list = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig:\n  \
                apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: cfg}\n  data: {namespace: UPPER}\n";
    let run = routerctl(&["krm"], Some(list));
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.contains("field:\n    path: data.namespace"), "{}", run.stdout);
    assert!(
        run.stdout.contains("functionConfig namespace \"UPPER\": not a namespace name: a lowercase RFC 1123 label"),
        "{}",
        run.stdout
    );
}

#[test]
fn empty_kubectl_flags_are_refused_before_kubectl_runs() {
    let kubectl = FakeKubectl::new();
    for args in [
        &["diff", "-f", ROUTER, "--context", ""][..],
        &["diff", "-f", ROUTER, "--kubeconfig", ""][..],
        &["render", "-f", ROUTER, "--live-from-cluster", "--context", ""][..],
    ] {
        let run = kubectl.run(args, None);
        assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{args:?}");
        // An empty path is already refused by the argument parser.
        let said = run.stderr.contains("is empty (an unset variable?)")
            || run.stderr.contains("a value is required for '--kubeconfig <FILE>'");
        assert!(said, "{}", run.stderr);
    }
    assert!(kubectl.calls().is_empty(), "{:?}", kubectl.calls());
}

#[test]
fn krm_input_that_is_not_text_is_an_error_result() {
    // A KRM function answers any input with a ResourceList: bytes that are
    // not UTF-8 get an error result naming the place, on stdout, exit 1.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_routerctl"))
        .arg("krm")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("starts");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin
            .write_all(b"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n# \xff\n")
            .expect("writes");
    }
    let out = child.wait_with_output().expect("ends");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(
        stdout.starts_with("apiVersion: config.kubernetes.io/v1\nitems: []\nkind: ResourceList\nresults:\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("message: 'cannot read the ResourceList: stdin:4:3: not UTF-8 text (invalid byte 0xFF);"),
        "{stdout}"
    );
}
