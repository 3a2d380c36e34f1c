"""Scenario events: triggers checked after every action, and what they do.

``after_action`` looks at the state and at the events the action produced. Events fire in file
order, each at most once (``state.fired_events``); what one event does (a narration, a formation
destroyed by nothing, an objective changed) can set off others in the same action, and because
none fires twice the cascade always ends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from . import morale, officers, vision
from .campaign import carry_in, carry_key
from .events import (
    Attacked,
    Destroyed,
    DuelBegun,
    Event,
    GatesOpened,
    GroupReleased,
    HeroWounded,
    Narration,
    ObjectiveChanged,
    Reinforced,
    Routed,
    SidesAllied,
    SkillUsed,
    SoulsCaptured,
    TurnEnded,
)
from .hexgrid import Hex, distance
from .placement import nearest_free, placement_area
from .scenario import FormationSpec, Scenario
from .scenario_events import (
    Ally,
    Defeat,
    EventAction,
    EventSpec,
    Narrate,
    OnBagged,
    OnCharge,
    OnCutsLine,
    OnDestroyed,
    OnDuelBegun,
    OnEntersRegion,
    OnFallen,
    OnHeroWounded,
    OnObjectivesDone,
    OnOfficersSlain,
    OnRouted,
    OnSideWipedOut,
    OnSkillUsed,
    OnSouls,
    OnTurn,
    OpenGates,
    Reinforce,
    Release,
    Reveal,
    SetObjective,
    Shake,
    Trigger,
    Victory,
)
from .sides import are_allied, are_enemies, closed_hexes
from .state import GameState
from .table import Table

__all__ = ["EventSpec", "after_action", "defeat_winner", "fallen_men"]

# GameOver reason when an event decides the battle.
REASON_EVENT = "scenario_event"


def after_action(engine: Table, events: list[Event]) -> list[Event]:
    """Fire every scenario event whose trigger the action (and what it set off) has met."""
    specs: tuple[EventSpec, ...] = engine.scenario.events
    state = engine.state
    if not specs or state.over:
        return []
    seen: list[Event] = list(events)
    out: list[Event] = []
    progress = True
    while progress and not state.over:
        progress = False
        for spec in specs:
            if spec.id in state.fired_events or not conditions_hold(state, spec):
                continue
            if not _matches(engine, spec.when, seen):
                continue
            state.fired_events.append(spec.id)
            produced = _run(engine, spec)
            out += produced
            seen += produced
            progress = True
            if state.over:
                break
    return out


def conditions_hold(state: GameState, spec: EventSpec) -> bool:
    """Whether ``spec`` may fire now as far as its turn window and ``after``/``unless`` go."""
    if spec.from_turn is not None and state.turn < spec.from_turn:
        return False
    if spec.until_turn is not None and state.turn > spec.until_turn:
        return False
    fired = state.fired_events
    return all(e in fired for e in spec.after) and not any(e in fired for e in spec.unless)


# -- triggers ----------------------------------------------------------------------------------


def _matches(engine: Table, when: Trigger, seen: list[Event]) -> bool:
    return bool(_TRIGGERS[type(when)](engine, when, seen))


def _turn(engine: Table, when: OnTurn, seen: list[Event]) -> bool:
    side = when.side or engine.state.sides[0].id
    return any(isinstance(e, TurnEnded) and e.turn == when.turn and e.next_side == side for e in seen)


def _enters_region(engine: Table, when: OnEntersRegion, seen: list[Event]) -> bool:
    state = engine.state
    region = engine.board.regions.get(when.region, frozenset())
    inside = [f for f in state.formations.values() if f.pos in region]
    if not any(f.side == when.side and when.selects(f.id) for f in inside):
        return False
    return not (when.unopposed and any(are_enemies(state, when.side, f.side) for f in inside))


def _of(seen: Iterable[Event], kinds: tuple[type, ...]) -> list[Any]:
    return [e for e in seen if isinstance(e, kinds)]


def _fielded(engine: Table) -> set[str]:
    """Formations that have taken the field: those deployed at the start and those whose
    reinforcement event has fired. One missing from the state now is gone; one not yet arrived
    is not."""
    out = {spec.id for spec in engine.scenario.formations}
    fired = set(engine.state.fired_events)
    for spec in engine.scenario.events:
        if spec.id in fired:
            for action in spec.actions:
                if isinstance(action, Reinforce):
                    out.update(r.id for r in action.formations)
    return out


def _routed(engine: Table, when: OnRouted, seen: list[Event]) -> bool:
    formations = engine.state.formations
    if when.units:
        # A state, not a moment: an event that waits (``after``) for what comes first in the
        # story still fires once those formations are all broken, whenever they broke.
        if not all(u not in formations or formations[u].routed for u in when.units):
            return False  # the cheap test first: this is asked after every action
        fielded = _fielded(engine)
        return all(u in fielded for u in when.units)
    return any(e.unit == when.unit or e.side == when.side for e in _of(seen, (Routed,)))


def _destroyed(engine: Table, when: OnDestroyed, seen: list[Event]) -> bool:
    formations = engine.state.formations
    gone = _of(seen, (Destroyed,))
    if when.units:
        if not any(e.unit in when.units for e in gone):
            return False
        fielded = _fielded(engine)
        return all(u in fielded and u not in formations for u in when.units)
    return any(e.unit == when.unit or e.side == when.side for e in gone)


def _hero_wounded(engine: Table, when: OnHeroWounded, seen: list[Event]) -> bool:
    return any(e.hero == when.hero for e in _of(seen, (HeroWounded,)))


def _souls(engine: Table, when: OnSouls, seen: list[Event]) -> bool:
    return engine.state.side(when.side).pouch >= when.at_least


def _side_wiped_out(engine: Table, when: OnSideWipedOut, seen: list[Event]) -> bool:
    if not any(e.side == when.side for e in _of(seen, (Destroyed,))):
        return False
    return not any(f.side == when.side for f in engine.state.formations.values())


def _objectives_done(engine: Table, when: OnObjectivesDone, seen: list[Event]) -> bool:
    return all(engine.state.objectives.get(o) == "done" for o in when.done)


def _cuts_line(engine: Table, when: OnCutsLine, seen: list[Event]) -> bool:
    state = engine.state
    cutter = state.formations.get(when.unit)
    if cutter is None or cutter.routed:
        return False
    line = [f for f in state.formations_of(when.side) if not f.routed]
    at = cutter.pos
    for a in line:
        if distance(a.pos, at) != 1:
            continue
        for b in line:
            apart = distance(a.pos, b.pos)
            # In contact with one, in the gap between it and another no farther off: wedged in.
            if b.id != a.id and 2 <= apart <= when.reach and distance(b.pos, at) <= apart:
                return True
    return False


def _duel_begun(engine: Table, when: OnDuelBegun, seen: list[Event]) -> bool:
    formations = engine.state.formations
    for e in _of(seen, (DuelBegun,)):
        heroes = {formations[u].hero for u in (e.challenger, e.target) if u in formations}
        if when.hero in heroes:
            return True
    return False


def _officers_slain(engine: Table, when: OnOfficersSlain, seen: list[Event]) -> bool:
    return len(officers.slain(engine, when.side)) >= when.at_least


def fallen_men(scenario: Scenario, state: GameState, units: Iterable[str]) -> int:
    """Men of ``units`` struck down so far: what each had when it took the field (at the start,
    or on arriving as a reinforcement) less what it has now; none for one not yet arrived, and
    never below none for one that has gathered souls back into its ranks."""
    wanted = set(units)
    start = {spec.id: spec.men for spec in scenario.formations if spec.id in wanted}
    fired = set(state.fired_events)
    for spec in scenario.events:
        if spec.id in fired:
            for action in spec.actions:
                if isinstance(action, Reinforce):
                    start.update((r.id, r.men) for r in action.formations if r.id in wanted)
    formations = state.formations
    return sum(max(0, men - (formations[u].men if u in formations else 0)) for u, men in start.items())


def _fallen(engine: Table, when: OnFallen, seen: list[Event]) -> bool:
    return fallen_men(engine.scenario, engine.state, when.units) >= when.at_least


def _skill_used(engine: Table, when: OnSkillUsed, seen: list[Event]) -> bool:
    return any(e.skill == when.skill and when.unit in (None, e.unit) for e in _of(seen, (SkillUsed,)))


def _charge(engine: Table, when: OnCharge, seen: list[Event]) -> bool:
    chargers = {when.unit} if when.unit else set(when.units)
    return any(
        e.charge and e.unit in chargers and (not when.targets or e.target in when.targets)
        for e in _of(seen, (Attacked,))
    )


def _bagged(engine: Table, when: OnBagged, seen: list[Event]) -> bool:
    return any(u in when.units for e in _of(seen, (SoulsCaptured,)) for u in e.bagged_units)


_TRIGGERS: dict[type, Callable[..., bool]] = {
    OnTurn: _turn,
    OnEntersRegion: _enters_region,
    OnRouted: _routed,
    OnDestroyed: _destroyed,
    OnHeroWounded: _hero_wounded,
    OnSouls: _souls,
    OnSideWipedOut: _side_wiped_out,
    OnObjectivesDone: _objectives_done,
    OnCutsLine: _cuts_line,
    OnDuelBegun: _duel_begun,
    OnOfficersSlain: _officers_slain,
    OnFallen: _fallen,
    OnSkillUsed: _skill_used,
    OnCharge: _charge,
    OnBagged: _bagged,
}


# -- actions -----------------------------------------------------------------------------------


def _run(engine: Table, spec: EventSpec) -> list[Event]:
    events: list[Event] = []
    for action in spec.actions:
        events += _do(engine, action)
    return events


def _do(engine: Table, action: EventAction) -> list[Event]:
    events: list[Event] = _ACTIONS[type(action)](engine, action)
    return events


def _reinforce(engine: Table, action: Reinforce) -> list[Event]:
    state, board, rules = engine.state, engine.board, engine.rules
    taken = set(state.occupancy())
    closed = closed_hexes(state, board, action.side)
    placed: list[str] = []
    for r in action.formations:
        found = placement_area(board, r.at)
        if r.id in state.formations or found is None:
            continue
        move_class = rules.units[r.type].move_class

        def ok(h: Hex, move_class: str = move_class) -> bool:
            return h not in taken and h not in closed and board.move_cost(h, move_class) is not None

        pos = nearest_free(board, *found, ok)
        if pos is None:
            continue  # no room anywhere: the column never arrives
        hero = r.hero if r.hero not in state.wounded_heroes else None
        spec = FormationSpec(
            id=r.id,
            side=action.side,
            type=r.type,
            men=r.men,
            max_men=r.max_men,
            hero=hero,
            pos=pos,
            hidden=r.hidden,
            group=r.group,
        )
        f = vision.new_formation(spec, rules)
        if engine.settings.roster is not None:
            carry_in(f, carry_key(r.hero, r.id), engine.settings.roster)
        state.formations[f.id] = f
        state.men_entered += f.men
        taken.add(pos)
        placed.append(f.id)
    if not placed:
        return []
    vision.refresh_explored(state, board, rules, action.side)
    return [Reinforced(units=tuple(placed), side=action.side)]


def _reveal(engine: Table, action: Reveal) -> list[Event]:
    events: list[Event] = []
    for f in sorted(engine.state.formations.values(), key=lambda x: x.id):
        chosen = f.id == action.unit if action.unit else f.group == action.group
        if chosen and f.hidden:
            f.hidden = False
            events += vision.revealed(f)
    return events


def _release(engine: Table, action: Release) -> list[Event]:
    side = engine.state.side(action.side)
    if action.group not in side.held_groups:
        return []
    side.held_groups.remove(action.group)
    return [GroupReleased(group=action.group, side=action.side)]


def _narrate(engine: Table, action: Narrate) -> list[Event]:
    return [Narration(text=action.text, speaker=action.speaker)]


def _objective(engine: Table, action: SetObjective) -> list[Event]:
    objectives = engine.state.objectives
    if objectives.get(action.id) == action.status:
        return []
    objectives[action.id] = action.status
    return [ObjectiveChanged(objective=action.id, status=action.status)]


def _victory(engine: Table, action: Victory) -> list[Event]:
    return engine.finish(action.side, REASON_EVENT)


def defeat_winner(state: GameState, loser: str) -> str | None:
    """Who wins when ``loser`` is defeated by a scenario event.

    Its enemies among the fighting (non-neutral) sides win. If they are one side, or allies of
    one another, the winner named is the one with the player role, else the first in turn order.
    With no such enemy, or enemies who are not allied to each other, nobody wins.
    """
    enemies = [s for s in state.sides if s.role != "neutral" and are_enemies(state, loser, s.id)]
    if not enemies or not all(are_allied(state, enemies[0].id, s.id) for s in enemies):
        return None
    players = [s for s in enemies if s.role == "player"]
    return (players or enemies)[0].id


def _defeat(engine: Table, action: Defeat) -> list[Event]:
    return engine.finish(defeat_winner(engine.state, action.side), REASON_EVENT)


def _open_gates(engine: Table, action: OpenGates) -> list[Event]:
    holder = engine.state.side(action.side)
    if action.to in holder.gates_open_to:
        return []
    holder.gates_open_to.append(action.to)
    return [GatesOpened(side=action.side, to=action.to)]


def _ally(engine: Table, action: Ally) -> list[Event]:
    state = engine.state
    a, b = state.side(action.side), state.side(action.with_)
    if b.id in a.allies and a.id in b.allies:
        return []
    for one, other in ((a, b), (b, a)):
        if other.id not in one.allies:
            one.allies.append(other.id)
        if other.id in one.hostile_to:
            one.hostile_to.remove(other.id)
    return [SidesAllied(side=a.id, ally=b.id)]


def _shake(engine: Table, action: Shake) -> list[Event]:
    events: list[Event] = []
    for f in engine.state.formations_of(action.side):
        if not f.routed:
            events += morale.change_morale(engine.rules, f, action.delta, action.text)
    return events + morale.check_routs(engine.state, engine.rules)


_ACTIONS: dict[type, Callable[..., list[Event]]] = {
    Reinforce: _reinforce,
    Reveal: _reveal,
    Release: _release,
    Narrate: _narrate,
    SetObjective: _objective,
    Victory: _victory,
    Defeat: _defeat,
    OpenGates: _open_gates,
    Ally: _ally,
    Shake: _shake,
}
