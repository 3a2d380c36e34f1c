"""The pygame_gui theme, built in code so it can point at the shipped font for the language and
size its text (and the few lengths that follow the text) at the UI scale."""

from __future__ import annotations

from typing import Any

from .fonts import font_path
from .scale import px

PANEL_BG = "#1c1f26E6"
TEXT = "#EDE6D6"
ACCENT = "#C8A24A"


def _n(pixels: int) -> str:
    """A length at 100%, at the UI scale, as the theme writes it."""
    return str(px(pixels))


def theme(lang: str | None = None) -> dict[str, Any]:
    path = str(font_path(lang))
    font = {"name": "qiankun", "size": _n(16), "regular_path": path, "bold_path": path}
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
                "shape_corner_radius": _n(4),
            },
        },
        "label": {
            "font": font,
            "colours": {"dark_bg": "#00000000"},
            "misc": {"text_horiz_alignment": "left"},
        },
        "#title": {"font": {**font, "size": _n(56)}, "misc": {"text_horiz_alignment": "center"}},
        "#subtitle": {"font": {**font, "size": _n(22)}, "misc": {"text_horiz_alignment": "center"}},
        # A title too wide for the window at the full size (a long side's name).
        "#title_small": {"font": {**font, "size": _n(36)}, "misc": {"text_horiz_alignment": "center"}},
        # Tables of figures (the battle's result): gold column heads, numbers to the right.
        "#table_head": {"colours": {"normal_text": ACCENT}, "misc": {"text_horiz_alignment": "right"}},
        "#table_number": {"misc": {"text_horiz_alignment": "right"}},
        "#table": {"colours": {"dark_bg": PANEL_BG, "normal_border": "#5E5340"}, "misc": {"shadow_width": "0"}},
        "#table_stripe": {"colours": {"dark_bg": "#FFFFFF0D"}, "misc": {"border_width": "0", "shadow_width": "0"}},
        "#big_button": {"font": {**font, "size": _n(20)}},
        # A saved game in the save list: read from the left like a line of text.
        "#save_row": {"misc": {"text_horiz_alignment": "left", "text_horiz_alignment_padding": _n(12)}},
        # Its name, what it is (scenario, sides, turn, date) and its file, smaller and muted.
        "#save_name": {"font": {**font, "size": _n(17)}},
        "#save_meta": {"font": {**font, "size": _n(14)}, "colours": {"normal_text": "#B4AE9E"}},
        "#save_file": {
            "font": {**font, "size": _n(13)},
            "colours": {"normal_text": "#8E887A"},
            "misc": {"text_horiz_alignment": "right"},
        },
        "#save_meta_on": {"font": {**font, "size": _n(14)}, "colours": {"normal_text": "#EFE6CF"}},
        "#save_file_on": {
            "font": {**font, "size": _n(13)},
            "colours": {"normal_text": "#E2D6B8"},
            "misc": {"text_horiz_alignment": "right"},
        },
        # A line of news under a list (saved, deleted, why not).
        "#note": {"misc": {"text_horiz_alignment": "center"}},
        # The battle's unit list: opaque, as it lies over the objectives; a row is a drawn
        # picture under a see-through button.
        "#roster": {"colours": {"dark_bg": "#1c1f26", "normal_border": "#5E5340"}, "misc": {"border_width": "1"}},
        "#roster_title": {"font": {**font, "size": _n(16)}, "colours": {"normal_text": "#E6C35A"}},
        "#roster_hint": {
            "font": {**font, "size": _n(13)},
            "colours": {"normal_text": "#AAA596"},
            "misc": {"text_horiz_alignment": "right"},
        },
        "#roster_row": {
            "colours": {
                "normal_bg": "#00000000",
                "hovered_bg": "#FFFFFF1C",
                "active_bg": "#C8A24A55",
                "normal_border": "#00000000",
                "hovered_border": ACCENT,
                "active_border": ACCENT,
            },
            "misc": {"shadow_width": "0"},
        },
        # A page's title in the help's list of pages.
        "#page_tab": {"misc": {"text_horiz_alignment": "left", "text_horiz_alignment_padding": _n(12)}},
        "text_box": {"font": font, "colours": {"dark_bg": PANEL_BG}},
        # The battle briefing's story: the briefing's own page, no box drawn round it.
        "#briefing_story": {
            "font": font,
            "colours": {"dark_bg": "#16181E", "normal_border": "#16181E"},
            "misc": {"border_width": "0"},
        },
        # pygame_gui does not carry the defaults' font into these elements, so each names it.
        "button": {"font": font},
        "drop_down_menu": {"font": font},
        # Rows tall enough for the font's descenders (g, y, p) and for Chinese.
        "selection_list": {"font": font, "misc": {"list_item_height": _n(28)}},
        "text_entry_line": {"font": font},
        # Wide enough that a skill's description reads as a paragraph, not a column.
        "tool_tip": {"font": {**font, "size": _n(14)}, "misc": {"rect_width": _n(320)}},
        "window": {"font": font},
    }
