"""A formation's card on screen: whose it is, its strength and bearing, how far it moves and
strikes, its hero and skills, and its marks, each badge with its meaning in words.

It draws a ``FormationCard`` (game.view.card), so it shows nothing the side looking may not
know; it makes no widgets and keeps no state but where it was last drawn. Wiring: call
``draw(surface, card, anchor)`` each frame a card is wanted, ``covers(pos)`` to keep clicks
on it off the map, ``hide()`` when none is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from .. import i18n
from ..core.rules import Ruleset
from ..core.skill_marks import EFFECT_NAMES
from ..i18n import N_, _, format_men
from ..view.card import FormationCard
from ..view.encyclopedia import entry_id
from .badges import BADGES, render_badge
from .banners import morale_colour, strength_colour
from .fonts import font
from .hud import BAD, GOLD, GOOD, MUTED, PANEL_BG, TEXT
from .narration import wrap
from .scale import px

WIDTH = 300
PAD = 12
TEXT_SIZE = 15
BAR_H = 6
BANNER_W, BANNER_H = 34, 38

RELATIONS: dict[str, tuple[str, tuple[int, int, int]]] = {
    "own": (N_("Ours"), GOOD),
    "ally": (N_("Allied"), GOOD),
    "enemy": (N_("Enemy"), BAD),
    "neutral": (N_("Neutral"), MUTED),
}
# Marks without a badge on the banner, in words only. Those with one are in badges.BADGES.
STATUS_WORDS: dict[str, str] = {
    "held": N_("Holding still until ordered"),
    "ready": N_("Ready: has neither moved nor acted"),
    "moved": N_("Has moved"),
    "forced": N_("Force-marched"),
    "acted": N_("Has acted this turn"),
}


@dataclass
class _Row:
    """One line of the card: text, or a bar under the text before it."""

    text: str = ""
    colour: tuple[int, int, int] = TEXT
    size: int = TEXT_SIZE
    bold: bool = False
    # A bar: (fraction filled, colour, a tick at this fraction or None).
    bar: tuple[float, tuple[int, int, int], float | None] | None = None
    # A badge drawn before the text: (glyph, fg, bg).
    badge: tuple[str, tuple[int, int, int], tuple[int, int, int]] | None = None
    gap: int = 2


def card_lines(card: FormationCard, side_name: Callable[[str], str] = lambda s: s) -> list[str]:
    """The card's words, line by line before wrapping: what the panel writes (for tests and
    for anything that wants the card as text)."""
    return [r.text for r in _rows(card, side_name) if r.text]


def _title(card: FormationCard) -> str:
    if card.hero is not None:
        return f"{i18n.name(card.hero.name)} · {_(card.type_name)}"
    return _(card.type_name)


def _rows(card: FormationCard, side_name: Callable[[str], str]) -> list[_Row]:
    rows: list[_Row] = []
    if card.relation is not None:
        label, colour = RELATIONS[card.relation]
        rows.append(_Row(f"{_(label)} · {side_name(card.side)}", colour, 14))
    rows.append(_Row(_("{men} of {full} men").format(men=format_men(card.men), full=format_men(card.max_men))))
    rows.append(_Row(bar=(card.men / card.max_men, strength_colour(card.men / card.max_men), None), gap=6))
    morale_text = _("Morale {m} (breaks below {t})").format(m=card.morale, t=card.rout_threshold)
    shaky = card.routed or card.morale < card.rout_threshold + 15
    rows.append(_Row(morale_text, BAD if shaky else TEXT))
    morale_bar = (card.morale / 100, morale_colour(card.morale, card.rout_threshold), card.rout_threshold / 100)
    rows.append(_Row(bar=morale_bar, gap=6))
    rows.append(
        _Row(
            _("Fatigue {f}   Experience {e} of {most}").format(
                f=card.fatigue, e=card.experience, most=card.max_experience
            ),
            BAD if "tired" in card.statuses else TEXT,
        )
    )
    if card.forced_movement is None:
        moves = _("Moves {n} points (too tired for a forced march)").format(n=card.movement)
    else:
        moves = _("Moves {n} points, {f} by forced march").format(n=card.movement, f=card.forced_movement)
    rows.append(_Row(moves))
    if card.melee:
        strikes = _("Strikes the hex next to it") if not card.siege else _("Strikes next to it, fortresses too")
    else:
        strikes = _("Cannot attack formed troops")
    rows.append(_Row(strikes))
    if card.missile_range:
        shots = _("unlimited") if card.ammo is None else str(card.ammo)
        rows.append(_Row(_("Missiles: range {r}, shots {a}").format(r=card.missile_range, a=shots)))
    if card.charges is not None:
        rows.append(
            _Row(
                _("Palm thunder: {n} left, up to {r} hexes away").format(n=card.charges, r=card.thunder_range),
                MUTED if card.charges == 0 else TEXT,
            )
        )
    if card.hero is not None:
        rows.append(
            _Row(
                _("{hero}: leadership {l}, martial {m}").format(
                    hero=i18n.name(card.hero.name), l=card.hero.leadership, m=card.hero.martial
                ),
                GOLD,
            )
        )
    for skill in card.skills:
        if skill.passive:
            text = _("{name} (passive)").format(name=_(skill.name))
        elif skill.cooldown is None:
            text = _(skill.name)
        elif skill.cooldown:
            text = _("{name} (ready in {n} turns)").format(name=_(skill.name), n=skill.cooldown)
        else:
            text = _("{name} (ready)").format(name=_(skill.name))
        rows.append(_Row("· " + text, MUTED))
    if card.effects:
        names = ", ".join(_(EFFECT_NAMES[e]) for e in card.effects)
        rows.append(_Row(_("Effects: {names}").format(names=names), GOOD))
    for status in card.statuses:
        badge = BADGES.get(status)
        if badge is not None:
            plate = (badge.text(), badge.fg, badge.bg)
            rows.append(_Row(_(badge.label), BAD if status == "routed" else TEXT, badge=plate))
        else:
            rows.append(_Row(_(STATUS_WORDS[status]), MUTED))
    return rows


class CardPanel:
    def __init__(self, rules: Ruleset, side_name: Callable[[str], str] = lambda s: s, width: int | None = None) -> None:
        self.rules = rules
        self.side_name = side_name
        self.width = width if width is not None else px(WIDTH)  # grows with the UI's scale
        self.rect = pygame.Rect(0, 0, 0, 0)  # where it was last drawn (empty: not shown)
        # A card that stays while the pointer goes to it (the formation clicked, not the one
        # under the pointer) says that a click on it opens its troops' encyclopedia entry.
        self.links = False
        self.type_id: str | None = None  # the troops of the card last drawn

    def hide(self) -> None:
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.type_id = None

    def entry_at(self, pos: tuple[int, int]) -> str | None:
        """The encyclopedia entry a click at ``pos`` opens: the troops of a linking card under it."""
        if self.links and self.type_id is not None and self.covers(pos):
            return entry_id("formations", self.type_id)
        return None

    def covers(self, pos: tuple[int, int]) -> bool:
        return self.rect.width > 0 and self.rect.collidepoint(pos)

    def size(self, surface: pygame.Surface, card: FormationCard) -> tuple[int, int]:
        """How big the card would be on ``surface`` (to choose where it goes)."""
        width, height, _title, _laid = self._layout(surface, card)
        return width, height

    def draw(
        self, surface: pygame.Surface, card: FormationCard, anchor: tuple[int, int], corner: str = "topright"
    ) -> pygame.Rect:
        """Draw ``card`` with its ``corner`` at ``anchor`` ("topright", "topleft", "bottomright",
        "bottomleft"), moved as needed to stay on ``surface``; returns where it went."""
        width, height, title, laid = self._layout(surface, card)
        rect = pygame.Rect(0, 0, width, height)
        setattr(rect, corner, anchor)
        rect.clamp_ip(surface.get_rect())
        self.rect = rect
        self.type_id = card.type_id
        self._paint(surface, card, rect, title, laid)
        return rect

    def draw_near(
        self,
        surface: pygame.Surface,
        card: FormationCard,
        target: tuple[float, float],
        taken: list[pygame.Rect],
        margins: tuple[int, int] = (54, 70),
    ) -> pygame.Rect:
        """Draw ``card`` where it hides least: clear of the panels already on screen (``taken``)
        and of ``target`` (the formation's place on screen), between the top and bottom
        ``margins`` (the top bar; the orders and End turn)."""
        width, height = self.size(surface, card)
        rect = place(surface.get_rect(), (width, height), target, taken, margins)
        return self.draw(surface, card, rect.topleft, "topleft")

    def _layout(
        self, surface: pygame.Surface, card: FormationCard
    ) -> tuple[int, int, list[str], list[tuple[_Row, list[str]]]]:
        """Width, height, the title's lines, and each row with its wrapped lines."""
        width = min(self.width, surface.get_width() - 8)
        inner = width - 2 * PAD
        title = wrap(_title(card), 18, inner - BANNER_W - 8, bold=True)
        laid: list[tuple[_Row, list[str]]] = []
        rows = _rows(card, self.side_name)
        if self.links:
            rows.append(_Row(_("Click the card: these troops in the encyclopedia"), MUTED, size=TEXT_SIZE - 2))
        for row in rows:
            text_w = inner - (self._badge(row).get_width() + 6 if row.badge else 0)
            laid.append((row, wrap(row.text, row.size, text_w) if row.text else []))
        height = PAD + max(BANNER_H, len(title) * font(18).get_linesize()) + 6
        for row, lines in laid:
            height += (BAR_H if row.bar else len(lines) * font(row.size).get_linesize()) + row.gap
        return width, height + PAD - 2, title, laid

    def _badge(self, row: _Row) -> pygame.Surface:
        assert row.badge is not None
        text, fg, bg = row.badge
        return render_badge(text, row.size, fg, bg)

    def _paint(
        self,
        surface: pygame.Surface,
        card: FormationCard,
        rect: pygame.Rect,
        title: list[str],
        laid: list[tuple[_Row, list[str]]],
    ) -> None:
        layer = pygame.Surface(rect.size, pygame.SRCALPHA)
        layer.fill(PANEL_BG)
        surface.blit(layer, rect.topleft)
        edge = RELATIONS[card.relation][1] if card.relation is not None else MUTED
        pygame.draw.rect(surface, edge, rect, 1, border_radius=3)
        x, y = rect.left + PAD, rect.top + PAD
        self._banner(surface, card, pygame.Rect(x, y, BANNER_W, BANNER_H))
        ty = y
        for line in title:
            surface.blit(font(18, bold=True).render(line, True, GOLD), (x + BANNER_W + 8, ty))
            ty += font(18).get_linesize()
        y += max(BANNER_H, ty - y) + 6
        inner = rect.width - 2 * PAD
        for row, lines in laid:
            if row.bar is not None:
                self._bar(surface, pygame.Rect(x, y, inner, BAR_H), *row.bar)
                y += BAR_H + row.gap
                continue
            tx = x
            if row.badge is not None:
                badge = self._badge(row)
                surface.blit(badge, (x, y + 1))
                tx += badge.get_width() + 6
            lh = font(row.size).get_linesize()
            for line in lines:
                surface.blit(font(row.size, bold=row.bold).render(line, True, row.colour), (tx, y))
                y += lh
            y += row.gap

    def _banner(self, surface: pygame.Surface, card: FormationCard, box: pygame.Rect) -> None:
        """The formation's banner as the map shows it: faction colours, the hero's or troop's character."""
        faction = self.rules.factions[card.faction]
        pygame.draw.rect(surface, faction.colour, box, border_radius=4)
        pygame.draw.rect(surface, faction.trim, box, 2, border_radius=4)
        mark = self.rules.heroes[card.hero.id].surname if card.hero is not None else self.rules.units[card.type_id].char
        char = i18n.name(mark)
        glyph = font(round(BANNER_H * 0.6), bold=True).render(char, True, faction.trim)
        surface.blit(glyph, glyph.get_rect(center=box.center))

    @staticmethod
    def _bar(
        surface: pygame.Surface, box: pygame.Rect, fraction: float, colour: tuple[int, int, int], tick: float | None
    ) -> None:
        pygame.draw.rect(surface, (20, 20, 20), box)
        fill = box.copy()
        fill.width = max(1, round(box.width * max(0.0, min(1.0, fraction))))
        pygame.draw.rect(surface, colour, fill)
        if tick is not None:
            tx = box.left + round(box.width * tick)
            pygame.draw.line(surface, (255, 255, 255), (tx, box.top - 2), (tx, box.bottom + 1), 2)


def place(
    screen: pygame.Rect,
    size: tuple[int, int],
    target: tuple[float, float],
    taken: list[pygame.Rect],
    margins: tuple[int, int] = (54, 70),
) -> pygame.Rect:
    """Where a panel of ``size`` hides least on ``screen``: the first of the corners, and the
    places under and beside each ``taken`` rectangle, that covers neither ``target`` nor a taken
    rectangle; failing that, the one that covers least."""
    top, bottom = screen.top + margins[0], screen.bottom - margins[1]
    w, h = size
    spots = [(screen.right - 10 - w, top), (screen.left + 10, top)]
    for r in taken:
        spots += [(r.right - w, r.bottom + 8), (r.left - 8 - w, r.top), (r.right + 8, r.top), (r.left, r.bottom + 8)]
    spots += [(screen.right - 10 - w, bottom - h), (screen.left + 10, bottom - h)]
    best: tuple[float, int, pygame.Rect] | None = None
    for i, (x, y) in enumerate(spots):
        rect = pygame.Rect(x, y, w, h)
        rect.clamp_ip(pygame.Rect(screen.left, top, screen.width, max(h, bottom - top)))
        cost = sum(_overlap(rect, r) for r in taken) + (w * h if rect.collidepoint(target) else 0)
        if best is None or (cost, i) < best[:2]:
            best = (cost, i, rect)
    assert best is not None
    return best[2]


def _overlap(a: pygame.Rect, b: pygame.Rect) -> int:
    clip = a.clip(b)
    return clip.width * clip.height
