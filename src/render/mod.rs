//! The render path: a defaulted ModelRouter → the objects the operator would
//! create for it, in the operator's reconcile order.
//!
//! Everything here is pure: values in, values out. Output objects are built
//! directly as JSON trees (the one generic representation the reconcile and
//! output stages work on), with the fields and omissions of the Kubernetes
//! API types the operator fills in.

pub mod config;
mod configmap;
mod deployment;
pub mod gateway;
mod rbac;
mod service;

use std::collections::BTreeMap;

use anyhow::Result;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;
use serde_json::{Map, Value};

use crate::diagnostic::{rules, Diagnostic, Refusal};
use crate::kube::{names, ObjectKey};
use crate::model::{router_key, InferenceService, ModelPool, ModelRouter, GROUP_VERSION};
use crate::release::Release;
pub use config::Compiled;
pub use deployment::{pod_metadata, record_value, PodMetadata, DEFAULT_IMAGE as DEFAULT_PROXY_IMAGE};

/// The operator routerctl renders as: its release and the command-line
/// flags that change what it writes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OperatorFlags {
    /// The release whose reconcile is reproduced (`--operator-version`).
    pub release: Release,
    /// `--router-proxy-image`: the image when `spec.proxy.image` is unset.
    pub router_proxy_image: Option<String>,
    /// `--default-litellm-url`: the address of litellm backends without a url.
    pub default_litellm_url: Option<String>,
    /// `--emit-scrape-annotations`.
    pub emit_scrape_annotations: bool,
    /// Refuse to assume what only a cluster would know (a missing
    /// InferenceService) instead of warning.
    pub strict: bool,
}

/// The InferenceServices and ModelPools routerctl was given, standing in for
/// the operator's view of the cluster. Entries keep input order (the operator
/// takes the first ModelPool that lists a member).
#[derive(Debug, Clone, Default)]
pub struct Inventory {
    inference_services: Vec<(String, InferenceService)>,
    pools: Vec<(String, ModelPool)>,
}

impl Inventory {
    pub fn add_inference_service(&mut self, namespace: &str, isvc: InferenceService) {
        self.inference_services.push((namespace.to_string(), isvc));
    }

    pub fn add_pool(&mut self, namespace: &str, pool: ModelPool) {
        self.pools.push((namespace.to_string(), pool));
    }

    pub fn inference_service(&self, namespace: &str, name: &str) -> Option<&InferenceService> {
        self.inference_services
            .iter()
            .find(|(ns, i)| ns == namespace && i.metadata.name.as_deref() == Some(name))
            .map(|(_, i)| i)
    }

    pub fn pools_in<'a>(&'a self, namespace: &'a str) -> impl Iterator<Item = &'a ModelPool> + 'a {
        self.pools.iter().filter(move |(ns, _)| ns == namespace).map(|(_, p)| p)
    }
}

/// A ModelRouter ready to render: defaulted, with its namespace settled.
#[derive(Debug, Clone)]
pub struct RouterInput {
    pub router: ModelRouter,
    pub name: String,
    pub namespace: String,
    /// The ModelRouter's uid, when the input or a live object knows it.
    pub uid: Option<String>,
}

impl RouterInput {
    /// The ModelRouter's identity, for findings about it.
    pub fn key(&self) -> ObjectKey {
        router_key(&self.namespace, &self.name)
    }
}

/// What the operator writes for one ModelRouter.
#[derive(Debug, Clone)]
pub struct RenderedRouter {
    pub compiled: Compiled,
    /// The pod-template metadata plan the update path needs.
    pub pod_metadata: PodMetadata,
    /// ConfigMap, [ServiceAccount, Role, RoleBinding,] Deployment, Service.
    pub objects: Vec<Value>,
    /// What the operator would log, or what routerctl had to assume.
    pub warnings: Vec<Diagnostic>,
    /// The release it was rendered as: its update path is that release's.
    pub release: Release,
}

/// Renders one Proxy-mode ModelRouter. `dataPlane: Gateway` routers get no
/// proxy objects; [`gateway`] renders theirs.
pub fn render_router(input: &RouterInput, inventory: &Inventory, flags: &OperatorFlags) -> Result<RenderedRouter> {
    let compiled = config::compile(&input.router, &input.namespace, inventory, flags)?;
    let mut objects = vec![configmap::build(input, &compiled)];
    if compiled.has_pools {
        objects.extend(rbac::build(input));
    }
    let mut warnings = compiled.warnings.clone();
    if let Some(msg) = default_image_note(input, flags) {
        if flags.strict {
            let msg = format!("{msg}; set one of them (refused with --strict)");
            return Err(Refusal::one(Diagnostic::error(rules::RENDER, msg).on(input.key())).into());
        }
        warnings.push(Diagnostic::warning(rules::RENDER, msg).on(input.key()));
    }
    let requested = input.router.spec.proxy.as_ref().and_then(|p| p.replicas);
    if let Some(n) = requested.filter(|n| compiled.has_pools && *n > 1) {
        let msg = format!(
            "spec.proxy.replicas is {n}, but a router with pooled backends runs one replica (ModelPool activation needs a single proxy)"
        );
        warnings.push(Diagnostic::warning(rules::RENDER, msg).on(input.key()));
    }
    let (deployment, pod_metadata) = deployment::build(input, &compiled, flags)?;
    objects.push(deployment);
    objects.push(service::build(input));
    Ok(RenderedRouter { compiled, pod_metadata, objects, warnings, release: flags.release })
}

/// Said when the proxy image falls back to the built-in default: a cluster
/// almost never runs that tag, so the render would silently differ from the
/// operator's. An empty flag counts as unset, as in the operator.
fn default_image_note(input: &RouterInput, flags: &OperatorFlags) -> Option<String> {
    let set = |image: Option<&str>| image.is_some_and(|i| !i.is_empty());
    let own = input.router.spec.proxy.as_ref().and_then(|p| p.image.as_deref());
    if set(own) || set(flags.router_proxy_image.as_deref()) {
        return None;
    }
    Some(format!(
        "no spec.proxy.image and no --router-proxy-image (KRM: routerProxyImage), so the built-in default image {} is used",
        deployment::DEFAULT_IMAGE
    ))
}

/// The controller reference every owned object carries, when the
/// ModelRouter's uid is known.
pub fn owner_reference(router_name: &str, uid: &str) -> OwnerReference {
    OwnerReference {
        api_version: GROUP_VERSION.to_string(),
        kind: "ModelRouter".to_string(),
        name: router_name.to_string(),
        uid: uid.to_string(),
        controller: Some(true),
        block_owner_deletion: Some(false),
    }
}

/// An object's first fields: `apiVersion`, `kind` and `metadata`.
fn object(api_version: &str, kind: &str, metadata: Map<String, Value>) -> Map<String, Value> {
    let mut object = Map::new();
    object.insert("apiVersion".into(), Value::from(api_version));
    object.insert("kind".into(), Value::from(kind));
    object.insert("metadata".into(), Value::Object(metadata));
    object
}

/// `metadata` of an owned object: name `R`, the router's namespace, labels `L`.
fn owned_metadata(input: &RouterInput) -> Map<String, Value> {
    let mut metadata = Map::new();
    metadata.insert("name".into(), Value::String(names::resource_name(&input.name)));
    metadata.insert("namespace".into(), Value::String(input.namespace.clone()));
    metadata.insert("labels".into(), string_object(names::owned_labels(&input.name)));
    if let Some(uid) = input.uid.as_deref() {
        // Serializing the API type keeps its field names and omissions.
        let reference = serde_json::to_value(owner_reference(&input.name, uid)).unwrap_or(Value::Null);
        metadata.insert("ownerReferences".into(), Value::Array(vec![reference]));
    }
    metadata
}

/// An object of the given fields. (`json!` would copy a tree put in it.)
fn fields<const N: usize>(pairs: [(&str, Value); N]) -> Value {
    Value::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// A string map (owned or borrowed) as a JSON object: labels, annotations,
/// selectors.
pub fn string_object<K: Into<String>, V: Into<String>>(m: impl IntoIterator<Item = (K, V)>) -> Value {
    Value::Object(m.into_iter().map(|(k, v)| (k.into(), Value::String(v.into()))).collect())
}

/// Go's omitempty: an empty map is not written.
fn non_empty<K: Ord, V>(m: BTreeMap<K, V>) -> Option<BTreeMap<K, V>> {
    (!m.is_empty()).then_some(m)
}
