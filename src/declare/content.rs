//! Builders for the blocks of a window, in two modes: *hash* (every frame, no allocation) and
//! *build* (only when the hash differs from last pass's). A block closure therefore runs once
//! or twice in one pass; it is `Fn`, so it can only describe what is shown.

use std::hash::{Hash as _, Hasher};

use serde_json::{Number, Value};

use crate::hub::decl::ContentHasher;
use crate::protocol::{FieldItem, masked};

/// The value of a field, table cell or list item. Build it with `.into()` from strings (borrowed
/// or owned: `&str`, `&String`, `String`), numbers, booleans and options of those.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell<'a> {
    /// `null`: not filled in.
    Null,
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A floating-point number.
    Float(f64),
    /// A string.
    Str(std::borrow::Cow<'a, str>),
}

impl Cell<'_> {
    #[inline]
    pub(crate) fn hash_into<H: Hasher>(&self, h: &mut H) {
        match self {
            Self::Null => h.write_u8(0),
            Self::Bool(b) => (1u8, b).hash(h),
            Self::Int(i) => (2u8, i).hash(h),
            Self::Float(f) => (3u8, f.to_bits()).hash(h),
            Self::Str(s) => (4u8, s).hash(h),
        }
    }

    pub(crate) fn into_value(self) -> Value {
        match self {
            Self::Null => Value::Null,
            Self::Bool(b) => Value::Bool(b),
            Self::Int(i) => Value::Number(i.into()),
            Self::Float(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
            Self::Str(s) => Value::String(s.into_owned()),
        }
    }

    fn is_empty(&self) -> bool {
        match self {
            Self::Null => true,
            Self::Str(s) => s.is_empty(),
            _ => false,
        }
    }
}

impl<'a> From<&'a str> for Cell<'a> {
    fn from(s: &'a str) -> Self {
        Self::Str(s.into())
    }
}

impl<'a> From<&'a String> for Cell<'a> {
    fn from(s: &'a String) -> Self {
        Self::Str(s.as_str().into())
    }
}

impl From<String> for Cell<'_> {
    fn from(s: String) -> Self {
        Self::Str(s.into())
    }
}

impl From<bool> for Cell<'_> {
    fn from(b: bool) -> Self {
        Self::Bool(b)
    }
}

impl From<f64> for Cell<'_> {
    fn from(f: f64) -> Self {
        Self::Float(f)
    }
}

impl From<f32> for Cell<'_> {
    fn from(f: f32) -> Self {
        Self::Float(f64::from(f))
    }
}

macro_rules! int_cell {
    ($($t:ty),*) => {$(
        impl From<$t> for Cell<'_> {
            fn from(i: $t) -> Self {
                Self::Int(i64::try_from(i).unwrap_or(i64::MAX))
            }
        }
    )*};
}
int_cell!(i8, i16, i32, i64, u8, u16, u32, u64, usize, isize);

impl<'a, T: Into<Cell<'a>>> From<Option<T>> for Cell<'a> {
    fn from(o: Option<T>) -> Self {
        o.map_or(Cell::Null, Into::into)
    }
}

/// Where a builder writes: into a hasher, or into owned items.
pub(crate) enum Mode<'s, T> {
    Hash(&'s mut ContentHasher),
    Build(&'s mut Vec<T>),
}

/// The items of a fields block (see [`crate::ForAgents::fields`]).
pub struct Fields<'s> {
    pub(crate) mode: Mode<'s, FieldItem>,
}

impl Fields<'_> {
    /// A labelled value.
    pub fn field<'a>(&mut self, label: &str, value: impl Into<Cell<'a>>) {
        let value = value.into();
        match &mut self.mode {
            Mode::Hash(h) => {
                label.hash(*h);
                value.hash_into(&mut **h);
            }
            Mode::Build(items) => {
                items.push(FieldItem::new(label, value.into_value()));
            }
        }
    }

    /// A secret, masked here at the source (§4.5): only whether it is filled in is kept,
    /// so the plaintext never enters the snapshot, a hash, a log or a result.
    pub fn secret<'a>(&mut self, label: &str, value: impl Into<Cell<'a>>) {
        let filled = !value.into().is_empty();
        match &mut self.mode {
            Mode::Hash(h) => {
                (label, 0xA5u8, filled).hash(*h);
            }
            Mode::Build(items) => {
                items.push(FieldItem { sensitive: true, ..FieldItem::new(label, masked(filled)) });
            }
        }
    }
}

/// The rows of a table block (see [`crate::ForAgents::table`]).
pub struct Rows<'s> {
    pub(crate) mode: Mode<'s, Vec<Value>>,
}

impl Rows<'_> {
    /// One row: a tuple or an array of cell values, lined up with the columns.
    /// `rows.row((order.number, order.customer.as_str(), order.total))`.
    pub fn row<'a>(&mut self, row: impl Row<'a>) {
        match &mut self.mode {
            Mode::Hash(h) => {
                h.write_u8(0xB0);
                row.each_cell(&mut |c| c.hash_into(&mut **h));
            }
            Mode::Build(rows) => {
                let mut cells = Vec::new();
                row.each_cell(&mut |c| cells.push(c.into_value()));
                rows.push(cells);
            }
        }
    }
}

/// The items of a list block (see [`crate::ForAgents::list`]).
pub struct Items<'s> {
    pub(crate) mode: Mode<'s, Value>,
}

impl Items<'_> {
    /// One item.
    pub fn item<'a>(&mut self, item: impl Into<Cell<'a>>) {
        let item = item.into();
        match &mut self.mode {
            Mode::Hash(h) => item.hash_into(&mut **h),
            Mode::Build(items) => items.push(item.into_value()),
        }
    }
}

/// A table row: a tuple of up to 12 cell values, an array of them, or a `Vec`.
pub trait Row<'a> {
    /// Hands each cell, in order, to `f`.
    fn each_cell(self, f: &mut dyn FnMut(Cell<'a>));
}

impl<'a, T: Into<Cell<'a>>, const N: usize> Row<'a> for [T; N] {
    fn each_cell(self, f: &mut dyn FnMut(Cell<'a>)) {
        for c in self {
            f(c.into());
        }
    }
}

impl<'a, T: Into<Cell<'a>>> Row<'a> for Vec<T> {
    fn each_cell(self, f: &mut dyn FnMut(Cell<'a>)) {
        for c in self {
            f(c.into());
        }
    }
}

macro_rules! tuple_row {
    ($($t:ident),+) => {
        impl<'a, $($t: Into<Cell<'a>>),+> Row<'a> for ($($t,)+) {
            #[allow(non_snake_case, reason = "the tuple's parts, named by their types")]
            fn each_cell(self, f: &mut dyn FnMut(Cell<'a>)) {
                let ($($t,)+) = self;
                $(f($t.into());)+
            }
        }
    };
}
tuple_row!(A);
tuple_row!(A, B);
tuple_row!(A, B, C);
tuple_row!(A, B, C, D);
tuple_row!(A, B, C, D, E);
tuple_row!(A, B, C, D, E, F);
tuple_row!(A, B, C, D, E, F, G);
tuple_row!(A, B, C, D, E, F, G, H);
tuple_row!(A, B, C, D, E, F, G, H, I);
tuple_row!(A, B, C, D, E, F, G, H, I, J);
tuple_row!(A, B, C, D, E, F, G, H, I, J, K);
tuple_row!(A, B, C, D, E, F, G, H, I, J, K, L);

/// Hashes a JSON value (for `custom` blocks) without serialising it.
pub(crate) fn hash_value<H: Hasher>(v: &Value, h: &mut H) {
    match v {
        Value::Null => h.write_u8(0),
        Value::Bool(b) => (1u8, b).hash(h),
        // Without formatting the number: its kind and bits tell every JSON number apart.
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => (2u8, 0u8, u).hash(h),
            (None, Some(i)) => (2u8, 1u8, i).hash(h),
            (None, None) => (2u8, 2u8, n.as_f64().map(f64::to_bits)).hash(h),
        },
        Value::String(s) => (3u8, s).hash(h),
        Value::Array(a) => {
            (4u8, a.len()).hash(h);
            for x in a {
                hash_value(x, h);
            }
        }
        Value::Object(o) => {
            (5u8, o.len()).hash(h);
            for (k, x) in o {
                k.hash(h);
                hash_value(x, h);
            }
        }
    }
}
