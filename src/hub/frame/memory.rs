//! What the bridge remembers of each open window between passes.

use std::collections::HashMap;
use std::sync::Arc;

use crate::hub::decl::{Kept, WindowDecl};
use crate::hub::phase::PassKey;
use crate::protocol::{Block, Window};

/// What the bridge remembers of an open window between passes.
#[derive(Debug)]
pub(super) struct WindowMemory {
    pub(super) version: u64,
    pub(super) content_hash: u64,
    pub(super) block_hashes: Vec<u64>,
    /// Blocks rebuilt because the content changed, until the window is published with them.
    pub(super) changed_blocks: Option<Vec<Block>>,
    /// The window as last published, and its JSON: reused by every snapshot while its header
    /// is the same, so that a publish serialises only the windows that changed.
    pub(super) published: Option<Published>,
    /// Its external id (assigned when it opened).
    pub(super) handle: Option<Arc<str>>,
    /// A dialog blocked it in the last published snapshot.
    pub(super) blocked: bool,
    /// The viewport whose pass declared it last.
    pub(super) pass: PassKey,
    /// The publish that last saw it declared (a second declaration in it is ignored; a window
    /// not seen closed).
    pub(super) seen: u64,
    /// Its missing owner was logged (once per window).
    pub(super) owner_warned: bool,
    /// What its last declaration kept for the next ([`WindowDecl::kept`]).
    pub(super) kept: Option<Kept>,
}

/// A window as published, with its JSON (`serde_json::to_string` of it).
#[derive(Debug)]
pub(super) struct Published {
    pub(super) window: Arc<Window>,
    pub(super) json: Box<str>,
}

impl WindowMemory {
    /// A window first declared in the publish `seen`, by the pass of `pass`.
    pub(super) fn new(decl: &WindowDecl, pass: PassKey, seen: u64) -> Self {
        Self {
            version: 0,
            // Differs from the declared hash, so that the first publish counts as a change.
            content_hash: decl.content_hash.wrapping_add(1),
            block_hashes: Vec::new(),
            changed_blocks: None,
            published: None,
            handle: None,
            blocked: false,
            pass,
            seen,
            owner_warned: false,
            kept: decl.kept.clone(),
        }
    }
}

/// The open windows' memory, by app id. Looked up a few times per window per pass, so hashed
/// with foldhash rather than std's `SipHash` (app ids come from the app, not from agents).
pub(super) type Memory = HashMap<String, WindowMemory, foldhash::fast::RandomState>;
