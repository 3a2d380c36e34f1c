"""The rules of war: flanks, pincers, charges, rout and rally, missiles and palm
thunder, fatigue and forced march, rest, souls and the pouch, looting and undo."""

from __future__ import annotations

import pytest
from conftest import EngineFactory, Unit, loaded_for, make_scenario

from game.core import combat, morale
from game.core.actions import Action, Attack, Blast, Capture, EndTurn, Fire, Move, Rest
from game.core.engine import MOVE_FATIGUE, REST_FATIGUE, REST_MORALE, Engine, GameSettings, IllegalAction
from game.core.events import Attacked, Fled, Looted, MoraleChanged, Rallied, Routed, SoulsCaptured, SoulsDrifted
from game.core.hexgrid import Hex, distance, neighbours
from game.core.movement import exerts_zoc
from game.core.rules import Ruleset
from game.core.state import state_hash
from game.record.match import Match

OPEN = ["." * 9] * 7
C = Hex(4, 3)  # the middle of OPEN, in axial coordinates
WEST, EAST = Hex(3, 3), Hex(5, 3)


def names(mods: tuple[combat.Modifier, ...]) -> dict[str, int]:
    return {m.name: m.percent for m in mods}


def setup(eng: Engine, a: str, d: str, mode: combat.Mode = "melee") -> combat.CombatSetup:
    st = eng.state
    return combat.setup_attack(st, eng.board, eng.rules, st.formations[a], st.formations[d], mode)


def conserved(eng: Engine) -> None:
    assert eng.state.men_ever() == eng.state.men_accounted()


def refused(eng: Engine, action: Action, reason: str) -> None:
    before = state_hash(eng.state)
    with pytest.raises(IllegalAction) as exc:
        eng.apply(action)
    assert exc.value.reason == reason
    assert state_hash(eng.state) == before


# -- flanks, pincers, charges ----------------------------------------------------------------


def test_each_friend_around_the_defender_adds_a_flank_bonus(small_engine: EngineFactory) -> None:
    alone = small_engine(OPEN, [Unit("a", "a", "han_soldier", 1000, WEST), Unit("d", "b", "soul_levy", 5000, C)])
    assert "Flanking" not in names(setup(alone, "a", "d").modifiers)
    side_hex = Hex(4, 2)  # next to C, not opposite WEST
    flanked = small_engine(
        OPEN,
        [
            Unit("a", "a", "han_soldier", 1000, WEST),
            Unit("d", "b", "soul_levy", 5000, C),
            Unit("f", "a", "han_soldier", 1000, side_hex),
        ],
    )
    s = setup(flanked, "a", "d")
    assert names(s.modifiers)["Flanking"] == combat.FLANK_BONUS
    assert not s.pincer
    assert s.attacker_power > setup(alone, "a", "d").attacker_power


def test_a_friend_on_the_opposite_hex_makes_a_pincer_with_a_morale_shock(small_engine: EngineFactory) -> None:
    units = [Unit("a", "a", "han_soldier", 1000, WEST), Unit("d", "b", "soul_levy", 5000, C)]
    plain = small_engine(OPEN, units)
    pincer = small_engine(OPEN, [*units, Unit("f", "a", "han_soldier", 1000, EAST)])
    s = setup(pincer, "a", "d")
    assert s.pincer and names(s.modifiers)["Pincer"] == combat.PINCER_BONUS
    assert s.shock >= combat.PINCER_SHOCK
    plain.apply(Attack(unit="a", target="d"))
    pincer.apply(Attack(unit="a", target="d"))
    assert pincer.state.formations["d"].morale < plain.state.formations["d"].morale


def test_cavalry_charges_after_two_hexes_of_open_ground(small_engine: EngineFactory) -> None:
    units = [Unit("h", "a", "warrior", 500, Hex(1, 3)), Unit("d", "b", "soul_levy", 5000, C)]
    eng = small_engine(OPEN, units)
    eng.apply(Move(unit="h", to=WEST))  # two hexes east over plain
    s = setup(eng, "h", "d")
    assert s.charge and names(s.modifiers)["Charge"] == combat.CHARGE_BONUS
    short = small_engine(OPEN, [Unit("h", "a", "warrior", 500, Hex(2, 3)), Unit("d", "b", "soul_levy", 5000, C)])
    short.apply(Move(unit="h", to=WEST))  # one hex only
    assert "Charge" not in names(setup(short, "h", "d").modifiers)
    foot = small_engine(OPEN, [Unit("h", "a", "han_soldier", 500, Hex(1, 3)), Unit("d", "b", "soul_levy", 5000, C)])
    foot.apply(Move(unit="h", to=WEST))
    assert "Charge" not in names(setup(foot, "h", "d").modifiers)  # infantry do not charge


def test_forest_breaks_the_charge(small_engine: EngineFactory) -> None:
    grid = [".........", ".........", ".........", "....f....", ".........", ".........", "........."]
    eng = small_engine(grid, [Unit("h", "a", "warrior", 500, Hex(1, 3)), Unit("d", "b", "soul_levy", 5000, C)])
    eng.apply(Move(unit="h", to=WEST))  # ends in the forest hex
    assert eng.board.terrain_at(WEST).id == "forest"
    assert "Charge" not in names(setup(eng, "h", "d").modifiers)


# -- rout, flight, rally ---------------------------------------------------------------------


def _breaking(small_engine: EngineFactory, extra: list[Unit] | None = None) -> Engine:
    eng = small_engine(
        OPEN, [Unit("a", "a", "han_soldier", 3000, WEST), Unit("d", "b", "soul_levy", 3000, C), *(extra or [])]
    )
    eng.state.formations["d"].morale = morale_threshold(eng, "d") + 1
    return eng


def morale_threshold(eng: Engine, unit: str) -> int:
    return eng.rules.units[eng.state.formations[unit].type].rout_threshold


def test_a_formation_below_its_threshold_routs_and_loses_its_zone_of_control(small_engine: EngineFactory) -> None:
    eng = _breaking(small_engine)
    events = eng.apply(Attack(unit="a", target="d"))
    d = eng.state.formations["d"]
    assert Routed(unit="d", side="b") in events and d.routed
    assert not exerts_zoc(d)
    eng.apply(EndTurn())
    # Routed troops do not obey: no attack, no move ordered.
    refused(eng, Attack(unit="d", target="a"), "routed")


def test_no_rout_effect_holds_the_line(small_engine: EngineFactory) -> None:
    eng = _breaking(small_engine)
    eng.state.formations["d"].effects[morale.NO_ROUT] = 99
    eng.apply(Attack(unit="a", target="d"))
    d = eng.state.formations["d"]
    assert not d.routed and d.morale >= morale_threshold(eng, "d")


def test_a_rout_shakes_friends_nearby_but_not_far_away(small_engine: EngineFactory) -> None:
    near, far = Hex(6, 3), Hex(8, 0)
    eng = _breaking(small_engine, [Unit("n", "b", "soul_levy", 3000, near), Unit("x", "b", "soul_levy", 3000, far)])
    before_near, before_far = eng.state.formations["n"].morale, eng.state.formations["x"].morale
    events = eng.apply(Attack(unit="a", target="d"))
    assert MoraleChanged(unit="n", delta=-morale.NEARBY_ROUT_MORALE, reason="Friends routed nearby") in events
    assert eng.state.formations["n"].morale == before_near - morale.NEARBY_ROUT_MORALE
    assert eng.state.formations["x"].morale == before_far


def test_caught_routing_means_no_blow_comes_back_and_heavy_losses(small_engine: EngineFactory) -> None:
    eng = small_engine(OPEN, [Unit("a", "a", "han_soldier", 1000, WEST), Unit("d", "b", "soul_levy", 5000, C)])
    formed = setup(eng, "a", "d")
    eng.state.formations["d"].routed = True
    caught = setup(eng, "a", "d")
    assert formed.retaliation and not caught.retaliation
    assert names(caught.modifiers)["Caught routing"] == combat.ROUTED_BONUS
    assert combat.exchange(caught, 1.0, 1.0)[0] == 0
    assert combat.exchange(caught, 1.0, 1.0)[1] > combat.exchange(formed, 1.0, 1.0)[1]


def test_routed_formations_flee_at_the_start_of_their_turn(small_engine: EngineFactory) -> None:
    eng = small_engine(OPEN, [Unit("a", "a", "han_soldier", 1000, WEST), Unit("d", "b", "soul_levy", 5000, C)])
    eng.state.formations["d"].routed = True
    events = eng.apply(EndTurn())
    fled = [e for e in events if isinstance(e, Fled)]
    assert fled and fled[0].unit == "d"
    assert distance(eng.state.formations["d"].pos, WEST) > 1


def test_routed_formations_rally_away_from_the_enemy(small_engine: EngineFactory) -> None:
    eng = small_engine(
        OPEN, [Unit("a", "a", "han_soldier", 1000, Hex(0, 0)), Unit("d", "b", "soul_levy", 5000, (6, 6))]
    )
    d = eng.state.formations["d"]
    d.routed = True
    d.morale = morale_threshold(eng, "d") - 5
    rallied = False
    for _ in range(6):
        events = eng.apply(EndTurn())  # a's turn ends: b's starts, d rallies a step
        rallied = rallied or any(isinstance(e, Rallied) for e in events)
        eng.apply(EndTurn())
    assert rallied and not eng.state.formations["d"].routed


def test_death_ground_makes_a_trapped_formation_fight_harder(small_engine: EngineFactory) -> None:
    ring = neighbours(C)
    units = [Unit("d", "b", "soul_levy", 2000, C)] + [
        Unit(f"a{i}", "a", "han_soldier", 300, h) for i, h in enumerate(ring)
    ]
    trapped = small_engine(OPEN, units)
    assert names(setup(trapped, "a0", "d").modifiers)["Death ground"] == combat.DEATH_GROUND_BONUS
    open_field = small_engine(OPEN, units[:2])
    assert "Death ground" not in names(setup(open_field, "a0", "d").modifiers)


def test_the_forecast_rout_chance_matches_what_happens(small_engine: EngineFactory) -> None:
    eng = _breaking(small_engine)
    fc = eng.forecast(Attack(unit="a", target="d"))
    assert fc.rout_chance == 100
    sturdy = small_engine(OPEN, [Unit("a", "a", "retainer", 100, WEST), Unit("d", "b", "soul_levy", 9000, C)])
    assert sturdy.forecast(Attack(unit="a", target="d")).rout_chance == 0


# -- missiles and palm thunder ---------------------------------------------------------------


def test_missiles_strike_at_range_without_reply_and_run_out(small_engine: EngineFactory) -> None:
    archer_at, target_at = Hex(2, 3), C  # two hexes apart
    eng = small_engine(
        OPEN,
        [Unit("x", "a", "crossbowman", 1000, archer_at), Unit("d", "b", "soul_levy", 5000, target_at)],
        sides=(("a", "zhenguo", "player"), ("b", "hailing", "enemy")),
    )
    ammo = eng.state.formations["x"].ammo
    assert ammo and distance(archer_at, target_at) == 2
    assert eng.fire_targets("x") == ["d"]
    fc = eng.forecast(Fire(unit="x", target="d"))
    assert not fc.setup.retaliation and fc.attacker_losses == (0, 0, 0)
    events = eng.apply(Fire(unit="x", target="d"))
    shot = events[0]
    assert isinstance(shot, Attacked)
    assert shot.mode == "fire" and shot.attacker_losses == 0 and shot.defender_losses > 0
    assert eng.state.formations["x"].ammo == ammo - 1
    conserved(eng)
    eng.apply(EndTurn())
    eng.apply(EndTurn())
    eng.state.formations["x"].ammo = 0
    refused(eng, Fire(unit="x", target="d"), "no_ammo")


def test_fire_out_of_range_is_refused(small_engine: EngineFactory) -> None:
    eng = small_engine(
        OPEN,
        [Unit("x", "a", "crossbowman", 1000, Hex(0, 3)), Unit("d", "b", "soul_levy", 5000, C)],
        sides=(("a", "zhenguo", "player"), ("b", "hailing", "enemy")),
    )
    refused(eng, Fire(unit="x", target="d"), "out_of_range")
    refused(eng, Blast(unit="x", at=C), "out_of_range")


def test_palm_thunder_hits_a_hex_and_its_neighbours_but_not_friends(small_engine: EngineFactory) -> None:
    eng = small_engine(
        OPEN,
        [
            Unit("x", "a", "crossbowman", 1000, Hex(2, 3)),
            Unit("d1", "b", "soul_levy", 5000, C),
            Unit("d2", "b", "soul_levy", 5000, EAST),
            Unit("far", "b", "soul_levy", 5000, Hex(8, 0)),
            Unit("friend", "a", "crossbowman", 100, Hex(4, 4)),
        ],
        sides=(("a", "zhenguo", "player"), ("b", "hailing", "enemy")),
    )
    charges = eng.state.formations["x"].charges
    events = eng.apply(Blast(unit="x", at=C))
    hit = {e.target for e in events if isinstance(e, Attacked)}
    assert hit == {"d1", "d2"}
    assert eng.state.formations["friend"].men == 100
    assert eng.state.formations["far"].men == 5000
    assert eng.state.formations["x"].charges == charges - 1 and eng.state.formations["x"].acted
    conserved(eng)


def test_palm_thunder_needs_charges_and_a_seen_enemy(small_engine: EngineFactory) -> None:
    eng = small_engine(
        OPEN,
        [Unit("x", "a", "crossbowman", 1000, Hex(2, 3)), Unit("d", "b", "soul_levy", 5000, (8, 6))],
        sides=(("a", "zhenguo", "player"), ("b", "hailing", "enemy")),
    )
    refused(eng, Blast(unit="x", at=C), "no_target")
    eng.state.formations["x"].charges = 0
    refused(eng, Blast(unit="x", at=C), "no_charges")
    han = small_engine(OPEN, [Unit("x", "a", "han_soldier", 1000, WEST), Unit("d", "b", "soul_levy", 5000, C)])
    refused(han, Blast(unit="x", at=C), "no_area_weapon")


# -- fatigue, forced march, rest -------------------------------------------------------------


def test_forced_march_goes_further_and_tires_retainers_twice_as_much(small_engine: EngineFactory) -> None:
    wide = ["." * 16] * 3
    units = [
        Unit("r", "a", "retainer", 500, Hex(0, 1)),
        Unit("h", "a", "han_soldier", 500, Hex(0, 0)),
        Unit("e", "b", "soul_levy", 10, (15, 2)),
    ]
    eng = small_engine(wide, units)
    normal = eng.moves("r").destinations
    forced = eng.moves("r", forced=True).destinations
    far = max(forced, key=lambda h: distance(h, Hex(0, 1)))
    assert far not in normal
    refused(eng, Move(unit="r", to=far), "unreachable")
    eng.apply(Move(unit="r", to=far, forced=True))
    far_h = max(eng.moves("h", forced=True).destinations, key=lambda h: distance(h, Hex(0, 0)))
    eng.apply(Move(unit="h", to=far_h, forced=True))
    r, h = eng.state.formations["r"], eng.state.formations["h"]
    assert r.forced and r.fatigue == 2 * h.fatigue > 0
    tired = small_engine(wide, units)
    tired.state.formations["r"].fatigue = 90
    refused(tired, Move(unit="r", to=far, forced=True), "too_tired")


def test_fatigue_weakens_combat(small_engine: EngineFactory) -> None:
    eng = small_engine(OPEN, [Unit("a", "a", "han_soldier", 1000, WEST), Unit("d", "b", "soul_levy", 5000, C)])
    fresh = setup(eng, "a", "d").attacker_power
    eng.state.formations["a"].fatigue = 60
    s = setup(eng, "a", "d")
    assert names(s.modifiers)["Fatigue"] == -30 and s.attacker_power < fresh


def test_rest_recovers_fatigue_and_morale_but_not_after_moving(small_engine: EngineFactory) -> None:
    eng = small_engine(
        OPEN,
        [
            Unit("a", "a", "han_soldier", 1000, Hex(0, 0)),
            Unit("b1", "a", "han_soldier", 1000, Hex(0, 6)),
            Unit("d", "b", "soul_levy", 5000, (8, 3)),
        ],
    )
    a = eng.state.formations["a"]
    a.fatigue, a.morale = 50, 60
    eng.apply(Rest(unit="a"))
    assert a.fatigue == 50 - REST_FATIGUE and a.morale == 60 + REST_MORALE and a.acted
    eng.apply(Move(unit="b1", to=Hex(1, 6)))
    refused(eng, Rest(unit="b1"), "already_moved")
    assert eng.state.formations["b1"].fatigue == MOVE_FATIGUE


# -- souls and the pouch ---------------------------------------------------------------------


def test_capture_bags_enemy_souls_around_the_unit_up_to_its_capacity(small_engine: EngineFactory) -> None:
    eng = small_engine(OPEN, [Unit("r", "a", "retainer", 1000, C), Unit("e", "b", "soul_levy", 100, (8, 6))])
    st = eng.state
    # Souls of the enemy around, our own dead on the hex, and souls beyond reach.
    st.field_souls = {WEST.key(): {"b": 500}, C.key(): {"a": 300, "b": 200}, Hex(0, 0).key(): {"b": 400}}
    st.faded_souls = 0
    st.sides[0].men_start += 300
    st.sides[1].men_start += 1100
    conserved(eng)
    events = eng.apply(Capture(unit="r"))
    cap = next(e for e in events if isinstance(e, SoulsCaptured))
    assert cap.count == 700 and st.side("a").pouch == 700
    assert st.field_souls == {C.key(): {"a": 300}, Hex(0, 0).key(): {"b": 400}}
    conserved(eng)
    eng.apply(EndTurn())
    eng.apply(EndTurn())
    refused(eng, Capture(unit="r"), "no_souls")


def test_capture_capacity_is_men_times_rate(small_engine: EngineFactory) -> None:
    eng = small_engine(OPEN, [Unit("h", "a", "han_soldier", 1000, C), Unit("e", "b", "soul_levy", 100, (8, 6))])
    eng.state.field_souls = {WEST.key(): {"b": 5000}}
    eng.state.sides[1].men_start += 5000
    eng.apply(Capture(unit="h"))
    rate = eng.rules.units["han_soldier"].capture_rate
    assert eng.state.side("a").pouch == int(1000 * rate)
    conserved(eng)


def test_a_routed_soul_formation_next_to_capturers_is_bagged_whole(small_engine: EngineFactory) -> None:
    eng = small_engine(
        OPEN,
        [
            Unit("r", "a", "retainer", 1000, WEST),
            Unit("d", "b", "soul_levy", 900, C),
            Unit("e", "b", "soul_levy", 10, (8, 6)),
        ],
    )
    refused(eng, Capture(unit="r"), "no_souls")  # formed troops are not souls for the taking
    eng.state.formations["d"].routed = True
    events = eng.apply(Capture(unit="r"))
    cap = next(e for e in events if isinstance(e, SoulsCaptured))
    assert cap.bagged_units == ("d",) and "d" not in eng.state.formations
    assert eng.state.side("a").pouch == 900
    conserved(eng)


def test_hailing_souls_drift_back_and_others_fade(small_engine: EngineFactory) -> None:
    eng = small_engine(
        OPEN, [Unit("a", "a", "han_soldier", 1000, Hex(0, 0)), Unit("h", "b", "soul_levy", 1000, C, max_men=5000)]
    )
    st = eng.state
    st.field_souls = {EAST.key(): {"b": 300, "a": 400}}
    st.sides[0].men_start += 400
    st.sides[1].men_start += 300
    events = eng.apply(EndTurn())  # hailing's turn starts: its dead come back
    drift = [e for e in events if isinstance(e, SoulsDrifted)]
    assert drift == [SoulsDrifted(at=EAST, count=100, into="h")]
    assert st.formations["h"].men == 1100
    conserved(eng)
    events = eng.apply(EndTurn())  # coalition's turn: its dead are not called back, they fade
    assert SoulsDrifted(at=EAST, count=100, into=None) in events
    assert st.faded_souls == 100
    conserved(eng)


# -- looting ---------------------------------------------------------------------------------


def test_undisciplined_troops_stop_to_loot_but_yue_feis_men_do_not(small_engine: EngineFactory) -> None:
    for faction, loots in (("hailing", True), ("zhenguo", False)):
        eng = small_engine(
            OPEN,
            [
                Unit("p", "a", "soul_levy" if loots else "zhenguo_rider", 100, Hex(0, 3)),
                Unit("e", "b", "jurchen_horse", 10, Hex(8, 0)),
            ],
            sides=(("a", faction, "player"), ("b", "jin", "enemy")),
        )
        eng.state.baggage = {Hex(1, 3).key(): 1}
        events = eng.apply(Move(unit="p", to=Hex(1, 3)))
        assert any(isinstance(e, Looted) for e in events) == loots
        assert eng.state.formations["p"].acted == loots
        assert (Hex(1, 3).key() in eng.state.baggage) != loots


# -- undo ------------------------------------------------------------------------------------


def test_a_plain_move_can_be_undone_but_not_an_attack(rules: Ruleset) -> None:
    scenario = make_scenario(
        rules,
        OPEN,
        [
            Unit("a", "a", "han_soldier", 1000, Hex(0, 0)),
            Unit("b1", "a", "han_soldier", 1000, WEST),
            Unit("d", "b", "soul_levy", 5000, C),
        ],
    )
    match = Match(loaded_for(scenario), seed=3, settings=GameSettings())
    start = state_hash(match.state)
    match.apply(Move(unit="a", to=Hex(1, 0)))
    assert match.can_undo()
    assert match.undo()
    assert state_hash(match.state) == start and match.record.actions == []
    assert not match.can_undo()
    match.apply(Move(unit="a", to=Hex(1, 0)))
    match.apply(Attack(unit="b1", target="d"))
    assert not match.can_undo()  # the dice were rolled: nothing before it can be taken back


def test_the_forecast_counts_yue_feis_officer_kills_in_the_rout_chance(small_engine: EngineFactory) -> None:
    sides = (("a", "zhenguo", "player"), ("b", "jin", "enemy"))
    units = [Unit("d", "b", "jurchen_veteran", 5000, C)]
    plain = small_engine(OPEN, [Unit("a", "a", "zhenguo_rider", 10, WEST), *units], sides=sides)
    yue = small_engine(OPEN, [Unit("a", "a", "zhenguo_rider", 10, WEST, hero="yue_fei"), *units], sides=sides)
    for eng in (plain, yue):
        eng.state.formations["d"].morale = morale_threshold(eng, "d") + 2
    assert plain.forecast(Attack(unit="a", target="d")).rout_chance == 0
    assert yue.forecast(Attack(unit="a", target="d")).rout_chance == 100
    events = yue.apply(Attack(unit="a", target="d"))
    assert Routed(unit="d", side="b") in events  # what the forecast promised
    events = plain.apply(Attack(unit="a", target="d"))
    assert Routed(unit="d", side="b") not in events


def test_the_capture_forecast_is_what_a_capture_bags(small_engine: EngineFactory) -> None:
    """The orders bar's promise before a capture: the count the capture then puts in the pouch,
    below the formation's capacity and above it."""
    from game.core.actions import Capture
    from game.core.souls import add_souls, capture_capacity, capture_forecast

    units = [Unit("a_ret", "a", "retainer", 2000, (2, 2)), Unit("b_far", "b", "soul_levy", 500, (7, 5))]
    for souls_here in (1, 120, 40_000):
        eng = small_engine(("........",) * 6, units)
        f = eng.state.formations["a_ret"]
        add_souls(eng.state, f.pos, "b", souls_here)
        expected = capture_forecast(eng.state, eng.rules, f)
        assert expected == min(souls_here, capture_capacity(eng.rules, f))
        before = eng.state.side("a").pouch
        eng.apply(Capture(unit="a_ret"))
        assert eng.state.side("a").pouch - before == expected
