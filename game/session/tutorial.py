"""The tutorial battle's progress: the step the player is on, and whether what came of their
last input (an ``Outcome``) completes it. Pure (no pygame), so a scripted player can be tested.

Each step waits for its own condition; an input that completes a step is read again against the
next, so one blow that flanks and routs completes both. What each condition means:

* ``selected``: a formation of the player's side was chosen;
* ``marched``: one of the player's formations moved;
* ``forecast``: a blow was aimed and its forecast shown;
* ``attacked``: one of the player's formations struck an enemy;
* ``flanked``: it struck with another of the player's formations beside the enemy;
* ``routed``: an enemy formation routed (or one is routed now);
* ``bagged``: the player's side bagged souls;
* ``turn_ended``: the player ended their turn;
* ``computer_turn_ended``: the computer ended its turn;
* ``undone``: a move was taken back.
"""

from __future__ import annotations

from collections.abc import Callable

from ..content.errors import ContentErrors
from ..content.scenarios import scenario_ids
from ..content.tutorial import Condition, Tutorial, TutorialStep, load_tutorial
from ..core.events import Attacked, Moved, Routed, SoulsCaptured, TurnEnded
from ..core.hexgrid import neighbours
from ..core.state import GameState
from ..record.match import Match, new_match
from ..record.seats import Commander
from .battle_session import Outcome


def _selected(outcome: Outcome, state: GameState, side: str) -> bool:
    chosen = state.formations.get(outcome.selected or "")
    return outcome.kind == "selected" and chosen is not None and chosen.side == side


def _marched(outcome: Outcome, state: GameState, side: str) -> bool:
    return _own(outcome) and any(_ours(state, outcome, ev.unit, side) for ev in outcome.events if isinstance(ev, Moved))


def _forecast(outcome: Outcome, state: GameState, side: str) -> bool:
    return outcome.kind == "forecast" and outcome.forecast is not None


def _attacked(outcome: Outcome, state: GameState, side: str) -> bool:
    return _own(outcome) and any(_ours(state, outcome, ev.unit, side) for ev in _blows(outcome))


def _flanked(outcome: Outcome, state: GameState, side: str) -> bool:
    """A blow struck with a friend beside the enemy, where everyone stood before it."""
    if not _own(outcome):
        return False
    for blow in _blows(outcome):
        target = outcome.before.get(blow.target)
        if target is None or not _ours(state, outcome, blow.unit, side):
            continue
        around = set(neighbours(target))
        friends = [
            fid
            for fid, pos in outcome.before.items()
            if fid != blow.unit and pos in around and _ours(state, outcome, fid, side)
        ]
        if friends:
            return True
    return False


def _routed(outcome: Outcome, state: GameState, side: str) -> bool:
    if any(isinstance(ev, Routed) and ev.side != side for ev in outcome.events):
        return True
    return any(f.routed and f.side != side for f in state.formations.values())


def _bagged(outcome: Outcome, state: GameState, side: str) -> bool:
    return any(isinstance(ev, SoulsCaptured) and ev.side == side and ev.count > 0 for ev in outcome.events)


def _turn_ended(outcome: Outcome, state: GameState, side: str) -> bool:
    return any(isinstance(ev, TurnEnded) and ev.side == side for ev in outcome.events)


def _computer_turn_ended(outcome: Outcome, state: GameState, side: str) -> bool:
    return outcome.by_computer and any(isinstance(ev, TurnEnded) and ev.side != side for ev in outcome.events)


def _undone(outcome: Outcome, state: GameState, side: str) -> bool:
    return outcome.kind == "undone"


def _own(outcome: Outcome) -> bool:
    """An action the player gave (not one of the computer's)."""
    return outcome.applied and not outcome.by_computer


def _blows(outcome: Outcome) -> list[Attacked]:
    return [ev for ev in outcome.events if isinstance(ev, Attacked)]


def _ours(state: GameState, outcome: Outcome, fid: str, side: str) -> bool:
    """Whether formation ``fid`` is the player's (one no longer on the field counts as none)."""
    f = state.formations.get(fid)
    return f is not None and f.side == side


CONDITIONS: dict[Condition, Callable[[Outcome, GameState, str], bool]] = {
    "selected": _selected,
    "marched": _marched,
    "forecast": _forecast,
    "attacked": _attacked,
    "flanked": _flanked,
    "routed": _routed,
    "bagged": _bagged,
    "turn_ended": _turn_ended,
    "computer_turn_ended": _computer_turn_ended,
    "undone": _undone,
}


class TutorialProgress:
    """The step the player is on (``current``; None once every step is done)."""

    def __init__(self, tutorial: Tutorial) -> None:
        self.tutorial = tutorial
        self.index = 0
        # The steps the last input that completed any completed (one blow may flank and rout).
        self.last_done: tuple[TutorialStep, ...] = ()

    @property
    def steps(self) -> tuple[TutorialStep, ...]:
        return self.tutorial.steps

    @property
    def current(self) -> TutorialStep | None:
        return self.steps[self.index] if self.index < len(self.steps) else None

    @property
    def finished(self) -> bool:
        return self.current is None

    def observe(self, outcome: Outcome, state: GameState) -> int:
        """Read what came of an input (``state`` as it is after it): the number of steps it
        completed (0: the step waits)."""
        done: list[TutorialStep] = []
        while (step := self.current) is not None and CONDITIONS[step.done_when](outcome, state, self.tutorial.side):
            self.index += 1
            done.append(step)
        if done:
            self.last_done = tuple(done)
        return len(done)


def tutorial_match(tutorial: Tutorial | None = None) -> Match:
    """A new tutorial battle: the player commands the tutorial's side, the computer the others,
    on the tutorial's seed (the same field and dice every time)."""
    tutorial = tutorial or load_tutorial()
    match = new_match(tutorial.scenario, {}, seed=tutorial.seed)
    sides = [s.id for s in match.loaded.scenario.sides]
    seats: dict[str, Commander] = {sid: ("human" if sid == tutorial.side else "ai") for sid in sides}
    levels: dict[str, str] = {sid: tutorial.difficulty for sid in sides if sid != tutorial.side}
    return new_match(tutorial.scenario, seats, seed=tutorial.seed, difficulties=levels)


def tutorial_scenario() -> str | None:
    """The scenario the tutorial is played on (None when its steps cannot be read)."""
    try:
        return load_tutorial().scenario
    except ContentErrors:
        return None


def offered_scenarios() -> list[str]:
    """The scenarios offered for a battle of one's choosing (alone or two players): every shipped
    one but the tutorial's field, which the tutorial alone opens."""
    tutorial = tutorial_scenario()
    return [sid for sid in scenario_ids() if sid != tutorial]


def tutorial_progress(match: Match) -> TutorialProgress | None:
    """The tutorial's steps from the first when ``match`` is the tutorial battle (None for any other,
    or when the steps cannot be read: the battle is played without them)."""
    try:
        tutorial = load_tutorial()
    except ContentErrors:
        return None
    return TutorialProgress(tutorial) if match.loaded.scenario.id == tutorial.scenario else None
