"""Hints in a player's battles: the first time something matters, a small box says what it is and
which help page tells more.

Each hint is shown once ever: it is written into the settings file (``hints_seen``) as it is
shown, and ``hints`` off in the settings turns them all off. The box is not modal: orders go on
around it. A click on its × or Esc closes it; F1 or a click on the box opens its help page.

The battle screen drives it (``Hints`` is a component, not a scene):

* ``notice("select")`` when the player first selects a formation of theirs, and
  ``notice("forecast")`` when an attack forecast is shown;
* ``on_events(events, state, viewer)`` with the events the viewing player saw (already
  filtered by what their side witnessed): a rout, souls released, their own move cut short;
* ``handle(event)`` before anything else sees the event: True when the hint took it;
* ``draw(surface, avoid)`` last but for modal pop-ups, ``avoid`` being the panels it should
  not cover;
* ``reload()`` when the settings may have changed (the settings screen was open).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pygame

from ..core.events import Event, Moved, Routed, SoulsReleased
from ..core.state import GameState
from ..i18n import N_, _
from ..record.seats import Seats
from ..settings import load_settings, update_settings
from .fonts import font
from .help_pages import page
from .hud import GOLD, MUTED, TEXT, TOP_BAR_H
from .narration import wrap
from .scale import px

WIDTH = 360
PADDING = 12
CLOSE_SIZE = 22
# Space kept free at the bottom of the screen (the orders bar, the End turn button and the
# terrain under the cursor above it).
BOTTOM_BAR = 110
BACKGROUND = (22, 24, 30, 240)


@dataclass(frozen=True)
class Hint:
    kind: str
    title: str  # msgid
    text: str  # msgid
    page: str  # help page id


HINTS: dict[str, Hint] = {
    h.kind: h
    for h in (
        Hint(
            "select",
            N_("Your formation"),
            N_(
                "Lit hexes are where it can march this turn, red rings the enemies it can strike. "
                "Most troops stop when they step next to an enemy."
            ),
            "zoc",
        ),
        Hint(
            "forecast",
            N_("The forecast"),
            N_(
                "The losses both sides can expect, and every modifier by name. Friends beside the "
                "enemy make the blow heavier; one on the far side makes a pincer."
            ),
            "flanks",
        ),
        Hint(
            "rout",
            N_("A formation routs"),
            N_(
                "Its morale fell below its threshold (溃): it obeys no orders, holds no zone of "
                "control and flees from nearby enemies until it rallies."
            ),
            "morale",
        ),
        Hint(
            "souls",
            N_("Souls on the field"),
            N_(
                "The fallen lie where they fell as wandering souls (魂). Enemy souls on or beside "
                "one of your formations can be captured into your pouch (C)."
            ),
            "souls",
        ),
        Hint(
            "interrupted",
            N_("A march cut short"),
            N_(
                "The column stopped when it sighted an enemy it had not seen, or walked into an "
                "ambush. What your formations cannot see does not stop your orders, but it stops "
                "your men."
            ),
            "fog",
        ),
    )
}


class Hints:
    """The hint box of one battle screen."""

    def __init__(self, saves_dir: Path, open_help: Callable[[str], object] | None = None, quiet: bool = False) -> None:
        """``open_help(page_id)`` opens the help at a page (F1 or a click on the box). ``quiet``:
        none shown whatever the settings say (the tutorial's panel teaches instead)."""
        self.saves_dir = saves_dir
        self.open_help = open_help
        self.quiet = quiet
        self.queue: list[str] = []
        self.current: str | None = None
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.close_rect = pygame.Rect(0, 0, 0, 0)
        self.reload()

    def reload(self) -> None:
        """Read the settings again: hints turned off there close the one shown."""
        prefs = load_settings(self.saves_dir)
        self.enabled = prefs.hints and not self.quiet
        self.seen = set(prefs.hints_seen)
        if not self.enabled:
            self.queue.clear()
            self.current = None

    # -- what happened --------------------------------------------------------------------

    def notice(self, kind: str) -> None:
        """Something the hint ``kind`` is about happened in front of the player."""
        if not self.enabled or kind in self.seen or kind == self.current or kind in self.queue:
            return
        self.queue.append(kind)
        if self.current is None:
            self._next()

    def on_events(self, events: Iterable[Event], state: GameState, viewer: str | None, seats: Seats) -> None:
        """Hints for the events ``viewer`` saw: none when no person watches (``viewer`` None, or
        a side the computer plays)."""
        if viewer is None or not seats.is_human(viewer):
            return
        for ev in events:
            if isinstance(ev, Routed):
                self.notice("rout")
            elif isinstance(ev, SoulsReleased) and ev.count > 0:
                self.notice("souls")
            elif isinstance(ev, Moved) and ev.interrupted and self._side_of(state, ev.unit) == viewer:
                self.notice("interrupted")

    @staticmethod
    def _side_of(state: GameState, unit: str) -> str | None:
        f = state.formations.get(unit)
        return f.side if f is not None else None

    def _next(self) -> None:
        """Show the next hint waiting, and remember at once that it has been shown."""
        self.current = self.queue.pop(0) if self.queue else None
        if self.current is None:
            return
        self.seen.add(self.current)
        # Not remembered if the file cannot be written: it may show again next time, no harm.
        with contextlib.suppress(OSError, ValueError):
            update_settings(self.saves_dir, hints_seen=sorted(self.seen))

    def dismiss(self) -> None:
        self.current = None
        self._next()

    # -- input ----------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> bool:
        """True when the hint box took the event (nothing else should act on it)."""
        if self.current is None:
            return False
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.dismiss()
                return True
            if event.key == pygame.K_F1 and self.open_help is not None:
                self._open()
                return True
            return False
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and self.rect.collidepoint(event.pos):
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                if self.close_rect.collidepoint(event.pos) or self.open_help is None:
                    self.dismiss()
                else:
                    self._open()
            return True
        return False

    def _open(self) -> None:
        hint = HINTS[self.current] if self.current else None
        self.dismiss()
        if hint is not None and self.open_help is not None:
            self.open_help(hint.page)

    def covers(self, pos: tuple[int, int]) -> bool:
        return self.current is not None and self.rect.collidepoint(pos)

    # -- drawing --------------------------------------------------------------------------

    def lines(self, width: int) -> tuple[list[str], str]:
        """The shown hint's text wrapped to ``width``, and its pointer to the help."""
        assert self.current is not None
        hint = HINTS[self.current]
        pointer = _("F1: {page}").format(page=_(page(hint.page).title))
        # Room for a closing mark that hangs past the line rather than start the next.
        return wrap(_(hint.text), 15, width - 15), pointer

    def size(self, screen_w: int) -> tuple[int, int]:
        width = min(WIDTH, screen_w - 20)
        body, _pointer = self.lines(width - 2 * PADDING)
        height = (
            PADDING
            + font(16, True).get_linesize()
            + 4
            + len(body) * (font(15).get_linesize() + 1)
            + 6
            + font(14).get_linesize()
            + PADDING
        )
        return width, height

    def draw(self, surface: pygame.Surface, avoid: Sequence[pygame.Rect] = ()) -> None:
        if self.current is None:
            return
        hint = HINTS[self.current]
        self.rect = place(self.size(surface.get_width()), surface.get_size(), avoid)
        box = self.rect
        layer = pygame.Surface(box.size, pygame.SRCALPHA)
        layer.fill(BACKGROUND)
        surface.blit(layer, box.topleft)
        pygame.draw.rect(surface, GOLD, box, 1, border_radius=4)
        self.close_rect = pygame.Rect(box.right - CLOSE_SIZE - 6, box.top + 6, CLOSE_SIZE, CLOSE_SIZE)
        cross = font(18, True).render("×", True, MUTED)
        surface.blit(cross, cross.get_rect(center=self.close_rect.center))
        x, y = box.left + PADDING, box.top + PADDING
        title = font(16, True)
        surface.blit(title.render(_(hint.title), True, GOLD), (x, y))
        y += title.get_linesize() + 4
        body, pointer = self.lines(box.width - 2 * PADDING)
        text = font(15)
        for line in body:
            surface.blit(text.render(line, True, TEXT), (x, y))
            y += text.get_linesize() + 1
        y += 6
        surface.blit(font(14, True).render(pointer, True, GOLD), (x, y))
        close = font(14).render(_("Esc: close"), True, MUTED)
        surface.blit(close, close.get_rect(topright=(box.right - PADDING, y)))


def place(size: tuple[int, int], screen: tuple[int, int], avoid: Sequence[pygame.Rect] = ()) -> pygame.Rect:
    """Where the box goes: at the top of the map, as near its middle as it can be without
    covering any of ``avoid``; else the same low on the screen above the orders bar; else at the
    top middle whatever it covers."""
    sw, sh = screen
    w, h = size
    blockers = [r for r in avoid if r.width > 0 and r.height > 0]
    for top in (px(TOP_BAR_H) + 10, sh - BOTTOM_BAR - 10 - h):
        xs = [(sw - w) // 2]
        for r in blockers:
            xs += [r.right + 10, r.left - 10 - w]
        xs = sorted({x for x in xs if 10 <= x <= sw - w - 10}, key=lambda x: abs(x + w / 2 - sw / 2))
        for x in xs:
            rect = pygame.Rect(x, top, w, h)
            if top >= px(TOP_BAR_H) and not any(rect.colliderect(r) for r in blockers):
                return rect
    return pygame.Rect((sw - w) // 2, px(TOP_BAR_H) + 10, w, h)
