//! The façade's names as the translation spells them.

pub use crate::llvm::{AttrAt, Block as B, Ll, Meta as M, Type as T, Value as V};
