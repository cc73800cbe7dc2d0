//! Placeholder until the API server defaulting lands.
use serde_json::Value;
pub fn apply_server_defaults(_obj: &mut Value, _live: Option<&Value>) {}
