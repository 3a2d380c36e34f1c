"""The marks on an army banner, in one place: the map draws them, the legend and the formation
card explain them with the same glyphs and colours and say in words what each means."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from ..i18n import N_, language
from .fonts import font


@dataclass(frozen=True)
class Badge:
    id: str
    fg: tuple[int, int, int]
    bg: tuple[int, int, int]
    label: str  # msgid: what it is called, a word or two
    tip: str  # msgid: what it means, a sentence

    def text(self, n: int | None = None) -> str:
        """The glyph as the banner shows it, with its count for missiles and thunder."""
        glyph = GLYPHS[self.id]
        if self.id == "routed" and language() == "zh_TW":
            glyph = "潰"
        return glyph if n is None else f"{glyph}{n}"


# The banner's own glyphs (the game's Chinese names, shown in every language like the banners).
GLYPHS = {"routed": "溃", "ammo": "矢", "thunder": "雷", "hidden": "伏", "tired": "疲"}

ROUTED = Badge(
    "routed",
    (255, 255, 255),
    (200, 40, 30),
    N_("Routed"),
    N_("Broken: it flees from the enemy, cannot attack and holds no zone of control until it rallies."),
)
AMMO = Badge(
    "ammo",
    (255, 240, 200),
    (0, 0, 0),
    N_("Missiles left"),
    N_("Volleys of arrows and bolts the formation has left; with none it can no longer shoot."),
)
THUNDER = Badge(
    "thunder",
    (255, 240, 200),
    (0, 0, 0),
    N_("Palm thunder"),
    N_("Charges of palm thunder left: each strikes a hex and every hex around it."),
)
HIDDEN = Badge(
    "hidden",
    (200, 255, 200),
    (20, 60, 30),
    N_("Hidden in ambush"),
    N_("Lying in ambush: the enemy sees it only from next door, and a blow from hiding takes it by surprise."),
)
TIRED = Badge(
    "tired",
    (255, 225, 170),
    (110, 70, 20),
    N_("Tired"),
    N_("Fatigue is high: it fights at three quarters of its power or less. Resting restores it."),
)
BADGES: dict[str, Badge] = {b.id: b for b in (ROUTED, AMMO, THUNDER, HIDDEN, TIRED)}


def render_badge(
    text: str, size: int, fg: tuple[int, int, int], bg: tuple[int, int, int], pad: int = 4
) -> pygame.Surface:
    """The badge as one surface: the text on a rounded plate."""
    glyph = font(size, bold=True).render(text, True, fg)
    plate = pygame.Surface((glyph.get_width() + pad, glyph.get_height()), pygame.SRCALPHA)
    pygame.draw.rect(plate, bg, plate.get_rect(), border_radius=3)
    plate.blit(glyph, glyph.get_rect(center=plate.get_rect().center))
    return plate
