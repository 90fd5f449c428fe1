//! Dialog ids that are never reused.

/// Hands out dialog ids (`confirm-1`, `lock-2`, …) that are never reused.
#[derive(Debug, Default)]
pub struct IdGen {
    next: u64,
}

impl IdGen {
    /// The next id with this prefix.
    pub fn next(&mut self, prefix: &str) -> String {
        format!("{prefix}-{}", self.number())
    }

    /// The next number (shared with [`IdGen::next`], so ids never repeat across prefixes).
    pub fn number(&mut self) -> u64 {
        self.next += 1;
        self.next
    }
}
