"""Han Xin's lane (friends step aside, the five thousand charge through), Su Lin's sally (the
enemy stands where it is through its next turn) and the tally of souls struck down."""

from __future__ import annotations

import pytest

from game.ai.general import General
from game.content.ruleset import load_ruleset
from game.content.scenarios import load_scenario
from game.core import skill_marks, skills, tallies, triggers
from game.core.actions import Attack, EndTurn, Move, UseSkill
from game.core.engine import Engine, IllegalAction
from game.core.events import Attacked, Moved, Narration, SkillUsed
from game.core.hexgrid import Hex, neighbours
from game.core.state import copy_state

A3 = "a3_besiege_wei"
LANE = UseSkill(unit="han_xin_5000", skill="open_the_lane", target="host_levy_1")


def new_engine(seed: int = 1) -> Engine:
    return Engine(load_scenario(A3).scenario, load_ruleset(), seed)


def at(eng: Engine, col: int, row: int) -> Hex:
    return eng.board.at_offset(col, row)


def lined_up(eng: Engine) -> None:
    """The host at the line, Huan Xuan's spirits standing in it between the enemy and Han Xin."""
    fs = eng.state.formations
    fs["host_levy_1"].pos = at(eng, 44, 15)
    fs["huan_xuan_650"].pos = at(eng, 47, 15)


def test_the_line_steps_aside_and_the_five_thousand_charge_through() -> None:
    eng = new_engine()
    lined_up(eng)
    fs = eng.state.formations
    han, huan = fs["han_xin_5000"], fs["huan_xuan_650"]
    assert LANE in skills.legal_uses(eng, han.id)
    forecast = skills.lane_forecast(eng, han, LANE)
    assert forecast is not None and "Charge" in [m.name for m in forecast.modifiers]
    events = eng.apply(LANE)
    used = next(e for e in events if isinstance(e, SkillUsed))
    assert used.affected == ("huan_xuan_650",)
    # The spirits stepped off the line, still facing the enemy; Han Xin ran down the lane to
    # the hex next to the host and struck it there.
    lane = [at(eng, c, 15) for c in (46, 47, 48, 49)]
    assert huan.pos not in lane and eng.board.offset(huan.pos) == (47, 16)
    assert eng.board.offset(han.pos) == (45, 15)
    moves = [e.unit for e in events if isinstance(e, Moved)]
    assert moves == ["huan_xuan_650", "han_xin_5000"]
    blow = next(e for e in events if isinstance(e, Attacked))
    assert blow.unit == han.id and blow.target == "host_levy_1" and blow.mode == "melee"
    low, _mid, high = forecast.defender_losses
    assert low <= blow.defender_losses <= high  # the preview told the truth
    assert han.acted and han.moved and han.id in eng.state.formations
    assert han.cooldowns["open_the_lane"] > 0


def test_the_lane_charge_hits_harder_than_walking_up_and_striking() -> None:
    charged = new_engine()
    lined_up(charged)
    forecast = skills.lane_forecast(charged, charged.state.formations["han_xin_5000"], LANE)
    assert forecast is not None
    walked = new_engine()
    lined_up(walked)
    walked.state.formations["huan_xuan_650"].pos = at(walked, 47, 16)
    walked.apply(Move(unit="han_xin_5000", to=at(walked, 45, 15), forced=True))
    plain = walked.forecast(Attack(unit="han_xin_5000", target="host_levy_1"))
    assert forecast.defender_losses[1] > plain.defender_losses[1]


def test_no_lane_through_an_enemy_or_beyond_a_forced_march() -> None:
    eng = new_engine()
    lined_up(eng)
    eng.state.formations["huan_xuan_650"].pos = at(eng, 47, 16)
    eng.state.formations["host_levy_2"].pos = at(eng, 47, 15)  # an enemy stands in the lane
    with pytest.raises(IllegalAction) as blocked:
        eng.apply(LANE)
    assert blocked.value.reason == "lane_blocked"
    far = new_engine()
    far.state.formations["host_levy_1"].pos = at(far, 42, 15)
    assert all(u.target != "host_levy_1" for u in skills.legal_uses(far, "han_xin_5000"))


def test_su_lins_sally_halts_the_enemy_through_its_next_turn() -> None:
    eng = new_engine()
    fs = eng.state.formations
    blades, ambush = fs["du_xuan_20"], fs["host_levy_1"]
    blades.pos, ambush.pos = at(eng, 45, 16), at(eng, 44, 16)
    ambush.morale = 55  # steady: the sally shakes it without breaking it
    sally = UseSkill(unit="du_xuan_20", skill="blades_sally", target="host_levy_1")
    assert sally in skills.legal_uses(eng, blades.id)
    morale = ambush.morale
    events = eng.apply(sally)
    assert any(isinstance(e, SkillUsed) and e.affected == ("host_levy_1",) for e in events)
    assert ambush.morale < morale and blades.acted
    assert skill_marks.HALTED in ambush.effects
    eng.apply(EndTurn())  # the Hailing turn: it may strike, but not move
    assert eng.state.active_side.id == "hailing" and not eng.can_move(ambush)
    with pytest.raises(IllegalAction) as halted:
        eng.apply(Move(unit="host_levy_1", to=at(eng, 42, 16)))
    assert halted.value.reason == "halted"
    assert not ambush.routed and "du_xuan_20" in eng.attack_targets("host_levy_1")
    eng.apply(EndTurn())
    eng.apply(EndTurn())  # its next turn: it marches again
    assert eng.state.active_side.id == "hailing" and skill_marks.HALTED not in ambush.effects
    assert eng.can_move(ambush)


def test_the_blades_sally_is_su_lins_and_the_bands() -> None:
    rules = load_ruleset()
    assert "blades_sally" in rules.heroes["su_lin"].skills
    eng = new_engine()
    owned = [s.id for s in skill_marks.formation_skills(rules, eng.state.formations["du_xuan_20"])]
    assert "blades_sally" in owned
    assert all(
        "blades_sally" not in [s.id for s in skill_marks.formation_skills(rules, f)]
        for f in eng.state.formations.values()
        if f.type != "divine_blade"
    )


def behind_the_line(eng: Engine, levy_at: Hex) -> None:
    """The five thousand on their post behind the line, Huan Xuan's spirits in the line before
    them, and a levy of the host at ``levy_at`` as the coalition's turn begins."""
    fs = eng.state.formations
    assert Hex(q=40, r=15) in eng.board.regions["behind_the_line"]
    assert Hex(q=37, r=15) in eng.board.regions["the_line"]
    fs["han_xin_5000"].pos = Hex(q=40, r=15)
    fs["huan_xuan_650"].pos = Hex(q=37, r=15)
    fs["host_levy_1"].pos = levy_at


def coalition_turn(eng: Engine) -> list[object]:
    """Every action the computer takes in the coalition's turn."""
    general = General(eng, "coalition")
    seen: list[object] = []
    for _ in range(60):
        action = general.next_action()
        seen.append(action)
        if isinstance(action, EndTurn):
            break
        eng.apply(action)
    return seen


def lanes(actions: list[object]) -> list[UseSkill]:
    return [a for a in actions if isinstance(a, UseSkill) and a.skill == "open_the_lane"]


def test_the_five_thousand_charge_once_the_host_leans_on_the_line() -> None:
    """Han Xin gives the word when the host has thrown itself against the line: a levy standing
    against Huan Xuan's spirits as the turn begins is charged down the lane."""
    eng = new_engine()
    behind_the_line(eng, Hex(q=36, r=15))
    assert "lane_opened" not in eng.state.fired_events
    assert lanes(coalition_turn(eng)) == [LANE]
    assert "lane_opened" in eng.state.fired_events


def test_the_five_thousand_wait_while_the_host_only_stands_near_the_line() -> None:
    """The same levy two hexes off the line, not yet in contact: the charge could be made, but
    the five thousand keep their post and wait for the word."""
    eng = new_engine()
    behind_the_line(eng, Hex(q=35, r=15))
    assert LANE in skills.legal_uses(eng, "han_xin_5000")
    assert lanes(coalition_turn(eng)) == []
    assert "lane_opened" not in eng.state.fired_events


def test_the_computer_uses_the_blades_sally_on_the_strongest_neighbour() -> None:
    eng = new_engine()
    eng.state.formations["du_xuan_20"].pos = at(eng, 53, 13)
    general = General(eng, "coalition")
    seen = []
    for _ in range(6):
        action = general.next_action()
        seen.append(action)
        if isinstance(action, EndTurn):
            break
        eng.apply(action)
    assert UseSkill(unit="du_xuan_20", skill="blades_sally", target="ambush_1") in seen


def test_the_han_soldiers_tally_sits_in_the_annihilation_and_counts_only_han_blows() -> None:
    """The chronicle: once the host broke on the plain, the five thousand set out to outdo the
    retainers' thirty thousand in the pursuit that followed, so the tally is the Annihilation's,
    not the Besieging of Wei's, and only the Han soldiers' own blows count towards it."""
    assert "outdo_retainers" not in {o.id for o in load_scenario("a3_besiege_wei").scenario.objective_specs}
    eng = Engine(load_scenario("a4_annihilation").scenario, load_ruleset(), seed=1)
    scenario, state = eng.scenario, eng.state
    host = ("liang_guard", "host_1", "host_2", "host_3", "host_4", "host_5", "host_6", "riders_1", "riders_2")
    spec = next(o for o in scenario.objective_specs if o.id == "outdo_retainers")
    assert spec.bonus and spec.tally_of == 30_000 and set(spec.tally) == set(host)
    fs = state.formations
    han, xinling = fs["han_xin_5000"], fs["xinling_650"]
    # Lord Xinling's spirits cut down a thousand of the host: not the Han soldiers' blow.
    tallies.credit_blows(scenario, state, xinling, fs["host_1"], 10, 1000)
    assert tallies.tally_men(scenario, state, spec) == 0
    # The five thousand strike down the six levies (no more than each has), and their own dead
    # do not count.
    for unit in host[1:7]:
        tallies.credit_blows(scenario, state, han, fs[unit], 200, 9_000)
    levies = sum(fs[unit].men for unit in host[1:7])
    assert tallies.tally_men(scenario, state, spec) == levies < 30_000
    tallies.credit_blows(scenario, state, han, fs["riders_2"], 200, 30_000 - levies)
    assert tallies.tally_men(scenario, state, spec) == 30_000
    assert not triggers.after_action(eng, []) and state.objectives["outdo_retainers"] == "open"
    # A levy strikes them and is struck back: the counter-blow is a Han blow too.
    tallies.credit_blows(scenario, state, fs["riders_1"], han, 1, 50)
    assert tallies.tally_men(scenario, state, spec) == 30_001
    events = triggers.after_action(eng, [])
    assert state.objectives["outdo_retainers"] == "done"
    assert any(isinstance(e, Narration) and e.speaker == "cao_zhi" for e in events)


def test_a_tally_of_every_loss_counts_whoever_struck() -> None:
    """Without ``tally_by`` a tally counts every man of its formations fallen, as before."""
    eng = Engine(load_scenario("a4_annihilation").scenario, load_ruleset(), seed=1)
    spec = next(o for o in eng.scenario.objective_specs if o.id == "outdo_retainers").model_copy(
        update={"tally_by": ()}
    )
    men = eng.state.formations.pop("host_1").men
    assert men > 0 and tallies.tally_men(eng.scenario, eng.state, spec) == men


def beside(eng: Engine, h: Hex) -> Hex:
    """An empty open hex next to ``h``."""
    return next(
        n
        for n in neighbours(h)
        if n in eng.board and eng.board.move_cost(n, "foot") and eng.state.formation_at(n) is None
    )


def test_other_blows_on_the_host_leave_the_han_tally_and_the_state_hash_alone() -> None:
    """A real blow by Lord Xinling's spirits on the host: the Han tally stays at nothing, and a
    game with no tally counted hashes exactly as games did before tallies were kept."""
    eng = Engine(load_scenario("a4_annihilation").scenario, load_ruleset(), seed=1)
    fs = eng.state.formations
    xinling, levy = fs["xinling_650"], fs["host_1"]
    assert eng.state.active_side.id == "coalition"
    levy.pos = beside(eng, xinling.pos)
    assert "host_1" in eng.attack_targets("xinling_650")
    before = sum(f.men for f in eng.state.formations_of("hailing"))
    eng.apply(Attack(unit="xinling_650", target="host_1"))
    assert sum(f.men for f in eng.state.formations_of("hailing")) < before
    assert eng.state.tallies == {} and "tallies" not in eng.state.model_dump(mode="json")
    spec = next(o for o in eng.scenario.objective_specs if o.id == "outdo_retainers")
    assert triggers.fallen_men(eng.scenario, eng.state, spec.tally) > 0
    assert tallies.tally_men(eng.scenario, eng.state, spec) == 0  # the panel shows no Han feat yet
    han = fs["han_xin_5000"]
    han.pos = beside(eng, levy.pos)
    assert "host_1" in eng.attack_targets("han_xin_5000")
    eng.apply(Attack(unit="han_xin_5000", target="host_1"))
    assert eng.state.tallies["outdo_retainers"] > 0
    assert copy_state(eng.state).tallies == eng.state.tallies


def test_the_lane_order_is_told_when_it_is_given() -> None:
    eng = new_engine()
    lined_up(eng)
    events = eng.apply(LANE)
    assert "lane_opened" in eng.state.fired_events
    told = [e for e in events if isinstance(e, Narration)]
    assert told and told[0].speaker == "han_xin"
    assert events.index(told[0]) > max(i for i, e in enumerate(events) if isinstance(e, SkillUsed))


def test_the_order_button_previews_each_lane_and_the_panel_words_the_tally() -> None:
    from game.ui.hero_orders import lane_preview
    from game.ui.narration import tally_line

    eng = new_engine()
    lined_up(eng)
    han = eng.state.formations["han_xin_5000"]
    lines = lane_preview(eng, han, "open_the_lane")
    toward = [line for line in lines if "1 formation steps aside" in line]
    assert len(toward) == 1
    forecast = skills.lane_forecast(eng, han, LANE)
    assert forecast is not None and f"{forecast.defender_losses[1]:,}" in toward[0]
    assert tally_line(12_345, 30_000) == "Souls struck down: 12,345 of 30,000"
