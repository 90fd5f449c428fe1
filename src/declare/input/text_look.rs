//! A text edit's options that are egui's own ([`TextLook`]): rows, focus, font, colour,
//! layouter, alignment, background, margin, clipping and size. None changes what agents read or
//! may set.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use super::TextInput;

/// A text edit's options that are egui's own and change nothing agents read: rows, focus, font,
/// colour, layouter, alignment, background, margin, clipping and size.
#[derive(Clone, Debug, Default)]
pub(in crate::declare) struct TextLook {
    /// egui's `desired_rows` (the bridge's own: 3 for several lines, 4 for code).
    pub rows: Option<usize>,
    /// egui's `lock_focus`: the tab key indents instead of moving on.
    pub lock_focus: Option<bool>,
    pub font: Option<egui::FontSelection>,
    pub color: Option<egui::Color32>,
    pub layouter: Option<Layouter>,
    /// egui's `align`: where the text sits in the edit.
    pub align: Option<egui::Align2>,
    pub background: Option<egui::Color32>,
    pub margin: Option<egui::Margin>,
    /// egui's `clip_text`: a line longer than the edit is clipped (or the edit grows).
    pub clip: Option<bool>,
    /// The edit's size, as egui's `Ui::add_sized` gives it.
    pub size: Option<egui::Vec2>,
    /// Any other option of egui's `TextEdit`, as the app sets it ([`TextInput::text_edit`]).
    pub edit: Option<EditOptions>,
}

/// The app's own options on egui's `TextEdit` ([`TextInput::text_edit`]).
#[derive(Clone)]
pub(in crate::declare) struct EditOptions(pub Arc<EditOptionsFn>);

/// What [`TextInput::text_edit`] takes: egui's `TextEdit` as the bridge set it up, returned as
/// the app wants it.
pub(in crate::declare) type EditOptionsFn = dyn for<'t> Fn(egui::TextEdit<'t>) -> egui::TextEdit<'t> + Send + Sync;

impl std::fmt::Debug for EditOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("EditOptions")
    }
}

/// How a text edit lays its text out (egui's `TextEdit::layouter`: syntax colouring).
#[derive(Clone)]
pub(in crate::declare) struct Layouter(pub Arc<LayouterFn>);

/// A text edit's layouter, as egui calls it: the `ui`, the text and the width to wrap at.
pub(in crate::declare) type LayouterFn =
    dyn Fn(&egui::Ui, &dyn egui::TextBuffer, f32) -> Arc<egui::Galley> + Send + Sync;

impl std::fmt::Debug for Layouter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Layouter")
    }
}

impl PartialEq for TextLook {
    fn eq(&self, other: &Self) -> bool {
        let same_layouter = match (&self.layouter, &other.layouter) {
            (Some(a), Some(b)) => Arc::ptr_eq(&a.0, &b.0),
            (a, b) => a.is_none() && b.is_none(),
        };
        let same_edit = match (&self.edit, &other.edit) {
            (Some(a), Some(b)) => Arc::ptr_eq(&a.0, &b.0),
            (a, b) => a.is_none() && b.is_none(),
        };
        (self.rows, self.lock_focus, self.color) == (other.rows, other.lock_focus, other.color)
            && (self.align, self.background, self.margin, self.clip, self.size)
                == (other.align, other.background, other.margin, other.clip, other.size)
            && self.font.as_ref().map(font_key) == other.font.as_ref().map(font_key)
            && same_layouter
            && same_edit
    }
}

/// A font selection as it is compared and hashed (egui's `FontSelection` is neither).
fn font_key(font: &egui::FontSelection) -> (u8, Option<&egui::FontId>, Option<&egui::TextStyle>) {
    match font {
        egui::FontSelection::Default => (0, None, None),
        egui::FontSelection::FontId(id) => (1, Some(id), None),
        egui::FontSelection::Style(style) => (2, None, Some(style)),
    }
}

impl TextLook {
    /// Hashes what [`PartialEq`] compares, but for the layouter and the app's own options
    /// (compared by address: an app makes new ones every pass; neither changes what agents read).
    pub(super) fn hash_into<H: Hasher>(&self, h: &mut H) {
        (self.rows, self.lock_focus, self.color, self.font.as_ref().map(font_key)).hash(h);
        (self.align, self.background, self.clip, self.size.map(|s| (s.x.to_bits(), s.y.to_bits()))).hash(h);
        self.margin.map(|m| (m.left, m.right, m.top, m.bottom)).hash(h);
    }
}

/// egui's own options on a text edit.
impl TextInput {
    /// Sets a text edit's option.
    fn text_look(mut self, set: impl FnOnce(&mut TextLook)) -> Self {
        set(&mut self.0.look.text);
        self
    }

    /// How many rows a text edit shows, as egui's `TextEdit::desired_rows` (the
    /// bridge's own: 3 for [`multiline`](Self::multiline), 4 for [`code`](Self::code)).
    ///
    /// ```
    /// # let bridge = egui_mcp_bridge::Bridge::builder().build();
    /// # let mut notes = String::new();
    /// use egui_mcp_bridge::Input;
    ///
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("notes").title("Notes").ui(ui, |w, ui| {
    ///     w.form(ui, "notes", |f| {
    ///         f.edit("notes", &Input::text("Notes").multiline().desired_rows(8), &mut notes);
    ///     });
    /// });
    /// # });
    /// ```
    #[must_use]
    pub fn desired_rows(self, rows: usize) -> Self {
        self.text_look(|t| t.rows = Some(rows))
    }

    /// Whether the tab key indents instead of moving to the next widget, as egui's
    /// `TextEdit::lock_focus` ([`code`](Self::code) has it on). The text agents may set is the
    /// same either way.
    ///
    /// ```
    /// # let bridge = egui_mcp_bridge::Bridge::builder().build();
    /// # let mut script = String::new();
    /// use egui_mcp_bridge::Input;
    ///
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("script").title("Script").ui(ui, |w, ui| {
    ///     w.form(ui, "script", |f| {
    ///         f.edit("script", &Input::text("Script").multiline().lock_focus(true), &mut script);
    ///     });
    /// });
    /// # });
    /// ```
    #[must_use]
    pub fn lock_focus(self, tab_will_indent: bool) -> Self {
        self.text_look(|t| t.lock_focus = Some(tab_will_indent))
    }

    /// The text edit's font, as egui's `TextEdit::font`: a `TextStyle` or a `FontId`.
    ///
    /// ```
    /// # let bridge = egui_mcp_bridge::Bridge::builder().build();
    /// # let mut title = String::new();
    /// use egui_mcp_bridge::Input;
    ///
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("doc").title("Document").ui(ui, |w, ui| {
    ///     w.form(ui, "doc", |f| {
    ///         f.edit("title", &Input::text("Title").font(egui::TextStyle::Heading), &mut title);
    ///     });
    /// });
    /// # });
    /// ```
    #[must_use]
    pub fn font(self, font: impl Into<egui::FontSelection>) -> Self {
        self.text_look(|t| t.font = Some(font.into()))
    }

    /// The text edit's text colour, as egui's `TextEdit::text_color`.
    ///
    /// ```
    /// # let bridge = egui_mcp_bridge::Bridge::builder().build();
    /// # let mut error = String::new();
    /// use egui_mcp_bridge::Input;
    ///
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("log").title("Log").ui(ui, |w, ui| {
    ///     w.form(ui, "log", |f| {
    ///         f.edit("error", &Input::text("Error").text_color(egui::Color32::RED), &mut error);
    ///     });
    /// });
    /// # });
    /// ```
    #[must_use]
    pub fn text_color(self, color: egui::Color32) -> Self {
        self.text_look(|t| t.color = Some(color))
    }

    /// Where the text sits in the text edit, as egui's `TextEdit::align` (its
    /// `horizontal_align` and `vertical_align`).
    ///
    /// ```
    /// # let bridge = egui_mcp_bridge::Bridge::builder().build();
    /// # let mut note = String::new();
    /// use egui::Align2;
    /// use egui_mcp_bridge::Input;
    ///
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("note").title("Note").ui(ui, |w, ui| {
    ///     w.form(ui, "note", |f| {
    ///         let input = Input::text("Note").multiline().align(Align2::CENTER_CENTER);
    ///         f.edit("note", &input.background_color(egui::Color32::DARK_BLUE).margin(8.0), &mut note);
    ///     });
    /// });
    /// # });
    /// ```
    #[must_use]
    pub fn align(self, align: egui::Align2) -> Self {
        self.text_look(|t| t.align = Some(align))
    }

    /// The text edit's background, as egui's `TextEdit::background_color` (see
    /// [`align`](Self::align)).
    #[must_use]
    pub fn background_color(self, color: egui::Color32) -> Self {
        self.text_look(|t| t.background = Some(color))
    }

    /// The room around the text inside the edit, as egui's `TextEdit::margin` (see
    /// [`align`](Self::align)).
    #[must_use]
    pub fn margin(self, margin: impl Into<egui::Margin>) -> Self {
        self.text_look(|t| t.margin = Some(margin.into()))
    }

    /// Whether a line longer than the text edit is clipped or the edit grows to hold it,
    /// as egui's `TextEdit::clip_text`.
    #[must_use]
    pub fn clip_text(self, clip: bool) -> Self {
        self.text_look(|t| t.clip = Some(clip))
    }

    /// The text edit's size, as egui's `ui.add_sized(size, text_edit)` gives it (a
    /// password box as wide and tall as the room left, `ui.available_size()`).
    ///
    /// ```
    /// # let bridge = egui_mcp_bridge::Bridge::builder().build();
    /// # let mut password = String::new();
    /// use egui_mcp_bridge::Input;
    ///
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("login").title("Log in").ui(ui, |w, ui| {
    ///     w.form(ui, "login", |f| {
    ///         f.edit("password", &Input::secret("Password").size([200.0, 30.0]), &mut password);
    ///     });
    /// });
    /// # });
    /// ```
    #[must_use]
    pub fn size(self, size: impl Into<egui::Vec2>) -> Self {
        self.text_look(|t| t.size = Some(size.into()))
    }

    /// How the text edit lays its text out, as egui's `TextEdit::layouter`: a code
    /// editor's syntax colouring. Called with the `ui`, the text and the width to wrap at, as
    /// egui calls it, at least once a pass: keep what it works out in egui's memory if it is
    /// slow. Agents read and set the text itself.
    ///
    /// ```
    /// # let bridge = egui_mcp_bridge::Bridge::builder().build();
    /// # let mut code = String::from("let x = 1;");
    /// use egui_mcp_bridge::Input;
    ///
    /// // Keywords in orange, the rest as the style says.
    /// let highlight = |ui: &egui::Ui, text: &dyn egui::TextBuffer, wrap_width: f32| {
    ///     let mut job = egui::text::LayoutJob::default();
    ///     let font = egui::TextStyle::Monospace.resolve(ui.style());
    ///     for word in text.as_str().split_inclusive(' ') {
    ///         let keyword = word.trim() == "let";
    ///         let color = if keyword { egui::Color32::ORANGE } else { ui.visuals().text_color() };
    ///         job.append(word, 0.0, egui::TextFormat::simple(font.clone(), color));
    ///     }
    ///     job.wrap.max_width = wrap_width;
    ///     ui.fonts_mut(|f| f.layout_job(job))
    /// };
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("editor").title("Editor").ui(ui, |w, ui| {
    ///     w.form(ui, "source", |f| {
    ///         f.edit("code", &Input::text("Code").code().layouter(highlight), &mut code);
    ///     });
    /// });
    /// # });
    /// ```
    #[must_use]
    pub fn layouter(
        self,
        layouter: impl Fn(&egui::Ui, &dyn egui::TextBuffer, f32) -> Arc<egui::Galley> + Send + Sync + 'static,
    ) -> Self {
        self.text_look(|t| t.layouter = Some(Layouter(Arc::new(layouter))))
    }

    /// Any other option of egui's `TextEdit` (`frame`, `min_size`, `cursor_at_end`,
    /// `return_key`, `id_salt`…), as egui's own builder: `options` gets the
    /// `TextEdit` as the bridge set it up (the options above applied) and returns it as the app
    /// wants it. The field's rules stay the bridge's: its character limit and a secret's dots
    /// are set again after `options`, so the person can type nothing an agent could not set.
    /// Called every pass the field is drawn; compared by address, as
    /// [`layouter`](Self::layouter) is.
    ///
    /// ```
    /// # let bridge = egui_mcp_bridge::Bridge::builder().build();
    /// # let mut search = String::new();
    /// use egui_mcp_bridge::Input;
    ///
    /// let input = Input::text("Search").text_edit(|te| te.min_size(egui::vec2(240.0, 0.0)).cursor_at_end(false));
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("find").title("Find").ui(ui, |w, ui| {
    ///     w.form(ui, "find", |f| {
    ///         f.edit("search", &input, &mut search);
    ///     });
    /// });
    /// # });
    /// ```
    #[must_use]
    pub fn text_edit(
        self,
        options: impl for<'t> Fn(egui::TextEdit<'t>) -> egui::TextEdit<'t> + Send + Sync + 'static,
    ) -> Self {
        self.text_look(|t| t.edit = Some(EditOptions(Arc::new(options))))
    }
}
