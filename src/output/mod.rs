//! Printing objects: a YAML stream, a kubectl-style `v1 List` in JSON, or
//! kubectl's `-o name` lines, written one object at a time.

pub mod spool;
pub mod yaml;

use std::io::{self, Write};

use serde_json::Value;

use crate::kube::gojson::{marshal_indent, GoJson};

/// The output formats `-o` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Yaml,
    Json,
    /// `resource[.group]/name`, one a line, as `kubectl get -o name`.
    Name,
}

/// An object as `kubectl get -o name` prints it: the lower-case kind,
/// qualified by its API group unless it is in the core group
/// (`deployment.apps/x`, `service/x`).
pub fn kubectl_name(obj: &Value) -> String {
    let s = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_string();
    let kind = s(obj.get("kind")).to_lowercase();
    let name = s(obj.get("metadata").and_then(|m| m.get("name")));
    match s(obj.get("apiVersion")).split_once('/') {
        Some((group, _)) => format!("{kind}.{group}/{name}"),
        None => format!("{kind}/{name}"),
    }
}

/// One object as it stands in the output, without what joins it to the
/// others: the costly part of printing, done on the thread that
/// reconciled the object.
pub struct Encoded(Vec<u8>);

impl Format {
    pub fn encode(self, obj: &Value) -> Encoded {
        Encoded(match self {
            Format::Yaml => yaml::to_yaml(obj).into_bytes(),
            Format::Json => marshal_indent(&GoJson::from(obj), "        ", "    ").into_bytes(),
            Format::Name => kubectl_name(obj).into_bytes(),
        })
    }
}

/// Writes objects as they come: `---` between YAML documents, or the items
/// of one `v1 List` laid out as `kubectl get -o json` prints it (four-space
/// indentation, sorted keys, trailing newline).
pub struct Printer<W: Write> {
    format: Format,
    out: W,
    count: usize,
}

impl<W: Write> Printer<W> {
    pub fn new(format: Format, out: W) -> Printer<W> {
        Printer { format, out, count: 0 }
    }

    pub fn object(&mut self, obj: &Value) -> io::Result<()> {
        self.encoded(&self.format.encode(obj))
    }

    /// An object `encode`d by this printer's format.
    pub fn encoded(&mut self, Encoded(bytes): &Encoded) -> io::Result<()> {
        match self.format {
            Format::Yaml => {
                if self.count > 0 {
                    self.out.write_all(b"---\n")?;
                }
                self.out.write_all(bytes)?;
            }
            Format::Json => {
                self.out.write_all(if self.count == 0 {
                    b"{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n"
                } else {
                    b",\n"
                })?;
                self.out.write_all(b"        ")?;
                self.out.write_all(bytes)?;
            }
            Format::Name => {
                self.out.write_all(bytes)?;
                self.out.write_all(b"\n")?;
            }
        }
        self.count += 1;
        Ok(())
    }

    /// Closes the list (JSON) and hands back the writer.
    pub fn finish(mut self) -> io::Result<W> {
        if self.format == Format::Json {
            let head: &[u8] =
                if self.count == 0 { b"{\n    \"apiVersion\": \"v1\",\n    \"items\": [],\n" } else { b"\n    ],\n" };
            self.out.write_all(head)?;
            self.out.write_all(
                b"    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n",
            )?;
        }
        Ok(self.out)
    }
}

/// Objects as one string, ready for `kubectl apply -f -`.
pub fn print_objects(objects: &[Value], format: Format) -> String {
    let mut printer = Printer::new(format, Vec::new());
    for obj in objects {
        // Writing into a Vec cannot fail.
        let _ = printer.object(obj);
    }
    let bytes = printer.finish().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

/// Documents separated by `---` lines.
pub fn yaml_stream(objects: &[Value]) -> String {
    print_objects(objects, Format::Yaml)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The streamed list is byte for byte the list marshalled whole.
    #[test]
    fn streamed_json_equals_go_marshal_indent_of_the_whole_list() {
        for objects in [vec![], vec![json!({"a": 1})], vec![json!({"kind": "A", "x": [1, {}]}), json!({"b": "<"})]] {
            let list =
                json!({"apiVersion": "v1", "items": objects, "kind": "List", "metadata": {"resourceVersion": ""}});
            let whole = marshal_indent(&GoJson::from(&list), "", "    ") + "\n";
            assert_eq!(print_objects(&objects, Format::Json), whole);
        }
    }

    #[test]
    fn names_are_qualified_by_group_as_kubectl_prints_them() {
        let obj =
            |api_version: &str, kind: &str| json!({"apiVersion": api_version, "kind": kind, "metadata": {"name": "x"}});
        let objects =
            [obj("v1", "ConfigMap"), obj("apps/v1", "Deployment"), obj("rbac.authorization.k8s.io/v1", "RoleBinding")];
        assert_eq!(
            print_objects(&objects, Format::Name),
            "configmap/x\ndeployment.apps/x\nrolebinding.rbac.authorization.k8s.io/x\n"
        );
    }

    #[test]
    fn yaml_documents_are_separated() {
        assert_eq!(yaml_stream(&[json!({"a": 1}), json!({"b": 2})]), "a: 1\n---\nb: 2\n");
        assert_eq!(yaml_stream(&[]), "");
    }
}
