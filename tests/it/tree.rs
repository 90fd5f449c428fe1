//! The tree (`Tree`, built on `Describe`): a person (kittest) and an agent do the same tasks on
//! a tree of 10,010 paths and leave the app in the same state; the agent reads a bounded page;
//! the person's pass lays out only the rows in view.

use egui_kittest::kittest::{NodeT as _, Queryable as _};
use egui_mcp_bridge::protocol::Block;
use egui_mcp_bridge::testing::Harness;
use egui_mcp_bridge::{ActionSpec, Bridge, Tree, TreeEvent, TreeState};
use serde_json::json;

/// The test's files end in `.txt`, its folders do not.
fn is_file(path: &str) -> bool {
    std::path::Path::new(path).extension().is_some_and(|e| e == "txt")
}

/// A row of the app's file tree.
#[derive(Clone, Debug, PartialEq)]
struct Node {
    path: String,
    /// A file's check; a folder's is derived from its files.
    checked: Option<bool>,
}

/// An app with a file tree: 10 folders of 10 folders of 99 files (10,010 rows).
struct Files {
    bridge: Bridge,
    nodes: Vec<Node>,
    selected: Option<String>,
    deleted: Vec<String>,
    tree: TreeState,
}

impl Files {
    fn new(bridge: Bridge) -> Self {
        let mut nodes = Vec::new();
        for d in 0..10 {
            nodes.push(Node { path: format!("d{d}"), checked: Some(false) });
            for s in 0..10 {
                nodes.push(Node { path: format!("d{d}/s{s}"), checked: Some(false) });
                for f in 0..99 {
                    nodes.push(Node { path: format!("d{d}/s{s}/f{f:02}.txt"), checked: Some(false) });
                }
            }
        }
        Self { bridge, nodes, selected: None, deleted: Vec::new(), tree: TreeState::new() }
    }

    fn apply(&mut self, event: TreeEvent) {
        match event {
            TreeEvent::Select { path } => self.selected = Some(path),
            TreeEvent::SetChecked { path, checked } => {
                let prefix = format!("{path}/");
                for n in &mut self.nodes {
                    if n.path == path || n.path.starts_with(&prefix) {
                        n.checked = Some(checked);
                    }
                }
                // Folders: checked when all their files are, mixed when some are (deepest first).
                for k in (0..self.nodes.len()).rev() {
                    if is_file(&self.nodes[k].path) {
                        continue;
                    }
                    let prefix = format!("{}/", self.nodes[k].path);
                    let under = self.nodes[k + 1..].iter().take_while(|n| n.path.starts_with(&prefix));
                    let (mut all, mut any) = (true, false);
                    for n in under.filter(|n| is_file(&n.path)) {
                        all &= n.checked == Some(true);
                        any |= n.checked == Some(true);
                    }
                    self.nodes[k].checked = if all {
                        Some(true)
                    } else if any {
                        None
                    } else {
                        Some(false)
                    };
                }
            }
            TreeEvent::Menu { item, path } => {
                assert_eq!(item, "delete");
                self.deleted.push(path);
            }
        }
    }

    fn checked(&self, path: &str) -> Option<bool> {
        self.nodes.iter().find(|n| n.path == path).and_then(|n| n.checked)
    }
}

fn app(ui: &mut egui::Ui, s: &mut Files) {
    let bridge = s.bridge.clone();
    bridge.window("files").title("Files").default_size([360.0, 420.0]).ui(ui, |w, ui| {
        let tree = Tree::new("tree", &s.nodes, |n| n.path.as_str(), &mut s.tree)
            .checkboxes(|n| n.checked)
            .selected(s.selected.as_deref())
            .row_menu("delete", ActionSpec::new("Delete").description("Moves the file to the bin"));
        if let Some(press) = w.add(ui, tree) {
            let event = press.args().clone();
            press.ok("Done");
            s.apply(event);
        }
    });
}

fn harness(bridge: &Bridge) -> Harness<'static, Files> {
    Harness::builder(bridge).with_size([500.0, 600.0]).build_ui_state(app, Files::new(bridge.clone()))
}

fn call(h: &mut Harness<'_, Files>, tool: &str, mut args: serde_json::Value) -> egui_mcp_bridge::Outcome {
    args["expectedVersion"] = json!(h.window("files").expect("declared").version);
    h.call(tool, args)
}

/// The rows agents read: (path, row, checked, selected), with the page's offset and the total.
fn page(h: &Harness<'_, Files>) -> (Vec<Vec<serde_json::Value>>, Option<u64>, Option<u64>) {
    let window = h.window("files").expect("declared");
    let Some(Block::Table { rows, offset, total, .. }) =
        window.blocks.iter().find(|b| matches!(b, Block::Table { .. }))
    else {
        panic!("the tree's table: {:?}", window.blocks);
    };
    (rows.clone(), *offset, *total)
}

/// The person scrolls the tree (down or up) until `label` is in view.
fn scroll_to(h: &mut Harness<'_, Files>, label: &str, down: bool) {
    for _ in 0..40 {
        if let Some(row) = h.query_by_label(label) {
            // Laid out, and now wholly in view (a row half under the edge is laid out too).
            row.scroll_to_me();
            h.run();
            return;
        }
        let rows = h.query_all_by_label_contains(".txt");
        let row = if down { rows.last() } else { rows.into_iter().next() }.expect("a file row");
        if down {
            row.scroll_down();
        } else {
            row.scroll_up();
        }
        h.run();
    }
    panic!("{label} never came into view");
}

/// What the app holds after the tasks, whoever did them.
#[derive(Debug, PartialEq)]
struct Outcome {
    /// The rows checked (`true`) or mixed (`None`), by path.
    marked: Vec<(String, Option<bool>)>,
    selected: Option<String>,
    deleted: Vec<String>,
    open: (bool, bool),
}

fn outcome(s: &Files) -> Outcome {
    Outcome {
        marked: s.nodes.iter().filter(|n| n.checked != Some(false)).map(|n| (n.path.clone(), n.checked)).collect(),
        selected: s.selected.clone(),
        deleted: s.deleted.clone(),
        open: (s.tree.is_open("d3"), s.tree.is_open("d3/s4")),
    }
}

#[test]
fn a_person_and_an_agent_do_the_same_tasks_on_a_tree_of_ten_thousand_rows() {
    // The person.
    let bridge = Bridge::builder().build();
    let mut person = harness(&bridge);
    person.run();
    person.get_by_label("Expand d3").click();
    person.run();
    person.get_by_label("Expand d3/s4").click();
    person.run();
    // Only the rows in view are laid out: 99 files are open, a screenful is drawn.
    let drawn = person.query_all_by_label_contains(".txt").count();
    assert!((5..60).contains(&drawn), "{drawn} file rows laid out");
    scroll_to(&mut person, "f42.txt", true);
    person.get_by_label("f42.txt").click();
    person.run();
    scroll_to(&mut person, "Check d3/s4", false);
    person.get_by_label("Check d3/s4").click();
    person.run();
    scroll_to(&mut person, "f42.txt", true);
    person.get_by_label("f42.txt").click_secondary();
    person.run();
    person.get_by_label("Delete").click();
    person.run();
    let by_person = outcome(person.state());

    // The agent, on a fresh app: the same tasks by path.
    let bridge = Bridge::builder().build();
    let mut agent = harness(&bridge);
    agent.run();
    let (rows, _, total) = page(&agent);
    assert_eq!((rows.len(), total), (10, None), "ten closed folders: {rows:?}");
    assert_eq!(rows[3], [json!("d3"), json!("folder, closed"), json!("no"), json!(false)]);
    let opened = call(&mut agent, "files__expand", json!({"path": "d3"})).expect("expanded");
    let listed = opened.result.expect("the rows under it");
    assert_eq!(listed["total"], 10);
    assert_eq!(listed["rows"][4], "d3/s4");
    call(&mut agent, "files__expand", json!({"path": "d3/s4"})).expect("expanded");
    call(&mut agent, "files__select", json!({"path": "d3/s4/f42.txt"})).expect("selected");
    call(&mut agent, "files__set_checked", json!({"path": "d3/s4", "checked": true})).expect("checked");
    call(&mut agent, "files__delete", json!({"path": "d3/s4/f42.txt"})).expect("deleted");
    let by_agent = outcome(agent.state());
    assert_eq!(by_person, by_agent);
    assert_eq!(by_agent.selected.as_deref(), Some("d3/s4/f42.txt"));
    assert_eq!(by_agent.deleted, ["d3/s4/f42.txt"]);
    assert_eq!(by_agent.marked.len(), 1 + 1 + 99, "d3 mixed, d3/s4 and its files checked");
    assert_eq!(agent.state().checked("d3/s4"), Some(true));
    assert_eq!(agent.state().checked("d3"), None, "d3 is mixed now");

    // The agent's page: bounded, around where it last worked, with the total of open rows.
    let (rows, offset, total) = page(&agent);
    assert_eq!(total, Some(10 + 10 + 99));
    assert_eq!(rows.len(), 100);
    let at = rows.iter().position(|r| r[0] == "d3/s4/f42.txt").expect("the selected row is in the page");
    assert_eq!(rows[at], [json!("d3/s4/f42.txt"), json!("item"), json!("yes"), json!(true)]);
    let d3 = rows.iter().find(|r| r[0] == "d3").map(|r| r[2].clone());
    assert!(d3.is_none() || d3 == Some(json!("mixed")), "{d3:?}");
    assert!(offset.is_some_and(|o| o > 0), "the page follows the work: {offset:?}");
    // The person sees it too: the selected row is laid out and selected.
    agent.run();
    let selected = agent.get_by_label("f42.txt");
    assert_eq!(selected.accesskit_node().toggled(), Some(egui::accesskit::Toggled::True));
}

#[test]
fn the_agents_read_of_a_tree_is_bounded_whatever_is_open() {
    let bridge = Bridge::builder().build();
    let mut h = harness(&bridge);
    h.run();
    for d in 0..10 {
        call(&mut h, "files__expand", json!({"path": format!("d{d}")})).expect("expanded");
        for s in 0..10 {
            call(&mut h, "files__expand", json!({"path": format!("d{d}/s{s}")})).expect("expanded");
        }
    }
    let (rows, _, total) = page(&h);
    assert_eq!(total, Some(10_010));
    assert_eq!(rows.len(), egui_mcp_bridge::limits::DEFAULT_TREE_AGENT_ROWS);
    let window = serde_json::to_string(&h.window("files").expect("declared")).expect("serialises");
    assert!(window.len() < 16 * 1024, "the window is {} bytes in the state", window.len());
    assert!(h.undescribed().is_empty(), "{:?}", h.undescribed());
}

#[test]
fn a_path_that_is_not_a_row_is_refused_per_field_and_changes_nothing() {
    let bridge = Bridge::builder().build();
    let mut h = harness(&bridge);
    h.run();
    let before = outcome(h.state());
    for (tool, args, why) in [
        ("files__select", json!({"path": "d3/nope"}), "is not a row of the tree"),
        ("files__set_checked", json!({"path": "x", "checked": true}), "is not a row of the tree"),
        ("files__expand", json!({"path": "d3/s4/f42.txt"}), "has no rows under it"),
        ("files__delete", json!({"path": ""}), "is not a row of the tree"),
    ] {
        let error = call(&mut h, tool, args).expect_err("refused");
        let fields = error.fields.as_deref().unwrap_or_default();
        assert_eq!(fields.len(), 1, "{tool}: {error:?}");
        assert_eq!((fields[0].field.as_str(), fields[0].error.as_str()), ("path", why));
    }
    assert_eq!(outcome(h.state()), before);
}

#[test]
fn a_tree_the_app_disabled_offers_no_actions() {
    struct Off {
        bridge: Bridge,
        nodes: Vec<Node>,
        tree: TreeState,
    }
    let bridge = Bridge::builder().build();
    let nodes =
        vec![Node { path: "a".into(), checked: Some(false) }, Node { path: "a/b".into(), checked: Some(false) }];
    let mut h = Harness::new_ui_state(
        &bridge,
        |ui, s: &mut Off| {
            let bridge = s.bridge.clone();
            bridge.window("files").title("Files").ui(ui, |w, ui| {
                ui.add_enabled_ui(false, |ui| {
                    let tree = Tree::new("tree", &s.nodes, |n| n.path.as_str(), &mut s.tree).checkboxes(|n| n.checked);
                    assert!(w.add(ui, tree).is_none());
                });
            });
        },
        Off { bridge: bridge.clone(), nodes, tree: TreeState::new() },
    );
    h.run();
    let tools = h.tool_names();
    assert!(!tools.iter().any(|t| t.starts_with("files__")), "{tools:?}");
    // Agents still read it.
    assert_eq!(page_of(&h).len(), 1);
}

fn page_of<S>(h: &Harness<'_, S>) -> Vec<Vec<serde_json::Value>> {
    let window = h.window("files").expect("declared");
    window
        .blocks
        .iter()
        .find_map(|b| if let Block::Table { rows, .. } = b { Some(rows.clone()) } else { None })
        .expect("the tree's table")
}
