"""The hero's orders in the unit panel: one button per skill of the selected formation (greyed
with its cooldown when not ready, the description in the tooltip) and Challenge when a duel is
possible. Skills aimed at a target, and challenges, are given by clicking the target next.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame
import pygame_gui
from pygame_gui.elements import UIButton

from ..core import duel, officers, skill_marks, skills
from ..core.engine import Engine
from ..core.events import (
    BaggageDropped,
    DuelBegun,
    DuelBroken,
    DuelChallenged,
    DuelFought,
    DuelRefused,
    Event,
    HeroWounded,
    OfficerSlain,
    SkillUsed,
)
from ..core.rules import Ruleset, Skill
from ..core.scenario import DuelRules
from ..core.skill_marks import EFFECT_NAMES
from ..core.state import Formation, GameState
from ..i18n import _, format_men, ngettext
from ..session.aim import CHALLENGE
from ..view.names import formation_names, hero_name
from .scale import px

BUTTON_H = 32
GAP = 4
DEFAULT_WIDTH = 276


def effects_line(f: Formation) -> str:
    """The temporary effects on a formation, by name, for the unit panel ("" if none)."""
    names = [_(EFFECT_NAMES[e]) for e in sorted(f.effects) if e in EFFECT_NAMES]
    return ", ".join(names)


def duel_odds_line(
    rules: Ruleset,
    challenger: str | None,
    target: str | None,
    odds: tuple[float, float, float] | None = None,
    duel_rules: DuelRules = duel.GAME_RULES,
) -> str:
    """The chances of a duel between two heroes, in words, from the challenger's side: ``odds``
    as things stand on the field (``duel.current_odds``), else from martial skill alone and the
    battle's ``duel_rules``."""
    if challenger is None or target is None:
        return ""
    if odds is None:
        martial = rules.heroes[challenger].martial, rules.heroes[target].martial
        odds = duel.duel_odds(*martial, duel_rules=duel_rules)
    win, both, lose = odds
    return _("Against {b}: {a} wins {win}%, both wounded {both}%, {b} wins {lose}%").format(
        a=hero_name(rules, challenger),
        b=hero_name(rules, target),
        win=round(100 * win),
        both=round(100 * both),
        lose=round(100 * lose),
    )


class SkillButtons:
    """The buttons of the selected formation's hero, laid out inside the unit panel."""

    def __init__(self, manager: pygame_gui.UIManager, rules: Ruleset, engine: Callable[[], Engine]) -> None:
        self.manager = manager
        self.rules = rules
        self._engine = engine
        self.buttons: list[tuple[UIButton, str]] = []
        self._key: tuple[str, int, bool, str | None] | None = None
        # Buttons are made as wide as they were last placed, so they rarely need resizing.
        self._width = DEFAULT_WIDTH

    # -- contents -----------------------------------------------------------------------------

    def refresh(self, f: Formation | None, active: bool, armed: str | None = None) -> None:
        """Rebuild the buttons for ``f`` (None: none shown); ``active`` is whether its side's
        human commander may give orders now; ``armed``: the skill to be used with its move, lit."""
        engine = self._engine()
        key = None if f is None else (f.model_dump_json(), engine.state.action_index, active, armed)
        if key == self._key and (f is None) == (not self.buttons):
            return
        self._key = key
        for button, _order in self.buttons:
            button.kill()
        self.buttons = []
        if f is None:
            return
        for skill in skill_marks.formation_skills(self.rules, f):
            self._add(
                self._skill_label(f, skill), self._skill_tip(f, skill), skill.id, active and _ready(engine, f, skill)
            )
            if skill.id == armed:
                self.buttons[-1][0].select()
        challenges = duel.legal_challenges(engine, f.id) if active else []
        if challenges:
            fighting = duel.in_duel(f)
            if fighting:
                tip = _(
                    "Click the enemy hero: your hero fights the next exchange of the duel. "
                    "The first to land {wins} blows wounds the other; a close fight wounds both."
                ).format(wins=duel.WINS_NEEDED)
            else:
                tip = _(
                    "Click an adjacent enemy hero: your hero challenges him to single combat. "
                    "The loser is carried from the field; refusing costs morale."
                )
            for c in challenges:
                target = engine.state.formations[c.target]
                odds = duel.current_odds(engine, f, target)
                tip += "\n" + duel_odds_line(self.rules, f.hero, target.hero, odds)
            label = _("Fight the next exchange") if fighting else _("Challenge to a duel")
            self._add(label, tip, CHALLENGE, True)

    def _add(self, label: str, tip: str, order: str, enabled: bool) -> None:
        button = UIButton(pygame.Rect(0, 0, self._width, px(BUTTON_H)), label, self.manager, tool_tip_text=tip)
        if not enabled:
            button.disable()
        self.buttons.append((button, order))

    def _skill_label(self, f: Formation, skill: Skill) -> str:
        name = _(skill.name)
        if skill.passive:
            return _("{name} (passive)").format(name=name)
        left = f.cooldowns.get(skill.id, 0)
        if left:
            return ngettext("{name} ({n} turn)", "{name} ({n} turns)", left).format(name=name, n=left)
        return name

    def _skill_tip(self, f: Formation, skill: Skill) -> str:
        tip = _(skill.description)
        if skill.effect == "lane":
            tip += "".join("\n" + line for line in lane_preview(self._engine(), f, skill.id))
        left = f.cooldowns.get(skill.id, 0)
        if skill.before_move and not skill.acts and skill.target == "self":
            tip += "\n" + _("Click it, then give the move or blow: it is used only then.")
        if left:
            tip += "\n" + ngettext("Ready again in {n} turn.", "Ready again in {n} turns.", left).format(n=left)
        elif skill.cooldown:
            rest = skill.cooldown
            tip += "\n" + ngettext("Then rests for {n} turn.", "Then rests for {n} turns.", rest).format(n=rest)
        return tip

    # -- layout and input --------------------------------------------------------------------------

    def height(self) -> int:
        return len(self.buttons) * (px(BUTTON_H) + GAP) + (GAP if self.buttons else 0)

    def place(self, left: int, top: int, width: int) -> None:
        y = top
        self._width = width
        for button, _order in self.buttons:
            if button.rect.size != (width, px(BUTTON_H)):
                button.set_dimensions((width, px(BUTTON_H)))
                if not button.is_enabled:  # a disabled button keeps its old image unless rebuilt
                    button.rebuild()
            if button.rect.topleft != (left, y):
                button.set_relative_position((left, y))
            y += px(BUTTON_H) + GAP

    def order_of(self, element: object) -> str | None:
        for button, order in self.buttons:
            if button is element:
                return order
        return None

    def button_for(self, order: str) -> UIButton | None:
        return next((b for b, o in self.buttons if o == order), None)


def lane_preview(engine: Engine, f: Formation, skill_id: str) -> list[str]:
    """One line per enemy the lane could be opened toward: who steps aside and the odds of the
    charge, from the same code the order fights with."""
    state = engine.state
    names = formation_names(engine.rules, engine.scenario, engine.settings.roster)
    out = []
    for use in skills.targets(engine, f, skill_id):
        target = state.formations.get(use.target or "")
        forecast = skills.lane_forecast(engine, f, use)
        plan = skills.lane_plan(engine, f, engine.rules.skills[skill_id], target) if target else None
        if target is None or forecast is None or plan is None or isinstance(plan, str):
            continue
        aside = len(plan.steps_aside)
        out.append(
            ngettext(
                "Toward {target}: {n} formation steps aside; the charge strikes down about {kill} and "
                "loses about {loss}; chance it breaks: {rout}%",
                "Toward {target}: {n} formations step aside; the charge strikes down about {kill} and "
                "loses about {loss}; chance it breaks: {rout}%",
                aside,
            ).format(
                target=names.get(target.id, target.id),
                n=aside,
                kill=format_men(forecast.defender_losses[1]),
                loss=format_men(forecast.attacker_losses[1]),
                rout=forecast.rout_chance,
            )
        )
    return out


def _ready(engine: Engine, f: Formation, skill: Skill) -> bool:
    return not skill.passive and skills.ready(engine, f, skill.id)


# -- the event log ---------------------------------------------------------------------------------


def hero_log_line(ev: Event, state: GameState, rules: Ruleset, names: dict[str, str]) -> str | None:
    """The event-log line for a skill or duel event, or None for other events."""

    def name(unit: str) -> str:
        return names.get(unit) or unit

    def hero_of(unit: str) -> str:
        f = state.formations.get(unit)
        return hero_name(rules, f.hero) if f is not None and f.hero else name(unit)

    if isinstance(ev, SkillUsed):
        skill = rules.skills.get(ev.skill)
        label = _(skill.name) if skill is not None else ev.skill
        if ev.succeeded is True:
            return _("{u} raided {t}: its commander was struck down").format(u=name(ev.unit), t=name(ev.target or ""))
        if ev.succeeded is False:
            return _("{u} raided {t}: its commander escaped").format(u=name(ev.unit), t=name(ev.target or ""))
        return _("{u}: {skill}").format(u=name(ev.unit), skill=label)
    if isinstance(ev, HeroWounded):
        return _("{hero} is wounded and carried from the field").format(hero=hero_name(rules, ev.hero))
    if isinstance(ev, DuelChallenged):
        return _("{a} challenges {b} to single combat").format(a=hero_of(ev.challenger), b=hero_of(ev.target))
    if isinstance(ev, DuelRefused):
        return _("{b} refuses the challenge of {a}").format(a=hero_of(ev.challenger), b=hero_of(ev.target))
    if isinstance(ev, DuelBegun):
        return _("{a} and {b} meet in single combat; both armies hold back to watch").format(
            a=hero_of(ev.challenger), b=hero_of(ev.target)
        )
    if isinstance(ev, DuelBroken):
        return _("The single combat of {a} is broken off").format(a=hero_of(ev.unit))
    if isinstance(ev, DuelFought):
        return duel_outcome(rules, ev)
    if isinstance(ev, OfficerSlain):
        rank = officers.RANKS.get(ev.rank, (ev.rank, 0))[0]
        return _("{hero} cuts down the {rank} {name} of {unit}").format(
            hero=hero_of(ev.by), rank=_(rank), name=_(ev.name), unit=name(ev.unit)
        )
    if isinstance(ev, BaggageDropped):
        return _("Abandoned baggage lies on the road")
    return None


def duel_outcome(rules: Ruleset, ev: DuelFought) -> str:
    a, b = hero_name(rules, ev.challenger_hero), hero_name(rules, ev.target_hero)
    if ev.goes_on:
        return _("{a} and {b} fight on: blows landed {x} to {y}").format(a=a, b=b, x=ev.tally[0], y=ev.tally[1])
    if len(ev.wounded) >= 2:
        return _("{a} and {b} wound each other; both are carried from the field").format(a=a, b=b)
    loser = ev.wounded[0] if ev.wounded else ""
    winner, beaten = (a, b) if loser == ev.target_hero else (b, a)
    return _("{winner} defeats {loser} in single combat").format(winner=winner, loser=beaten)
