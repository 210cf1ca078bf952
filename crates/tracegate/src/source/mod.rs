//! Where records come from, split into lines with bounded memory: input
//! bytes ([`lines`], for files, stdin and request bodies) and growing files
//! followed across rotation ([`follow`], `serve`'s `[[source]]`).

pub mod blocks;
pub mod follow;
pub mod lines;
