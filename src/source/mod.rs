//! Where records come from: files and stdin, split into lines.

pub mod lines;
