#!/usr/bin/env python3
"""The census by the strict rule (docs/census.md): which interactive egui widgets of an app the
bridge's API describes once, keeping every option the app gives them.

    python3 scripts/census.py egui=DIR template=DIR serial=DIR      # tables and every "no"
    python3 scripts/census.py --markdown egui=DIR ...                # the tables for the doc
    python3 scripts/census.py --list egui=DIR ...                    # every site, tab-separated:
        app, file:line, kind, verdicts (at 5a0931d / at b97b4a2 / on main [/ with the PENDING
        branches]), [options], containers, source, why not on main, why not at b97b4a2
    python3 scripts/census.py --self-test                            # a tiny inline fixture

Each DIR is a folder of Rust sources (`crates/egui_demo_lib/src/demo` of emilk/egui,
`src` of emilk/eframe_template, `src` of hacknus/serial-monitor-rust); `tests/` folders and
`#[cfg(test)]` modules are skipped. Stdlib only. The script reads the sources as text (nothing is
built or run): it finds every call site of an interactive egui widget, its builder chain
(`Slider::new(..).step_by(..)`), the options on its response (`.on_hover_text(..)`) and the
containers it sits in (menu, combo box, tooltip, popup, grid), and judges it by RULES below.

A site is described once ("yes") only when its kind has a bridge call AND every option it uses
is kept by that call. Drag and drop, custom painters (`allocate_*` with a click or drag sense,
`ui.interact`), plots and scenes are listed as "other", outside the count.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field

# ------------------------------------------------------------------------------------------------
# The rule table: one line per kind. Update it when the API grows.
#
#   kind: (the bridge call that draws it,
#          options kept (space-separated; "*" = every option of egui's builder),
#          what came after 5a0931d {option: a LANDED or PENDING tag}, "" = the kind itself)
#
# An option name is the builder method (`step_by`), or one of these made-up names:
#   tooltip (on_hover_text), tooltip_ui (on_hover_ui: drawn for the person), enabled
#   (add_enabled / a disabled ui), rich_text (RichText or an image in the label), image,
#   grid:<option> / grid:row / grid-mixed (the app's Grid around a field: see FORM_GRID), layout:vertical (a
#   choice's options one under another), type / alpha (a colour's value type), rows:<kind> (what a
#   long list's rows are), response:<method> (what the app does with egui's response), show (the
#   app uses TextEdit::show's output).
# ------------------------------------------------------------------------------------------------

ALL = "*"

RULES = {
    "checkbox":        ("Form::edit, Input::checkbox (.indeterminate)", "text tooltip tooltip_ui enabled", {"indeterminate": "options2"}),
    "toggle":          ("Form::edit, Input::checkbox(..).selectable()", "text tooltip tooltip_ui enabled", {}),
    "switch":          ("Form::edit, Input::checkbox(..).switch()", "text tooltip tooltip_ui enabled", {}),
    "radio":           ("Form::choice, Input::choice(..).radio()", "text enabled", {"tooltip": "ecdd122", "layout:vertical": "ecdd122"}),
    "selectable":      ("Form::choice, Input::choice(..).selectable(); WindowUi::tabs", "text enabled", {"tooltip": "ecdd122", "layout:vertical": "ecdd122"}),
    "combo":           ("Form::choice, Input::choice", "label selected_text width tooltip tooltip_ui enabled", {"option:tooltip": "ecdd122"}),
    "slider":          ("Form::edit, Input::number/integer(..).slider()", "text logarithmic prefix suffix custom_formatter fixed_decimals max_decimals min_decimals range tooltip tooltip_ui enabled", {"step_by": "options", "clamping": "options", "smart_aim": "options", "orientation": "options", "vertical": "options", "trailing_fill": "options2", "handle_shape": "options2"}),
    "drag_value":      ("Form::edit, Input::number/integer; Input::angle (drag_angle)", "speed range clamp_range prefix suffix custom_formatter fixed_decimals max_decimals min_decimals tooltip tooltip_ui enabled", {"angle": "options2"}),
    "text_single":     ("Form::edit, Input::text / Input::secret", "hint_text desired_width char_limit password tooltip tooltip_ui enabled", {"lock_focus": "options", "font": "options", "text_color": "options", "layouter": "options", "add_sized": "options2", "horizontal_align": "options2", "vertical_align": "options2", "background_color": "options2", "margin": "options2", "clip_text": "options2"}),
    "text_multi":      ("Form::edit, Input::text(..).multiline()", "hint_text desired_width char_limit tooltip tooltip_ui enabled", {"desired_rows": "options", "lock_focus": "options", "font": "options", "text_color": "options", "layouter": "options", "horizontal_align": "options2", "vertical_align": "options2", "background_color": "options2", "margin": "options2", "clip_text": "options2"}),
    "text_code":       ("Form::edit, Input::text(..).code()", "hint_text desired_width char_limit code_editor tooltip tooltip_ui enabled", {"desired_rows": "options", "lock_focus": "options", "font": "options", "text_color": "options", "layouter": "options", "horizontal_align": "options2", "vertical_align": "options2", "background_color": "options2", "margin": "options2", "clip_text": "options2"}),
    "colour":          ("Form::edit, Input::color (Color32, [u8; 4], [u8; 3], Rgba, [f32; 4], [f32; 3], Premultiplied)", "tooltip tooltip_ui enabled", {"type": "options2"}),
    "button":          ("WindowUi::button_ui / add_button (any egui::Button or Widget)", ALL, {}),
    "selectable_label": ("WindowUi::add_button(egui::Button::selectable(..))", ALL, {}),
    "link":            ("WindowUi::link_ui / add_button(egui::Link)", ALL, {}),
    "hyperlink":       ("WindowUi::hyperlink_ui (rich text)", "text rich_text tooltip tooltip_ui enabled", {}),
    "menu":            ("WindowUi::menu_ui / Menu::menu; add_menu(MenuButton) for egui's options", "text rich_text enabled tooltip tooltip_ui image config button", {"image": "a12a9b6", "config": "a12a9b6", "button": "a12a9b6"}),
    "context_menu":    ("WindowUi::context_menu_ui", ALL, {}),
    "popup_menu":      ("WindowUi::popup_menu_ui (egui's own Popup: menu, context_menu, from_response)", ALL, {"": "06ac917"}),
    "submenu":         ("Menu::menu (a submenu, by its title); Menu::add_menu (egui's SubMenuButton)", "text rich_text enabled tooltip tooltip_ui", {"image": "ecdd122", "config": "ecdd122", "button": "ecdd122"}),
    "menu_item":       ("Menu::button / Menu::add_button (any egui::Button) / Menu::shortcut", ALL, {}),
    "menu_field":      ("Menu::form", "text tooltip tooltip_ui enabled", {}),
    "collapsing":      ("WindowUi::collapsing / collapsing_with (egui's CollapsingHeader)", ALL, {}),
    "window":          ("bridge.window(id).title(..).ui(..); .with_window(|w| …) for any other egui::Window option", "title open resizable collapsible vscroll default_width default_size fixed_size anchor id constrain_to", {o: "options2" for o in ("default_height", "resizable([x, y])", "min_width", "min_height", "max_width", "max_height", "hscroll", "scroll", "constrain", "movable", "title_bar", "drag_area", "fixed_pos", "default_pos", "current_pos", "frame", "order", "min_size", "max_size", "auto_sized", "scroll_bar_visibility", "enabled")}),
    "modal":           ("bridge.window(id).app_modal().closable().ui(..) (an egui::Modal; Escape or a click outside is its close press)", "id", {"response:should_close": "options2"}),
    "panel":           ("bridge.window(id).panel(ui, ..) inside the app's own panel", ALL, {}),
    "shortcut":        ("WindowUi::with_shortcut(keys).action / .button_ui; .when(field.has_focus()) for a key that works while a field has focus", "", {"": "a12a9b6", "focus": "dd22fed"}),
    "menu_shortcut":   ("Menu::shortcut (the menu item that shows the same keys)", "", {}),
    "list_rows":       ("WindowUi::long_list_ui (virtual rows, an agent page)", "", {"": "lists", "stick_to_bottom": "lists", "auto_shrink": "lists", "max_height": "lists"}),
    "own_widget":      ("WindowUi::add(widget) with an impl Describe (the app's own widget, or one of a widget crate)", ALL, {"": "158923b"}),
    "composite":       ("WindowUi::add(widget) with an impl Describe that draws the crate's composite as it is and declares its fields", ALL, {"": "158923b"}),
}

# Kinds the API has no call for at all: every site of them is a "no", with this reason.
UNCOVERED = {
    "tooltip_widget":  "in a tooltip: nothing declares a tooltip's contents",
    "colour_inline":   "an inline colour picker (color_picker_*): Input::color draws a button and a popup",
    "collapsing_state": "a custom collapsing header (CollapsingState): collapsing_with takes a CollapsingHeader",
    "table":           "egui_extras::TableBuilder (its options, selectable rows): table_ui keeps none of them",
    "hyperlink_in_menu": "a hyperlink in a menu: Menu has no link",
    "combo_content":   "a widget in a combo box's list other than its options",
}

# Why an option (kind, option) is not kept, where more can be said than "not kept".
WHY = {
    ("checkbox", "indeterminate"): "tri-state (indeterminate): Input::checkbox is a bool",
    ("drag_value", "angle"): "an angle in radians shown in degrees (drag_angle)",
    ("colour", "type"): "its value type or alpha (Input::color takes Color32, [u8; 4] unmultiplied, [u8; 3])",
    ("colour", "alpha"): "Ui::color_edit_button_srgba's Alpha::BlendOrAdditive (its picker offers additive): Input::color draws OnlyBlend",
    ("radio", "tooltip"): "a tooltip on one option (Form::choice gives the group one response)",
    ("selectable", "tooltip"): "a tooltip on one option (Form::choice gives the group one response)",
    ("radio", "rich_text"): "rich text in an option (Form::choice options are plain text)",
    ("radio", "layout:vertical"): "its options one under another: Form::choice draws them in a wrapped row",
    ("selectable", "layout:vertical"): "its options one under another: Form::choice draws them in a wrapped row",
    ("selectable", "rich_text"): "rich text in an option (Form::choice options are plain text)",
    ("combo", "rich_text"): "rich text in an option (Form::choice options are plain text)",
    ("checkbox", "rich_text"): "rich text in its label (Input labels are plain text)",
    ("modal", "response:should_close"): "closed by Escape or a click outside (Modal::should_close): the bridge's modal does not say so",
    ("text_multi", "show"): "TextEdit::show: the app uses its output (cursor range, galley); Form::edit gives a Response",
    ("text_single", "show"): "TextEdit::show: the app uses its output (cursor range, galley); Form::edit gives a Response",
    ("text_single", "add_sized"): "a size (add_sized): Input::width sets the width only",
    ("window", "resizable([x, y])"): "resizable per axis (resizable([true, false])): WindowBuilder::resizable takes a bool",
    ("window", "scroll"): "scroll in both directions: WindowBuilder keeps vscroll only",
    ("window", "hscroll"): "hscroll: WindowBuilder keeps vscroll only",
    ("submenu", "image"): "an image on a submenu: Menu::menu takes a title (WindowUi::add_menu is for a top-level menu)",
    ("submenu", "config"): "a submenu's MenuConfig: Menu::menu takes a title (WindowUi::add_menu is for a top-level menu)",
    ("submenu", "button"): "a submenu's own button (a fill colour, atoms): Menu::menu takes a title (WindowUi::add_menu is for a top-level menu)",
    ("shortcut", "focus"): "a key only while a field has focus (has_focus, lost_focus): with_shortcut binds it for the whole window",
    ("list_rows", "rows:text_multi"): "its rows are a read-only text edit each (font, colour, layouter: highlighted, selectable): a long list's rows are labels",
}

# A field (a FIELD_KINDS site) in the app's own egui::Grid: `w.form` draws its own two-column grid
# (a text label, one widget per row, 12 × 6 points apart), so the app's grid options and rows of
# another shape (several widgets, a widget as the row label) are kept only with the grid of the
# options branch (WindowUi::form_with, Form::row, Form::labelled). A grid that also holds other
# widgets (a button, a link, an editor) is kept for none of its fields ("grid-mixed"): a form's
# grid holds fields only, and the form borrows the window, so its own widgets cannot be drawn in it.
FORM_GRID = ("a form in the app's own grid (form_with, Form::row, Form::labelled)", "options")
# Since Form::cell, a form's grid holds described buttons, links and sections beside its fields.
FORM_CELL = ("a73f027", "a form's grid holding other described widgets (Form::cell)")

# What the rule table says landed after 5a0931d, in the order it landed on main: a commit, or a
# branch (a name; merged in the commit said). Each column of the census is the API at a point of
# this list: "at 5a0931d" switches all of it off, "at b97b4a2" what came after that commit.
LANDED = [
    ("158923b", "Describe, WindowUi::add, Tree"),
    ("a12a9b6", "with_shortcut, add_menu(MenuButton) with its MenuConfig"),
    ("options", "the options branch, merged in 8de132e: text-edit and slider options, form_with, Form::row, Form::labelled"),
    ("lists", "the lists branch, merged in f347030: long_list_ui"),
    ("06ac917", "popup_menu_ui: a menu in egui's own Popup"),
    ("a73f027", "Form::cell: described buttons, links and sections in a form's grid"),
    ("ecdd122", "Form::choice_hinted (a tooltip on each option), Input::vertical on a choice, Menu::add_menu (SubMenuButton)"),
    ("options2", "the options2 branch: WindowBuilder::with_window and a modal's Escape (0bf76d8), slider trailing_fill / handle_shape (6cce38f), Input::indeterminate (97bacde), float colours (59133da), text-edit align / background / margin / size (e6370fa), Input::angle (e8ee9c7), premultiplied colours (3decaeb)"),
    ("dd22fed", "Shortcut::when: a key pressed only while a field has focus"),
]
BEFORE_BRANCHES = ("b97b4a2", 2)  # main before the options and lists branches: the first 2 of LANDED
# Branches under way, named as in the rule table: counted "no" on main, "yes" in a column of their
# own ("main + pending branches"). Move a name from here to LANDED when its branch is merged, or
# count it for one run with `--with NAME`.
PENDING: list[str] = []

# The apps' own widgets (functions drawing with a painter): a call is a site of the kind given;
# the painting inside their definition is not counted again.
OWN_WIDGETS = {
    "toggle": "switch", "toggle_ui": "switch", "toggle_ui_compact": "switch",
    "color_picker_widget": "own_widget", "color_slider_1d": "own_widget",
}
# Helpers whose links are left out, as the lax census did (egui's docs links beside each row).
LEFT_OUT_HELPERS = {"doc_link_label", "doc_link_label_with_crate"}

# ------------------------------------------------------------------------------------------------
# Reading Rust as text
# ------------------------------------------------------------------------------------------------


def mask(src: str) -> str:
    """The source with comments blanked and string/char literal contents replaced by '_', same
    length and line breaks, so that brackets and names can be matched on it."""
    out = list(src)
    i, n = 0, len(src)

    def blank(a: int, b: int, keep_ends: bool = False) -> None:
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " " if not keep_ends else "_"

    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif (c == "r" and re.match(r'r#*"', src[i:i + 10]) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_"))) or (
            c == "b" and re.match(r'br#*"', src[i:i + 10]) and (i == 0 or not src[i - 1].isalnum())
        ):
            m = re.match(r'b?r(#*)"', src[i:])
            hashes = m.group(1)
            start = i + m.end()
            end = src.find('"' + hashes, start)
            end = n if end < 0 else end
            blank(start, end, keep_ends=True)
            i = end + 1 + len(hashes)
        elif c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            blank(i + 1, j, keep_ends=True)
            i = j + 1
        elif c == "'":
            m = re.match(r"'(\\(x..|u\{[0-9a-fA-F]+\}|.)|[^\\'])'", src[i:i + 12])
            if m:
                blank(i + 1, i + m.end() - 1, keep_ends=True)
                i += m.end()
            else:
                i += 1  # a lifetime
        else:
            i += 1
    return "".join(out)


CLOSE = {"(": ")", "[": "]", "{": "}"}


def match_close(code: str, i: int) -> int:
    """Index of the bracket closing the one at `i` (or len(code))."""
    stack = [CLOSE[code[i]]]
    j = i + 1
    while j < len(code) and stack:
        c = code[j]
        if c in CLOSE:
            stack.append(CLOSE[c])
        elif c in ")]}":
            stack.pop()
        j += 1
    return j - 1


def skip_ws(code: str, i: int) -> int:
    while i < len(code) and code[i].isspace():
        i += 1
    return i


@dataclass
class Call:
    name: str
    args: str  # masked
    start: int
    end: int  # after ')'


def chain_after(code: str, i: int) -> tuple[list[Call], int]:
    """The `.method(args)` (and `.field`, `?`) chain starting at `i`."""
    calls = []
    while True:
        j = skip_ws(code, i)
        if j < len(code) and code[j] == "?":
            i = j + 1
            continue
        if j >= len(code) or code[j] != "." or code.startswith("..", j):
            return calls, i
        m = re.match(r"\.\s*([A-Za-z_]\w*)\s*(::\s*<[^()]*>\s*)?", code[j:])
        if not m:
            return calls, i
        k = j + m.end()
        if k < len(code) and code[k] == "(":
            e = match_close(code, k)
            calls.append(Call(m.group(1), code[k + 1:e], j, e + 1))
            i = e + 1
        else:
            calls.append(Call(m.group(1), "", j, k))  # a field: .response, .inner
            i = k


def split_args(args: str) -> list[str]:
    """Top-level comma-separated arguments of a masked argument list."""
    parts, depth, cur = [], 0, []
    for c in args:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    if "".join(cur).strip():
        parts.append("".join(cur))
    return [p.strip() for p in parts]


def line_of(code: str, i: int) -> int:
    return code.count("\n", 0, i) + 1


def blank_test_modules(code: str) -> str:
    """Blanks `#[cfg(test)]` (and `#[cfg(all(test, …))]`-like) items: test code is not the app."""
    out = list(code)
    for m in re.finditer(r"#\[cfg\((?:all\()?[^\]]*\btest\b[^\]]*\)\]", code):
        j = m.end()
        # Further attributes, then the item up to its block.
        k = code.find("{", j)
        semi = code.find(";", j)
        if k < 0 or (0 <= semi < k):
            continue
        e = match_close(code, k)
        for x in range(m.start(), e + 1):
            if out[x] != "\n":
                out[x] = " "
    return "".join(out)


# ------------------------------------------------------------------------------------------------
# What is a site: egui's calls, by the kind they draw
# ------------------------------------------------------------------------------------------------

# `recv.method(` calls (the receiver is a `ui`, or a response for context_menu).
METHOD_KINDS = {
    "checkbox": "checkbox", "toggle_value": "toggle", "radio_value": "radio", "radio": "radio",
    "selectable_value": "selectable", "selectable_label": "selectable_label",
    "button": "button", "small_button": "button", "image_button": "button",
    "link": "link", "hyperlink": "hyperlink", "hyperlink_to": "hyperlink",
    "text_edit_singleline": "text_single", "text_edit_multiline": "text_multi", "code_editor": "text_code",
    "color_edit_button_srgba": "colour", "color_edit_button_srgb": "colour",
    "color_edit_button_srgba_unmultiplied": "colour", "color_edit_button_rgba_unmultiplied": "colour",
    "color_edit_button_rgba_premultiplied": "colour", "color_edit_button_rgb": "colour",
    "color_edit_button_hsva": "colour", "color_edit_button_rgba": "colour",
    "color_edit_button_srgba_premultiplied": "colour",
    "menu_button": "menu", "menu_image_button": "menu", "menu_image_text_button": "menu",
    "collapsing": "collapsing", "drag_angle": "drag_value", "drag_angle_tau": "drag_value",
    "context_menu": "context_menu", "consume_shortcut": "shortcut", "consume_key": "shortcut",
    "key_pressed": "shortcut", "show_rows": "list_rows",
    "dnd_drag_source": "other:drag and drop", "dnd_drop_zone": "other:drag and drop",
}
# Colour value types Input::color takes (by the egui call that edits them).
COLOUR_KEPT = {"color_edit_button_srgba", "color_edit_button_srgb", "color_edit_button_srgba_unmultiplied"}
# (`Ui::color_edit_button_srgba` itself picks Alpha::BlendOrAdditive; the bridge's Color32 picker is
# OnlyBlend, as the free function `color_picker::color_edit_button_srgba(ui, c, Alpha::OnlyBlend)`.)

# `Type::ctor(` calls; the chain after it holds the builder's options up to a terminal method.
CTOR_KINDS = {
    ("Checkbox", "new"): "checkbox", ("Checkbox", "without_text"): "checkbox",
    ("RadioButton", "new"): "radio", ("SelectableLabel", "new"): "selectable_label",
    ("Button", "new"): "button", ("Button", "image"): "button", ("Button", "image_and_text"): "button",
    ("Button", "opt_image_and_text"): "button", ("Button", "selectable"): "selectable_label",
    ("ImageButton", "new"): "button",
    ("Slider", "new"): "slider", ("Slider", "from_get_set"): "slider",
    ("DragValue", "new"): "drag_value", ("DragValue", "from_get_set"): "drag_value",
    ("TextEdit", "singleline"): "text_single", ("TextEdit", "multiline"): "text_multi",
    ("Hyperlink", "new"): "hyperlink", ("Hyperlink", "from_label_and_url"): "hyperlink",
    ("Link", "new"): "link",
    ("ComboBox", "from_label"): "combo", ("ComboBox", "from_id_salt"): "combo", ("ComboBox", "new"): "combo",
    ("CollapsingHeader", "new"): "collapsing",
    ("CollapsingState", "load_with_default_open"): "collapsing_state", ("CollapsingState", "load"): "collapsing_state",
    ("Window", "new"): "window", ("Modal", "new"): "modal",
    ("Panel", "left"): "panel", ("Panel", "right"): "panel", ("Panel", "top"): "panel", ("Panel", "bottom"): "panel",
    ("SidePanel", "left"): "panel", ("SidePanel", "right"): "panel",
    ("TopBottomPanel", "top"): "panel", ("TopBottomPanel", "bottom"): "panel",
    ("CentralPanel", "default"): "panel", ("CentralPanel", "no_frame"): "panel",
    ("MenuButton", "new"): "menu", ("MenuButton", "from_button"): "menu",
    ("SubMenuButton", "new"): "menu", ("SubMenuButton", "from_button"): "menu",
    ("Popup", "menu"): "popup_menu", ("Popup", "context_menu"): "popup_menu", ("Popup", "from_response"): "popup_menu",
    ("Popup", "from_toggle_button_response"): "popup_menu",
    ("DatePickerButton", "new"): "own_widget", ("TableBuilder", "new"): "table",
    ("ThemeSwitch", "new"): "own_widget",
    ("Plot", "new"): "other:plot", ("Scene", "new"): "other:scene (pan and zoom)",
}
# Methods that end a builder chain (what follows is the response's).
TERMINALS = {"show", "show_ui", "show_index", "ui", "show_inside", "show_animated", "show_animated_inside",
             "show_header", "body", "body_unindented", "show_body_indented", "show_body_unindented",
             "show_toggle_button", "show_rows", "show_viewport", "show_dyn", "show_switched"}
# Free functions and macros drawing a widget.
FREE_KINDS = {
    "reset_button": "button", "color_picker_color32": "colour_inline", "color_picker_hsva_2d": "colour_inline",
    "color_edit_button_srgba": "colour", "color_edit_button_rgba": "colour", "color_edit_button_hsva": "colour",
    "global_theme_preference_buttons": "selectable", "global_theme_preference_switch": "button",
    "egui_github_link_file": "hyperlink", "egui_github_link_file_line": "hyperlink",
    "github_link_file": "hyperlink", "github_link_file_line": "hyperlink",
    "font_id_ui": "composite", "zoom_menu_buttons": "menu_item",
}
# Composite widgets of egui (and other crates) the apps call (`theme.ui(ui)`): several widgets each,
# drawn by their crate, the bridge has no call for them: described once only by an impl Describe
# the app writes for each (the "composite" rule).
COMPOSITE_CALL = re.compile(r"\b(tessellation_options|handle_shape|theme|scroll)\s*\.\s*ui\s*\(|\blogger_ui\s*\(\s*\)\s*\.\s*show\s*\(")

# Outside the count, by a pattern each.
OTHER_CALLS = {
    r"\bfile_dialog\s*\.\s*update\w*\s*\(": "file dialog",
    r"\bdropped_files\b": "drag and drop (files dropped on the window)",
}

# Response methods that only ask (not options).
QUERIES = {
    "clicked", "changed", "hovered", "double_clicked", "triple_clicked", "secondary_clicked", "middle_clicked",
    "lost_focus", "gained_focus", "has_focus", "dragged", "drag_started", "drag_stopped", "drag_delta",
    "rect", "id", "response", "inner", "union", "clicked_by", "contains_pointer", "interact_pointer_pos",
    "hover_pos", "ctx", "enabled", "is_pointer_button_down_on", "header_response", "body_response",
    "body_returned", "openness", "fully_open", "fully_closed", "is_some", "is_none", "map", "and_then",
    "unwrap", "unwrap_or", "cloned", "expect", "clicked_elsewhere", "long_touched",
    "is_open", "into_inner", "then", "then_some", "lost_focus", "galley", "cursor_range", "state",
    "text_clip_rect", "text_draw_pos", "galley_pos", "on_hover_cursor", "request_focus", "surrender_focus",
    "scroll_to_me", "highlight", "labelled_by", "widget_info", "mark_changed", "is_tooltip_open",
    "on_hover_and_drag_cursor", "sense", "interact", "dnd_hover_payload", "dnd_release_payload",
    "dnd_set_drag_payload", "clone", "backdrop_response", "set_open", "toggle", "is_some_and", "response",
}
TOOLTIP_OPTS = {"on_hover_text": "tooltip", "on_hover_text_at_pointer": "tooltip", "on_disabled_hover_text": "tooltip",
                "on_hover_ui": "tooltip_ui", "on_hover_ui_at_pointer": "tooltip_ui", "on_disabled_hover_ui": "tooltip_ui"}
# Wrappers `ui.add*(…, widget)`: the option they give the widget.
WRAPPERS = {"add": None, "add_enabled": "enabled", "add_sized": "add_sized", "put": "put", "place": "put",
            "add_visible": "add_visible"}

# Containers: a site inside one is judged with it.
CONTAINER_METHODS = {"menu_button": "menu", "menu_image_button": "menu", "menu_image_text_button": "menu",
                     "context_menu": "menu", "on_hover_ui": "tooltip", "on_hover_ui_at_pointer": "tooltip",
                     "on_disabled_hover_ui": "tooltip", "show_rows": "rows", "dnd_drag_source": "dnd",
                     "dnd_drop_zone": "dnd", "show_ui": "combo", "show_index": "combo",
                     "add_file_preview": "file dialog"}

FIELD_KINDS = {"checkbox", "toggle", "switch", "radio", "selectable", "combo", "slider", "drag_value",
               "text_single", "text_multi", "text_code", "colour"}
CONTAINER_KINDS = {"combo": "combo", "menu": "menu", "popup_menu": "popup", "table": "table",
                   "context_menu": "menu", "list_rows": "rows"}


@dataclass
class Site:
    app: str
    file: str
    line: int
    kind: str
    call: str
    start: int
    end: int
    options: list = field(default_factory=list)  # option names, as RULES names them
    ctx: list = field(default_factory=list)  # the Containers it is in, innermost last
    folded_into: "Site | None" = None  # part of another site (a combo box's option, a list's row)
    left_out: bool = False
    reasons: list = field(default_factory=list)  # (option, why, None): what its containers cost
    var: str = ""  # the variable the widget is built into (`let mut w = Window::new(..)`)
    term: "Call | None" = None  # the chain's terminal (`.show(..)`): what comes after is the response's

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class Container:
    kind: str
    file: str
    start: int
    end: int
    site: "Site | None" = None
    options: list = field(default_factory=list)  # a grid's

    @property
    def key(self):
        return (self.file, self.start)


class FileScan:
    """One source file, masked, with its sites, containers and functions."""

    def __init__(self, app: str, rel: str, src: str):
        self.app, self.rel, self.src = app, rel, src
        self.code = blank_test_modules(mask(src))
        self.sites: list[Site] = []
        self.containers: list[Container] = []
        self.fns: list[tuple[str, int, int, int]] = []  # name, def start, body start, body end
        self.unknown_adds: list[tuple[int, str]] = []
        self.others: list[Site] = []

    def text(self, a: int, b: int) -> str:
        return " ".join(self.src[a:b].split())

    def site(self, kind: str, call: str, start: int, end: int) -> Site:
        s = Site(self.app, self.rel, line_of(self.code, start), kind, call, start, end)
        self.sites.append(s)
        return s


def path_start(code: str, i: int) -> int:
    """Start of the `a::b::` path ending at `i` (the `Type` of `Type::ctor`)."""
    j = i
    while True:
        m = re.search(r"(\b[A-Za-z_]\w*\s*::\s*)$", code[max(0, j - 80):j])
        if not m:
            return j
        j -= len(m.group(1))


def norm(kind: str, name: str, args: str) -> list[str]:
    """An option as the rules name it: some say more by their argument (`scroll(false)` is
    egui's default, `resizable([true, false])` is per axis)."""
    a = re.sub(r"\s+", "", args)
    if kind == "window":
        if name in ("scroll", "hscroll", "vscroll"):
            if a in ("false", "[false,false]", "Vec2b::FALSE") or (name == "hscroll" and a == "false"):
                return []
            if name == "vscroll" or a == "[false,true]":
                return ["vscroll"]
            return ["hscroll"] if name == "hscroll" else ["scroll"]
        if name == "resizable" and a.startswith("["):
            return ["resizable([x, y])"]
    if kind == "text_single" and name == "code_editor":
        return ["font", "lock_focus"]
    if kind == "combo" and name == "from_label":
        return []
    return [name]


def options_of(calls: list[Call], kind: str) -> tuple[list[str], list[Call], Call | None]:
    """A chain's builder options up to its terminal, the calls after it, and the terminal."""
    opts = []
    for k, c in enumerate(calls):
        if c.name in TERMINALS:
            if kind in ("text_single", "text_multi", "text_code") and c.name == "show":
                opts.append("show")  # the app uses TextEditOutput (cursor, galley)
            return opts, calls[k + 1:], c
        opts += norm(kind, c.name, c.args)
    return opts, [], None


def response_options(calls: list[Call]) -> list[str]:
    out = []
    for c in calls:
        if c.name in TOOLTIP_OPTS:
            out.append(TOOLTIP_OPTS[c.name])
        elif c.name in QUERIES or c.name == "context_menu":
            continue
        else:
            out.append("response:" + c.name)
    return out


def arg_look(args: str) -> list[str]:
    """Options carried by a widget's text argument: rich text, an image (atoms)."""
    out = []
    if re.search(r"\bRichText\s*::|\.(strong|color|small|heading|monospace|italics|size|text_style)\s*\(", args):
        out.append("rich_text")
    if re.search(r"include_image!|\bImage\s*::|egui_icon|\bicon\b", args) or re.match(r"\s*\(\s*[a-z_]*(image|icon)", args):
        out.append("image")
    return out


def find_fns(fs: FileScan) -> None:
    code = fs.code
    for m in re.finditer(r"\bfn\s+([A-Za-z_]\w*)", code):
        p = code.find("(", m.end())
        if p < 0:
            continue
        q = match_close(code, p)
        k = q + 1
        while k < len(code) and code[k] not in "{;":
            k += 1
        if k < len(code) and code[k] == "{":
            fs.fns.append((m.group(1), m.start(), k, match_close(code, k)))
    for m in re.finditer(r"\blet\s+(?:mut\s+)?([A-Za-z_]\w*)\s*=\s*(?:move\s+)?\|", code):
        bar = code.find("|", m.end())
        k = skip_ws(code, bar + 1)
        if k < len(code) and code[k] == "{":
            fs.fns.append((m.group(1), m.start(), k, match_close(code, k)))
        else:
            fs.fns.append((m.group(1), m.start(), k, scan_to_end(code, k, at_semicolon=True)))


def scan_to_end(code: str, i: int, at_semicolon: bool = False) -> int:
    """From `i`, where the enclosing bracket closes (or, with `at_semicolon`, where the
    statement ends first)."""
    depth = 0
    while i < len(code):
        c = code[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth < 0:
                break
        elif at_semicolon and c == ";" and depth == 0:
            break
        i += 1
    return i


def var_before(code: str, start: int) -> str:
    m = re.search(r"\blet\s+(?:mut\s+)?([A-Za-z_]\w*)\s*(?::[^=;]+)?=\s*$", code[max(0, start - 120):start])
    if m:
        return m.group(1)
    m = re.search(r"(?<![=!<>])\b([A-Za-z_]\w*)\s*=\s*$", code[max(0, start - 60):start])
    return ("=" + m.group(1)) if m else ""


def wrapped_call_end(code: str, start: int, end: int) -> int | None:
    """If the expression start..end is the only argument of a call `f(expr)`, the end of that
    call (so that a chain can go on after it: `self.apply(Popup::menu(r)).show(..)`)."""
    b = start - 1
    while b >= 0 and code[b].isspace():
        b -= 1
    a = skip_ws(code, end)
    if b >= 0 and code[b] == "(" and a < len(code) and code[a] == ")" and re.search(r"[A-Za-z_]\w*\s*$", code[:b]):
        return a + 1
    return None


def scan_ctors(fs: FileScan) -> None:
    code = fs.code
    types = sorted({t for t, _ in CTOR_KINDS} | {"Grid", "ScrollArea"}, key=len, reverse=True)
    for m in re.finditer(r"\b(" + "|".join(types) + r")\s*::\s*([a-z_]+)\s*\(", code):
        t, c = m.group(1), m.group(2)
        if t == "ScrollArea":
            continue
        if t != "Grid" and (t, c) not in CTOR_KINDS:
            continue
        start = path_start(code, m.start())
        paren = m.end() - 1
        e = match_close(code, paren)
        calls, end = chain_after(code, e + 1)
        kind = CTOR_KINDS.get((t, c), "grid")
        if kind == "text_multi" and any(x.name == "code_editor" for x in calls):
            kind = "text_code"
        opts, after, term = options_of(calls, kind)
        if term is None:
            w = wrapped_call_end(code, start, end)
            if w is not None:
                more, end2 = chain_after(code, w)
                o2, after2, term2 = options_of(more, kind)
                if term2 is not None:
                    opts, after, term, end = opts + o2, after2, term2, end2
        if t == "Grid":
            if term is not None:
                fs.containers.append(Container("grid", fs.rel, term.start, term.end, None,
                                               [o for o in opts if o not in ("num_columns",)]))
            continue
        s = fs.site(kind, f"{t}::{c}", start, end)
        s.options = opts + response_options(after) + arg_look(code[paren + 1:e])
        s.var = var_before(code, start)
        s.term = term
        if kind in CONTAINER_KINDS or kind == "table":
            cstart = term.start if term is not None else e + 1
            fs.containers.append(Container(CONTAINER_KINDS.get(kind, kind), fs.rel, cstart, end, s))


def link_variable(fs: FileScan, s: Site) -> None:
    """`let mut w = Window::new(..)…; if x { w = w.open(o) } w.show(..)`: the options set later."""
    name = s.var
    if not name or name.startswith("="):
        return
    code = fs.code
    # The enclosing block ends where depth goes below the statement's.
    block_end = scan_to_end(code, s.end)
    for m in re.finditer(r"(?<![\w.])" + re.escape(name) + r"\b", code[s.end:block_end]):
        p = s.end + m.start()
        q = p + len(name)
        before = code[max(0, p - 40):p]
        if re.search(r"\b" + re.escape(name) + r"\s*=\s*$", before) and not re.search(r"[=!<>]=\s*$", before):
            # `w = w.opt(..)`: the right-hand side.
            calls, _ = chain_after(code, q)
            opts, after, term = options_of(calls, s.kind)
            s.options += opts
            if term is not None:
                s.term = term
            continue
        nxt = skip_ws(code, q)
        if nxt < len(code) and code[nxt] == ".":
            calls, end = chain_after(code, q)
            if re.match(r"\s*=", code[end:end + 3]) and not code[end:end + 3].strip().startswith("=="):
                continue
            if s.term is not None:
                # The variable holds what the widget gave back (`output.cursor_range`).
                s.options += [o for o in response_options(calls) if o.split(":")[-1] not in QUERIES]
                continue
            opts, after, term = options_of(calls, s.kind)
            s.options += opts + response_options(after)
            if term is not None:
                s.term = term
                if s.kind in CONTAINER_KINDS:
                    fs.containers.append(Container(CONTAINER_KINDS[s.kind], fs.rel, term.start, end, s))
            continue
        if re.search(r"\.\s*(add|add_enabled|add_sized|put|place|add_visible)\s*\(\s*(?:[^()]*,\s*)?$", before):
            continue  # handled by scan_wrappers
        # Passed on (`SubMenuButton::from_button(button)`): part of what it is passed to.
        outer = [o for o in fs.sites if o is not s and o.start < p < o.end]
        for o in sorted(outer, key=lambda o: -o.start)[:1]:
            s.folded_into = o
            o.options += [x for x in s.options if x in ("rich_text", "image")]
            if s.kind == "button" and o.kind == "menu":
                o.options.append("button")  # `MenuButton::from_button(button)`: the app's own button


def scan_wrappers(fs: FileScan) -> None:
    code = fs.code
    by_start = {s.start: s for s in fs.sites}
    for m in re.finditer(r"\.\s*(add|add_enabled|add_sized|put|place|add_visible)\s*\(", code):
        paren = m.end() - 1
        e = match_close(code, paren)
        args = code[paren + 1:e]
        parts = split_args(args)
        if not parts:
            continue
        last = parts[-1]
        off = paren + 1 + args.rfind(last)
        calls, end = chain_after(code, e + 1)
        resp = response_options(calls)
        wrap = WRAPPERS[m.group(1)]
        extra = ([wrap] if wrap else []) + resp
        target = by_start.get(off)
        if target is None and re.fullmatch(r"[A-Za-z_]\w*", last):
            cands = [s for s in fs.sites if s.var == last and s.start < off]
            target = cands[-1] if cands else None
        if target is not None:
            target.options += extra
            continue
        mm = re.match(r"(?:[A-Za-z_]\w*\s*::\s*)*([A-Za-z_]\w*)\s*(!)?\s*\(", last)
        name = mm.group(1) if mm else ""
        if name in OWN_WIDGETS:
            s = fs.site(OWN_WIDGETS[name], name, off, end)
            s.options = extra
        elif name in FREE_KINDS and mm.group(2):
            s = fs.site(FREE_KINDS[name], name + "!", off, end)
            s.options = extra + (["rich_text"] if name.startswith("egui_") else [])
        elif re.fullmatch(r"&\s*mut\s+self\s*\.\s*(frame|stroke|aux_stroke|bounding_box_stroke)", last):
            s = fs.site("composite", "ui.add(&mut Frame/Stroke)", off, end)  # egui's editors of a Frame, a Stroke
            s.options = extra
        elif name in LEFT_OUT_HELPERS:
            s = fs.site("hyperlink", name, off, end)
            s.left_out = True
        else:
            fs.unknown_adds.append((line_of(code, off), " ".join(fs.src[off:off + len(last)].split())[:80]))


def scan_methods(fs: FileScan) -> None:
    code = fs.code
    names = sorted(METHOD_KINDS, key=len, reverse=True)
    for m in re.finditer(r"\.\s*(" + "|".join(names) + r")\s*(?:::\s*<[^()]*>\s*)?\(", code):
        name = m.group(1)
        kind = METHOD_KINDS[name]
        paren = m.end() - 1
        e = match_close(code, paren)
        if name == "show_rows":
            # The scroll area's options before it.
            sm = None
            for sm in re.finditer(r"\bScrollArea\s*::\s*\w+\s*\(", code[max(0, m.start() - 600):m.start()]):
                pass
            opts = []
            if sm is not None:
                sa = max(0, m.start() - 600) + sm.start()
                calls, _ = chain_after(code, match_close(code, max(0, m.start() - 600) + sm.end() - 1) + 1)
                opts = [c.name for c in calls if c.name != "show_rows"]
            s = fs.site(kind, "ScrollArea::show_rows", m.start(), e + 1)
            s.options = [o for o in opts if o not in ("id_salt",)]
            fs.containers.append(Container("rows", fs.rel, paren, e + 1, s))
            continue
        calls, end = chain_after(code, e + 1)
        args = code[paren + 1:e]
        if name == "code_editor" and not args.strip():
            continue  # TextEdit's builder option, not `ui.code_editor(&mut text)`
        s = fs.site(kind, "." + name, m.start(), end)
        s.options = response_options(calls)
        if kind.startswith("other:"):
            fs.containers.append(Container("dnd", fs.rel, paren, e + 1, s))
            continue
        look = arg_look(args)
        if kind in ("selectable", "radio"):
            parts = split_args(args)
            look = arg_look(parts[-1]) if parts else []
        s.options += [x for x in look if not (kind in ("menu",) and x == "image" and name == "menu_button")]
        if name == "small_button":
            s.options.append("small")
        if name in ("drag_angle", "drag_angle_tau"):
            s.options.append("angle")
        if kind == "colour" and name not in COLOUR_KEPT:
            s.options.append("type")
        if name == "color_edit_button_srgba":
            s.options.append("alpha")  # egui's Ui method picks Alpha::BlendOrAdditive
        if name in ("menu_image_button", "menu_image_text_button"):
            s.options.append("image")
        if kind == "shortcut":
            # The same shortcut shown on a menu item (`shortcut_text(format_shortcut(&k))`): Menu::shortcut.
            key = re.match(r"\s*&?\s*([A-Za-z_]\w*)\s*$", args)
            if key and re.search(r"format_shortcut\s*\(\s*&\s*" + key.group(1) + r"\b", code):
                s.kind = "menu_shortcut"
            # A shortcut only while a field has focus (in the same condition).
            st = code.rfind("if ", 0, m.start())
            brace = code.find("{", m.start())
            cond = code[st:brace] if st >= 0 and brace > 0 else ""
            if re.search(r"has_focus|lost_focus", cond):
                s.options.append("focus")
        if name in CONTAINER_METHODS:
            fs.containers.append(Container(CONTAINER_METHODS[name], fs.rel, paren, e + 1, s))
    for name, ck in CONTAINER_METHODS.items():
        if name in METHOD_KINDS or name in ("show_ui", "show_index"):
            continue
        for m in re.finditer(r"\.\s*" + name + r"\s*\(", code):
            paren = m.end() - 1
            fs.containers.append(Container(ck, fs.rel, paren, match_close(code, paren) + 1))


def scan_free(fs: FileScan) -> None:
    code = fs.code
    taken = {s.start for s in fs.sites}
    for name, kind in list(FREE_KINDS.items()) + [(n, k) for n, k in OWN_WIDGETS.items()]:
        for m in re.finditer(r"(?<![\w.])" + name + r"\s*(!\s*)?\(", code):
            if re.search(r"\bfn\s+$", code[max(0, m.start() - 10):m.start()]):
                continue
            start = path_start(code, m.start())
            if start in taken or m.start() in taken:
                continue
            if name in OWN_WIDGETS and not m.group(1):
                pass
            elif name in FREE_KINDS and name.startswith(("egui_github", "github_link")) and not m.group(1):
                continue
            paren = m.end() - 1
            e = match_close(code, paren)
            calls, end = chain_after(code, e + 1)
            s = fs.site(kind, name, start, end)
            s.options = response_options(calls)
            if name == "global_theme_preference_buttons":
                s.options.append("tooltip")  # egui's three options each have a tooltip (ThemePreference::radio_buttons)
            taken.add(start)
    for m in COMPOSITE_CALL.finditer(code):
        paren = m.end() - 1
        fs.site("composite", (m.group(1) or "logger_ui") + ".ui", m.start(), match_close(code, paren) + 1)


def scan_others(fs: FileScan) -> None:
    code = fs.code
    for m in re.finditer(r"\.\s*(allocate_exact_size|allocate_painter|allocate_response|allocate_at_least|allocate_rect|interact)\s*\(", code):
        paren = m.end() - 1
        e = match_close(code, paren)
        args = code[paren + 1:e]
        sense = re.search(r"Sense\s*::\s*(click_and_drag|click|drag|CLICK|DRAG)", args)
        if not sense:
            continue
        s = Site(fs.app, fs.rel, line_of(code, m.start()), "other:custom painter / click or drag area",
                 "." + m.group(1), m.start(), e + 1)
        s.options = ["Sense::" + sense.group(1)]
        fs.others.append(s)
    for m in re.finditer(r"\.\s*sense\s*\(\s*(?:egui\s*::\s*)?Sense\s*::\s*(click|drag|click_and_drag)\b", code):
        if re.search(r"\btable\s*\.\s*$|table\s*=\s*table\s*$", code[max(0, m.start() - 30):m.start()]):
            continue  # a table's option, judged with the table
        s = Site(fs.app, fs.rel, line_of(code, m.start()), "other:custom painter / click or drag area",
                 ".sense", m.start(), m.end())
        s.options = ["Sense::" + m.group(1)]
        fs.others.append(s)
    for pat, what in OTHER_CALLS.items():
        for m in re.finditer(pat, code):
            fs.others.append(Site(fs.app, fs.rel, line_of(code, m.start()), "other:" + what, m.group(0), m.start(), m.end()))


# ------------------------------------------------------------------------------------------------
# An app: its files, the containers each site is in, and the verdicts
# ------------------------------------------------------------------------------------------------


def choice_key(fs: FileScan, s: Site):
    """Radio buttons or selectable values of one value are one field (a Form::choice)."""
    if s.kind in ("radio", "selectable") and s.call in (".radio_value", ".selectable_value"):
        m = re.match(r"\.\s*\w+\s*\(([^,]*),", fs.code[s.start:s.end])
        if m:
            return ("choice", " ".join(m.group(1).split()))
    return id(s)


HORIZONTAL = {"horizontal", "horizontal_wrapped", "horizontal_centered", "horizontal_top", "show_header"}


def enclosing_layout(code: str, pos: int) -> str:
    """"horizontal" when the nearest closure-taking call around `pos` lays out in a row
    (`ui.horizontal(|ui| …)`, a grid's row), else "vertical"."""
    i, depth = pos - 1, 0
    while i >= 0:
        c = code[i]
        if c in ")]}":
            depth += 1
        elif c in "([{":
            if depth == 0:
                if c == "(":
                    m = re.search(r"([A-Za-z_]\w*)\s*$", code[max(0, i - 60):i])
                    name = m.group(1) if m else ""
                    if name in HORIZONTAL:
                        return "horizontal"
                    if name in ("show", "show_ui", "vertical", "vertical_centered", "vertical_centered_justified",
                                "group", "scope", "indent", "collapsing", "menu_button", "show_inside", "push_id",
                                "scope_builder", "add_enabled_ui"):
                        # A grid's cells are a row.
                        if name == "show" and re.search(r"Grid\s*::\s*new", code[max(0, i - 300):i]):
                            return "horizontal"
                        return "vertical"
            else:
                depth -= 1
        i -= 1
    return "vertical"


def innermost_fn(fs: FileScan, pos: int):
    best = None
    for f in fs.fns:
        if f[2] <= pos <= f[3] and (best is None or f[2] > best[2]):
            best = f
    return best


class App:
    def __init__(self, name: str, root: str):
        self.name, self.root = name, root
        self.files: list[FileScan] = []
        for d, dirs, files in os.walk(root):
            dirs[:] = sorted(x for x in dirs if x != "tests" and not x.startswith("."))
            for f in sorted(files):
                if f.endswith(".rs"):
                    p = os.path.join(d, f)
                    with open(p, encoding="utf-8") as h:
                        self.files.append(FileScan(name, os.path.relpath(p, root), h.read()))
        for fs in self.files:
            find_fns(fs)
            scan_ctors(fs)
            for s in list(fs.sites):
                link_variable(fs, s)
            scan_wrappers(fs)
            scan_methods(fs)
            scan_free(fs)
            scan_others(fs)
            self.drop_own_definitions(fs)
        self.inherit()
        for fs in self.files:
            for s in fs.sites + fs.others:
                s.ctx = self.ctx_of(fs, s.start, exclude=s)
        self.fold_and_remap()
        self.choice_layouts()

    @property
    def sites(self) -> list[Site]:
        return [s for fs in self.files for s in fs.sites if s.folded_into is None and not s.left_out]

    @property
    def others(self) -> list[Site]:
        out = [s for fs in self.files for s in fs.others]
        out += [s for fs in self.files for s in fs.sites if s.kind.startswith("other:") and s.folded_into is None]
        return out

    def drop_own_definitions(self, fs: FileScan) -> None:
        """What an own widget's definition draws is that widget, counted where it is called."""
        spans = [(f[2], f[3]) for f in fs.fns if f[0] in OWN_WIDGETS]
        inside = lambda s: any(a <= s.start <= b for a, b in spans)  # noqa: E731
        helpers = [(f[2], f[3]) for f in fs.fns if f[0] in LEFT_OUT_HELPERS]
        for s in fs.sites:
            if any(a <= s.start <= b for a, b in helpers):
                s.left_out = True  # the left-out helper's own link
        fs.sites = [s for s in fs.sites if not inside(s)]
        fs.others = [s for s in fs.others if not inside(s)]

    def direct_ctx(self, fs: FileScan, pos: int, exclude=None) -> list[Container]:
        return [c for c in fs.containers if c.start <= pos < c.end and (exclude is None or c.site is not exclude)]

    def ctx_of(self, fs: FileScan, pos: int, exclude=None) -> list[Container]:
        out = self.direct_ctx(fs, pos, exclude)
        f = innermost_fn(fs, pos)
        out = sorted(out, key=lambda c: c.start)  # innermost last
        if f is not None:
            out = self.inherited.get((fs.rel, f[0], f[2]), []) + out
        return out

    def inherit(self) -> None:
        """A function (or closure) called only inside a menu, a grid, a tooltip… is in it."""
        self.inherited: dict = {}
        defs = [(fs, f) for fs in self.files for f in fs.fns]
        names = {f[0] for _, f in defs}
        refs = defaultdict(list)  # name -> [(fs, pos)]
        for fs in self.files:
            for m in re.finditer(r"(?<![\w])([A-Za-z_]\w*)\b", fs.code):
                if m.group(1) in names:
                    before = fs.code[max(0, m.start() - 12):m.start()]
                    if re.search(r"\bfn\s+$|\blet\s+(mut\s+)?$", before):
                        continue
                    refs[m.group(1)].append((fs, m.start()))
        for _ in range(5):
            new = {}
            for fs, f in defs:
                name, _, b0, b1 = f
                common = None
                for rfs, pos in refs[name]:
                    if rfs is fs and b0 <= pos <= b1:
                        continue  # recursion
                    # By kind (a helper drawn in two menus is in a menu), the innermost of each.
                    ctx = {c.kind: c for c in self.ctx_of(rfs, pos)}
                    common = ctx if common is None else {k: v for k, v in common.items() if k in ctx}
                if common:
                    new[(fs.rel, name, b0)] = sorted(common.values(), key=lambda c: c.start)
            if new == self.inherited:
                break
            self.inherited = new

    def fold_and_remap(self) -> None:
        for fs in self.files:
            for s in fs.sites:
                kinds = [c.kind for c in s.ctx]
                inner = s.ctx[-1] if s.ctx else None
                rows = [c for c in s.ctx if c.kind == "rows" and c.site is not None]
                if rows and s.kind != "list_rows":
                    s.folded_into = rows[-1].site  # a row of a long list is the list's
                    rows[-1].site.options.append("rows:" + s.kind)
                    continue
                if "dnd" in kinds:
                    s.kind = "other:drag and drop"
                    continue
                if "file dialog" in kinds:
                    s.kind = "other:file dialog (its preview)"
                    continue
                combo = [c for c in s.ctx if c.kind == "combo"]
                if combo and s.kind in ("selectable", "radio", "selectable_label"):
                    owner = combo[-1].site
                    if owner is not None:
                        s.folded_into = owner  # an option of the combo box
                        owner.options += ["option:" + o for o in s.options if o not in ("enabled",)]
                        continue
                if combo and s.kind in FIELD_KINDS | {"button", "link", "hyperlink", "menu"}:
                    s.reasons.append(("container", UNCOVERED["combo_content"], None))
                menus = [c for c in s.ctx if c.kind in ("menu", "popup")]
                if menus:
                    if s.kind == "menu":
                        s.kind = "submenu"
                    elif s.kind in ("button", "selectable_label"):
                        s.kind = "menu_item"
                    elif s.kind in FIELD_KINDS:
                        s.call += f" ({s.kind})"
                        s.kind = "menu_field"
                    elif s.kind == "hyperlink":
                        s.kind = "hyperlink_in_menu"
                if "popup" in kinds and s.kind not in ("popup_menu",):
                    s.reasons.append(("container", "in a Popup (Popup::menu / context_menu / from_response): "
                                      "no bridge menu shows one before 06ac917 (popup_menu_ui)", ("since", "06ac917")))
                if "tooltip" in kinds:
                    s.reasons.append(("container", UNCOVERED["tooltip_widget"], None))
                if "table" in kinds and s.kind in FIELD_KINDS | {"button", "selectable_label"}:
                    s.reasons.append(("container", "in a cell of an egui_extras table: table_ui draws its own cells", None))
                grids = [c for c in s.ctx if c.kind == "grid"]
                if grids and (s.kind in FIELD_KINDS):
                    g = grids[-1]
                    s.options += ["grid:" + o for o in g.options]
                    shape = self.grid_row(fs, s, g)
                    if shape == "fields":
                        s.options.append("grid:row")
                    if self.grid_holds_more(g):
                        s.options.append("grid-mixed")

    def choice_layouts(self) -> None:
        """Radio buttons or selectable values of one value laid out one under another: Form::choice
        draws its options in a wrapped row."""
        for fs in self.files:
            groups = defaultdict(list)
            for s in fs.sites:
                if s.folded_into is None and s.kind in ("radio", "selectable"):
                    groups[choice_key(fs, s)].append(s)
            for key, ss in groups.items():
                if not isinstance(key, tuple) or len(ss) < 2:
                    continue
                if not all(enclosing_layout(fs.code, s.start) == "horizontal" for s in ss):
                    for s in ss:
                        s.options.append("layout:vertical")

    def grid_holds_more(self, g: Container) -> bool:
        """Whether the grid holds widgets other than fields (a button, a link, a section): a
        form's grid (form_with) holds fields only, and in it the window's own widgets cannot be
        reached (the form borrows it)."""
        return any(
            o.kind not in FIELD_KINDS and not o.left_out and o.folded_into is None and not o.kind.startswith("other:")
            for fs in self.files for o in fs.sites if any(c.key == g.key for c in o.ctx)
        )

    def grid_row(self, fs: FileScan, s: Site, g: Container) -> str:
        """The shape of the site's grid row: "simple" (a text label and this one widget, a
        form's own row), "fields" (fields only, after any label: Form::row, Form::labelled) or
        "mixed" (fields and a button or a link: no form row holds those)."""
        code = fs.code
        if g.file == fs.rel and g.start <= s.start < g.end:
            lo, hi = g.start, g.end
        else:
            f = innermost_fn(fs, s.start)
            lo, hi = (f[2], f[3]) if f else (0, len(code))
        ends = [lo] + [lo + m.end() for m in re.finditer(r"\bend_row\s*\(\s*\)\s*;?", code[lo:hi])] + [hi]
        for a, b in zip(ends, ends[1:]):
            if not a <= s.start < b:
                continue
            row = [o for o in fs.sites if a <= o.start < b and not o.left_out and o.folded_into is None
                   and not o.kind.startswith("other:")]
            if any(o.kind not in FIELD_KINDS for o in row):
                return "mixed"
            k = a
            if a == lo:
                k = code.find("{", lo) + 1
            first = code[skip_ws(code, k):b]
            while True:  # leading `let …;` / `use …;` statements are not cells
                mm = re.match(r"(let|use)\b[^;]*;\s*", first)
                if not mm:
                    break
                first = first[mm.end():]
            label = re.match(r"ui\s*\.\s*(label|strong|heading|monospace)\s*\(\s*(\"|format!|&?[a-z_]+\s*\))", first)
            return "simple" if label and len({choice_key(fs, o) for o in row}) == 1 else "fields"
        return "fields"


# ------------------------------------------------------------------------------------------------
# The verdict
# ------------------------------------------------------------------------------------------------


@dataclass
class Scenario:
    name: str
    off: frozenset  # the LANDED / PENDING tags switched off: the API before them


def why_not(kind: str, opt: str) -> str:
    if (kind, opt) in WHY:
        return WHY[(kind, opt)]
    if opt.startswith("option:"):
        o = opt.split(":", 1)[1]
        return {"tooltip": "a tooltip on one option (Form::choice gives one response)",
                "tooltip_ui": "a tooltip on one option (Form::choice gives one response)",
                "rich_text": "rich text in an option (Form::choice options are plain text)",
                "image": "an image in an option (Form::choice options are plain text)"}.get(o, f"`{o}` on one option")
    if opt == "grid-mixed":
        return "in an app grid that also holds buttons, links or editors (Form::cell holds them in a form's grid)"
    if opt.startswith("grid:"):
        o = opt.split(":", 1)[1]
        return "the app's grid row (a label and one widget per row is all a form draws)" if o == "row" \
            else f"the app's grid `{o}` (a form draws its own grid)"
    if opt.startswith("response:"):
        return f"`{opt.split(':', 1)[1]}` on one option (Form::choice gives the group one response)"
    return f"`{opt}` not kept"


def since_words(tag: str) -> str:
    """"since 06ac917", "with the options branch"."""
    return f"since {tag}" if re.fullmatch(r"[0-9a-f]{7,40}", tag) else f"with the {tag} branch"


def judge(s: Site, sc: Scenario) -> list:
    """The reasons the site is not described once in this scenario ([] = yes)."""
    out = []
    for opt, why, tag in s.reasons:
        if not (tag and tag[0] == "since" and tag[1] not in sc.off):
            out.append((opt, why, tag))
    kind = s.kind
    if kind in UNCOVERED:
        return out + [("kind", UNCOVERED[kind], None)]
    call, keep, since = RULES[kind]
    keep_all = keep == ALL
    keep = set(keep.split()) if not keep_all else set()
    if since.get("") in sc.off:
        out.append(("kind", f"no call for it {since_words(since[''])} ({call})", ("since", since[""])))
    for opt in dict.fromkeys(s.options):
        if opt in since:
            if since[opt] in sc.off:
                out.append((opt, f"`{opt}` kept only {since_words(since[opt])}", ("since", since[opt])))
        elif opt == "grid-mixed":
            if FORM_CELL[0] in sc.off:
                out.append((opt, why_not(kind, opt) + f": kept only {since_words(FORM_CELL[0])}", ("since", FORM_CELL[0])))
        elif opt.startswith("grid:"):
            if FORM_GRID[1] in sc.off:
                out.append((opt, why_not(kind, opt) + f": kept only {since_words(FORM_GRID[1])}", ("since", FORM_GRID[1])))
        elif keep_all or opt in keep:
            continue
        elif opt.startswith("response:") and kind not in ("radio", "selectable") and (kind, opt) not in WHY:
            continue  # the bridge's call returns egui's response: the app goes on with it
        else:
            out.append((opt, why_not(kind, opt), None))
    return out


def verdicts(apps: list[App], sc: Scenario) -> dict:
    return {id(s): judge(s, sc) for a in apps for s in a.sites if not s.kind.startswith("other:")}


def counted(a: App) -> list[Site]:
    return [s for s in a.sites if not s.kind.startswith("other:")]


def scenarios(extra: frozenset = frozenset()) -> dict:
    """The columns: the API at 5a0931d, at b97b4a2 (before the options and lists branches), on
    main (all of LANDED, and `extra` of PENDING), and, while a branch is pending, main with it."""
    tags = [t for t, _ in LANDED]
    commit, n = BEFORE_BRANCHES
    out = {
        "5a0931d": Scenario("strict, API at 5a0931d", frozenset(tags + PENDING)),
        "without": Scenario(f"strict, API at {commit} (before the options and lists branches)", frozenset(tags[n:] + PENDING)),
        "main": Scenario("strict, API on main", frozenset(PENDING) - extra),
    }
    if frozenset(PENDING) - extra:
        out["pending"] = Scenario("strict, main + pending branches", frozenset())
    return out


SCENARIOS = scenarios()


def pct(n: int, d: int) -> str:
    return f"{n} ({100 * n / d:.0f} %)" if d else "0"


def report(apps: list[App], markdown: bool, out=sys.stdout) -> None:
    vs = {k: verdicts(apps, sc) for k, sc in SCENARIOS.items()}
    cols = list(SCENARIOS)
    heads = [SCENARIOS[k].name for k in cols]

    def table(title, rows, head):
        if markdown:
            print(f"| {head} | controls | " + " | ".join(heads) + " |", file=out)
            print("| --- | --- | " + " | ".join("---" for _ in cols) + " |", file=out)
            for r in rows:
                print("| " + " | ".join(r) + " |", file=out)
        else:
            print(f"\n{title}", file=out)
            w = max(len(r[0]) for r in rows) + 2
            print(f"{head:<{w}}{'controls':>9}  " + "  ".join(f"{h:>28}" for h in heads), file=out)
            for r in rows:
                print(f"{r[0]:<{w}}{r[1]:>9}  " + "  ".join(f"{x:>28}" for x in r[2:]), file=out)
        print(file=out)

    rows = []
    total = [0] + [0] * len(cols)
    for a in apps:
        ss = counted(a)
        ys = [sum(1 for s in ss if not vs[k][id(s)]) for k in cols]
        rows.append([a.name, str(len(ss))] + [pct(y, len(ss)) for y in ys])
        total[0] += len(ss)
        for i, y in enumerate(ys):
            total[i + 1] += y
    rows.append(["all three", str(total[0])] + [pct(y, total[0]) for y in total[1:]])
    table("Per app (yes = described once by the strict rule)", rows, "app")

    by_kind = defaultdict(list)
    for a in apps:
        for s in counted(a):
            by_kind[s.kind].append(s)
    rows = []
    for kind in sorted(by_kind, key=lambda k: (-len(by_kind[k]), k)):
        ss = by_kind[kind]
        rows.append([kind, str(len(ss))] + [str(sum(1 for s in ss if not vs[k][id(s)])) for k in cols])
    table("Per kind, the three apps together", rows, "kind")

    # What blocks 97 %: the changes, each winning the sites it would make yes (given the ones
    # before it), most first; on main + the pending branches.
    for key in [k for k in ("main", "pending") if k in SCENARIOS]:
        total_n = sum(len(counted(a)) for a in apps)
        yes_n = sum(1 for a in apps for s in counted(a) if not vs[key][id(s)])
        title = f"What blocks, after {SCENARIOS[key].name} ({yes_n} of {total_n}): the changes by the sites each would win"
        print(("### " if markdown else "\n") + title, file=out)
        if markdown:
            print("\n| change | sites it would win | then described once |\n| --- | --- | --- |", file=out)
        left = [{blocker_group(s, r) for r in vs[key][id(s)]} for a in apps for s in counted(a) if vs[key][id(s)]]
        done = set()
        while left:
            gain = Counter()
            for groups in left:
                rest = groups - done
                if len(rest) == 1:
                    gain[next(iter(rest))] += 1
            if not gain:
                # Each remaining site needs two changes or more: list them by the sites they touch.
                touch = Counter(g for groups in left for g in groups - done)
                for g, n in touch.most_common():
                    line = f"{g} | (with others) {n} |"
                    print(f"| {line} |" if markdown else f"  (with others, {n:>3} sites) {g}", file=out)
                break
            g, n = max(gain.items(), key=lambda kv: (kv[1], kv[0]))
            done.add(g)
            left = [groups for groups in left if groups - done]
            yes_n += n
            p = f"{100 * yes_n / total_n:.1f} %"
            print(f"| {g} | {n} | {yes_n} ({p}) |" if markdown else f"  +{n:>3} -> {yes_n:>3} ({p:>7})  {g}", file=out)
        print(file=out)

    print(("### " if markdown else "\n") + "Every \"no\" on main (file:line, kind, what is not kept)", file=out)
    if markdown:
        print("\n| app | site | kind | why not |\n| --- | --- | --- | --- |", file=out)
    for a in apps:
        for s in sorted(counted(a), key=lambda s: (s.file, s.line)):
            rs = vs["main"][id(s)]
            if not rs:
                continue
            why = compact(rs)
            if markdown:
                # The app's own repository before its path: a bare `src/…` would read as one of ours.
                repo = {"serial": "serial-monitor-rust/", "template": "eframe_template/", "egui": "egui/"}.get(a.name, "")
                print(f"| {a.name} | `{repo}{s.where}` | {s.kind} | {why} |", file=out)
            else:
                print(f"  {a.name:>9} {s.where:<32} {s.kind:<14} {why}", file=out)
    print(file=out)
    print(("### " if markdown else "\n") + "Outside the count (other)", file=out)
    oc = Counter()
    for a in apps:
        for s in a.others:
            oc[(a.name, s.kind.split(":", 1)[1])] += 1
    if markdown:
        print("\n| app | what | sites |\n| --- | --- | --- |", file=out)
    for (app, what), n in sorted(oc.items()):
        print(f"| {app} | {what} | {n} |" if markdown else f"  {app:>9} {what}: {n}", file=out)


# What one change to the API would fix, by the reasons it removes.
GROUPS = [
    (r"Popup", "Popup::menu / context_menu / from_response with their options, and the items in them (one demo)"),
    (r"composite widget", "composite widgets of other crates (egui's editors, egui_logger)"),
    (r"also holds buttons", "fields in an app grid that also holds buttons, links or editors (a form's grid holds fields only)"),
    (r"app's grid|the app grid", "a form in the app's own grid (options branch)"),
    (r"tooltip on one option", "a tooltip on each option of a choice"),
    (r"one under another", "a choice's options one under another (radio buttons in a column)"),
    (r"while a field has focus", "a keyboard shortcut only while a field has focus"),
    (r"TableBuilder|egui_extras table", "egui_extras tables (TableBuilder options, fields in their rows)"),
    (r"Modal::should_close", "a modal closed by Escape or a click outside"),
    (r"value type or alpha|BlendOrAdditive|inline colour", "colours: [f32; 4], premultiplied, Alpha::BlendOrAdditive, inline pickers"),
    (r"trailing_fill|handle_shape", "slider trailing_fill and handle_shape"),
]


def compact(rs: list) -> str:
    """A site's reasons in one line: what waits for each branch, then what is not kept."""
    pending = defaultdict(list)
    plain = []
    for opt, why, tag in dict.fromkeys(rs):
        if tag and tag[0] == "since":
            if opt == "kind":
                item = "the kind itself"
            elif opt == "grid:row":
                item = "the app's grid row (not a text label and one widget)"
            elif opt.startswith("grid:"):
                item = f"the app's grid `{opt[5:]}`"
            else:
                item = f"`{opt}`"
            pending[tag[1]].append(item)
        else:
            plain.append(why)
    parts = plain + [f"kept only {since_words(b)}: " + ", ".join(items) for b, items in pending.items()]
    return "; ".join(parts)


def blocker_group(s: Site, r) -> str:
    opt, why, tag = r
    if tag and tag[0] == "since":
        return next((words for t, words in LANDED if t == tag[1]), f"the {tag[1]} branch (pending)")
    for pat, name in GROUPS:
        if re.search(pat, why):
            return name
    if s.kind == "window":
        return "egui::Window options not kept (default_height, constrain, per-axis resizable, hscroll, fixed_pos, …)"
    if s.kind == "list_rows":
        return "a long list's rows as the app draws them (the serial console: highlighted text rows, scroll options)"
    if s.kind == "submenu":
        return "submenus with an image, a MenuConfig or a button of their own"
    if s.kind in ("text_single", "text_multi", "text_code"):
        return "text edit options not kept (add_sized, TextEdit::show output, prefix/suffix, align, background_color)"
    if opt in ("kind", "container"):
        return why
    return f"{s.kind}: {why}"


def list_sites(apps: list[App], out=sys.stdout) -> None:
    vs = {k: verdicts(apps, sc) for k, sc in SCENARIOS.items()}
    for a in apps:
        for fs in a.files:
            for s in sorted(fs.sites + fs.others, key=lambda s: s.start):
                if s.left_out:
                    tag = "left out"
                elif s.folded_into is not None:
                    tag = f"part of {s.folded_into.kind} at line {s.folded_into.line}"
                elif s.kind.startswith("other:"):
                    tag = "other"
                else:
                    tag = " / ".join("yes" if not vs[k][id(s)] else "no" for k in SCENARIOS)
                opts = ",".join(dict.fromkeys(s.options))
                ctx = ">".join(c.kind for c in s.ctx)
                src = fs.text(s.start, min(s.end, s.start + 70))
                why = "; ".join(dict.fromkeys(r[1] for r in vs["main"].get(id(s), [])))
                before = "; ".join(dict.fromkeys(r[1] for r in vs["without"].get(id(s), [])))
                print(f"{a.name}\t{s.where}\t{s.kind}\t{tag}\t[{opts}]\t{ctx}\t{src}\t{why}\t{before}", file=out)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("apps", nargs="*", help="NAME=DIR, one per app")
    ap.add_argument("--markdown", action="store_true", help="the tables for docs/census.md")
    ap.add_argument("--list", action="store_true", help="every site, tab-separated, with its verdicts")
    ap.add_argument("--unknown", action="store_true", help="`ui.add(…)` arguments the script does not know")
    ap.add_argument("--with", dest="landed", default="",
                    help="branches of PENDING to count as landed on main (comma-separated)")
    ap.add_argument("--self-test", action="store_true", help="check the rules on a tiny inline fixture")
    args = ap.parse_args(argv)
    if args.self_test:
        return self_test()
    if args.landed:
        SCENARIOS.clear()
        SCENARIOS.update(scenarios(frozenset(args.landed.split(","))))
    if not args.apps:
        ap.error("give NAME=DIR for each app (or --self-test)")
    apps = []
    for spec in args.apps:
        name, _, d = spec.partition("=")
        if not d or not os.path.isdir(d):
            ap.error(f"{spec}: expected NAME=DIR with an existing DIR")
        apps.append(App(name, d))
    if args.list:
        list_sites(apps)
    elif args.unknown:
        for a in apps:
            for fs in a.files:
                for line, t in fs.unknown_adds:
                    print(f"{a.name}\t{fs.rel}:{line}\t{t}")
    else:
        report(apps, args.markdown)
    return 0


FIXTURE = r"""
fn ui(&mut self, ui: &mut egui::Ui, ctx: &egui::Context) {
    ui.add(egui::Slider::new(&mut self.a, 0.0..=1.0).step_by(0.1).text("Step"));          // L3
    ui.add(egui::Slider::new(&mut self.b, 0.0..=1.0).trailing_fill(true));                  // L4
    ui.checkbox(&mut self.c, "On").on_hover_text("A tooltip");                               // L5
    egui::Window::new("Tall").default_height(300.0).show(ctx, |ui| {});                     // L6
    egui::Window::new("Prefs").resizable(false).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {}); // L7
    if ui.input_mut(|i| i.consume_shortcut(&SAVE)) {}                                        // L8
    ui.menu_button("File", |ui| {                                                            // L9
        if ui.button("Quit").clicked() {}                                                     // L10
    });
    let (_r, _p) = ui.allocate_painter(egui::vec2(9.0, 9.0), egui::Sense::drag());           // L12
    egui::ComboBox::from_label("Mode").show_ui(ui, |ui| {                                    // L13
        ui.selectable_value(&mut self.m, 1, "One").on_hover_text("per option");               // L14
    });
    egui::Grid::new("g").striped(true).show(ui, |ui| {                                       // L16
        ui.label("Name");
        ui.text_edit_singleline(&mut self.name);                                             // L18
        ui.end_row();
    });
    egui::Popup::menu(&response).show(|ui| {                                                 // L21
        let _ = ui.button("Copy");                                                           // L22
    });
    let mut w = egui::Window::new("Later");                                                  // L24
    w = w.default_pos([1.0, 2.0]);
    w.show(ctx, |ui| {});
    egui::Grid::new("m").show(ui, |ui| {                                                     // L27
        ui.label("Go");
        if ui.button("Go").clicked() {}                                                      // L29
        ui.end_row();
        ui.label("Fast");
        ui.checkbox(&mut self.fast, "");                                                     // L32
        ui.end_row();
    });
}
"""

# line -> (verdict at 5a0931d, without the options branch, with everything), and a word the "no"
# without the options branch names.
EXPECT = {
    3: ("no", "no", "yes", "step_by"), 4: ("no", "no", "yes", "trailing_fill"), 5: ("yes", "yes", "yes", ""),
    6: ("no", "no", "yes", "default_height"), 7: ("yes", "yes", "yes", ""), 8: ("no", "yes", "yes", ""),
    9: ("yes", "yes", "yes", ""), 10: ("yes", "yes", "yes", ""), 13: ("no", "no", "yes", "option:tooltip"),
    18: ("no", "no", "yes", "striped"), 21: ("no", "yes", "yes", ""), 22: ("no", "yes", "yes", ""),
    24: ("no", "no", "yes", "default_pos"), 29: ("yes", "yes", "yes", ""),
    32: ("no", "no", "yes", "also holds buttons"),
}


def self_test() -> int:
    """The rules on FIXTURE: every site found, each verdict and reason as EXPECT says."""
    import tempfile

    failures = []
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "app.rs"), "w", encoding="utf-8") as h:
            h.write(FIXTURE)
        app = App("fixture", d)
        sites = {s.line: s for s in counted(app)}
        # Its own columns, whatever LANDED and PENDING say: before anything since 5a0931d, before
        # the options branch only, with everything.
        own = {"5a0931d": Scenario("", frozenset(t for t, _ in LANDED)),
               "without": Scenario("", frozenset({"options", FORM_CELL[0], "ecdd122", "options2", "dd22fed"})),
               "all": Scenario("", frozenset())}
        vs = {k: verdicts([app], sc) for k, sc in own.items()}
        if set(sites) != set(EXPECT):
            failures.append(f"sites found on lines {sorted(sites)}, expected {sorted(EXPECT)}")
        for line, (at5a, main_v, pend, word) in EXPECT.items():
            s = sites.get(line)
            if s is None:
                continue
            got = tuple("yes" if not vs[k][id(s)] else "no" for k in ("5a0931d", "without", "all"))
            if got != (at5a, main_v, pend):
                failures.append(f"line {line} ({s.kind}): {got}, expected {(at5a, main_v, pend)}: {vs['without'][id(s)]}")
            why = " ".join(r[1] for r in vs["without"][id(s)])
            if word and word not in why:
                failures.append(f"line {line} ({s.kind}): the reason {why!r} does not name {word!r}")
        others = [o.line for o in app.others]
        if others != [12]:
            failures.append(f"other sites on lines {others}, expected [12] (the painter)")
        if not any(s.folded_into is not None and s.line == 14 for fs in app.files for s in fs.sites):
            failures.append("the combo box's option (line 14) is not part of the combo box")
    for f in failures:
        print("self-test: " + f)
    print(f"self-test: {len(EXPECT) + 2 - len(failures)} of {len(EXPECT) + 2} checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
