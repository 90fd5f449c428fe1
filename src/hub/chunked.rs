//! A list that snapshots share in chunks: a publish that changes a few windows of thousands
//! copies the chunks that hold them, and shares the others, instead of copying (and counting a
//! reference to) every window.

use std::sync::Arc;

/// Items per chunk: a publish after one window changed copies this many references and one
/// per chunk.
const CHUNK: usize = 64;

/// An immutable list held in shared chunks of [`CHUNK`] items.
#[derive(Debug)]
pub(crate) struct Chunked<T> {
    chunks: Vec<Arc<[T]>>,
    len: usize,
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Self { chunks: Vec::new(), len: 0 }
    }
}

/// Shares every chunk.
impl<T> Clone for Chunked<T> {
    fn clone(&self) -> Self {
        Self { chunks: self.chunks.clone(), len: self.len }
    }
}

impl<T: Clone> Chunked<T> {
    /// The list of `items`, in chunks.
    pub fn new(items: Vec<T>) -> Self {
        let len = items.len();
        let mut chunks = Vec::with_capacity(len.div_ceil(CHUNK));
        let mut items = items.into_iter();
        while chunks.len() * CHUNK < len {
            chunks.push(items.by_ref().take(CHUNK).collect());
        }
        Self { chunks, len }
    }

    /// This list with the items at the places in `changes` (in increasing order) replaced: the
    /// chunks that hold none of them are shared.
    pub fn with_replaced(&self, changes: impl IntoIterator<Item = (usize, T)>) -> Self {
        let mut out = self.clone();
        let mut changes = changes.into_iter().peekable();
        while let Some(&(at, _)) = changes.peek() {
            let c = at / CHUNK;
            let Some(chunk) = out.chunks.get_mut(c) else { break };
            let mut items = chunk.to_vec();
            while let Some((at, item)) = changes.next_if(|(at, _)| at / CHUNK == c) {
                items[at % CHUNK] = item;
            }
            *chunk = items.into();
        }
        out
    }
}

impl<T> Chunked<T> {
    pub fn len(&self) -> usize {
        self.len
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn get(&self, i: usize) -> Option<&T> {
        self.chunks.get(i / CHUNK).and_then(|c| c.get(i % CHUNK))
    }

    pub fn iter(&self) -> impl Iterator<Item = &T> + Clone {
        self.chunks.iter().flat_map(|c| c.iter())
    }

    /// Whether `other` shares chunk `c` of this list (for tests).
    #[cfg(test)]
    pub fn shares_chunk(&self, other: &Self, c: usize) -> bool {
        matches!((self.chunks.get(c), other.chunks.get(c)), (Some(a), Some(b)) if Arc::ptr_eq(a, b))
    }
}

impl<T> std::ops::Index<usize> for Chunked<T> {
    type Output = T;

    fn index(&self, i: usize) -> &T {
        &self.chunks[i / CHUNK][i % CHUNK]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replaced_item_copies_its_chunk_and_shares_the_others() {
        let list = Chunked::new((0..200).collect::<Vec<u32>>());
        assert_eq!((list.len(), list.iter().count(), list[130], list.get(200)), (200, 200, 130, None));
        let changed = list.with_replaced([(3, 1_003), (130, 1_130), (131, 1_131)]);
        assert_eq!(changed.iter().copied().filter(|&v| v >= 1_000).collect::<Vec<_>>(), [1_003, 1_130, 1_131]);
        assert_eq!(changed.iter().count(), 200);
        assert!(!changed.shares_chunk(&list, 0) && !changed.shares_chunk(&list, 2), "the changed chunks are new");
        assert!(changed.shares_chunk(&list, 1) && changed.shares_chunk(&list, 3), "the others are shared");
        assert_eq!(list[3], 3, "the list it came from is as it was");
        assert!(Chunked::<u32>::new(Vec::new()).is_empty());
    }
}
