//! The library's integration tests, in one test binary: one module per concern, sharing the
//! test app and its headless UI thread (`common`). One binary links egui, rmcp and axum once
//! instead of once per file.
//!
//! - `conformance`: one test per line of spec §11, through an rmcp client over an in-process pipe,
//!   on both lifecycles.
//! - `call_lifecycle`, `hidden_window`, `viewports`, `approvals`: frames driven by hand.
//! - `deferred`: effects that take time: calls the app answers on a later pass, their budget,
//!   and the cap on how many wait.
//! - `invariants`: the design's invariants on every published snapshot under random sequences.
//! - `http`, `lifecycle`, `notifications`, `bridge_tools`: the server's transports, stopping,
//!   the notification fan-out and the bridge's own tools.
//! - `ids`: request ids answered exactly as sent over stdio and HTTP, and invalid ids refused.
//! - `serve_handle`: serving lasts as long as its handle, whatever happens to the `Bridge`; a
//!   handle whose UI or runtime is gone says it is closed.
//! - `log_secrets`: an app with its own subscriber, as the README sets it up, logs no secret.
//! - `both`, `widgets`, `inputs`: one description draws the person's widgets and declares the
//!   agent's view; each widget and input kind, what the app disables, and `edit_field` against
//!   the person's widgets (property tests).
//! - `options`: egui's own options on fields and forms (a text edit's, a slider's, the form's
//!   grid) laid out as egui's own widgets with them; a slider's step and clamping take from an
//!   agent what egui's own slider holds when the person types it.
//! - `options2`: every `egui::Window` option (`with_window`; `enabled(false)` for agents too), a modal closed as egui's closes
//!   it, and the options of sliders, text edits, colours, tri-state checkboxes and angles, each
//!   laid out as egui's own and taking from an agent what egui's own widget holds.
//! - `app_table`: an app's own `egui_extras` table described once: a page around the selected
//!   row and a row's action, for both audiences.
//! - `long_lists`: a 100,000-line log for both audiences: the person's rows laid out only where
//!   visible, the agent's bounded page within the state budget, the rest by a read-only tool.
//! - `look`: a described window and panel laid out as egui's own window and panel with the same
//!   contents, the agent's mark painted over them, the "Own window" button only when turned on.
//! - `containers`: panels that are windows, menus and collapsing sections declared while closed.
//! - `state_json`: the published JSON, spliced from each window's, is a fresh serialisation.
//! - `read_view`, `operate`: what the app draws but has not described is published, read, and
//!   operated through generic tools under the protocol's rules; the
//!   developer's list names what was left out.
//! - `names`: names in the read view: no icon glyph in a name, key or title, a text edit named
//!   by its hint, a panel's title kept while it shows, "Also changed" said once, a combo box's
//!   option by the unique start of its text.
//! - `day_one_round2`: the person's keyboard and pointer on what the app has not described:
//!   Enter with `edit_field`'s `submit`, a context menu with `press`'s `secondary`.
//! - `local`: the per-user local endpoint and the stdio relay: clients relayed to the running
//!   app share it, and what the endpoint may meet is refused, replaced or contained.
//! - `harness`: the test harness's builder: kittest's options (its accessibility check: a form
//!   labelled by its grid's rows is tested with it off, and refused with it on), the caller's
//!   context setup with the plugin, and the agent's own step bound.
//! - `layers`: the source keeps docs/design.md's layers, and its files import each other in no
//!   cycle.
//! - `census`: scripts/census.py (docs/census.md's census) runs, and judges a made-up app's
//!   widgets by its rules.
//! - `view_window`: `app__view_window`, a window's picture: listed read-only on every
//!   connection, a clear error where no picture can be had (headless), and under an integration
//!   that takes screenshots the window's rectangle with what is hidden blanked.
//! - `record`: recording agents' calls and replaying them in the harness: secrets left out,
//!   versions carried relatively, the size limit, a cut or malformed file refused with its line.
//! - `two_bridges`: two bridges in one process, even in one egui context, share nothing: each
//!   keeps its own window places and caches.

mod common;

mod app_table;
mod approvals;
mod both;
mod bridge_tools;
mod call_lifecycle;
mod census;
mod conformance;
mod containers;
mod day_one_round2;
mod deferred;
mod form_grid;
mod generic_round5;
mod harness;
mod hidden_window;
mod http;
mod ids;
mod inputs;
mod invariants;
mod layers;
mod lifecycle;
mod local;
mod log_secrets;
mod long_lists;
mod look;
mod menus_round5;
mod names;
mod notifications;
mod operate;
mod options;
mod options2;
mod own_widget;
mod read_view;
mod readme;
mod record;
mod serve_handle;
mod shortcuts;
mod state_json;
mod tree;
mod two_bridges;
mod view_window;
mod viewports;
mod widgets;
