//! `routerctl schema`: the JSON Schema of a ModelRouter as a release's CRD
//! defines it (`validate::json_schema`), or of the RouterTest format
//! (`routing::suite_schema`), printed as JSON (indented as kubectl indents
//! it) or YAML.

use anyhow::{bail, Result};
use serde_json::Value;

use super::outcome::{text_outcome, Outcome};
use crate::cli::{SchemaArgs, SchemaFormat, SchemaKind};
use crate::kube::gojson::{marshal_indent, GoJson};

pub(super) fn run(args: &SchemaArgs) -> Result<Outcome> {
    let schema = match args.kind {
        SchemaKind::ModelRouter => {
            crate::validate::json_schema::model_router(args.operator_version.unwrap_or_default())
        }
        SchemaKind::RouterTest => {
            if let Some(release) = args.operator_version {
                bail!(
                    "--operator-version {release}: the RouterTest format is routerctl's own, the same for every \
                     operator release; leave the flag out (it picks the CRD of `routerctl schema modelrouter`)"
                );
            }
            crate::routing::suite_schema::router_test()
        }
    };
    text_outcome(&printed(&schema, args.output), 0)
}

/// The schema in the format asked for.
fn printed(schema: &Value, format: SchemaFormat) -> String {
    match format {
        SchemaFormat::Json => marshal_indent(&GoJson::from(schema), "", "    ") + "\n",
        SchemaFormat::Yaml => crate::output::yaml::to_yaml(schema),
    }
}
