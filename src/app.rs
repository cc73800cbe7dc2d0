//! The commands: gather inputs, render, (merge,) print. Reads and writes
//! nothing itself but the streams it is handed, so tests can drive it.

use std::io::{Read, Write};

use anyhow::{bail, Context as _, Result};

use crate::cli::{Cli, Command, CommonArgs};
use crate::input::{documents, read_sources, yaml_error, Document};
use crate::model::{apply_router_defaults, InferenceService, ModelPool, ModelRouter, GROUP, GROUP_VERSION};
use crate::output::print_objects;
use crate::render::{render_router, Inventory, OperatorFlags, RouterInput};

/// What a successful run prints and how it exits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub stdout: String,
    pub code: i32,
}

/// Runs one command. Warnings go to `stderr` as they arise; stdout is
/// returned whole, so a failing run prints nothing there.
pub fn run(cli: &Cli, stdin: &mut dyn Read, stderr: &mut dyn Write) -> Result<Outcome> {
    match &cli.command {
        Command::Render(args) => {
            if !args.live.is_empty() {
                bail!("--live is not supported by this version of routerctl");
            }
            let mut stdin_used = false;
            let inputs = gather(&args.common, stdin, &mut stdin_used)?;
            let flags = operator_flags(&args.common);
            let mut objects = Vec::new();
            for router in &inputs.routers {
                if router.router.spec.data_plane.as_deref() == Some("Gateway") {
                    warn(stderr, &format!(
                        "ModelRouter {}/{} uses dataPlane: Gateway; the operator provisions no router-proxy objects for it",
                        router.namespace, router.name
                    ));
                    continue;
                }
                let rendered = render_router(router, &inputs.inventory, &flags).with_context(|| {
                    format!("{}: ModelRouter {}/{}", router_origin(&inputs, router), router.namespace, router.name)
                })?;
                for w in &rendered.warnings {
                    warn(stderr, w);
                }
                objects.extend(rendered.objects);
            }
            Ok(Outcome { stdout: print_objects(&objects, args.output), code: 0 })
        }
        Command::Diff(_) => bail!("diff is not supported by this version of routerctl"),
    }
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
    pub routers: Vec<RouterInput>,
    pub origins: Vec<String>,
    pub inventory: Inventory,
}

fn router_origin(inputs: &Inputs, router: &RouterInput) -> String {
    inputs
        .routers
        .iter()
        .position(|r| std::ptr::eq(r, router))
        .and_then(|i| inputs.origins.get(i).cloned())
        .unwrap_or_default()
}

/// Reads the `-f` inputs and sorts their documents into routers and inventory.
pub fn gather(common: &CommonArgs, stdin: &mut dyn Read, stdin_used: &mut bool) -> Result<Inputs> {
    let sources = read_sources(&common.files, stdin, stdin_used)?;
    let mut inputs = Inputs { routers: Vec::new(), origins: Vec::new(), inventory: Inventory::default() };
    let mut any_document = false;
    for source in &sources {
        for doc in documents(source)? {
            any_document = true;
            // Other groups have kinds of the same name (KServe's
            // InferenceService): only this group's objects are ours.
            let group = doc.api_version().split('/').next().unwrap_or("");
            let ours = matches!(doc.kind(), "ModelRouter" | "InferenceService" | "ModelPool");
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
                    let mut router: ModelRouter = typed(&doc)?;
                    let name = object_name(&doc)?;
                    apply_router_defaults(&mut router);
                    let uid = router.metadata.uid.clone().filter(|u| !u.is_empty());
                    inputs.origins.push(doc.origin.to_string());
                    inputs.routers.push(RouterInput { router, name, namespace, uid });
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
