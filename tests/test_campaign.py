"""Campaigns: carrying an army from battle to battle, the camp's economy, progress files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import in_roster
from hypothesis import given
from hypothesis import strategies as st

from game.ai.driver import make_ais, play_ai_turn
from game.content.campaigns import Campaigns, load_campaigns, load_campaigns_file
from game.content.errors import ContentErrors
from game.content.scenarios import load_scenario
from game.core import campaign as camp
from game.core import roster as carried
from game.core.campaign import CampaignProgress, CampError
from game.core.campaign_spec import CampaignSpec
from game.core.engine import Engine, GameSettings
from game.core.roster import CarriedFormation, Roster
from game.core.rules import MAX_EXPERIENCE
from game.record.campaign_saves import load_progress, progress_path, save_progress
from game.record.errors import SaveError
from game.record.match import Match
from game.record.verify import verify

A1 = "a1_valley_mouth"


@pytest.fixture(scope="module")
def campaigns() -> Campaigns:
    return load_campaigns()


@pytest.fixture(scope="module")
def yuqing(campaigns: Campaigns) -> CampaignSpec:
    return campaigns.campaigns["yuqing"]


def ending_title(progress: CampaignProgress, spec: CampaignSpec) -> str | None:
    """The title of the ending the campaign has reached, if any."""
    ending = camp.ending_of(progress, spec)
    return None if ending is None else ending.title


def waiting_decision(progress: CampaignProgress, spec: CampaignSpec) -> str | None:
    """The id of the decision the camp waits for, if any."""
    decision = camp.pending_decision(progress, spec)
    return None if decision is None else decision.id


def _engine(roster: Roster | None, seed: int = 1) -> Engine:
    loaded = load_scenario(A1)
    from game.content.ruleset import load_ruleset

    return Engine(loaded.scenario, load_ruleset(), seed, GameSettings(roster=roster))


def _carried(key: str, type_: str, men: int, max_men: int, **kw: Any) -> CarriedFormation:
    return CarriedFormation(key=key, type=type_, men=men, max_men=max_men, **kw)


# -- carrying in ----------------------------------------------------------------------------------


def test_a_carried_formation_enters_with_the_share_of_men_it_kept_and_its_experience() -> None:
    roster = Roster(side="coalition", formations=[_carried("han_xin", "han_soldier", 2000, 4000, experience=3)])
    f = _engine(roster).state.formations["han_xin_5000"]
    assert f.men == 2500  # half of the scenario's 5,000
    assert f.experience == 3
    fresh = _engine(None).state.formations["han_xin_5000"]
    assert fresh.men == 5000 and fresh.experience == 0


def test_a_formation_wiped_out_regathers_around_its_hero() -> None:
    roster = Roster(side="coalition", formations=[_carried("xiang_yu", "warrior", 0, 500)])
    assert _engine(roster).state.formations["xiang_yu_500"].men == round(500 * carried.STRAGGLERS)


def test_the_roster_touches_only_its_own_side() -> None:
    roster = Roster(side="hailing", formations=[_carried("han_xin", "han_soldier", 1, 5000)])
    assert _engine(roster).state.formations["han_xin_5000"].men == 5000


def test_raised_formations_enter_at_the_muster_and_count_at_the_start() -> None:
    roster = Roster(
        side="coalition",
        formations=[
            _carried("retainer_raised_1", "retainer", 500, 500, raised=True),
            _carried("retainer_raised_2", "retainer", 300, 500, raised=True, experience=2),
        ],
    )
    engine = _engine(roster)
    muster = engine.board.regions["muster"]
    raised = [engine.state.formations[k] for k in ("retainer_raised_1", "retainer_raised_2")]
    assert all(f.pos in muster for f in raised)
    assert raised[0].pos != raised[1].pos
    assert raised[1].men == 300 and raised[1].experience == 2
    base = _engine(None).state.side("coalition").men_start
    assert engine.state.side("coalition").men_start == base + 800


def test_upgrades_add_missiles_and_thunder_to_formations_that_have_them(campaigns: Campaigns) -> None:
    from game.content.ruleset import load_ruleset

    rules = load_ruleset()
    shooter = next(u for u in rules.units.values() if u.ammo is not None and u.area_charges)
    roster = Roster(
        side="coalition",
        formations=[_carried("k", shooter.id, 300, 300, raised=True, extra_ammo=2, extra_charges=1)],
    )
    (f,) = carried.raised_formations(roster, rules)
    assert shooter.ammo is not None and f.ammo == shooter.ammo + 2
    assert f.charges == shooter.area_charges + 1


def test_a_campaign_battle_replays_exactly() -> None:
    roster = Roster(
        side="coalition",
        formations=[
            _carried("han_xin", "han_soldier", 3000, 5000, experience=4),
            _carried("retainer_raised_1", "retainer", 500, 500, raised=True),
        ],
    )
    loaded = load_scenario(A1)
    settings = GameSettings(roster=roster, max_turns=2)
    match = Match(loaded, 7, settings, seats={"coalition": "ai", "hailing": "ai"})
    ais = make_ais(match)
    while not match.state.over:
        play_ai_turn(match, ais[match.state.active_side.id], others=ais)
    record = match.record.model_validate_json(match.record.model_dump_json())
    assert record.settings.roster == roster
    result = verify(record)
    assert result.ok, result


# -- after the battle ---------------------------------------------------------------------------


def _finished(winner: str | None, pouch: int = 0) -> Engine:
    engine = _engine(None)
    state = engine.state
    state.winner = winner
    state.over = True
    state.side("coalition").pouch = pouch
    return engine


def test_a_victory_turns_souls_into_coins_and_carries_the_survivors(yuqing: CampaignSpec) -> None:
    engine = _finished("coalition", pouch=3_456)
    state = engine.state
    state.formations["han_xin_5000"].men = 4000
    state.formations["han_xin_5000"].experience = 2
    del state.formations["xiang_yu_500"]
    progress = camp.new_progress(yuqing, seed=5)
    after = camp.after_battle(progress, yuqing, engine.scenario, state)
    assert after.stage == 1 and after.attempts == 0
    assert after.coins == 3_456 // yuqing.souls_per_coin
    han = in_roster(after.roster, "han_xin")
    # 4,000 stand; half of the 1,000 lost were only wounded and come back.
    assert (han.men, han.max_men, han.experience) == (4500, 5000, 2)
    assert in_roster(after.roster, "xiang_yu").men == 0  # gone, but the Hegemon-King carries on
    assert in_roster(after.roster, "liu_bosheng").men == 700
    assert after.results[-1].won and after.results[-1].souls == 3_456
    assert after.results[-1].objectives == state.objectives  # how the battle went, for the ending
    assert progress.stage == 0 and progress.coins == 0  # the old progress is untouched


def test_a_defeat_only_counts_the_try(yuqing: CampaignSpec) -> None:
    engine = _finished("hailing", pouch=9_000)
    progress = camp.new_progress(yuqing, seed=5)
    after = camp.after_battle(progress, yuqing, engine.scenario, engine.state)
    assert (after.stage, after.attempts, after.coins, after.roster) == (0, 1, 0, progress.roster)
    assert after.battle_seed() != progress.battle_seed()  # a retry is a fresh battle
    assert not after.results[-1].won


def test_a_raised_formation_that_falls_is_struck_off_and_a_column_that_never_came_is_kept() -> None:
    roster = Roster(
        side="coalition",
        formations=[
            _carried("retainer_raised_1", "retainer", 500, 500, raised=True),
            _carried("absent", "warrior", 200, 500),
        ],
    )
    engine = _engine(roster)
    del engine.state.formations["retainer_raised_1"]
    entered = carried.entered_formations(engine.scenario, engine.state, roster)
    after = carried.harvest(roster, entered, engine.state)
    assert after.get("retainer_raised_1") is None
    assert in_roster(after, "absent").men == 200


# -- the camp -----------------------------------------------------------------------------------


def _progress(yuqing: CampaignSpec, coins: int, *formations: CarriedFormation) -> CampaignProgress:
    p = camp.new_progress(yuqing, seed=1)
    return p.model_copy(update={"coins": coins, "roster": Roster(side="coalition", formations=list(formations))})


def test_replenishing_buys_back_men_at_the_unit_price(yuqing: CampaignSpec) -> None:
    price = yuqing.units["han_soldier"].cost  # coins per hundred men
    p = _progress(yuqing, 1000, _carried("han_xin", "han_soldier", 4000, 5000))
    assert camp.replenish_quote(p, yuqing, "han_xin") == (1000, 10 * price)
    after = camp.replenish(p, yuqing, "han_xin")
    assert in_roster(after.roster, "han_xin").men == 5000
    assert after.coins == 1000 - 10 * price


def test_replenishing_with_few_coins_buys_what_they_pay_for(yuqing: CampaignSpec) -> None:
    price = yuqing.units["han_soldier"].cost
    p = _progress(yuqing, price * 3, _carried("han_xin", "han_soldier", 1000, 5000))
    after = camp.replenish(p, yuqing, "han_xin")
    assert in_roster(after.roster, "han_xin").men == 1300
    assert after.coins == 0


def test_camp_orders_that_cannot_be_paid_or_make_no_sense_are_refused(
    yuqing: CampaignSpec, campaigns: Campaigns
) -> None:
    from game.content.ruleset import load_ruleset

    rules = load_ruleset()
    full = _carried("han_xin", "han_soldier", 5000, 5000)
    p = _progress(yuqing, 5, full)
    with pytest.raises(CampError):
        camp.replenish(p, yuqing, "han_xin")  # at full strength
    with pytest.raises(CampError):
        camp.replenish(p, yuqing, "nobody")
    with pytest.raises(CampError):
        camp.recruit(p, yuqing, "retainer")  # 500 retainers cost more than 5 coins
    with pytest.raises(CampError):
        camp.recruit(p.model_copy(update={"coins": 10_000}), yuqing, "warrior")  # never raised
    with pytest.raises(CampError):
        camp.buy_upgrade(p, yuqing, "han_xin", campaigns.upgrades["drill"], rules)  # too dear
    rich = p.model_copy(update={"coins": 10_000})
    with pytest.raises(CampError):
        camp.buy_upgrade(rich, yuqing, "han_xin", campaigns.upgrades["quivers"], rules)  # no bows


def test_recruiting_raises_a_new_formation_with_its_own_key(yuqing: CampaignSpec) -> None:
    offer = yuqing.units["retainer"]
    cost = camp.recruit_cost(yuqing, "retainer")
    assert cost == offer.recruit * offer.cost // 100
    p = _progress(yuqing, 2 * cost)
    p = camp.recruit(camp.recruit(p, yuqing, "retainer"), yuqing, "retainer")
    keys = [c.key for c in p.roster.formations]
    assert keys == ["retainer_raised_1", "retainer_raised_2"]
    assert all(c.raised and c.men == offer.recruit for c in p.roster.formations)
    assert p.coins == 0


def test_drill_repeats_until_experience_is_full_and_other_upgrades_are_bought_once(
    yuqing: CampaignSpec, campaigns: Campaigns
) -> None:
    from game.content.ruleset import load_ruleset

    rules = load_ruleset()
    drill = campaigns.upgrades["drill"]
    p = _progress(yuqing, 10_000, _carried("han_xin", "han_soldier", 5000, 5000, experience=7))
    p = camp.buy_upgrade(p, yuqing, "han_xin", drill, rules)
    assert in_roster(p.roster, "han_xin").experience == min(MAX_EXPERIENCE, 7 + drill.amount)
    while camp.upgrade_allowed(in_roster(p.roster, "han_xin"), drill, rules) is None:
        p = camp.buy_upgrade(p, yuqing, "han_xin", drill, rules)
    assert in_roster(p.roster, "han_xin").experience == MAX_EXPERIENCE
    with pytest.raises(CampError):
        camp.buy_upgrade(p, yuqing, "han_xin", drill, rules)


@given(
    orders=st.lists(
        st.tuples(st.sampled_from(["replenish", "recruit", "drill"]), st.sampled_from(["han_xin", "xiang_yu"])),
        max_size=12,
    ),
    coins=st.integers(0, 400),
)
def test_no_order_ever_spends_coins_the_camp_does_not_have(orders: list[tuple[str, str]], coins: int) -> None:
    spec = load_campaigns().campaigns["yuqing"]
    from game.content.ruleset import load_ruleset

    rules, drill = load_ruleset(), load_campaigns().upgrades["drill"]
    p = _progress(spec, coins, _carried("han_xin", "han_soldier", 100, 5000), _carried("xiang_yu", "warrior", 0, 500))
    for order, key in orders:
        before = p
        try:
            if order == "replenish":
                p = camp.replenish(p, spec, key)
            elif order == "recruit":
                p = camp.recruit(p, spec, "retainer")
            else:
                p = camp.buy_upgrade(p, spec, key, drill, rules)
        except CampError:
            assert p is before
            continue
        assert 0 <= p.coins < before.coins
        for c in p.roster.formations:
            assert 0 <= c.men <= c.max_men


# -- progress files and content -------------------------------------------------------------------


def test_progress_is_saved_and_read_back(tmp_path: Path, yuqing: CampaignSpec) -> None:
    p = _progress(yuqing, 42, _carried("han_xin", "han_soldier", 4000, 5000, experience=1))
    save_progress(p, tmp_path)
    assert load_progress("yuqing", tmp_path) == p
    assert load_progress("zhenguo", tmp_path) is None


@pytest.mark.parametrize(
    "content, words",
    [
        (b"\x00\xff junk", "not UTF-8"),
        (b'{"format": "qiankun-campaign", "format_version": 99}', "newer version"),
        (b'{"format": "qiankun-record"}', "not a Qiankun campaign"),
        (b'{"format": "qiankun-campaign", "format_version": 1, "campaign_id": "yuqing", "seed": -1}', "damaged"),
    ],
)
def test_a_bad_progress_file_is_refused_in_one_line_and_left_alone(tmp_path: Path, content: bytes, words: str) -> None:
    path = progress_path("yuqing", tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    with pytest.raises(SaveError) as info:
        load_progress("yuqing", tmp_path)
    assert words in str(info.value) and "\n" not in str(info.value)
    assert path.read_bytes() == content


def test_every_campaign_lists_loadable_scenarios_it_owns(campaigns: Campaigns) -> None:
    assert {"yuqing"} <= set(campaigns.campaigns)
    for spec in campaigns.campaigns.values():
        for sid in spec.scenarios:
            scenario = load_scenario(sid).scenario
            assert scenario.campaign == spec.id
            assert "muster" in scenario.board.regions, sid


def test_broken_campaign_data_is_reported_by_file_object_and_field(tmp_path: Path) -> None:
    from game.paths import DATA_DIR

    text = (DATA_DIR / "campaigns.toml").read_text(encoding="utf-8")
    broken = text.replace('scenarios = ["a1_valley_mouth"', 'scenarios = ["a9_nowhere"', 1).replace(
        'upgrades = ["drill"', 'upgrades = ["polish"', 1
    )
    path = tmp_path / "campaigns.toml"
    path.write_text(broken, encoding="utf-8")
    with pytest.raises(ContentErrors) as info:
        load_campaigns_file(path)
    lines = str(info.value).splitlines()
    assert any("campaigns.yuqing: scenarios.0: unknown scenario 'a9_nowhere'" in line for line in lines)
    assert any("campaigns.yuqing: upgrades: unknown upgrade 'polish'" in line for line in lines)


def test_progress_json_has_no_surprises(yuqing: CampaignSpec) -> None:
    data = json.loads(camp.new_progress(yuqing, seed=3).model_dump_json())
    assert data["format"] == "qiankun-campaign" and data["format_version"] == 1


def test_the_war_aim_counts_the_souls_of_battles_won(yuqing: CampaignSpec) -> None:
    assert yuqing.souls_aim == 60_000
    progress = camp.new_progress(yuqing, seed=5)
    lost = camp.after_battle(
        progress, yuqing, _finished("hailing", pouch=9_000).scenario, _finished("hailing", 9_000).state
    )
    won = camp.after_battle(lost, yuqing, _finished("coalition", 4_000).scenario, _finished("coalition", 4_000).state)
    assert won.souls_bagged() == 4_000


def test_half_the_losses_of_a_carried_formation_come_back_but_never_more_than_it_brought(yuqing: CampaignSpec) -> None:
    roster = Roster(side="coalition", formations=[_carried("han_xin", "han_soldier", 3000, 5000)])
    engine = _engine(roster)
    f = engine.state.formations["han_xin_5000"]
    assert f.men == 3000
    f.men = 2000
    entered = carried.entered_formations(engine.scenario, engine.state, roster)
    assert entered["han_xin_5000"].start_men == 3000
    assert in_roster(carried.harvest(roster, entered, engine.state), "han_xin").men == 2000 + (3000 - 2000) // 2
    f.men = 3000  # no losses: nothing to recover, nothing gained
    assert in_roster(carried.harvest(roster, entered, engine.state), "han_xin").men == 3000


# -- the war aim and the campaign's decisions ---------------------------------------------------


def _won(progress: CampaignProgress, spec: CampaignSpec, souls: int) -> CampaignProgress:
    """The progress after the current battle is won with ``souls`` in the pouch."""
    result = camp.BattleResult(
        scenario_id=spec.scenarios[progress.stage], won=True, turns=9, souls=souls, coins=souls // 25
    )
    return progress.model_copy(
        update={"stage": progress.stage + 1, "results": [*progress.results, result], "coins": progress.coins + 10}
    )


def test_the_counsel_waits_for_the_camp_after_the_battle_that_passes_the_war_aim(yuqing: CampaignSpec) -> None:
    p = _won(camp.new_progress(yuqing, seed=5), yuqing, 30_000)
    assert camp.pending_decision(p, yuqing) is None  # 30,000 of 60,000: nothing to decide yet
    p = _won(p, yuqing, 31_000)  # the second battle passes the aim
    counsel = camp.pending_decision(p, yuqing)
    assert counsel is not None and counsel.id == "war_aim" and counsel.speaker == "du_xuan"
    assert {o.id for o in counsel.options} == {"stop", "march_on"}
    assert not p.finished(yuqing)


def test_stopping_at_the_war_aim_ends_the_campaign_with_its_own_ending(yuqing: CampaignSpec) -> None:
    p = _won(_won(_won(camp.new_progress(yuqing, seed=5), yuqing, 20_000), yuqing, 10_000), yuqing, 35_000)
    assert p.stage == 3 and waiting_decision(p, yuqing) == "war_aim"
    stopped = camp.decide(p, yuqing, "war_aim", "stop")
    assert stopped.decisions == {"war_aim": "stop"}
    assert stopped.finished(yuqing) and stopped.stage == 3  # The Annihilation is never fought
    assert ending_title(stopped, yuqing) == "Sixty Thousand"
    assert camp.pending_decision(stopped, yuqing) is None


def test_marching_on_leads_to_the_annihilation_and_then_to_the_note(yuqing: CampaignSpec) -> None:
    p = _won(_won(_won(camp.new_progress(yuqing, seed=5), yuqing, 20_000), yuqing, 10_000), yuqing, 35_000)
    marched = camp.decide(p, yuqing, "war_aim", "march_on")
    assert not marched.finished(yuqing) and camp.pending_decision(marched, yuqing) is None
    assert yuqing.scenarios[marched.stage] == "a4_annihilation"
    after = _won(marched, yuqing, 17_000)
    assert after.finished(yuqing) and camp.pending_decision(after, yuqing) is None
    assert ending_title(after, yuqing) == "The Note on the Helmet"


def test_the_note_on_the_helmet_names_no_sum_and_reaches_him_at_datong(yuqing: CampaignSpec) -> None:
    """The chronicle's note: a slip of paper inside a spent casing tied to his helmet's tassel,
    found half a day after the rout when he takes off his armour in his palace at Datong. It names
    General Yeli and no sum of money, and no course at the camp pays coins for the prince."""
    p = camp.new_progress(yuqing, seed=5)
    for souls in (5_000, 5_000, 5_000, 5_000):  # the aim is never met before the last battle
        assert camp.pending_decision(p, yuqing) is None
        p = _won(p, yuqing, souls)
    assert p.finished(yuqing) and camp.pending_decision(p, yuqing) is None
    note = camp.ending_of(p, yuqing)
    assert note is not None and note.title == "The Note on the Helmet" and note.last_word is not None
    assert "Datong" in note.text and "Half a day" in note.text and "inside the casing" in note.text
    words = note.last_word.text
    assert "General Yeli" in words and "coins" in words
    assert not any(ch.isdigit() for ch in words) and "hundred" not in words and "thousand" not in words
    assert set(yuqing.endings) == {"aim_met", "note", "liang_taken", "datong_gate"}
    assert all(o.coins == 0 for d in yuqing.decisions for o in d.options)


def _won_annihilation(yuqing: CampaignSpec, objectives: dict[str, str] | None) -> CampaignProgress:
    """A campaign that marched on and won the Annihilation, its objectives ending as given."""
    p = _won(_won(_won(camp.new_progress(yuqing, seed=5), yuqing, 30_000), yuqing, 5_000), yuqing, 30_000)
    p = camp.decide(p, yuqing, "war_aim", "march_on")
    result = camp.BattleResult(
        scenario_id="a4_annihilation", won=True, turns=12, souls=17_000, coins=680, objectives=objectives
    )
    return p.model_copy(update={"stage": 4, "results": [*p.results, result]})


def test_the_ending_follows_how_the_annihilation_went(yuqing: CampaignSpec) -> None:
    """The note ends the campaign only if Geng Gong's thirteen tied it on; a player who took
    Wanyan Liang on the road earns a better ending than history; one who did neither sees him
    reach Datong with nothing in his helmet."""
    history = {"break_host": "done", "take_liang": "failed", "helmet_note": "done", "bag_souls": "done"}
    endings = {
        "history": (history, "The Note on the Helmet"),
        "taken": ({**history, "take_liang": "done", "helmet_note": "open"}, "The Prince in the Pouch"),
        "taken with the note": ({**history, "take_liang": "done"}, "The Prince in the Pouch"),
        "neither": ({**history, "helmet_note": "open"}, "The Gate of Datong"),
        # Won before the progress kept objectives: the chronicle's ending, as before.
        "unknown": (None, "The Note on the Helmet"),
    }
    for why, (objectives, title) in endings.items():
        p = _won_annihilation(yuqing, objectives)
        assert p.finished(yuqing), why
        ending = camp.ending_of(p, yuqing)
        assert ending is not None and ending.title == title, why
    # A course that chose its own ending still has the last word.
    stopped = camp.decide(
        _won(_won(_won(camp.new_progress(yuqing, seed=5), yuqing, 30_000), yuqing, 5_000), yuqing, 30_000),
        yuqing,
        "war_aim",
        "stop",
    )
    stopped_ending = camp.ending_of(stopped, yuqing)
    assert stopped_ending is not None and stopped_ending.title == "Sixty Thousand"
    taken = yuqing.endings["liang_taken"]
    assert taken.last_word is None and "Datong" in taken.text
    gate = yuqing.endings["datong_gate"]
    assert gate.last_word is None and "note" not in gate.text.lower()


def test_an_old_progress_that_took_the_prince_for_the_retired_bounty_still_tells_an_ending(
    tmp_path: Path, yuqing: CampaignSpec
) -> None:
    """Before the bounty was taken out of the game, the camp could end campaign A with 'bounty'
    (the thirteen bring the prince in bound). Such a file still loads, is over, and tells the
    ending that replaced it: the prince taken."""
    from game.ui.campaign_menu import progress_line

    p = _won_annihilation(yuqing, None)
    old = json.loads(p.model_dump_json())
    for result in old["results"]:
        del result["objectives"]  # written before results kept them
    old["decisions"] = {"war_aim": "march_on", "liang": "bounty"}
    old["ending"] = "bounty"
    old["coins"] += 600
    progress_path("yuqing", tmp_path).write_text(json.dumps(old), encoding="utf-8")
    loaded = load_progress("yuqing", tmp_path)
    assert loaded is not None and loaded.ending == "bounty" and loaded.finished(yuqing)
    assert camp.pending_decision(loaded, yuqing) is None
    ending = camp.ending_of(loaded, yuqing)
    assert ending is not None and ending.title == "The Prince in the Pouch"
    assert progress_line(yuqing, loaded) == "Over: The Prince in the Pouch"
    assert "bounty" not in yuqing.endings and yuqing.retired_endings == {"bounty": "liang_taken"}


def _won_tangut_border(zhenguo: CampaignSpec, objectives: dict[str, str] | None) -> CampaignProgress:
    """Campaign B run to its course, the Tangut Border won with its objectives ending as given."""
    p = _won(_won(camp.new_progress(zhenguo, seed=7), zhenguo, 900), zhenguo, 700)
    result = camp.BattleResult(
        scenario_id="b3_tangut_border", won=True, turns=6, souls=1_100, coins=44, objectives=objectives
    )
    return p.model_copy(update={"stage": 3, "results": [*p.results, result]})


def test_campaign_b_ends_with_wuzhu_taken_only_if_the_tangut_border_earned_it(campaigns: Campaigns) -> None:
    """A player who did as the chronicle did (both war gods down, Wuzhu carried in at the Tangut
    gate) reads the Lantern Festival; one who took Wuzhu before the gate reads a better ending."""
    zhenguo = campaigns.campaigns["zhenguo"]
    history = {"hold_out": "done", "wound_wuzhu": "done", "break_guards": "done", "take_wuzhu": "failed"}
    endings = {
        "history": (history, "The Lantern Festival"),
        "taken": ({**history, "take_wuzhu": "done"}, "No Road to Xingqing"),
        "never tried": ({**history, "take_wuzhu": "open"}, "The Lantern Festival"),
        # Won before the progress kept objectives: the chronicle's ending, as before.
        "unknown": (None, "The Lantern Festival"),
    }
    for why, (objectives, title) in endings.items():
        p = _won_tangut_border(zhenguo, objectives)
        assert p.finished(zhenguo), why
        ending = camp.ending_of(p, zhenguo)
        assert ending is not None and ending.title == title, why
    # A lost try at the Tangut border that took him does not count: only the battle won does.
    lost = camp.BattleResult(
        scenario_id="b3_tangut_border", won=False, turns=4, souls=0, coins=0, objectives={"take_wuzhu": "done"}
    )
    p = _won_tangut_border(zhenguo, history)
    p = p.model_copy(update={"results": [*p.results[:-1], lost, p.results[-1]]})
    assert camp.earned_ending(p, zhenguo) == "lanterns"


def test_campaign_b_endings_tell_the_chronicle_and_what_beating_it_means(campaigns: Campaigns) -> None:
    zhenguo = campaigns.campaigns["zhenguo"]
    assert set(zhenguo.endings) == {"lanterns", "wuzhu_taken"} and zhenguo.ending == "lanterns"
    lanterns = zhenguo.endings["lanterns"].text
    for fact in ("envoy", "Xingqing", "Yuan Shisi", "Guo Yaoshi", "Lantern Festival", "Dongjing", "cart", "arm"):
        assert fact in lanterns, fact
    assert "truce" not in lanterns.lower() and "upright" not in lanterns.lower()
    taken = zhenguo.endings["wuzhu_taken"].text
    assert "Xingqing" in taken and "Dongjing" in taken and "Lantern Festival" in taken
    assert "truce" not in taken.lower()


def test_an_old_campaign_b_progress_still_loads_and_tells_the_lantern_festival(
    tmp_path: Path, campaigns: Campaigns
) -> None:
    """A finished campaign B saved before results kept their objectives loads and ends as the
    chronicle does."""
    from game.ui.campaign_menu import progress_line

    zhenguo = campaigns.campaigns["zhenguo"]
    old = json.loads(_won_tangut_border(zhenguo, None).model_dump_json())
    for result in old["results"]:
        del result["objectives"]
    progress_path("zhenguo", tmp_path).write_text(json.dumps(old), encoding="utf-8")
    loaded = load_progress("zhenguo", tmp_path)
    assert loaded is not None and loaded.finished(zhenguo)
    ending = camp.ending_of(loaded, zhenguo)
    assert ending is not None and ending.title == "The Lantern Festival"
    assert progress_line(zhenguo, loaded) == "Over: The Lantern Festival"


def test_ending_rules_and_retired_endings_that_name_what_does_not_exist_are_reported(tmp_path: Path) -> None:
    from game.paths import DATA_DIR

    text = (DATA_DIR / "campaigns.toml").read_text(encoding="utf-8")
    text = text.replace('retired_endings = { bounty = "liang_taken" }', 'retired_endings = { bounty = "gold" }')
    text = text.replace('ending = "datong_gate"\nbattle = "a4_annihilation"', 'ending = "datong_gate"\nbattle = "a9"')
    bad = tmp_path / "campaigns.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ContentErrors) as exc:
        load_campaigns_file(bad)
    lines = [str(e) for e in exc.value.errors]
    assert any("retired_endings.bounty: unknown ending 'gold'" in line for line in lines), lines
    assert any("ending_rules.2.battle: 'a9' is not a battle of this campaign" in line for line in lines), lines


def test_a_decision_can_be_taken_only_when_it_waits_and_only_once(yuqing: CampaignSpec) -> None:
    p = _won(camp.new_progress(yuqing, seed=5), yuqing, 61_000)
    with pytest.raises(CampError):
        camp.decide(p, yuqing, "liang", "spare")  # no such decision
    with pytest.raises(CampError):
        camp.decide(p, yuqing, "war_aim", "surrender")
    marched = camp.decide(p, yuqing, "war_aim", "march_on")
    with pytest.raises(CampError):
        camp.decide(marched, yuqing, "war_aim", "stop")  # taken already
    assert camp.pending_decision(_won(marched, yuqing, 1_000), yuqing) is None  # asked once only


def test_the_aim_met_in_the_last_battle_asks_nothing_and_ends_with_the_note(yuqing: CampaignSpec) -> None:
    p = camp.new_progress(yuqing, seed=5)
    for souls in (10_000, 10_000, 10_000, 40_000):
        p = _won(p, yuqing, souls)
    assert p.souls_bagged() >= yuqing.souls_aim
    assert camp.pending_decision(p, yuqing) is None and ending_title(p, yuqing) == "The Note on the Helmet"


def test_the_zhenguo_campaign_ends_as_the_chronicle_does_with_no_truce(campaigns: Campaigns) -> None:
    """The envoy demands Wuzhu and warns the Tangut; the fort answers that the Jurchens have gone
    on to Xingqing; Yuan Shisi and Guo Yaoshi come during the talks; Yue Fei goes to Dongjing in a
    cart at the Lantern Festival, and Wuzhu with his broken arm to Xingqing."""
    spec = campaigns.campaigns["zhenguo"]
    p = camp.new_progress(spec, seed=2)
    for _ in spec.scenarios:
        assert camp.ending_of(p, spec) is None
        p = _won(p, spec, 1_000)
    ending = camp.ending_of(p, spec)
    assert p.finished(spec) and ending is not None
    for words in ("envoy", "Xingqing", "Yuan Shisi", "Guo Yaoshi", "Dongjing", "Lantern Festival", "cart", "arm"):
        assert words in ending.text
    assert "truce" not in ending.text.lower() and "truce" not in spec.endings
    assert "rode it sitting" not in ending.text  # he was carried, not riding


def test_decisions_are_saved_and_an_older_progress_file_without_them_still_loads(
    tmp_path: Path, yuqing: CampaignSpec
) -> None:
    p = _won(camp.new_progress(yuqing, seed=5), yuqing, 61_000)
    stopped = camp.decide(p, yuqing, "war_aim", "stop")
    save_progress(stopped, tmp_path)
    again = load_progress("yuqing", tmp_path)
    assert again == stopped and again.finished(yuqing)
    old = json.loads(p.model_dump_json())
    del old["decisions"], old["ending"]  # as written before campaigns had decisions
    progress_path("yuqing", tmp_path).write_text(json.dumps(old), encoding="utf-8")
    loaded = load_progress("yuqing", tmp_path)
    assert loaded is not None
    assert loaded.decisions == {} and loaded.ending is None
    assert waiting_decision(loaded, yuqing) == "war_aim"


def test_decisions_that_name_what_does_not_exist_are_reported(tmp_path: Path) -> None:
    from game.paths import DATA_DIR

    text = (DATA_DIR / "campaigns.toml").read_text(encoding="utf-8")
    text = text.replace('ending = "aim_met" }', 'ending = "nowhere" }').replace(
        'speaker = "du_xuan"', 'speaker = "nobody"'
    )
    path = tmp_path / "campaigns.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ContentErrors) as info:
        load_campaigns_file(path)
    lines = [str(e) for e in info.value.errors]
    assert any("decisions.0.options.0.ending: unknown ending 'nowhere'" in line for line in lines)
    assert any("decisions.0.speaker: unknown hero 'nobody'" in line for line in lines)


def test_every_decision_names_the_course_the_chronicle_took(campaigns: Campaigns) -> None:
    yuqing = campaigns.campaigns["yuqing"]
    assert {d.id: d.chronicle for d in yuqing.decisions} == {"war_aim": "march_on"}


def test_a_formation_the_next_battle_has_no_place_for_stays_in_camp() -> None:
    """Guo Yaoshi rides after the routed when the valley is won: the Pursuit has no place for his
    formation, so the camp spends nothing on it; Yue Fei's rides on, and one raised at the camp
    always takes the field (it enters at the muster)."""
    from game.content.scenarios import load_scenario
    from game.core.roster import CarriedFormation, takes_the_field

    pursuit = load_scenario("b2_the_pursuit").scenario
    guo = CarriedFormation(key="guo_yaoshi", type="zhenguo_rider", hero="guo_yaoshi", men=3000, max_men=4000)
    yue = CarriedFormation(key="yue_fei", type="zhenguo_rider", hero="yue_fei", men=4000, max_men=6200)
    raised = CarriedFormation(key="raised_1", type="zhenguo_rider", men=500, max_men=500, raised=True)
    assert not takes_the_field(pursuit, guo)
    assert takes_the_field(pursuit, yue) and takes_the_field(pursuit, raised)
    # A formation that arrives later in the battle, with a reinforcement, takes the field too.
    border = load_scenario("b3_tangut_border").scenario
    riders = CarriedFormation(key="guo_riders", type="zhenguo_rider", men=1000, max_men=1000)
    assert takes_the_field(border, riders)
