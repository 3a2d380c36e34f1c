"""Duels between heroes: who may challenge whom, the wait for the answer, refusal and the fight,
morale on both sides, determinism, records, and the computer's answers."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from conftest import EngineFactory, Unit, current, frame, loaded_for, make_scenario, pass_curtain

from game.ai.basic import BasicAI
from game.ai.driver import play_ai_turn
from game.core import duel
from game.core.actions import Action, AnswerDuel, Attack, Challenge, EndTurn, Move, Rest, UseSkill
from game.core.engine import Engine, GameSettings, IllegalAction
from game.core.events import (
    DuelBegun,
    DuelBroken,
    DuelChallenged,
    DuelFought,
    DuelRefused,
    Event,
    HeroWounded,
    MoraleChanged,
)
from game.core.hexgrid import Hex, neighbours
from game.core.rules import Ruleset
from game.core.state import state_hash
from game.record import match as match_module
from game.record.match import Match, match_from_record
from game.record.seats import Commander
from game.ui.app import App
from game.ui.battle import BattleScene

PLAIN = ("........",) * 6
ZHENGUO_JIN = (("a", "zhenguo", "player"), ("b", "jin", "enemy"))


def refused(engine: Engine, action: Action, reason: str) -> None:
    before = state_hash(engine.state)
    with pytest.raises(IllegalAction) as exc:
        engine.apply(action)
    assert exc.value.reason == reason, exc.value.message
    assert state_hash(engine.state) == before


def morale_of(events: list[Event], reason: str) -> dict[str, int]:
    return {e.unit: e.delta for e in events if isinstance(e, MoraleChanged) and e.reason == reason}


HEGEMON_UNITS = [
    Unit("a_xiang", "a", "warrior", 500, (2, 2), hero="xiang_yu"),
    Unit("a_friend", "a", "han_soldier", 1000, (1, 2)),
    Unit("a_cao", "a", "retainer", 1000, (1, 1), hero="cao_zhi"),
    Unit("b_liang", "b", "soul_levy", 5000, (3, 2), hero="wanyan_liang"),
    Unit("b_friend", "b", "soul_levy", 2000, (4, 2)),
    Unit("b_plain", "b", "soul_levy", 2000, (2, 3)),
    Unit("b_far", "b", "soul_levy", 2000, (7, 5)),
]


def hegemon(small_engine: EngineFactory, seed: int = 7) -> Engine:
    eng = small_engine(PLAIN, HEGEMON_UNITS, seed=seed)
    steady(eng)
    return eng


def steady(eng: Engine) -> None:
    """Room to gain and to lose, so no change is hidden by the bounds."""
    for f in eng.state.formations.values():
        f.morale = 50 if f.side == "a" else 45


def war_gods(small_engine: EngineFactory, seed: int) -> Engine:
    return small_engine(
        PLAIN,
        [
            Unit("a_yue", "a", "zhenguo_rider", 2000, (2, 2), hero="yue_fei"),
            Unit("b_wuzhu", "b", "personal_guard", 1000, (3, 2), hero="wanyan_wuzhu"),
            Unit("b_vet", "b", "jurchen_veteran", 3000, (7, 5)),
        ],
        seed=seed,
        sides=ZHENGUO_JIN,
        turn_limit=40,
    )


# -- challenging ----------------------------------------------------------------------------------


def test_who_may_challenge_whom(small_engine: EngineFactory) -> None:
    eng = hegemon(small_engine)
    assert duel.legal_challenges(eng, "a_xiang") == [Challenge(unit="a_xiang", target="b_liang")]
    assert duel.legal_challenges(eng, "a_friend") == []
    refused(eng, Challenge(unit="a_friend", target="b_liang"), "no_hero")
    refused(eng, Challenge(unit="a_xiang", target="b_friend"), "target_no_hero")
    refused(eng, Challenge(unit="a_cao", target="b_liang"), "not_adjacent")
    refused(eng, Challenge(unit="a_xiang", target="a_cao"), "not_an_enemy")
    refused(eng, Challenge(unit="b_liang", target="a_xiang"), "not_your_unit")
    refused(eng, Challenge(unit="a_xiang", target="ghost"), "unknown_unit")
    eng.state.formations["b_liang"].routed = True
    refused(eng, Challenge(unit="a_xiang", target="b_liang"), "target_routed")
    eng.state.formations["b_liang"].routed = False
    eng.apply(Attack(unit="a_xiang", target="b_plain"))
    refused(eng, Challenge(unit="a_xiang", target="b_liang"), "already_acted")


def test_a_challenge_waits_for_its_answer(small_engine: EngineFactory) -> None:
    eng = hegemon(small_engine)
    events = eng.apply(Challenge(unit="a_xiang", target="b_liang"))
    st = eng.state
    assert events == [DuelChallenged(challenger="a_xiang", target="b_liang")]
    assert st.pending_duel is not None and st.pending_duel.target == "b_liang"
    xiang = st.formations["a_xiang"]
    assert xiang.acted and xiang.moved  # the challenger's action is spent
    assert eng.deciding_side() == "b" and st.active_side.id == "a"
    assert eng.legal_actions() == [AnswerDuel(accept=True), AnswerDuel(accept=False)]
    for action in (
        EndTurn(),
        Move(unit="a_friend", to=Hex(0, 1)),
        Attack(unit="a_friend", target="b_liang"),
        Rest(unit="a_cao"),
        UseSkill(unit="a_cao", skill="verse"),
        Challenge(unit="a_xiang", target="b_liang"),
    ):
        refused(eng, action, "duel_pending")
    assert not any(eng.can_move(f) or eng.can_act(f) for f in st.formations.values())


def test_no_answer_without_a_challenge(small_engine: EngineFactory) -> None:
    eng = hegemon(small_engine)
    refused(eng, AnswerDuel(accept=True), "no_duel")


# -- answering ------------------------------------------------------------------------------------


def test_refusing_costs_the_refuser_morale(small_engine: EngineFactory) -> None:
    eng = hegemon(small_engine)
    eng.apply(Challenge(unit="a_xiang", target="b_liang"))
    events = eng.apply(AnswerDuel(accept=False))
    st = eng.state
    assert events[0] == DuelRefused(challenger="a_xiang", target="b_liang")
    assert st.formations["b_liang"].morale == 45 + duel.REFUSE_MORALE
    assert st.formations["a_xiang"].morale == 50 + duel.CHALLENGER_MORALE
    assert st.pending_duel is None and st.wounded_heroes == []
    assert st.formations["b_liang"].hero == "wanyan_liang" and st.formations["a_xiang"].hero == "xiang_yu"
    assert st.active_side.id == "a" and st.formations["a_xiang"].acted
    eng.apply(Move(unit="a_friend", to=Hex(0, 1)))  # the turn goes on


def fight_out(
    eng: Engine, challenger: str, target: str, before_press: Callable[[Engine], None] = steady
) -> list[list[Event]]:
    """Challenge, accept, then let each side's hero press the next exchange on its turn until the
    duel is decided: the events of every action that fought an exchange (``before_press`` sets
    the field up before each)."""
    eng.apply(Challenge(unit=challenger, target=target))
    bouts = [eng.apply(AnswerDuel(accept=True))]
    while not any(isinstance(e, DuelFought) and not e.goes_on for e in bouts[-1]):
        assert not any(isinstance(e, DuelBroken) for e in eng.apply(EndTurn()))
        side = eng.state.active_side.id
        presser = next(f for f in eng.state.formations.values() if f.side == side and duel.in_duel(f))
        opponent = duel.opponent(eng.state, presser)
        assert opponent is not None
        before_press(eng)
        bouts.append(eng.apply(Challenge(unit=presser.id, target=opponent.id)))
    return bouts


def fought(
    eng: Engine, challenger: str, target: str, before_press: Callable[[Engine], None] = steady
) -> tuple[DuelFought, list[Event]]:
    """The duel fought to its end: its last exchange and the events of the action that fought it."""
    events = fight_out(eng, challenger, target, before_press)[-1]
    return next(e for e in events if isinstance(e, DuelFought)), events


def expected_wounded(ev: DuelFought) -> set[str]:
    """The rule, recomputed from the last exchange's tally."""
    won_c, won_t = ev.tally
    assert max(won_c, won_t) == duel.WINS_NEEDED and not ev.goes_on
    if abs(won_c - won_t) <= duel.CLOSE:
        return {ev.challenger_hero, ev.target_hero}
    return {ev.target_hero if won_c > won_t else ev.challenger_hero}


def test_the_better_fighter_usually_wins_and_the_loser_leaves_the_field(
    small_engine: EngineFactory, rules: Ruleset
) -> None:
    wins = 0
    for seed in range(30):
        eng = hegemon(small_engine, seed)
        ev, events = fought(eng, "a_xiang", "b_liang")
        st = eng.state
        wounded = expected_wounded(ev)
        assert set(ev.wounded) == wounded and sorted(st.wounded_heroes) == sorted(wounded)
        for fid, hero in (("a_xiang", "xiang_yu"), ("b_liang", "wanyan_liang")):
            assert (st.formations[fid].hero is None) is (hero in wounded)
            assert (HeroWounded(hero=hero, unit=fid, side=fid[0]) in events) is (hero in wounded)
            assert not duel.in_duel(st.formations[fid])  # the ring breaks up
        for r in ev.rounds:
            ours = r.challenger_score if ev.challenger_hero == "xiang_yu" else r.target_score
            theirs = r.target_score if ev.challenger_hero == "xiang_yu" else r.challenger_score
            top = duel.ROLL + duel.MAX_SUPPORTERS * duel.SUPPORT
            assert 101 <= ours <= 100 + top and 71 <= theirs <= 70 + top
        if wounded == {"wanyan_liang"}:
            wins += 1
            # The loser's men despair, his neighbours too; the winner's men exult.
            assert morale_of(events, duel.HERO_WOUNDED) == {"b_liang": duel.LOSER_MORALE}
            assert morale_of(events, duel.HERO_WOUNDED_NEARBY) == {
                "b_friend": duel.LOSER_SIDE_MORALE,
                "b_plain": duel.LOSER_SIDE_MORALE,
            }
            assert morale_of(events, duel.DUEL_WON) == {"a_xiang": duel.WINNER_MORALE}
            assert morale_of(events, duel.DUEL_WON_NEARBY) == {
                "a_friend": duel.WINNER_SIDE_MORALE,
                "a_cao": duel.WINNER_SIDE_MORALE,
            }
        assert st.men_ever() == st.men_accounted() and st.pending_duel is None
    assert wins >= 27  # thirty points of martial skill are hard to overcome


def test_two_war_gods_often_both_fall(small_engine: EngineFactory) -> None:
    outcomes = []
    for seed in range(40):
        eng = war_gods(small_engine, seed)
        ev, events = fought(eng, "a_yue", "b_wuzhu", lambda eng: None)
        assert set(ev.wounded) == expected_wounded(ev)
        if len(ev.wounded) == 2:
            st = eng.state
            assert st.formations["a_yue"].hero is None and st.formations["b_wuzhu"].hero is None
            assert morale_of(events, duel.HERO_WOUNDED) == {
                "a_yue": duel.BOTH_WOUNDED_MORALE,
                "b_wuzhu": duel.BOTH_WOUNDED_MORALE,
            }
            assert morale_of(events, duel.DUEL_WON) == {}
        outcomes.append(tuple(sorted(ev.wounded)))
    assert {("wanyan_wuzhu", "yue_fei"), ("wanyan_wuzhu",), ("yue_fei",)} <= set(outcomes)


def test_same_seed_same_duel(small_engine: EngineFactory) -> None:
    first = fought(hegemon(small_engine, 5), "a_xiang", "b_liang")[0]
    again = fought(hegemon(small_engine, 5), "a_xiang", "b_liang")[0]
    assert first == again
    rounds = {fought(war_gods(small_engine, s), "a_yue", "b_wuzhu")[0].rounds for s in range(6)}
    assert len(rounds) > 1  # the dice matter


def test_a_duel_replays_from_the_record(rules: Ruleset, monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = loaded_for(make_scenario(rules, PLAIN, HEGEMON_UNITS, turn_limit=4))
    monkeypatch.setattr(match_module, "scenario_for", lambda record: loaded)
    match = Match(loaded, 99, GameSettings(), seats={"a": "human", "b": "human"})
    match.apply(Challenge(unit="a_xiang", target="b_liang"))
    match.apply(AnswerDuel(accept=True))
    match.apply(EndTurn())
    again = match_from_record(match.record)
    assert state_hash(again.state) == state_hash(match.state)
    assert again.record.actions[1] == AnswerDuel(accept=True)


# -- the computer ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("challenger", "accepts"),
    [("xiang_yu", False), ("han_xin", True), ("geng_gong", True)],
)
def test_the_ai_accepts_unless_clearly_outmatched(small_engine: EngineFactory, challenger: str, accepts: bool) -> None:
    eng = small_engine(
        PLAIN,
        [
            Unit("a_hero", "a", "han_soldier", 1000, (2, 2), hero=challenger),
            Unit("b_liang", "b", "soul_levy", 5000, (3, 2), hero="wanyan_liang"),
        ],
    )
    eng.apply(Challenge(unit="a_hero", target="b_liang"))
    assert BasicAI(eng, "b").next_action() == AnswerDuel(accept=accepts)


def test_the_ai_challenges_when_favoured_and_the_driver_asks_the_challenged(rules: Ruleset) -> None:
    units = [
        Unit("a_xiang", "a", "warrior", 500, (2, 2), hero="xiang_yu"),
        Unit("b_liang", "b", "soul_levy", 5000, (3, 2), hero="wanyan_liang"),
        Unit("b_far", "b", "soul_levy", 5000, (7, 5)),
    ]
    scenario = make_scenario(rules, PLAIN, units, turn_limit=4)
    match = Match(loaded_for(scenario), 3, GameSettings(), seats={"a": "ai", "b": "ai"})
    play_ai_turn(match, BasicAI(match.engine, "a"))
    actions = match.record.actions
    assert actions[:2] == [Challenge(unit="a_xiang", target="b_liang"), AnswerDuel(accept=False)]
    assert actions[-1] == EndTurn() and match.state.pending_duel is None


def test_the_driver_stops_for_a_human_answer(rules: Ruleset) -> None:
    units = [
        Unit("a_xiang", "a", "warrior", 500, (2, 2), hero="xiang_yu"),
        Unit("b_liang", "b", "soul_levy", 5000, (3, 2), hero="wanyan_liang"),
    ]
    scenario = make_scenario(rules, PLAIN, units, turn_limit=4)
    match = Match(loaded_for(scenario), 3, GameSettings(), seats={"a": "ai", "b": "human"})
    play_ai_turn(match, BasicAI(match.engine, "a"))
    assert match.record.actions == [Challenge(unit="a_xiang", target="b_liang")]
    assert match.engine.deciding_side() == "b"


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


def click(app: App, pos: tuple[int, int]) -> None:
    import pygame

    pos = (int(pos[0]), int(pos[1]))
    frame(
        app,
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False),
    )


def press(app: App, key: int) -> None:
    import pygame

    frame(app, pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))


def click_hex(app: App, battle: BattleScene, h: Hex) -> None:
    battle.camera.centre_on(battle.geometry.centre(h))
    x, y = battle.camera.to_screen(battle.geometry.centre(h))
    click(app, (round(x), round(y)))


def screen_battle(app: App, rules: Ruleset, controllers: dict[str, Commander]) -> BattleScene:

    units = [
        Unit("a_xiang", "a", "warrior", 500, (2, 2), hero="xiang_yu"),
        Unit("a_han", "a", "han_soldier", 1000, (0, 0), hero="han_xin"),
        Unit("b_liang", "b", "soul_levy", 5000, (3, 2), hero="wanyan_liang"),
        Unit("b_far", "b", "soul_levy", 5000, (7, 5)),
    ]
    scenario = make_scenario(rules, PLAIN, units, turn_limit=5)
    battle = app.go("battle", match=Match(loaded_for(scenario), 3, GameSettings(), seats=controllers))
    assert isinstance(battle, BattleScene)
    frame(app)
    return battle


def test_a_human_challenges_by_button_and_target_and_watches_the_fight(app: App, rules: Ruleset) -> None:
    import pygame

    from game.ui.battle import BattleScene
    from game.ui.duel_view import DuelScene

    battle = screen_battle(app, rules, {"a": "human", "b": "ai"})
    assert isinstance(app.scene, BattleScene)  # no hand-over against the computer
    click_hex(app, battle, battle.state.formations["a_xiang"].pos)
    assert battle.session.selected == "a_xiang"
    frame(app)
    button = battle.panels.hud.skills.button_for("challenge")
    assert button is not None and button.is_enabled
    click(app, button.rect.center)
    assert battle.session.choice.aiming == "challenge"
    assert battle.overlays().targets == {battle.state.formations["b_liang"].pos}
    click_hex(app, battle, battle.state.formations["b_liang"].pos)
    # The computer answers at once: Wanyan Liang will not face the Hegemon-King.
    frame(app, dt=1.0)
    assert battle.match.record.actions == [Challenge(unit="a_xiang", target="b_liang"), AnswerDuel(accept=False)]
    assert app.scene is battle and any("refuses" in line for line in battle.log.lines)
    # Han Xin is a fighter he will face, and the duel is shown round by round.
    battle.state.formations["a_han"].pos = Hex(2, 1)
    battle.session.selected = "a_han"
    battle._after_change([])
    frame(app)
    challenge = battle.panels.hud.skills.button_for("challenge")
    assert challenge is not None
    click(app, challenge.rect.center)
    click_hex(app, battle, battle.state.formations["b_liang"].pos)
    frame(app, dt=1.0)
    assert battle.match.record.actions[-1] == AnswerDuel(accept=True)
    duel_scene = app.scene
    assert isinstance(duel_scene, DuelScene) and duel_scene.rounds_shown == 1
    rounds = len(duel_scene.fought.rounds)
    for _ in range(rounds + 1):
        frame(app, dt=0.61)
    assert duel_scene.rounds_shown == rounds and duel_scene.finished
    press(app, pygame.K_SPACE)
    assert app.scene is battle


def last_action(battle: BattleScene) -> Action:
    return battle.match.record.actions[-1]


def test_a_human_challenged_by_the_computer_is_asked(app: App, rules: Ruleset) -> None:
    from game.ui.duel_view import DuelPromptScene, DuelScene

    battle = screen_battle(app, rules, {"a": "ai", "b": "human"})
    for _ in range(5):
        if isinstance(app.scene, DuelPromptScene):
            break
        frame(app, dt=1.0)
    prompt = app.scene
    assert isinstance(prompt, DuelPromptScene)
    # (Han Xin may open a lane and charge first: the challenge is what waits for the answer.)
    assert battle.match.record.actions[-1] == Challenge(unit="a_xiang", target="b_liang")
    click(app, prompt.accept.rect.center)
    assert last_action(battle) == AnswerDuel(accept=True)
    assert isinstance(app.scene, DuelScene)
    click(app, (640, 400))
    assert current(app, BattleScene) is battle


def test_in_hot_seat_the_answer_is_handed_over_and_back(app: App, rules: Ruleset) -> None:
    import pygame

    from game.ui.duel_view import DuelPromptScene
    from game.ui.handover import HandoverScene

    battle = screen_battle(app, rules, {"a": "human", "b": "human"})
    assert isinstance(app.scene, HandoverScene)
    pass_curtain(app)
    battle.submit(Challenge(unit="a_xiang", target="b_liang"))
    prompt = app.scene
    assert isinstance(prompt, DuelPromptScene) and prompt.target.side == "b"
    frame(app)
    press(app, pygame.K_ESCAPE)  # refuse
    assert battle.match.record.actions[-1] == AnswerDuel(accept=False)
    assert isinstance(app.scene, HandoverScene) and app.scene.side_id == "a"


def test_the_duel_odds_are_the_fights_own_chances() -> None:
    """The odds shown before a duel: they sum to one, favour the better fighter, are the mirror
    image when the heroes swap, and agree with many fights rolled by the game's own dice."""
    from game.core.duel import duel_odds, fight
    from game.core.rng import Rng

    win, both, lose = duel_odds(60, 60)
    assert abs(win + both + lose - 1.0) < 1e-9 and abs(win - lose) < 1e-9
    strong = duel_odds(80, 60)
    assert strong[0] > win and strong[2] < lose
    assert all(abs(a - b) < 1e-9 for a, b in zip(duel_odds(60, 80), reversed(strong), strict=True))
    n = 4000
    counts = [0, 0, 0]
    for seed in range(n):
        _rounds, wc, wt = fight(Rng(seed, 0), 80, 60)
        counts[0 if wc - wt > 1 else 2 if wt - wc > 1 else 1] += 1
    for expected, seen in zip(strong, counts, strict=True):
        sigma = (expected * (1 - expected) / n) ** 0.5
        assert abs(seen / n - expected) < 4 * sigma + 1e-3


# -- a duel over several turns ---------------------------------------------------------------------


def test_a_duel_spans_turns_while_both_armies_watch(small_engine: EngineFactory) -> None:
    """Accepted, the heroes close for a first exchange; each side's hero fights the next on his
    own turn; in between neither formation moves or fights anyone else, nobody strikes them,
    and fighting near them goes at half strength."""
    spans = []
    for seed in range(12):
        eng = war_gods(small_engine, seed)
        yue_at, wuzhu_at = eng.state.formations["a_yue"].pos, eng.state.formations["b_wuzhu"].pos
        # Next to both duellists.
        eng.state.formations["b_vet"].pos = min(set(neighbours(yue_at)) & set(neighbours(wuzhu_at)))
        eng.apply(Challenge(unit="a_yue", target="b_wuzhu"))
        events = eng.apply(AnswerDuel(accept=True))
        assert events[0] == DuelBegun(challenger="a_yue", target="b_wuzhu")
        first = next(e for e in events if isinstance(e, DuelFought))
        assert first.rounds and first.goes_on and max(first.tally) <= 1
        st = eng.state
        yue, wuzhu = st.formations["a_yue"], st.formations["b_wuzhu"]
        assert duel.in_duel(yue) and duel.in_duel(wuzhu) and duel.opponent(st, yue) is wuzhu
        start = st.turn
        eng.apply(EndTurn())
        refused(eng, Move(unit="b_wuzhu", to=max(set(neighbours(wuzhu_at)) - set(neighbours(yue_at)))), "duelling")
        refused(eng, Attack(unit="b_vet", target="a_yue"), "duelling")
        assert eng.attack_targets("b_vet") == [] and not eng.can_move(wuzhu)
        assert duel.legal_challenges(eng, "b_wuzhu") == [Challenge(unit="b_wuzhu", target="a_yue")]
        bouts = fight_out_from(eng)
        spans.append(eng.state.turn - start)
        assert not duel.in_duel(yue) and not duel.in_duel(wuzhu)
        assert eng.state.wounded_heroes and eng.state.pending_duel is None
        # Every exchange's tally is the last one's plus the blow it landed.
        fought = [e for events in bouts for e in events if isinstance(e, DuelFought)]
        assert sum(not e.goes_on for e in [first, *fought]) == 1
    assert min(spans) >= 1 and max(spans) >= 2  # never settled in one action


def fight_out_from(eng: Engine) -> list[list[Event]]:
    """Each side's hero presses the duel on its turn until it is decided."""
    bouts: list[list[Event]] = []
    while True:
        side = eng.state.active_side.id
        presser = next((f for f in eng.state.formations.values() if f.side == side and duel.in_duel(f)), None)
        if presser is None:
            return bouts
        opponent = duel.opponent(eng.state, presser)
        assert opponent is not None
        bouts.append(eng.apply(Challenge(unit=presser.id, target=opponent.id)))
        if any(isinstance(e, DuelFought) and not e.goes_on for e in bouts[-1]):
            return bouts
        eng.apply(EndTurn())


def test_fighting_near_a_duel_goes_at_half_strength(small_engine: EngineFactory) -> None:
    eng = small_engine(
        PLAIN,
        [
            Unit("a_yue", "a", "zhenguo_rider", 2000, (2, 2), hero="yue_fei"),
            Unit("a_near", "a", "zhenguo_rider", 1000, (1, 4)),
            Unit("a_far", "a", "zhenguo_rider", 1000, (6, 4)),
            Unit("b_wuzhu", "b", "personal_guard", 1000, (3, 2), hero="wanyan_wuzhu"),
            Unit("b_near", "b", "jurchen_veteran", 1000, (2, 4)),
            Unit("b_far", "b", "jurchen_veteran", 1000, (7, 4)),
        ],
        seed=3,
        sides=ZHENGUO_JIN,
    )
    calm = {m.name for m in eng.forecast(Attack(unit="a_near", target="b_near")).modifiers}
    assert duel.WATCHING not in calm
    eng.apply(Challenge(unit="a_yue", target="b_wuzhu"))
    eng.apply(AnswerDuel(accept=True))
    near = eng.forecast(Attack(unit="a_near", target="b_near")).modifiers
    watched = [(m.applies_to, m.percent) for m in near if m.name == duel.WATCHING]
    assert sorted(watched) == [("attacker", duel.WATCH_PERCENT), ("defender", duel.WATCH_PERCENT)]
    far = eng.forecast(Attack(unit="a_far", target="b_far")).modifiers
    assert duel.WATCHING not in {m.name for m in far}


def test_a_duel_nobody_presses_is_broken_off(small_engine: EngineFactory) -> None:
    eng = war_gods(small_engine, 4)
    eng.apply(Challenge(unit="a_yue", target="b_wuzhu"))
    eng.apply(AnswerDuel(accept=True))
    broken = []
    for _ in range(4):
        broken += [e for e in eng.apply(EndTurn()) if isinstance(e, DuelBroken)]
    assert len(broken) == 1
    st = eng.state
    assert not duel.in_duel(st.formations["a_yue"]) and not duel.in_duel(st.formations["b_wuzhu"])
    assert st.wounded_heroes == [] and st.formations["a_yue"].hero == "yue_fei"


def test_friends_pressing_on_the_enemy_hero_shift_the_duel(small_engine: EngineFactory, rules: Ruleset) -> None:
    """Guo Yaoshi's riders coming up on Wuzhu: each friend next to the opponent adds to the
    hero's score, the odds shown say so, and the rolls bear it out."""
    eng = war_gods(small_engine, 2)
    st = eng.state
    yue, wuzhu = st.formations["a_yue"], st.formations["b_wuzhu"]
    alone = duel.current_odds(eng, yue, wuzhu)
    assert alone == duel.duel_odds(100, 95)
    only_yue = sorted(set(neighbours(yue.pos)) - set(neighbours(wuzhu.pos)) - {wuzhu.pos})
    only_wuzhu = sorted(set(neighbours(wuzhu.pos)) - set(neighbours(yue.pos)) - {yue.pos})
    st.formations["b_vet"].pos = only_yue[0]  # pressing on Yue Fei
    for k, at in enumerate(only_wuzhu[:2]):
        st.formations[f"a_guo{k}"] = st.formations["b_vet"].model_copy(
            update={"id": f"a_guo{k}", "side": "a", "type": "zhenguo_rider", "pos": at}
        )
    assert duel.support(st, yue, wuzhu) == 2 * duel.SUPPORT and duel.support(st, wuzhu, yue) == duel.SUPPORT
    pressed = duel.current_odds(eng, yue, wuzhu)
    assert pressed == duel.duel_odds(100, 95, 2 * duel.SUPPORT, duel.SUPPORT)
    assert pressed[0] > alone[0] and pressed[2] < alone[2]


def test_the_odds_follow_the_rounds_already_won() -> None:
    last = duel.WINS_NEEDED - 1
    assert duel.duel_odds(100, 95, won=(last, last)) == (0.0, 1.0, 0.0)  # whoever lands the next, both fall
    ahead = duel.duel_odds(100, 95, won=(last, 0))
    assert ahead[0] > duel.duel_odds(100, 95)[0] and ahead[2] == 0.0
    for won in ((0, 0), (1, 0), (1, 2)):
        assert abs(sum(duel.duel_odds(90, 100, 5, 0, won)) - 1.0) < 1e-9


def test_a_duel_in_progress_stays_marked_on_the_board(app: App, small_engine: EngineFactory) -> None:
    """While the heroes fight, the board rings both hexes in gold and crosses blades between
    them, from the first exchange to the last; after it, nothing."""
    import pygame

    from game.content.tmx import HexLayout
    from game.ui.board_view import DUEL_COLOUR, BoardView, Overlays
    from game.ui.camera import Camera
    from game.ui.geometry import MapGeometry

    eng = war_gods(small_engine, 3)
    eng.apply(Challenge(unit="a_yue", target="b_wuzhu"))
    eng.apply(AnswerDuel(accept=True))
    geometry = MapGeometry(HexLayout(56.0, 64.0, 32.0, True), eng.board.width, eng.board.height)
    camera = Camera(geometry.pixel_size, (800, 600))
    view = BoardView(geometry, eng.board.terrain, eng.rules)
    shown = list(eng.state.formations.values())
    yue, wuzhu = eng.state.formations["a_yue"], eng.state.formations["b_wuzhu"]
    assert view.duels_shown(eng.state, shown) == [(yue, wuzhu)]
    surface = pygame.Surface((800, 600))
    view.draw(surface, camera, eng.state, Overlays())
    (ax, ay), (bx, by) = (camera.to_screen(geometry.centre(f.pos)) for f in (yue, wuzhu))
    midpoint = surface.get_at((round((ax + bx) / 2), round((ay + by) / 2)))[:3]
    assert midpoint == DUEL_COLOUR
    eng.apply(EndTurn())  # the other side's turn: the duel goes on, and so does its mark
    assert view.duels_shown(eng.state, list(eng.state.formations.values()))
    fight_out_from(eng)
    assert view.duels_shown(eng.state, list(eng.state.formations.values())) == []
