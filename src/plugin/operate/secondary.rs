//! A secondary (right) click, as a person makes it, on a control, a row or a label that senses
//! clicks (`press` with `secondary: true`): egui answers no accessibility request with one
//! (AccessKit's `ShowContextMenu` is not handled by egui 0.37), so the pointer goes where the
//! look shows the widget, egui must then see the widget under it (else it is scrolled into view
//! once, and refused if still covered), and the secondary button is pressed and released in the
//! next pass, where the app's `secondary_clicked()` (egui's `context_menu`) sees it. The looks
//! after it find the menu that opened; the answer lists its items by the keys `press` takes.

use std::collections::HashMap;

use egui::accesskit::{Action, Node, NodeId, Role, TreeUpdate};
use serde_json::{Map, Value, json};

use super::check::{Miss, find};
use super::event;
use crate::hub::clipped;
use crate::plugin::observe::{Clickable, Target};
use crate::protocol::{ErrorCode, FieldError, ToolError};

/// How many looks after the click may show its menu (egui lays a new popup out unseen first).
const MENU_LOOKS: u8 = 3;

/// Where a secondary click is.
#[derive(Clone, Copy, Debug)]
pub(super) enum Wait {
    /// The look shows where the widget is: the pointer goes there (`scrolled`: it was scrolled
    /// into view already).
    Place { scrolled: bool },
    /// Scrolled into view: egui's scroll area moves it in the pass after (the look after that
    /// shows where).
    Scrolled,
    /// The pointer went to `pos`: the button goes down there next if egui saw the widget under it.
    Over { pos: egui::Pos2, scrolled: bool },
    /// Pressed and released: the looks find the menu that opened (at most `looks` more).
    Menu { looks: u8 },
}

/// What a look decided.
pub(super) enum Next {
    /// These events go into the next pass.
    Inject(Vec<egui::Event>, Wait),
    /// The next look decides.
    Look(Wait),
    Failed(ToolError),
    /// The click is done: answered with what the window shows.
    Done,
}

/// A secondary click on one widget, and what it opened.
#[derive(Debug)]
pub(super) struct Click {
    pub(super) node: u64,
    /// The window's own background (`node` is the window's), not a widget in it.
    background: bool,
    /// egui saw the widget under the pointer in the last pass drawn (egui's hover).
    hovered: bool,
    /// The menus open before the click: the one it opened is not one of them.
    menus_before: Vec<u64>,
    /// Whether a menu opened, and then whether it is the widget's own (its child).
    menu: Option<bool>,
    /// Its items' nodes, in the order drawn.
    items: Vec<u64>,
    /// Where egui had the person's pointer before the click moved it (`None`: not over the app).
    person: Option<egui::Pos2>,
    /// Where the click moved the pointer, once it did.
    moved: Option<egui::Pos2>,
}

/// The widget `name` names for a secondary click: a control by key or label, else a label read
/// as text that senses clicks, by its text. A disabled one is refused, as it is to the person.
pub(super) fn target(
    targets: &[Target],
    labels: &[Clickable],
    name: &str,
    title: &str,
) -> Result<(u64, String), ToolError> {
    let miss = match find(targets, name, true) {
        Ok(t) if t.disabled => return Err(ToolError::disabled(title, [clipped(&t.label)])),
        Ok(t) => return Ok((t.node, t.label.clone())),
        Err(miss) => miss,
    };
    if !matches!(miss, Miss::Unknown) {
        return Err(super::check::press_refused(&miss, name, title, targets));
    }
    let found = super::check::named(labels.iter(), name, |l| &l.text);
    match found.as_slice() {
        [one] if one.disabled => Err(ToolError::disabled(title, [clipped(&one.text)])),
        [one] => Ok((one.node, one.text.clone())),
        [] => Err(super::check::press_refused(&miss, name, title, targets)),
        many => Err(ToolError::validation(
            format!("\"{}\" is the text of {} lines in {title}; nothing was right-clicked", clipped(name), many.len()),
            vec![FieldError::new("control", "several text lines read so: name a control by its key instead")],
        )),
    }
}

impl Click {
    pub(super) fn new(node: u64, background: bool) -> Self {
        Self {
            node,
            background,
            hovered: false,
            menus_before: Vec::new(),
            menu: None,
            items: Vec::new(),
            person: None,
            moved: None,
        }
    }

    /// The end of a pass before the pointer moves: where the person's pointer is, to give it
    /// back after the click.
    pub(super) fn note_person(&mut self, ctx: &egui::Context) {
        if self.moved.is_none() {
            self.person = ctx.input(|i| i.pointer.latest_pos());
        }
    }

    /// Once the click moved the pointer: where to, and the event that gives the person's pointer
    /// back (to where it was, or gone if it was not over the app).
    pub(super) fn pointer_back(&self) -> Option<(egui::Pos2, egui::Event)> {
        let moved = self.moved?;
        Some((moved, self.person.map_or(egui::Event::PointerGone, egui::Event::PointerMoved)))
    }

    /// The end of a pass drawn while the pointer is at `pos`, over the widget's place: whether
    /// egui saw the widget under it (the window's background: the window on top there; an
    /// `egui::Window`'s node is its area's, `{layer id}.with("move")`).
    pub(super) fn pass_drawn(&mut self, ctx: &egui::Context, pos: egui::Pos2) {
        self.hovered = if self.background {
            ctx.layer_id_at(pos).is_some_and(|layer| layer.id.with("move").value() == self.node)
        } else {
            ctx.interaction_snapshot(|s| s.hovered.iter().any(|id| id.value() == self.node))
        };
    }

    /// A look after the step under way (`wait`): the next step, or done.
    pub(super) fn looked(&mut self, wait: Wait, tree: &TreeUpdate, after: &[Target], title: &str, label: &str) -> Next {
        let nodes = crate::plugin::observe::node_map(tree);
        match wait {
            Wait::Place { scrolled } => self.place(&nodes, scrolled, title, label),
            Wait::Over { pos, scrolled } => self.over(pos, scrolled, title, label),
            Wait::Scrolled => Next::Look(Wait::Place { scrolled: true }),
            Wait::Menu { looks } => self.find_menu(&nodes, after, looks),
        }
    }

    /// The look shows where the widget (or the window's background) is: the pointer goes there.
    fn place(&mut self, nodes: &HashMap<NodeId, &Node>, scrolled: bool, title: &str, label: &str) -> Next {
        let pos = if self.background {
            let Some(pos) = background(nodes, self.node) else {
                return Next::Failed(ToolError::new(
                    ErrorCode::ActionNotAvailable,
                    format!(
                        "{title} shows no background of its own to right-click (a panel, a dialog, or a window its widgets fill): name a widget in it; nothing was right-clicked"
                    ),
                ));
            };
            pos
        } else {
            let Some(rect) = nodes.get(&NodeId(self.node)).and_then(|n| n.bounds()) else {
                return Next::Failed(ToolError::new(
                    ErrorCode::ActionNotAvailable,
                    format!("\"{}\" is no longer shown in {title}; nothing was right-clicked", clipped(label)),
                ));
            };
            // AccessKit's bounds are egui's points (the root's transform scales them).
            egui::pos2(f64::midpoint(rect.x0, rect.x1) as f32, f64::midpoint(rect.y0, rect.y1) as f32)
        };
        self.menus_before = menus(nodes).collect();
        self.moved = Some(pos);
        // A background is not scrolled to: it is where the window is.
        Next::Inject(vec![egui::Event::PointerMoved(pos)], Wait::Over { pos, scrolled: scrolled || self.background })
    }

    /// The pointer is at `pos`: the secondary button goes down and up there if egui saw the
    /// widget under it; else it is scrolled into view once, and refused if still covered.
    fn over(&self, pos: egui::Pos2, scrolled: bool, title: &str, label: &str) -> Next {
        if self.hovered {
            let click = [true, false].map(|pressed| egui::Event::PointerButton {
                pos,
                button: egui::PointerButton::Secondary,
                pressed,
                modifiers: egui::Modifiers::NONE,
            });
            Next::Inject(click.into(), Wait::Menu { looks: MENU_LOOKS })
        } else if !scrolled {
            // Scrolled away, or clipped: into view, as a person scrolls to it.
            Next::Inject(vec![event(self.node, Action::ScrollIntoView)], Wait::Scrolled)
        } else {
            Next::Failed(ToolError::new(
                ErrorCode::ActionNotAvailable,
                format!(
                    "{} cannot be right-clicked where it is drawn: something else is over it; nothing was right-clicked",
                    self.what(label, title)
                ),
            ))
        }
    }

    /// After the click: the menu it opened (its own first, else any new one) and its items
    /// the window's targets hold, looking again while a new popup is still laid out unseen.
    fn find_menu(&mut self, nodes: &HashMap<NodeId, &Node>, after: &[Target], looks: u8) -> Next {
        let own = nodes.get(&NodeId(self.node)).map(|n| n.children().to_vec()).unwrap_or_default();
        let new: Vec<u64> = menus(nodes).filter(|m| !self.menus_before.contains(m)).collect();
        let menu = new.iter().find(|m| own.contains(&NodeId(**m))).or(new.first()).copied();
        if let Some(menu) = menu {
            self.menu = Some(own.contains(&NodeId(menu)));
            self.items = inside(nodes, menu).filter(|n| after.iter().any(|t| t.node == *n)).collect();
        }
        // A popup is laid out unseen in the pass that opens it: its items come after.
        if self.items.is_empty() && looks > 1 {
            return Next::Look(Wait::Menu { looks: looks - 1 });
        }
        Next::Done
    }

    /// Whether `node` is an item of the menu the click opened.
    pub(super) fn in_menu(&self, node: u64) -> bool {
        self.items.contains(&node)
    }

    /// What the click did, for the answer (`label`: what was right-clicked; `after`: what the
    /// window shows now): the message, and the menu with its items' keys.
    pub(super) fn said(&self, label: &str, title: &str, after: &[Target]) -> (String, Option<Value>) {
        let clicked = format!("Right-clicked {}", self.what(label, title));
        let label = if self.background { "background" } else { label };
        let Some(own) = self.menu else {
            return (format!("{clicked}; no menu opened"), None);
        };
        let whose = if own { "its menu" } else { "a menu" };
        let items: Vec<&Target> = self.items.iter().filter_map(|n| after.iter().find(|t| t.node == *n)).collect();
        if items.is_empty() {
            return (
                format!("{clicked}: {whose} opened, with nothing in it to press"),
                Some(json!({"menu": {"of": label, "items": []}})),
            );
        }
        let listed: Vec<String> = items
            .iter()
            .map(
                |t| if t.disabled { format!("{} (disabled)", t.label) } else { format!("{} (key {})", t.label, t.key) },
            )
            .collect();
        let json_items: Vec<Value> = items
            .iter()
            .map(|t| {
                let mut item = Map::new();
                item.insert("label".to_owned(), json!(t.label));
                if t.disabled {
                    item.insert("disabled".to_owned(), json!(true));
                } else {
                    item.insert("key".to_owned(), json!(t.key));
                }
                Value::Object(item)
            })
            .collect();
        (
            format!("{clicked}: {whose} opened with {}; press one by its key", listed.join(", ")),
            Some(json!({"menu": {"of": label, "items": json_items}})),
        )
    }
}

impl Click {
    /// What was right-clicked, in an answer.
    pub(super) fn what(&self, label: &str, title: &str) -> String {
        if self.background {
            format!("the background of {title}")
        } else {
            format!("\"{}\" in {title}", clipped(label))
        }
    }
}

/// Widgets' bounds are kept this far from the point a background is right-clicked at: egui
/// gives a click near a widget (within `interact_radius`, 5 points) to the widget.
const CLEAR: f64 = 8.0;

/// A point of `egui::Window` `window`'s background: inside it, away from its edges (where it is
/// resized) and from every widget in it; the lowest such point, then the rightmost (the title
/// bar is at the top). `None` for anything but an `egui::Window`, or one its widgets fill.
fn background(nodes: &HashMap<NodeId, &Node>, window: u64) -> Option<egui::Pos2> {
    let node = nodes.get(&NodeId(window)).filter(|n| n.role() == Role::Window)?;
    let area = node.bounds()?;
    let widgets: Vec<_> = inside(nodes, window)
        .filter_map(|id| nodes.get(&NodeId(id)))
        // Containers (egui's `Ui`s) and bare interactions (`ui.interact`: a background's own
        // response, read without a role) are the background.
        .filter(|n| {
            !matches!(n.role(), Role::GenericContainer | Role::Group | Role::ScrollView | Role::Pane | Role::Unknown)
        })
        .filter_map(|n| n.bounds())
        .collect();
    let clear = |x: f64, y: f64| {
        !widgets.iter().any(|b| x > b.x0 - CLEAR && x < b.x1 + CLEAR && y > b.y0 - CLEAR && y < b.y1 + CLEAR)
    };
    let (step, edge) = (4.0, 2.0 * CLEAR);
    let rows = ((area.y1 - area.y0 - 2.0 * edge) / step).max(0.0) as usize;
    let columns = ((area.x1 - area.x0 - 2.0 * edge) / step).max(0.0) as usize;
    (0..=rows)
        .map(|r| area.y1 - edge - r as f64 * step)
        .find_map(|y| (0..=columns).map(|c| area.x1 - edge - c as f64 * step).find(|x| clear(*x, y)).map(|x| (x, y)))
        .map(|(x, y)| egui::pos2(x as f32, y as f32))
}

/// The menus (popups) open in the tree.
fn menus<'a>(nodes: &'a HashMap<NodeId, &Node>) -> impl Iterator<Item = u64> + 'a {
    nodes.iter().filter(|(_, n)| matches!(n.role(), Role::Menu | Role::MenuListPopup)).map(|(id, _)| id.0)
}

/// The nodes inside `root`, in the order drawn.
fn inside<'a>(nodes: &'a HashMap<NodeId, &Node>, root: u64) -> impl Iterator<Item = u64> + 'a {
    let mut stack = vec![NodeId(root)];
    std::iter::from_fn(move || {
        let id = stack.pop()?;
        if let Some(n) = nodes.get(&id) {
            stack.extend(n.children().iter().rev());
        }
        Some(id.0)
    })
    .skip(1)
}
