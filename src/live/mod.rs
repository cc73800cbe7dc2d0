//! Live objects: what is in the cluster now, behind one trait. `files`
//! reads them from `--live` manifests (a `kubectl get -o yaml` dump),
//! `cluster` asks `kubectl get`; `logs` reads the router-proxy's log
//! (`kubectl logs`, every replica) for `replay`; `LiveIndex` holds a few in memory (both
//! in `objects`, with the trait);
//! `operator` reads the running operator's release and flags, its manager
//! container read as the kubelet starts it (`container`); `settle` decides,
//! from what it found and the command line, which operator a run renders as. The
//! reconcile stage only ever sees `LiveObjects`.

mod cluster;
mod container;
mod files;
mod json_stream;
pub mod logs;
mod objects;
pub mod operator;
pub mod run;
pub mod settle;

pub use crate::kube::kinds::Planes;
pub use cluster::{ClusterLive, KubectlOptions};
pub use files::LiveStore;
pub use objects::{LiveIndex, LiveObjects};
