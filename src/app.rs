//! The commands: gather inputs, render, (merge,) print. Reads and writes
//! nothing itself but the streams it is handed, so tests can drive it.

use std::io::{Read, Write};

use anyhow::{bail, Context as _, Result};

use std::path::PathBuf;

use serde_json::Value;

use crate::cli::{Cli, ColorChoice, Command, CommonArgs};
use crate::diff::{diff_object, Palette};
use crate::input::{documents, read_sources, yaml_error, Document, Source};
use crate::model::{apply_router_defaults, InferenceService, ModelPool, ModelRouter, GROUP, GROUP_VERSION};
use crate::output::print_objects;
use crate::reconcile::server_fields::strip;
use crate::reconcile::{controller_uid, reconcile_router, LiveIndex, ObjectKey, Reconciled};
use crate::render::names::resource_name;
use crate::render::{render_router, Inventory, OperatorFlags, RouterInput};
use crate::validate::operator::validate_model_router;
use crate::validate::output::check_object;
use crate::validate::schema::{check_model_router, suggest};
use crate::validate::{Finding, Severity};

/// What a successful run prints and how it exits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub stdout: String,
    pub code: i32,
}

/// What the process knows about its terminal, for `--color auto`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Terminal {
    pub stdout_is_tty: bool,
    /// `NO_COLOR` is set to a non-empty value.
    pub no_color: bool,
}

/// Runs one command. Warnings go to `stderr` as they arise; stdout is
/// returned whole, so a failing run prints nothing there.
pub fn run(cli: &Cli, stdin: &mut dyn Read, stderr: &mut dyn Write, terminal: Terminal) -> Result<Outcome> {
    match &cli.command {
        Command::Render(args) => {
            let items = reconcile_all(&args.common, &args.live, stdin, stderr)?;
            let objects: Vec<Value> = items.into_iter().map(|item| apply_ready(item.merged)).collect();
            Ok(Outcome { stdout: print_objects(&objects, args.output), code: 0 })
        }
        Command::Diff(args) => {
            let items = reconcile_all(&args.common, &args.live, stdin, stderr)?;
            let color = match args.color {
                ColorChoice::Always => true,
                ColorChoice::Never => false,
                ColorChoice::Auto => terminal.stdout_is_tty && !terminal.no_color,
            };
            let diffs: Vec<String> = items.iter().filter_map(|item| diff_object(item, Palette { color })).collect();
            let code = if diffs.is_empty() { 0 } else { 1 };
            Ok(Outcome { stdout: diffs.concat(), code })
        }
    }
}

fn apply_ready(mut obj: Value) -> Value {
    strip(&mut obj);
    obj
}

/// Renders every ModelRouter of the inputs and, with live objects, merges
/// each rendered object into its live counterpart.
fn reconcile_all(
    common: &CommonArgs,
    live_paths: &[PathBuf],
    stdin: &mut dyn Read,
    stderr: &mut dyn Write,
) -> Result<Vec<Reconciled>> {
    let mut stdin_used = false;
    let router_sources = read_sources(&common.files, stdin, &mut stdin_used)?;
    let live_sources = read_sources(live_paths, stdin, &mut stdin_used)?;
    reconcile_sources(common, &router_sources, &live_sources, stderr)
}

/// The whole pipeline on sources already in memory: parse, validate,
/// render, merge. The fuzz target and its seed-corpus test enter here.
pub fn reconcile_sources(
    common: &CommonArgs,
    router_sources: &[Source],
    live_sources: &[Source],
    stderr: &mut dyn Write,
) -> Result<Vec<Reconciled>> {
    let inputs = gather(common, router_sources)?;
    for w in &inputs.warnings {
        warn(stderr, w);
    }
    let live = read_live(live_sources, common.namespace.as_deref().unwrap_or("default"))?;
    let flags = operator_flags(common);
    let mut items = Vec::new();
    for (origin, router) in &inputs.routers {
        let context = || format!("{origin}: ModelRouter {}/{}", router.namespace, router.name);
        let findings = validate_model_router(&router.router);
        if !findings.is_empty() {
            bail!("{}: the operator refuses this ModelRouter:\n{}", context(), bullet_list(&findings));
        }
        if router.router.spec.data_plane.as_deref() == Some("Gateway") {
            warn(
                stderr,
                &format!(
                    "ModelRouter {}/{} uses dataPlane: Gateway; the operator provisions no router-proxy objects for it",
                    router.namespace, router.name
                ),
            );
            continue;
        }

        let mut router = router.clone();
        if router.uid.is_none() {
            router.uid = live_uid(&router, &live);
        }
        let rendered = render_router(&router, &inputs.inventory, &flags).with_context(context)?;
        let mut warnings = rendered.warnings.clone();
        let reconciled = reconcile_router(&router, &rendered, &live, &mut warnings).with_context(context)?;
        for item in &reconciled {
            let findings = check_object(&item.merged);
            if !findings.is_empty() {
                bail!(
                    "{}: {}: the API server would refuse the result:\n{}",
                    context(),
                    item.key,
                    bullet_list(&findings)
                );
            }
        }
        items.extend(reconciled);
        for w in &warnings {
            warn(stderr, w);
        }
    }
    Ok(items)
}

/// A ModelRouter read from git has no uid; its owned live objects carry it
/// in their controller reference.
fn live_uid(router: &RouterInput, live: &LiveIndex) -> Option<String> {
    let name = resource_name(&router.name);
    OWNED_KINDS.iter().find_map(|(api_version, kind)| {
        let key = ObjectKey {
            api_version: api_version.to_string(),
            kind: kind.to_string(),
            namespace: router.namespace.clone(),
            name: name.clone(),
        };
        live.get(&key).and_then(|obj| controller_uid(obj, &router.name))
    })
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

/// Reads `--live` inputs into an index; objects without a namespace take
/// `-n` (or `default`), as kubectl would have printed them.
fn read_live(sources: &[Source], namespace: &str) -> Result<LiveIndex> {
    let mut index = LiveIndex::default();
    for source in sources {
        for doc in documents(source)? {
            index.insert(doc.value, namespace);
        }
    }
    Ok(index)
}

/// Findings one per line, indented under the message that introduces them.
fn bullet_list<'a>(findings: impl IntoIterator<Item = &'a Finding>) -> String {
    findings.into_iter().map(|f| format!("  {f}")).collect::<Vec<_>>().join("\n")
}

fn warn(stderr: &mut dyn Write, message: &str) {
    // A closed stderr must not turn a good run into a failed one.
    let _ = writeln!(stderr, "warning: {message}");
}

fn operator_flags(common: &CommonArgs) -> OperatorFlags {
    OperatorFlags {
        router_proxy_image: common.router_proxy_image.clone(),
        default_litellm_url: common.default_litellm_url.clone(),
        emit_scrape_annotations: common.emit_scrape_annotations,
        strict: common.strict,
    }
}

/// The ModelRouters to render (in input order) and what they resolve against.
pub struct Inputs {
    /// Each router with the origin of its document, for messages.
    pub routers: Vec<(String, RouterInput)>,
    pub inventory: Inventory,
    /// Findings that do not stop the run.
    pub warnings: Vec<String>,
}

/// Reads the `-f` inputs and sorts their documents into routers and inventory.
pub fn gather(common: &CommonArgs, sources: &[Source]) -> Result<Inputs> {
    let mut inputs = Inputs { routers: Vec::new(), inventory: Inventory::default(), warnings: Vec::new() };
    let mut any_document = false;
    for source in sources {
        for doc in documents(source)? {
            any_document = true;
            // Other groups have kinds of the same name (KServe's
            // InferenceService): only this group's objects are ours.
            let group = doc.api_version().split('/').next().unwrap_or("");
            let ours = matches!(doc.kind(), "ModelRouter" | "InferenceService" | "ModelPool");
            if !ours && group == GROUP {
                // LLMKube has other kinds (Model, ...); a near miss of ours is a typo.
                if let Some(near) = suggest(doc.kind(), &["ModelRouter", "InferenceService", "ModelPool"]) {
                    bail!("{}: LLMKube has no kind {:?}; did you mean {near}?", doc.origin, doc.kind());
                }
            }
            if !ours || (group != GROUP && doc.kind() != "ModelRouter") {
                continue;
            }
            if doc.api_version() != GROUP_VERSION {
                bail!(
                    "{}: {} has apiVersion {:?}; routerctl reads {GROUP_VERSION}",
                    doc.origin,
                    doc.kind(),
                    doc.api_version()
                );
            }
            let namespace = namespace_of(&doc, common.namespace.as_deref())?;
            match doc.kind() {
                "ModelRouter" => {
                    let name = match doc.metadata_str("name") {
                        Some(n) if !n.is_empty() => format!("{n:?}"),
                        _ => "(without a name)".to_string(),
                    };
                    let (errors, unknown): (Vec<_>, Vec<_>) =
                        check_model_router(&doc.value).into_iter().partition(|f| f.severity == Severity::Error);
                    if !errors.is_empty() {
                        bail!(
                            "{}: ModelRouter {name} does not fit the ModelRouter CRD schema; the API server refuses it:\n{}",
                            doc.origin,
                            bullet_list(errors.iter().chain(&unknown))
                        );
                    }
                    if common.strict && !unknown.is_empty() {
                        bail!(
                            "{}: ModelRouter {name} has fields the CRD does not know (refused with --strict):\n{}",
                            doc.origin,
                            bullet_list(&unknown)
                        );
                    }
                    for w in unknown {
                        inputs.warnings.push(format!("{}: {w} (the API server drops unknown fields)", doc.origin));
                    }
                    let mut router: ModelRouter = typed(&doc)?;
                    let name = object_name(&doc)?;
                    apply_router_defaults(&mut router);
                    let uid = router.metadata.uid.clone().filter(|u| !u.is_empty());
                    inputs.routers.push((doc.origin.to_string(), RouterInput { router, name, namespace, uid }));
                }
                "InferenceService" => {
                    object_name(&doc)?;
                    let isvc: InferenceService = typed(&doc)?;
                    inputs.inventory.add_inference_service(&namespace, isvc);
                }
                _ => {
                    object_name(&doc)?;
                    let pool: ModelPool = typed(&doc)?;
                    inputs.inventory.add_pool(&namespace, pool);
                }
            }
        }
    }
    if inputs.routers.is_empty() {
        let what =
            if any_document { "no ModelRouter among the input documents" } else { "the inputs hold no documents" };
        let names: Vec<_> = sources.iter().map(|s| s.name.as_str()).collect();
        bail!("{what} ({}); routerctl renders {GROUP_VERSION} ModelRouter objects", names.join(", "));
    }
    Ok(inputs)
}

fn object_name(doc: &Document) -> Result<String> {
    match doc.metadata_str("name") {
        Some(n) if !n.is_empty() => Ok(n.to_string()),
        _ => bail!("{}: {} has no metadata.name; every object needs one", doc.origin, doc.kind()),
    }
}

/// The object's own namespace, else `-n`, else `default`; an object that
/// names a namespace other than an explicit `-n` is an error, as in kubectl.
fn namespace_of(doc: &Document, flag: Option<&str>) -> Result<String> {
    match (doc.metadata_str("namespace").filter(|n| !n.is_empty()), flag) {
        (Some(own), Some(flag)) if own != flag => bail!(
            "{}: {} {:?} is in namespace {own:?}, which does not match -n {flag:?}",
            doc.origin,
            doc.kind(),
            doc.metadata_str("name").unwrap_or("")
        ),
        (Some(own), _) => Ok(own.to_string()),
        (None, Some(flag)) => Ok(flag.to_string()),
        (None, None) => Ok("default".to_string()),
    }
}

/// Deserializes a document into a typed resource, naming the field that
/// did not fit (and its line, when the document has source text).
fn typed<T: serde::de::DeserializeOwned>(doc: &Document) -> Result<T> {
    if doc.text.is_empty() {
        return serde_path_to_error::deserialize(&doc.value)
            .map_err(|e| anyhow::anyhow!("{}: {}: {}", doc.origin, e.path(), e.inner()));
    }
    serde_path_to_error::deserialize(serde_yaml::Deserializer::from_str(&doc.text)).map_err(|e| {
        let path = e.path().to_string();
        let inner = yaml_error(&doc.origin, doc.text_line, e.inner());
        anyhow::anyhow!("{inner} (field {path})")
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
    let source =
        |name: &str, bytes: &[u8]| Source { name: name.into(), text: String::from_utf8_lossy(bytes).into_owned() };
    let live_sources: Vec<Source> = if live.is_empty() { Vec::new() } else { vec![source("live", live)] };
    for emit_scrape_annotations in [false, true] {
        let common = CommonArgs {
            files: Vec::new(),
            namespace: None,
            router_proxy_image: None,
            default_litellm_url: Some("http://litellm:4000".into()),
            emit_scrape_annotations,
            strict: false,
        };
        let Ok(items) = reconcile_sources(&common, &[source("routers", routers)], &live_sources, &mut std::io::sink())
        else {
            continue;
        };
        let objects: Vec<Value> = items.iter().map(|i| apply_ready(i.merged.clone())).collect();
        let _ = print_objects(&objects, crate::output::Format::Yaml);
        let _ = print_objects(&objects, crate::output::Format::Json);
        for item in &items {
            let _ = diff_object(item, Palette { color: false });
        }
    }
}
