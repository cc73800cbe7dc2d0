//! Command-line definitions (clap derive) and nothing else.

use std::ffi::OsStr;
use std::path::PathBuf;

use clap::builder::{PossibleValue, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::output::Format;
use crate::release::Release;
use crate::report::MessageFormat;

/// `-j`: a whole number of routers, at least one.
fn parse_jobs(text: &str) -> Result<std::num::NonZeroUsize, String> {
    match text.parse::<usize>() {
        Ok(0) => {
            Err("0 routers at once would reconcile none; give 1 or more (or leave -j out: the cores available)".into())
        }
        Ok(n) => std::num::NonZeroUsize::new(n).ok_or_else(|| "give 1 or more".to_string()),
        Err(_) => Err(format!("{text:?} is not a number of routers; give 1 or more")),
    }
}

/// `--operator-version`, checked when the arguments are read.
fn parse_release(text: &str) -> Result<Release, String> {
    Release::parse(text)
}

/// `--operator-version`: read by [`parse_release`] (a `v` is optional), and
/// completed in the shells from the release table. The names are kept out
/// of `--help` (`hide_possible_values`): `routerctl version` lists them.
#[derive(Debug, Clone, Copy)]
pub struct ReleaseParser;

impl TypedValueParser for ReleaseParser {
    type Value = Release;

    fn parse_ref(&self, cmd: &clap::Command, arg: Option<&clap::Arg>, value: &OsStr) -> Result<Release, clap::Error> {
        TypedValueParser::parse_ref(&parse_release, cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(Release::all().map(|r| {
            let value = PossibleValue::new(r.name());
            if r == Release::NEXT {
                value.help("the newest release with the changes no release has yet")
            } else if r == Release::default() {
                value.help("the newest release (the default)")
            } else {
                value
            }
        })))
    }
}

/// The heading global options are listed under in every command's help,
/// apart from the command's own.
const GLOBAL: &str = "Global options";

/// Each command's `--help` ends with examples, as kubectl's do: a comment
/// line saying what, then the command.
const RENDER_EXAMPLES: &str = "\
Examples:
  # Render a router as the newest operator release, and apply the objects
  routerctl render -f router.yaml --router-proxy-image registry.example.com/router-proxy:0.9.19 | kubectl apply -f -

  # Render a directory of directories, passing every other object through (Argo CD, Flux)
  routerctl render -f apps/coding -R --pass-through --strict --operator-version v0.9.19 --router-proxy-image registry.example.com/router-proxy:0.9.19

  # Merge into the live objects, as the operator's update would
  routerctl render -f router.yaml --live live.yaml --operator-version v0.9.19

  # Render as the unreleased pod-metadata change (spec.proxy.podLabels)
  routerctl render -f router.yaml --operator-version next -o name";

const DIFF_EXAMPLES: &str = "\
Examples:
  # What the operator would change in the cluster (the current kubectl context)
  routerctl diff -f routers/ -R

  # The same against live objects saved earlier, for the release the cluster runs
  routerctl diff -f routers/ -R --live live.yaml --operator-version v0.9.19 --router-proxy-image registry.example.com/router-proxy:0.9.19

  # The plan as JSON: each object's action, whether the pods roll and why
  routerctl diff -f router.yaml --context prod -o json";

const EXPLAIN_EXAMPLES: &str = "\
Examples:
  # Who owns each pod label and annotation, and what the next reconcile does to it
  routerctl explain -f router.yaml --live live.yaml

  # The same from the cluster, as JSON
  routerctl explain -f router.yaml --live-from-cluster -o json";

const TEST_EXAMPLES: &str = "\
Examples:
  # Run the RouterTest cases of a directory against the routers
  routerctl test -f routers/ -t router-tests/ -R

  # Fail under 80% coverage of the rules, with annotations in a GitHub pull request
  routerctl test -f routers/ -t router-tests/ -R --min-coverage 80 --message-format github

  # A JUnit XML report for the CI's test view
  routerctl test -f routers/ -t router-tests/ -R -o junit";

const ROUTE_EXAMPLES: &str = "\
Examples:
  # Where a complex request for gpt-4o goes
  routerctl route -f router.yaml --model gpt-4o -H x-llmkube-task-complexity=complex

  # The same with the cloud backend down, on both data planes
  routerctl route -f router.yaml --model gpt-4o --unhealthy cloud-opus --data-plane both";

const VERIFY_EXAMPLES: &str = "\
Examples:
  # Every class of requests, the checks and the invariants of the test files
  routerctl verify -f routers/ -R -t router-tests/

  # What a change moves, against the base branch's routers
  routerctl verify -f routers/ -R --against base/routers/

  # Pin today's behaviour as RouterTest cases, and a JUnit report
  routerctl verify -f router.yaml --emit-tests pinned.yaml -o junit";

const KRM_EXAMPLES: &str = "\
Examples:
  # Run as a kpt function on a package
  kpt fn eval pkg --exec routerctl-krm

  # Feed a ResourceList by hand
  routerctl krm < resource-list.yaml";

const SCHEMA_EXAMPLES: &str = "\
Examples:
  # The ModelRouter schema of the newest release, for editors and kubeconform
  routerctl schema modelrouter > modelrouter.json

  # The RouterTest schema, as YAML
  routerctl schema routertest -o yaml";

const COMPLETIONS_EXAMPLES: &str = "\
Examples:
  # Bash completion for this shell
  source <(routerctl completions bash)

  # Zsh completion, installed
  routerctl completions zsh > \"${fpath[1]}/_routerctl\"";

const VERSION_EXAMPLES: &str = "\
Examples:
  # The releases routerctl renders as, and what changed in each
  routerctl version

  # The same for scripts
  routerctl version -o json";

const MAN_EXAMPLES: &str = "\
Examples:
  # Read routerctl's man page
  routerctl man | man -l -

  # The page of one command
  routerctl man render > routerctl-render.1";

/// Render the LLMKube operator's router-proxy objects offline, and diff them
/// against the cluster.
///
/// routerctl reads ModelRouter YAML and prints the ConfigMap, Deployment,
/// Service (and RBAC, when pooled) that the LLMKube operator would write for
/// it, byte for byte where the operator writes bytes.
#[derive(Debug, Parser)]
#[command(name = "routerctl", version, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,

    /// Print no warnings and no progress (errors still go to stderr).
    #[arg(short, long, global = true, help_heading = GLOBAL, conflicts_with = "verbose")]
    pub quiet: bool,

    /// Say what is being done: each router rendered, and the time taken.
    #[arg(short, long, global = true, help_heading = GLOBAL)]
    pub verbose: bool,

    /// How errors and warnings are written on stderr: `human` text,
    /// `json` (one object a line), `github` (workflow commands that
    /// annotate the file and line in a pull request) or `sarif` (one SARIF
    /// 2.1.0 log at the end). stdout is the same in every format.
    #[arg(long, global = true, help_heading = GLOBAL, value_enum, value_name = "FORMAT", default_value_t = MessageChoice::Human)]
    pub message_format: MessageChoice,
}

/// `--message-format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MessageChoice {
    Human,
    Json,
    Github,
    Sarif,
}

impl From<MessageChoice> for MessageFormat {
    fn from(choice: MessageChoice) -> MessageFormat {
        match choice {
            MessageChoice::Human => MessageFormat::Human,
            MessageChoice::Json => MessageFormat::Json,
            MessageChoice::Github => MessageFormat::Github,
            MessageChoice::Sarif => MessageFormat::Sarif,
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the objects the operator would write, ready for `kubectl apply -f -`.
    ///
    /// With --live, the objects are merged into the live ones the way the
    /// operator updates them: other tools' keys stay, removed user keys leave,
    /// the selector is kept as it is.
    #[command(after_help = RENDER_EXAMPLES)]
    Render(RenderArgs),
    /// Show what the operator would change on the live objects.
    ///
    /// The live objects are read from the cluster through `kubectl` (one
    /// `kubectl get` per namespace), or from files with --live. After the
    /// diff, a terminal gets one line per router: which objects are created
    /// or updated and whether the proxy pods roll. `-o json` prints that
    /// plan instead of the diff. KUBECTL_EXTERNAL_DIFF is honoured as by
    /// `kubectl diff`.
    ///
    /// Exit status as `kubectl diff`: 0 when nothing would change, 1 when
    /// something would, 2 on error.
    #[command(after_help = DIFF_EXAMPLES)]
    Diff(DiffArgs),
    /// Explain every pod-template label and annotation and each record
    /// annotation: who owns it and what this reconcile does to it.
    ///
    /// Answers "why is this label on my pods?": the owner (operator, user,
    /// other tool) and the action (kept, added, changed, pruned, overridden by
    /// the operator, scrape cleanup), plus the selector and whether it can
    /// change.
    #[command(after_help = EXPLAIN_EXAMPLES)]
    Explain(ExplainArgs),
    /// Check where requests go: run RouterTest cases against what each
    /// router's data plane would decide.
    ///
    /// The Proxy plane decides as the router-proxy does, from the compiled
    /// config.json routerctl writes (rules in order, the first match wins;
    /// then BackendNameMatch, then the default route; the fail-closed
    /// gate). The Gateway plane decides as Envoy does from the rendered
    /// AIGatewayRoute (Gateway API precedence: the most header matches win,
    /// then rule order). Test files (`kind: RouterTest`) come from -t, or
    /// from the -f files when -t is not given.
    ///
    /// Exit status: 0 when every case passes, 1 when one fails (or coverage
    /// is under --min-coverage), 2 on bad input.
    #[command(after_help = TEST_EXAMPLES)]
    Test(TestArgs),
    /// Explain where one request goes: the rules tried, why each did not
    /// match, the one that did, and the backends in dispatch order.
    #[command(after_help = ROUTE_EXAMPLES)]
    Route(RouteArgs),
    /// Prove where every request can go: the request space cut into
    /// classes that decide alike, each with a witness request; checks that
    /// hold for all requests; the invariants of RouterTest files; and with
    /// --against, every class whose destination a change moves.
    ///
    /// Checks (rule ids): sensitive-egress (error: a sensitive
    /// classification can be dispatched to a cloud-tier or external
    /// backend in some health state), unmatchable-value (error: an
    /// upper-case classification or complexity, a malformed glob, a header
    /// the proxy never sees), plane-disagreement (error: the Proxy and
    /// Gateway planes part, with --data-plane both or for Gateway
    /// routers), unreachable-rule (warning), unrouted (warning). Each comes
    /// with a RouterTest case that `routerctl test` passes and that shows
    /// it.
    ///
    /// Exit status: 0 when nothing fails, 1 when a check fails or an
    /// invariant does not hold, 2 on bad input.
    #[command(after_help = VERIFY_EXAMPLES)]
    Verify(VerifyArgs),
    /// Replay the requests a router-proxy logged: what the router in -f
    /// does with the traffic the cluster really served.
    ///
    /// Each `router.dispatch` line (JSON or slog text, with or without
    /// kubectl's --prefix and --timestamps, gzip'd or not, `-` for stdin)
    /// is decided again, under the health its line shows, and what differs
    /// from the log is grouped (logged decision, new decision) with counts,
    /// shares and the first lines of each group. With --against, what the
    /// change moves (the router before against the one in -f) and the
    /// drift (the log against the router before) apart. --counts replays
    /// an aggregate made where the logs are kept; --from-cluster reads the
    /// logs of every replica of the router's proxy through kubectl.
    ///
    /// Exit status: 0 when done, 1 when a sensitive request would leave
    /// the cluster (as `verify`), 2 on bad input.
    Replay(ReplayArgs),
    /// Run as a KRM function: read a ResourceList on stdin, append the
    /// rendered objects of every ModelRouter among its items, write it back.
    ///
    /// For kustomize (`generators:`/`transformers:` with an exec function)
    /// and kpt. Operator settings come from the functionConfig's `data`
    /// (a ConfigMap) or `spec`: routerProxyImage, defaultLitellmUrl,
    /// emitScrapeAnnotations, namespace, strict, operatorVersion. Errors are reported as
    /// `results`; the exit status is 1 when any is an error.
    #[command(after_help = KRM_EXAMPLES)]
    Krm,
    /// Print the JSON Schema (draft 2020-12) of a ModelRouter or of a
    /// RouterTest file, for editors and kubeconform.
    ///
    /// `modelrouter`: the whole object as the CRD of --operator-version
    /// defines it (default: the newest release), unknown fields refused; CEL rules,
    /// which JSON Schema cannot express, are named in `$comment`.
    /// `routertest`: the test files of `routerctl test` and `verify`,
    /// exactly as routerctl reads them. For yaml-language-server, a file's
    /// first line `# yaml-language-server: $schema=<file>` points at it.
    #[command(after_help = SCHEMA_EXAMPLES)]
    Schema(SchemaArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    ///
    /// `completion` (kubectl's spelling) is the same command.
    #[command(visible_alias = "completion", after_help = COMPLETIONS_EXAMPLES)]
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print routerctl's version, the API it reads and the operator
    /// behaviour it mirrors.
    #[command(after_help = VERSION_EXAMPLES)]
    Version {
        /// Output format (as `kubectl version -o json|yaml`); plain text when unset.
        #[arg(short = 'o', long = "output", value_enum)]
        output: Option<VersionFormat>,
    },
    /// Print the man page (roff), of routerctl or of one of its commands.
    ///
    /// For example: `routerctl man | man -l -`.
    #[command(after_help = MAN_EXAMPLES)]
    Man {
        /// A command, for its own page (e.g. `render`).
        command: Option<String>,
    },
}

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Whose schema: `modelrouter` or `routertest` (in any case).
    #[arg(value_enum, ignore_case = true, value_name = "KIND")]
    pub kind: SchemaKind,

    /// The LLMKube operator release whose CRD the ModelRouter schema
    /// follows: a field the release does not have is refused. Default:
    /// the newest release (v0.9.19). Not for `routertest`, which is the
    /// same for every release.
    #[arg(long, value_name = "VERSION", value_parser = ReleaseParser, hide_possible_values = true)]
    pub operator_version: Option<Release>,

    /// Output format.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = SchemaFormat::Json)]
    pub output: SchemaFormat,
}

/// `routerctl schema KIND`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SchemaKind {
    /// A ModelRouter (inference.llmkube.dev/v1alpha1), as a release's CRD defines it.
    #[value(name = "modelrouter", alias = "modelrouters")]
    ModelRouter,
    /// A RouterTest file (routerctl.llmkube.dev/v1alpha1).
    #[value(name = "routertest", alias = "routertests")]
    RouterTest,
}

/// `schema -o`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SchemaFormat {
    Json,
    Yaml,
}

/// Which data plane's decision to check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PlaneChoice {
    /// Each router's own `spec.dataPlane`.
    Auto,
    /// As the router-proxy decides.
    Proxy,
    /// As Envoy decides on the rendered AIGatewayRoute.
    Gateway,
    /// Both, and every case where they disagree.
    Both,
}

#[derive(Debug, Args)]
pub struct TestArgs {
    #[command(flatten)]
    pub common: CommonArgs,

    /// RouterTest files (or directories). Repeatable. Without it, the
    /// RouterTest documents among the -f files are run.
    #[arg(short = 't', long = "tests", value_name = "FILE")]
    pub tests: Vec<PathBuf>,

    /// The data plane whose decisions the cases check.
    #[arg(long, value_enum, default_value_t = PlaneChoice::Auto)]
    pub data_plane: PlaneChoice,

    /// Print the rules (and the default route) no case reached.
    #[arg(long)]
    pub coverage: bool,

    /// Fail (exit 1) when the cases reach fewer than this percentage of the
    /// rules and the default route.
    #[arg(long, value_name = "PERCENT", value_parser = clap::value_parser!(u8).range(0..=100))]
    pub min_coverage: Option<u8>,

    /// Output format.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = SuiteFormat::Text)]
    pub output: SuiteFormat,
}

#[derive(Debug, Args)]
pub struct RouteArgs {
    #[command(flatten)]
    pub common: CommonArgs,

    /// The router (`namespace/name`, or a name) when the inputs hold several.
    #[arg(long, value_name = "ROUTER")]
    pub router: Option<String>,

    /// The request body's `model`.
    #[arg(long, value_name = "MODEL")]
    pub model: Option<String>,

    /// A request header, `name=value` (or `name: value`). Repeatable.
    #[arg(short = 'H', long = "header", value_name = "NAME=VALUE")]
    pub headers: Vec<String>,

    /// A backend that is down (quarantined or failing). Repeatable, or a
    /// comma-separated list.
    #[arg(long, value_name = "BACKEND", value_delimiter = ',')]
    pub unhealthy: Vec<String>,

    /// The data plane whose decision is explained.
    #[arg(long, value_enum, default_value_t = PlaneChoice::Auto)]
    pub data_plane: PlaneChoice,

    /// Output format.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = ReportFormat::Text)]
    pub output: ReportFormat,
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub common: CommonArgs,

    /// RouterTest files whose `invariants:` are checked for all requests
    /// (their `tests:` are `routerctl test`'s). Repeatable.
    #[arg(short = 't', long = "tests", value_name = "FILE")]
    pub tests: Vec<PathBuf>,

    /// The routers before the change (files or directories, as -f):
    /// every class of requests whose decision the change moves is listed.
    /// Repeatable.
    #[arg(long, value_name = "FILE")]
    pub against: Vec<PathBuf>,

    /// The data plane whose decisions are verified.
    #[arg(long, value_enum, default_value_t = PlaneChoice::Auto)]
    pub data_plane: PlaneChoice,

    /// Write one RouterTest case per class of requests to FILE: today's
    /// behaviour pinned, ready for `routerctl test`.
    #[arg(long, value_name = "FILE")]
    pub emit_tests: Option<PathBuf>,

    /// Output format.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = SuiteFormat::Text)]
    pub output: SuiteFormat,

    /// A search that spends a budget is a warning, not a failure: the
    /// report says what it covered, and the run may still pass.
    #[arg(long)]
    pub allow_incomplete: bool,

    #[command(flatten)]
    pub budgets: Budgets,
}

/// The budgets of `verify`'s search; a search that spends one is not
/// complete. Lower them to bound the time a run may take.
#[derive(Debug, Clone, Copy, Args)]
#[command(next_help_heading = "Search budgets")]
pub struct Budgets {
    /// States of the model automata's products the search may visit.
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub max_states: usize,

    /// Automaton steps the model search may take.
    #[arg(long, value_name = "N", default_value_t = 400_000_000)]
    pub max_steps: u64,

    /// Cells (header classes × model classes) the request space may have.
    #[arg(long, value_name = "N", default_value_t = 200_000)]
    pub max_cells: usize,

    /// Rule evaluations (cells × rules) the cells, then the self-check's
    /// requests, may take to decide.
    #[arg(long, value_name = "N", default_value_t = 20_000_000)]
    pub max_decisions: u64,

    /// Seconds the whole run may take; the search and every check after it
    /// stop there, incomplete, and so does each router whose turn comes
    /// later.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub timeout: f64,

    /// MiB of memory the process may hold; the search and every check after
    /// it stop before, incomplete, and model automata that would not fit
    /// are not built.
    #[arg(long, value_name = "MIB", default_value_t = 256)]
    pub max_memory: usize,
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("requests").required(true).multiple(true).args(["logs", "counts", "from_cluster"])))]
pub struct ReplayArgs {
    #[command(flatten)]
    pub common: CommonArgs,

    /// A router-proxy log (`kubectl logs deploy/NAME-router-proxy`), or
    /// `-` for stdin. Repeatable.
    #[arg(long = "log", value_name = "FILE")]
    pub logs: Vec<PathBuf>,

    /// Requests counted where the logs are kept (CSV or JSON lines:
    /// model, classification, taskComplexity, count; optionally rule,
    /// backend, outcome). Repeatable.
    #[arg(long = "counts", value_name = "FILE")]
    pub counts: Vec<PathBuf>,

    /// Read the router-proxy's log from the cluster through kubectl: every
    /// replica of the router's proxy (`kubectl logs -l` by the Deployment's
    /// selector), within --request-timeout, as `diff` reads.
    #[arg(long)]
    pub from_cluster: bool,

    /// With --from-cluster: only the lines of the last DURATION (a Go
    /// duration such as 24h or 90m, passed to `kubectl logs --since`).
    /// Default: all the pods still hold.
    #[arg(long, value_name = "DURATION", requires = "from_cluster")]
    pub since: Option<String>,

    #[command(flatten)]
    pub cluster: ClusterArgs,

    /// The routers before the change (files or directories, as -f): what
    /// the change moves and the drift are reported apart.
    #[arg(long, value_name = "FILE")]
    pub against: Vec<PathBuf>,

    /// The router whose log it is (`namespace/name`, or a name) when the
    /// inputs hold several.
    #[arg(long, value_name = "ROUTER")]
    pub router: Option<String>,

    /// The groups shown in the text and Markdown reports, the largest
    /// first.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub top: usize,

    /// Output format.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = ReplayFormat::Text)]
    pub output: ReplayFormat,
}

/// `route -o`: the rules tried, for people, or JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    Text,
    Json,
}

/// `replay -o`: a report for people, the JSON contract, or a
/// pull-request comment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReplayFormat {
    Text,
    Json,
    /// Markdown for a pull-request comment: a verdict, then a table per
    /// section, the largest groups first.
    Markdown,
}

/// `test -o` and `verify -o`: a report for people, the JSON contract,
/// JUnit XML for CI test reports, or a pull-request comment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SuiteFormat {
    Text,
    Json,
    /// JUnit XML: a testsuite per router and data plane, a testcase per
    /// case (test) or per check and invariant (verify).
    Junit,
    /// Markdown for a pull-request comment: a verdict, then a table per
    /// router.
    Markdown,
}

/// Inputs and operator settings shared by every command.
#[derive(Debug, Clone, Args)]
pub struct CommonArgs {
    /// A file, a directory (its *.yaml, *.yml and *.json files, sorted) or `-`
    /// for stdin, holding ModelRouters and the InferenceServices and
    /// ModelPools they reference. Repeatable.
    #[arg(short = 'f', long = "filename", value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,

    /// Read the directories given to -f (and --live) with their
    /// subdirectories, as kubectl's -R.
    #[arg(short = 'R', long)]
    pub recursive: bool,

    /// Of the files in the directories given to -f (and -t, --against,
    /// --crd), read only those whose text has a `kind:` of ModelRouter,
    /// InferenceService, ModelPool or RouterTest, and none of a Helm
    /// chart's templates/: a repository's other YAML and JSON
    /// (node_modules, tsconfig.json, CI files, charts) is skipped unread.
    /// A file named on its own is always read.
    #[arg(long)]
    pub skip_other_files: bool,

    /// Namespace for objects that do not name one (default: `default`).
    #[arg(short = 'n', long)]
    pub namespace: Option<String>,

    /// The operator's --router-proxy-image: the proxy image when a
    /// ModelRouter does not set spec.proxy.image. Without it (or when it is
    /// empty) such routers get the operator's built-in default image, with a
    /// warning (an error with --strict).
    #[arg(long, value_name = "IMAGE")]
    pub router_proxy_image: Option<String>,

    /// The operator's --default-litellm-url: the address of litellm backends
    /// that set no url.
    #[arg(long, value_name = "URL")]
    pub default_litellm_url: Option<String>,

    /// The operator's --emit-scrape-annotations: add prometheus.io/* pod
    /// annotations (and stop cleaning them up).
    #[arg(long)]
    pub emit_scrape_annotations: bool,

    /// The LLMKube operator release to render as: v0.7.8 … v0.9.19 (a
    /// leading `v` is optional), or `next`, v0.9.19 with
    /// spec.proxy.podLabels/podAnnotations, which no release has yet.
    /// Default: found from the cluster's operator in cluster mode, else
    /// the newest release, v0.9.19. `routerctl version` lists the releases
    /// and what changed in each.
    #[arg(long, value_name = "VERSION", value_parser = ReleaseParser, hide_possible_values = true)]
    pub operator_version: Option<Release>,

    /// Treat what can only be assumed offline (a referenced InferenceService
    /// missing from the inputs, the built-in default proxy image) and
    /// unknown fields as errors.
    #[arg(long)]
    pub strict: bool,

    /// Routers reconciled at once (default: the cores available). Output
    /// and errors are the same for every value.
    #[arg(short = 'j', long, value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<std::num::NonZeroUsize>,

    /// The cluster's CRDs (`kubectl get crd
    /// modelrouters.inference.llmkube.dev -o yaml`; also the InferenceService
    /// and ModelPool CRDs): judge, prune and default those kinds by their
    /// schemas instead of the built-in ModelRouter schema. Repeatable.
    #[arg(long, value_name = "FILE")]
    pub crd: Vec<PathBuf>,
}

/// Which cluster `kubectl` reads the live objects from.
#[derive(Debug, Clone, Args)]
pub struct ClusterArgs {
    /// The kubeconfig context kubectl uses to read the cluster.
    #[arg(long, value_name = "CONTEXT")]
    pub context: Option<String>,

    /// The kubeconfig file kubectl uses to read the cluster.
    #[arg(long, value_name = "FILE")]
    pub kubeconfig: Option<PathBuf>,

    /// How long the whole cluster read may take, every kubectl together (a
    /// Go duration such as 30s or 2m, passed to each kubectl as its
    /// --request-timeout); what still runs is stopped up to 10s after.
    #[arg(long, value_name = "DURATION", default_value = "30s")]
    pub request_timeout: String,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    #[command(flatten)]
    pub common: CommonArgs,

    /// Live objects, as for `render --live`. Repeatable.
    #[arg(long = "live", value_name = "FILE")]
    pub live: Vec<PathBuf>,

    /// Read the live objects from the cluster through kubectl, as `diff` does.
    #[arg(long, conflicts_with = "live")]
    pub live_from_cluster: bool,

    #[command(flatten)]
    pub cluster: ClusterArgs,

    /// Output format.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = ExplainFormat::Table)]
    pub output: ExplainFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExplainFormat {
    Table,
    Json,
}

#[derive(Debug, Args)]
pub struct RenderArgs {
    #[command(flatten)]
    pub common: CommonArgs,

    /// Live objects (`kubectl get deploy,svc,cm,sa,role,rolebinding -o
    /// yaml`, a YAML stream, a single object, a directory or `-`) to merge
    /// into. Repeatable.
    #[arg(long = "live", value_name = "FILE")]
    pub live: Vec<PathBuf>,

    /// Read the live objects from the cluster through kubectl, as `diff` does.
    #[arg(long, conflicts_with = "live")]
    pub live_from_cluster: bool,

    #[command(flatten)]
    pub cluster: ClusterArgs,

    /// Output format.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = ObjectFormat::Yaml)]
    pub output: ObjectFormat,

    /// Print every input object too, as read (the ModelRouters,
    /// InferenceServices, anything else), in input order, then the rendered
    /// objects: what `kustomize build` with the KRM function gives, for an
    /// Argo CD plugin or a Flux build. Left out: objects marked
    /// config.kubernetes.io/local-config: "true" and RouterTest files; an
    /// input object the operator writes itself is replaced by its rendered
    /// form, with a warning.
    #[arg(long)]
    pub pass_through: bool,
}

/// `render -o`: how the objects are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ObjectFormat {
    Yaml,
    Json,
    /// `resource[.group]/name`, one a line, as `kubectl get -o name`.
    Name,
}

impl From<ObjectFormat> for Format {
    fn from(format: ObjectFormat) -> Format {
        match format {
            ObjectFormat::Yaml => Format::Yaml,
            ObjectFormat::Json => Format::Json,
            ObjectFormat::Name => Format::Name,
        }
    }
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    #[command(flatten)]
    pub common: CommonArgs,

    /// Live objects to compare with (as for `render --live`), instead of
    /// reading them from the cluster. Repeatable.
    #[arg(long = "live", value_name = "FILE", conflicts_with_all = ["context", "kubeconfig"])]
    pub live: Vec<PathBuf>,

    #[command(flatten)]
    pub cluster: ClusterArgs,

    /// `diff`: unified diffs; `json`: the plan per router (objects created,
    /// updated, unchanged; whether the pods roll); `markdown`: the plan as
    /// a pull-request comment.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = DiffFormat::Diff)]
    pub output: DiffFormat,

    /// When to colour the diff.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    Diff,
    Json,
    Markdown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum VersionFormat {
    Json,
    Yaml,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}
