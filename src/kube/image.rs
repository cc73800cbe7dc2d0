//! An image reference as a container's `image` names it,
//! `[domain/]path[:tag][@digest]`: split into its parts, and parsed with the
//! Docker reference grammar the API server reads a tag with
//! (`pkg/util/parsers`: `ParseNormalizedNamed`).

/// An image reference's parts, borrowed from the reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageReference<'a> {
    /// The repository, with its registry when it names one
    /// (`ghcr.io/defilantech/llmkube-controller`).
    pub name: &'a str,
    /// After the last path component's `:` (a `:` before the last `/`
    /// belongs to a registry port).
    pub tag: Option<&'a str>,
    /// After the `@`.
    pub digest: Option<&'a str>,
}

impl<'a> ImageReference<'a> {
    /// The parts of any reference, checked against nothing: what a running
    /// container's image says, read as it is.
    pub fn split(image: &'a str) -> ImageReference<'a> {
        let (rest, digest) = match image.split_once('@') {
            Some((rest, digest)) => (rest, Some(digest)),
            None => (image, None),
        };
        let (name, tag) = split_tag(rest);
        ImageReference { name, tag, digest }
    }

    /// The reference as the API server reads it, or `None` where the
    /// grammar refuses it (an image ID, a bad digest, tag or name).
    pub fn parse(image: &'a str) -> Option<ImageReference<'a>> {
        if is_hex_identifier(image) {
            return None;
        }
        let reference = ImageReference::split(image);
        if reference.digest.is_some_and(|d| !is_valid_digest(d))
            || reference.tag.is_some_and(|t| !is_valid_tag(t))
            || !is_valid_repository_name(reference.name)
        {
            return None;
        }
        Some(reference)
    }

    /// The repository's last path component, without registry, tag or
    /// digest: `llmkube-controller` of `ghcr.io/defilantech/llmkube-controller:0.9.19`.
    pub fn repository(&self) -> &'a str {
        self.name.rsplit('/').next().unwrap_or(self.name)
    }
}

/// 64 lowercase hex digits: an image ID, which is not a name.
fn is_hex_identifier(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(is_lower_hex)
}

fn is_lower_hex(b: u8) -> bool {
    b.is_ascii_digit() || (b'a'..=b'f').contains(&b)
}

/// `algorithm:hex` with an algorithm the server knows and its exact length.
fn is_valid_digest(digest: &str) -> bool {
    let Some((algorithm, hex)) = digest.split_once(':') else {
        return false;
    };
    let expected_len = match algorithm {
        "sha256" => 64,
        "sha384" => 96,
        "sha512" => 128,
        _ => return false,
    };
    hex.len() == expected_len && hex.bytes().all(is_lower_hex)
}

/// Splits a `:tag` off the last path component (a `:` before the last `/`
/// belongs to a registry port).
fn split_tag(reference: &str) -> (&str, Option<&str>) {
    let last_component = reference.rfind('/').map_or(0, |i| i + 1);
    match reference[last_component..].rfind(':') {
        Some(i) => {
            let colon = last_component + i;
            (&reference[..colon], Some(&reference[colon + 1..]))
        }
        None => (reference, None),
    }
}

/// One word character, then up to 127 word characters, dots or dashes.
fn is_valid_tag(tag: &str) -> bool {
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut bytes = tag.bytes();
    tag.len() <= 128 && bytes.next().is_some_and(is_word) && bytes.all(|b| is_word(b) || b == b'.' || b == b'-')
}

/// The longest repository name, counted after normalizing
/// (`nginx` is `docker.io/library/nginx`).
const MAX_REPOSITORY_NAME_LEN: usize = 255;

fn is_valid_repository_name(name: &str) -> bool {
    let (domain, path) = split_domain(name);
    if domain.is_some_and(|d| !is_valid_domain(d)) || path.is_empty() || !path.split('/').all(is_valid_path_component) {
        return false;
    }
    normalized_name_len(domain, path) <= MAX_REPOSITORY_NAME_LEN
}

/// The first component is a registry when it looks like a host: it has a dot
/// or a port, is `localhost`, or has capitals (paths never do).
fn split_domain(name: &str) -> (Option<&str>, &str) {
    match name.split_once('/') {
        Some((first, rest))
            if first.contains(['.', ':']) || first == "localhost" || first.bytes().any(|b| b.is_ascii_uppercase()) =>
        {
            (Some(first), rest)
        }
        _ => (None, name),
    }
}

fn normalized_name_len(domain: Option<&str>, path: &str) -> usize {
    let domain = match domain {
        None | Some("index.docker.io") => "docker.io",
        Some(d) => d,
    };
    let library = if domain == "docker.io" && !path.contains('/') { "library/".len() } else { 0 };
    domain.len() + 1 + library + path.len()
}

/// `host[:port]`, where host is dotted labels or a bracketed IPv6 address.
fn is_valid_domain(domain: &str) -> bool {
    let (host, port) = if domain.starts_with('[') {
        match domain.find(']') {
            Some(end) => (&domain[..=end], &domain[end + 1..]),
            None => return false,
        }
    } else {
        match domain.find(':') {
            Some(colon) => (&domain[..colon], &domain[colon..]),
            None => (domain, ""),
        }
    };
    let port_ok = port.is_empty()
        || port.strip_prefix(':').is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    port_ok && is_valid_host(host)
}

fn is_valid_host(host: &str) -> bool {
    if let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        return !inner.is_empty() && inner.bytes().all(|b| b.is_ascii_hexdigit() || b == b':');
    }
    host.split('.').all(|label| {
        let bytes = label.as_bytes();
        match (bytes.first(), bytes.last()) {
            (Some(first), Some(last)) => {
                first.is_ascii_alphanumeric()
                    && last.is_ascii_alphanumeric()
                    && bytes.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'-')
            }
            _ => false,
        }
    })
}

/// Lowercase alphanumeric runs joined by `.`, `_`, `__` or a run of `-`.
fn is_valid_path_component(component: &str) -> bool {
    let is_alnum = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    let bytes = component.as_bytes();
    match (bytes.first(), bytes.last()) {
        (Some(&first), Some(&last)) if is_alnum(first) && is_alnum(last) => {}
        _ => return false,
    }
    component
        .split(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
        .filter(|separator| !separator.is_empty())
        .all(|separator| matches!(separator, "." | "_" | "__") || separator.bytes().all(|b| b == b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_takes_the_tag_of_the_last_component_only() {
        let r = ImageReference::split("registry:5000/team/app:v1@sha256:ab");
        assert_eq!((r.name, r.tag, r.digest), ("registry:5000/team/app", Some("v1"), Some("sha256:ab")));
        assert_eq!(r.repository(), "app");
        let port_only = ImageReference::split("registry:5000/app");
        assert_eq!((port_only.name, port_only.tag), ("registry:5000/app", None));
    }

    /// Cases of the reference grammar (distribution/reference's
    /// `ParseNormalizedNamed`): what it accepts and what it refuses.
    #[test]
    fn parse_follows_the_reference_grammar() {
        let digest = format!("sha256:{}", "a".repeat(64));
        let accepted = [
            "nginx".to_string(),
            "nginx:latest".into(),
            "localhost:5000/app:1.0".into(),
            format!("app@{digest}"),
            format!("ghcr.io/a/b:v1@{digest}"),
        ];
        for image in &accepted {
            assert!(ImageReference::parse(image).is_some(), "{image}");
        }
        let refused = [
            "a".repeat(64),         // an image ID
            "App:1".into(),         // capitals in a path
            "app:".into(),          // an empty tag
            "app:-1".into(),        // a tag starts with a word character
            "app@sha256:ab".into(), // a digest of the wrong length
            "app@md5:".into(),      // an algorithm the server does not know
            "a..b/app".into(),      // an empty domain label
            "a/".repeat(128) + "a", // longer than 255 once normalized
        ];
        for image in &refused {
            assert!(ImageReference::parse(image).is_none(), "{image}");
        }
    }
}
