"""Duels between heroes: who may challenge whom, the wait for the answer, refusal and the fight,
morale on both sides, determinism, records, and the computer's answers."""

from __future__ import annotations

import pytest
from conftest import EngineFactory, Unit, frame, loaded_for, make_scenario

from game.ai.basic import BasicAI
from game.ai.driver import play_ai_turn
from game.core import duel
from game.core.actions import Action, AnswerDuel, Attack, Challenge, EndTurn, Move, Rest, UseSkill
from game.core.engine import Engine, GameSettings, IllegalAction
from game.core.events import DuelChallenged, DuelFought, DuelRefused, HeroWounded, MoraleChanged
from game.core.hexgrid import Hex
from game.core.legal import legal_actions
from game.core.rules import Ruleset
from game.core.state import state_hash
from game.record import match as match_module
from game.record.match import Match, match_from_record

PLAIN = ("........",) * 6
ZHENGUO_JIN = (("a", "zhenguo", "player"), ("b", "jin", "enemy"))


def refused(engine: Engine, action: Action, reason: str) -> None:
    before = state_hash(engine.state)
    with pytest.raises(IllegalAction) as exc:
        engine.apply(action)
    assert exc.value.reason == reason, exc.value.message
    assert state_hash(engine.state) == before


def morale_of(events: list, reason: str) -> dict[str, int]:
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
    # Room to gain and to lose, so no change is hidden by the bounds.
    for f in eng.state.formations.values():
        f.morale = 50 if f.side == "a" else 45
    return eng


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
    assert legal_actions(eng) == [AnswerDuel(accept=True), AnswerDuel(accept=False)]
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


def fought(eng: Engine, challenger: str, target: str) -> tuple[DuelFought, list]:
    eng.apply(Challenge(unit=challenger, target=target))
    events = eng.apply(AnswerDuel(accept=True))
    return next(e for e in events if isinstance(e, DuelFought)), events


def expected_wounded(ev: DuelFought) -> set[str]:
    """The rule, recomputed from the rounds shown."""
    won_c = sum(r.challenger_score > r.target_score for r in ev.rounds)
    won_t = sum(r.target_score > r.challenger_score for r in ev.rounds)
    assert len(ev.rounds) <= duel.ROUNDS
    assert max(won_c, won_t) == duel.WINS_NEEDED or len(ev.rounds) == duel.ROUNDS
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
        for r in ev.rounds:
            assert 101 <= r.challenger_score <= 100 + duel.ROLL and 71 <= r.target_score <= 70 + duel.ROLL
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
        ev, events = fought(eng, "a_yue", "b_wuzhu")
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
    match = Match(loaded, 99, GameSettings(controllers={"a": "human", "b": "human"}))
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
    match = Match(loaded_for(scenario), 3, GameSettings(controllers={"a": "ai", "b": "ai"}))
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
    match = Match(loaded_for(scenario), 3, GameSettings(controllers={"a": "ai", "b": "human"}))
    play_ai_turn(match, BasicAI(match.engine, "a"))
    assert match.record.actions == [Challenge(unit="a_xiang", target="b_liang")]
    assert match.engine.deciding_side() == "b"


# -- on screen --------------------------------------------------------------------------------------


@pytest.fixture
def app():
    import pygame

    from game import i18n
    from game.ui.app import App

    before = i18n.language()
    i18n.set_language("en")
    app = App((1280, 800))
    pygame.event.clear()
    yield app
    i18n.set_language(before)


def click(app, pos: tuple[int, int]) -> None:
    import pygame

    pos = (int(pos[0]), int(pos[1]))
    frame(
        app,
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False),
    )


def press(app, key: int) -> None:
    import pygame

    frame(app, pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))


def click_hex(app, battle, h: Hex) -> None:
    battle.camera.centre_on(battle.geometry.centre(h))
    x, y = battle.camera.to_screen(battle.geometry.centre(h))
    click(app, (round(x), round(y)))


def screen_battle(app, rules: Ruleset, controllers: dict[str, str]):

    units = [
        Unit("a_xiang", "a", "warrior", 500, (2, 2), hero="xiang_yu"),
        Unit("a_han", "a", "han_soldier", 1000, (0, 0), hero="han_xin"),
        Unit("b_liang", "b", "soul_levy", 5000, (3, 2), hero="wanyan_liang"),
        Unit("b_far", "b", "soul_levy", 5000, (7, 5)),
    ]
    scenario = make_scenario(rules, PLAIN, units, turn_limit=5)
    battle = app.go("battle", match=Match(loaded_for(scenario), 3, GameSettings(controllers=controllers)))
    frame(app)
    return battle


def test_a_human_challenges_by_button_and_target_and_watches_the_fight(app, rules: Ruleset) -> None:
    import pygame

    from game.ui.battle import BattleScene
    from game.ui.duel_view import DuelScene

    battle = screen_battle(app, rules, {"a": "human", "b": "ai"})
    assert isinstance(app.scene, BattleScene)  # no hand-over against the computer
    click_hex(app, battle, battle.state.formations["a_xiang"].pos)
    assert battle.selected == "a_xiang"
    frame(app)
    button = battle.hud.skills.button_for("challenge")
    assert button is not None and button.is_enabled
    click(app, button.rect.center)
    assert battle.aiming == "challenge"
    assert battle.overlays().targets == {battle.state.formations["b_liang"].pos}
    click_hex(app, battle, battle.state.formations["b_liang"].pos)
    # The computer answers at once: Wanyan Liang will not face the Hegemon-King.
    frame(app, dt=1.0)
    assert battle.match.record.actions == [Challenge(unit="a_xiang", target="b_liang"), AnswerDuel(accept=False)]
    assert app.scene is battle and any("refuses" in line for line in battle.log.lines)
    # Han Xin is a fighter he will face, and the duel is shown round by round.
    battle.state.formations["a_han"].pos = Hex(2, 1)
    battle.selected = "a_han"
    battle._after_change([])
    frame(app)
    click(app, battle.hud.skills.button_for("challenge").rect.center)
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


def test_a_human_challenged_by_the_computer_is_asked(app, rules: Ruleset) -> None:
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
    assert battle.match.record.actions[-1] == AnswerDuel(accept=True)
    assert isinstance(app.scene, DuelScene)
    click(app, (640, 400))
    assert app.scene is battle


def test_in_hot_seat_the_answer_is_handed_over_and_back(app, rules: Ruleset) -> None:
    import pygame

    from game.ui.duel_view import DuelPromptScene
    from game.ui.handover import HandoverScene

    battle = screen_battle(app, rules, {"a": "human", "b": "human"})
    assert isinstance(app.scene, HandoverScene)
    press(app, pygame.K_RETURN)
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
