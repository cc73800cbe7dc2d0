//! What a render takes: the router (`RouterInput`), the InferenceServices
//! and ModelPools it resolves against (`Inventory`) and the operator it
//! renders as (`OperatorFlags`).

use crate::kube::ObjectKey;
use crate::model::{router_key, InferenceService, ModelPool, ModelRouter};
use crate::release::Release;

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
    /// Nothing rendered is printed, only asked where requests go (`test`,
    /// `route`, `verify`): the proxy image is not written anywhere, so the
    /// default-image note and its `--strict` refusal do not apply.
    pub routing_only: bool,
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
