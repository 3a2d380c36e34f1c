"""How a battle ended: who won, and the scenario event, annihilation or last turn that decided it.

Everything is derived from the final state and the scenario; nothing is added to the state, so
saves and their checkpoint hashes stay as they were, and a game loaded already finished is told
the same way. A battle decided by a scenario event ends in the very action that fires it, and no
event fires once the game is over, so the deciding event is the one in ``state.fired_events``
that names a victory or a defeat (only one such event can ever fire), and the battle ended on
the state's turn.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..core.rules import Ruleset
from ..core.scenario import OUTCOME_ATTRITION, OUTCOME_DRAW, ObjectiveSpec, Scenario
from ..core.scenario_events import Defeat, EventSpec, Narrate, OnObjectivesDone, SetObjective, Victory
from ..core.sides import are_allied, are_enemies
from ..core.state import GameState
from ..core.triggers import REASON_EVENT
from ..core.victory import attrition_shares
from ..i18n import _, ngettext
from .names import formation_names, side_name
from .side_texts import debriefing_for
from .telling import ScreenTeller

# GameState.end_reason values set by the engine itself (a scenario event sets REASON_EVENT).
REASON_ANNIHILATION = "annihilation"
REASON_TURN_LIMIT = "turn_limit"

Ending = Literal["event", "annihilation", "turn_limit", "unfinished"]
Verdict = Literal["victory", "defeat"]


@dataclass(frozen=True)
class DecidingEvent:
    """The scenario event whose victory or defeat ended the battle."""

    spec: EventSpec
    verdict: Verdict
    # The side its victory or defeat action names (the victor, or the defeated).
    side: str
    # The last words spoken as it fired, if any: the story's own account of the moment.
    narration: Narrate | None
    # The objectives it turned on (those it needed done, those it marked), with their status.
    objectives: tuple[tuple[ObjectiveSpec, str], ...]


@dataclass(frozen=True)
class Outcome:
    ending: Ending
    winner: str | None
    # The turn the battle ended on.
    turn: int
    event: DecidingEvent | None = None
    # The fighting sides beaten: those with no men left (annihilation), or the winner's enemies
    # (the last turn).
    beaten: tuple[str, ...] = ()
    # The rule for the last turn (a side id, "draw" or "attrition") when it decided the battle.
    turn_limit_rule: str = ""
    # Under the attrition rule: fighting side -> share of its enemies' starting men destroyed.
    shares: tuple[tuple[str, float], ...] = ()


def decide(scenario: Scenario, state: GameState) -> Outcome:
    """How the battle in ``state`` ended (``ending`` "unfinished" while it goes on)."""
    if not state.over:
        return Outcome("unfinished", None, state.turn)
    fighting = [s.id for s in state.sides if s.role != "neutral"]
    if state.end_reason == REASON_ANNIHILATION:
        beaten = tuple(s for s in fighting if state.men_of(s) == 0)
        return Outcome("annihilation", state.winner, state.turn, beaten=beaten)
    if state.end_reason == REASON_TURN_LIMIT:
        rule = scenario.turn_limit_outcome
        beaten = () if state.winner is None else tuple(s for s in fighting if are_enemies(state, state.winner, s))
        shares = tuple(attrition_shares(state).items()) if rule == OUTCOME_ATTRITION else ()
        return Outcome("turn_limit", state.winner, state.turn, beaten=beaten, turn_limit_rule=rule, shares=shares)
    event = deciding_event(scenario, state) if state.end_reason == REASON_EVENT else None
    beaten = () if state.winner is None else tuple(s for s in fighting if are_enemies(state, state.winner, s))
    return Outcome("event", state.winner, state.turn, event=event, beaten=beaten)


def deciding_event(scenario: Scenario, state: GameState) -> DecidingEvent | None:
    """The fired scenario event with a victory or defeat action (None if there is none, e.g. the
    game was decided otherwise)."""
    specs = {e.id: e for e in scenario.events}
    for event_id in reversed(state.fired_events):
        spec = specs.get(event_id)
        verdict = next((a for a in spec.actions if isinstance(a, Victory | Defeat)), None) if spec else None
        if spec is None or verdict is None:
            continue
        narrations = [a for a in spec.actions if isinstance(a, Narrate)]
        wanted = list(spec.when.done) if isinstance(spec.when, OnObjectivesDone) else []
        wanted += [a.id for a in spec.actions if isinstance(a, SetObjective) and a.id not in wanted]
        by_id = {o.id: o for o in scenario.objective_specs}
        objectives = tuple((by_id[o], state.objectives.get(o, "open")) for o in wanted if o in by_id)
        return DecidingEvent(
            spec=spec,
            verdict=verdict.kind,
            side=verdict.side,
            narration=narrations[-1] if narrations else None,
            objectives=objectives,
        )
    return None


# -- whose victory -------------------------------------------------------------------------------

HeadlineKind = Literal["victory", "defeat", "draw", "side"]


@dataclass(frozen=True)
class Headline:
    """ "victory"/"defeat": for the one human side (``side``); "side": ``side`` won (two humans at
    one screen, or none); "draw": nobody won."""

    kind: HeadlineKind
    side: str | None


def headline(state: GameState, people: Sequence[str]) -> Headline:
    """Whose victory the battle's end reads as, ``people`` the sides people commanded."""
    if state.winner is None:
        return Headline("draw", None)
    if len(people) == 1:
        won = are_allied(state, people[0], state.winner)
        return Headline("victory" if won else "defeat", people[0])
    return Headline("side", state.winner)


def headline_text(state: GameState, scenario: Scenario, people: Sequence[str]) -> str:
    head = headline(state, people)
    if head.kind == "victory":
        return _("Victory")
    if head.kind == "defeat":
        return _("Defeat")
    if head.kind == "draw":
        return _("A draw")
    return _("Victory for the {side}").format(side=side_name(scenario, head.side))


def debriefing(scenario: Scenario, state: GameState, reader: str | None = None) -> str:
    """The debriefing ``reader`` reads (a msgid; the player side's for None): see
    ``side_texts.debriefing_for``."""
    return debriefing_for(scenario, state, reader)


# -- in words ------------------------------------------------------------------------------------


def join_names(names: Sequence[str]) -> str:
    """ "A", "A and B", "A, B and C" (in the current language)."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return _("{names} and {last}").format(names=_(", ").join(names[:-1]), last=names[-1])


def _grouped(names: Sequence[str]) -> tuple[str, int]:
    """Formation names with repeats counted ("Soul levy ×5"), and how many formations."""
    counts = Counter(names)
    seen: list[str] = []
    for n in names:
        if n not in seen:
            seen.append(n)
    return join_names([n if counts[n] == 1 else f"{n} ×{counts[n]}" for n in seen]), len(names)


def reason_text(outcome: Outcome, scenario: Scenario, rules: Ruleset, state: GameState) -> str:
    """One sentence saying what decided the battle and on which turn."""
    n = outcome.turn
    if outcome.ending == "unfinished":
        return _("The battle is not over yet.")
    if outcome.ending == "annihilation":
        if outcome.winner is None or not outcome.beaten:
            return _("Turn {n}: no army is left standing on the field.").format(n=n)
        beaten = join_names([side_name(scenario, s) for s in outcome.beaten])
        return ngettext(
            "Turn {n}: the {sides} has no formations left on the field.",
            "Turn {n}: the {sides} have no formations left on the field.",
            len(outcome.beaten),
        ).format(n=n, sides=beaten)
    if outcome.ending == "turn_limit":
        return _last_turn(outcome, scenario)
    if outcome.event is None:
        return _("Turn {n}: events on the field decided the battle.").format(n=n)
    return _("Turn {n}: {cause}.").format(n=n, cause=event_cause(outcome.event, scenario, rules, state))


def _last_turn(outcome: Outcome, scenario: Scenario) -> str:
    n = outcome.turn
    winner = side_name(scenario, outcome.winner)
    if outcome.winner is None:
        if outcome.turn_limit_rule == OUTCOME_DRAW:
            return _("Turn {n}, the last, has ended: the battle is drawn.").format(n=n)
        return _("Turn {n}, the last, has ended with neither side ahead in men destroyed.").format(n=n)
    if outcome.turn_limit_rule == OUTCOME_ATTRITION:
        return _("Turn {n}, the last, has ended: the {side} destroyed the larger share of its enemies' men.").format(
            n=n, side=winner
        )
    if outcome.beaten:
        beaten = join_names([side_name(scenario, s) for s in outcome.beaten])
        return _("Turn {n}, the last, has ended before the {sides} could win the field.").format(n=n, sides=beaten)
    return _("Turn {n}, the last, has ended: the field is the {side}'s.").format(n=n, side=winner)


def event_cause(event: DecidingEvent, scenario: Scenario, rules: Ruleset, state: GameState) -> str:
    """What set the deciding event off, as a clause ("Yue Fei · Zhenguo riders is destroyed"):
    the event's own ``reason`` where the scenario gives one."""
    if event.spec.reason is not None:
        return _(event.spec.reason)
    when = event.spec.when
    names = formation_names(rules, scenario)

    def units(ids: Sequence[str]) -> tuple[str, int]:
        return _grouped([names.get(u, u) for u in ids])

    owners = frozenset(o.side or scenario.default_player_side() for o, _status in event.objectives)
    teller = ScreenTeller(scenario, state, rules, lambda side: side_name(scenario, side), units, owners)
    return when.describe(teller)
