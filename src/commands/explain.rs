//! `routerctl explain`: per router, who owns each key of its objects and
//! what the operator's next reconcile does to it, as a table or JSON.

use anyhow::Result;
use serde_json::Value;

use super::outcome::{text_outcome, Outcome};
use super::stream::{stream, LiveInput};
use crate::cli::{ExplainArgs, ExplainFormat};
use crate::explain::explain;
use crate::explain::gateway::{explain_gateway, RouterExplanation};
use crate::input::inputs::Inputs;
use crate::kube::gojson::{marshal_indent, GoJson};
use crate::pipeline::{Rendered, RouterResult};
use crate::reconcile::Reconciled;
use crate::report::Reporter;

pub(super) fn run(args: &ExplainArgs, inputs: &mut Inputs, reporter: &mut Reporter) -> Result<Outcome> {
    let live = LiveInput::choose(&args.live, args.live_from_cluster, &args.cluster)?;
    let mut tables = Vec::new();
    let explain_router = |result: RouterResult| {
        Ok(match &result.rendered {
            Rendered::Proxy(rendered) => {
                let empty = Value::Object(Default::default());
                let deployment = result.items.iter().find(|i| i.key.kind == "Deployment");
                let desired = deployment.map_or(&empty, Reconciled::desired);
                let live_deployment = deployment.and_then(|i| i.live.as_ref());
                RouterExplanation::Proxy(explain(rendered, &result.router, desired, live_deployment))
            }
            Rendered::Gateway(rendered) => {
                let router = format!("{}/{}", result.router.namespace, result.router.name);
                RouterExplanation::Gateway(explain_gateway(&router, &result.items, &rendered.ejected))
            }
        })
    };
    stream(&args.common, live, inputs, reporter, &explain_router, &mut |table| {
        tables.push(table);
        Ok(())
    })?;
    let text = match args.output {
        ExplainFormat::Table => tables.iter().map(RouterExplanation::to_table).collect::<Vec<_>>().join("\n"),
        ExplainFormat::Json => {
            let list = Value::Array(tables.iter().map(RouterExplanation::to_json).collect());
            marshal_indent(&GoJson::from(&list), "", "    ") + "\n"
        }
    };
    text_outcome(&text, 0)
}
