//! Every Mermaid picture routerctl draws (`report::mermaid`) for the
//! routers of testdata and the docs, the docs' changes and a router of
//! hostile values (`mermaid_pictures::all_pictures`), and every ```mermaid
//! block of the comments the docs' `-o markdown` examples write (the
//! real binary's output, the blocks found as GitHub finds them), drawn by
//! Mermaid itself: mermaid-cli (`mmdc`) in headless Chromium. A picture
//! Mermaid cannot draw fails the test, with its name; so does a drawing
//! that holds an element or a link a hostile value asked for.
//!
//! `#[ignore]`d: `.ci/run` installs Chromium (Debian's package) and
//! mermaid-cli (pinned, from npm, under target/) with
//! `scripts/mermaid-cli`, and runs it with `ROUTERCTL_MMDC` (the `mmdc`
//! program) and `ROUTERCTL_MMDC_CONFIG` (the puppeteer settings that point
//! it at that Chromium). The pictures of docs/replay.md
//! (`docs/pictures/*.png`) are drawn here too, and written there with
//! `ROUTERCTL_REGENERATE=1` (`scripts/docs-pictures`).

use std::path::{Path, PathBuf};
use std::process::Command;

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};
use routerctl::report::mermaid::{flowchart, replay_flows, sankey, Direction};
use routerctl::routing::space::Limits;
use routerctl::routing::verify::egress_of;

use crate::common;
use crate::docs_examples::markdown_comments;
use crate::mermaid_pictures::{all_pictures, misformed, reorder, routers};

/// The ```mermaid blocks of the comments the docs' `-o markdown` examples
/// write, read as CommonMark reads them (a block in a folded `<details>`
/// too): (`PAGE:LINE COMMAND, picture N`, the block).
pub fn comment_pictures() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (example, markdown) in markdown_comments() {
        let mut picture: Option<String> = None;
        let mut n = 0;
        for event in Parser::new(&markdown) {
            match event {
                Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) if &*info == "mermaid" => {
                    picture = Some(String::new());
                }
                Event::Text(text) => {
                    if let Some(picture) = &mut picture {
                        picture.push_str(&text);
                    }
                }
                Event::End(TagEnd::CodeBlock) => {
                    if let Some(picture) = picture.take() {
                        n += 1;
                        out.push((format!("{example}, picture {n}"), picture));
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// The comments of the docs' examples carry the pictures they say they do
/// (the reorder's flowchart with its path out in red, what the reorder
/// moves as a Sankey diagram), each of the statements `report::mermaid`
/// writes. Not ignored: Mermaid draws them in the test below.
#[test]
fn the_docs_comments_carry_their_pictures() {
    let pictures = comment_pictures();
    let named = |page: &str, command: &str, kind: &str| {
        pictures
            .iter()
            .filter(|(name, text)| name.starts_with(page) && name.contains(command) && text.starts_with(kind))
            .count()
    };
    let reorder = "verify -q -f reordered.yaml --against router.yaml -o markdown";
    assert_eq!(named("docs/replay.md", reorder, "flowchart TD\n"), 1, "{pictures:#?}");
    assert_eq!(named("docs/replay.md", reorder, "sankey-beta\n"), 1, "{pictures:#?}");
    assert!(pictures.iter().any(|(name, text)| name.contains(reorder) && text.contains("\n  linkStyle ")));
    assert_eq!(named("docs/replay.md", "replay -q -f reordered.yaml", "sankey-beta\n"), 1, "{pictures:#?}");
    assert_eq!(named("docs/verify.md", "internal-closed.yaml --against", "flowchart TD\n"), 1, "{pictures:#?}");
    assert_eq!(named("docs/test.md", "test -f coding-router.yaml", "flowchart TD\n"), 1, "{pictures:#?}");
    for (name, text) in &pictures {
        let problems = misformed(text);
        assert!(problems.is_empty(), "{name}: {problems:?}\n{text}");
    }
}

/// `mmdc`, and the arguments every run takes (the puppeteer settings).
fn mmdc() -> (String, Vec<String>) {
    let program = std::env::var("ROUTERCTL_MMDC").unwrap_or_else(|_| "mmdc".to_string());
    common::require_tool(
        &program,
        &["--version"],
        "drawing the Mermaid pictures (set ROUTERCTL_MMDC to mermaid-cli's mmdc, as .ci/run does)",
    );
    let mut args = vec!["--quiet".to_string()];
    if let Ok(config) = std::env::var("ROUTERCTL_MMDC_CONFIG") {
        args.extend(["--puppeteerConfigFile".to_string(), config]);
    }
    (program, args)
}

/// Draws `input` (a `.mmd` file, or a Markdown file of ```mermaid blocks)
/// into `output`: mmdc's stderr when it fails.
fn draw(input: &Path, output: &Path, extra: &[&str]) -> Result<(), String> {
    let (program, args) = mmdc();
    let out = Command::new(&program)
        .args(&args)
        .arg("--input")
        .arg(input)
        .arg("--output")
        .arg(output)
        .args(extra)
        .output()
        .map_err(|e| format!("{program}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).lines().take(12).collect::<Vec<_>>().join("\n"))
    }
}

/// What a drawing must not hold: an element that runs or loads anything
/// (a script, an image, a frame), a link, an event handler or a
/// `javascript:` address, which only a value of the input could have put
/// there (the values' text is the labels' text, which may say anything).
fn injected(svg: &str) -> Vec<String> {
    let document = match roxmltree::Document::parse(svg) {
        Ok(document) => document,
        Err(e) => return vec![format!("no XML: {e}")],
    };
    let mut out = Vec::new();
    for node in document.descendants().filter(roxmltree::Node::is_element) {
        let name = node.tag_name().name();
        if ["script", "img", "image", "iframe", "object", "embed", "a"].contains(&name) {
            out.push(format!("a <{name}> element"));
        }
        for attribute in node.attributes() {
            if attribute.name().starts_with("on") || attribute.value().to_ascii_lowercase().contains("javascript:") {
                out.push(format!("<{name} {}={:?}>", attribute.name(), attribute.value()));
            }
        }
    }
    out
}

#[test]
#[ignore = "needs mermaid-cli and Chromium: .ci/run installs them (scripts/mermaid-cli)"]
fn mermaid_draws_every_picture() {
    let mut pictures = all_pictures();
    let comments = comment_pictures();
    let from_comments = comments.len();
    pictures.extend(comments);
    let dir = tempfile::tempdir().expect("a temporary directory");
    // One run of mmdc for them all (a Markdown file of blocks: one
    // browser); when it fails, each on its own, to name those that fail.
    let mut page = String::new();
    for (_, text) in &pictures {
        page.push_str("```mermaid\n");
        page.push_str(text);
        page.push_str("```\n\n");
    }
    let input = dir.path().join("pictures.md");
    std::fs::write(&input, &page).expect("writes the pictures");
    let output = dir.path().join("drawn.md");
    if let Err(all) = draw(&input, &output, &["--outputFormat", "svg"]) {
        let mut failed = Vec::new();
        for (i, (name, text)) in pictures.iter().enumerate() {
            let one = dir.path().join(format!("{i}.mmd"));
            std::fs::write(&one, text).expect("writes a picture");
            if let Err(why) = draw(&one, &dir.path().join(format!("{i}.svg")), &[]) {
                failed.push(format!("{name}:\n{text}\n{why}"));
            }
        }
        assert!(!failed.is_empty(), "mmdc failed on the pictures together but on none alone:\n{all}");
        panic!("Mermaid cannot draw {} of {} pictures:\n\n{}", failed.len(), pictures.len(), failed.join("\n\n"));
    }
    // mmdc names the drawing of the Nth block drawn-N.svg.
    let mut problems = Vec::new();
    for (i, (name, _)) in pictures.iter().enumerate() {
        let svg = dir.path().join(format!("drawn-{}.svg", i + 1));
        match std::fs::read_to_string(&svg) {
            Ok(svg) if svg.contains("<svg") => {
                let bad = injected(&svg);
                if !bad.is_empty() {
                    problems.push(format!("{name}: the drawing holds {}", bad.join(", ")));
                }
            }
            Ok(_) => problems.push(format!("{name}: {} is no SVG", svg.display())),
            Err(e) => problems.push(format!("{name}: no drawing ({e})")),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    println!("{} pictures drawn by Mermaid, {from_comments} of them from the docs' comments", pictures.len());
}

/// The pictures docs/replay.md shows: the reordered router (its
/// sensitive path in red) and what the reorder moves in its log.
fn docs_pictures() -> Vec<(&'static str, String)> {
    let path = "testdata/replay/reordered.yaml";
    let router = routers(path, &common::fixture(path), None).expect("renders").remove(0);
    let (egress, complete) = egress_of(&router, Limits::default());
    assert!(complete);
    let moved = reorder().moved.expect("moved");
    vec![
        ("reordered-router.png", flowchart(&router, &egress, Direction::TopDown)),
        ("reorder-moves.png", sankey(&replay_flows(&moved))),
    ]
}

#[test]
#[ignore = "needs mermaid-cli and Chromium: .ci/run installs them (scripts/mermaid-cli)"]
fn the_docs_pictures_are_drawn() {
    let regenerate = std::env::var_os("ROUTERCTL_REGENERATE").is_some();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let pictures: PathBuf = common::root().join("docs/pictures");
    for (name, text) in docs_pictures() {
        let input = dir.path().join(name).with_extension("mmd");
        std::fs::write(&input, &text).expect("writes a picture");
        let output = dir.path().join(name);
        // Twice the size, on white: it reads in a page of either theme.
        let sized = ["--scale", "2", "--width", "1000", "--backgroundColor", "white"];
        draw(&input, &output, &sized).unwrap_or_else(|why| panic!("{name}:\n{text}\n{why}"));
        let png = std::fs::read(&output).expect("reads the drawing");
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "{name} is no PNG");
        let kept = pictures.join(name);
        if regenerate {
            std::fs::write(&kept, &png).expect("writes docs/pictures");
        } else {
            assert!(kept.exists(), "docs/pictures/{name} is missing: scripts/docs-pictures draws it");
        }
    }
}

/// The check finds what it looks for, and not the same words as text.
#[test]
fn an_injected_element_or_handler_is_found_and_text_is_not() {
    let text =
        r#"<svg xmlns="http://www.w3.org/2000/svg"><text>&lt;img src=x onerror=alert(1)&gt; javascript:</text></svg>"#;
    assert_eq!(injected(text), Vec::<String>::new());
    let element = r#"<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><img xmlns="http://www.w3.org/1999/xhtml" src="x" onerror="alert(1)"/></foreignObject><a href="javascript:x"/></svg>"#;
    assert_eq!(injected(element).len(), 4, "{:?}", injected(element));
}
