//! The commands: gather inputs, render, merge, print. Reads and writes
//! nothing itself but the streams it is handed, so tests can drive it.
//!
//! Routers stream: a first pass over the `-f` inputs collects what backends
//! resolve against (InferenceServices, ModelPools); a second pass renders
//! one ModelRouter at a time into a spool that reaches stdout only when the
//! whole run has succeeded.

use std::collections::HashSet;
use std::io::{Read, Write};
use std::path::PathBuf;

use anyhow::{anyhow, bail, Context as _, Result};
use serde_json::Value;

use crate::cli::{
    Cli, ClusterArgs, ColorChoice, Command, CommonArgs, DiffArgs, DiffFormat, ExplainFormat, VersionFormat,
};
use crate::diff::external::ExternalDiff;
use crate::diff::plan::{plan_router, report_json, RouterPlan};
use crate::diff::{compare, diff_compared, diff_object, Palette};
use crate::explain::explain;
use crate::explain::gateway::{explain_gateway, RouterExplanation};
use crate::gateway::reconcile_gateway_router;
use crate::input::{for_each_document_where, read_sources, Document, Identity, Source};
use crate::live::{ClusterLive, KubectlOptions};
use crate::live::{LiveIndex, LiveObjects, LiveStore, ObjectKey};
use crate::model::{InferenceService, ModelPool, ModelRouter, GROUP, GROUP_VERSION};
use crate::output::check::check_object;
use crate::output::spool::Spool;
use crate::output::{print_objects, Format, Printer};
use crate::reconcile::server_fields::strip;
use crate::reconcile::{controller_uid, reconcile_router, Reconciled};
use crate::render::gateway::GatewayRendered;
use crate::render::gojson::{marshal_indent, GoJson};
use crate::render::names::resource_name;
use crate::render::{render_router, Inventory, OperatorFlags, RenderedRouter, RouterInput};
use crate::report::Reporter;
use crate::validate::crd::{ClusterCrds, CrdSchema};
use crate::validate::gateway::validate_gateway_router;
use crate::validate::operator::validate_model_router;
use crate::validate::schema::{check_against, suggest};
use crate::validate::{Finding, Severity};

/// What a successful run prints and how it exits.
#[derive(Debug)]
pub struct Outcome {
    pub stdout: Spool,
    pub code: i32,
    /// For stderr after stdout (the plan lines that close a diff).
    pub notes: String,
}

/// What the process knows about its terminal, for `--color auto`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Terminal {
    pub stdout_is_tty: bool,
    pub stderr_is_tty: bool,
    /// `NO_COLOR` is set to a non-empty value.
    pub no_color: bool,
}

/// Runs one command. Warnings go to `stderr` as they arise; stdout is
/// spooled and handed back, so a failing run prints nothing there.
pub fn run(cli: &Cli, stdin: &mut dyn Read, stderr: &mut dyn Write, terminal: Terminal) -> Result<Outcome> {
    let reporter = &mut Reporter::new(stderr, cli.quiet, cli.verbose, terminal.stderr_is_tty);
    let outcome = run_command(cli, stdin, reporter, terminal);
    reporter.finish();
    outcome
}

fn run_command(cli: &Cli, stdin: &mut dyn Read, reporter: &mut Reporter, terminal: Terminal) -> Result<Outcome> {
    match &cli.command {
        Command::Render(args) => {
            let live = LiveInput::choose(&args.live, args.live_from_cluster, &args.cluster)?;
            let mut printer = Printer::new(args.output, Spool::new());
            stream_objects(&args.common, live, stdin, reporter, &mut |item| {
                printer.object(&apply_ready(item.merged)).context("cannot spool output")
            })?;
            Ok(Outcome { stdout: printer.finish().context("cannot spool output")?, code: 0, notes: String::new() })
        }
        Command::Explain(args) => {
            let live = LiveInput::choose(&args.live, args.live_from_cluster, &args.cluster)?;
            let mut tables = Vec::new();
            stream(&args.common, live, stdin, reporter, &mut |result| {
                tables.push(match &result.rendered {
                    Rendered::Proxy(rendered) => {
                        let live_deployment =
                            result.items.iter().find(|i| i.key.kind == "Deployment").and_then(|i| i.live.clone());
                        RouterExplanation::Proxy(explain(rendered, &result.router, live_deployment.as_ref()))
                    }
                    Rendered::Gateway(rendered) => {
                        let router = format!("{}/{}", result.router.namespace, result.router.name);
                        RouterExplanation::Gateway(explain_gateway(&router, &result.items, &rendered.ejected))
                    }
                });
                Ok(())
            })?;
            let text = match args.output {
                ExplainFormat::Table => tables.iter().map(RouterExplanation::to_table).collect::<Vec<_>>().join("\n"),
                ExplainFormat::Json => {
                    let list = Value::Array(tables.iter().map(RouterExplanation::to_json).collect());
                    marshal_indent(&GoJson::from(&list), "", "    ") + "\n"
                }
            };
            text_outcome(&text, 0)
        }
        Command::Krm => {
            let mut input = String::new();
            stdin.read_to_string(&mut input).context("cannot read the ResourceList from stdin")?;
            let outcome = crate::krm::run(&input);
            reporter.raw(&outcome.stderr);
            text_outcome(&outcome.output, i32::from(outcome.failed))
        }
        Command::Completions { shell } => text_outcome(&crate::generated::completions(*shell), 0),
        Command::Man { command } => text_outcome(&crate::generated::man_page(command.as_deref())?, 0),
        Command::Version { output } => match output {
            None => text_outcome(&crate::version::text(), 0),
            Some(VersionFormat::Json) => text_outcome(&crate::version::json(), 0),
        },
        Command::Diff(args) => diff_command(args, stdin, reporter, terminal),
    }
}

/// `routerctl diff`: the unified diffs (or the external program's answer)
/// and a plan line per router, or the plan as JSON.
fn diff_command(args: &DiffArgs, stdin: &mut dyn Read, reporter: &mut Reporter, terminal: Terminal) -> Result<Outcome> {
    let palette = Palette {
        color: match args.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => terminal.stdout_is_tty && !terminal.no_color,
        },
    };
    let live = if args.live.is_empty() { LiveInput::Cluster(&args.cluster) } else { LiveInput::Files(&args.live) };
    // As in kubectl, an empty KUBECTL_EXTERNAL_DIFF is unset; the JSON plan
    // has no use for a diff program.
    let mut external = match std::env::var(crate::diff::external::VARIABLE) {
        Ok(value) if !value.is_empty() && args.output == DiffFormat::Diff => Some(ExternalDiff::new(&value)?),
        _ => None,
    };
    let mut spool = Spool::new();
    let mut plans: Vec<RouterPlan> = Vec::new();
    stream(&args.common, live, stdin, reporter, &mut |result| {
        let comparisons: Vec<_> = result.items.iter().map(compare).collect();
        plans.push(plan_router(&result.router.namespace, &result.router.name, &result.items, &comparisons));
        if args.output == DiffFormat::Json {
            return Ok(());
        }
        for (item, cmp) in result.items.iter().zip(&comparisons) {
            match &mut external {
                Some(ext) => ext.add(&item.key, cmp.before.as_ref(), &cmp.after)?,
                None => {
                    if let Some(diff) = diff_compared(item, cmp, palette) {
                        spool.write_all(diff.as_bytes()).context("cannot spool output")?;
                    }
                }
            }
        }
        Ok(())
    })?;
    let changed = i32::from(plans.iter().any(RouterPlan::changed));
    if args.output == DiffFormat::Json {
        return text_outcome(&report_json(&plans), changed);
    }
    // The plan closes the diff on a terminal; pipes get the diff alone.
    let notes = if terminal.stderr_is_tty && !reporter.is_quiet() {
        plans.iter().map(|p| p.summary() + "\n").collect()
    } else {
        String::new()
    };
    let code = match external {
        Some(ext) => {
            let answer = ext.run()?;
            reporter.raw(&String::from_utf8_lossy(&answer.stderr));
            spool.write_all(&answer.stdout).context("cannot spool output")?;
            answer.code
        }
        None => changed,
    };
    Ok(Outcome { stdout: spool, code, notes })
}

/// Where a command's live objects come from.
#[derive(Clone, Copy)]
enum LiveInput<'a> {
    Files(&'a [PathBuf]),
    Cluster(&'a ClusterArgs),
}

impl<'a> LiveInput<'a> {
    /// For `render` and `explain`: files (maybe none), or the cluster with
    /// --live-from-cluster; kubectl's flags mean nothing without it.
    fn choose(files: &'a [PathBuf], from_cluster: bool, cluster: &'a ClusterArgs) -> Result<LiveInput<'a>> {
        if from_cluster {
            return Ok(LiveInput::Cluster(cluster));
        }
        if cluster.context.is_some() || cluster.kubeconfig.is_some() {
            bail!(
                "--context and --kubeconfig choose the cluster the live objects are read from; add --live-from-cluster"
            );
        }
        Ok(LiveInput::Files(files))
    }
}

/// A small output, known whole.
fn text_outcome(text: &str, code: i32) -> Result<Outcome> {
    let mut stdout = Spool::new();
    stdout.write_all(text.as_bytes()).context("cannot spool output")?;
    Ok(Outcome { stdout, code, notes: String::new() })
}

fn apply_ready(mut obj: Value) -> Value {
    strip(&mut obj);
    obj
}

/// What the operator writes for a router, by data plane.
pub enum Rendered {
    Proxy(Box<RenderedRouter>),
    Gateway(GatewayRendered),
}

/// Everything known about one ModelRouter after its reconcile.
pub struct RouterResult {
    pub router: RouterInput,
    pub rendered: Rendered,
    /// The live objects the operator owns for it, by identity.
    pub live: LiveIndex,
    /// Its objects, rendered and merged, in the operator's order.
    pub items: Vec<Reconciled>,
}

/// Reads the inputs of a command and streams every router's result to `sink`.
fn stream(
    common: &CommonArgs,
    live: LiveInput,
    stdin: &mut dyn Read,
    reporter: &mut Reporter,
    sink: &mut dyn FnMut(RouterResult) -> Result<()>,
) -> Result<()> {
    let mut stdin_used = false;
    let files = crate::input::recursive::expand(&common.files, common.recursive)?;
    let router_sources = read_sources(&files, stdin, &mut stdin_used)?;
    let live: Box<dyn LiveObjects> = match live {
        LiveInput::Files(paths) => {
            let paths = crate::input::recursive::expand(paths, common.recursive)?;
            Box::new(LiveStore::from_paths(&paths, stdin, &mut stdin_used, default_namespace(common))?)
        }
        LiveInput::Cluster(cluster) => Box::new(ClusterLive::new(KubectlOptions {
            context: cluster.context.clone(),
            kubeconfig: cluster.kubeconfig.clone(),
        })),
    };
    pipeline(common, &router_sources, live.as_ref(), reporter, sink)
}

/// Streams only the reconciled objects.
fn stream_objects(
    common: &CommonArgs,
    live: LiveInput,
    stdin: &mut dyn Read,
    reporter: &mut Reporter,
    sink: &mut dyn FnMut(Reconciled) -> Result<()>,
) -> Result<()> {
    stream(common, live, stdin, reporter, &mut |result| result.items.into_iter().try_for_each(&mut *sink))
}

fn default_namespace(common: &CommonArgs) -> &str {
    common.namespace.as_deref().unwrap_or("default")
}

/// The whole pipeline on sources already in memory, collected: parse,
/// validate, render, merge. The KRM function, the fuzz target and tests
/// enter here.
pub fn reconcile_sources(
    common: &CommonArgs,
    router_sources: &[Source],
    live_sources: &[Source],
    stderr: &mut dyn Write,
) -> Result<Vec<Reconciled>> {
    let live = LiveStore::from_sources(live_sources, default_namespace(common))?;
    let mut items = Vec::new();
    pipeline(common, router_sources, &live, &mut Reporter::plain(stderr), &mut |result| {
        items.extend(result.items);
        Ok(())
    })?;
    Ok(items)
}

/// Pass 1 collects the inventory; pass 2 renders each ModelRouter in input
/// order and hands its result to `sink`.
fn pipeline(
    common: &CommonArgs,
    router_sources: &[Source],
    live: &dyn LiveObjects,
    reporter: &mut Reporter,
    sink: &mut dyn FnMut(RouterResult) -> Result<()>,
) -> Result<()> {
    let mut files = Vec::new();
    for path in &common.crd {
        let source = crate::input::read_file(path)?;
        files.push((source.name, source.text));
    }
    let crds = ClusterCrds::read(&files)?;
    if let (Some(crd), Some(path)) = (&crds.router, common.crd.first()) {
        if let Some(w) = crd.compatibility_warning() {
            reporter.warn(&format!("{}: {w}", path.display()));
        }
    }
    let (inventory, not_routers) = scan_inventory(common, router_sources, &crds, reporter)?;
    let flags = operator_flags(common);
    let mut object_names = ObjectNames::default();
    for (i, source) in router_sources.iter().enumerate() {
        // Pass 1 has checked every other document; only routers are parsed
        // again, and documents pass 1 identified as others are not even read.
        for_each_document_where(
            source,
            |n| not_routers.contains(&(i, n)),
            |id, _| id.kind == "ModelRouter",
            |doc| {
                if let Some(("ModelRouter", namespace)) = classify(&doc, common)? {
                    let (origin, router) = router_input(&doc, namespace, common, crds.router.as_ref(), reporter)?;
                    let name = format!("{}/{}", router.namespace, router.name);
                    object_names.claim(&origin, &router)?;
                    let result = reconcile_one(&origin, router, &inventory, live, &flags, reporter);
                    // kubectl's own warnings, next to the router whose read drew them.
                    for note in live.take_notes() {
                        reporter.warn(&note);
                    }
                    match result? {
                        Some(result) => {
                            reporter.router_done(&name, result.items.len());
                            sink(result)?;
                        }
                        None => reporter.router_done(&name, 0),
                    }
                }
                Ok(())
            },
        )?;
    }
    Ok(())
}

/// The object names of the routers rendered so far in one run, to refuse
/// two ModelRouters whose objects share a name (`a.b` and `a-b` both own
/// `a-b-router-proxy`): applied together, each would overwrite the other's
/// objects, and the two owners would fight over them forever.
#[derive(Default)]
struct ObjectNames {
    /// (namespace, object name) -> (origin, ModelRouter name).
    owners: std::collections::HashMap<(String, String), (String, String)>,
}

impl ObjectNames {
    fn claim(&mut self, origin: &str, router: &RouterInput) -> Result<()> {
        if router.router.spec.data_plane.as_deref() == Some("Gateway") {
            // The operator provisions no router-proxy objects for it.
            return Ok(());
        }
        let key = (router.namespace.clone(), resource_name(&router.name));
        match self.owners.get(&key) {
            Some((first_origin, first)) if *first != router.name => bail!(
                "{origin}: ModelRouter {ns}/{name}: metadata.name: its objects are named {object:?}, as are those of \
                 ModelRouter {ns}/{first} ({first_origin}) (a dot in a ModelRouter's name becomes a dash in its \
                 objects' names); applied together, each would overwrite the other's objects and their owners \
                 would fight over them forever: rename one of the two ModelRouters",
                ns = router.namespace,
                name = router.name,
                object = key.1,
            ),
            Some(_) => Ok(()),
            None => {
                self.owners.insert(key, (origin.to_string(), router.name.clone()));
                Ok(())
            }
        }
    }
}

/// Validates, renders and merges one ModelRouter.
fn reconcile_one(
    origin: &str,
    mut router: RouterInput,
    inventory: &Inventory,
    live: &dyn LiveObjects,
    flags: &OperatorFlags,
    reporter: &mut Reporter,
) -> Result<Option<RouterResult>> {
    let context = format!("{origin}: ModelRouter {}/{}", router.namespace, router.name);
    if router.router.spec.data_plane.as_deref() == Some("Gateway") {
        let outcome = reconcile_gateway_router(&context, &mut router, inventory, live, flags.strict)?;
        return finish(
            &context,
            router,
            Rendered::Gateway(outcome.rendered),
            outcome.live,
            outcome.items,
            &outcome.warnings,
            reporter,
        );
    }
    // Every live object this router can own, read (and parsed) once.
    let (live, live_uid) = owned_live_objects(&router, live)?;
    if router.uid.is_none() {
        router.uid = live_uid;
    }
    let rendered = render_router(&router, inventory, flags).with_context(|| context.clone())?;
    let mut warnings = rendered.warnings.clone();
    let reconciled = reconcile_router(&router, &rendered, &live, &mut warnings).with_context(|| context.clone())?;
    finish(&context, router, Rendered::Proxy(Box::new(rendered)), live, reconciled, &warnings, reporter)
}

/// Checks what is about to be printed, then reports the router's warnings.
fn finish(
    context: &str,
    router: RouterInput,
    rendered: Rendered,
    live: LiveIndex,
    items: Vec<Reconciled>,
    warnings: &[String],
    reporter: &mut Reporter,
) -> Result<Option<RouterResult>> {
    for item in &items {
        let findings = check_object(&item.merged);
        if !findings.is_empty() {
            bail!("{context}: {}: the API server would refuse the result:\n{}", item.key, bullet_list(&findings));
        }
    }
    // A router the API server would refuse ends the run; its warnings would
    // only bury the error.
    for w in warnings {
        reporter.warn(w);
    }
    Ok(Some(RouterResult { router, rendered, live, items }))
}

/// The live objects with the names and kinds the operator owns for `router`.
/// A ModelRouter read from git has no uid; these carry it in their
/// controller reference.
fn owned_live_objects(router: &RouterInput, live: &dyn LiveObjects) -> Result<(LiveIndex, Option<String>)> {
    let name = resource_name(&router.name);
    let mut owned = LiveIndex::default();
    let mut uid = None;
    for (api_version, kind) in OWNED_KINDS {
        let key = ObjectKey {
            api_version: api_version.to_string(),
            kind: kind.to_string(),
            namespace: router.namespace.clone(),
            name: name.clone(),
        };
        if let Some(obj) = live.get(&key)? {
            uid = uid.or_else(|| controller_uid(&obj, &router.name));
            owned.insert_keyed(key, obj);
        }
    }
    Ok((owned, uid))
}

/// The kinds the operator owns for a ModelRouter.
const OWNED_KINDS: [(&str, &str); 6] = [
    ("v1", "ConfigMap"),
    ("apps/v1", "Deployment"),
    ("v1", "Service"),
    ("v1", "ServiceAccount"),
    ("rbac.authorization.k8s.io/v1", "Role"),
    ("rbac.authorization.k8s.io/v1", "RoleBinding"),
];

/// Findings one per line, indented under the message that introduces them.
fn bullet_list<'a>(findings: impl IntoIterator<Item = &'a Finding>) -> String {
    findings.into_iter().map(|f| format!("  {f}")).collect::<Vec<_>>().join("\n")
}

/// Findings about a document, one per line, each led by the `file:line:col`
/// of its field (editors and terminals jump there).
fn located_list<'a>(doc: &Document, findings: impl IntoIterator<Item = &'a Finding>) -> String {
    findings.into_iter().map(|f| format!("  {}: {f}", doc.locate(&f.path))).collect::<Vec<_>>().join("\n")
}

fn operator_flags(common: &CommonArgs) -> OperatorFlags {
    OperatorFlags {
        router_proxy_image: common.router_proxy_image.clone(),
        default_litellm_url: common.default_litellm_url.clone(),
        emit_scrape_annotations: common.emit_scrape_annotations,
        strict: common.strict,
    }
}

/// Pass 1: the InferenceServices and ModelPools of the inputs, after
/// checking every document that routerctl reads; and that there is a
/// ModelRouter to render at all.
/// Also returns the documents (source index, number) known not to be
/// ModelRouters, which pass 2 need not read again.
fn scan_inventory(
    common: &CommonArgs,
    sources: &[Source],
    crds: &ClusterCrds,
    reporter: &mut Reporter,
) -> Result<(Inventory, HashSet<(usize, usize)>)> {
    let mut inventory = Inventory::default();
    let not_routers = std::cell::RefCell::new(HashSet::new());
    // ModelRouters are checked when pass 2 parses them; here they are only
    // counted, from their identity alone where it can be read without
    // building the document. Other groups' objects are never built.
    let documents = std::cell::Cell::new(0);
    let routers = std::cell::Cell::new(0);
    let wanted = |id: &Identity, number: usize, source_index: usize| {
        documents.set(documents.get() + 1);
        let is_router = id.kind == "ModelRouter";
        if is_router {
            routers.set(routers.get() + 1);
        } else {
            not_routers.borrow_mut().insert((source_index, number));
        }
        !is_router && id.api_version.split('/').next() == Some(GROUP)
    };
    for (this_source, source) in sources.iter().enumerate() {
        for_each_document_where(
            source,
            |_| false,
            |id, n| wanted(id, n, this_source),
            |doc| {
                documents.set(documents.get() + 1);
                match classify(&doc, common)? {
                    Some(("ModelRouter", _)) => routers.set(routers.get() + 1),
                    Some(("InferenceService", namespace)) => {
                        let isvc: InferenceService = stored(&doc, crds.for_kind("InferenceService"), common, reporter)?;
                        inventory.add_inference_service(&namespace, isvc);
                    }
                    Some((_, namespace)) => {
                        let pool: ModelPool = stored(&doc, crds.for_kind("ModelPool"), common, reporter)?;
                        inventory.add_pool(&namespace, pool);
                    }
                    None => {}
                }
                Ok(())
            },
        )?;
    }
    if routers.get() == 0 {
        let what = if documents.get() > 0 {
            "no ModelRouter among the input documents"
        } else {
            "the inputs hold no documents"
        };
        let names: Vec<_> = sources.iter().map(|s| s.name.as_str()).collect();
        bail!("{what} ({}); routerctl renders {GROUP_VERSION} ModelRouter objects", names.join(", "));
    }
    Ok((inventory, not_routers.into_inner()))
}

/// Which of routerctl's kinds a document is, with its namespace; `None` for
/// documents routerctl ignores (Secrets, KServe's InferenceService, ...).
fn classify(doc: &Document, common: &CommonArgs) -> Result<Option<(&'static str, String)>> {
    let group = doc.api_version().split('/').next().unwrap_or("");
    let kind = match doc.kind() {
        "ModelRouter" => "ModelRouter",
        "InferenceService" if group == GROUP => "InferenceService",
        "ModelPool" if group == GROUP => "ModelPool",
        other => {
            // LLMKube has other kinds (Model, ...); a near miss of ours is a typo.
            if group == GROUP {
                if let Some(near) = suggest(other, &["ModelRouter", "InferenceService", "ModelPool"]) {
                    bail!("{}: LLMKube has no kind {other:?}; did you mean {near}?", doc.locate("kind"));
                }
            }
            return Ok(None);
        }
    };
    if doc.api_version() != GROUP_VERSION {
        bail!(
            "{}: {kind} has apiVersion {:?}; routerctl reads {GROUP_VERSION}",
            doc.locate("apiVersion"),
            doc.api_version()
        );
    }
    if kind != "ModelRouter" {
        object_name(doc)?;
    }
    Ok(Some((kind, namespace_of(doc, common.namespace.as_deref())?)))
}

/// Pass 2 for one ModelRouter document: schema, typing, CRD defaults.
fn router_input(
    doc: &Document,
    namespace: String,
    common: &CommonArgs,
    crd: Option<&CrdSchema>,
    reporter: &mut Reporter,
) -> Result<(String, RouterInput)> {
    // The cluster's CRD when given, else the newest schema routerctl knows.
    let schema = crd.unwrap_or_else(|| crate::validate::crd::built_in());
    let router: ModelRouter = stored(doc, Some(schema), common, reporter)?;
    let name = object_name(doc)?;
    // The admission checks, and for a Gateway router the gateway
    // reconciler's refusals, all at once.
    let mut findings = validate_model_router(&router);
    if router.spec.data_plane.as_deref() == Some("Gateway") {
        findings.extend(validate_gateway_router(&router));
    }
    if !findings.is_empty() {
        bail!(
            "{}: ModelRouter {}/{name}: the operator refuses this ModelRouter:\n{}",
            doc.origin,
            namespace,
            located_list(doc, &findings)
        );
    }
    let uid = router.metadata.uid.clone().filter(|u| !u.is_empty());
    Ok((doc.origin.to_string(), RouterInput { router, name, namespace, uid }))
}

/// A document as the API server would store it, typed: checked against its
/// CRD schema (when there is one), fields the schema does not know pruned
/// (warned about; refused with `--strict`), the schema's defaults applied.
fn stored<T: serde::de::DeserializeOwned>(
    doc: &Document,
    schema: Option<&CrdSchema>,
    common: &CommonArgs,
    reporter: &mut Reporter,
) -> Result<T> {
    let Some(schema) = schema else { return typed(doc) };
    let kind = doc.kind();
    let name = match doc.metadata_str("name") {
        Some(n) if !n.is_empty() => format!("{n:?}"),
        _ => "(without a name)".to_string(),
    };
    let written = |path: &str| doc.plain_text(path).map(str::to_string);
    let (errors, unknown): (Vec<_>, Vec<_>) =
        check_against(&doc.value, schema, &written).into_iter().partition(|f| f.severity == Severity::Error);
    if !errors.is_empty() {
        bail!(
            "{}: {kind} {name} does not fit the {kind} CRD schema; the API server refuses it:\n{}",
            doc.origin,
            located_list(doc, errors.iter().chain(&unknown))
        );
    }
    if common.strict && !unknown.is_empty() {
        bail!(
            "{}: {kind} {name} has fields the CRD does not know (refused with --strict):\n{}",
            doc.origin,
            located_list(doc, &unknown)
        );
    }
    for w in unknown {
        reporter.warn(&format!("{}: {w} (the API server drops unknown fields)", doc.locate(&w.path)));
    }
    let mut value = doc.value.clone();
    schema.prune(&mut value);
    schema.apply(&mut value);
    typed_value(doc, &value)
}

fn object_name(doc: &Document) -> Result<String> {
    match doc.metadata_str("name") {
        Some(n) if !n.is_empty() => Ok(n.to_string()),
        _ => bail!("{}: {} has no metadata.name; every object needs one", doc.locate("metadata.name"), doc.kind()),
    }
}

/// The object's own namespace, else `-n`, else `default`; an object that
/// names a namespace other than an explicit `-n` is an error, as in kubectl.
fn namespace_of(doc: &Document, flag: Option<&str>) -> Result<String> {
    match (doc.metadata_str("namespace").filter(|n| !n.is_empty()), flag) {
        (Some(own), Some(flag)) if own != flag => bail!(
            "{}: {} {:?} is in namespace {own:?}, which does not match -n {flag:?}",
            doc.locate("metadata.namespace"),
            doc.kind(),
            doc.metadata_str("name").unwrap_or("")
        ),
        (Some(own), _) => Ok(own.to_string()),
        (None, Some(flag)) => Ok(flag.to_string()),
        (None, None) => Ok("default".to_string()),
    }
}

/// Deserializes a document into a typed resource, naming the field that did
/// not fit. (The schema check has already caught what a person gets wrong.)
fn typed<T: serde::de::DeserializeOwned>(doc: &Document) -> Result<T> {
    typed_value(doc, &doc.value)
}

/// `typed` on a value derived from the document (defaults applied).
fn typed_value<T: serde::de::DeserializeOwned>(doc: &Document, value: &Value) -> Result<T> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        anyhow!(
            "{}: {} {path}: {}",
            doc.locate(&path),
            doc.kind(),
            crate::model::serde_in_words(&e.inner().to_string())
        )
    })
}

/// Feeds arbitrary bytes through every stage — the part before the first NUL
/// byte as ModelRouter input, the rest as live objects — and, when that
/// succeeds, through both printers and the differ. Errors are expected;
/// a panic or a hang is a bug. Shared by the fuzz target and its seed test.
pub fn exercise(data: &[u8]) {
    let (routers, live) = match data.iter().position(|b| *b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &data[..0]),
    };
    // Raw bytes reach the same decoding as files do (BOMs, invalid UTF-8).
    let source = |name: &str, bytes: &[u8]| {
        crate::input::decode(name, bytes.to_vec()).map(|text| Source { name: name.into(), text })
    };
    let Ok(router_source) = source("routers", routers) else { return };
    let live_sources: Vec<Source> = match source("live", live) {
        Ok(s) if !live.is_empty() => vec![s],
        Ok(_) => Vec::new(),
        Err(_) => return,
    };
    let _ = crate::krm::run(&router_source.text);
    for emit_scrape_annotations in [false, true] {
        let common = CommonArgs {
            files: Vec::new(),
            recursive: false,
            namespace: None,
            router_proxy_image: None,
            default_litellm_url: Some("http://litellm:4000".into()),
            emit_scrape_annotations,
            strict: false,
            crd: Vec::new(),
        };
        let Ok(items) =
            reconcile_sources(&common, std::slice::from_ref(&router_source), &live_sources, &mut std::io::sink())
        else {
            continue;
        };
        let objects: Vec<Value> = items.iter().map(|i| apply_ready(i.merged.clone())).collect();
        let _ = print_objects(&objects, Format::Yaml);
        let _ = print_objects(&objects, Format::Json);
        for item in &items {
            let _ = diff_object(item, Palette { color: false });
        }
    }
}
