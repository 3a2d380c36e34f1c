"""Reading the player's clicks and orders on the battle screen, without a screen: what is chosen,
what a click means, and taking it back one step at a time."""

from __future__ import annotations

from conftest import Unit, loaded_for, make_scenario

from game.core.actions import Attack, Move
from game.core.engine import GameSettings
from game.core.hexgrid import offset_to_axial
from game.core.rules import Ruleset
from game.record.match import Match
from game.session.choice import OrderInput

FIELD = ("........",) * 6
UNITS = [
    Unit("a_foot", "a", "han_soldier", 3000, (2, 2)),
    Unit("a_guard", "a", "retainer", 800, (1, 4)),
    Unit("b_levy", "b", "soul_levy", 1500, (3, 2)),
]


def game(rules: Ruleset) -> Match:
    scenario = make_scenario(rules, FIELD, UNITS, turn_limit=5)
    return Match(loaded_for(scenario), 3, GameSettings(), seats={"a": "human", "b": "ai"})


def test_a_click_on_ones_own_formation_chooses_it_and_a_second_lets_it_go(rules: Ruleset) -> None:
    match, choice = game(rules), OrderInput()
    foot = match.state.formations["a_foot"]
    assert choice.click(match.engine, foot.pos, foot).kind == "select" and choice.selected == "a_foot"
    choice.settle(match.engine)
    assert choice.move_map is not None and choice.move_map.destinations
    assert choice.click(match.engine, foot.pos, foot).kind == "select" and choice.selected is None


def test_a_click_on_an_enemy_in_reach_aims_a_blow_and_cancel_takes_back_one_step_at_a_time(rules: Ruleset) -> None:
    match, choice = game(rules), OrderInput()
    foot, levy = match.state.formations["a_foot"], match.state.formations["b_levy"]
    choice.click(match.engine, foot.pos, foot)
    choice.settle(match.engine)
    reading = choice.click(match.engine, levy.pos, levy)
    assert reading.kind == "forecast" and reading.action == Attack(unit="a_foot", target="b_levy")
    assert choice.pending_attack == reading.action
    assert choice.cancel() == "attack" and choice.pending_attack is None and choice.selected == "a_foot"
    assert choice.cancel() == "selection" and choice.selected is None
    assert choice.cancel() == "nothing" and not choice.has_choice_to_cancel()


def test_a_click_in_reach_is_a_move_and_forced_march_is_asked_for(rules: Ruleset) -> None:
    match, choice = game(rules), OrderInput()
    foot = match.state.formations["a_foot"]
    choice.click(match.engine, foot.pos, foot)
    choice.settle(match.engine)
    assert choice.move_map is not None
    to = sorted(choice.move_map.destinations, key=lambda h: (h.q, h.r))[0]
    assert choice.click(match.engine, to, None).action == Move(unit="a_foot", to=to, forced=False)
    assert choice.order(match.engine, "forced").kind == "toggle" and choice.forced_march
    assert choice.click(match.engine, to, None).action == Move(unit="a_foot", to=to, forced=True)
    far = offset_to_axial(7, 5)
    assert far not in choice.move_map.destinations
    # A click out of reach is not ignored: it is the march asked for, which the session refuses with its reason.
    beyond = choice.click(match.engine, far, None)
    assert beyond.kind == "beyond" and beyond.action == Move(unit="a_foot", to=far, forced=True)


def test_nothing_chosen_means_a_click_on_the_map_orders_nothing(rules: Ruleset) -> None:
    match, choice = game(rules), OrderInput()
    levy = match.state.formations["b_levy"]
    assert choice.click(match.engine, levy.pos, levy).kind == "nothing"
    assert choice.order(match.engine, "rest").kind == "nothing"


def test_the_choice_marks_the_map_and_lets_go_of_a_formation_that_is_no_longer_the_moving_sides(rules: Ruleset) -> None:
    match, choice = game(rules), OrderInput()
    foot = match.state.formations["a_foot"]
    choice.click(match.engine, foot.pos, foot)
    choice.settle(match.engine)
    ov = choice.marks(match.engine, match.loaded.scenario.board, None, None)
    assert ov.selected == foot.pos and ov.reachable == choice.move_map.destinations  # type: ignore[union-attr]
    assert match.state.formations["b_levy"].pos in ov.targets
    match.state.active = 1  # the other side's turn
    choice.settle(match.engine)
    assert choice.selected is None and choice.move_map is None
