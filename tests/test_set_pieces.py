"""The machinery of A1's set pieces: the 'charge' and 'bagged' triggers, a reserve saved for one
charge, a front marched to once an event fires, sweepers, and a fixed-seed A1 game where the
chronicle's moments all happen on the board."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from conftest import EngineFactory, Unit, make_board
from test_ai_tactics import _grid_of

from game.ai.driver import make_ais, play_ai_turn
from game.ai.general import General
from game.content.scenarios import load_scenario
from game.core.actions import Action, Attack, Capture, EndTurn, Move
from game.core.engine import Engine, GameSettings
from game.core.events import Attacked, Event, Narration
from game.core.hexgrid import Hex, distance
from game.core.scenario import AiHints, HoldSpec, ReserveSpec
from game.core.scenario_events import EventSpec
from game.record.match import Match

OPEN = ["." * 9] * 7


def _with(eng: Engine, events: Sequence[dict[str, Any]] = (), hints: AiHints | None = None) -> Engine:
    specs = tuple(EventSpec.model_validate(e) for e in events)
    scenario = dataclasses.replace(eng.scenario, events=specs, ai=hints or eng.scenario.ai)
    return Engine(scenario, eng.rules, 7)


def _said(text: str) -> dict[str, str]:
    return {"kind": "narrate", "text": text}


# -- triggers ---------------------------------------------------------------------------------


def test_the_charge_trigger_fires_on_a_charge_and_not_on_a_standing_blow(small_engine: EngineFactory) -> None:
    units = [Unit("h", "a", "warrior", 500, (1, 3)), Unit("d", "b", "soul_levy", 5000, (4, 3))]
    charge = {"id": "charged", "when": {"kind": "charge", "unit": "h", "targets": ["d"]}, "do": [_said("Charge!")]}
    eng = _with(small_engine(OPEN, units), [charge])
    eng.apply(Move(unit="h", to=eng.board.at_offset(3, 3)))  # two hexes of plain
    events = eng.apply(Attack(unit="h", target="d"))
    blow = next(e for e in events if isinstance(e, Attacked))
    assert blow.charge and Narration(text="Charge!") in events
    assert eng.state.fired_events == ["charged"]

    standing = _with(small_engine(OPEN, [Unit("h", "a", "warrior", 500, (3, 3)), units[1]]), [charge])
    events = standing.apply(Attack(unit="h", target="d"))
    assert not next(e for e in events if isinstance(e, Attacked)).charge
    assert standing.state.fired_events == []


def test_the_bagged_trigger_fires_when_a_routed_formation_is_caught_whole(small_engine: EngineFactory) -> None:
    units = [
        Unit("r", "a", "retainer", 1000, (3, 3)),
        Unit("d", "b", "soul_levy", 900, (4, 3)),
        Unit("e", "b", "soul_levy", 10, (8, 6)),
    ]
    bagged = {"id": "caught", "when": {"kind": "bagged", "units": ["d"]}, "do": [_said("In the bag.")]}
    eng = _with(small_engine(OPEN, units), [bagged])
    eng.state.formations["d"].routed = True
    events = eng.apply(Capture(unit="r"))
    assert Narration(text="In the bag.") in events and "d" not in eng.state.formations


# -- orders for the computer -------------------------------------------------------------------


def _hailing_near(small_engine: EngineFactory, extra: list[Unit]) -> Engine:
    eng = small_engine(OPEN, [Unit("d", "b", "soul_levy", 5000, (6, 3)), *extra])
    eng.state.formations["d"].morale = 40  # shaken: a charge would break it
    return eng


def _shaken(eng: Engine) -> Engine:
    eng.state.formations["d"].morale = 40  # a charge would break it
    return eng


def test_a_reserve_waits_out_of_reach_until_released_then_strikes_only_with_a_charge(
    small_engine: EngineFactory,
) -> None:
    go = {"id": "go", "when": {"kind": "turn", "turn": 9}, "do": [_said("Now.")]}
    hints = AiHints(reserve=(ReserveSpec(side="a", units=("h",), until=("go",)),))
    waiting = _shaken(_with(_hailing_near(small_engine, [Unit("h", "a", "warrior", 500, (5, 3))]), [go], hints))
    ai = General(waiting, "a")
    for _ in range(10):
        action = ai.next_action()
        if isinstance(action, EndTurn):
            break
        assert not isinstance(action, Attack)  # kept out of the fight
        waiting.apply(action)
    h, d = waiting.state.formations["h"], waiting.state.formations["d"]
    assert distance(h.pos, d.pos) >= 3  # drawn back out of reach

    # Released: from two hexes of open ground away it charges home.
    released = _shaken(_with(_hailing_near(small_engine, [Unit("h", "a", "warrior", 500, (2, 3))]), [go], hints))
    released.state.fired_events.append("go")
    ai = General(released, "a")
    action = ai.next_action()
    assert isinstance(action, Move)
    released.apply(action)
    assert released.state.formations["h"].charge_run >= 2
    assert ai.next_action() == Attack(unit="h", target="d")
    # Standing next to the enemy with no run-up, it does not throw itself in.
    standing = _shaken(_with(_hailing_near(small_engine, [Unit("h", "a", "warrior", 500, (5, 3))]), [go], hints))
    standing.state.fired_events.append("go")
    standing.state.formations["h"].moved = True  # no room to ride this turn
    assert General(standing, "a").next_action() != Attack(unit="h", target="d")


def test_a_front_ordered_from_an_event_is_marched_to_once_it_fires(small_engine: EngineFactory) -> None:
    base = small_engine(OPEN, [Unit("x", "a", "han_soldier", 3000, (8, 3)), Unit("d", "b", "soul_levy", 500, (8, 6))])
    front = frozenset(base.board.at_offset(c, r) for c in (0, 1) for r in (2, 3, 4))
    board = make_board(base.rules, _grid_of(base), {"front": front})
    go = EventSpec.model_validate({"id": "go", "when": {"kind": "turn", "turn": 9}, "do": [_said("March.")]})
    hints = AiHints(hold=(HoldSpec(side="a", region="front", units=("x",), after="go", march=True),))
    scenario = dataclasses.replace(base.scenario, board=board, ai=hints, events=(go,))

    def first_action(fired: bool) -> tuple[Action, Engine]:
        eng = Engine(scenario, base.rules, 7)
        if fired:
            eng.state.fired_events.append("go")
        return General(eng, "a").next_action(), eng

    before, _ = first_action(False)
    assert isinstance(before, Move)
    assert before != Move(unit="x", to=before.to) or distance(Hex(*before.to), Hex(0, 3)) >= 5
    after, eng = first_action(True)
    assert isinstance(after, Move)
    start = eng.state.formations["x"].pos
    assert min(distance(Hex(*after.to), h) for h in front) < min(distance(start, h) for h in front)


def test_a_sweeper_makes_for_the_routed_and_leaves_formed_troops_alone(small_engine: EngineFactory) -> None:
    units = [
        Unit("r", "a", "retainer", 2000, (0, 3)),
        Unit("formed", "b", "soul_levy", 500, (1, 3)),
        Unit("broken", "b", "soul_levy", 3000, (4, 3)),  # in sight
    ]
    eng = _with(small_engine(OPEN, units), [], AiHints(sweepers=("r",)))
    eng.state.formations["broken"].routed = True
    ai = General(eng, "a")
    action = ai.next_action()
    assert action != Attack(unit="r", target="formed")
    assert isinstance(action, Move)
    start, broken = eng.state.formations["r"].pos, eng.state.formations["broken"].pos
    assert distance(Hex(*action.to), broken) < distance(start, broken)


# -- the chronicle on the board ----------------------------------------------------------------


def test_a1_played_by_the_computer_tells_the_chronicle() -> None:
    """Seed 12 at normal difficulty: the trapped host breaks and is bagged, the retainers come up
    the valley, the defile holds until Han Xin joins the wings, the Hegemon-King charges into the
    returning host, it breaks, and the battle is won only when a broken formation is bagged."""
    loaded = load_scenario("a1_valley_mouth")
    match = Match(loaded, 12, GameSettings(), seats={s.id: "ai" for s in loaded.scenario.sides})
    fired_at: dict[str, int] = {}
    charges: list[int] = []

    def listen(events: list[Event]) -> None:
        for e in match.state.fired_events:
            fired_at.setdefault(e, match.state.turn)
        charges.extend(
            match.state.turn
            for e in events
            if isinstance(e, Attacked) and e.unit == "xiang_yu_500" and e.charge and e.target.startswith("liang_")
        )

    match.listeners.append(listen)
    ais = make_ais(match)
    while not match.state.over:
        play_ai_turn(match, ais[match.state.active_side.id], others=ais)
    order = ["trapped_broken", "retainers_arrive", "valley_swept", "army_joins", "hegemon_charges", "host_broken"]
    assert all(e in fired_at for e in order), fired_at
    assert [fired_at[e] for e in order] == sorted(fired_at[e] for e in order)
    assert "front_lost" not in fired_at and charges and charges[0] >= fired_at["army_joins"]
    # The battle went on after the host broke, until a broken formation was bagged.
    assert match.state.winner == "coalition" and fired_at["rout_herded"] >= fired_at["host_broken"]
    assert match.state.fired_events.index("rout_herded") > match.state.fired_events.index("host_broken")
