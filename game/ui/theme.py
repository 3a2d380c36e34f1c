"""The pygame_gui theme, built in code so it can point at the shipped font for the language."""

from __future__ import annotations

from typing import Any

from .fonts import font_path

PANEL_BG = "#1c1f26E6"
TEXT = "#EDE6D6"
ACCENT = "#C8A24A"


def theme(lang: str | None = None) -> dict[str, Any]:
    path = str(font_path(lang))
    font = {"name": "qiankun", "size": "16", "regular_path": path, "bold_path": path}
    return {
        "defaults": {
            "font": font,
            "colours": {
                "normal_bg": "#2E3440",
                "hovered_bg": "#4C566A",
                "active_bg": "#8F6B2A",
                "selected_bg": "#8F6B2A",
                "dark_bg": PANEL_BG,
                "normal_text": TEXT,
                "hovered_text": "#FFFFFF",
                "selected_text": "#FFFFFF",
                "disabled_text": "#7A7A7A",
                "disabled_bg": "#24272E",
                "normal_border": "#5E5340",
                "hovered_border": ACCENT,
                "active_border": ACCENT,
                "selected_border": ACCENT,
                "text_shadow": "#000000",
            },
            "misc": {
                "border_width": "1",
                "shadow_width": "1",
                "shape": "rounded_rectangle",
                "shape_corner_radius": "4",
            },
        },
        "label": {
            "font": font,
            "colours": {"dark_bg": "#00000000"},
            "misc": {"text_horiz_alignment": "left"},
        },
        "#title": {"font": {**font, "size": "56"}, "misc": {"text_horiz_alignment": "center"}},
        "#subtitle": {"font": {**font, "size": "22"}, "misc": {"text_horiz_alignment": "center"}},
        "#big_button": {"font": {**font, "size": "20"}},
        # A saved game in the save list: read from the left like a line of text.
        "#save_row": {"misc": {"text_horiz_alignment": "left", "text_horiz_alignment_padding": "12"}},
        # A page's title in the help's list of pages.
        "#page_tab": {"misc": {"text_horiz_alignment": "left", "text_horiz_alignment_padding": "12"}},
        "text_box": {"font": font, "colours": {"dark_bg": PANEL_BG}},
        # pygame_gui does not carry the defaults' font into these elements, so each names it.
        "button": {"font": font},
        "drop_down_menu": {"font": font},
        "selection_list": {"font": font},
        "text_entry_line": {"font": font},
        # Wide enough that a skill's description reads as a paragraph, not a column.
        "tool_tip": {"font": {**font, "size": "14"}, "misc": {"rect_width": "320"}},
        "window": {"font": font},
    }
