//! The app's side of the bridge: declaring windows, their blocks and actions, in every pass.
//!
//! Declarations run on the UI thread inside the app's own ui code. A block is hashed in every
//! pass and built only when its hash changed; an action's call, if the UI thread admitted one
//! for it in this pass, is handed over where the action is declared. The [`crate::passes::BridgePlugin`]
//! turns passes into publishes.
//!
//! One description for both audiences (egui knows only these): `both.rs` shows a window
//! ([`WindowBuilder::ui`]) and `panel.rs` one drawn into a panel ([`WindowBuilder::panel`]);
//! `places.rs` says where (kept, with what is made once, in the bridge's own `state.rs`);
//! `widgets.rs`, `table.rs`, `list.rs`, `form.rs`, `choice.rs` and `lone.rs` (one field in the app's row) draw and declare its contents;
//! `menus.rs` and `sections.rs` keep what menus, collapsed sections and hidden tabs fold away
//! declared; `gate.rs` says whether the app allows a widget; `input.rs` holds a field's rules,
//! `editable.rs` the values fields edit and `check.rs` how an agent's value for one is checked;
//! `edit_action.rs` derives the `edit_field` action from the editable fields; `paged.rs` is the
//! builder of table and list blocks (a page of a longer one, the page around a row). The person's view
//! of the bridge itself is here too: `approval.rs` asks the person to approve an agent's call,
//! `activity.rs` shows what agents did. `describe.rs` is the extension point, [`Describe`]: a
//! widget of the app's own or a widget crate's, described once and added with
//! [`WindowUi::add`]; `shortcut.rs` binds a keyboard shortcut to any action. `press.rs` holds the one answerable type every widget
//! and declaration hands the app, [`Press`].

mod activity;
mod approval;
mod both;
mod check;
mod choice;
mod content;
mod describe;
mod edit_action;
mod editable;
mod form;
mod gate;
mod input;
mod list;
mod lone;
mod mark;
mod menus;
mod paged;
mod panel;
pub(crate) mod places;
mod press;
mod sections;
mod shortcut;
mod state;
mod table;
mod tree;
mod widgets;
mod window;
mod window_options;

pub(crate) use activity::activity_ui;
pub(crate) use approval::approval_prompt;
pub use content::{Cell, Fields, Items, Row, Rows};
pub use describe::{Describe, ForAgents};
pub use editable::{Editable, Premultiplied, Radians};
pub use form::{Form, FormResponse};
pub use input::{AngleInput, CheckboxInput, ChoiceInput, ColorInput, Input, NumberInput, TextInput};
pub use list::{DEFAULT_AGENT_ITEMS, ListOptions, MAX_AGENT_ITEMS};
pub(crate) use menus::app_menu_button;
pub use menus::{MAX_CLOSED_MENU_DEPTH, Menu};
pub use paged::{ListKind, Paged, TableKind};
pub(crate) use press::app_action;
pub use press::{Deferred, Press};
pub use shortcut::Shortcut;
pub(crate) use state::DeclareState;
pub use table::TableOptions;
pub use tree::{DEFAULT_TREE_AGENT_ROWS, Tree, TreeEvent, TreeState};
pub(crate) use widgets::SUCCESS_GREEN;
pub use window::{WindowBuilder, WindowResponse, WindowUi};

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
