//! Standard output is held back until a run has succeeded (so a failed run
//! never leaves half a stream for `kubectl apply`), without holding a whole
//! fleet's manifests in memory: past a few MiB the spool moves to an
//! anonymous temporary file.

use std::fs::File;
use std::io::{self, Seek, SeekFrom, Write};

/// In-memory bytes kept before spilling to a temporary file.
const MEMORY_LIMIT: usize = 4 * 1024 * 1024;

/// Output written now, delivered later.
#[derive(Debug, Default)]
pub struct Spool {
    memory: Vec<u8>,
    file: Option<io::BufWriter<File>>,
}

impl Spool {
    pub fn new() -> Spool {
        Spool::default()
    }

    /// Writes everything spooled to `out`. Generic, so that a spool file
    /// copied to stdout goes through the kernel's copy (sendfile, splice)
    /// rather than through a buffer here.
    pub fn copy_to<W: Write>(self, out: &mut W) -> io::Result<()> {
        match self.file {
            None => out.write_all(&self.memory),
            Some(file) => {
                let mut file = file.into_inner().map_err(|e| e.into_error())?;
                file.seek(SeekFrom::Start(0))?;
                io::copy(&mut file, out)?;
                Ok(())
            }
        }
    }

    /// Everything spooled, as text (for tests and small outputs).
    pub fn into_string(self) -> io::Result<String> {
        let mut bytes = Vec::new();
        self.copy_to(&mut bytes)?;
        String::from_utf8(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
    }

    pub fn is_empty(&self) -> bool {
        self.memory.is_empty() && self.file.is_none()
    }
}

impl Write for Spool {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Some(file) = &mut self.file {
            return file.write(buf);
        }
        if self.memory.len() + buf.len() <= MEMORY_LIMIT {
            self.memory.extend_from_slice(buf);
            return Ok(buf.len());
        }
        let mut file = io::BufWriter::with_capacity(1 << 20, tempfile::tempfile()?);
        file.write_all(&self.memory)?;
        file.write_all(buf)?;
        self.memory = Vec::new();
        self.file = Some(file);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.file {
            Some(file) => file.flush(),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_output_stays_in_memory_and_large_output_spills() {
        let mut small = Spool::new();
        small.write_all(b"abc").expect("writes");
        assert!(small.file.is_none());
        assert_eq!(small.into_string().expect("reads"), "abc");

        let mut large = Spool::new();
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..6 {
            large.write_all(&chunk).expect("writes");
        }
        assert!(large.file.is_some());
        let mut out = Vec::new();
        large.copy_to(&mut out).expect("copies");
        assert_eq!(out.len(), 6 << 20);
    }
}
