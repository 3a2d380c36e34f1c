"""Heroes' signature skills: each effect, cooldowns and durations, refusals that change nothing,
the data and its cross-checks, and the AI's use of them."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from conftest import EngineFactory, Unit

from game.ai.basic import BasicAI
from game.content.errors import ContentError, ContentErrors
from game.content.ruleset import load_ruleset_from
from game.core import baggage, combat, morale, skill_marks, skills, souls
from game.core.actions import ACTION_LIST_ADAPTER, Action, Attack, Capture, EndTurn, Fire, Move, UseSkill
from game.core.engine import FORCED_MARCH_FATIGUE, MOVE_FATIGUE, Engine, IllegalAction
from game.core.events import (
    Attacked,
    BaggageDropped,
    Destroyed,
    Event,
    HeroWounded,
    Looted,
    MoraleChanged,
    Rallied,
    Revealed,
    Routed,
    SkillUsed,
)
from game.core.hexgrid import Hex, distance, neighbours, opposite
from game.core.movement import movement_points
from game.core.rules import Ruleset
from game.core.skill_kinds import SKILLS
from game.core.state import state_hash
from game.paths import DATA_DIR
from game.ui.app import App
from game.ui.battle import BattleScene

PLAIN = ("........",) * 6
ZHENGUO_JIN = (("a", "zhenguo", "player"), ("b", "jin", "enemy"))


def use(engine: Engine, unit: str, skill: str, **aim: object) -> list[Event]:
    return engine.apply(UseSkill(unit=unit, skill=skill, **aim))  # type: ignore[arg-type]


def refused(engine: Engine, action: Action, reason: str) -> None:
    """The action is refused for ``reason`` and the state is exactly as it was."""
    before = state_hash(engine.state)
    with pytest.raises(IllegalAction) as exc:
        engine.apply(action)
    assert exc.value.reason == reason, exc.value.message
    assert state_hash(engine.state) == before


def morale_events(events: list[Event], reason: str) -> dict[str, int]:
    return {e.unit: e.delta for e in events if isinstance(e, MoraleChanged) and e.reason == reason}


def conserved(engine: Engine) -> bool:
    return engine.state.men_ever() == engine.state.men_accounted()


def end_round(engine: Engine) -> None:
    """Both sides end their turns: the first side's next turn begins."""
    engine.apply(EndTurn())
    engine.apply(EndTurn())


# -- data -----------------------------------------------------------------------------------------


def test_every_named_hero_has_his_signature_skills(rules: Ruleset) -> None:
    effects = {h: {rules.skills[s].effect for s in hero.skills} for h, hero in rules.heroes.items()}
    assert effects["han_xin"] == {"no_rout", "lane"}
    assert effects["xiang_yu"] == {"breakthrough"}
    assert effects["geng_gong"] == {"raid", "sabotage"}
    for wing in ("liu_bosheng", "huan_xuan", "xinling"):
        assert effects[wing] == {"sealing_sword"}
    assert effects["du_xuan"] == {"sword_surge"}
    assert effects["cao_zhi"] == {"verse"}
    assert effects["yue_fei"] == {"officer_kills", "banner"}
    assert effects["guo_yaoshi"] == {"forced_column"}
    assert effects["tang_huai"] == {"downhill_charge", "hold_hill"}
    assert effects["wanyan_liang"] == {"reform"}
    assert effects["wanyan_wuzhu"] == {"ride_light"}
    for skill in rules.skills.values():
        assert skill.passive or not SKILLS.get(skill.effect).passive, skill.id


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    d = tmp_path / "data"
    shutil.copytree(DATA_DIR, d)
    return d


def content_errors(data_dir: Path) -> list[ContentError]:
    with pytest.raises(ContentErrors) as exc:
        load_ruleset_from(data_dir)
    return exc.value.errors


def test_a_hero_naming_an_unknown_skill_is_reported(data_copy: Path) -> None:
    path = data_copy / "heroes.toml"
    path.write_text(path.read_text().replace('skills = ["verse"]', 'skills = ["verse", "flying"]'))
    [e] = content_errors(data_copy)
    assert (Path(e.file).name, e.object, e.field) == ("heroes.toml", "cao_zhi", "skills.1")
    assert "flying" in e.message


def test_skill_data_errors_name_file_object_and_field(data_copy: Path) -> None:
    path = data_copy / "skills.toml"
    text = path.read_text()
    text = text.replace('effect = "sabotage"\ntarget = "enemy"\nrange = 1', 'effect = "sabotage"\ntarget = "enemy"')
    text = text.replace('bearer = "du_xuan"', 'bearer = "du_xuan_ii"')
    text = text.replace('stand_on = ["hills", "mountain"]', 'stand_on = ["hills", "glacier"]', 1)  # hold_the_hill
    path.write_text(text)
    found = {(Path(e.file).name, e.object, e.field) for e in content_errors(data_copy)}
    assert found == {
        ("skills.toml", "sabotage", "range"),
        ("skills.toml", "sealing_sword", "bearer"),
        ("skills.toml", "hold_the_hill", "stand_on.1"),
    }


# -- Han Xin: backs to the river ------------------------------------------------------------------


def han_xin(small_engine: EngineFactory) -> Engine:
    return small_engine(
        PLAIN,
        [
            Unit("a_han", "a", "han_soldier", 3000, (2, 2), hero="han_xin"),
            Unit("a_near", "a", "sword_spirit", 1000, (3, 2)),
            Unit("a_far", "a", "sword_spirit", 1000, (2, 5)),
            Unit("b_levy", "b", "soul_levy", 5000, (7, 5)),
        ],
    )


def test_backs_to_the_river_keeps_the_aura_from_routing(small_engine: EngineFactory, rules: Ruleset) -> None:
    eng = han_xin(small_engine)
    st = eng.state
    st.formations["a_near"].morale = 60
    events = use(eng, "a_han", "backs_to_the_river")
    used = events[0]
    assert isinstance(used, SkillUsed) and used.hero == "han_xin"
    assert set(used.affected) == {"a_han", "a_near"}
    assert st.formations["a_near"].morale == 70 and morale_events(events, "Backs to the river")["a_near"] == 10
    assert st.formations["a_near"].effects == {"no_rout": st.turn + 1}
    assert "no_rout" not in st.formations["a_far"].effects
    assert not st.formations["a_han"].acted  # an order, not the formation's action
    # A crushing blow: the formation in the aura holds at its threshold, the one outside breaks.
    for fid in ("a_near", "a_far"):
        morale.change_morale(rules, st.formations[fid], -100, "test")
    morale.check_routs(st, rules)
    assert not st.formations["a_near"].routed and st.formations["a_near"].morale == 20
    assert st.formations["a_far"].routed


def test_effects_end_and_cooldowns_run_down_at_the_side_s_turn_start(small_engine: EngineFactory) -> None:
    eng = han_xin(small_engine)
    use(eng, "a_han", "backs_to_the_river")
    han = eng.state.formations["a_han"]
    assert han.cooldowns == {"backs_to_the_river": 4}
    refused(eng, UseSkill(unit="a_han", skill="backs_to_the_river"), "cooldown")
    eng.apply(EndTurn())
    assert "no_rout" in han.effects  # it holds through the enemy's turn
    eng.apply(EndTurn())
    assert han.effects == {} and han.cooldowns == {"backs_to_the_river": 3}
    for left in (2, 1):
        refused(eng, UseSkill(unit="a_han", skill="backs_to_the_river"), "cooldown")
        end_round(eng)
        assert han.cooldowns == {"backs_to_the_river": left}
    end_round(eng)
    assert han.cooldowns == {}
    assert UseSkill(unit="a_han", skill="backs_to_the_river") in skills.legal_uses(eng, "a_han")
    use(eng, "a_han", "backs_to_the_river")


# -- Xiang Yu: breakthrough charge -----------------------------------------------------------------


def hegemon(small_engine: EngineFactory, hero: str | None = "xiang_yu") -> Engine:
    return small_engine(
        PLAIN,
        [
            Unit("a_horse", "a", "warrior", 500, (1, 2), hero=hero),
            Unit("b_screen", "b", "soul_levy", 4000, (3, 1)),
            Unit("b_screen2", "b", "soul_levy", 4000, (3, 3)),
            Unit("b_weak", "b", "soul_levy", 10, (2, 2)),
            Unit("b_far", "b", "soul_levy", 3000, (7, 5)),
        ],
    )


def test_breakthrough_ignores_zones_of_control(small_engine: EngineFactory) -> None:
    eng = hegemon(small_engine)
    before = eng.moves("a_horse").destinations
    use(eng, "a_horse", "breakthrough_charge")
    after = eng.moves("a_horse").destinations
    assert before < after
    # Past the screen: hexes no ordinary rider could reach this turn.
    assert any(h.q >= 4 for h in after - before)


def test_breaking_the_defender_lets_the_hegemon_ride_on(small_engine: EngineFactory) -> None:
    eng = hegemon(small_engine)
    use(eng, "a_horse", "breakthrough_charge")
    eng.apply(Attack(unit="a_horse", target="b_weak"))
    horse = eng.state.formations["a_horse"]
    assert "b_weak" not in eng.state.formations and horse.acted and not horse.moved
    assert eng.can_move(horse) and not eng.can_act(horse)
    dest = sorted(eng.moves("a_horse").destinations)[0]
    eng.apply(Move(unit="a_horse", to=dest))
    assert horse.pos == dest and horse.moved
    refused(eng, Move(unit="a_horse", to=Hex(0, 0)), "already_moved")


def test_without_the_charge_a_victory_ends_the_formation_s_turn(small_engine: EngineFactory) -> None:
    eng = hegemon(small_engine)
    eng.apply(Attack(unit="a_horse", target="b_weak"))
    horse = eng.state.formations["a_horse"]
    assert "b_weak" not in eng.state.formations
    assert not eng.can_move(horse)
    refused(eng, Move(unit="a_horse", to=Hex(0, 1)), "already_moved")


def test_the_charge_is_ordered_before_moving(small_engine: EngineFactory) -> None:
    eng = hegemon(small_engine)
    eng.apply(Move(unit="a_horse", to=Hex(0, 1)))
    refused(eng, UseSkill(unit="a_horse", skill="breakthrough_charge"), "already_moved")
    assert skills.legal_uses(eng, "a_horse") == []


# -- Geng Gong's squad: raid and sabotage --------------------------------------------------------


def squad(small_engine: EngineFactory, seed: int = 7, hero: str | None = "geng_gong") -> Engine:
    return small_engine(
        PLAIN,
        [
            Unit("a_squad", "a", "decapitation_squad", 13, (2, 2), hero=hero),
            Unit("a_horse", "a", "warrior", 500, (0, 0), hero="xiang_yu" if hero is None else None),
            Unit("b_liang", "b", "soul_levy", 5000, (3, 2), hero="wanyan_liang"),
            Unit("b_friend", "b", "soul_levy", 2000, (4, 2)),
            Unit("b_plain", "b", "soul_levy", 2000, (2, 3)),
            Unit("b_far", "b", "soul_levy", 2000, (7, 5)),
        ],
        seed=seed,
    )


def skill_used(events: list[Event]) -> SkillUsed:
    """The skill's own event, which comes first."""
    used = events[0]
    assert isinstance(used, SkillUsed)
    return used


def raid_outcome(small_engine: EngineFactory, seed: int, hero: str | None = "geng_gong") -> tuple[Engine, list[Event]]:
    eng = squad(small_engine, seed, hero)
    return eng, use(eng, "a_squad", "decapitation_raid", target="b_liang")


def test_a_successful_raid_wounds_the_enemy_hero(small_engine: EngineFactory) -> None:
    seed = next(s for s in range(100) if skill_used(raid_outcome(small_engine, s)[1]).succeeded)
    eng, events = raid_outcome(small_engine, seed)
    st = eng.state
    assert HeroWounded(hero="wanyan_liang", unit="b_liang", side="b") in events
    assert st.formations["b_liang"].hero is None and st.wounded_heroes == ["wanyan_liang"]
    assert st.formations["b_liang"].morale == 55 - 20
    assert st.formations["b_friend"].morale == 55 - 10  # his men nearby are shaken
    assert st.formations["b_far"].morale == 55
    assert st.formations["a_squad"].acted and st.formations["a_squad"].cooldowns == {"decapitation_raid": 3}
    assert conserved(eng)


def test_a_failed_raid_leaves_a_fright_and_shows_the_raiders(small_engine: EngineFactory) -> None:
    seed = next(s for s in range(100) if skill_used(raid_outcome(small_engine, s)[1]).succeeded is False)
    eng = squad(small_engine, seed)
    eng.state.formations["a_squad"].hidden = True
    events = use(eng, "a_squad", "decapitation_raid", target="b_liang")
    st = eng.state
    assert skill_used(events).succeeded is False and not any(isinstance(e, HeroWounded) for e in events)
    assert st.formations["b_liang"].hero == "wanyan_liang" and st.wounded_heroes == []
    assert st.formations["b_liang"].morale == 55 - 10 and st.formations["b_friend"].morale == 55
    assert not st.formations["a_squad"].hidden and any(isinstance(e, Revealed) for e in events)


def test_the_raid_chance_grows_with_the_raider_s_martial_skill(small_engine: EngineFactory, rules: Ruleset) -> None:
    raid = rules.skills["decapitation_raid"]
    eng = squad(small_engine)
    st = eng.state
    assert skills.raid_chance(rules, st.formations["a_squad"], raid, st.formations["b_liang"]) == 40 + 75 - 70
    led = sum(bool(skill_used(raid_outcome(small_engine, s)[1]).succeeded) for s in range(120))
    alone = sum(bool(skill_used(raid_outcome(small_engine, s, hero=None)[1]).succeeded) for s in range(120))
    assert 35 <= led <= 75 and 10 <= alone <= 40 and led > alone


def test_raids_need_the_squad_and_an_adjacent_enemy_hero(small_engine: EngineFactory) -> None:
    eng = squad(small_engine)
    refused(eng, UseSkill(unit="a_squad", skill="decapitation_raid", target="b_plain"), "no_hero")
    refused(eng, UseSkill(unit="a_squad", skill="decapitation_raid", target="b_friend"), "out_of_range")
    refused(eng, UseSkill(unit="a_squad", skill="decapitation_raid", target="a_horse"), "not_an_enemy")
    refused(eng, UseSkill(unit="a_squad", skill="decapitation_raid"), "bad_target")
    refused(eng, UseSkill(unit="a_squad", skill="decapitation_raid", target="ghost"), "unknown_unit")
    # Geng Gong at the head of cavalry has no squad to send.
    led = small_engine(
        PLAIN,
        [
            Unit("a_horse", "a", "warrior", 500, (2, 2), hero="geng_gong"),
            Unit("b_liang", "b", "soul_levy", 5000, (3, 2), hero="wanyan_liang"),
        ],
    )
    refused(led, UseSkill(unit="a_horse", skill="decapitation_raid", target="b_liang"), "unknown_skill")
    # The squad's own skills go with it even without its master.
    alone = squad(small_engine, hero=None)
    ids = [s.id for s in skill_marks.formation_skills(alone.rules, alone.state.formations["a_squad"])]
    assert ids == ["decapitation_raid", "sabotage"]
    assert {a.target for a in skills.legal_uses(alone, "a_squad")} == {"b_liang", "b_plain"}


def test_sabotage_costs_morale_and_no_men(small_engine: EngineFactory) -> None:
    eng = squad(small_engine)
    st = eng.state
    men, souls_before = st.men_total(), st.souls_on_field()
    events = use(eng, "a_squad", "sabotage", target="b_plain")
    assert morale_events(events, "Sabotage") == {"b_plain": -20}
    assert st.formations["b_plain"].morale == 35
    assert st.men_total() == men and st.souls_on_field() == souls_before
    assert st.formations["a_squad"].acted
    refused(eng, UseSkill(unit="a_squad", skill="decapitation_raid", target="b_liang"), "already_acted")


# -- the Sealing Sword -------------------------------------------------------------------------------


def sword_bonus(eng: Engine, unit: str) -> int | None:
    st = eng.state
    setup = combat.setup_attack(st, eng.board, eng.rules, st.formations[unit], st.formations["b_levy"])
    found = [m.percent for m in setup.modifiers if m.name == "Sealing Sword" and m.applies_to == "attacker"]
    return found[0] if found else None


def test_the_sealing_sword_empowers_the_spirits_while_du_xuan_fights(small_engine: EngineFactory) -> None:
    eng = small_engine(
        PLAIN,
        [
            Unit("a_spirit", "a", "sword_spirit", 1000, (2, 2)),
            Unit("a_liu", "a", "han_soldier", 1000, (3, 3), hero="liu_bosheng"),
            Unit("a_plain", "a", "han_soldier", 1000, (2, 1)),
            Unit("a_du", "a", "divine_blade", 18, (7, 5), hero="du_xuan"),
            Unit("b_levy", "b", "soul_levy", 5000, (3, 2)),
        ],
    )
    st = eng.state
    assert sword_bonus(eng, "a_spirit") == 15 and sword_bonus(eng, "a_liu") == 15
    assert sword_bonus(eng, "a_plain") is None
    plain = combat.setup_attack(st, eng.board, eng.rules, st.formations["a_spirit"], st.formations["b_levy"])
    # Within Du Xuan's aura the bonus is larger.
    st.formations["a_du"].pos = Hex(0, 2)
    assert distance(Hex(0, 2), st.formations["a_spirit"].pos) <= 2 < distance(Hex(0, 2), st.formations["a_liu"].pos)
    assert sword_bonus(eng, "a_spirit") == 30
    near = combat.setup_attack(st, eng.board, eng.rules, st.formations["a_spirit"], st.formations["b_levy"])
    assert near.attacker_power > plain.attacker_power
    # Unsheathed, it adds to every spirit of the side.
    use(eng, "a_du", "sword_surge")
    assert sword_bonus(eng, "a_spirit") == 55 and sword_bonus(eng, "a_liu") == 40
    # Without its bearer the sword is only a sword.
    st.formations["a_du"].hero = None
    assert sword_bonus(eng, "a_spirit") is None and sword_bonus(eng, "a_liu") is None
    refused(eng, UseSkill(unit="a_liu", skill="sealing_sword"), "passive_skill")


# -- Cao Zhi: verse --------------------------------------------------------------------------------


def poet(small_engine: EngineFactory, cao_type: str = "retainer") -> Engine:
    return small_engine(
        PLAIN,
        [
            Unit("a_cao", "a", cao_type, 2000, (2, 2), hero="cao_zhi"),
            Unit("a_ret", "a", "retainer", 1000, (3, 2)),
            Unit("a_han", "a", "han_soldier", 1000, (2, 3)),
            Unit("a_ret_far", "a", "retainer", 1000, (7, 0)),
            Unit("b_levy", "b", "soul_levy", 5000, (4, 2)),
        ],
    )


def test_verse_lifts_the_retainers_in_the_aura(small_engine: EngineFactory, rules: Ruleset) -> None:
    eng = poet(small_engine)
    st = eng.state
    ret = st.formations["a_ret"]
    ret.morale = 40
    capacity = souls.capture_capacity(rules, ret)
    events = use(eng, "a_cao", "verse")
    assert set(skill_used(events).affected) == {"a_cao", "a_ret"}
    assert ret.morale == 55 and morale_events(events, "Verse")["a_ret"] == 15
    assert souls.capture_capacity(rules, ret) == 2 * capacity
    setup = combat.setup_attack(st, eng.board, rules, ret, st.formations["b_levy"])
    assert ("Verse", 100) in {(m.name, m.percent) for m in setup.modifiers if m.applies_to == "attacker"}
    for fid in ("a_han", "a_ret_far"):
        assert "verse" not in st.formations[fid].effects


def test_verse_without_retainers_to_hear_it_is_refused(small_engine: EngineFactory) -> None:
    eng = small_engine(
        PLAIN,
        [
            Unit("a_cao", "a", "han_soldier", 2000, (2, 2), hero="cao_zhi"),
            Unit("b_levy", "b", "soul_levy", 5000, (6, 4)),
        ],
    )
    refused(eng, UseSkill(unit="a_cao", skill="verse"), "no_effect")


# -- Yue Fei: officer kills and the banner -----------------------------------------------------------


def yue(small_engine: EngineFactory) -> Engine:
    return small_engine(
        PLAIN,
        [
            Unit("a_yue", "a", "zhenguo_rider", 2000, (2, 2), hero="yue_fei"),
            Unit("a_friend", "a", "zhenguo_rider", 1000, (1, 2)),
            Unit("a_plain", "a", "zhenguo_rider", 1000, (2, 1)),
            Unit("b_vet", "b", "jurchen_veteran", 3000, (3, 2)),
            Unit("b_mid", "b", "jurchen_veteran", 3000, (5, 2)),
            Unit("b_far", "b", "jurchen_veteran", 3000, (7, 5)),
        ],
        sides=ZHENGUO_JIN,
    )


def test_yue_fei_cuts_down_officers(small_engine: EngineFactory) -> None:
    eng = yue(small_engine)
    eng.state.formations["a_friend"].morale = 60
    events = eng.apply(Attack(unit="a_yue", target="b_vet"))
    assert morale_events(events, "Officers cut down") == {"b_vet": -8}
    assert morale_events(events, "Enemy officers cut down")["a_friend"] == 5
    # An ordinary formation's blow kills no officers.
    other = yue(small_engine)
    events = other.apply(Attack(unit="a_plain", target="b_vet"))
    assert morale_events(events, "Officers cut down") == {}


def test_the_yue_banner_saps_enemies_near_it(small_engine: EngineFactory) -> None:
    eng = yue(small_engine)
    st = eng.state
    assert distance(st.formations["a_yue"].pos, st.formations["b_mid"].pos) == 3
    events = eng.apply(EndTurn())
    assert morale_events(events, "The Yue banner") == {"b_vet": -5, "b_mid": -5}
    # At his own side's turn start nothing happens to his own men.
    events = eng.apply(EndTurn())
    assert morale_events(events, "The Yue banner") == {}
    refused(eng, UseSkill(unit="a_yue", skill="yue_banner"), "passive_skill")


# -- Guo Yaoshi, Tang Huai -----------------------------------------------------------------------------


def test_a_forced_column_marches_hard_without_the_fatigue(small_engine: EngineFactory) -> None:
    eng = small_engine(
        PLAIN,
        [
            Unit("a_guo", "a", "zhenguo_rider", 1000, (0, 0), hero="guo_yaoshi"),
            Unit("a_rider", "a", "zhenguo_rider", 1000, (0, 4)),
            Unit("b_vet", "b", "jurchen_veteran", 3000, (7, 5)),
        ],
        sides=ZHENGUO_JIN,
    )
    use(eng, "a_guo", "forced_column")
    eng.apply(Move(unit="a_guo", to=Hex(7, 0), forced=True))
    eng.apply(Move(unit="a_rider", to=Hex(4, 4), forced=True))
    st = eng.state
    assert st.formations["a_guo"].fatigue == MOVE_FATIGUE
    assert st.formations["a_rider"].fatigue == FORCED_MARCH_FATIGUE
    refused(eng, UseSkill(unit="a_guo", skill="forced_column"), "cooldown")
    end_round(eng)
    end_round(eng)
    end_round(eng)
    eng.apply(Move(unit="a_guo", to=Hex(6, 0)))
    refused(eng, UseSkill(unit="a_guo", skill="forced_column"), "already_moved")


def test_tang_huai_holds_the_hill(small_engine: EngineFactory, rules: Ruleset) -> None:
    grid = ("........", "........", "..h.....", "........")
    eng = small_engine(
        grid,
        [
            Unit("a_tang", "a", "crossbowman", 500, (2, 2), hero="tang_huai"),
            Unit("b_vet", "b", "jurchen_veteran", 3000, (3, 2)),
        ],
        sides=ZHENGUO_JIN,
    )
    st = eng.state
    tang = st.formations["a_tang"]
    use(eng, "a_tang", "hold_the_hill")
    assert set(tang.effects) == {"hold_hill", "no_rout"}
    assert tang.moved and not tang.acted  # it stands fast, and may still shoot
    setup = combat.setup_attack(st, eng.board, rules, st.formations["b_vet"], tang)
    assert ("Holding the hill", 50, "defender", "defence") in {
        (m.name, m.percent, m.applies_to, m.kind) for m in setup.modifiers
    }
    morale.change_morale(rules, tang, -100, "test")
    assert not morale.check_routs(st, rules) and not tang.routed
    low = small_engine(
        PLAIN,
        [
            Unit("a_tang", "a", "crossbowman", 500, (2, 2), hero="tang_huai"),
            Unit("b_vet", "b", "jurchen_veteran", 3000, (3, 2)),
        ],
        sides=ZHENGUO_JIN,
    )
    refused(low, UseSkill(unit="a_tang", skill="hold_the_hill"), "wrong_ground")


def downhill_field(small_engine: EngineFactory, relief: bool) -> Engine:
    """Tang Huai on a hill, a Jin formation at its foot to the east, and (with ``relief``) a
    Zhenguo formation on the enemy's far side: the relief has come up behind the besiegers."""
    grid = ("........", "........", "..h.....", "........")
    probe = small_engine(grid, [Unit("a_tang", "a", "crossbowman", 800, (2, 2), hero="tang_huai")])
    hill = probe.state.formations["a_tang"].pos
    foot = Hex(hill.q + 1, hill.r)
    units = [
        Unit("a_tang", "a", "crossbowman", 800, hill, hero="tang_huai"),
        Unit("b_vet", "b", "jurchen_veteran", 2000, foot),
    ]
    if relief:
        units.append(Unit("a_relief", "a", "zhenguo_rider", 3000, opposite(foot, hill)))
    eng = small_engine(grid, units, sides=ZHENGUO_JIN)
    eng.state.formations["b_vet"].morale = 35  # worn down by the siege and the relief's arrival
    return eng


def test_tang_huai_charges_down_only_when_the_relief_strikes(small_engine: EngineFactory) -> None:
    alone = downhill_field(small_engine, relief=False)
    refused(alone, UseSkill(unit="a_tang", skill="downhill_charge"), "no_relief")
    eng = downhill_field(small_engine, relief=True)
    tang = eng.state.formations["a_tang"]
    assert UseSkill(unit="a_tang", skill="downhill_charge") in skills.legal_uses(eng, "a_tang")
    assert "b_vet" in eng.fire_targets("a_tang")
    use(eng, "a_tang", "downhill_charge")
    assert "downhill_charge" in tang.effects
    assert not tang.moved and not tang.acted  # a charge, not a stand: it still moves and strikes
    # Charging, the men have left their bows: they strike hand to hand.
    assert eng.fire_targets("a_tang") == [] and eng.attack_targets("a_tang") == ["b_vet"]
    refused(eng, Fire(unit="a_tang", target="b_vet"), "charging")


def test_the_downhill_charge_is_a_previewed_pincer_from_above(small_engine: EngineFactory) -> None:
    eng = downhill_field(small_engine, relief=True)
    before = eng.forecast(Attack(unit="a_tang", target="b_vet"))
    use(eng, "a_tang", "downhill_charge")
    after = eng.forecast(Attack(unit="a_tang", target="b_vet"))
    names = {m.name: m.percent for m in after.modifiers if m.applies_to == "attacker"}
    assert names["Downhill charge"] == 100 and "Pincer" in names
    assert "Downhill charge" not in {m.name for m in before.modifiers}
    assert after.setup.charge and after.setup.shock > before.setup.shock
    assert after.defender_losses[1] > before.defender_losses[1] and after.rout_chance > before.rout_chance
    # The forecast is the blow: what the attack does lies within what was shown.
    events = eng.apply(Attack(unit="a_tang", target="b_vet"))
    hit = next(e for e in events if isinstance(e, Attacked))
    assert hit.pincer and after.defender_losses[0] <= hit.defender_losses <= after.defender_losses[2]


def test_a_downhill_charge_that_breaks_the_enemy_follows_it_down(small_engine: EngineFactory) -> None:
    eng = downhill_field(small_engine, relief=True)
    tang = eng.state.formations["a_tang"]
    hill = tang.pos
    use(eng, "a_tang", "downhill_charge")
    events = eng.apply(Attack(unit="a_tang", target="b_vet"))
    assert any(isinstance(e, Routed | Destroyed) and e.unit == "b_vet" for e in events)
    assert eng.can_move(tang)  # not pinned to the hill: it may come down after the broken enemy
    down = next(h for h in eng.moves("a_tang").destinations if h != hill and eng.board.terrain_at(h).id != "hills")
    eng.apply(Move(unit="a_tang", to=down))
    assert tang.pos == down


# -- Wanyan Liang: re-form the routed --------------------------------------------------------------

HAILING_FIRST = (("b", "hailing", "player"), ("a", "yuqing", "enemy"))


def reform_field(small_engine: EngineFactory) -> Engine:
    eng = small_engine(
        PLAIN,
        [
            Unit("b_liang", "b", "soul_levy", 6000, (2, 2), hero="wanyan_liang"),
            Unit("b_routed", "b", "soul_levy", 1000, (3, 2)),
            Unit("b_routed_far", "b", "soul_levy", 1000, (6, 2)),
            Unit("b_store", "b", "soul_levy", 3000, (0, 5)),
            Unit("a_han", "a", "han_soldier", 1000, (7, 5)),
        ],
        sides=HAILING_FIRST,
    )
    st = eng.state
    for fid in ("b_routed", "b_routed_far"):
        st.formations[fid].routed = True
        st.formations[fid].morale = 10
    # Men fallen near him become souls (taken from real formations, so men stay conserved).
    beside = next(h for h in neighbours(st.formations["b_liang"].pos) if st.formation_at(h) is None)
    st.formations["b_liang"].men -= 2500
    st.formations["b_store"].men -= 1200
    st.formations["a_han"].men -= 100
    st.field_souls[beside.key()] = {"b": 3500, "a": 100}
    far = Hex(6, 4)
    assert distance(far, st.formations["b_liang"].pos) > 2
    st.field_souls[far.key()] = {"b": 200}
    assert conserved(eng)
    return eng


def test_wanyan_liang_re_forms_the_routed_and_gathers_his_souls(small_engine: EngineFactory) -> None:
    eng = reform_field(small_engine)
    st = eng.state
    beside = next(k for k, v in st.field_souls.items() if "a" in v)
    events = use(eng, "b_liang", "reform_the_routed")
    routed = st.formations["b_routed"]
    assert not routed.routed and routed.morale == 35 + 15 and Rallied(unit="b_routed") in events
    assert st.formations["b_routed_far"].routed
    # Only as many souls rejoin as there is room in the ranks around him; the rest lie still.
    assert st.formations["b_liang"].men == 6000
    assert st.field_souls[beside] == {"b": 1000, "a": 100}
    assert st.field_souls["6,4"] == {"b": 200}
    assert st.formations["b_liang"].acted
    assert conserved(eng)


def test_re_forming_with_nothing_to_gather_is_refused(small_engine: EngineFactory) -> None:
    eng = small_engine(
        PLAIN,
        [
            Unit("b_liang", "b", "soul_levy", 6000, (2, 2), hero="wanyan_liang"),
            Unit("a_han", "a", "han_soldier", 1000, (7, 5)),
        ],
        sides=HAILING_FIRST,
    )
    refused(eng, UseSkill(unit="b_liang", skill="reform_the_routed"), "no_effect")


# -- Wanyan Wuzhu: ride light ---------------------------------------------------------------------------

ROAD = ("........", "========", "........", "........", "........", "........")


def ride_light(small_engine: EngineFactory, pursuer: str, faction: str = "hailing") -> Engine:
    return small_engine(
        ROAD,
        [
            Unit("a_wuzhu", "a", "personal_guard", 1000, (2, 1), hero="wanyan_wuzhu"),
            Unit("a_horse", "a", "jurchen_horse", 2000, (6, 4)),
            Unit("a_foot", "a", "jurchen_veteran", 2000, (5, 1)),
            Unit("b_chaser", "b", pursuer, 1000, (2, 3)),
        ],
        sides=(("a", "jin", "player"), ("b", faction, "enemy")),
    )


def test_ride_light_speeds_the_horse_and_strews_the_road(small_engine: EngineFactory, rules: Ruleset) -> None:
    eng = ride_light(small_engine, "soul_rider")
    st = eng.state
    base = {fid: movement_points(f, rules) for fid, f in st.formations.items()}
    events = use(eng, "a_wuzhu", "ride_light")
    assert set(skill_used(events).affected) == {"a_wuzhu", "a_horse"}
    assert movement_points(st.formations["a_wuzhu"], rules) == base["a_wuzhu"] + 4
    assert movement_points(st.formations["a_foot"], rules) == base["a_foot"]
    dropped = next(e for e in events if isinstance(e, BaggageDropped))
    wuzhu = st.formations["a_wuzhu"].pos
    road = {h for h in (wuzhu, *neighbours(wuzhu)) if eng.board.terrain_at(h).id == "road"}
    assert set(dropped.at) == road and baggage.hexes(st) == road
    assert {baggage.parse(k)[1] for k in st.baggage} == {"a"}  # the Jin's own baggage


@pytest.mark.parametrize(
    ("pursuer", "faction", "loots"), [("soul_rider", "hailing", True), ("zhenguo_rider", "zhenguo", False)]
)
def test_only_undisciplined_pursuers_stop_for_the_baggage(
    small_engine: EngineFactory, pursuer: str, faction: str, loots: bool
) -> None:
    eng = ride_light(small_engine, pursuer, faction)
    use(eng, "a_wuzhu", "ride_light")
    eng.apply(Move(unit="a_wuzhu", to=Hex(0, 0)))
    eng.apply(EndTurn())
    spot = Hex(2, 1)
    assert spot in baggage.hexes(eng.state)
    events = eng.apply(Move(unit="b_chaser", to=spot))
    chaser = eng.state.formations["b_chaser"]
    assert any(isinstance(e, Looted) for e in events) is loots
    assert chaser.acted is loots and (spot in baggage.hexes(eng.state)) is not loots


def test_nobody_loots_his_own_armys_baggage(small_engine: EngineFactory) -> None:
    """The Jin are undisciplined, but the wagons they cut loose are their own: their men ride
    over them without stopping. Only an enemy's baggage tempts."""
    eng = ride_light(small_engine, "soul_rider")
    use(eng, "a_wuzhu", "ride_light")
    spot = Hex(3, 1)
    assert spot in baggage.hexes(eng.state) and spot in baggage.tempting(eng.state, eng.rules, "b")
    assert baggage.tempting(eng.state, eng.rules, "a") == frozenset()
    events = eng.apply(Move(unit="a_foot", to=spot))
    assert not any(isinstance(e, Looted) for e in events)
    assert not eng.state.formations["a_foot"].acted and spot in baggage.hexes(eng.state)


# -- refusals, the legal list, determinism ----------------------------------------------------------


def test_skill_uses_that_are_not_allowed_change_nothing(small_engine: EngineFactory) -> None:
    eng = han_xin(small_engine)
    refused(eng, UseSkill(unit="a_han", skill="flying"), "unknown_skill")
    refused(eng, UseSkill(unit="a_han", skill="verse"), "unknown_skill")
    refused(eng, UseSkill(unit="a_near", skill="backs_to_the_river"), "unknown_skill")
    refused(eng, UseSkill(unit="b_levy", skill="backs_to_the_river"), "not_your_unit")
    refused(eng, UseSkill(unit="a_han", skill="backs_to_the_river", target="b_levy"), "bad_target")
    refused(eng, UseSkill(unit="a_han", skill="backs_to_the_river", at=Hex(1, 1)), "bad_target")
    eng.state.formations["a_han"].acted = True
    eng.state.formations["a_han"].moved = True
    refused(eng, UseSkill(unit="a_han", skill="backs_to_the_river"), "already_acted")
    eng.state.formations["a_han"].acted = False
    eng.state.formations["a_han"].routed = True
    refused(eng, UseSkill(unit="a_han", skill="backs_to_the_river"), "routed")


def test_legal_uses_are_exactly_the_accepted_uses(small_engine: EngineFactory) -> None:
    eng = small_engine(
        PLAIN,
        [
            Unit("a_squad", "a", "decapitation_squad", 13, (2, 2), hero="geng_gong"),
            Unit("a_han", "a", "han_soldier", 3000, (1, 1), hero="han_xin"),
            Unit("a_cao", "a", "han_soldier", 1000, (0, 4), hero="cao_zhi"),
            Unit("a_horse", "a", "warrior", 500, (5, 0), hero="xiang_yu"),
            Unit("b_liang", "b", "soul_levy", 5000, (3, 2), hero="wanyan_liang"),
            Unit("b_levy", "b", "soul_levy", 2000, (2, 3)),
        ],
    )
    ids = sorted(eng.state.formations)
    for unit in ids:
        listed = skills.legal_uses(eng, unit)
        for skill in sorted(eng.rules.skills):
            for target in (None, *ids):
                action = UseSkill(unit=unit, skill=skill, target=target)
                trial = Engine(eng.scenario, eng.rules, eng.seed, eng.settings, eng.state.model_copy(deep=True))
                try:
                    trial.apply(action)
                except IllegalAction:
                    assert action not in listed, action
                else:
                    assert action in listed, action
    assert {(a.unit, a.skill) for u in ids for a in skills.legal_uses(eng, u)} == {
        ("a_squad", "decapitation_raid"),
        ("a_squad", "sabotage"),
        ("a_han", "backs_to_the_river"),
        ("a_han", "open_the_lane"),
        ("a_horse", "breakthrough_charge"),
    }


def test_same_seed_same_raid_and_records_replay(small_engine: EngineFactory) -> None:
    actions: list[Action] = [
        UseSkill(unit="a_squad", skill="decapitation_raid", target="b_liang"),
        EndTurn(),
        EndTurn(),
        UseSkill(unit="a_squad", skill="sabotage", target="b_plain"),
    ]
    results = []
    for _ in range(2):
        eng = squad(small_engine, seed=11)
        hashes = []
        for a in ACTION_LIST_ADAPTER.validate_json(ACTION_LIST_ADAPTER.dump_json(actions)):
            eng.apply(a)
            hashes.append(state_hash(eng.state))
        results.append(hashes)
    assert results[0] == results[1]


# -- the computer's use of skills ---------------------------------------------------------------------


def test_the_ai_recites_verse_before_its_retainers_bag_souls(small_engine: EngineFactory) -> None:
    eng = poet(small_engine)
    st = eng.state
    # Souls of the enemy lie beside the retainers (moved from the enemy's ranks).
    st.formations["b_levy"].men -= 400
    st.field_souls[Hex(3, 1).key()] = {"b": 400}
    assert distance(Hex(3, 1), st.formations["a_ret"].pos) == 1
    ai = BasicAI(eng, "a")
    first = ai.next_action()
    assert first == UseSkill(unit="a_cao", skill="verse")
    eng.apply(first)
    second = ai.next_action()
    assert isinstance(second, Capture) and "verse" in st.formations[second.unit].effects


def test_the_ai_re_forms_its_routed_host(small_engine: EngineFactory) -> None:
    eng = reform_field(small_engine)
    ai = BasicAI(eng, "b")
    assert ai.next_action() == UseSkill(unit="b_liang", skill="reform_the_routed")


# -- on screen --------------------------------------------------------------------------------------


@pytest.fixture
def app() -> Iterator[App]:
    import pygame

    from game import i18n
    from game.ui.app import App

    before = i18n.language()
    i18n.set_language("en")
    app = App((1280, 800))
    pygame.event.clear()
    yield app
    i18n.set_language(before)


def frame(app: App, *events: pygame.event.Event) -> None:
    import pygame

    app.step(list(events), 0.0)
    for _ in range(10):
        posted = [e for e in pygame.event.get() if e.type >= pygame.USEREVENT]
        if not posted:
            return
        app.step(posted, 0.0)


def click(app: App, pos: tuple[float, float]) -> None:
    import pygame

    pos = (round(pos[0]), round(pos[1]))
    frame(
        app,
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False),
    )


def select(app: App, battle: BattleScene, unit: str) -> None:
    h = battle.state.formations[unit].pos
    battle.camera.centre_on(battle.geometry.centre(h))
    click(app, battle.camera.to_screen(battle.geometry.centre(h)))
    assert battle.session.selected == unit
    frame(app)


def test_skill_buttons_use_skills_and_show_cooldowns(app: App, rules: Ruleset) -> None:
    from conftest import loaded_for, make_scenario

    from game.core.engine import GameSettings
    from game.record.match import Match

    units = [
        Unit("a_han", "a", "han_soldier", 3000, (2, 2), hero="han_xin"),
        Unit("a_squad", "a", "decapitation_squad", 13, (5, 3), hero="geng_gong"),
        Unit("a_yue", "a", "han_soldier", 1000, (0, 5), hero="yue_fei"),
        Unit("b_liang", "b", "soul_levy", 5000, (6, 3), hero="wanyan_liang"),
    ]
    match = Match(loaded_for(make_scenario(rules, PLAIN, units)), 5, GameSettings(), seats={"a": "human", "b": "ai"})
    battle = app.go("battle", match=match)
    assert isinstance(battle, BattleScene)
    frame(app)
    select(app, battle, "a_han")
    (button, order), _lane = battle.panels.hud.skills.buttons
    assert order == "backs_to_the_river" and button.text == "Backs to the river" and button.is_enabled
    assert button.tool_tip_text is not None
    assert button.tool_tip_text.startswith(rules.skills["backs_to_the_river"].description)
    assert battle.panels.hud.panel_rect.contains(button.rect)
    click(app, button.rect.center)
    assert match.record.actions == [UseSkill(unit="a_han", skill="backs_to_the_river")]
    frame(app)
    (button, _order), _lane = battle.panels.hud.skills.buttons
    assert not button.is_enabled and button.text == "Backs to the river (4 turns)"
    # Yue Fei's skills are passive: shown, never pressed.
    select(app, battle, "a_yue")
    assert [(b.text, b.is_enabled) for b, _o in battle.panels.hud.skills.buttons] == [
        ("Officer killer (passive)", False),
        ("The Yue banner (passive)", False),
    ]
    # An aimed skill waits for its target.
    select(app, battle, "a_squad")
    raid = battle.panels.hud.skills.button_for("decapitation_raid")
    assert raid is not None
    click(app, raid.rect.center)
    assert battle.session.choice.aiming == "decapitation_raid"
    target = battle.state.formations["b_liang"].pos
    assert battle.overlays().targets == {target}
    click(app, battle.camera.to_screen(battle.geometry.centre(target)))
    assert match.record.actions[-1] == UseSkill(unit="a_squad", skill="decapitation_raid", target="b_liang")
    assert battle.session.choice.aiming is None and any("raided" in line for line in battle.log.lines)
