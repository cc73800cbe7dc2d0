//! What routerctl tells a person on stderr besides errors: warnings,
//! `--verbose` notes, and a progress line for long runs on a terminal.

use std::io::Write;
use std::time::{Duration, Instant};

/// How often the progress line is redrawn.
const PROGRESS_EVERY: Duration = Duration::from_millis(200);

/// The stderr side of a run.
pub struct Reporter<'a> {
    out: &'a mut dyn Write,
    quiet: bool,
    verbose: bool,
    /// Draw a progress line (stderr is a terminal, and not quiet).
    progress: bool,
    started: Instant,
    last_drawn: Option<Instant>,
    routers: usize,
}

impl<'a> Reporter<'a> {
    pub fn new(out: &'a mut dyn Write, quiet: bool, verbose: bool, stderr_is_tty: bool) -> Reporter<'a> {
        Reporter {
            out,
            quiet,
            verbose,
            progress: stderr_is_tty && !quiet,
            started: Instant::now(),
            last_drawn: None,
            routers: 0,
        }
    }

    /// Warnings and nothing else, as libraries and tests want.
    pub fn plain(out: &'a mut dyn Write) -> Reporter<'a> {
        Reporter::new(out, false, false, false)
    }

    pub fn warn(&mut self, message: &str) {
        if !self.quiet {
            self.clear_progress();
            // A closed stderr must not turn a good run into a failed one.
            let _ = writeln!(self.out, "warning: {message}");
        }
    }

    /// A fact worth knowing that is not a problem (what cluster mode found
    /// out about the operator), unless `-q`.
    pub fn note(&mut self, message: &str) {
        if !self.quiet {
            self.clear_progress();
            let _ = writeln!(self.out, "routerctl: {message}");
        }
    }

    /// Whether `-q` asked for silence.
    pub fn is_quiet(&self) -> bool {
        self.quiet
    }

    /// Lines already formatted by someone else (the KRM function's results).
    pub fn raw(&mut self, text: &str) {
        if !self.quiet && !text.is_empty() {
            self.clear_progress();
            let _ = self.out.write_all(text.as_bytes());
        }
    }

    /// One ModelRouter done.
    pub fn router_done(&mut self, name: &str, objects: usize) {
        self.routers += 1;
        if self.verbose {
            self.clear_progress();
            let _ = writeln!(self.out, "routerctl: {name}: {objects} objects");
        }
        let due = self.last_drawn.is_none_or(|t| t.elapsed() >= PROGRESS_EVERY);
        if self.progress && due && self.started.elapsed() >= PROGRESS_EVERY {
            let _ = write!(self.out, "\rrouterctl: {} routers...", self.routers);
            let _ = self.out.flush();
            self.last_drawn = Some(Instant::now());
        }
    }

    /// The end of a run: the progress line goes; `--verbose` gets the timing.
    pub fn finish(&mut self) {
        self.clear_progress();
        if self.verbose {
            let ms = self.started.elapsed().as_millis();
            let _ = writeln!(self.out, "routerctl: {} routers in {ms} ms", self.routers);
        }
    }

    fn clear_progress(&mut self) {
        if self.last_drawn.take().is_some() {
            let _ = write!(self.out, "\r\x1b[K");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiet_drops_warnings_and_verbose_counts() {
        let mut buf = Vec::new();
        let mut r = Reporter::new(&mut buf, true, false, true);
        r.warn("hidden");
        r.router_done("ns/a", 3);
        r.finish();
        assert!(buf.is_empty());

        let mut buf = Vec::new();
        let mut r = Reporter::new(&mut buf, false, true, false);
        r.warn("shown");
        r.router_done("ns/a", 3);
        r.finish();
        let text = String::from_utf8(buf).expect("utf-8");
        assert!(text.starts_with("warning: shown\nrouterctl: ns/a: 3 objects\nrouterctl: 1 routers in "), "{text}");
        assert!(!text.contains('\r'), "no progress line when stderr is not a terminal");
    }
}
