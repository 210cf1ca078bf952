//! `tracegate._native`: the gate for Python (the `tracegate` package).
//!
//! A thin layer over the `tracegate` library: policies are loaded and
//! compiled by it, records judged by its `Gate` and `judge_for_sink` (the
//! same decision `filter` and `serve` make), protobuf requests read and
//! written by its OTLP codec, windows, budgets and the audit log kept by its
//! `Capture`. Nothing of the gate is written again here.
//!
//! SECURITY: no exception raised here carries a byte of a record: messages
//! are the library's (rule names, field paths, offsets, policy limits) or
//! fixed words.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

mod gate;
mod reload;

create_exception!(
    tracegate,
    PolicyError,
    PyException,
    "The policy could not be loaded: the message is the CLI's (file, line, column, cause)."
);
create_exception!(
    tracegate,
    GateError,
    PyException,
    "The gate refused an input or a call; the message never holds a record's value."
);

/// A compiled, immutable policy: `Policy.load(path)`.
#[pyclass(module = "tracegate", name = "Policy", frozen)]
pub struct PyPolicy {
    pub(crate) inner: Arc<tracegate::Policy>,
}

#[pymethods]
impl PyPolicy {
    /// Load and compile the policy file or folder at `path`, once its
    /// files have settled (unchanged for a second). Raises `PolicyError`
    /// with every error, as the `tracegate` commands print them.
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<PyPolicy> {
        // SECURITY: settled files only (as `filter` and `serve` load): a
        // window file caught mid-write is never enabled with looser bounds
        // than its final form.
        let loaded = py.detach(|| {
            tracegate::Policy::load_settled(&path, tracegate::internals::policy::load::SETTLE, 10)
        });
        match loaded {
            Ok(p) => Ok(PyPolicy { inner: Arc::new(p) }),
            Err(errors) => Err(PolicyError::new_err(format!(
                "{errors}\ntracegate: policy `{}` is invalid ({} error{})",
                path.display(),
                errors.0.len(),
                if errors.0.len() == 1 { "" } else { "s" }
            ))),
        }
    }

    /// The SHA-256 of the policy's files (as `policy_loaded` records it).
    #[getter]
    fn sha256(&self) -> String {
        self.inner.sha256().to_string()
    }

    /// The names of the policy's sinks.
    #[getter]
    fn sinks(&self) -> Vec<String> {
        self.inner.sinks().iter().map(|s| s.name.clone()).collect()
    }

    /// The names of the sinks that may receive full records in a window.
    #[getter]
    fn full_allowed_sinks(&self) -> Vec<String> {
        self.inner
            .sinks()
            .iter()
            .filter(|s| s.full_allowed)
            .map(|s| s.name.clone())
            .collect()
    }

    /// The file or folder the policy was loaded from.
    #[getter]
    fn path(&self) -> PathBuf {
        self.inner.source().to_path_buf()
    }

    fn __repr__(&self) -> String {
        format!(
            "Policy(path={:?}, sha256={:?})",
            self.inner.source().display().to_string(),
            self.inner.sha256()
        )
    }
}

/// One finding: where a record broke which rule. Never a value of it.
#[pyclass(module = "tracegate", frozen, get_all)]
#[derive(Clone)]
pub struct Finding {
    /// 1-based number of the record among those this gate judged.
    pub line: u64,
    /// `violation`, `malformed` or `evidence`.
    pub kind: String,
    /// The stable rule name (docs/reference.md), e.g. `content_field`.
    pub rule: String,
    /// The field path, escaped and cut, when the finding has one.
    pub field: Option<String>,
    /// One lowercase line, free of record values.
    pub message: String,
}

impl Finding {
    fn from_lib(f: &tracegate::Finding) -> Finding {
        Finding {
            line: f.line,
            kind: f.kind.as_str().to_string(),
            rule: f.rule.to_string(),
            field: f.field.clone(),
            message: f.message.clone(),
        }
    }
}

#[pymethods]
impl Finding {
    fn __repr__(&self) -> String {
        let field = match &self.field {
            Some(f) => format!("{f:?}"),
            None => "None".to_string(),
        };
        format!(
            "Finding(line={}, kind={:?}, rule={:?}, field={field}, message={:?})",
            self.line, self.kind, self.rule, self.message
        )
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPolicy>()?;
    m.add_class::<gate::PyGate>()?;
    m.add_class::<Finding>()?;
    m.add("PolicyError", m.py().get_type::<PolicyError>())?;
    m.add("GateError", m.py().get_type::<GateError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
