//! One `dataPlane: Gateway` ModelRouter through the pipeline: what the
//! inputs and live objects say about its InferenceServices, backend
//! resolution, render, and the gateway reconciler's update path.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Context as _, Result};

use crate::diagnostic::{rules, At, Diagnostic, Refusal};
use crate::kube::kinds::INFERENCE_SERVICE;
use crate::kube::ObjectKey;
use crate::live::{LiveIndex, LiveObjects};
use crate::model::InferenceService;
use crate::reconcile::gateway::reconcile_gateway;
use crate::reconcile::{controller_uid, Reconciled};
use crate::render::gateway::{render_gateway, resolve_backends, GatewayRendered, IsvcFacts};
use crate::render::{Inventory, OperatorFlags, RouterInput};
use crate::validate::crd::CrdSchema;
use crate::validate::envoy::check_gateway_object;

/// A Gateway-mode router after its reconcile.
pub struct GatewayOutcome {
    pub rendered: GatewayRendered,
    /// Its objects, rendered and merged with the live ones it owns.
    pub items: Vec<Reconciled>,
    pub warnings: Vec<Diagnostic>,
}

/// Resolves, renders and merges one Gateway-mode router that passed the
/// up-front checks. Fills in `router.uid` from live objects when the input
/// has none.
pub fn reconcile_gateway_router(
    at: &At,
    router: &mut RouterInput,
    inventory: &Inventory,
    live: &dyn LiveObjects,
    flags: &OperatorFlags,
    envoy: &[CrdSchema],
) -> Result<GatewayOutcome> {
    let (strict, release) = (flags.strict, flags.release);
    let (facts, absent) = isvc_facts(router, inventory, live).with_context(|| at.clone())?;
    let resolution = resolve_backends(&router.router, &router.namespace, &facts, &absent, strict, release);
    if !resolution.errors.is_empty() {
        let heading = Diagnostic::error(rules::OPERATOR, "the operator's gateway reconcile fails for this ModelRouter")
            .at(at.place.clone())
            .on(router.key());
        return Err(Refusal::new(heading, resolution.errors).into());
    }
    let mut warnings = resolution.warnings;
    let mut rendered = render_gateway(router, &resolution.backends, release).with_context(|| at.clone())?;
    // Every live object this router can own, read (and parsed) once; they
    // carry the ModelRouter's uid when the input has none.
    let mut owned = LiveIndex::default();
    let mut uid = None;
    for obj in &rendered.objects {
        let key = ObjectKey::of(obj, &router.namespace);
        if let Some(live_obj) = live.get(&key)? {
            uid = uid.or_else(|| controller_uid(&live_obj, &router.name));
            owned.insert_keyed(key, live_obj);
        }
    }
    if router.uid.is_none() && uid.is_some() {
        router.uid = uid;
        rendered = render_gateway(router, &resolution.backends, release).with_context(|| at.clone())?;
    }
    // What the Envoy CRDs refuse: upstream builds it all, applies the
    // objects before the refused one, and stops.
    let mut refused = Vec::new();
    for obj in &rendered.objects {
        for f in check_gateway_object(obj, &router.router, envoy) {
            let key = ObjectKey::of(obj, &router.namespace);
            refused.push(Diagnostic::error(rules::ENVOY, f.message).on(key).field(f.path));
        }
    }
    if !refused.is_empty() {
        let heading = Diagnostic::error(
            rules::ENVOY,
            "Envoy refuses Gateway objects the operator would build (upstream learns it only after applying the \
             objects before them)",
        )
        .at(at.place.clone())
        .on(router.key());
        return Err(Refusal::new(heading, refused).into());
    }
    if !rendered.ejected.is_empty() {
        let (backends, have) = match rendered.ejected.len() {
            1 => ("backend", "has no ready replica and is"),
            _ => ("backends", "have no ready replica and are"),
        };
        let msg = format!(
            "{backends} {} {have} left out of the route's rules (a rule never loses its last backend)",
            rendered.ejected.join(", ")
        );
        warnings.push(Diagnostic::warning(rules::RENDER, msg).on(router.key()));
    }
    let objects = std::mem::take(&mut rendered.objects);
    let items = reconcile_gateway(router, objects, owned).with_context(|| at.clone())?;
    Ok(GatewayOutcome { rendered, items, warnings })
}

/// What the inputs and the live objects say about each InferenceService
/// the router references: the port from the spec (inputs first), readiness
/// from the status (live first, since a cluster's status is current; a live
/// one without status has no ready replica, as upstream reads it). Also the
/// names the cluster is known not to have (listed, absent, and not among
/// the inputs either): upstream's reconcile fails on them.
fn isvc_facts(
    router: &RouterInput,
    inventory: &Inventory,
    live: &dyn LiveObjects,
) -> Result<(BTreeMap<String, IsvcFacts>, BTreeSet<String>)> {
    let mut facts = BTreeMap::new();
    let mut absent = BTreeSet::new();
    let refs = router.router.spec.backends.iter().filter_map(|b| b.inference_service_ref.as_ref());
    for isr in refs {
        if facts.contains_key(&isr.name) {
            continue;
        }
        let key = INFERENCE_SERVICE.key(&router.namespace, &isr.name);
        let live_isvc: Option<InferenceService> = match live.get(&key)? {
            Some(obj) => Some(serde_path_to_error::deserialize(&obj).map_err(|e| {
                let words = crate::model::serde_in_words(&e.inner().to_string());
                anyhow::anyhow!("live {key}: {}: {words}", e.path())
            })?),
            None => None,
        };
        let given = inventory.inference_service(&router.namespace, &isr.name);
        let Some(spec_source) = given.or(live_isvc.as_ref()) else {
            if live.lists(&key) {
                absent.insert(isr.name.clone());
            }
            continue;
        };
        let ready = match &live_isvc {
            Some(isvc) => Some(isvc.ready().unwrap_or(false)),
            None => given.and_then(InferenceService::ready),
        };
        facts.insert(isr.name.clone(), IsvcFacts { port: spec_source.port(), ready });
    }
    Ok((facts, absent))
}
