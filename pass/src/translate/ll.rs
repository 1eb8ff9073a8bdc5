//! The façade's names as the translation spells them.

pub use crate::llvm::{Block as B, Ll, Meta as M, Type as T, Value as V};
