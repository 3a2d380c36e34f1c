"""Army banners on the map: a formation's token (faction colours, its commander's or troops'
character), its status marks (morale pip, routed stamp, missiles and charges, ambush, fatigue;
what they mean: badges.py, legend.py), its strength bar and men count."""

from __future__ import annotations

import pygame

from .. import i18n
from ..core.rules import Ruleset
from ..core.state import Formation
from ..i18n import format_men_short
from ..view.card import TIRED_FATIGUE
from .badges import AMMO, HIDDEN, ROUTED, THUNDER, TIRED
from .camera import Projection
from .fonts import map_font
from .geometry import MapGeometry

SELECT_COLOUR = (255, 240, 120)
# Fill of the morale pip by how far the formation is from breaking.
MORALE_SAFE = (120, 200, 255)
MORALE_WARN = (235, 200, 80)
MORALE_DANGER = (235, 90, 70)
# Rendered labels kept at most (a zoom level's worth; the cache is emptied past it).
MAX_GLYPHS = 2000


class Banners:
    """Draws banners for one map; keeps the rendered characters and labels it has drawn."""

    def __init__(self, geometry: MapGeometry, rules: Ruleset) -> None:
        self.geometry = geometry
        self.rules = rules
        self._glyphs: dict[tuple[str, int, tuple[int, int, int]], pygame.Surface] = {}

    def glyph(self, text: str, size: int, colour: tuple[int, int, int]) -> pygame.Surface:
        key = (text, size, colour)
        surf = self._glyphs.get(key)
        if surf is None:
            if len(self._glyphs) > MAX_GLYPHS:
                self._glyphs.clear()
            surf = map_font(size, bold=True).render(text, True, colour)
            self._glyphs[key] = surf
        return surf

    def footprint(self, f: Formation, zoom: float) -> tuple[int, int, int, int]:
        """(x, y, w, h) in zoomed map pixels that a formation's banner covers with its morale
        pip, marks, routed stamp, strength bar and men count: where a place name is unreadable."""
        w, h = _banner_size(self.geometry, zoom)
        cx, cy = self.geometry.centre(f.pos)
        left = cx * zoom - w / 2 - max(4, round(5 * zoom)) - 1
        top = cy * zoom - 2 * zoom - h / 2
        right = cx * zoom + w / 2
        marks = []
        if f.ammo is not None:
            marks.append(f"矢{f.ammo}")
        if self.rules.units[f.type].area_charges:
            marks.append(f"雷{f.charges}")
        size = max(11, round(12 * zoom))
        if marks and zoom >= 0.6:
            right += 4 + self.glyph(" ".join(marks), size, (255, 240, 200)).get_width()
        if f.hidden:
            right = max(right, cx * zoom + w / 2 + 4 + self.glyph("伏", size, (200, 255, 200)).get_width())
        if f.routed:
            stamp = max(12, round(h * 0.5))
            top -= stamp / 2
            right = max(right, cx * zoom + w / 2 + stamp / 2)
        bottom = cy * zoom - 2 * zoom + h / 2 + 2 + max(4, round(5 * zoom))
        if zoom >= 0.75:
            bottom += 1 + self.glyph(format_men_short(f.men), max(11, round(11 * zoom)), (255, 255, 255)).get_height()
        return (round(left), round(top), round(right - left), round(bottom - top))

    def char(self, f: Formation) -> str:
        if f.hero is not None:
            return i18n.name(self.rules.heroes[f.hero].surname)
        return i18n.name(self.rules.units[f.type].char)

    def _draw_status(self, target: pygame.Surface, rect: pygame.Rect, f: Formation, zoom: float) -> None:
        """Morale pip on the left edge, a 溃 stamp when routed, missiles and charges, the ambush
        mark, and 疲 when tired (the badges and what they mean: badges.py, legend.py)."""
        utype = self.rules.units[f.type]
        pip = pygame.Rect(rect.left - max(4, round(5 * zoom)) - 1, rect.top, max(4, round(5 * zoom)), rect.height)
        pygame.draw.rect(target, (20, 20, 20), pip)
        fill = pip.copy()
        fill.height = max(1, round(pip.height * f.morale / 100))
        fill.bottom = pip.bottom
        pygame.draw.rect(target, morale_colour(f.morale, utype.rout_threshold), fill)
        size = max(11, round(12 * zoom))
        if f.routed:
            stamp = self.glyph(ROUTED.text(), max(12, round(rect.height * 0.5)), ROUTED.fg)
            box = stamp.get_rect(center=(rect.right, rect.top))
            pygame.draw.rect(target, ROUTED.bg, box.inflate(4, 2), border_radius=3)
            target.blit(stamp, box)
        marks = []
        if f.ammo is not None:
            marks.append(AMMO.text(f.ammo))
        if utype.area_charges:
            marks.append(THUNDER.text(f.charges))
        if marks and zoom >= 0.6:
            label = self.glyph(" ".join(marks), size, AMMO.fg)
            box = label.get_rect(bottomleft=(rect.right + 2, rect.bottom))
            pygame.draw.rect(target, AMMO.bg, box.inflate(4, 0), border_radius=3)
            target.blit(label, box)
        if f.hidden:
            mark = self.glyph(HIDDEN.text(), size, HIDDEN.fg)
            box = mark.get_rect(topleft=(rect.right + 2, rect.top))
            pygame.draw.rect(target, HIDDEN.bg, box.inflate(4, 0), border_radius=3)
            target.blit(mark, box)
        if f.fatigue >= TIRED_FATIGUE and zoom >= 0.6:
            mark = self.glyph(TIRED.text(), size, TIRED.fg)
            box = mark.get_rect(topright=(pip.left - 3, rect.top))
            pygame.draw.rect(target, TIRED.bg, box.inflate(4, 0), border_radius=3)
            target.blit(mark, box)

    def draw(
        self,
        target: pygame.Surface,
        camera: Projection,
        f: Formation,
        selected: bool = False,
        done: bool = False,
        centre: tuple[float, float] | None = None,
    ) -> pygame.Rect:
        """An army banner: faction colour, trim, the commander's or troop's character, and a
        strength bar under it, whose rectangle it returns (the men count goes below it)."""
        utype = self.rules.units[f.type]
        faction = self.rules.factions[utype.faction]
        zoom = camera.zoom
        cx, cy = camera.to_screen(centre or self.geometry.centre(f.pos))
        w, h = _banner_size(self.geometry, zoom)
        rect = pygame.Rect(0, 0, w, h)
        rect.center = (round(cx), round(cy - 2 * zoom))
        colour = faction.colour if not done else tuple(int(c * 0.55 + 40) for c in faction.colour)
        trim = faction.trim
        shadow = rect.move(2, 3)
        pygame.draw.rect(target, (0, 0, 0), shadow, border_radius=4)
        pygame.draw.rect(target, colour, rect, border_radius=4)
        pygame.draw.rect(target, SELECT_COLOUR if selected else trim, rect, 3 if selected else 2, border_radius=4)
        # A swallow-tail notch at the bottom makes it read as a banner, not a counter.
        notch = max(4, h // 6)
        pygame.draw.polygon(
            target,
            (0, 0, 0) if not selected else SELECT_COLOUR,
            [
                (rect.centerx - notch, rect.bottom),
                (rect.centerx, rect.bottom - notch),
                (rect.centerx + notch, rect.bottom),
            ],
        )
        glyph = self.glyph(self.char(f), max(14, round(h * 0.62)), trim)
        target.blit(glyph, glyph.get_rect(center=(rect.centerx, rect.centery - h * 0.08)))
        if f.hero is not None:
            pygame.draw.circle(target, (255, 210, 60), (rect.right - 4, rect.top + 4), max(3, round(3 * zoom)))
        self._draw_status(target, rect, f, zoom)
        # Strength bar under the banner.
        ratio = max(0.0, min(1.0, f.men / f.max_men))
        bar = pygame.Rect(rect.left, rect.bottom + 2, rect.width, max(4, round(5 * zoom)))
        pygame.draw.rect(target, (20, 20, 20), bar)
        fill = bar.copy()
        fill.width = max(1, round(bar.width * ratio))
        pygame.draw.rect(target, strength_colour(ratio), fill)
        return bar

    def draw_strength(self, target: pygame.Surface, f: Formation, bar: pygame.Rect, zoom: float) -> None:
        """The men count under a banner's strength bar."""
        label = self.glyph(format_men_short(f.men), max(11, round(11 * zoom)), (255, 255, 255))
        box = label.get_rect(midtop=(bar.centerx, bar.bottom + 1))
        pygame.draw.rect(target, (0, 0, 0), box.inflate(4, 0), border_radius=3)
        target.blit(label, box)


def _banner_size(geometry: MapGeometry, zoom: float) -> tuple[int, int]:
    """A banner's width and height: never smaller than readable, never larger than the hex."""
    lay = geometry.layout
    return max(22, round(lay.tile_width * 0.62 * zoom)), max(24, round(lay.tile_height * 0.56 * zoom))


def morale_colour(morale: int, threshold: int) -> tuple[int, int, int]:
    """The morale pip's fill (on banners, cards, the unit list): by how far from breaking."""
    if morale < threshold + 15:
        return MORALE_DANGER
    if morale < threshold + 35:
        return MORALE_WARN
    return MORALE_SAFE


def strength_colour(ratio: float) -> tuple[int, int, int]:
    if ratio > 0.66:
        return (90, 200, 90)
    if ratio > 0.33:
        return (230, 190, 60)
    return (220, 70, 60)
