//! What a picture of a window (`app__view_window`) needs of the pass bookkeeping: where the
//! window is (its viewport, and in a pass the egui id whose rectangle is its own), and what the
//! app hid from the read view, to be blanked.

use super::{FrameState, PassKey};

/// What one pass of a viewport says about a picture of one declared window in it.
#[derive(Debug, Default)]
pub(crate) struct PictureNodes {
    /// The egui id (as `u64`) whose rectangle is the window's, when the app drew it in this pass
    /// (`None`: declared without being drawn, or not in this pass).
    pub window: Option<u64>,
    /// All of a described panel, in egui points (its contents' `Ui` may take less).
    pub rect: Option<[f32; 4]>,
    /// The `Ui`s the app hid from the read view in this pass.
    pub hidden: Vec<u64>,
    /// The `Ui`s holding declared windows' contents in this pass: a hidden `Ui` inside one
    /// hides itself, elsewhere the whole egui window or panel it is in.
    pub window_uis: Vec<u64>,
}

impl FrameState {
    /// A `Ui` the app hides from the read view, in the pass under way (an egui id's value):
    /// left out of what the read view reads (as [`Self::describe_node`]), and blanked in a
    /// picture of a window.
    pub fn hide_from_read_view(&mut self, id: u64) {
        self.describe_node(id);
        if let Some(p) = self.passes.last_mut() {
            p.hidden.push(id);
        }
    }

    /// All of the described panel `app_id` drawn in the pass under way, in egui points, when
    /// this frame is looked at (a picture of it takes the whole panel).
    pub fn panel_rect(&mut self, app_id: &str, rect: [f32; 4]) {
        if let (true, Some(p)) = (self.looking, self.passes.last_mut()) {
            p.window_rects.push((app_id.to_owned(), rect));
        }
    }

    /// The open window with the external id `handle`: its app id and the viewport it was last
    /// declared in.
    pub fn window_place(&self, handle: &str) -> Option<(String, PassKey)> {
        let app_id = self.registry.app_id_of(handle)?;
        let pass = self.memory.get(app_id)?.pass;
        Some((app_id.to_owned(), pass))
    }

    /// What the last pass of viewport `key` (under way, or the last one kept) says about a
    /// picture of the window `app_id`.
    pub fn picture_nodes(&self, key: PassKey, app_id: &str) -> PictureNodes {
        let pass =
            self.passes.iter().rev().find(|p| p.key == key).or_else(|| self.committed.iter().find(|c| c.key == key));
        let Some(pass) = pass else { return PictureNodes::default() };
        PictureNodes {
            window: pass.window_nodes.iter().find(|(_, a)| a == app_id).map(|(id, _)| *id),
            rect: pass.window_rects.iter().find(|(a, _)| a == app_id).map(|(_, r)| *r),
            hidden: pass.hidden.clone(),
            window_uis: pass.window_uis.iter().map(|(id, _)| *id).collect(),
        }
    }
}
