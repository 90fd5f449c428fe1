//! Widgets that draw for the person and declare for agents in one call, inside a window shown
//! with [`WindowBuilder::ui`](super::WindowBuilder::ui): a button that is also an action, a
//! gesture with arguments (each a [`Press`] for one handler), links, text, notices and media.
//! Fields are in `form.rs`, tables in `table.rs`, lists in `list.rs`.

use super::{Describe, ForAgents, Press, WindowUi};
use crate::hub::ActionSpec;

/// Success as the person sees it: a `Success` notice, and an agent's call that went well in
/// the activity panel. egui's visuals have a warning and an error colour, no success one.
pub(crate) const SUCCESS_GREEN: egui::Color32 = egui::Color32::from_rgb(80, 180, 110);

impl WindowUi {
    /// An action with arguments whose person's gesture gives the same arguments (a PIN field and
    /// Unlock, a product, a quantity and Add): `draw` draws the person's widgets and returns the
    /// arguments when the person completes the gesture; an agent's call to `name` comes with
    /// them parsed and checked against `A`. Both come out as one [`Press`] with the arguments,
    /// for one handler.
    /// Drawn in a `ui` the app disabled, the action is not offered either.
    ///
    /// ```
    /// use egui_mcp_bridge::{ActionSpec, Bridge, ToolError, ToolResult};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Unlock {
    ///     /// The four-digit PIN.
    ///     pin: String,
    /// }
    ///
    /// let bridge = Bridge::builder().build();
    /// let (mut typed, mut locked) = (String::new(), true);
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("lock").title("Locked").ui(ui, |w, ui| {
    ///     let unlock = w.gesture(ui, "unlock", ActionSpec::new("Unlock"), |ui| {
    ///         ui.add(egui::TextEdit::singleline(&mut typed).password(true));
    ///         ui.button("Unlock").clicked().then(|| Unlock { pin: typed.clone() })
    ///     });
    ///     if let Some(press) = unlock {
    ///         press.handle(|args| {
    ///             if args.pin != "1234" {
    ///                 return Err(ToolError::invalid_field("pin", "Wrong PIN"));
    ///             }
    ///             locked = false;
    ///             Ok(ToolResult::message("Unlocked"))
    ///         });
    ///     }
    /// });
    /// # });
    /// ```
    pub fn gesture<A>(
        &mut self,
        ui: &mut egui::Ui,
        name: &str,
        spec: ActionSpec,
        draw: impl FnOnce(&mut egui::Ui) -> Option<A>,
    ) -> Option<Press<A>>
    where
        A: serde::de::DeserializeOwned + schemars::JsonSchema + 'static,
    {
        self.add(ui, Gesture { name, spec, draw })
    }

    /// A link that does something in the app (egui's `ui.link`): drawn as a link, and the action
    /// `name` for agents, one handler for both (as [`button`](Self::button)).
    pub fn link(&mut self, ui: &mut egui::Ui, name: &str, spec: ActionSpec) -> egui::InnerResponse<Option<Press>> {
        let title = spec.title.clone();
        self.add_button(ui, name, spec, egui::Link::new(title.as_ref()))
    }

    /// A link to a web page for both: the person's hyperlink opens it in the browser; agents read
    /// it as the `text` block `id`, "text: url" (an agent does not open the person's browser).
    /// The link's text may be rich (`egui::RichText`: strong, coloured, an icon): agents read
    /// its words.
    pub fn hyperlink(
        &mut self,
        ui: &mut egui::Ui,
        id: &str,
        text: impl Into<egui::WidgetText>,
        url: &str,
    ) -> egui::Response {
        let text: egui::WidgetText = text.into();
        let words = text.text().to_owned();
        let response = ui.hyperlink_to(text, url);
        super::both::described_widget(self, response.id);
        self.agents().text(id, &format!("{words}: {url}"));
        response
    }

    /// Tells the read view that the widget of `response` is described: the person's own way to
    /// an action this window declares in some other way (a "Submit" button beside the agent's
    /// `submit {…}` with arguments), or the person's alone on purpose. It is then neither read
    /// into the window's `undescribed-…` blocks nor listed by
    /// `testing::Harness::undescribed` (feature `testing`).
    pub fn describes(&mut self, response: &egui::Response) {
        super::both::described_widget(self, response.id);
    }

    /// A paragraph for both: drawn as a label, declared as a `text` block. Returns the label's
    /// response, as egui's `ui.label` does (for a tooltip: `.on_hover_text(…)`).
    pub fn label(&mut self, ui: &mut egui::Ui, id: &str, text: &str) -> egui::Response {
        self.agents().text(id, text);
        ui.label(text)
    }

    /// A status line for both: drawn in the severity's colour, declared as a `notice` block.
    /// Returns the label's response, as egui's `ui.colored_label` does.
    pub fn notice(
        &mut self,
        ui: &mut egui::Ui,
        id: &str,
        severity: crate::protocol::windows::Severity,
        text: &str,
    ) -> egui::Response {
        let color = match severity {
            crate::protocol::windows::Severity::Info => ui.visuals().text_color(),
            crate::protocol::windows::Severity::Warn => ui.visuals().warn_fg_color,
            crate::protocol::windows::Severity::Error => ui.visuals().error_fg_color,
            crate::protocol::windows::Severity::Success => SUCCESS_GREEN,
        };
        self.agents().notice(id, severity, text);
        ui.colored_label(color, text)
    }

    /// A button that is also the action `name`: the person's click and an agent's call come
    /// out as one [`Press`] (the response's `inner`, beside egui's response to the person's
    /// button, as egui's containers give theirs), so one handler serves both. The
    /// button reads the action's title; its tooltip is the action's description, so both
    /// audiences read the same words. It is drawn disabled when the window is blocked, as the
    /// action is then not offered; drawn in a `ui` the app disabled (`ui.add_enabled_ui(false,
    /// …)`, `ui.disable()`), it is disabled for agents too: the action is not listed, and a call
    /// to it is refused as not available.
    ///
    /// ```
    /// use egui_mcp_bridge::{ActionSpec, Bridge};
    ///
    /// let bridge = Bridge::builder().build();
    /// let (mut connected, mut log) = (false, Vec::new());
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("port").title("Port").ui(ui, |w, ui| {
    ///     ui.add_enabled_ui(!connected, |ui| {
    ///         let spec = ActionSpec::new("Connect").description("Opens the serial port");
    ///         if let Some(press) = w.button(ui, "connect", spec).inner {
    ///             connected = true;
    ///             press.ok("Connected");
    ///         }
    ///     });
    ///     // Any egui button: an icon, small, an image; the response for more of egui.
    ///     let clear = w.add_button(ui, "clear", ActionSpec::new("Clear the log"), egui::Button::new("🗑").small());
    ///     if let Some(press) = clear.inner {
    ///         log.clear();
    ///         press.ok("Cleared");
    ///     }
    ///     # let _: &Vec<String> = &log;
    /// });
    /// # });
    /// ```
    pub fn button(&mut self, ui: &mut egui::Ui, name: &str, spec: ActionSpec) -> egui::InnerResponse<Option<Press>> {
        let title = spec.title.clone();
        self.add_button(ui, name, spec, egui::Button::new(title.as_ref()))
    }

    /// [`button`](Self::button) with the person's button as the app makes it (an icon or
    /// image, rich text, small, a shortcut's text): any `egui::Button`, or any widget whose
    /// click is the press (`egui::Link`, an `egui::Image` that senses clicks). Agents read the
    /// action's title and description, so give the words an icon stands for there.
    pub fn add_button(
        &mut self,
        ui: &mut egui::Ui,
        name: &str,
        spec: ActionSpec,
        button: impl egui::Widget,
    ) -> egui::InnerResponse<Option<Press>> {
        let enabled = self.gate().allows(ui);
        let mut response = ui.add_enabled(!self.blocked, button);
        super::both::described_widget(self, response.id);
        if let Some(description) = &spec.description {
            response = response.on_hover_text(description.as_ref());
        }
        // Disabled by the app: not offered to agents (§5.1: an unavailable action is hidden).
        let call = if enabled { self.offer(name, spec) } else { None };
        let press = match (call, response.clicked()) {
            (Some(call), _) => Some(call),
            (None, true) => Some(Press::person(crate::hub::NoArgs {})),
            (None, false) => None,
        };
        egui::InnerResponse::new(press, response)
    }

    /// A picture for both: `draw` paints it for the person, agents read the `media` block `id`
    /// (its `url`, such as a `data:image/png;base64,…` of the same picture, and an `alt` text
    /// that states what it shows).
    pub fn media(
        &mut self,
        ui: &mut egui::Ui,
        id: &str,
        (mime_type, url): (&str, &str),
        alt: &str,
        draw: impl FnOnce(&mut egui::Ui),
    ) {
        draw(ui);
        self.agents().media(id, mime_type, url, Some(alt));
    }
}

/// [`WindowUi::gesture`]'s widget: the person's gesture and the agent's call, one action.
struct Gesture<'n, F> {
    name: &'n str,
    spec: ActionSpec,
    draw: F,
}

impl<A, F> Describe for Gesture<'_, F>
where
    A: serde::de::DeserializeOwned + schemars::JsonSchema + 'static,
    F: FnOnce(&mut egui::Ui) -> Option<A>,
{
    type Output = Option<Press<A>>;

    fn show(self, ui: &mut egui::Ui, agent: &mut ForAgents<'_>) -> Self::Output {
        let person = (self.draw)(ui);
        agent.press(self.name, self.spec, person)
    }
}
