"""Scenario prose on the battle screen: narration pop-ups and the objectives panel.

Both only read: the pop-up shows ``Narration`` events queued by the battle screen, the panel
shows the scenario's objectives with their status from the state.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import pygame
import pygame_gui
from pygame_gui.elements import UIButton

from .. import i18n
from ..core.events import (
    Attacked,
    Destroyed,
    Event,
    Fled,
    GameOver,
    Looted,
    Moved,
    Rallied,
    Rested,
    Revealed,
    Routed,
    SideJoined,
    SoulsCaptured,
    TurnEnded,
)
from ..core.rules import Ruleset
from ..core.scenario import ObjectiveSpec, Scenario
from ..core.state import GameState
from ..core.tallies import tally_men
from ..i18n import Men, _, format_men, ngettext
from ..view.side_texts import objective_status, objectives_for
from ..view.telling import ScreenTeller, action_log_line
from .fonts import font
from .hero_orders import hero_log_line
from .hud import BAD, GOLD, GOOD, MUTED, PANEL_BG, TEXT, TOP_BAR_H, for_screen
from .scale import px

# Characters from here up (CJK and its punctuation) may break a line on their own.
WIDE = 0x2E80
# Punctuation that must not begin a line.
_NO_LINE_START = set("，。、；：！？）」』》,.;:!?)")


def wrap(text: str, size: int, width: int, bold: bool = False) -> list[str]:
    """Lines of ``text`` no wider than ``width`` pixels in the UI font (a long word may overrun).
    Panels wrap the same text every frame: the lines are kept per text, width and font."""
    return list(_wrap(text, width, font(size, bold)))


@lru_cache(maxsize=2048)
def _wrap(text: str, width: int, f: pygame.font.Font) -> tuple[str, ...]:
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for token in _words(para):
            if line and token[0] not in _NO_LINE_START and f.size((line + token).rstrip())[0] > width:
                lines.append(line.rstrip())
                line = token.lstrip()
            else:
                line += token
        lines.append(line.rstrip())
    return tuple(lines)


def _words(para: str) -> list[str]:
    """Break points: a Latin word with its trailing spaces is one token, every wide (CJK)
    character is one on its own."""
    out: list[str] = []
    cur = ""
    for ch in para:
        if ch.isspace():
            cur += ch
            continue
        if cur and (ord(ch) >= WIDE or cur[-1].isspace() or ord(cur[-1]) >= WIDE):
            out.append(cur)
            cur = ""
        cur += ch
    if cur:
        out.append(cur)
    return out


def log_line(
    ev: Event, scenario: Scenario, side_name: Callable[[str], str], state: GameState, rules: Ruleset
) -> str | None:
    """The event-log line for what a scenario event did (each action kind words its own), or
    None if it makes none."""
    if isinstance(ev, SideJoined):  # a side drawn in by the fighting, not by the story
        return _("{side} takes up arms against {enemy}").format(side=side_name(ev.side), enemy=side_name(ev.against))
    return action_log_line(ev, ScreenTeller(scenario, state, rules, side_name))


# The speaker's banner beside a narration, at 100%.
PORTRAIT = 64


class NarrationPopup:
    """Queued narrations, shown one at a time until dismissed with a click or Enter."""

    WIDTH = 640

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.queue: list[tuple[str, str | None]] = []
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.shown = 0  # narrations dismissed since the queue was last empty, for "2 of 3"

    @property
    def active(self) -> bool:
        return bool(self.queue)

    def push(self, text: str, speaker: str | None) -> None:
        if not self.queue:
            self.shown = 0
        self.queue.append((text, speaker))

    def dismiss(self) -> None:
        if self.queue:
            self.queue.pop(0)
            self.shown += 1

    def speaker_name(self, speaker: str | None) -> str:
        if speaker is None or speaker not in self.rules.heroes:
            return ""
        return i18n.name(self.rules.heroes[speaker].name)

    def draw(self, surface: pygame.Surface) -> None:
        if not self.queue:
            return
        text, speaker = self.queue[0]
        w, h = surface.get_size()
        width = min(px(self.WIDTH), w - 80)
        portrait = px(PORTRAIT) if speaker in self.rules.heroes else 0
        text_x = 20 + (portrait + 16 if portrait else 0)
        lines = wrap(_(text), 18, width - text_x - 20)
        name = self.speaker_name(speaker)
        lh = font(18).get_linesize()
        height = 18 + (font(20).get_linesize() + 6 if name else 0) + lh * len(lines) + 14 + font(14).get_linesize() + 14
        height = max(height, portrait + 36)
        self.rect = pygame.Rect((w - width) // 2, int(h * 0.62) - height // 2, width, height)
        # Dim the board so the pop-up reads as a pause.
        veil = pygame.Surface((w, h), pygame.SRCALPHA)
        veil.fill((0, 0, 0, 90))
        surface.blit(veil, (0, 0))
        # Opaque: a pop-up over the objectives let their text show through its own.
        surface.fill(PANEL_BG[:3], self.rect)
        pygame.draw.rect(surface, GOLD, self.rect, 1, border_radius=3)
        x, y = self.rect.left, self.rect.top + 18
        if portrait and speaker is not None:
            self._portrait(surface, speaker, pygame.Rect(x + 20, y, portrait, portrait))
        if name:
            surface.blit(font(20, bold=True).render(name, True, GOLD), (x + text_x, y))
            y += font(20).get_linesize() + 6
        for line in lines:
            surface.blit(font(18).render(line, True, TEXT), (x + text_x, y))
            y += lh
        hint = _("Click or press Enter to continue")
        total = self.shown + len(self.queue)
        if total > 1:
            hint = f"{hint}  ({self.shown + 1}/{total})"
        surf = font(14).render(hint, True, MUTED)
        surface.blit(surf, surf.get_rect(bottomright=(self.rect.right - 16, self.rect.bottom - 12)))

    def _portrait(self, surface: pygame.Surface, hero_id: str, box: pygame.Rect) -> None:
        """The hero's banner: his surname in his faction's colours."""
        hero = self.rules.heroes[hero_id]
        faction = self.rules.factions.get(hero.faction)
        colour = faction.colour if faction else (90, 90, 90)
        trim = faction.trim if faction else TEXT
        pygame.draw.circle(surface, colour, box.center, box.w // 2)
        pygame.draw.circle(surface, trim, box.center, box.w // 2, 2)
        # At 100% size: ``font`` scales it with the UI, as the circle is scaled.
        glyph = font(PORTRAIT * 5 // 9, bold=True).render(i18n.name(hero.surname), True, trim)
        surface.blit(glyph, glyph.get_rect(center=box.center))


class ObjectivesPanel:
    """The objectives of the side on screen with open, done and failed marks; O toggles it."""

    WIDTH = 390

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.visible = bool(objectives_for(scenario, None))
        self.rect = pygame.Rect(10, px(TOP_BAR_H) + 10, px(self.WIDTH), 0)
        self.button: UIButton | None = None
        self._picture: tuple[tuple[object, ...], pygame.Surface] | None = None

    def build(self, manager: pygame_gui.UIManager, size: tuple[int, int]) -> None:
        """The toggle button at the right end of the top bar (again after every resize)."""
        w, _h = size
        self.button = UIButton(
            pygame.Rect(w - px(150), px(6), px(140), px(TOP_BAR_H) - px(12)), _("Objectives"), manager
        )
        if not objectives_for(self.scenario, None):
            self.button.hide()

    def toggle(self) -> None:
        if objectives_for(self.scenario, None):
            self.visible = not self.visible

    def objectives_for(self, viewer: str | None) -> list[ObjectiveSpec]:
        """The viewer's objectives (an objective without a side is the player side's); all of
        them when nobody human is watching."""
        return objectives_for(self.scenario, viewer)

    def covers(self, pos: tuple[int, int]) -> bool:
        return self.visible and self.rect.height > 0 and self.rect.collidepoint(pos)

    def draw(self, surface: pygame.Surface, state: GameState, viewer: str | None) -> None:
        objectives = self.objectives_for(viewer)
        if not self.visible or not objectives:
            self.rect.height = 0
            return
        statuses = tuple(objective_status(self.scenario, state, o.id) for o in objectives)
        tallies = tuple(tally_men(self.scenario, state, o) if o.tally else None for o in objectives)
        key = (i18n.language(), self.rect.width, px(16), tuple(o.id for o in objectives), statuses, tallies)
        if self._picture is None or self._picture[0] != key:
            self._picture = (key, self._paint(objectives, statuses, tallies))
        picture = self._picture[1]
        self.rect.height = picture.get_height()
        surface.blit(picture, self.rect.topleft)

    def _paint(
        self, objectives: list[ObjectiveSpec], statuses: tuple[str, ...], tallies: tuple[int | None, ...]
    ) -> pygame.Surface:
        """The panel as a picture, kept until an objective's status, a tally or the language
        changes."""
        text_w = px(self.WIDTH) - 60
        rows = [(o, wrap(_(o.text), 16, text_w)) for o in objectives]
        lh = font(16).get_linesize()
        title_h = font(19).get_linesize() + 8
        extra = sum(lh for t in tallies if t is not None)
        height = 14 + title_h + sum(lh * len(lines) + (lh if o.bonus else 0) + 8 for o, lines in rows) + extra + 6
        surface = pygame.Surface((self.rect.width, height), pygame.SRCALPHA)
        surface.fill(PANEL_BG)
        x, y = 14, 10
        right = self.rect.width
        surface.blit(font(19, bold=True).render(_("Objectives"), True, GOLD), (x, y))
        hint = font(13).render(_("O: hide"), True, MUTED)
        surface.blit(hint, hint.get_rect(topright=(right - 12, y + 4)))
        y += title_h
        for (o, lines), status, tally in zip(rows, statuses, tallies, strict=True):
            colour = {"done": GOOD, "failed": BAD}.get(status, TEXT)
            _mark(surface, pygame.Rect(x, y + 3, lh - 6, lh - 6), status)
            ty = y
            for line in lines:
                surface.blit(font(16).render(line, True, colour), (x + px(30), ty))
                ty += lh
            if tally is not None:
                surface.blit(font(15, bold=True).render(tally_line(tally, o.tally_of), True, GOLD), (x + px(30), ty))
                ty += lh
            if o.bonus:
                surface.blit(font(14).render(_("Bonus"), True, GOLD), (x + px(30), ty + 1))
                ty += lh
            y = ty + 8
        return for_screen(surface)


def tally_line(struck: int, of: int) -> str:
    """An objective's tally of souls struck down, as the panel shows it."""
    if of:
        return _("Souls struck down: {n} of {of}").format(n=format_men(struck), of=format_men(of))
    return _("Souls struck down: {n}").format(n=format_men(struck))


def _mark(surface: pygame.Surface, box: pygame.Rect, status: str) -> None:
    """A drawn box, tick or cross (shapes, so no font needs the glyphs)."""
    if status == "done":
        pygame.draw.rect(surface, GOOD, box, 2, border_radius=3)
        pts = [(box.left + 3, box.centery), (box.left + box.w // 2 - 1, box.bottom - 4), (box.right - 3, box.top + 3)]
        pygame.draw.lines(surface, GOOD, False, pts, 3)
    elif status == "failed":
        pygame.draw.rect(surface, BAD, box, 2, border_radius=3)
        inner = box.inflate(-8, -8)
        pygame.draw.line(surface, BAD, inner.topleft, inner.bottomright, 3)
        pygame.draw.line(surface, BAD, inner.bottomleft, inner.topright, 3)
    else:
        pygame.draw.rect(surface, MUTED, box, 2, border_radius=3)


def event_line(
    ev: Event,
    state: GameState,
    rules: Ruleset,
    scenario: Scenario,
    names: dict[str, str],
    side_name: Callable[[str], str],
) -> str | None:
    """The log line for ``ev`` (None for events the log does not tell): the battle screen, the
    hotseat report and the replay viewer all word events with it. ``names`` are the battle's
    formation names (``game.view.names.formation_names``). A formation's name may be singular
    or plural ("Soul levy", "Soul riders"), so what it did is told in the past tense, which
    reads right with either."""

    def name(unit: str) -> str:
        return names.get(unit, unit)

    if isinstance(ev, Moved):
        if ev.interrupted:
            return _("{u} halted: an enemy came into view").format(u=name(ev.unit))
        if ev.forced:
            return _("{u} force-marched").format(u=name(ev.unit))
        return _("{u} moved").format(u=name(ev.unit))
    if isinstance(ev, Attacked):
        return _attack_line(ev, name(ev.unit), name(ev.target))
    if isinstance(ev, Destroyed):
        return _("{u} perished").format(u=name(ev.unit))
    if isinstance(ev, TurnEnded):
        return _("Turn {n}: {side}").format(n=ev.turn, side=side_name(ev.next_side))
    if isinstance(ev, Routed):
        return _("{u} broke and fled!").format(u=name(ev.unit))
    if isinstance(ev, Fled):
        return None
    if isinstance(ev, Rallied):
        return _("{u} rallied").format(u=name(ev.unit))
    if isinstance(ev, SoulsCaptured):
        return ngettext(
            "{u} bagged {n:,} soul into the pouch", "{u} bagged {n:,} souls into the pouch", ev.count
        ).format(u=name(ev.unit), n=Men(ev.count))
    if isinstance(ev, Rested):
        return _("{u} rested").format(u=name(ev.unit))
    if isinstance(ev, Looted):
        return _("{u} stopped to loot the baggage").format(u=name(ev.unit))
    if isinstance(ev, Revealed):
        return _("{u} came out of hiding").format(u=name(ev.unit))
    if isinstance(ev, GameOver):
        return _("The battle is over")
    return hero_log_line(ev, state, rules, names) or log_line(ev, scenario, side_name, state, rules)


def _attack_line(ev: Attacked, attacker: str, defender: str) -> str:
    if ev.mode == "fire":
        text = _("{a} shot at {d}: the defenders lost {dl:,}")
    elif ev.mode == "blast":
        text = _("{a} struck {d} with palm thunder: the defenders lost {dl:,}")
    elif ev.surprise:
        text = _("{a} fell on {d} by surprise: the defenders lost {dl:,}, the attackers {al:,}")
    else:
        text = _("{a} attacked {d}: the defenders lost {dl:,}, the attackers {al:,}")
    return text.format(a=attacker, d=defender, dl=Men(ev.defender_losses), al=Men(ev.attacker_losses))
