"""The names the battle log, the hotseat report, the replay viewer and the HUD give formations
and sides: one naming for every screen, stable for the whole battle.

A formation led by a hero is named by him and its troop type ("Xiang Yu · Hegemon's warriors");
any other by its troop type, numbered among its side's formations of that type when there are
several ("Soul levy 3"). Numbers follow the order of battle: the scenario's formations in file
order, then those raised at the camp (the campaign roster's order), then reinforcements in the
order of the scenario's events. That order is fixed before the first action, so every screen,
every process and every load of a save gives a formation the same number, destroyed or not.

Pure: no pygame. Names are worded in the current language when computed.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from .. import i18n
from ..core.roster import Roster
from ..core.rules import Ruleset
from ..core.scenario import Scenario
from ..core.scenario_events import Reinforce
from ..i18n import _
from ..record.names import MAX_NAME_CHARS


@dataclass(frozen=True)
class Enlisted:
    """A formation that may take the field in a battle: what its name is made of."""

    id: str
    side: str
    type: str
    hero: str | None


def order_of_battle(scenario: Scenario, roster: Roster | None = None) -> list[Enlisted]:
    """Every formation the battle can field, in the fixed order names are numbered in."""
    out = [Enlisted(s.id, s.side, s.type, s.hero) for s in scenario.formations]
    if roster is not None:
        out += [Enlisted(c.key, roster.side, c.type, None) for c in roster.formations if c.raised and c.men > 0]
    for spec in scenario.events:
        for action in spec.actions:
            if isinstance(action, Reinforce):
                out += [Enlisted(r.id, action.side, r.type, r.hero) for r in action.formations]
    seen: set[str] = set()
    unique = []
    for e in out:
        if e.id not in seen:  # an id enlisted twice keeps its first place
            seen.add(e.id)
            unique.append(e)
    return unique


def formation_names(rules: Ruleset, scenario: Scenario, roster: Roster | None = None) -> dict[str, str]:
    """Formation id -> its name, for every formation the battle can field (``roster``: the
    campaign side's carried formations, whose raised ones enter at the muster)."""
    enlisted = order_of_battle(scenario, roster)
    # A troop type fielded by more than one side is numbered across them, so that two sides'
    # formations of one type never share a name.
    sides_of: dict[str, set[str]] = defaultdict(set)
    for e in enlisted:
        if e.hero is None:
            sides_of[e.type].add(e.side)
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for e in enlisted:
        if e.hero is None:
            groups[(e.type, e.side if len(sides_of[e.type]) == 1 else "")].append(e.id)
    number = {fid: (k + 1, len(ids)) for ids in groups.values() for k, fid in enumerate(ids)}
    names: dict[str, str] = {}
    for e in enlisted:
        type_name = _(rules.units[e.type].name) if e.type in rules.units else e.type
        if e.hero is not None:
            hero = rules.heroes.get(e.hero)
            names[e.id] = f"{i18n.name(hero.name) if hero else e.hero} · {type_name}"
            continue
        n, of = number[e.id]
        # TRANSLATORS: a formation without a hero: its troop type and its number among its side's
        # formations of that type, e.g. "Soul levy 3".
        names[e.id] = _("{unit} {n}").format(unit=type_name, n=n) if of > 1 else type_name
    return names


def side_name(scenario: Scenario, side_id: str | None) -> str:
    """A side's name as every screen shows it (its id if the scenario has no such side)."""
    for s in scenario.sides:
        if s.id == side_id:
            return i18n.name(s.name)
    return side_id or ""


def hero_name(rules: Ruleset, hero: str | None) -> str:
    """A hero's name in the reader's script ("" for none, his id if the rules lack him)."""
    if hero is None:
        return ""
    return i18n.name(rules.heroes[hero].name) if hero in rules.heroes else hero


def save_name(own_name: str | None, scenario: Scenario, turn: int) -> str:
    """The name a game is saved under unless the player types one: the name it was last saved
    or loaded under, else its scenario and turn."""
    if own_name is not None:
        return own_name
    return _("{scenario}, turn {turn}").format(scenario=_(scenario.title), turn=turn)[:MAX_NAME_CHARS]
