"""The battle as a session, without a screen: choosing, moving, the forecast and the blow, undo
and its refusals, the end-of-turn warning, the hand-over between two people at one screen, and
what the side on screen witnesses. A refusal leaves the game as it was."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import Unit, loaded_for, make_scenario

import game.session
from game.core.actions import Capture, EndTurn, Move
from game.core.engine import GameSettings
from game.core.events import Attacked, Moved, TurnEnded
from game.core.hexgrid import Hex, distance, offset_to_axial
from game.core.rules import Ruleset
from game.core.state import state_hash
from game.record.match import Match
from game.record.seats import Commander
from game.session import BattleSession

FIELD = ("........",) * 6
UNITS = [
    Unit("a_foot", "a", "han_soldier", 3000, (2, 2)),
    Unit("a_guard", "a", "retainer", 800, (1, 4)),
    Unit("b_levy", "b", "soul_levy", 1500, (3, 2)),
]


def session_for(
    rules: Ruleset, b: Commander = "ai", units: list[Unit] = UNITS, field: tuple[str, ...] = FIELD
) -> BattleSession:
    scenario = make_scenario(rules, field, units, turn_limit=5)
    match = Match(loaded_for(scenario), 3, GameSettings(), seats={"a": "human", "b": b})
    return BattleSession(match, describe=lambda ev: type(ev).__name__)


def free_hex(session: BattleSession) -> Hex:
    """A hex the chosen formation can march to, not next to the enemy (a plain, undoable move)."""
    assert session.choice.move_map is not None
    levy = session.state.formations["b_levy"].pos
    far = [h for h in session.choice.move_map.destinations if distance(h, levy) > 2]
    return sorted(far, key=lambda h: (h.q, h.r))[0]


def test_the_session_loads_no_screen_library() -> None:
    probe = (
        "import sys, game.session; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'pygame', 'pygame_gui', 'pytmx'}))"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("SDL_")}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, env=env)
    assert json.loads(out.stdout.replace("'", '"')) == []
    for path in Path(game.session.__file__).parent.glob("*.py"):
        assert "import pygame" not in path.read_text(encoding="utf-8"), path.name


def test_a_click_on_ones_own_formation_selects_it_and_a_second_lets_it_go(rules: Ruleset) -> None:
    session = session_for(rules)
    foot = session.state.formations["a_foot"]
    outcome = session.click(foot.pos)
    assert outcome.kind == "selected" and outcome.selected == "a_foot" == session.selected
    assert session.marks(None).selected == foot.pos and session.marks(None).reachable
    assert session.click(foot.pos).selected is None and session.selected is None


def test_a_move_goes_through_the_match_and_the_viewer_sees_it(rules: Ruleset) -> None:
    session = session_for(rules)
    session.click(session.state.formations["a_foot"].pos)
    to = free_hex(session)
    outcome = session.click(to)
    assert outcome.applied and not outcome.by_computer
    assert [type(ev) for ev in outcome.events] == [Moved]
    assert session.state.formations["a_foot"].pos == to and outcome.before["a_foot"] != to
    assert session.match.record.actions == [Move(unit="a_foot", to=to, forced=False)]


def test_an_enemy_in_reach_is_forecast_first_and_the_game_waits_for_the_word(rules: Ruleset) -> None:
    session = session_for(rules)
    session.click(session.state.formations["a_foot"].pos)
    before = state_hash(session.state)
    outcome = session.click(session.state.formations["b_levy"].pos)
    assert outcome.kind == "forecast" and outcome.forecast is not None
    assert state_hash(session.state) == before and session.match.record.actions == []
    assert session.pending_forecast() == outcome.forecast
    blow = session.confirm_attack()
    assert blow.applied and any(isinstance(ev, Attacked) for ev in blow.events)
    assert session.choice.pending_attack is None and session.confirm_attack().kind == "nothing"


def test_undo_takes_a_move_back_and_says_why_when_it_cannot(rules: Ruleset) -> None:
    # A second enemy far off, so that the battle goes on after the blow.
    session = session_for(rules, units=[*UNITS, Unit("b_reserve", "b", "soul_levy", 1500, (7, 5))])
    refused = session.order("undo")
    assert (
        refused.kind == "refused" and refused.message is not None and refused.message.startswith("Nothing to take back")
    )
    start = session.state.formations["a_foot"].pos
    session.click(start)
    session.click(free_hex(session))
    assert session.can_undo()
    undone = session.order("undo")
    assert undone.kind == "undone" and undone.message == "Move taken back"
    assert session.state.formations["a_foot"].pos == start and session.match.record.actions == []
    # A blow cannot be taken back.
    assert session.selected == "a_foot"
    session.click(session.state.formations["b_levy"].pos)
    session.confirm_attack()
    refused = session.order("undo")
    assert refused.kind == "refused" and refused.message is not None and "only a plain move" in refused.message


def test_a_refusal_names_formations_as_the_log_does_never_by_id(rules: Ruleset) -> None:
    session = session_for(rules)
    outcome = session.submit(Capture(unit="a_guard"))  # no souls lie within its reach
    assert outcome.kind == "refused" and outcome.message is not None
    assert "a_guard" not in outcome.message and session.names["a_guard"] in outcome.message
    far = session.submit(Move(unit="a_foot", to=offset_to_axial(7, 5)))
    assert far.message is not None and "a_foot" not in far.message and "cannot reach" in far.message


def test_a_refusal_leaves_the_game_unchanged(rules: Ruleset) -> None:
    session = session_for(rules)
    before, actions = state_hash(session.state), list(session.match.record.actions)
    outcome = session.submit(Move(unit="a_foot", to=offset_to_axial(7, 5)))
    assert outcome.kind == "refused" and outcome.message is not None and outcome.message.startswith("Not allowed: ")
    assert outcome.events == () and state_hash(session.state) == before and session.match.record.actions == actions
    # Nor is the enemy's formation anyone's to order.
    assert session.click(session.state.formations["b_levy"].pos).kind == "nothing"


def test_ending_the_turn_with_formations_that_can_act_warns_first(rules: Ruleset) -> None:
    session = session_for(rules)
    warned = session.end_turn(warn=True)
    assert warned.kind == "warning" and warned.message == "2 formations can still act this turn."
    assert session.state.active_side.id == "a" and session.match.record.actions == []
    ended = session.end_turn()
    assert ended.applied and any(isinstance(ev, TurnEnded) for ev in ended.events)
    assert session.state.active_side.id == "b" and session.computer_to_decide()
    # The computer's turn takes no order from the screen.
    assert session.click(session.state.formations["a_foot"].pos).kind == "nothing"
    assert session.end_turn().kind == "nothing" and session.order("undo").kind == "nothing"


def test_the_screen_changes_hands_between_two_people_behind_a_curtain(rules: Ruleset) -> None:
    session = session_for(rules, b="human")
    assert session.is_hotseat() and session.humans() == ["a", "b"]
    first = session.hand_over(briefings=False)
    assert first is not None and (first.side, first.previous, first.curtain) == ("a", None, True)
    assert first.report is None  # the first player waited for nothing
    assert session.hand_over(briefings=False) is None and session.fog_side() == "a"
    session.click(session.state.formations["a_foot"].pos)
    assert session.selected == "a_foot"
    session.end_turn()
    handed = session.hand_over(briefings=True)
    assert handed is not None and (handed.side, handed.previous, handed.curtain) == ("b", "a", True)
    assert handed.report is not None and handed.report.startswith("While you waited")
    assert handed.brief and not first.brief  # b's first orders (a's player had turned briefings off)
    assert session.viewer == "b" == session.fog_side() and session.selected is None  # a's choice left with a
    assert "TurnEnded" in handed.log  # a's turn's end goes on b's own log


def test_the_side_on_screen_is_told_only_what_it_witnessed(rules: Ruleset) -> None:
    field = ("." * 30,) * 6
    units = [Unit("a_foot", "a", "han_soldier", 3000, (1, 1)), Unit("b_far", "b", "soul_levy", 1500, (28, 4))]
    session = session_for(rules, units=units, field=field)
    assert "b_far" not in session.seen_ids()
    session.end_turn()
    far = session.state.formations["b_far"]
    to = next(h for h in sorted(session.engine.moves("b_far").destinations, key=lambda h: (h.q, h.r)) if h != far.pos)
    outcome = session.submit(Move(unit="b_far", to=to))
    assert outcome.applied and outcome.by_computer and outcome.events == () and not session.last_seen
    assert session.state.formations["b_far"].pos == to  # it moved all the same
    assert session.submit(EndTurn()).applied and session.last_seen  # a turn's end is no secret


def test_forced_march_is_a_toggle_and_the_next_move_is_forced(rules: Ruleset) -> None:
    session = session_for(rules)
    session.click(session.state.formations["a_foot"].pos)
    plain = session.choice.move_map
    toggled = session.order("forced")
    assert toggled.kind == "toggled" and session.choice.forced_march
    assert session.choice.move_map is not None and plain is not None
    assert session.choice.move_map.destinations >= plain.destinations  # a forced march goes as far or further
    to = free_hex(session)
    assert session.click(to).applied
    assert session.match.record.actions == [Move(unit="a_foot", to=to, forced=True)]


def test_tab_cycles_through_the_formations_that_can_act_and_the_list_chooses_only_ones_own(rules: Ruleset) -> None:
    session = session_for(rules)
    first = session.select_next()
    second = session.select_next()
    assert {first, second} == {"a_foot", "a_guard"} and session.select_next() == first
    assert not session.choose("b_levy") and session.selected == first
    assert session.choose("a_guard") and session.selected == "a_guard"
    rest = session.order("rest")
    assert rest.applied and session.state.formations["a_guard"].acted
    assert [f.id for f in session.ready_formations()] == ["a_foot"]


HEGEMON = [
    Unit("a_horse", "a", "warrior", 500, (1, 2), hero="xiang_yu"),
    Unit("b_screen", "b", "soul_levy", 4000, (3, 1)),
    Unit("b_screen2", "b", "soul_levy", 4000, (3, 3)),
    Unit("b_weak", "b", "soul_levy", 10, (2, 2)),
    Unit("b_far", "b", "soul_levy", 3000, (7, 5)),
]


def test_breakthrough_is_spent_with_the_move_it_is_for_not_before(rules: Ruleset) -> None:
    session = session_for(rules, units=HEGEMON)
    horse = session.state.formations["a_horse"]
    session.click(horse.pos)
    assert session.selected == "a_horse" and session.choice.move_map is not None
    plain = session.choice.move_map.destinations
    armed = session.hero_order("breakthrough_charge")
    assert armed.kind == "toggled" and armed.message is not None and "breakthrough" in armed.message.lower()
    # Nothing is spent yet: no order recorded, no cooldown, and it can be held back again.
    assert session.match.record.actions == [] and horse.cooldowns == {}
    assert session.choice.move_map is not None and session.choice.move_map.destinations > plain
    session.hero_order("breakthrough_charge")
    assert session.choice.armed is None and session.choice.move_map.destinations == plain
    # Armed and marched: the charge and the move go in together, the move past the screen.
    session.hero_order("breakthrough_charge")
    beyond = sorted(session.choice.move_map.destinations - plain)[0]
    outcome = session.click(beyond)
    assert outcome.applied
    kinds = [a.kind for a in session.match.record.actions]
    horse = session.state.formations["a_horse"]
    assert kinds == ["skill", "move"] and horse.pos == beyond
    assert horse.cooldowns.get("breakthrough_charge", 0) > 0


def test_an_armed_charge_let_go_with_its_formation_costs_nothing(rules: Ruleset) -> None:
    session = session_for(rules, units=HEGEMON)
    session.click(session.state.formations["a_horse"].pos)
    session.hero_order("breakthrough_charge")
    assert session.choice.armed == "breakthrough_charge"
    assert session.cancel() == "aim" and session.choice.armed is None
    session.select_next()
    session.hero_order("breakthrough_charge")
    session.click(session.state.formations["a_horse"].pos)  # let go
    assert session.choice.armed is None and session.match.record.actions == []
    assert session.state.formations["a_horse"].cooldowns == {}


APART = [
    Unit("a_foot", "a", "han_soldier", 3000, (0, 2)),
    Unit("b_levy", "b", "soul_levy", 1500, (3, 2)),
    Unit("b_far", "b", "soul_levy", 1500, (7, 5)),
    Unit("a_scout", "a", "retainer", 800, (6, 3)),  # keeps b_far in sight
]


def test_a_click_on_an_enemy_a_march_away_marches_next_to_it_and_strikes_after_the_forecast(rules: Ruleset) -> None:
    session = session_for(rules, units=APART)
    foot, levy = session.state.formations["a_foot"], session.state.formations["b_levy"]
    session.click(foot.pos)
    assert "b_levy" not in session.engine.attack_targets("a_foot")
    assert levy.pos in session.marks(None).targets  # ringed: it can be struck this turn
    aimed = session.click(levy.pos)
    assert aimed.kind == "forecast" and aimed.forecast is not None
    march = session.choice.pending_march
    assert march is not None and distance(Hex(*march.to), levy.pos) == 1
    assert session.marks(None).path[-1] == Hex(*march.to)  # the march is drawn
    assert session.match.record.actions == []  # nothing is given before the player's word
    struck = session.confirm_attack()
    assert struck.applied
    assert [a.kind for a in session.match.record.actions] == ["move", "attack"]
    assert any(isinstance(e, Moved) for e in struck.events) and any(isinstance(e, Attacked) for e in struck.events)


def test_a_click_out_of_reach_says_why(rules: Ruleset) -> None:
    session = session_for(rules, units=APART)
    far = session.state.formations["b_far"]
    session.click(session.state.formations["a_foot"].pos)
    assert far.pos not in session.marks(None).targets
    enemy = session.click(far.pos)
    assert enemy.kind == "refused" and enemy.message is not None and "beyond the reach" in enemy.message
    assert session.names["b_far"] in enemy.message
    empty = session.click(offset_to_axial(7, 0))
    assert empty.kind == "refused" and empty.message is not None and "cannot reach that hex" in empty.message
    assert session.match.record.actions == []
