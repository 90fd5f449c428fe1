//! Lists for both audiences: a short list drawn whole ([`WindowUi::list`]), and a long list
//! or a live log ([`WindowUi::long_list`]) whose person's rows are laid out only where
//! visible and whose agents read a bounded page of it with the total (§9), the rest behind an
//! optional read-only tool.

use super::check::display;
use super::content::Cell;
use super::paged::Page;
use super::{Press, WindowUi};
use crate::hub::ActionSpec;
use crate::protocol::ToolResult;

/// How many items of a long list agents read in the state unless the app says otherwise
/// ([`ListOptions::agent_items`], [`ListOptions::newest_items`]), and the default page of its
/// read-only tool ([`ListOptions::page_action`]).
pub const DEFAULT_AGENT_ITEMS: usize = 200;

/// The most items of a long list agents read in the state, or in one page of its read-only
/// tool, whatever the app asks: a read of `app://windows` stays small whatever the data (§9).
pub const MAX_AGENT_ITEMS: usize = 1_000;

impl WindowUi {
    /// A short list for both: bullets for the person, the `list` block `id` for agents. Every
    /// item is drawn and declared: for a long list or a log, use
    /// [`long_list`](Self::long_list).
    pub fn list<S: AsRef<str>>(&mut self, ui: &mut egui::Ui, id: &str, items: &[S]) {
        self.any_list(ui, id, false, items);
    }

    /// A short list whose order means something (steps, a ranking): numbered lines for the
    /// person, an ordered `list` block `id` for agents.
    pub fn ordered_list<S: AsRef<str>>(&mut self, ui: &mut egui::Ui, id: &str, items: &[S]) {
        self.any_list(ui, id, true, items);
    }

    fn any_list<S: AsRef<str>>(&mut self, ui: &mut egui::Ui, id: &str, ordered: bool, items: &[S]) {
        for (k, item) in items.iter().enumerate() {
            if ordered {
                ui.label(format!("{}. {}", k + 1, item.as_ref()));
            } else {
                ui.label(format!("• {}", item.as_ref()));
            }
        }
        let list = super::paged::Paged::list(self, id);
        let list = if ordered { list.ordered() } else { list };
        list.items(|l| {
            for item in items {
                l.item(item.as_ref());
            }
        });
    }

    /// A long list or a live log for both, of `total` items given by index (`item(k)` for `k`
    /// in `0..total`, so a `VecDeque` or lines formatted on the spot need no copy). The person
    /// reads one line per item in a scroll area that lays out only the visible rows (100,000
    /// lines cost what 20 do), stuck to the newest line with
    /// [`ListOptions::stick_to_bottom`]. Agents read the `list` block `id` holding a page of it,
    /// the first [`DEFAULT_AGENT_ITEMS`] items unless the options say otherwise (never more than
    /// [`MAX_AGENT_ITEMS`]), with its offset and the total when it is not the whole list; with
    /// [`ListOptions::page_action`] they fetch any other page through a read-only tool.
    /// Returns egui's output of the person's scroll area.
    ///
    /// ```
    /// use std::collections::VecDeque;
    /// use egui_mcp_bridge::{ActionSpec, Bridge, blocks::ListOptions};
    ///
    /// let bridge = Bridge::builder().build();
    /// let lines: VecDeque<String> = (0..100_000).map(|k| format!("reading {k}")).collect();
    /// let autoscroll = true;
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("console").title("Console").ui(ui, |w, ui| {
    ///     let options = ListOptions::new()
    ///         .newest_items(50) // agents read the newest 50 lines, and the total
    ///         .stick_to_bottom(autoscroll)
    ///         .page_action("read_lines", ActionSpec::new("Read lines"));
    ///     w.long_list(ui, "lines", lines.len(), |k| lines[k].as_str(), options);
    /// });
    /// # });
    /// ```
    pub fn long_list<'c, C: Into<Cell<'c>>>(
        &mut self,
        ui: &mut egui::Ui,
        id: &str,
        total: usize,
        item: impl Fn(usize) -> C,
        options: ListOptions<'_>,
    ) -> egui::scroll_area::ScrollAreaOutput<()> {
        let ListOptions { page, ordered, stick_to_bottom, height, page_action } = options;
        // A read that changes nothing: offered as the block is declared, whatever the gate says.
        if let Some((name, spec)) = page_action {
            let description = format!(
                "Items of the list `{id}` from offset (0-based, default 0), at most limit (default \
                 {DEFAULT_AGENT_ITEMS}, at most {MAX_AGENT_ITEMS}); answers items, offset and total"
            );
            let spec = if spec.description.is_some() { spec } else { spec.description(description) };
            if let Some(press) = self.offer::<PageArgs>(name, spec.read_only()) {
                answer_page(press, total, &item);
            }
        }
        let page = page.range(total);
        let (first, shown) = (page.start, page.len());
        let list = super::paged::Paged::list(self, id);
        let list = if ordered { list.ordered() } else { list };
        let list = if shown == total { list } else { list.slice(first as u64, total as u64) };
        list.items(|l| {
            for k in first..first + shown {
                l.item(item(k));
            }
        });
        // The person's rows are the declared list: described, scroll area and all.
        ui.scope(|ui| {
            super::both::described_widget(self, ui.unique_id());
            let row_height = ui.text_style_height(&egui::TextStyle::Body);
            let height = height.unwrap_or_else(|| ui.available_height());
            egui::ScrollArea::vertical()
                .id_salt(("egui_mcp_bridge::list", id))
                .auto_shrink([false, true])
                .max_height(height)
                .stick_to_bottom(stick_to_bottom)
                .show_rows(ui, row_height, total, |ui, rows| {
                    for k in rows {
                        let text = shown_item(item(k).into());
                        let text = if ordered { format!("{}. {text}", k + 1) } else { text };
                        ui.add(egui::Label::new(text).truncate());
                    }
                })
        })
        .inner
    }
}

/// An item as the person reads it: a string as it is, any other value as JSON writes it.
fn shown_item(cell: Cell<'_>) -> String {
    match cell {
        Cell::Str(s) => s.into_owned(),
        other => display(&other.into_value()),
    }
}

/// Answers a call to a long list's page tool with the items asked for, the offset and the
/// total (an offset past the end gives no items, and the total).
fn answer_page<'c, C: Into<Cell<'c>>>(press: Press<PageArgs>, total: usize, item: &impl Fn(usize) -> C) {
    press.handle(|args| {
        let limit = args.limit.unwrap_or(DEFAULT_AGENT_ITEMS).min(MAX_AGENT_ITEMS);
        let offset = usize::try_from(args.offset).unwrap_or(usize::MAX).min(total);
        let end = offset.saturating_add(limit).min(total);
        let items: Vec<serde_json::Value> = (offset..end).map(|k| item(k).into().into_value()).collect();
        let message = format!("{} of {total} items from offset {offset}", items.len());
        Ok(ToolResult::message(message)
            .with_result(serde_json::json!({ "items": items, "offset": offset, "total": total })))
    });
}

/// The arguments of a long list's page tool (its description names them: parameter
/// descriptions would repeat it in every listing).
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct PageArgs {
    #[serde(default)]
    offset: u64,
    #[schemars(range(min = 1, max = MAX_AGENT_ITEMS))]
    limit: Option<usize>,
}

/// How a [`WindowUi::long_list`] shows its items, built as egui's widgets are:
/// `ListOptions::new().newest_items(50).stick_to_bottom(true)`.
#[derive(Clone, Debug)]
pub struct ListOptions<'a> {
    page: Page,
    ordered: bool,
    stick_to_bottom: bool,
    height: Option<f32>,
    page_action: Option<(&'a str, ActionSpec)>,
}

impl Default for ListOptions<'_> {
    fn default() -> Self {
        Self {
            page: Page::First(DEFAULT_AGENT_ITEMS),
            ordered: false,
            stick_to_bottom: false,
            height: None,
            page_action: None,
        }
    }
}

impl<'a> ListOptions<'a> {
    /// Agents read the first [`DEFAULT_AGENT_ITEMS`] items; the person's rows start at the top
    /// and take the height left in the `ui`; no page tool.
    pub fn new() -> Self {
        Self::default()
    }

    /// Agents read the first `n` items in the state (at most [`MAX_AGENT_ITEMS`]); the total
    /// says how many there are.
    #[must_use]
    pub fn agent_items(mut self, n: usize) -> Self {
        self.page = Page::First(n);
        self
    }

    /// Agents read the newest (last) `n` items in the state (at most [`MAX_AGENT_ITEMS`]), as
    /// a log's reader does; the offset and total say where they are.
    #[must_use]
    pub fn newest_items(mut self, n: usize) -> Self {
        self.page = Page::Newest(n);
        self
    }

    /// The order means something (steps, a ranking): numbered lines for the person, an ordered
    /// `list` block for agents.
    #[must_use]
    pub fn ordered(mut self) -> Self {
        self.ordered = true;
        self
    }

    /// While the person's rows are scrolled to the end, they stay there as items are added (a
    /// live log; egui's `ScrollArea::stick_to_bottom`). Shown first, they start at the end.
    #[must_use]
    pub fn stick_to_bottom(mut self, stick: bool) -> Self {
        self.stick_to_bottom = stick;
        self
    }

    /// The most height of the person's scrolled rows (default: what is left in the `ui`).
    #[must_use]
    pub fn height(mut self, height: f32) -> Self {
        self.height = Some(height);
        self
    }

    /// A read-only tool `name {offset, limit}` that answers any page of the list (§9: the
    /// state holds a page, the rest is fetched on demand): its `items`, `offset` and `total`,
    /// at most [`MAX_AGENT_ITEMS`] items a call. `spec` gives its title; without a
    /// description, the bridge says what it takes and answers.
    #[must_use]
    pub fn page_action(mut self, name: &'a str, spec: ActionSpec) -> Self {
        self.page_action = Some((name, spec));
        self
    }
}
