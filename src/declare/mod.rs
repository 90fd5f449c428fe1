//! The app's side of the bridge: declaring windows, their blocks and actions, in every pass.
//!
//! Declarations run on the UI thread inside the app's own ui code. A block is hashed in every
//! pass and built only when its hash changed; an action's call, if the UI thread admitted one
//! for it in this pass, is handed over where the action is declared. Only `both.rs`, `form.rs`
//! and `places.rs` know egui (it draws the person's widgets from the same description); the [`crate::passes::BridgePlugin`]
//! turns passes into publishes.

mod both;
mod call;
mod content;
mod form;
pub(crate) mod places;
mod window;

pub use both::{Press, TableOptions};
pub use call::Call;
pub(crate) use call::declare_action;
pub use content::{Cell, Fields, Items, Row, Rows};
pub use form::{Editable, Form, FormResponse, Input};
pub use window::{ListKind, Paged, TableKind, WindowBuilder, WindowResponse, WindowUi};

macro_rules! debug_opaque {
    ($($t:ident),*) => {$(
        impl std::fmt::Debug for $t<'_> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($t)).finish_non_exhaustive()
            }
        }
    )*};
}
debug_opaque!(Fields, Rows, Items);
