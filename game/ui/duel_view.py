"""Duels on screen: the challenged commander's answer and the fight itself, round by round.

Both screens hide the board. The answer screen names the challenged side, so in a hot-seat game
it doubles as the hand-over to that player; afterwards the screen is handed back to the side to
move. The fight screen shows the two heroes' banners, the rounds one after another and the
outcome; any key or click returns to the battle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton

from .. import i18n
from ..core import duel, triggers
from ..core.actions import AnswerDuel
from ..core.events import DuelFought, Event
from ..core.rules import Ruleset
from ..core.scenario_events import Defeat, Victory
from ..i18n import _
from ..view.names import hero_name
from .fonts import font
from .hero_orders import duel_odds_line, duel_outcome
from .hud import BAD, GOLD, GOOD, MUTED, TEXT
from .narration import wrap
from .scale import px
from .scene import Scene

if TYPE_CHECKING:
    from .app import App
    from .battle import BattleScene

BACKGROUND = (18, 16, 20)
# Seconds between two rounds appearing, and before the outcome.
ROUND_DELAY = 0.6
BANNER = (120, 150)


def follow_up(battle: BattleScene, events: list[Event]) -> bool:
    """After an action: show a duel just fought, or ask a human for the answer to a challenge.
    True if the screen changed."""
    fought = next((e for e in events if isinstance(e, DuelFought)), None)
    app = battle.app
    if fought is not None:
        app.open("duel", battle=battle, fought=fought)
        return True
    if battle.state.pending_duel is not None and battle.session.human_to_decide():
        app.open("duel_prompt", battle=battle)
        return True
    return False


def back_to_battle(app: App, battle: BattleScene) -> None:
    """Return to the battle; in a hot-seat game, behind a hand-over to the side to move."""
    if app.scene is not battle:
        app.back()
    session = battle.session
    if session.is_hotseat() and session.curtains and session.human_to_move():
        app.open("handover", session=session, side_id=session.state.active_side.id)


def draw_banner(surface: pygame.Surface, rules: Ruleset, hero: str, centre: tuple[int, int]) -> pygame.Rect:
    """A hero's banner: his faction's colours and the character of his name."""
    h = rules.heroes[hero]
    faction = rules.factions[h.faction]
    rect = pygame.Rect(0, 0, px(BANNER[0]), px(BANNER[1]))
    rect.center = centre
    pygame.draw.rect(surface, (0, 0, 0), rect.move(px(4), px(5)), border_radius=px(8))
    pygame.draw.rect(surface, faction.colour, rect, border_radius=px(8))
    pygame.draw.rect(surface, faction.trim, rect, px(4), border_radius=px(8))
    notch = rect.height // 6
    pygame.draw.polygon(
        surface,
        BACKGROUND,
        [(rect.centerx - notch, rect.bottom), (rect.centerx, rect.bottom - notch), (rect.centerx + notch, rect.bottom)],
    )
    glyph = font(76, bold=True).render(i18n.name(h.surname), True, faction.trim)
    surface.blit(glyph, glyph.get_rect(center=(rect.centerx, rect.centery - px(6))))
    return rect


def _centred_height(surface: pygame.Surface, text: str, size: int) -> int:
    """The height ``_centred`` takes to draw ``text``."""
    return len(wrap(text, size, surface.get_width() - 120)) * font(size).get_linesize()


def _centred(
    surface: pygame.Surface, text: str, size: int, colour: tuple[int, int, int], y: int, bold: bool = False
) -> int:
    """Draw wrapped, centred text from ``y``; returns the y below it."""
    width = surface.get_width() - 120
    for line in wrap(text, size, width, bold):
        surf = font(size, bold=bold).render(line, True, colour)
        surface.blit(surf, surf.get_rect(midtop=(surface.get_width() // 2, y)))
        y += font(size).get_linesize()
    return y


class DuelPromptScene(Scene):
    """The challenged side's commander accepts or refuses."""

    def __init__(self, app: App, battle: BattleScene) -> None:
        self.battle = battle
        pending = battle.state.pending_duel
        assert pending is not None
        state = battle.state
        self.challenger = state.formations[pending.challenger]
        self.target = state.formations[pending.target]
        # Asked once: nothing changes while the prompt waits for its answer.
        self.warning = self.refusal_warning()
        super().__init__(app)

    def build(self) -> None:
        w, h = self.app.size
        self.accept = UIButton(
            pygame.Rect(w // 2 - 10 - px(240), h - px(84), px(240), px(52)),
            _("Accept the challenge"),
            self.manager,
            object_id="#big_button",
        )
        self.refuse = UIButton(
            pygame.Rect(w // 2 + 10, h - px(84), px(240), px(52)), _("Refuse"), self.manager, object_id="#big_button"
        )

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.accept:
                self.answer(True)
            elif event.ui_element is self.refuse:
                self.answer(False)
        elif event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_y):
                self.answer(True)
            elif event.key in (pygame.K_ESCAPE, pygame.K_n):
                self.answer(False)

    def answer(self, accept: bool) -> None:
        battle, app = self.battle, self.app
        app.back()
        battle.submit(AnswerDuel(accept=accept))
        if app.scene is battle and not accept:
            back_to_battle(app, battle)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(BACKGROUND)
        rules = self.battle.rules
        w, _h = surface.get_size()
        c_hero, t_hero = self.challenger.hero, self.target.hero
        assert c_hero is not None and t_hero is not None
        a, b = hero_name(rules, c_hero), hero_name(rules, t_hero)
        duel_rules = self.battle.match.engine.scenario.duel
        martial = _("Martial skill: {a} {x}, {b} {y}").format(
            a=a, x=rules.heroes[c_hero].martial, b=b, y=rules.heroes[t_hero].martial
        )
        rule = _(
            "The loser is carried from the field and his men lose heart; close fights wound both. "
            "Refusing costs morale."
        )
        # (text, size, colour, space above)
        lines = [
            (_("{a} challenges {b} to single combat").format(a=a, b=b), 24, TEXT, 0),
            (martial, 18, TEXT, 8),
            (duel_odds_line(rules, c_hero, t_hero, duel_rules=duel_rules), 18, GOLD, 4),
            (rule, 16, MUTED, 8),
        ]
        if self.warning:
            lines.append((self.warning, 18, BAD, 8))
        y = _centred(surface, self.battle.session.side_name(self.target.side), 40, GOLD, px(50), bold=True)
        # The banners where the window has room for them above the text and the buttons.
        text = sum(_centred_height(surface, t, size) + gap for t, size, _c, gap in lines)
        if y + px(200) + text <= self.accept.relative_rect.top - px(12):
            draw_banner(surface, rules, c_hero, (w // 2 - px(180), y + px(110)))
            draw_banner(surface, rules, t_hero, (w // 2 + px(180), y + px(110)))
            vs = font(40, bold=True).render(_("against"), True, MUTED)
            surface.blit(vs, vs.get_rect(center=(w // 2, y + px(110))))
            y += px(200)
        else:
            y += px(16)
        for t, size, colour, gap in lines:
            y = _centred(surface, t, size, colour, y + gap)

    def refusal_warning(self) -> str:
        """What refusing would set off, where it ends the battle (B3: Wuzhu's host breaks)."""
        c_hero, t_hero = self.challenger.hero, self.target.hero
        assert t_hero is not None
        for spec in triggers.refusal_events(self.battle.match.engine, t_hero, c_hero):
            if any(isinstance(a, (Victory, Defeat)) for a in spec.actions):
                if spec.reason:
                    return _("Refusing now ends the battle: {reason}.").format(reason=_(spec.reason))
                return _("Refusing now ends the battle.")
        return ""


class DuelScene(Scene):
    """The fight: both banners, the rounds appearing one by one, then the outcome; in a duel that
    goes on, the chances from here as the field stands."""

    def __init__(self, app: App, battle: BattleScene, fought: DuelFought) -> None:
        self.battle = battle
        self.fought = fought
        self.elapsed = 0.0
        super().__init__(app)

    @property
    def rounds_shown(self) -> int:
        return min(len(self.fought.rounds), int(self.elapsed / ROUND_DELAY) + 1)

    @property
    def finished(self) -> bool:
        return self.elapsed >= ROUND_DELAY * (len(self.fought.rounds) + 1)

    def animating(self) -> bool:
        return not self.finished

    def _odds_from_here(self) -> str:
        engine = self.battle.match.engine
        ev = self.fought
        f, opp = engine.state.formations.get(ev.challenger), engine.state.formations.get(ev.target)
        if f is None or opp is None or f.hero is None or opp.hero is None:
            return ""
        win, both, lose = duel.current_odds(engine, f, opp)
        rules = self.battle.rules
        return _("From here, as the field stands: {a} wins {win}%, both wounded {both}%, {b} wins {lose}%").format(
            a=hero_name(rules, f.hero),
            b=hero_name(rules, opp.hero),
            win=round(100 * win),
            both=round(100 * both),
            lose=round(100 * lose),
        )

    def update(self, dt: float) -> None:
        self.elapsed += dt

    def handle(self, event: pygame.event.Event) -> None:
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            back_to_battle(self.app, self.battle)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(BACKGROUND)
        rules = self.battle.rules
        ev = self.fought
        w, h = surface.get_size()
        _centred(surface, _("Single combat"), 40, GOLD, px(30), bold=True)
        left, right = w // 2 - px(220), w // 2 + px(220)
        for hero, x in ((ev.challenger_hero, left), (ev.target_hero, right)):
            rect = draw_banner(surface, rules, hero, (x, px(200)))
            name = font(24, bold=True).render(hero_name(rules, hero), True, TEXT)
            surface.blit(name, name.get_rect(midtop=(x, rect.bottom + px(12))))
            martial = font(16).render(_("Martial {n}").format(n=rules.heroes[hero].martial), True, MUTED)
            surface.blit(martial, martial.get_rect(midtop=(x, rect.bottom + px(44))))
        y = px(400)
        for i, r in enumerate(ev.rounds[: self.rounds_shown]):
            # A duel over several turns shows one exchange at a time.
            text = _("This exchange") if ev.goes_on or ev.tally != (0, 0) else _("Round {n}").format(n=i + 1)
            label = font(18).render(text, True, MUTED)
            surface.blit(label, label.get_rect(center=(w // 2, y)))
            for score, other, x in (
                (r.challenger_score, r.target_score, left),
                (r.target_score, r.challenger_score, right),
            ):
                colour = GOOD if score > other else BAD if score < other else TEXT
                surf = font(22, bold=score > other).render(str(score), True, colour)
                surface.blit(surf, surf.get_rect(center=(x, y)))
            y += px(34)
        if self.finished:
            y = _centred(surface, duel_outcome(rules, ev), 26, GOLD, y + 16, bold=True)
            if ev.goes_on:
                _centred(surface, self._odds_from_here(), 18, TEXT, y + 12)
        hint = font(15).render(_("Press any key to return to the battle"), True, MUTED)
        surface.blit(hint, hint.get_rect(midbottom=(w // 2, h - px(16))))
