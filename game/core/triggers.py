"""Scenario events: triggers checked after every action, and what they do.

``after_action`` looks at the state and at the events the action produced. Events fire in file
order, each at most once (``state.fired_events``); what one event does (a narration, a formation
destroyed by nothing, an objective changed) can set off others in the same action, and because
none fires twice the cascade always ends. Each trigger and action kind is worked by its own
module (``game.core.trigger_kinds``, ``game.core.action_kinds``), found here by name.
"""

from __future__ import annotations

from .action_kinds.defeat import defeat_winner
from .action_kinds.victory import REASON_EVENT
from .events import Event
from .scenario_events import EventSpec
from .state import GameState
from .table import Table
from .tallies import fallen_men
from .trigger_kinds.duel_refused import OnDuelRefused

__all__ = [
    "REASON_EVENT",
    "EventSpec",
    "after_action",
    "conditions_hold",
    "defeat_winner",
    "fallen_men",
    "refusal_events",
]


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
            if not spec.when.test(engine, seen):
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
    if spec.during is not None and state.active_side.id != spec.during:
        return False
    fired = state.fired_events
    return all(e in fired for e in spec.after) and not any(e in fired for e in spec.unless)


def _run(engine: Table, spec: EventSpec) -> list[Event]:
    events: list[Event] = []
    for action in spec.actions:
        events += action.run(engine)
    return events


def refusal_events(engine: Table, refuser: str, challenger: str | None) -> list[EventSpec]:
    """The events that hero ``refuser`` turning down ``challenger``'s challenge now would set
    off (B3: Wuzhu refusing Yue Fei a second time, or once an officer has fallen): what the
    challenged side's commander is told, and what its computer general weighs."""
    state = engine.state
    return [
        spec
        for spec in engine.scenario.events
        if isinstance(spec.when, OnDuelRefused)
        and spec.id not in state.fired_events
        and spec.when.next_refusal_fires(state, refuser, challenger)
        and conditions_hold(state, spec)
    ]
