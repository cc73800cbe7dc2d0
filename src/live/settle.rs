//! Which operator a cluster-mode run renders as: the release and flags the
//! command line gives, settled against what the operator look-up found
//! (`operator::detect`). Pure policy over two values: the caller runs the
//! look-up, and reports what settling says.

use anyhow::{bail, Result};

use super::operator::{describe_several, Detection, OPERATOR_SELECTOR};
use crate::diagnostic::{rules, Diagnostic};
use crate::release::Release;

/// What the command line says of the operator.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Given {
    /// `--operator-version`.
    pub release: Option<Release>,
    pub router_proxy_image: Option<String>,
    pub default_litellm_url: Option<String>,
    pub emit_scrape_annotations: bool,
    /// `--strict`: a release that cannot be known is refused.
    pub strict: bool,
}

/// The operator a run renders as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settled {
    pub release: Release,
    pub router_proxy_image: Option<String>,
    pub default_litellm_url: Option<String>,
    pub emit_scrape_annotations: bool,
    /// Where the release came from, in words: `--operator-version`, the
    /// operator's image tag, or why routerctl's default is used.
    pub from: String,
}

/// What settling says on the way, in the order it says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    /// What was found, for people.
    Note(String),
    Warning(Box<Diagnostic>),
    /// kubectl's own stderr, from a reading (`the operator look-up`).
    Kubectl {
        reading: String,
        stderr: String,
    },
}

/// Cluster mode renders as the operator that runs there: its release and
/// its flags, each unless the command line gives one (which wins, and is
/// warned about when it differs). What was found, or why nothing was, is
/// pushed to `said` (also when settling fails); a release routerctl does not
/// know is an error with `--strict`, and so are several operators (which one
/// reconciles is not known) unless `--operator-version` settles the release.
pub fn settle(detection: Detection, given: &Given, said: &mut Vec<Said>) -> Result<Settled> {
    let mut settled = Settled {
        release: given.release.unwrap_or_default(),
        router_proxy_image: given.router_proxy_image.clone(),
        default_litellm_url: given.default_litellm_url.clone(),
        emit_scrape_annotations: given.emit_scrape_annotations,
        from: "--operator-version".to_string(),
    };
    let warn = |said: &mut Vec<Said>, message: String| {
        said.push(Said::Warning(Box::new(Diagnostic::warning(rules::RELEASE, message))))
    };
    let op = match detection {
        Detection::Found(op) => op,
        Detection::NotFound => {
            let why = format!(
                "found no LLMKube operator in the cluster (no Deployment labelled {OPERATOR_SELECTOR} runs an \
                 llmkube-controller image)"
            );
            return unknown_release(settled, given, said, why, "no operator was found in the cluster");
        }
        // The deadline is the whole read's: nothing is left to read with.
        Detection::Unanswered(message) => bail!("{message}"),
        Detection::Failed(message) => {
            let why = format!("could not look for the LLMKube operator ({})", message.lines().next().unwrap_or(""));
            return unknown_release(settled, given, said, why, "the operator look-up failed");
        }
        // kubectl's lines are kubectl's: shown apart, the warning says how
        // the look-up ended.
        Detection::KubectlFailed(failure) => {
            said.push(Said::Kubectl { reading: failure.reading.clone(), stderr: failure.stderr.clone() });
            let why = format!("could not look for the LLMKube operator ({})", failure.headline());
            return unknown_release(settled, given, said, why, "the operator look-up failed");
        }
        Detection::Several(found) => {
            let names = describe_several(&found);
            if given.release.is_none() {
                bail!(
                    "found {} LLMKube operators: {names}; which one reconciles these ModelRouters cannot be known: \
                     give --operator-version and the operator's flags (--router-proxy-image, --default-litellm-url, \
                     --emit-scrape-annotations)",
                    found.len()
                );
            }
            warn(
                said,
                format!(
                    "found {} LLMKube operators: {names}; rendering as --operator-version {} with the operator flags \
                     given here",
                    found.len(),
                    settled.release
                ),
            );
            return Ok(settled);
        }
    };
    said.push(Said::Note(op.describe()));
    for (name, from) in &op.unexpanded {
        warn(
            said,
            format!(
                "operator {}: its manager container's command or args use $({name}), whose value comes from {from}, \
                 which routerctl does not read: the word is read as written; give the flag it sets on the command line",
                op.id()
            ),
        );
    }
    match (given.release, op.release) {
        (Some(given_version), Some(found)) if given_version != found => {
            warn(said, format!("--operator-version {given_version} is used, but operator {} is {found}", op.id()));
        }
        (Some(_), _) => {}
        (None, Some(found)) => {
            settled.release = found;
            settled.from = format!("operator {}'s {}", op.id(), op.release_source);
        }
        (None, None) => {
            let message = format!(
                "operator {} runs {}: {}, so which release reconciles is not known; give --operator-version",
                op.id(),
                op.image,
                op.unknown_release()
            );
            if given.strict {
                bail!("{message} (refused with --strict)");
            }
            warn(said, format!("{message}; rendering as {}", settled.release));
            settled.from = format!("routerctl's default; operator {}'s release is not known", op.id());
        }
    }
    let strings = [
        ("--router-proxy-image", &mut settled.router_proxy_image, &op.router_proxy_image),
        ("--default-litellm-url", &mut settled.default_litellm_url, &op.default_litellm_url),
    ];
    for (name, given, found) in strings {
        match (given.as_deref(), found) {
            (None, found) => given.clone_from(found),
            (Some(g), Some(f)) if g != f => {
                warn(said, format!("{name} {g} is used, but operator {} runs with {name}={f}", op.id()));
            }
            (Some(g), None) => warn(said, format!("{name} {g} is used, but operator {} runs without {name}", op.id())),
            _ => {}
        }
    }
    if given.emit_scrape_annotations && !op.emit_scrape_annotations {
        warn(said, format!("--emit-scrape-annotations is used, but operator {} runs without it", op.id()));
    }
    settled.emit_scrape_annotations |= op.emit_scrape_annotations;
    Ok(settled)
}

/// The operator's release could not be read (`why`): the release given on
/// the command line is used; without one, routerctl renders as its default
/// with a warning, and `--strict` refuses.
fn unknown_release(
    mut settled: Settled,
    given: &Given,
    said: &mut Vec<Said>,
    why: String,
    short: &str,
) -> Result<Settled> {
    let message = match given.release {
        Some(release) => format!("{why}; rendering as --operator-version {release} with the operator flags given here"),
        None if given.strict => {
            bail!("{why}, so which release reconciles is not known; give --operator-version (refused with --strict)")
        }
        None => {
            settled.from = format!("routerctl's default; {short}");
            format!("{why}; rendering as {} with the operator flags given here", settled.release)
        }
    };
    said.push(Said::Warning(Box::new(Diagnostic::warning(rules::RELEASE, message))));
    Ok(settled)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn given() -> Given {
        Given { router_proxy_image: Some("registry.example/proxy:1".into()), ..Given::default() }
    }

    fn warnings(said: &[Said]) -> Vec<String> {
        said.iter()
            .filter_map(|s| match s {
                Said::Warning(d) => Some(d.message.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn no_operator_renders_as_the_default_with_a_warning_and_strict_refuses() {
        let mut said = Vec::new();
        let settled = settle(Detection::NotFound, &given(), &mut said).expect("settles");
        assert_eq!(settled.release, Release::default());
        assert_eq!(settled.from, "routerctl's default; no operator was found in the cluster");
        assert_eq!(settled.router_proxy_image.as_deref(), Some("registry.example/proxy:1"));
        assert_eq!(warnings(&said).len(), 1);
        assert!(warnings(&said)[0].starts_with("found no LLMKube operator in the cluster"), "{said:?}");

        let strict = Given { strict: true, ..given() };
        let err = settle(Detection::NotFound, &strict, &mut Vec::new()).expect_err("refused");
        assert!(err.to_string().ends_with("give --operator-version (refused with --strict)"), "{err}");
    }

    #[test]
    fn a_given_release_wins_over_a_failed_look_up() {
        let release = Release::all().next().expect("a release");
        let given = Given { release: Some(release), strict: true, ..given() };
        let mut said = Vec::new();
        let settled = settle(Detection::Failed("no kubectl".into()), &given, &mut said).expect("settles");
        assert_eq!((settled.release, settled.from.as_str()), (release, "--operator-version"));
        assert_eq!(
            warnings(&said),
            [format!(
                "could not look for the LLMKube operator (no kubectl); rendering as --operator-version {release} with \
                 the operator flags given here"
            )]
        );
    }

    #[test]
    fn several_operators_need_a_release() {
        let err = settle(Detection::Several(Vec::new()), &given(), &mut Vec::new()).expect_err("refused");
        assert!(err.to_string().contains("cannot be known: give --operator-version"), "{err}");
    }

    #[test]
    fn an_unanswered_look_up_ends_the_run_with_its_message() {
        let err = settle(Detection::Unanswered("no answer within 1s".into()), &given(), &mut Vec::new())
            .expect_err("ends the run");
        assert_eq!(err.to_string(), "no answer within 1s");
    }
}
