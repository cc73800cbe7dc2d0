//! Printing objects: a YAML stream or a kubectl-style `v1 List` in JSON.

pub mod yaml;

use serde_json::{json, Value};

use crate::render::gojson::{marshal_indent, GoJson};

/// The two output formats `-o` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Yaml,
    Json,
}

/// Objects as one string, ready for `kubectl apply -f -`.
pub fn print_objects(objects: &[Value], format: Format) -> String {
    match format {
        Format::Yaml => yaml_stream(objects),
        Format::Json => json_list(objects),
    }
}

/// Documents separated by `---` lines.
pub fn yaml_stream(objects: &[Value]) -> String {
    let mut out = String::new();
    for (i, obj) in objects.iter().enumerate() {
        if i > 0 {
            out.push_str("---\n");
        }
        out.push_str(&yaml::to_yaml(obj));
    }
    out
}

/// One `v1 List`, laid out as `kubectl get -o json` prints it (four-space
/// indentation, sorted keys, trailing newline).
pub fn json_list(objects: &[Value]) -> String {
    let list = json!({
        "apiVersion": "v1",
        "items": objects,
        "kind": "List",
        "metadata": {"resourceVersion": ""},
    });
    let mut out = marshal_indent(&GoJson::from(&list), "", "    ");
    out.push('\n');
    out
}
