//! Tables for both audiences: every row for the person, scrolled and laid out only where
//! visible; the first or the newest rows and the total for agents (§9); a row button that is
//! also an action.

use super::check::display;
use super::content::{Mode, Rows};
use super::{Press, WindowUi};
use crate::hub::ActionSpec;

impl WindowUi {
    /// A table for both: the person sees every row of `rows` (scrolled, drawn only where
    /// visible, each with an optional button), agents read it as the `table` block `id`, with at
    /// most [`TableOptions::agent_rows`] rows (the first) or [`TableOptions::newest_rows`] (the
    /// last) and the total (the rest belongs behind a read-only tool, §9). `cells` gives one
    /// row's cells, lined up with `columns` (`|order, t| t.row((order.id.as_str(),
    /// order.total))`). With
    /// [`TableOptions::row_action`], each row's button is also an action `{row}` for agents
    /// (0-based, over all the rows): the person's click and the agent's call come out as one
    /// [`Press`] whose arguments are the row. Returns the row's press in this pass.
    pub fn table<T>(
        &mut self,
        ui: &mut egui::Ui,
        id: &str,
        columns: &[&str],
        rows: &[T],
        cells: impl Fn(&T, &mut Rows<'_>),
        mut options: TableOptions<'_>,
    ) -> Option<Press<usize>> {
        let agent = match options.row_action.take() {
            Some((name, spec)) if self.gate().allows(ui) => self.agents_row(name, spec, rows.len()),
            _ => None,
        };
        let shown = options.agent_rows.map_or(rows.len(), |n| n.min(rows.len()));
        let first = if options.newest { rows.len() - shown } else { 0 };
        let table = super::paged::Paged::table(self, id, columns);
        let table = if shown < rows.len() { table.slice(first as u64, rows.len() as u64) } else { table };
        table.rows(|t| {
            for r in &rows[first..first + shown] {
                cells(r, t);
            }
        });
        // The person's table is the declared one: described, with its row buttons.
        let clicked = ui
            .scope(|ui| {
                super::both::described_widget(self, ui.unique_id());
                draw_table(ui, id, columns, rows, &cells, &options)
            })
            .inner;
        agent.or_else(|| clicked.map(Press::person))
    }

    /// Declares a table's row action and takes an agent's call to it, refusing a row that is not
    /// there.
    pub(super) fn agents_row(&mut self, name: &str, spec: ActionSpec, rows: usize) -> Option<Press<usize>> {
        let call = self.offer::<RowArgs>(name, spec)?;
        let row = call.args().row;
        if row >= rows {
            let range = if rows == 0 { "there are no rows".to_owned() } else { format!("must be 0 to {}", rows - 1) };
            call.fail(crate::protocol::ToolError::invalid_field("row", range));
            return None;
        }
        Some(call.map_args(|_| row))
    }
}

/// A cell as the person reads it: a number in whole cents with two decimals (`215.30`, as
/// money is written), any other as JSON writes it.
fn shown_cell(value: &serde_json::Value) -> String {
    match value.as_f64() {
        Some(f) if value.is_f64() && f.fract() != 0.0 && ((f * 100.0).round() - f * 100.0).abs() < 1e-6 => {
            format!("{f:.2}")
        }
        _ => display(value),
    }
}

/// The arguments of a table's row action: the row, 0-based over all the rows (the action's
/// description says so; a parameter description would repeat it in every listing).
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct RowArgs {
    row: usize,
}

/// How a [`WindowUi::table`] shows its rows, built as egui's widgets are:
/// `TableOptions::new().agent_rows(20).row_button("Open")`.
#[derive(Clone, Debug, Default)]
pub struct TableOptions<'a> {
    agent_rows: Option<usize>,
    newest: bool,
    row_button: Option<&'a str>,
    row_action: Option<(&'a str, ActionSpec)>,
    height: Option<f32>,
}

impl<'a> TableOptions<'a> {
    /// All rows for agents, no row button, the height left in the window.
    pub fn new() -> Self {
        Self::default()
    }

    /// The most rows agents read in the state, the first ones (default: all); the total says
    /// how many there are.
    #[must_use]
    pub fn agent_rows(mut self, n: usize) -> Self {
        self.agent_rows = Some(n);
        self.newest = false;
        self
    }

    /// Agents read the newest (last) `n` rows in the state, for a table that grows at the
    /// bottom (a log, readings); the offset and total say where they are.
    #[must_use]
    pub fn newest_rows(mut self, n: usize) -> Self {
        self.agent_rows = Some(n);
        self.newest = true;
        self
    }

    /// A button at the end of each of the person's rows ("Open", "Remove").
    #[must_use]
    pub fn row_button(mut self, text: &'a str) -> Self {
        self.row_button = Some(text);
        self
    }

    /// The row button as an action for agents too: `name {row}`, described by `spec` (say that
    /// rows are 0-based, as the state's rows are listed).
    #[must_use]
    pub fn row_action(mut self, name: &'a str, spec: ActionSpec) -> Self {
        self.row_action = Some((name, spec));
        self
    }

    /// The height of the person's scrolled rows (default: what is left of the window).
    #[must_use]
    pub fn height(mut self, height: f32) -> Self {
        self.height = Some(height);
        self
    }
}

/// The person's table: a header, then the rows in a scroll area that lays out only the visible
/// ones (20,000 rows cost what 20 do), whole rows only.
fn draw_table<T>(
    ui: &mut egui::Ui,
    id: &str,
    columns: &[&str],
    rows: &[T],
    cells: &impl Fn(&T, &mut Rows<'_>),
    options: &TableOptions<'_>,
) -> Option<usize> {
    let grid = Grid::fitting(ui, columns.len(), options.row_button);
    ui.horizontal(|ui| {
        for c in columns {
            grid.cell(ui, egui::RichText::new(*c).strong(), false);
        }
    });
    ui.separator();
    let pitch = grid.row_height + ui.spacing().item_spacing.y;
    let height = options.height.unwrap_or_else(|| ui.available_height());
    let whole = (height / pitch).floor().max(3.0) * pitch;
    let mut clicked = None;
    egui::ScrollArea::vertical()
        .id_salt(("egui_mcp_bridge::table", id))
        .auto_shrink([false, true])
        .max_height(whole)
        .show_rows(ui, grid.row_height, rows.len(), |ui, range| {
            for k in range {
                let mut built = Vec::new();
                cells(&rows[k], &mut Rows { mode: Mode::Build(&mut built) });
                ui.horizontal(|ui| {
                    for value in built.iter().flatten() {
                        grid.cell(ui, egui::RichText::new(shown_cell(value)), value.is_number());
                    }
                    if let Some(b) = options.row_button
                        && ui.small_button(b).clicked()
                    {
                        clicked = Some(k);
                    }
                });
            }
        });
    clicked
}

/// The size of the person's table's cells.
struct Grid {
    width: f32,
    row_height: f32,
}

impl Grid {
    /// Columns that share the window as it is, beside the row button (its text and padding)
    /// and the scroll bar's room, so that the rows never widen it.
    fn fitting(ui: &egui::Ui, columns: usize, row_button: Option<&str>) -> Self {
        let spacing = ui.spacing().item_spacing.x;
        let button = row_button.map_or(0.0, |b| {
            let font = egui::TextStyle::Button.resolve(ui.style());
            let text = ui.painter().layout_no_wrap(b.to_owned(), font, egui::Color32::WHITE).size().x;
            text + 2.0 * ui.spacing().button_padding.x + spacing
        });
        let n = columns.max(1) as f32;
        let room = ui.available_width() - button - ui.spacing().scroll.bar_width - 2.0 * spacing;
        Self { width: (room / n - spacing).max(40.0), row_height: ui.text_style_height(&egui::TextStyle::Body) + 6.0 }
    }

    /// One cell: text starts at the left of its column, a number ends at the right of it.
    fn cell(&self, ui: &mut egui::Ui, text: egui::RichText, number: bool) {
        let layout = if number {
            egui::Layout::right_to_left(egui::Align::Center)
        } else {
            egui::Layout::left_to_right(egui::Align::Center)
        };
        ui.allocate_ui_with_layout(egui::vec2(self.width, self.row_height), layout, |ui| {
            ui.set_min_width(self.width);
            ui.add(egui::Label::new(text).truncate());
        });
    }
}
