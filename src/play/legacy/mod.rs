//! Temporary: the game search as it was before issue 20 unified it with the puzzle search
//! (`engine:legacy=1`), kept only to measure the unified player against it in a match; removed
//! once measured.

#![allow(dead_code)]

pub mod eval;
pub mod search;
pub mod table;
