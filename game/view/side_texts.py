"""What each side reads of its scenario: its own briefing, objectives and debriefing.

The scenario's own texts (``briefing``, ``objectives``, ``debriefing_*``) are written for its
player side; another side reads its ``[[side_texts]]`` (``SideTexts``) when the scenario has them
and the player side's texts otherwise. A side's objectives written for it alone take their
status from the objective of the other side they stand against (``SideObjective.against``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.scenario import ObjectiveSpec, Scenario, SideTexts
from ..core.sides import are_allied
from ..core.state import GameState

REVERSED = {"done": "failed", "failed": "done"}


def texts_of(scenario: Scenario, side: str | None) -> SideTexts | None:
    """``side``'s own texts, if the scenario has them (None for the player side)."""
    return next((t for t in scenario.side_texts if t.side == side), None)


def briefing_for(scenario: Scenario, side: str | None) -> str:
    """The briefing ``side`` reads (a msgid; the player side's for None)."""
    texts = texts_of(scenario, side)
    return texts.briefing if texts is not None else scenario.briefing


def objectives_for(scenario: Scenario, side: str | None) -> list[ObjectiveSpec]:
    """``side``'s objectives: those the scenario gives it (an objective without a side is the
    player side's) and those written for it alone; every objective for None."""
    player = scenario.default_player_side()
    own = [
        ObjectiveSpec(id=o.id, text=o.text, side=t.side, bonus=o.bonus)
        for t in scenario.side_texts
        if side is None or t.side == side
        for o in t.objectives
    ]
    given = [o for o in scenario.objective_specs if side is None or (o.side or player) == side]
    return given + own


def objective_status(scenario: Scenario, state: GameState, objective_id: str) -> str:
    """ "open", "done" or "failed": as the scenario's events set it, or for an objective written
    for a side alone, the reverse of the one it stands against."""
    for texts in scenario.side_texts:
        for o in texts.objectives:
            if o.id == objective_id:
                against = state.objectives.get(o.against, "open") if o.against else "open"
                return REVERSED.get(against, "open")
    return state.objectives.get(objective_id, "open")


def objectives_as_read(
    scenario: Scenario, reader: str | None, objectives: Sequence[tuple[ObjectiveSpec, str]]
) -> list[tuple[ObjectiveSpec, str]]:
    """``objectives`` (the player side's, with their status) as ``reader`` reads them: a side with
    objectives of its own reads those standing against them, with the reverse status, and not
    the other side's; any other reader reads them as they are."""
    texts = texts_of(scenario, reader)
    if texts is None or not texts.objectives:
        return list(objectives)
    out: list[tuple[ObjectiveSpec, str]] = []
    for spec, status in objectives:
        for o in texts.objectives:
            if o.against == spec.id:
                own = ObjectiveSpec(id=o.id, text=o.text, side=texts.side, bonus=o.bonus)
                out.append((own, REVERSED.get(status, "open")))
    return out


def debriefing_for(scenario: Scenario, state: GameState, side: str | None) -> str:
    """The debriefing ``side`` reads (a msgid; empty if none, or the battle goes on): the text
    of an ending a scenario event decided, else of its victory when it (or an ally) won, else of
    its defeat (a draw is no victory). The player side's texts for None, or a side without texts
    of its own (the player side's victory text for the side the player side won with)."""
    if not state.over:
        return ""
    texts = texts_of(scenario, side)
    reader = side if texts is not None and side is not None else scenario.default_player_side()
    if texts is None:
        endings = dict(scenario.debriefings)
        victory, defeat = scenario.debriefing_victory, scenario.debriefing_defeat
    else:
        endings = {e.event: e.text for e in texts.debriefings}
        victory, defeat = texts.debriefing_victory, texts.debriefing_defeat
    for event_id in reversed(state.fired_events):
        if event_id in endings:
            return endings[event_id]
    won = state.winner is not None and are_allied(state, reader, state.winner)
    return victory if won else defeat


def result_reader(scenario: Scenario, state: GameState, humans: Sequence[str]) -> str | None:
    """Whose debriefing the result screen shows: the side people command, and with people on
    both sides the winner's, so the winner never reads the loser's (on a draw, the first side
    people command); the player side's when nobody plays."""
    if not humans:
        return None
    if len(humans) > 1 and state.winner is not None:
        winners = [h for h in humans if are_allied(state, h, state.winner)]
        if winners:
            return winners[0]
    return humans[0]
