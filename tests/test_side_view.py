"""One side's view: the same answers as the rules of sight, asked once per position, and cards
that tell a side only what it may know of a formation."""

from __future__ import annotations

import pytest
from conftest import EngineFactory, Unit, loaded_for, make_scenario

from game.core import vision
from game.core.actions import EndTurn, Move
from game.core.engine import GameSettings
from game.core.hexgrid import Hex
from game.core.rules import Ruleset
from game.core.state import copy_state
from game.record.match import Match
from game.view.card import TIRED_FATIGUE, formation_card
from game.view.side_view import SideView, SideViews

STRIP = (".......f................", "........................", "........................")
UNITS = [
    Unit("a_foot", "a", "han_soldier", 3000, (10, 1), hero="han_xin"),
    Unit("a_hidden", "a", "ambush_host", 1000, (7, 0), hidden=True),  # a's own, in the wood
    Unit("b_bow", "b", "crossbowman", 1500, (13, 2), hero="yue_fei"),
    Unit("b_far", "b", "soul_levy", 4000, (23, 2)),  # out of a's sight
]
SIDES = (("a", "yuqing", "player"), ("b", "zhenguo", "enemy"))


def hotseat(rules: Ruleset, units: list[Unit] = UNITS) -> Match:
    scenario = make_scenario(rules, STRIP, units, sides=SIDES, turn_limit=5)
    return Match(loaded_for(scenario), 3, GameSettings(), seats={"a": "human", "b": "human"})


# -- what the side sees --------------------------------------------------------------------------


def test_a_side_view_gives_the_rules_answers(rules: Ruleset) -> None:
    match = hotseat(rules)
    state, board = match.state, match.engine.board
    view = SideView(state, board, rules, "a")
    assert view.visible == vision.visible_hexes(state, board, rules, "a")
    assert view.explored == {Hex.parse(k) for k in state.side("a").explored}
    assert [f.id for f in view.seen] == [f.id for f in vision.seen_formations(state, board, rules, "a")]
    assert view.seen_ids == {"a_foot", "a_hidden", "b_bow"}
    assert view.sight == vision.sight_of(state, board, rules, "a")
    assert set(view.state.formations) == view.seen_ids  # the fogged state
    fog = view.fog
    assert fog is not None and (fog.visible, fog.explored, fog.shown) == (view.visible, view.explored, view.seen_ids)
    assert view.sees("b_bow") and not view.sees("b_far")
    seen = view.formation_at(state.formations["b_bow"].pos)
    assert seen is not None and seen.id == "b_bow"
    assert view.formation_at(state.formations["b_far"].pos) is None  # unseen ground holds nothing


def test_a_side_view_works_each_answer_out_once(rules: Ruleset, monkeypatch: pytest.MonkeyPatch) -> None:
    match = hotseat(rules)
    calls: list[str] = []
    seen_formations = vision.seen_formations

    def counting(*args, **kw):  # type: ignore[no-untyped-def]
        calls.append("seen")
        return seen_formations(*args, **kw)

    monkeypatch.setattr(vision, "seen_formations", counting)
    view = SideView(match.state, match.engine.board, rules, "a")

    def ask() -> tuple[object, ...]:
        return (view.fog, view.state, view.threat, view.card("b_bow"), view.sight)

    first = ask()
    asked = len(calls)
    assert asked >= 1
    again = ask()
    assert len(calls) == asked  # nothing asked of the rules twice
    assert all(x is y for x, y in zip(first, again, strict=True))


def test_the_view_on_screen_is_kept_until_the_game_moves_on(rules: Ruleset) -> None:
    match = hotseat(rules)
    views = SideViews(match.engine.board, rules)
    first = views.of(match.state, "a")
    assert views.of(match.state, "a") is first
    assert views.of(match.state, "b") is not first and views.of(match.state, "a") is first
    foot = match.state.formations["a_foot"]
    match.apply(Move(unit="a_foot", to=Hex(foot.pos.q + 1, foot.pos.r)))
    moved = views.of(match.state, "a")
    assert moved is not first and "b_far" not in moved.seen_ids
    assert views.of(copy_state(match.state), "a") is not moved  # another state (undo, loading)


def test_a_spectator_sees_everything(rules: Ruleset) -> None:
    match = hotseat(rules)
    view = SideView(match.state, match.engine.board, rules, None)
    assert view.fog is None and view.state is match.state
    assert view.seen_ids == set(match.state.formations)
    assert view.visible == view.explored == frozenset(match.engine.board.hexes())
    card = view.card("a_hidden")
    assert card is not None and card.relation is None and "hidden" in card.statuses


# -- cards ---------------------------------------------------------------------------------------


def test_an_enemy_card_shows_what_the_field_shows(rules: Ruleset) -> None:
    match = hotseat(rules)
    bow = match.state.formations["b_bow"]
    bow.men, bow.morale, bow.fatigue, bow.experience, bow.ammo, bow.charges = 1234, 40, 55, 3, 4, 1
    bow.cooldowns = {"officer_kills": 2}
    card = SideView(match.state, match.engine.board, rules, "a").card("b_bow")
    assert card is not None and card.relation == "enemy"
    utype = rules.units["crossbowman"]
    assert (card.type_name, card.men, card.max_men) == (utype.name, 1234, 1500)
    assert (card.morale, card.rout_threshold, card.full_morale) == (40, utype.rout_threshold, utype.morale)
    assert (card.fatigue, card.experience) == (55, 3)
    assert (card.movement, card.forced_movement) == (utype.movement, int(utype.movement * 1.5))
    assert card.melee and not card.siege
    assert (card.missile_range, card.ammo) == (utype.range, 4)
    assert (card.thunder_range, card.charges) == (max(1, utype.range), 1)
    assert card.hero is not None and card.hero.name == "Yue Fei" and card.hero.martial == 100
    assert [s.id for s in card.skills] == ["officer_kills", "yue_banner"]
    assert all(s.cooldown is None for s in card.skills)  # when his skills are ready is his own affair
    assert card.statuses == ("tired",)  # nothing of what it did this turn, or plans


def test_an_own_card_tells_the_commander_everything(rules: Ruleset) -> None:
    match = hotseat(rules)
    foot = match.state.formations["a_foot"]
    foot.cooldowns = {"backs_to_the_river": 2}
    view = SideView(match.state, match.engine.board, rules, "a")
    card = view.card("a_foot")
    assert card is not None and card.relation == "own" and card.statuses == ("ready",)
    assert [(s.id, s.cooldown) for s in card.skills] == [("backs_to_the_river", 2), ("open_the_lane", 0)]
    assert (card.missile_range, card.ammo, card.thunder_range, card.charges) == (0, None, 0, None)
    hidden = view.card("a_hidden")
    assert hidden is not None and hidden.statuses == ("hidden", "ready")
    match.apply(Move(unit="a_foot", to=Hex(foot.pos.q + 1, foot.pos.r)))
    moved = SideView(match.state, match.engine.board, rules, "a").card("a_foot")
    assert moved is not None and moved.statuses == ("moved",)
    match.apply(EndTurn())
    # b on the move: what a did in its turn is a's business, even on a's own card now.
    waiting = SideView(match.state, match.engine.board, rules, "a").card("a_foot")
    assert waiting is not None and waiting.statuses == ()


def test_in_hotseat_a_side_cannot_read_the_card_of_a_formation_it_does_not_see(rules: Ruleset) -> None:
    units = [u for u in UNITS if u.id != "a_hidden"]
    match = hotseat(rules, [*units, Unit("b_ambush", "b", "ambush_host", 2000, (13, 0), hidden=True)])
    state, board = match.state, match.engine.board
    a_view, b_view = SideView(state, board, rules, "a"), SideView(state, board, rules, "b")
    assert state.formations["b_ambush"].pos in a_view.visible  # in sight, yet lying hidden
    assert a_view.card("b_ambush") is None
    assert a_view.card("no_such_unit") is None
    own = b_view.card("b_ambush")
    assert own is not None and "hidden" in own.statuses
    # Seen in the open, its card still keeps its secrets.
    state.formations["b_ambush"].hidden = False
    seen = SideView(state, board, rules, "a").card("b_ambush")
    assert seen is not None and "hidden" not in seen.statuses and seen.relation == "enemy"


def test_a_formation_out_of_sight_has_no_card(rules: Ruleset) -> None:
    match = hotseat(rules)
    view = SideView(match.state, match.engine.board, rules, "a")
    assert view.card("b_far") is None
    assert formation_card(match.state, rules, "a", "b_far", view.seen_ids) is None
    assert formation_card(match.state, rules, None, "b_far", frozenset()) is not None  # the spectator's


def test_routed_and_tired_are_seen_by_all(small_engine: EngineFactory) -> None:
    eng = small_engine(STRIP, UNITS, sides=SIDES)
    bow = eng.state.formations["b_bow"]
    bow.routed, bow.fatigue = True, TIRED_FATIGUE
    card = SideView(eng.state, eng.board, eng.rules, "a").card("b_bow")
    assert card is not None and card.routed and card.statuses == ("routed", "tired")
