"""Herding a rout (game.core.herding): a routed formation with enemies on two sides flees along
the open side, leaves stragglers behind as souls, and is bagged twice as fast."""

from __future__ import annotations

import pytest
from conftest import EngineFactory, Unit

from game.core import herding
from game.core.actions import Capture, EndTurn
from game.core.engine import Engine
from game.core.events import Fled, SoulsCaptured, SoulsReleased
from game.core.hexgrid import DIRECTIONS, Hex, distance

OPEN = ["." * 9] * 7
C = Hex(4, 3)
FAR_WEST, FAR_EAST = Hex(2, 3), Hex(6, 3)


def conserved(eng: Engine) -> None:
    assert eng.state.men_ever() == eng.state.men_accounted()


@pytest.mark.parametrize(
    ("a", "b", "apart"),
    [
        (DIRECTIONS[0], DIRECTIONS[3], True),  # opposite
        (DIRECTIONS[0], DIRECTIONS[2], True),  # 120 degrees
        (DIRECTIONS[1], DIRECTIONS[5], True),
        (DIRECTIONS[0], DIRECTIONS[1], False),  # 60 degrees: one side
        (DIRECTIONS[0], Hex(2, 0), False),  # the same way, two hexes out
        (Hex(2, -1), Hex(-1, 2), True),  # two hexes out, opposite ways
        (Hex(1, 1), Hex(-2, 2), False),  # a right angle: still one side
        (Hex(1, 1), Hex(-1, 0), True),  # 150 degrees
    ],
)
def test_two_sides_means_at_least_120_degrees_apart(a: Hex, b: Hex, apart: bool) -> None:
    assert herding._two_sides(a, b) is apart
    assert herding._two_sides(b, a) is apart


def _rout_between(small_engine: EngineFactory, flanks: list[Hex], men: int = 5000) -> Engine:
    units = [Unit("d", "b", "soul_levy", men, C)] + [
        Unit(f"a{i}", "a", "han_soldier", 1000, h) for i, h in enumerate(flanks)
    ]
    eng = small_engine(OPEN, units)
    eng.state.formations["d"].routed = True
    return eng


def test_a_rout_with_enemies_on_two_sides_is_hemmed_and_one_side_is_not(small_engine: EngineFactory) -> None:
    both = _rout_between(small_engine, [FAR_WEST, FAR_EAST])
    assert herding.hemmed(both.state, both.state.formations["d"])
    one = _rout_between(small_engine, [FAR_WEST, Hex(2, 2)])  # both to the west
    assert not herding.hemmed(one.state, one.state.formations["d"])
    formed = _rout_between(small_engine, [FAR_WEST, FAR_EAST])
    formed.state.formations["d"].routed = False
    assert not herding.hemmed(formed.state, formed.state.formations["d"])
    broken_flank = _rout_between(small_engine, [FAR_WEST, FAR_EAST])
    broken_flank.state.formations["a1"].routed = True  # a routed enemy herds nobody
    assert not herding.hemmed(broken_flank.state, broken_flank.state.formations["d"])


def test_a_hemmed_rout_flees_along_the_open_side_and_leaves_stragglers(small_engine: EngineFactory) -> None:
    eng = _rout_between(small_engine, [FAR_WEST, FAR_EAST])
    events = eng.apply(EndTurn())  # the routed side's turn starts: it flees
    fled = next(e for e in events if isinstance(e, Fled))
    d = eng.state.formations["d"]
    # Out between the wings, not back past either of them.
    assert d.pos.r != C.r and distance(d.pos, FAR_WEST) > 2 and distance(d.pos, FAR_EAST) > 2
    assert FAR_WEST.q < d.pos.q + d.pos.r / 2 + 0.5 and d.pos.q + d.pos.r / 2 - 0.5 < FAR_EAST.q
    lost = 5000 * herding.HEMMED_STRAGGLERS // 100
    assert fled.stragglers == lost and d.men == 5000 - lost
    assert SoulsReleased(at=C, count=lost) in events
    assert eng.state.field_souls[C.key()]["b"] == lost
    conserved(eng)


def test_a_rout_chased_from_one_side_runs_whole(small_engine: EngineFactory) -> None:
    eng = _rout_between(small_engine, [FAR_WEST])
    fled = next(e for e in eng.apply(EndTurn()) if isinstance(e, Fled))
    assert fled.stragglers == 0 and eng.state.formations["d"].men == 5000
    assert not eng.state.field_souls
    conserved(eng)


def _bagging(small_engine: EngineFactory, second_flank: bool) -> Engine:
    units = [Unit("r", "a", "retainer", 1000, Hex(3, 3)), Unit("d", "b", "soul_levy", 5000, C)]
    if second_flank:
        units.append(Unit("h", "a", "han_soldier", 1000, Hex(5, 3)))
    eng = small_engine(OPEN, units)
    eng.state.formations["d"].routed = True
    return eng


def test_a_hemmed_rout_is_bagged_twice_as_fast(small_engine: EngineFactory) -> None:
    capacity = int(1000 * 3.0)  # a thousand retainers
    alone = _bagging(small_engine, second_flank=False)
    cap = next(e for e in alone.apply(Capture(unit="r")) if isinstance(e, SoulsCaptured))
    assert cap.count == capacity and alone.state.formations["d"].men == 5000 - capacity
    conserved(alone)

    herded = _bagging(small_engine, second_flank=True)
    from game.core.souls import capture_forecast

    f = herded.state.formations["r"]
    assert capture_forecast(herded.state, herded.rules, f) == 5000
    cap = next(e for e in herded.apply(Capture(unit="r")) if isinstance(e, SoulsCaptured))
    assert cap.count == 5000 and cap.bagged_units == ("d",) and "d" not in herded.state.formations
    assert herded.state.side("a").pouch == 5000
    conserved(herded)


@pytest.mark.usefixtures("english")
def test_the_capture_tooltip_tells_a_hemmed_bag_past_the_capacity_as_it_is(small_engine: EngineFactory) -> None:
    from game.core.souls import capture_preview
    from game.ui.orders import capture_tip

    herded = _bagging(small_engine, second_flank=True)
    f = herded.state.formations["r"]
    assert capture_preview(herded.state, herded.rules, f) == (5000, 5000)
    tip = capture_tip(herded, f)
    assert "bag 5,000 souls now" in tip and "hemmed in on two sides" in tip and "twice the rate" in tip
    alone = _bagging(small_engine, second_flank=False)
    f = alone.state.formations["r"]
    assert capture_preview(alone.state, alone.rules, f) == (3000, 0)
    assert capture_tip(alone, f).startswith("C: bag 3,000 souls now (of 3,000 this formation can carry)")
