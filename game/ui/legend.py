"""The legend of the army banners: every mark the map puts on a banner, drawn as the map draws
it, named, and explained in a sentence when the mouse rests on it. A button and the L key
show and hide it.

Wiring: ``build`` the button, pass events to ``handle`` (True when they were the legend's),
``draw(surface, anchor, mouse)`` every frame (it draws nothing while hidden) and ``covers(pos)``
to keep clicks on it off the map.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame
import pygame_gui
from pygame_gui.elements import UIButton

from ..i18n import N_, _
from .badges import AMMO, HIDDEN, ROUTED, THUNDER, TIRED, Badge, render_badge
from .banners import morale_colour, strength_colour
from .board_view import DUEL_COLOUR
from .fonts import font
from .hud import GOLD, MUTED, PANEL_BG, TEXT
from .narration import wrap
from .scale import px
from .soul_mark import SOUL_COLOUR, soul_mark
from .toggle import Switch

KEY = pygame.K_k
WIDTH = 300
PAD = 12
ICON_W = 48
ROW_H = 26
TIP_SIZE = 13
SAMPLE_COLOUR, SAMPLE_TRIM = (150, 40, 40), (240, 220, 170)


@dataclass(frozen=True)
class Entry:
    id: str
    label: str  # msgid
    tip: str  # msgid
    badge: Badge | None = None


ENTRIES: tuple[Entry, ...] = (
    Entry(
        "hero",
        N_("Led by a hero"),
        N_("A gold dot on the banner: a hero commands it, and his character is on the banner."),
    ),
    Entry(
        "morale",
        N_("Morale"),
        N_("The bar left of the banner: blue is steady, yellow shaken, red close to breaking."),
    ),
    Entry(
        "strength",
        N_("Strength"),
        N_("The bar under the banner, and the men left under it: green is near full strength, red is bled white."),
    ),
    Entry("routed", ROUTED.label, ROUTED.tip, ROUTED),
    Entry("ammo", AMMO.label, AMMO.tip, AMMO),
    Entry("thunder", THUNDER.label, THUNDER.tip, THUNDER),
    Entry("hidden", HIDDEN.label, HIDDEN.tip, HIDDEN),
    Entry("tired", TIRED.label, TIRED.tip, TIRED),
    Entry(
        "done",
        N_("Done for this turn"),
        N_("A dimmed banner of yours has moved and acted this turn."),
    ),
    Entry(
        "duel",
        N_("Single combat"),
        N_("Two hexes ringed in gold, blades crossed between them: two heroes are fighting it out."),
    ),
    Entry(
        "souls",
        N_("Wandering souls"),
        N_(
            "A pale wisp and a number: the dead of both armies on this hex; capture them into your pouch "
            "before they drift away. A banner marked 魂 is not souls but a soul levy, a formation."
        ),
    ),
)


# Where a click on a row reads more: (route, page or entry) — the help's page on the rule, or
# the encyclopedia's entry (a category id opens its first entry).
MORE: dict[str, tuple[str, str]] = {
    "hero": ("encyclopedia", "people"),
    "morale": ("help", "morale"),
    "strength": ("help", "morale"),
    "routed": ("help", "morale"),
    "ammo": ("help", "missiles"),
    "thunder": ("help", "missiles"),
    "hidden": ("help", "fog"),
    "tired": ("help", "fatigue"),
    "done": ("help", "keys"),
    "duel": ("help", "duels"),
    "souls": ("encyclopedia", "pouch"),
}


class Legend(Switch):
    def __init__(self) -> None:
        super().__init__(KEY)
        self.rect = pygame.Rect(0, 0, 0, 0)
        self._rows: list[tuple[Entry, pygame.Rect]] = []

    def build(self, manager: pygame_gui.UIManager, rect: pygame.Rect) -> UIButton:
        self.button = UIButton(rect, _("Legend"), manager, tool_tip_text=_("K: what the marks on a banner mean"))
        return self.button

    @property
    def visible(self) -> bool:
        return self.on

    @visible.setter
    def visible(self, shown: bool) -> None:
        self.on = shown

    def covers(self, pos: tuple[int, int]) -> bool:
        return self.visible and self.rect.collidepoint(pos)

    def entry_at(self, pos: tuple[int, int] | None) -> Entry | None:
        """The entry under the mouse (as last drawn)."""
        if pos is None or not self.visible:
            return None
        return next((e for e, r in self._rows if r.collidepoint(pos)), None)

    def more_at(self, pos: tuple[int, int]) -> tuple[str, str] | None:
        """Where a click at ``pos`` reads more of the mark under it: (route, page or entry)."""
        entry = self.entry_at(pos)
        return MORE.get(entry.id) if entry is not None else None

    def draw(
        self,
        surface: pygame.Surface,
        anchor: tuple[int, int],
        mouse: tuple[int, int] | None = None,
        corner: str = "topleft",
    ) -> pygame.Rect | None:
        """The legend with its ``corner`` at ``anchor`` (kept on screen); the entry under
        ``mouse`` is lit and explained at the foot."""
        if not self.visible:
            self.rect = pygame.Rect(0, 0, 0, 0)
            self._rows = []
            return None
        width = min(px(WIDTH), surface.get_width() - 8)
        title_h = font(17).get_linesize() + 6
        # Room at the foot for the longest explanation, so the panel keeps its size.
        tips = {e.id: wrap(_(e.tip), TIP_SIZE, width - 2 * PAD) for e in ENTRIES}
        tip_h = max(len(t) for t in tips.values()) * font(TIP_SIZE).get_linesize() + 8
        rect = pygame.Rect(0, 0, width, PAD + title_h + ROW_H * len(ENTRIES) + tip_h + PAD)
        setattr(rect, corner, anchor)
        rect.clamp_ip(surface.get_rect())
        self.rect = rect
        layer = pygame.Surface(rect.size, pygame.SRCALPHA)
        layer.fill(PANEL_BG)
        surface.blit(layer, rect.topleft)
        pygame.draw.rect(surface, MUTED, rect, 1, border_radius=3)
        x, y = rect.left + PAD, rect.top + PAD
        surface.blit(font(17, bold=True).render(_("Marks on the banners"), True, GOLD), (x, y))
        hint = font(13).render(_("K: hide"), True, MUTED)
        surface.blit(hint, hint.get_rect(topright=(rect.right - PAD, y + 3)))
        y += title_h
        self._rows = []
        for entry in ENTRIES:
            row = pygame.Rect(rect.left + 4, y, rect.width - 8, ROW_H)
            lit = mouse is not None and row.collidepoint(mouse)
            if lit:
                pygame.draw.rect(surface, (60, 60, 70), row, border_radius=3)
            self._icon(surface, entry, pygame.Rect(x, y + 2, ICON_W - 6, ROW_H - 4))
            label = wrap(_(entry.label), 15, width - 2 * PAD - ICON_W)[0]
            text = font(15).render(label, True, TEXT if not lit else (255, 255, 255))
            surface.blit(text, (x + ICON_W, y + (ROW_H - text.get_height()) // 2))
            self._rows.append((entry, row))
            y += ROW_H
        pygame.draw.line(surface, (70, 66, 56), (x, y + 3), (rect.right - PAD, y + 3))
        hovered = self.entry_at(mouse)
        if hovered is not None:
            tip = tips[hovered.id]
        else:
            tip = wrap(_("Point at a mark to read what it means; click it to read more."), TIP_SIZE, width - 2 * PAD)
        ty = y + 8
        for line in tip:
            surface.blit(font(TIP_SIZE).render(line, True, TEXT if hovered else MUTED), (x, ty))
            ty += font(TIP_SIZE).get_linesize()
        return rect

    @staticmethod
    def _icon(surface: pygame.Surface, entry: Entry, box: pygame.Rect) -> None:
        """The mark as the map draws it, on a small banner where it needs one."""
        if entry.badge is not None:
            n = {"ammo": 6, "thunder": 2}.get(entry.id)
            badge = entry.badge
            plate = render_badge(badge.text(n), 14, badge.fg, badge.bg)
            surface.blit(plate, plate.get_rect(midleft=(box.left, box.centery)))
            return
        if entry.id == "souls":
            mark = soul_mark(font(13, bold=True).render("1k", True, SOUL_COLOUR), 14)
            surface.blit(mark, mark.get_rect(midleft=(box.left, box.centery)))
            return
        if entry.id == "duel":
            mid = (box.left + 16, box.centery)
            for dx in (-7, 7):  # the crossed blades, in the gold of the rings
                pygame.draw.line(surface, DUEL_COLOUR, (mid[0] - dx, mid[1] - 7), (mid[0] + dx, mid[1] + 7), 3)
            return
        if entry.id == "morale":
            # Steady, shaken, near breaking: the pip's height is the morale, its colour the danger.
            for i, morale in enumerate((90, 55, 30)):
                pip = pygame.Rect(box.left + 2 + i * 9, box.top, 5, box.height)
                pygame.draw.rect(surface, (20, 20, 20), pip)
                fill = pip.copy()
                fill.height = round(pip.height * morale / 100)
                fill.bottom = pip.bottom
                pygame.draw.rect(surface, morale_colour(morale, 25), fill)
            return
        banner = pygame.Rect(box.left + 8, box.top, 20, box.height - 4)
        colour = SAMPLE_COLOUR if entry.id != "done" else tuple(int(c * 0.55 + 40) for c in SAMPLE_COLOUR)
        pygame.draw.rect(surface, colour, banner, border_radius=3)
        pygame.draw.rect(surface, SAMPLE_TRIM, banner, 1, border_radius=3)
        if entry.id == "hero":
            pygame.draw.circle(surface, (255, 210, 60), (banner.right - 4, banner.top + 4), 3)
        elif entry.id == "strength":
            bar = pygame.Rect(banner.left, banner.bottom + 1, banner.width, 4)
            pygame.draw.rect(surface, (20, 20, 20), bar)
            fill = bar.copy()
            fill.width = round(bar.width * 0.7)
            pygame.draw.rect(surface, strength_colour(0.7), fill)
