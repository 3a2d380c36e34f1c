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
from game.chronicle.watch import ChronicleWatch
from game.content.chronicle import set_pieces
from game.content.scenarios import load_scenario
from game.core.actions import Action, Attack, Blast, Capture, EndTurn, Move
from game.core.engine import Engine, GameSettings
from game.core.events import Attacked, Event, GatesOpened, Narration
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


# -- the set pieces' causes in play -------------------------------------------------------------


def test_palm_thunder_is_thrown_at_an_enemy_next_to_the_thrower(small_engine: EngineFactory) -> None:
    """The blast strikes only enemies, so a company whose besiegers stand next to it (Tang Huai on
    his hill) still throws its palm thunder among them: its own hex in the blast is no reason not
    to."""
    units = [
        Unit("bows", "a", "crossbowman", 1000, (3, 3)),
        Unit("d1", "b", "soul_levy", 5000, (4, 3)),
        Unit("d2", "b", "soul_levy", 5000, (5, 3)),
    ]
    eng = small_engine(OPEN, units)
    bows = eng.state.formations["bows"]
    assert bows.charges > 0 and distance(bows.pos, eng.state.formations["d1"].pos) == 1
    ai = General(eng, "a")
    at = eng.state.formations["d1"].pos
    assert ai._blast_score(bows, at) > 0
    action = ai.next_action()
    assert isinstance(action, Blast), action
    events = eng.apply(action)
    struck = {e.target for e in events if isinstance(e, Attacked) and e.mode == "blast"}
    assert struck and "bows" not in struck


def test_a_released_reserve_rides_up_to_a_run_up_short_of_the_enemy(small_engine: EngineFactory) -> None:
    """Released, the Hegemon-King does not wait out of reach: he rides to open ground a charge's
    run-up short of the enemy, so that his next blow is a charge."""
    go = {"id": "go", "when": {"kind": "turn", "turn": 9}, "do": [_said("Now.")]}
    hints = AiHints(reserve=(ReserveSpec(side="a", units=("h",), until=("go",)),))
    far = _with(
        small_engine(
            ["." * 16] * 7, [Unit("h", "a", "warrior", 500, (0, 3)), Unit("d", "b", "soul_levy", 5000, (15, 3))]
        ),
        [go],
        hints,
    )
    far.state.fired_events.append("go")
    ai = General(far, "a")
    h, d = far.state.formations["h"], far.state.formations["d"]
    planned = ai.persona.destination(h, [d], frozenset())
    assert planned is not None
    ground, _ = planned
    assert ground and all(distance(x, d.pos) == 3 for x in ground)
    # Not yet released, it waits out of reach.
    held = _with(
        small_engine(
            ["." * 16] * 7, [Unit("h", "a", "warrior", 500, (0, 3)), Unit("d", "b", "soul_levy", 5000, (15, 3))]
        ),
        [go],
        hints,
    )
    planned = General(held, "a").persona.destination(
        held.state.formations["h"], [held.state.formations["d"]], frozenset()
    )
    assert planned is not None
    waiting, _ = planned
    assert all(distance(x, d.pos) >= 3 for x in waiting) and waiting != ground


def test_a_reserve_waits_by_the_commander_of_greatest_leadership_not_by_itself(small_engine: EngineFactory) -> None:
    """The reserve's commander is the side's hero of the greatest leadership (Han Xin), not the
    first hero's formation by name, and never the reserve itself."""
    go = {"id": "go", "when": {"kind": "turn", "turn": 9}, "do": [_said("Now.")]}
    hints = AiHints(reserve=(ReserveSpec(side="a", units=("a_xiang",), until=("go",)),))
    units = [
        Unit("a_xiang", "a", "warrior", 500, (0, 3), hero="xiang_yu"),
        Unit("b_cao", "a", "retainer", 2000, (1, 0), hero="cao_zhi"),
        Unit("c_han", "a", "han_soldier", 5000, (12, 3), hero="han_xin"),
        Unit("d", "b", "soul_levy", 5000, (15, 6)),
    ]
    eng = _with(small_engine(["." * 16] * 7, units), [go], hints)
    ai = General(eng, "a")
    f = eng.state.formations["a_xiang"]
    planned = ai.persona.destination(f, [eng.state.formations["d"]], frozenset())
    assert planned is not None
    ground, _ = planned
    han = eng.state.formations["c_han"].pos
    assert ground and all(distance(x, han) <= 3 for x in ground)


def test_the_fort_taking_the_jin_in_is_read_from_the_gate_opening_however_it_comes() -> None:
    """The chronicle's gate opens once Wuzhu is carried wounded from the duel, the battle's end:
    the sign is the gate opening to the Jin, not his guard riding up to it."""
    loaded = load_scenario("b3_tangut_border")
    match = Match(loaded, 1, GameSettings(), seats={s.id: "ai" for s in loaded.scenario.sides})
    watch = ChronicleWatch(set_pieces("b3_tangut_border"))
    watch.seen([GatesOpened(side="tangut", to="zhenguo")], match.state)
    assert "gate_opened" not in watch.occurred
    watch.seen([GatesOpened(side="tangut", to="jin")], match.state)
    assert "gate_opened" in watch.occurred
