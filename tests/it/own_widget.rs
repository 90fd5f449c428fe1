//! A widget of a third party's, written against `Describe` with the public API only (as a widget
//! crate would be): described once, one handler for the person and the agent, gated as the
//! bridge's own widgets are.

use egui_kittest::kittest::Queryable as _;
use egui_mcp_bridge::testing::Harness;
use egui_mcp_bridge::{Bridge, Press};
use serde_json::json;

/// What a widget crate would publish: a star rating.
mod stars {
    use egui_mcp_bridge::{ActionSpec, Describe, ForAgents, Press, ToolError, ToolResult};

    /// Up to five stars: the person clicks one, an agent calls `{name} {stars}`.
    pub struct Stars<'a> {
        name: &'a str,
        value: &'a u8,
    }

    impl<'a> Stars<'a> {
        pub fn new(name: &'a str, value: &'a u8) -> Self {
            Self { name, value }
        }
    }

    #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
    pub struct Rate {
        /// 1 to 5.
        pub stars: u8,
    }

    impl Describe for Stars<'_> {
        type Output = Option<Press<Rate>>;

        fn show(self, ui: &mut egui::Ui, agents: &mut ForAgents<'_>) -> Self::Output {
            let name = self.name;
            agents.fields(name, |f| f.field("Stars", f64::from(*self.value)));
            let clicked = ui
                .horizontal(|ui| {
                    let mut clicked = None;
                    for n in 1..=5u8 {
                        let r = ui.add(egui::Button::selectable(n <= *self.value, n.to_string()));
                        r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, format!("{n} stars")));
                        if r.clicked() {
                            clicked = Some(n);
                        }
                    }
                    clicked
                })
                .inner;
            agents.press(name, ActionSpec::new("Rate").description("1 to 5 stars"), clicked.map(|stars| Rate { stars }))
        }
    }

    /// The widget crate's checked handler: one for both audiences.
    pub fn rate(press: Press<Rate>, value: &mut u8) -> bool {
        press.handle(|rate| {
            if !(1..=5).contains(&rate.stars) {
                return Err(ToolError::invalid_field("stars", "must be 1 to 5"));
            }
            *value = rate.stars;
            Ok(ToolResult::message(format!("Rated {}", rate.stars)))
        })
    }
}

struct Review {
    bridge: Bridge,
    value: u8,
    enabled: bool,
    presses: Vec<(u8, bool)>,
}

fn app(ui: &mut egui::Ui, s: &mut Review) {
    let bridge = s.bridge.clone();
    bridge.window("review").title("Review").ui(ui, |w, ui| {
        ui.label("How was it?");
        // The app's own egui button, not described: read as such.
        let _ = ui.button("Skip");
        let press: Option<Press<stars::Rate>> =
            ui.add_enabled_ui(s.enabled, |ui| w.add(ui, stars::Stars::new("rate", &s.value))).inner;
        if let Some(press) = press {
            s.presses.push((press.args().stars, press.by_agent()));
            stars::rate(press, &mut s.value);
        }
    });
}

fn harness() -> Harness<'static, Review> {
    let bridge = Bridge::builder().build();
    Harness::new_ui_state(&bridge, app, Review { bridge: bridge.clone(), value: 3, enabled: true, presses: Vec::new() })
}

fn stars_read(h: &Harness<'_, Review>) -> serde_json::Value {
    let window = serde_json::to_value(h.window("review").expect("declared")).expect("serialises");
    window["blocks"].as_array().expect("blocks").iter().find(|b| b["id"] == "rate").expect("the rating")["items"][0]
        ["value"]
        .clone()
}

#[test]
fn a_third_party_widget_is_described_once_for_both_audiences() {
    let mut h = harness();
    h.run();
    assert_eq!(stars_read(&h), json!(3.0));
    // The person clicks the fourth star; the agent rates 5; one handler took both.
    h.get_by_label("4 stars").click();
    h.run();
    assert_eq!(stars_read(&h), json!(4.0));
    let version = h.window("review").expect("declared").version;
    let done = h.call("review__rate", json!({"stars": 5, "expectedVersion": version})).expect("rated");
    assert_eq!(done.message.as_deref(), Some("Rated 5"));
    assert_eq!(h.state().presses, [(4, false), (5, true)]);
    assert_eq!(stars_read(&h), json!(5.0));
    // The widget's own check answers per field, and nothing changes.
    let version = h.window("review").expect("declared").version;
    let error = h.call("review__rate", json!({"stars": 9, "expectedVersion": version})).expect_err("refused");
    assert_eq!(error.fields.as_deref().map(|f| f[0].field.as_str()), Some("stars"));
    assert_eq!(h.state().value, 5);
    // Described: nothing of it is read as undescribed (the label beside it is).
    let undescribed = h.undescribed();
    assert!(undescribed.iter().all(|u| !u.label.contains("stars")), "{undescribed:?}");
    assert!(undescribed.iter().any(|u| u.label.contains("Skip")), "{undescribed:?}");
}

#[test]
fn a_third_party_widget_the_app_disabled_is_read_and_not_offered() {
    let mut h = harness();
    h.state_mut().enabled = false;
    h.run();
    assert!(!h.tool_names().iter().any(|t| t == "review__rate"), "{:?}", h.tool_names());
    assert_eq!(stars_read(&h), json!(3.0));
    h.state_mut().enabled = true;
    h.run();
    assert!(h.tool_names().iter().any(|t| t == "review__rate"), "{:?}", h.tool_names());
}
