//! The pipeline one command run drives: every stage in order, one
//! ModelRouter at a time. Pass 1 reads every input document and collects
//! what backends resolve against (InferenceServices, ModelPools); pass 2
//! parses, checks and types each ModelRouter (`documents`), renders it,
//! merges it with its live objects (`gateway` for a `dataPlane: Gateway`
//! router), checks the result and hands it on.
//!
//! Knows nothing of the command line: the commands hand it `Options`, the
//! sources, the live objects and a `Reporter`, and get each router's result.

mod documents;
pub mod gateway;

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context as _, Result};

use crate::input::{for_each_document_where, Identity, Source};
use crate::live::{LiveIndex, LiveObjects, LiveStore, ObjectKey};
use crate::model::{InferenceService, ModelPool, GROUP, GROUP_VERSION};
use crate::output::check::check_object;
use crate::reconcile::{controller_uid, reconcile_router, Reconciled};
use crate::render::gateway::GatewayRendered;
use crate::render::names::resource_name;
use crate::render::{render_router, Inventory, OperatorFlags, RenderedRouter, RouterInput};
use crate::report::Reporter;
use crate::validate::crd::ClusterCrds;
use crate::validate::Finding;
use documents::{classify, router_input, stored};
use gateway::reconcile_gateway_router;

/// What the pipeline needs besides its inputs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Options {
    /// `-n`: the namespace of objects that name none; an object that names
    /// another one is refused.
    pub namespace: Option<String>,
    /// The cluster's CRD files (`--crd`), judged by in place of the built-in
    /// schema.
    pub crd: Vec<PathBuf>,
    /// The operator's flags; `strict` also refuses fields the CRD does not
    /// know.
    pub flags: OperatorFlags,
}

impl Options {
    /// The namespace of objects that name none.
    pub fn default_namespace(&self) -> &str {
        self.namespace.as_deref().unwrap_or("default")
    }
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

/// The whole pipeline on sources already in memory, collected: parse,
/// validate, render, merge. The KRM function, the fuzz target and tests
/// enter here.
pub fn reconcile_sources(
    options: &Options,
    router_sources: &[Source],
    live_sources: &[Source],
    stderr: &mut dyn Write,
) -> Result<Vec<Reconciled>> {
    let live = LiveStore::from_sources(live_sources, options.default_namespace())?;
    let mut items = Vec::new();
    run(options, router_sources, &live, &mut Reporter::plain(stderr), &mut |result| {
        items.extend(result.items);
        Ok(())
    })?;
    Ok(items)
}

/// Pass 1 collects the inventory; pass 2 renders each ModelRouter in input
/// order and hands its result to `sink`.
pub fn run(
    options: &Options,
    router_sources: &[Source],
    live: &dyn LiveObjects,
    reporter: &mut Reporter,
    sink: &mut dyn FnMut(RouterResult) -> Result<()>,
) -> Result<()> {
    let mut files = Vec::new();
    for path in &options.crd {
        let source = crate::input::read_file(path)?;
        files.push((source.name, source.text));
    }
    let crds = ClusterCrds::read(&files)?;
    if let (Some(crd), Some(path)) = (&crds.router, options.crd.first()) {
        if let Some(w) = crd.compatibility_warning() {
            reporter.warn(&format!("{}: {w}", path.display()));
        }
    }
    let (inventory, not_routers) = scan_inventory(options, router_sources, &crds, reporter)?;
    let flags = &options.flags;
    let mut object_names = ObjectNames::default();
    for (i, source) in router_sources.iter().enumerate() {
        // Pass 1 has checked every other document; only routers are parsed
        // again, and documents pass 1 identified as others are not even read.
        for_each_document_where(
            source,
            |n| not_routers.contains(&(i, n)),
            |id, _| id.kind == "ModelRouter",
            |doc| {
                if let Some(("ModelRouter", namespace)) = classify(&doc, options)? {
                    let (origin, router) = router_input(&doc, namespace, options, crds.router.as_ref(), reporter)?;
                    let name = format!("{}/{}", router.namespace, router.name);
                    object_names.claim(&origin, &router)?;
                    let result = reconcile_one(&origin, router, &inventory, live, flags, reporter);
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

/// Pass 1: the InferenceServices and ModelPools of the inputs, after
/// checking every document that routerctl reads; and that there is a
/// ModelRouter to render at all.
/// Also returns the documents (source index, number) known not to be
/// ModelRouters, which pass 2 need not read again.
fn scan_inventory(
    options: &Options,
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
                match classify(&doc, options)? {
                    Some(("ModelRouter", _)) => routers.set(routers.get() + 1),
                    Some(("InferenceService", namespace)) => {
                        let isvc: InferenceService =
                            stored(&doc, crds.for_kind("InferenceService"), options, reporter)?;
                        inventory.add_inference_service(&namespace, isvc);
                    }
                    Some((_, namespace)) => {
                        let pool: ModelPool = stored(&doc, crds.for_kind("ModelPool"), options, reporter)?;
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
