"""Melee combat: casualty formula, modifiers, the forecast, and resolution with the dice."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from conftest import EngineFactory, Unit
from hypothesis import given
from hypothesis import strategies as st

from game.core import combat
from game.core.actions import Attack, Move
from game.core.engine import Engine, IllegalAction
from game.core.events import Attacked, Destroyed, SoulsReleased
from game.core.hexgrid import Hex
from game.core.morale import VICTORY_MORALE
from game.core.rng import Rng
from game.core.rules import Ruleset

A = Hex(1, 1)  # offset (1, 1)
B = Hex(2, 1)  # offset (2, 1): east of A


def duel(
    small_engine: EngineFactory,
    att: str,
    att_men: int,
    dfd: str,
    def_men: int,
    *,
    att_terrain: str = ".",
    def_terrain: str = ".",
    att_hero: str | None = None,
    def_hero: str | None = None,
    seed: int = 7,
) -> Engine:
    """Two formations side by side on a 4 x 3 plain, the attacker's side to move."""
    grid = ["....", "." + att_terrain + def_terrain + ".", "...."]
    return small_engine(
        grid,
        [
            Unit("att", "a", att, att_men, A, hero=att_hero),
            Unit("def", "b", dfd, def_men, B, hero=def_hero),
        ],
        seed=seed,
    )


def setup_of(engine: Engine) -> combat.CombatSetup:
    s = engine.state
    return combat.setup_attack(s, engine.board, engine.rules, s.formations["att"], s.formations["def"])


def test_casualties_follow_the_formula(small_engine: EngineFactory) -> None:
    eng = duel(small_engine, "han_soldier", 1000, "soul_levy", 5000)
    setup = setup_of(eng)
    assert setup.modifiers == ()
    assert setup.retaliation
    # 0.06 x 1000 men x 10 power / 1 toughness = 600; the 4,400 survivors strike back with
    # 3,000 + 1,400/4 engaged men x 1 power / 3 toughness x 0.06 = 67.
    assert combat.exchange(setup, 1.0, 1.0) == (67, 600)
    # The rolls scale each side's blows.
    att_losses, def_losses = combat.exchange(setup, 1.2, 0.8)
    assert def_losses == 720
    assert att_losses == round(0.06 * (3000 + (5000 - 720 - 3000) * 0.25) * 0.8 / 3.0)


def test_frontage_limits_how_many_men_fight() -> None:
    assert combat.engaged_men(0) == 0
    assert combat.engaged_men(combat.FRONTAGE) == combat.FRONTAGE
    assert combat.engaged_men(7000) == 3000 + 4000 * 0.25
    # More men always help, but with diminishing returns.
    assert combat.engaged_men(20000) > combat.engaged_men(10000) > combat.engaged_men(5000)
    assert combat.engaged_men(20000) < 2 * combat.engaged_men(10000)


def test_elite_is_an_order_of_magnitude_better_than_levy(small_engine: EngineFactory) -> None:
    elite = setup_of(duel(small_engine, "han_soldier", 1000, "soul_levy", 1000))
    levy = setup_of(duel(small_engine, "soul_levy", 1000, "han_soldier", 1000))
    _, by_elite = combat.exchange(elite, 1.0, 1.0)
    _, by_levy = combat.exchange(levy, 1.0, 1.0)
    assert by_elite >= 10 * by_levy


def test_terrain_defence_protects_the_defender(small_engine: EngineFactory) -> None:
    plain = setup_of(duel(small_engine, "han_soldier", 1000, "soul_levy", 5000))
    forest = setup_of(duel(small_engine, "han_soldier", 1000, "soul_levy", 5000, def_terrain="f"))
    road = setup_of(duel(small_engine, "han_soldier", 1000, "soul_levy", 5000, def_terrain="="))
    assert list(forest.modifiers) == [combat.Modifier("Terrain", 25, "defender", "defence")]
    assert list(road.modifiers) == [combat.Modifier("Terrain", -10, "defender", "defence")]
    assert forest.defender_toughness == pytest.approx(1.25)
    _, on_plain = combat.exchange(plain, 1.0, 1.0)
    _, in_forest = combat.exchange(forest, 1.0, 1.0)
    _, on_road = combat.exchange(road, 1.0, 1.0)
    assert in_forest == 480 < on_plain < on_road


def test_attacker_terrain_affects_the_blows_it_takes_back(small_engine: EngineFactory) -> None:
    plain = setup_of(duel(small_engine, "han_soldier", 1000, "soul_levy", 5000))
    hills = setup_of(duel(small_engine, "han_soldier", 1000, "soul_levy", 5000, att_terrain="h"))
    assert combat.Modifier("Terrain", 30, "attacker", "defence") in hills.modifiers
    assert combat.exchange(hills, 1.0, 1.0)[0] < combat.exchange(plain, 1.0, 1.0)[0]
    assert combat.exchange(hills, 1.0, 1.0)[1] == combat.exchange(plain, 1.0, 1.0)[1]


def test_hero_leadership_adds_power(small_engine: EngineFactory) -> None:
    led = setup_of(duel(small_engine, "han_soldier", 1000, "soul_levy", 5000, att_hero="han_xin"))
    assert combat.Modifier("Leadership", 30, "attacker", "power") in led.modifiers
    assert combat.exchange(led, 1.0, 1.0)[1] == 780  # 600 x 1.3
    opposed = setup_of(duel(small_engine, "han_soldier", 1000, "soul_levy", 5000, def_hero="wanyan_liang"))
    assert combat.Modifier("Leadership", 20, "defender", "power") in opposed.modifiers
    assert (
        combat.exchange(opposed, 1.0, 1.0)[0]
        > combat.exchange(setup_of(duel(small_engine, "han_soldier", 1000, "soul_levy", 5000)), 1.0, 1.0)[0]
    )


def test_a_destroyed_defender_cannot_strike_back(small_engine: EngineFactory) -> None:
    setup = setup_of(duel(small_engine, "han_soldier", 1000, "soul_levy", 100))
    assert combat.exchange(setup, 0.8, 1.2) == (0, 100)  # losses are capped at the men present
    fc = combat.forecast_from(setup)
    assert fc.destroys_defender
    assert fc.attacker_losses == (0, 0, 0)


def test_losses_never_exceed_the_men_present(small_engine: EngineFactory) -> None:
    setup = setup_of(duel(small_engine, "retainer", 10, "han_soldier", 3000))
    att_losses, def_losses = combat.exchange(setup, 1.2, 1.2)
    assert att_losses == 10
    assert 0 <= def_losses <= 3000


def test_forecast_gives_the_range_and_the_expectation(small_engine: EngineFactory) -> None:
    setup = setup_of(duel(small_engine, "han_soldier", 1000, "soul_levy", 5000, def_terrain="f"))
    fc = combat.forecast_from(setup)
    mid = (combat.ROLL_LOW + combat.ROLL_HIGH) / 2
    assert fc.defender_losses == (
        combat.exchange(setup, combat.ROLL_LOW, combat.ROLL_HIGH)[1],
        combat.exchange(setup, mid, mid)[1],
        combat.exchange(setup, combat.ROLL_HIGH, combat.ROLL_LOW)[1],
    )
    assert fc.attacker_losses == (
        combat.exchange(setup, combat.ROLL_HIGH, combat.ROLL_LOW)[0],
        combat.exchange(setup, mid, mid)[0],
        combat.exchange(setup, combat.ROLL_LOW, combat.ROLL_HIGH)[0],
    )
    assert fc.modifiers == setup.modifiers
    assert not fc.destroys_defender


# -- properties over random match-ups ------------------------------------------------------

UNIT_TYPES = ("han_soldier", "warrior", "divine_blade", "retainer", "soul_levy", "soul_rider", "ambush_host")
HEROES = (None, "han_xin", "xiang_yu", "wanyan_liang")
GROUND = ".fh=~xVMd"


@dataclass(frozen=True)
class Matchup:
    att: str
    att_men: int
    dfd: str
    def_men: int
    att_terrain: str
    def_terrain: str
    att_hero: str | None
    def_hero: str | None


matchups = st.builds(
    Matchup,
    att=st.sampled_from(UNIT_TYPES[:4]),
    att_men=st.integers(1, 30000),
    dfd=st.sampled_from(UNIT_TYPES[4:]),
    def_men=st.integers(1, 60000),
    att_terrain=st.sampled_from(GROUND),
    def_terrain=st.sampled_from(GROUND),
    att_hero=st.sampled_from(HEROES[:3]),
    def_hero=st.sampled_from((None, "wanyan_liang")),
)


def _engine(small_engine: EngineFactory, m: Matchup, seed: int = 7) -> Engine:
    return duel(
        small_engine,
        m.att,
        m.att_men,
        m.dfd,
        m.def_men,
        att_terrain=m.att_terrain,
        def_terrain=m.def_terrain,
        att_hero=m.att_hero,
        def_hero=m.def_hero,
        seed=seed,
    )


@given(
    matchups,
    st.floats(combat.ROLL_LOW, combat.ROLL_HIGH),
    st.floats(combat.ROLL_LOW, combat.ROLL_HIGH),
)
def test_any_roll_lands_inside_the_forecast_range(
    small_engine: EngineFactory, m: Matchup, r1: float, r2: float
) -> None:
    setup = setup_of(_engine(small_engine, m))
    fc = combat.forecast_from(setup)
    lo_d, exp_d, hi_d = fc.defender_losses
    lo_a, exp_a, hi_a = fc.attacker_losses
    assert 0 <= lo_d <= exp_d <= hi_d <= setup.defender_men
    assert 0 <= lo_a <= exp_a <= hi_a <= setup.attacker_men
    att_losses, def_losses = combat.exchange(setup, r1, r2)
    assert lo_d <= def_losses <= hi_d
    assert lo_a <= att_losses <= hi_a


@given(matchups, st.integers(0, (1 << 63) - 1))
def test_engine_resolves_attacks_with_the_forecast_code(small_engine: EngineFactory, m: Matchup, seed: int) -> None:
    """What the player is shown is what can happen: resolution is exchange() with RNG rolls."""
    eng = _engine(small_engine, m, seed)
    action = Attack(unit="att", target="def")
    fc = eng.forecast(action)
    setup = setup_of(eng)
    assert fc == combat.forecast_from(setup)
    rng = Rng(seed, eng.state.action_index)
    r1 = rng.uniform(combat.ROLL_LOW, combat.ROLL_HIGH)
    r2 = rng.uniform(combat.ROLL_LOW, combat.ROLL_HIGH)
    expected_att, expected_def = combat.exchange(setup, r1, r2)
    events = eng.apply(action)
    hit = next(e for e in events if isinstance(e, Attacked))
    assert (hit.attacker_losses, hit.defender_losses) == (expected_att, expected_def)
    assert fc.defender_losses[0] <= hit.defender_losses <= fc.defender_losses[2]
    assert fc.attacker_losses[0] <= hit.attacker_losses <= fc.attacker_losses[2]
    # The men lost are exactly the men missing and the souls released.
    released = sum(e.count for e in events if isinstance(e, SoulsReleased))
    assert released == expected_att + expected_def == eng.state.souls_on_field()
    destroyed = {e.unit for e in events if isinstance(e, Destroyed)}
    for fid, start, lost in (("att", m.att_men, expected_att), ("def", m.def_men, expected_def)):
        if lost >= start:
            assert fid in destroyed and fid not in eng.state.formations
        else:
            assert eng.state.formations[fid].men == start - lost


def test_same_seed_same_result_other_seed_other_rolls(small_engine: EngineFactory) -> None:
    results = set()
    for seed in range(12):
        eng = duel(small_engine, "han_soldier", 1000, "soul_levy", 5000, seed=seed)
        again = duel(small_engine, "han_soldier", 1000, "soul_levy", 5000, seed=seed)
        a = eng.apply(Attack(unit="att", target="def"))
        b = again.apply(Attack(unit="att", target="def"))
        assert a == b
        results.add(next(e.defender_losses for e in a if isinstance(e, Attacked)))
    assert len(results) > 4  # the dice really vary between seeds


def test_the_rng_stream_is_the_action_index(small_engine: EngineFactory) -> None:
    """The same attack after a move draws different dice: the stream is the action's index."""
    grid = [".....", ".....", "....."]
    units = [Unit("att", "a", "han_soldier", 1000, A), Unit("def", "b", "soul_levy", 5000, B)]
    units_mover = [*units, Unit("m", "a", "han_soldier", 10, (4, 2))]
    direct = small_engine(grid, units, seed=3)
    after_move = small_engine(grid, units_mover, seed=3)
    after_move.apply(Move(unit="m", to=after_move.board.at_offset(4, 1)))  # out of the fight: no flank
    assert after_move.state.action_index == 1
    setup = setup_of(direct)
    a = direct.apply(Attack(unit="att", target="def"))[0]
    b = after_move.apply(Attack(unit="att", target="def"))[0]
    rng0, rng1 = Rng(3, 0), Rng(3, 1)
    r0 = (rng0.uniform(0.8, 1.2), rng0.uniform(0.8, 1.2))
    r1 = (rng1.uniform(0.8, 1.2), rng1.uniform(0.8, 1.2))
    assert isinstance(a, Attacked) and isinstance(b, Attacked)
    assert (a.attacker_losses, a.defender_losses) == combat.exchange(setup, *r0)
    assert (b.attacker_losses, b.defender_losses) == combat.exchange(setup, *r1)


def test_forecast_of_an_illegal_attack_is_refused(small_engine: EngineFactory, rules: Ruleset) -> None:
    grid = [".....", ".....", "....."]
    eng = small_engine(grid, [Unit("att", "a", "han_soldier", 10, (0, 0)), Unit("def", "b", "soul_levy", 10, (4, 2))])
    with pytest.raises(IllegalAction) as exc:
        eng.forecast(Attack(unit="att", target="def"))
    assert exc.value.reason == "not_adjacent"


def _rout_chance_counted(setup: combat.CombatSetup) -> int:
    """``rout_chance`` as the rule reads: every sampled roll tried and the breaking ones counted."""
    if setup.defender_morale_margin < 0:
        return 100
    breaks = 0
    for i in range(combat.ROUT_SAMPLES):
        roll = combat.ROLL_LOW + (combat.ROLL_HIGH - combat.ROLL_LOW) * (i + 0.5) / combat.ROUT_SAMPLES
        taken, lost = combat.exchange(setup, roll, 1.0)
        morale_lost = combat.defender_morale_loss(setup, lost) + setup.skill_shock
        if taken > lost:
            morale_lost -= VICTORY_MORALE
        if lost >= setup.defender_men or morale_lost > setup.defender_morale_margin:
            breaks += 1
    return round(100 * breaks / combat.ROUT_SAMPLES)


@given(
    st.integers(1, 12000),
    st.integers(1, 12000),
    st.floats(0.1, 40.0),
    st.floats(0.1, 40.0),
    st.floats(0.1, 10.0),
    st.floats(0.1, 10.0),
    st.booleans(),
    st.integers(0, 40),
    st.integers(-5, 100),
    st.integers(1, 12000),
    st.integers(0, 30),
)
def test_rout_chance_found_by_halving_counts_every_roll(
    att_men: int,
    def_men: int,
    att_power: float,
    def_power: float,
    att_tough: float,
    def_tough: float,
    retaliation: bool,
    shock: int,
    margin: int,
    men_for_morale: int,
    skill_shock: int,
) -> None:
    setup = combat.CombatSetup(
        attacker="a",
        defender="d",
        attacker_men=att_men,
        defender_men=def_men,
        attacker_power=att_power,
        defender_power=def_power,
        attacker_toughness=att_tough,
        defender_toughness=def_tough,
        retaliation=retaliation,
        modifiers=(),
        shock=shock,
        defender_morale_margin=margin,
        defender_men_for_morale=men_for_morale,
        skill_shock=skill_shock,
    )
    assert combat.rout_chance(setup) == _rout_chance_counted(setup)
