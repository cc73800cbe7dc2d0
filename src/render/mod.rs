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
mod input;
mod object;
mod rbac;
mod service;

use anyhow::Result;
use serde_json::Value;

use crate::diagnostic::{rules, Diagnostic};
use crate::kube::names::DEFAULT_PROXY_IMAGE;
use crate::release::Release;
pub use config::Compiled;
pub use deployment::{pod_metadata, record_value, PodMetadata};
pub use input::{Inventory, OperatorFlags, RouterInput};
pub use object::{owner_reference, string_object};

/// What the operator writes for one ModelRouter.
#[derive(Debug, Clone)]
pub struct RenderedRouter {
    pub compiled: Compiled,
    /// The pod-template metadata plan the update path needs.
    pub pod_metadata: PodMetadata,
    /// ConfigMap, [ServiceAccount, Role, RoleBinding,] Deployment, Service.
    pub objects: Vec<Value>,
    /// What the operator would log, or what routerctl had to assume
    /// (errors with `--strict`: the pipeline refuses the router then).
    pub warnings: Vec<Diagnostic>,
    /// The release it was rendered as: its update path is that release's.
    pub release: Release,
}

/// The built-in default image, when a router gets it: a warning, or with
/// `--strict` an error (said of what would happen; the pipeline refuses the
/// router with every other error it finds).
fn default_image(input: &RouterInput, flags: &OperatorFlags) -> Option<Diagnostic> {
    if !defaults_image(input, flags) || flags.routing_only {
        return None;
    }
    const UNSET: &str = "no spec.proxy.image and no --router-proxy-image (KRM: routerProxyImage)";
    let image = DEFAULT_PROXY_IMAGE;
    if flags.strict {
        let msg =
            format!("{UNSET}: the built-in default image {image} would be used, which a cluster almost never runs");
        let hint = "set spec.proxy.image, or pass the operator's --router-proxy-image";
        return Some(Diagnostic::error(rules::RENDER, msg).hint(hint).on(input.key()).field("spec.proxy.image"));
    }
    let msg = format!("{UNSET}, so the built-in default image {image} is used");
    Some(Diagnostic::warning(rules::RENDER, msg).on(input.key()))
}

/// What rendering a Proxy-mode router would have to assume offline (a
/// referenced InferenceService not in the inputs, the built-in default
/// image), without rendering it: said for a router the operator refuses,
/// whose render would stop at the refusal.
pub fn assumptions(input: &RouterInput, inventory: &Inventory, flags: &OperatorFlags) -> Vec<Diagnostic> {
    let (name, namespace) = (&input.name, &input.namespace);
    let backends = input.router.spec.backends.iter().enumerate();
    let mut found: Vec<Diagnostic> = backends
        .filter_map(|(i, b)| config::missing_inference_service(i, b, name, namespace, inventory, flags))
        .collect();
    found.extend(default_image(input, flags));
    found
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
    warnings.extend(default_image(input, flags));
    let requested = input.router.spec.proxy.as_ref().and_then(|p| p.replicas);
    if let Some(n) = requested.filter(|n| compiled.has_pools && *n > 1) {
        let msg = format!(
            "{n}, but a router with pooled backends runs one replica (ModelPool activation needs a single proxy)"
        );
        warnings.push(Diagnostic::warning(rules::RENDER, msg).on(input.key()).field("spec.proxy.replicas"));
    }
    let (deployment, pod_metadata) = deployment::build(input, &compiled, flags)?;
    overridden_pod_keys(input, &pod_metadata, &mut warnings);
    objects.push(deployment);
    objects.push(service::build(input));
    Ok(RenderedRouter { compiled, pod_metadata, objects, warnings, release: flags.release })
}

/// Said of each `podLabels` / `podAnnotations` key the operator sets to
/// another value on the pods: the user's value never reaches them (a
/// NetworkPolicy or a scraper written against it selects nothing).
fn overridden_pod_keys(input: &RouterInput, pods: &deployment::PodMetadata, warnings: &mut Vec<Diagnostic>) {
    let proxy = input.router.spec.proxy.as_ref();
    let sides = [
        ("podLabels", proxy.and_then(|p| p.pod_labels.as_ref()), &pods.operator_labels),
        ("podAnnotations", proxy.and_then(|p| p.pod_annotations.as_ref()), &pods.operator_annotations),
    ];
    for (field, user, operator) in sides {
        for (key, value) in user.into_iter().flatten() {
            let Some(theirs) = operator.get(key).filter(|theirs| *theirs != value) else { continue };
            let msg = format!(
                "the operator sets {key}: {theirs:?} on the proxy pods, so {value:?} never reaches them (its own keys win)"
            );
            warnings.push(
                Diagnostic::warning(rules::RENDER, msg)
                    .on(input.key())
                    .field(crate::input::child_path(&format!("spec.proxy.{field}"), key))
                    .hint("drop the key, or use another one"),
            );
        }
    }
}

/// Whether the proxy image falls back to the built-in default: a cluster
/// almost never runs that tag, so the render would silently differ from the
/// operator's. An empty flag counts as unset, as in the operator.
fn defaults_image(input: &RouterInput, flags: &OperatorFlags) -> bool {
    let set = |image: Option<&str>| image.is_some_and(|i| !i.is_empty());
    let own = input.router.spec.proxy.as_ref().and_then(|p| p.image.as_deref());
    !set(own) && !set(flags.router_proxy_image.as_deref())
}
