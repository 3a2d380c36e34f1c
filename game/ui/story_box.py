"""Story text in scrolling text boxes, wrapped here: a briefing's story (the campaign's briefing
page and the briefing over the board both show it so, and give it the room the objectives below
leave it), and coloured paragraphs (the result screen's debriefing, the campaign's counsel and
ending), all laid out with one line height."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

import pygame
import pygame_gui
from pygame_gui.elements import UITextBox

from .narration import wrap
from .scale import px

# The text size the story is wrapped at (the theme's ``#briefing_story`` font).
SIZE = 16
# What the text box takes from its width: border, padding and a scroll bar.
SCROLL_ROOM = 48
# The text box's inner padding and line spacing (as pygame_gui lays it out).
BOX_INSET = 16
BOX_LINE_SPACING = 1.25


Colour = tuple[int, int, int]


def line_height(manager: pygame_gui.UIManager) -> int:
    """A text box's line as pygame_gui lays it out: the theme's text-box font, spaced."""
    return round(manager.get_theme().get_font(["text_box"]).get_rect("Ag國").height * BOX_LINE_SPACING)


def coloured_html(paragraphs: Iterable[tuple[str, Colour, bool]], wrap_width: int) -> tuple[str, int]:
    """Paragraphs (text, colour, whether the next one follows on the next line rather than after
    a blank one) as text-box markup, wrapped here at ``wrap_width`` (pygame_gui breaks lines only
    at spaces, and splits a line of Chinese with hyphens); and how many lines it takes."""
    html = ""
    count = 0
    joined = True
    for text, colour, joins_next in paragraphs:
        if html:
            html += "<br>" if joined else "<br><br>"
            count += 0 if joined else 1
        lines = wrap(text, SIZE, wrap_width)
        count += len(lines)
        body = "<br>".join(escape(line, quote=False) for line in lines)
        r, g, b = colour
        html += f"<font color='#{r:02X}{g:02X}{b:02X}'>{body}</font>"
        joined = joins_next
    return html, count


def story_lines(text: str, width: int) -> list[str]:
    """``text`` wrapped for a box ``width`` wide (pygame_gui breaks lines only at spaces, and
    Chinese has none)."""
    return wrap(text, SIZE, width - SCROLL_ROOM)


def story_height(manager: pygame_gui.UIManager, lines: list[str]) -> int:
    """The height the box needs to show ``lines`` without scrolling."""
    return len(lines) * line_height(manager) + px(BOX_INSET)


def story_bottom(manager: pygame_gui.UIManager, lines: list[str], top: int, bottom: int, below: int) -> int:
    """Where the story ends and what comes below it begins, between ``top`` and ``bottom``: the
    story as long as it is, unless ``below`` needs the room (then it scrolls, keeping at least two
    fifths of it)."""
    fits = max(top + (bottom - top) * 2 // 5, bottom - below)
    return min(fits, top + story_height(manager, lines) + px(8))


def story_box(manager: pygame_gui.UIManager, lines: list[str], rect: pygame.Rect) -> UITextBox:
    html = "<br>".join(escape(line, quote=False) for line in lines)
    return UITextBox(html, rect, manager, object_id="#briefing_story")
