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
mod options;
mod ordered;
pub mod pass_through;

use std::collections::HashMap;
use std::io::Write;

use anyhow::{bail, Context as _, Result};

use crate::diagnostic::{diagnostics_of, rules, At, Diagnostic, KubectlFailure, Place, Refusal, Severity};
use crate::input::{document_texts, Document, DocumentText, Identity, Source};
use crate::kube::kinds::{Kind, GATEWAY_KINDS, PROXY_KINDS};
use crate::kube::names::{gateway_backend_name, gateway_resource_name, resource_name};
use crate::kube::ObjectKey;
use crate::live::{LiveIndex, LiveObjects, LiveStore, Planes};
use crate::model::{router_key, DataPlane, InferenceService, ModelPool, GROUP, GROUP_VERSION};
use crate::reconcile::{controller_uid, reconcile_router, Reconciled};
use crate::release::{entry, Change, EMIT_SCRAPE_ANNOTATIONS_FLAG};
use crate::render::gateway::GatewayRendered;
use crate::render::{render_router, Inventory, OperatorFlags, RenderedRouter, RouterInput};
use crate::report::Reporter;
use crate::validate::crd::{compatibility_warning, ClusterCrds, CrdSchema};
use crate::validate::object::check_object;
use documents::{classify, router_input, stored, RouterRead};
use gateway::reconcile_gateway_router;
pub use options::{Options, Settings};

/// What the operator writes for a router, by data plane.
pub enum Rendered {
    Proxy(Box<RenderedRouter>),
    Gateway(GatewayRendered),
}

/// Everything known about one ModelRouter after its reconcile.
pub struct RouterResult {
    /// Where the ModelRouter was read.
    pub origin: Place,
    pub router: RouterInput,
    /// What the operator writes for it; its objects have moved into `items`.
    pub rendered: Rendered,
    /// Its objects, rendered and merged with the live objects the operator
    /// owns for it, in the operator's order.
    pub items: Vec<Reconciled>,
    /// Live objects of the other data plane that this router controls: left
    /// behind by a `dataPlane` switch, and left running by the operator.
    pub orphans: Vec<ObjectKey>,
    /// What the live objects hold where the operator never repairs them
    /// (also said as warnings).
    pub drift: Vec<Diagnostic>,
    /// The ModelRouter's document, which places a finding at one of its
    /// fields (`Document::place`; its value is not kept, its positions are
    /// read when first asked for).
    pub document: Option<Document>,
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
    let finish = |result: RouterResult| Ok(result.items);
    run(options, router_sources, &live, &mut Reporter::plain(stderr), &finish, &mut |routed| {
        items.extend(routed);
        Ok(())
    })?;
    Ok(items)
}

/// Pass 1 collects the inventory; pass 2 reconciles the ModelRouters, on
/// `options.jobs` threads, and `finish` turns each result into what the
/// command keeps (on the same threads: printing is much of the work).
/// `sink` gets those in input order, and warnings and errors reach
/// `reporter` in the order one thread would meet them: the output and the
/// first error are the same for every number of jobs.
pub fn run<T: Send>(
    options: &Options,
    router_sources: &[Source],
    live: &dyn LiveObjects,
    reporter: &mut Reporter,
    finish: &(dyn Fn(RouterResult) -> Result<T> + Sync),
    sink: &mut dyn FnMut(T) -> Result<()>,
) -> Result<()> {
    run_input(options, Input::Sources(router_sources), live, reporter, finish, sink)
}

/// `run` on documents read already, each with its origin and the text its
/// positions are read off (the KRM function's items, each a source of its
/// own): a finding in one is placed in that text.
pub fn run_documents<T: Send>(
    options: &Options,
    documents: &[Document],
    live: &dyn LiveObjects,
    reporter: &mut Reporter,
    finish: &(dyn Fn(RouterResult) -> Result<T> + Sync),
    sink: &mut dyn FnMut(T) -> Result<()>,
) -> Result<()> {
    run_input(options, Input::Documents(documents), live, reporter, finish, sink)
}

/// What a run reads: sources, split into documents as it goes, or
/// documents read already.
#[derive(Clone, Copy)]
enum Input<'s> {
    Sources(&'s [Source]),
    Documents(&'s [Document]),
}

/// One document of the input: found in a source's text and read when a
/// pass needs it, or read already.
#[derive(Clone)]
enum Unit<'s> {
    Text(DocumentText<'s>),
    Read(&'s Document),
}

impl Unit<'_> {
    fn identity(&self) -> Result<Option<Identity>> {
        let doc = match self {
            Unit::Text(text) => return text.identity(),
            Unit::Read(doc) => doc,
        };
        let text = |v: Option<&str>| v.map(str::to_string);
        Ok(text(doc.str_field("apiVersion")).zip(text(doc.str_field("kind"))).map(|(api_version, kind)| Identity {
            api_version,
            kind,
            name: text(doc.metadata_str("name")),
            namespace: text(doc.metadata_str("namespace")),
        }))
    }

    /// Hands `f` its object, or each item of a `List` read from text.
    fn read(&self, mut f: impl FnMut(Document) -> Result<()>) -> Result<()> {
        match self {
            Unit::Text(text) => text.read(f),
            Unit::Read(doc) => f((*doc).clone()),
        }
    }
}

fn run_input<T: Send>(
    options: &Options,
    input: Input,
    live: &dyn LiveObjects,
    reporter: &mut Reporter,
    finish: &(dyn Fn(RouterResult) -> Result<T> + Sync),
    sink: &mut dyn FnMut(T) -> Result<()>,
) -> Result<()> {
    // With `keep_going`, each refused document or router is reported and
    // the run goes on; the last refusal ends it once every router is read.
    let mut held = Held::default();
    let result = run_stages(options, input, live, reporter, finish, sink, &mut held);
    if let Err(error) = &result {
        held.refused_in(error);
    }
    // A source that was refused and holds a template action is a Helm
    // chart's template: what it needs is `helm template`.
    if let Input::Sources(sources) = input {
        for source in sources.iter().filter(|s| held.files.contains(&s.name)) {
            if let Some((line, column)) = crate::input::template::first_action(&source.text) {
                reporter.error(template_hint(Place::at(source.name.as_str(), line, column)));
            }
        }
    }
    result
}

/// The note on a refused file that holds a Go template action.
fn template_hint(at: Place) -> Diagnostic {
    let message = "this file holds a Go template action ({{ … }}): it looks like a Helm chart's template, which \
                   routerctl cannot read as a manifest; run `helm template` first and give routerctl its output \
                   (helm template RELEASE CHART > rendered.yaml, then -f rendered.yaml)";
    Diagnostic::new(Severity::Note, rules::INPUT, message).at(at)
}

fn run_stages<T: Send>(
    options: &Options,
    input: Input,
    live: &dyn LiveObjects,
    reporter: &mut Reporter,
    finish: &(dyn Fn(RouterResult) -> Result<T> + Sync),
    sink: &mut dyn FnMut(T) -> Result<()>,
    held: &mut Held,
) -> Result<()> {
    let crds = options.crds.as_ref();
    for warning in flag_warnings(&options.flags) {
        reporter.warn(warning);
    }
    if let (Some(crd), Some(file)) = (&crds.router, &crds.router_file) {
        if let Some(w) = compatibility_warning(crd) {
            reporter.warn(Diagnostic::warning(rules::CRD, w).at(Place::file(file.clone())));
        }
    }
    let (inventory, router_texts) = scan_inventory(options, input, crds, reporter, held)?;
    if live.wants_planes() {
        expect_planes(options, &router_texts, live);
    }
    // A refused document may have held an InferenceService or a ModelPool
    // that a router's render would look for: the routers are then checked,
    // not rendered, so that nothing is said of a backend "not in the
    // inputs" that is.
    let checks_only = held.any();
    let pass = Pass2 {
        options,
        crd: crds.router.as_ref(),
        envoy: &crds.envoy,
        inventory: &inventory,
        live,
        finish,
        checks_only,
    };
    let threads = options.threads();
    let mut object_names = ObjectNames::default();
    // Each document is read, reconciled and finished on a worker; its steps
    // are replayed here in input order.
    ordered::for_each_ordered(
        &router_texts,
        threads,
        threads * 32,
        |text| pass.read(text),
        |steps| {
            // A refused router's later warnings would only bury its error,
            // as they do when a reconcile fails; the next router of a List
            // starts after its `Done`.
            let mut refused = false;
            for step in steps {
                match step {
                    Step::Warning(_) if refused => {}
                    Step::Warning(w) => reporter.warn(w),
                    Step::Refused(error) => held.report(reporter, &error),
                    Step::Claim(claim) => {
                        if let Err(error) = object_names.claim(claim) {
                            held.go_on(options, reporter, error)?;
                            refused = true;
                        }
                    }
                    Step::Done { .. } if refused => refused = false,
                    // kubectl's own stderr, as kubectl's: once, when the
                    // first router whose read drew it comes up.
                    Step::Notes(namespace) => {
                        if let Some(stderr) = live.take_notes(&namespace) {
                            reporter.kubectl_said(&format!("namespace {namespace}"), &stderr);
                        }
                    }
                    Step::Done { router, objects, kept } => {
                        reporter.router_done(&router, objects);
                        sink(kept)?;
                    }
                    Step::Failed(error) => held.go_on(options, reporter, error)?,
                }
            }
            Ok(())
        },
    )?;
    held.finish()
}

/// The refusals of a run that goes on past them (`Options::keep_going`):
/// each is reported as it comes but the last, which is held back to end
/// the run, as the one error of a run that stops would (written last in
/// `human`, after every other finding). And the files any refusal named.
#[derive(Default)]
struct Held {
    last: Option<anyhow::Error>,
    files: std::collections::BTreeSet<String>,
}

impl Held {
    /// Takes `error` and goes on, or, without `keep_going`, ends the run
    /// with it.
    fn go_on(&mut self, options: &Options, reporter: &mut Reporter, error: anyhow::Error) -> Result<()> {
        // A failed kubectl is the cluster read's, no router's: no read
        // starts after it.
        let kubectl = error.chain().any(|e| e.is::<KubectlFailure>());
        if !options.keep_going || kubectl {
            if let Some(earlier) = self.last.take() {
                self.report(reporter, &earlier);
            }
            return Err(error);
        }
        if let Some(earlier) = self.last.replace(error) {
            self.report(reporter, &earlier);
        }
        Ok(())
    }

    /// A refusal that does not end the run, written now.
    fn report(&mut self, reporter: &mut Reporter, error: &anyhow::Error) {
        self.refused_in(error);
        diagnostics_of(error).into_iter().for_each(|d| reporter.error(d));
    }

    /// Notes the files `error` names.
    fn refused_in(&mut self, error: &anyhow::Error) {
        self.files.extend(diagnostics_of(error).into_iter().filter_map(|d| d.place.map(|p| p.file)));
    }

    fn any(&self) -> bool {
        self.last.is_some()
    }

    /// The run's end: its last refusal, if it had any.
    fn finish(&mut self) -> Result<()> {
        self.last.take().map_or(Ok(()), Err)
    }
}

/// What reconciling one router came to, in the order a single thread
/// reports it. The steps that need the whole run (claiming object names,
/// kubectl's notes) wait for their turn, in input order.
enum Step<T> {
    Warning(Diagnostic),
    /// A refusal reported with the others of its router before the one
    /// that ends its steps.
    Refused(anyhow::Error),
    Claim(Claim),
    Notes(String),
    Done {
        router: String,
        objects: usize,
        kept: T,
    },
    Failed(anyhow::Error),
}

/// Pass 2's view of the run, shared by its threads.
struct Pass2<'a, T> {
    options: &'a Options,
    crd: Option<&'a CrdSchema>,
    /// Envoy CRDs given with `--crd`, for the Gateway objects.
    envoy: &'a [CrdSchema],
    inventory: &'a Inventory,
    live: &'a dyn LiveObjects,
    finish: &'a (dyn Fn(RouterResult) -> Result<T> + Sync),
    /// The inventory may lack what a refused document held: each router
    /// is read and checked, and neither rendered nor finished.
    checks_only: bool,
}

impl<T> Pass2<'_, T> {
    /// Every ModelRouter of one document (a `List` may hold several),
    /// through to the command's `finish`; the first error ends the steps.
    fn read(&self, text: &Unit) -> Vec<Step<T>> {
        let mut steps = Vec::new();
        let read = text.read(|doc| {
            let Some(("ModelRouter", namespace)) = classify(&doc, self.options)? else { return Ok(()) };
            let mut warnings = Vec::new();
            // What places the router's warnings that name no place: its
            // fields' positions (read again only when one is asked for).
            let locator = Document {
                origin: doc.origin.clone(),
                value: serde_json::Value::Null,
                placement: std::sync::Arc::clone(&doc.placement),
                path_prefix: doc.path_prefix.clone(),
            };
            let input = router_input(doc, namespace, self.options, self.crd, &mut warnings);
            steps.extend(warnings.drain(..).map(Step::Warning));
            let RouterRead { place: origin, input: router, refusals, operator_refuses } = input?;
            // Every stage says what it finds before the router is refused:
            // each refusal is reported, the last one ends the steps.
            let mut refusals: Vec<anyhow::Error> = refusals.into_iter().map(anyhow::Error::from).collect();
            let key = router.key();
            let label = format!("{}/{}", router.namespace, router.name);
            let namespace = router.namespace.clone();
            steps.push(Step::Claim(Claim::of(&origin, &router)));
            if operator_refuses {
                // Nothing would be rendered; what the render would assume
                // is still worth saying with it.
                if !self.checks_only {
                    let assumed = assumptions(&router, self.inventory, &self.options.flags);
                    refusals.extend(assumed_refusal(&origin, &key, assumed, &locator).map(anyhow::Error::from));
                }
                return refused(&mut steps, refusals);
            }
            if self.checks_only {
                return match refusals.is_empty() {
                    true => Ok(()),
                    false => refused(&mut steps, refusals),
                };
            }
            let result = reconcile_one(
                &origin,
                router,
                self.inventory,
                self.live,
                &self.options.flags,
                self.envoy,
                &mut warnings,
            );
            steps.push(Step::Notes(namespace));
            let mut result = match result {
                Ok(result) => result,
                Err(error) => {
                    refusals.push(error);
                    return refused(&mut steps, refusals);
                }
            };
            // What only `--strict` refuses (an assumption made offline)
            // comes back as errors among the warnings.
            let (errors, warnings): (Vec<_>, Vec<_>) =
                warnings.into_iter().partition(|w| w.severity == Severity::Error);
            refusals.extend(assumed_refusal(&origin, &key, errors, &locator).map(anyhow::Error::from));
            if !refusals.is_empty() {
                return refused(&mut steps, refusals);
            }
            // A router the API server would refuse ends the run; its
            // warnings would only bury the error.
            steps.extend(warnings.into_iter().map(|w| Step::Warning(placed(w, &locator, &key))));
            result.document = Some(locator);
            let objects = result.items.len();
            steps.push(Step::Done { router: label, objects, kept: (self.finish)(result)? });
            Ok(())
        });
        if let Err(error) = read {
            steps.push(Step::Failed(error));
        }
        steps
    }
}

/// Each refusal but the last as a step of its own; the last is the error
/// that ends the router's steps.
fn refused<T>(steps: &mut Vec<Step<T>>, mut refusals: Vec<anyhow::Error>) -> Result<()> {
    let last = refusals.pop().unwrap_or_else(|| anyhow::anyhow!("the router is refused"));
    steps.extend(refusals.into_iter().map(Step::Refused));
    Err(last)
}

/// What the render of a router the operator refuses would have had to
/// assume, as `--strict` errors (a referenced InferenceService not in the
/// inputs, the built-in default image): for a Proxy router, whose render
/// would stop at the refusal. (A Gateway router's InferenceServices are
/// looked up in the live objects too, which a refused router never reads.)
fn assumptions(router: &RouterInput, inventory: &Inventory, flags: &OperatorFlags) -> Vec<Diagnostic> {
    if !flags.strict || router.router.spec.data_plane == DataPlane::Gateway {
        return Vec::new();
    }
    crate::render::assumptions(router, inventory, flags)
}

/// The `--strict` refusal of what routerctl can only assume offline, each
/// finding placed at its field in the router's document.
fn assumed_refusal(origin: &Place, key: &ObjectKey, errors: Vec<Diagnostic>, router: &Document) -> Option<Refusal> {
    if errors.is_empty() {
        return None;
    }
    let heading = Diagnostic::error(rules::RENDER, "what routerctl can only assume offline (refused with --strict)")
        .at(origin.clone())
        .on(key.clone());
    Some(Refusal::new(heading, errors.into_iter().map(|d| placed(d, router, key)).collect()))
}

/// A warning of the router `key` that has no place of its own, placed in
/// its document `router` (CI annotations and editors need a file and a
/// line): at the field it names in the ModelRouter, else at the document.
/// A finding about another object (a live one's drift) is placed at the
/// document whose reconcile found it.
fn placed(mut d: Diagnostic, router: &Document, key: &ObjectKey) -> Diagnostic {
    if d.place.is_some() {
        return d;
    }
    let about_router = d.object.as_ref().is_none_or(|o| o == key);
    d.place = Some(match d.field.as_deref() {
        Some(field) if about_router => nearest_place(router, field),
        _ => router.origin.place(),
    });
    d
}

/// The place of `field` in `router`, else of the nearest field above it
/// that is written (a field to set, `spec.proxy.image`, is placed at
/// `spec.proxy` or `spec`), else the document's.
fn nearest_place(router: &Document, field: &str) -> Place {
    let mut path = field;
    loop {
        if router.spot(path).is_some() {
            return router.place(path);
        }
        match path.rfind(['.', '[']) {
            Some(cut) if cut > 0 => path = &path[..cut],
            _ => return router.place(field),
        }
    }
}

/// The object names a ModelRouter's objects would take.
struct Claim {
    origin: Place,
    namespace: String,
    router: String,
    /// What the objects are called, where in the spec the name comes from,
    /// and the name: one entry for the proxy objects (all named
    /// `<router>-router-proxy`), or for a Gateway router one per backend
    /// (its Backend and AIServiceBackend) and one for the route and its
    /// policies.
    objects: Vec<(&'static str, String, String)>,
}

impl Claim {
    fn of(origin: &Place, router: &RouterInput) -> Claim {
        let spec = &router.router.spec;
        let objects = if spec.data_plane == DataPlane::Gateway {
            let mut objects: Vec<_> = spec
                .backends
                .iter()
                .enumerate()
                .map(|(i, b)| {
                    ("Backend and AIServiceBackend", format!("spec.backends[{i}].name"), gateway_backend_name(&b.name))
                })
                .collect();
            objects.push(("AIGatewayRoute and policies", "metadata.name".into(), gateway_resource_name(&router.name)));
            objects
        } else {
            vec![("objects", "metadata.name".into(), resource_name(&router.name))]
        };
        Claim { origin: origin.clone(), namespace: router.namespace.clone(), router: router.name.clone(), objects }
    }
}

/// The object names of the routers rendered so far in one run, to refuse
/// two ModelRouters whose objects share a name (`a.b` and `a-b` both own
/// `a-b-router-proxy`; two Gateway routers with a backend `qwen` both write
/// `Backend qwen`): applied together, each would overwrite the other's
/// objects, and the two owners would fight over them forever.
#[derive(Default)]
struct ObjectNames {
    /// (namespace, what, object name) -> (origin, ModelRouter name).
    owners: HashMap<(String, &'static str, String), (Place, String)>,
    /// (namespace, ModelRouter name) -> where it was first given.
    routers: HashMap<(String, String), Place>,
}

impl ObjectNames {
    fn claim(&mut self, claim: Claim) -> Result<()> {
        // The same ModelRouter twice: applied together, the later replaces
        // the earlier, and the two renders contradict each other.
        let identity = (claim.namespace.clone(), claim.router.clone());
        if let Some(first) = self.routers.get(&identity) {
            let error = anyhow::anyhow!(
                "ModelRouter {}/{} is given twice, here and at {first}; applied together, the later replaces the \
                 earlier: remove one of them",
                identity.0,
                identity.1
            );
            // The sentence names the router itself.
            return Err(error.context(At::new(claim.origin, None)));
        }
        self.routers.insert(identity, claim.origin.clone());
        for (what, field, object) in claim.objects {
            let key = (claim.namespace.clone(), what, object);
            match self.owners.get(&key) {
                Some((first_origin, first)) if *first != claim.router => {
                    let why = if what == "objects" {
                        "(a dot in a ModelRouter's name becomes a dash in its objects' names)"
                    } else {
                        "(the Gateway objects are named after the backend or the router, dots as dashes)"
                    };
                    let fix = if field.starts_with("spec.backends") {
                        "rename one of the two backends"
                    } else {
                        "rename one of the two ModelRouters"
                    };
                    let msg = format!(
                        "its {what} are named {object:?}, as are those of ModelRouter {ns}/{first} ({first_origin}) \
                         {why}; applied together, each would overwrite the other's objects and their owners would \
                         fight over them forever: {fix}",
                        ns = key.0,
                        object = key.2,
                    );
                    let finding = Diagnostic::error(rules::COLLISION, msg)
                        .at(claim.origin)
                        .on(router_key(&key.0, &claim.router))
                        .field(field);
                    return Err(finding.into_error());
                }
                Some(_) => {}
                None => {
                    self.owners.insert(key, (claim.origin.clone(), claim.router.clone()));
                }
            }
        }
        Ok(())
    }
}

/// Validates, renders and merges one ModelRouter; its warnings go to
/// `warnings`.
fn reconcile_one(
    origin: &Place,
    mut router: RouterInput,
    inventory: &Inventory,
    live: &dyn LiveObjects,
    flags: &OperatorFlags,
    envoy: &[CrdSchema],
    warnings: &mut Vec<Diagnostic>,
) -> Result<RouterResult> {
    let at = At::new(origin.clone(), Some(router.key()));
    if router.router.spec.data_plane == DataPlane::Gateway {
        let outcome = reconcile_gateway_router(&at, &mut router, inventory, live, flags, envoy)?;
        check_items(origin, &router, &outcome.items)?;
        warnings.extend(outcome.warnings);
        let orphans = orphans(&router, live, ("router-proxy", &PROXY_KINDS), &[resource_name(&router.name)], warnings)?;
        return Ok(RouterResult {
            origin: origin.clone(),
            router,
            rendered: Rendered::Gateway(outcome.rendered),
            items: outcome.items,
            orphans,
            drift: Vec::new(),
            document: None,
        });
    }
    // Every live object this router can own, read (and parsed) once.
    let (owned, live_uid) = owned_live_objects(&router, live).with_context(|| At::new(origin.clone(), None))?;
    if router.uid.is_none() {
        router.uid = live_uid;
    }
    let mut rendered = render_router(&router, inventory, flags).with_context(|| at.clone())?;
    let router_warnings = rendered.warnings.clone();
    let mut drift = Vec::new();
    let items = reconcile_router(&router, &mut rendered, owned, &mut drift).with_context(|| at.clone())?;
    check_items(origin, &router, &items)?;
    if flags.strict && !drift.is_empty() {
        let heading = Diagnostic::error(
            rules::DRIFT,
            "live objects drifted where the operator never repairs them (refused with --strict)",
        )
        .at(origin.clone())
        .on(router.key());
        let findings = drift.iter().map(|d| Diagnostic { severity: Severity::Error, ..d.clone() }).collect();
        return Err(Refusal::new(heading, findings).into());
    }
    warnings.extend(router_warnings);
    warnings.extend(drift.iter().cloned());
    // The Gateway objects it would have had: its route and policies, and a
    // Backend and AIServiceBackend per backend it has now.
    let mut names: Vec<String> = router.router.spec.backends.iter().map(|b| gateway_backend_name(&b.name)).collect();
    names.push(gateway_resource_name(&router.name));
    let orphans = orphans(&router, live, (DataPlane::Gateway.label(), &GATEWAY_KINDS), &names, warnings)?;
    Ok(RouterResult {
        origin: origin.clone(),
        router,
        rendered: Rendered::Proxy(Box::new(rendered)),
        items,
        orphans,
        drift,
        document: None,
    })
}

/// The live objects of `kinds` named one of `names` that this router
/// controls: what a switch of `dataPlane` left behind. Said in a warning,
/// with the command that removes them.
fn orphans(
    router: &RouterInput,
    live: &dyn LiveObjects,
    (plane, kinds): (&str, &[Kind]),
    names: &[String],
    warnings: &mut Vec<Diagnostic>,
) -> Result<Vec<ObjectKey>> {
    let mut found = Vec::new();
    for kind in kinds {
        for name in names {
            let key = kind.key(&router.namespace, name);
            if let Some(obj) = live.get(&key)? {
                if controller_uid(&obj, &router.name).is_some() {
                    found.push((key, kind.resource));
                }
            }
        }
    }
    if !found.is_empty() {
        let listed: Vec<String> = found.iter().map(|(k, _)| format!("{} {}", k.kind, k.name)).collect();
        let targets: Vec<String> = found.iter().map(|(k, resource)| format!("{resource}/{}", k.name)).collect();
        let msg = format!(
            "live {} of the {plane} data plane it left are still controlled by it; the operator neither updates nor \
             deletes them (they go with the ModelRouter): `kubectl delete -n {} {}` removes them",
            listed.join(", "),
            router.namespace,
            targets.join(" ")
        );
        warnings.push(Diagnostic::warning(rules::ORPHAN, msg).on(router.key()));
    }
    Ok(found.into_iter().map(|(k, _)| k).collect())
}

/// Checks what is about to be printed.
fn check_items(origin: &Place, router: &RouterInput, items: &[Reconciled]) -> Result<()> {
    for item in items {
        let findings = check_object(&item.merged);
        if !findings.is_empty() {
            let message = format!("{}: the API server would refuse the result", item.key);
            let heading = Diagnostic::error(rules::OBJECT, message).at(origin.clone()).on(router.key());
            let findings =
                findings.iter().map(|f| Diagnostic::error(rules::OBJECT, f.message.as_str()).field(f.path.as_str()));
            let refusal = Refusal::new(heading, findings.collect()).about(item.key.clone());
            return Err(refusal.context("the API server would refuse the result").into());
        }
    }
    Ok(())
}

/// The live objects with the names and kinds the operator owns for `router`.
/// A ModelRouter read from git has no uid; these carry it in their
/// controller reference.
fn owned_live_objects(router: &RouterInput, live: &dyn LiveObjects) -> Result<(LiveIndex, Option<String>)> {
    let name = resource_name(&router.name);
    let mut owned = LiveIndex::default();
    let mut uid: Option<(String, ObjectKey)> = None;
    for kind in PROXY_KINDS {
        let key = kind.key(&router.namespace, &name);
        if let Some(obj) = live.get(&key)? {
            if let Some(this) = controller_uid(&obj, &router.name) {
                match &uid {
                    // Two ModelRouters of one name (deleted and recreated)
                    // cannot both own the objects: one reference is stale.
                    Some((first, first_key)) if *first != this => {
                        let message = format!(
                            "the live objects disagree on its uid: {first_key} names {first}, {key} names {this} (the \
                             ModelRouter was deleted and recreated?); the operator refuses the one another uid \
                             controls: delete the stale object"
                        );
                        return Err(Diagnostic::error(rules::DRIFT, message).on(router.key()).into_error());
                    }
                    Some(_) => {}
                    None => uid = Some((this, key.clone())),
                }
            }
            owned.insert_keyed(key, obj);
        }
    }
    Ok((owned, uid.map(|(u, _)| u)))
}

/// What the operator's flags do not do in the release rendered as: said by
/// every front end (the command line and the KRM function alike), once a
/// run.
fn flag_warnings(flags: &OperatorFlags) -> Vec<Diagnostic> {
    let release = flags.release;
    let mut warnings = Vec::new();
    if flags.emit_scrape_annotations && release < EMIT_SCRAPE_ANNOTATIONS_FLAG {
        warnings.push(Diagnostic::warning(
            rules::RELEASE,
            format!(
                "--emit-scrape-annotations: operator {release} has no such flag (it came in \
                 {EMIT_SCRAPE_ANNOTATIONS_FLAG}, for InferenceService pods): its manager exits at start with \
                 \"flag provided but not defined\"; rendered as without the flag"
            ),
        ));
    } else if flags.emit_scrape_annotations && !release.has(Change::PodMetadata) {
        warnings.push(Diagnostic::warning(
            rules::RELEASE,
            format!(
                "--emit-scrape-annotations: operator {release} puts scrape annotations on InferenceService pods only \
                 (from {EMIT_SCRAPE_ANNOTATIONS_FLAG}), never on router proxies; none are rendered"
            ),
        ));
    }
    warnings
}

/// Tells a source that lists by kind which data planes each namespace's
/// routers use, before the first look-up. A document that does not read is
/// skipped here: pass 2 reports it.
fn expect_planes(options: &Options, router_texts: &[Unit], live: &dyn LiveObjects) {
    let gateway_known = options.flags.release.has(Change::GatewayDataPlane);
    let mut planes: HashMap<String, Planes> = HashMap::new();
    for text in router_texts {
        let _ = text.read(|doc| {
            if let Ok(Some(("ModelRouter", namespace))) = classify(&doc, options) {
                let gateway = gateway_known
                    && doc.value.pointer("/spec/dataPlane").and_then(serde_json::Value::as_str)
                        == Some(DataPlane::Gateway.label());
                let entry = planes.entry(namespace).or_default();
                entry.gateway |= gateway;
                entry.proxy |= !gateway;
            }
            Ok(())
        });
    }
    for (namespace, planes) in planes {
        live.expect(&namespace, planes);
    }
}

/// Pass 1: the InferenceServices and ModelPools of the inputs, after
/// checking every document that routerctl reads; and that there is a
/// ModelRouter to render at all. Also returns the documents that hold
/// ModelRouters, for pass 2: ModelRouters are only counted here, from their
/// identity alone where it can be read without building the document, and
/// other groups' objects are never built.
fn scan_inventory<'s>(
    options: &Options,
    input: Input<'s>,
    crds: &ClusterCrds,
    reporter: &mut Reporter,
    held: &mut Held,
) -> Result<(Inventory, Vec<Unit<'s>>)> {
    let mut inventory = Inventory::default();
    let mut router_texts = Vec::new();
    let mut documents = 0;
    let mut scan = |text: Unit<'s>, reporter: &mut Reporter| -> Result<()> {
        documents += 1;
        match text.identity()? {
            Some(id) if !id.is_list() && id.kind == "ModelRouter" => {
                router_texts.push(text);
                return Ok(());
            }
            Some(id) if !id.is_list() && id.api_version.split('/').next() != Some(GROUP) => return Ok(()),
            _ => {}
        }
        let mut holds_router = false;
        text.read(|mut doc| {
            let mut warnings = Vec::new();
            match classify(&doc, options)? {
                Some(("ModelRouter", _)) => holds_router = true,
                Some(("InferenceService", namespace)) => {
                    let isvc: InferenceService =
                        stored(&mut doc, crds.for_kind("InferenceService"), options, &mut warnings)?;
                    inventory.add_inference_service(&namespace, isvc);
                }
                Some((_, namespace)) => {
                    let pool: ModelPool = stored(&mut doc, crds.for_kind("ModelPool"), options, &mut warnings)?;
                    let release = options.flags.release;
                    if !release.has(Change::ModelPoolActivation) {
                        let msg = format!(
                            "operator {release} has no ModelPools ({}); its members are routed as plain backends",
                            entry(Change::ModelPoolActivation).arrival()
                        );
                        let pool_key = ObjectKey {
                            api_version: GROUP_VERSION.to_string(),
                            kind: "ModelPool".to_string(),
                            namespace: namespace.clone(),
                            name: pool.metadata.name.clone().unwrap_or_default(),
                        };
                        warnings.push(Diagnostic::warning(rules::RELEASE, msg).at(doc.origin.place()).on(pool_key));
                    }
                    inventory.add_pool(&namespace, pool);
                }
                None => {}
            }
            warnings.into_iter().for_each(|w| reporter.warn(w));
            Ok(())
        })?;
        if holds_router {
            router_texts.push(text);
        }
        Ok(())
    };
    // A source is split when its turn comes: an earlier source's bad
    // document is found first. With `keep_going` a bad document (or a
    // source that does not split) is reported and the next one read.
    let names: Vec<&str> = match input {
        Input::Sources(sources) => {
            for source in sources {
                match document_texts(source) {
                    Ok(texts) => {
                        for text in texts {
                            if let Err(error) = scan(Unit::Text(text), reporter) {
                                held.go_on(options, reporter, error)?;
                            }
                        }
                    }
                    Err(error) => held.go_on(options, reporter, error)?,
                }
            }
            sources.iter().map(|s| s.name.as_str()).collect()
        }
        Input::Documents(docs) => {
            for doc in docs {
                if let Err(error) = scan(Unit::Read(doc), reporter) {
                    held.go_on(options, reporter, error)?;
                }
            }
            docs.iter().map(|d| d.origin.source.as_str()).collect()
        }
    };
    // A refused document may have been the router: its refusal says more.
    if router_texts.is_empty() && !held.any() && !options.routers_optional {
        let what =
            if documents > 0 { "no ModelRouter among the input documents" } else { "the inputs hold no documents" };
        bail!("{what} ({}); routerctl renders {GROUP_VERSION} ModelRouter objects", names.join(", "));
    }
    Ok((inventory, router_texts))
}
