//! Policy errors: each with its file, line, column and, where one helps, a hint.

use std::fmt;
use std::path::{Path, PathBuf};

/// One problem with a policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyError {
    /// The file it is in (`<built-in defaults>` for the defaults).
    pub file: PathBuf,
    /// 1-based line, 0 when the error concerns the whole policy.
    pub line: usize,
    /// 1-based column, 0 when the error concerns the whole policy.
    pub column: usize,
    /// One lowercase line; policy text in backticks.
    pub message: String,
    /// What to do about it.
    pub hint: Option<String>,
}

impl PolicyError {
    /// An error at a byte span of `src`, the text of `file`.
    pub fn at(file: &Path, src: &str, offset: usize, message: impl Into<String>) -> PolicyError {
        let (line, column) = line_col(src, offset);
        PolicyError {
            file: file.to_path_buf(),
            line,
            column,
            message: message.into(),
            hint: None,
        }
    }

    /// An error about a file or the policy as a whole.
    pub fn whole(file: &Path, message: impl Into<String>) -> PolicyError {
        PolicyError {
            file: file.to_path_buf(),
            line: 0,
            column: 0,
            message: message.into(),
            hint: None,
        }
    }

    /// The same error with a hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> PolicyError {
        self.hint = Some(hint.into());
        self
    }
}

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(
                f,
                "{}:{}:{}: {}",
                self.file.display(),
                self.line,
                self.column,
                self.message
            )?;
        } else {
            write!(f, "{}: {}", self.file.display(), self.message)?;
        }
        if let Some(h) = &self.hint {
            write!(f, "\n  help: {h}")?;
        }
        Ok(())
    }
}

/// Every error found in a policy, in file order.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct PolicyErrors(pub Vec<PolicyError>);

impl fmt::Display for PolicyErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "error: {e}")?;
        }
        Ok(())
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(src.len());
    let before = src.get(..offset).unwrap_or(src);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before
        .get(line_start..)
        .map_or(1, |s| s.chars().count() + 1);
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_become_lines_and_columns() {
        let src = "a = 1\nbé = 2\n";
        assert_eq!(line_col(src, 0), (1, 1));
        assert_eq!(line_col(src, 6), (2, 1));
        assert_eq!(line_col(src, src.find('=').unwrap()), (1, 3));
        assert_eq!(line_col(src, src.rfind('=').unwrap()), (2, 4));
    }
}
