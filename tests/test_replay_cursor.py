"""The replay viewer's cursor: any position it reaches is the state a fresh re-run reaches, going
back costs at most one side-turn of re-run actions, and a record that does not replay is shown
up to where it breaks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.ai.random_player import RandomAI
from game.content.scenarios import LoadedScenario, load_scenario
from game.core import engine as engine_module
from game.core.actions import Action, AnswerDuel, EndTurn, Move
from game.core.engine import GameSettings, IllegalAction
from game.core.events import Event
from game.core.hexgrid import Hex
from game.core.state import state_hash
from game.core.vision import sight_of
from game.record.errors import SaveError
from game.record.match import Match
from game.record.model import GameRecord
from game.record.replay_cursor import ReplayCursor
from game.record.seats import Commander
from game.record.take_over import take_over
from game.record.verify import replay_engine, verify

SCENARIO = "a1_valley_mouth"


def play_random(turns: int, seed: int, controllers: dict[str, str] | None = None) -> Match:
    """A short game of random players (fast, and it fights: attacks, losses, routs)."""
    loaded = load_scenario(SCENARIO)
    ctrl = controllers or {s.id: "ai" for s in loaded.scenario.sides}
    match = Match(loaded, seed, GameSettings(max_turns=turns), seats=ctrl)  # type: ignore[arg-type]
    players = {s.id: RandomAI(match.engine, s.id) for s in loaded.scenario.sides}
    for _ in range(2000):
        if match.state.over:
            break
        try:
            match.apply(players[match.engine.deciding_side()].next_action())
        except IllegalAction:
            match.apply(AnswerDuel(accept=False) if match.state.pending_duel is not None else EndTurn())
    assert match.state.over
    return match


@pytest.fixture(scope="module")
def game() -> Match:
    return play_random(turns=4, seed=21)


@pytest.fixture(scope="module")
def record(game: Match) -> GameRecord:
    return game.record


@pytest.fixture(scope="module")
def reference(record: GameRecord) -> list[str]:
    """The state hash after every number of actions, from one plain re-run."""
    engine = replay_engine(record, upto=0)
    hashes = [state_hash(engine.state)]
    for action in record.actions:
        engine.apply(action)
        hashes.append(state_hash(engine.state))
    return hashes


def count_applies(cursor: ReplayCursor) -> list[int]:
    calls = [0]
    real = cursor.engine.apply

    def counted(action: Action) -> list[Event]:
        calls[0] += 1
        return real(action)

    cursor.engine.apply = counted  # type: ignore[method-assign]
    return calls


def test_the_record_is_long_enough_to_mean_something(record: GameRecord) -> None:
    assert len(record.checkpoints) >= 7 and len(record.actions) > 20


moves = st.one_of(
    st.tuples(st.just("seek"), st.integers(-5, 400)),
    st.tuples(st.sampled_from(["forward", "back", "next", "previous", "home", "end"]), st.just(0)),
    st.tuples(st.just("turn"), st.integers(0, 6)),
)


@given(st.lists(moves, min_size=1, max_size=25))
def test_every_position_reached_is_the_fresh_rerun_state(
    record: GameRecord, reference: list[str], ops: list[tuple[str, int]]
) -> None:
    cursor = ReplayCursor(record)
    n = len(record.actions)
    for op, arg in ops:
        before = cursor.position
        if op == "seek":
            cursor.seek(arg)
            assert cursor.position == max(0, min(arg, n))
        elif op == "forward":
            assert cursor.step_forward() == (before < n)
            assert cursor.position == min(before + 1, n)
        elif op == "back":
            assert cursor.step_back() == (before > 0)
            assert cursor.position == max(before - 1, 0)
        elif op == "next":
            cursor.next_turn()
            assert cursor.position > before or before == n
        elif op == "previous":
            cursor.previous_turn()
            assert cursor.position < before or before == 0
        elif op == "home":
            cursor.seek(0)
        elif op == "end":
            cursor.seek(n)
        else:
            moved = cursor.goto_turn(arg)
            assert moved == any(m.turn == arg for m in cursor.turn_marks())
            if moved:
                assert cursor.state.turn == arg
        assert state_hash(cursor.state) == reference[cursor.position]
        assert cursor.state.action_index == cursor.position
    assert cursor.problem is None


def test_turn_marks_are_where_each_side_turn_starts(record: GameRecord, reference: list[str]) -> None:
    cursor = ReplayCursor(record)
    marks = cursor.turn_marks()
    assert [m.index for m in marks] == [0] + [
        cp.actions for cp in record.checkpoints if cp.actions < len(record.actions)
    ]
    engine = replay_engine(record, upto=0)
    for m in marks:
        while engine.state.action_index < m.index:
            engine.apply(record.actions[engine.state.action_index])
        assert (engine.state.turn, engine.state.active_side.id) == (m.turn, m.side)
    # Turn 1 starts at the start; each later turn starts after the EndTurn that began it.
    assert [m.index for m in marks if m.turn == 1][0] == 0


def test_stepping_back_reruns_at_most_one_side_turn(record: GameRecord, reference: list[str]) -> None:
    cursor = ReplayCursor(record)
    cursor.seek(len(record.actions))  # played through: every checkpoint has its snapshot
    calls = count_applies(cursor)
    marks = [m.index for m in cursor.turn_marks()] + [len(record.actions)]
    longest = max(b - a for a, b in zip(marks, marks[1:], strict=False))
    for k in range(1, len(marks) - 1):
        begin, end = marks[k], marks[k + 1]
        for start in {end - 1, (begin + end) // 2} - {begin}:
            cursor.seek(start)
            calls[0] = 0
            cursor.step_back()
            assert calls[0] <= end - begin  # re-run from this side-turn's start at most
            assert state_hash(cursor.state) == reference[start - 1]
            cursor.seek(start)
            calls[0] = 0
            cursor.previous_turn()
            cursor.previous_turn()
            assert calls[0] <= longest  # one turn back: a snapshot, at most one side-turn re-run
            assert state_hash(cursor.state) == reference[cursor.position]


def test_going_back_before_a_full_pass_uses_the_snapshots_passed(record: GameRecord, reference: list[str]) -> None:
    cursor = ReplayCursor(record)
    marks = [m.index for m in cursor.turn_marks()]
    target = marks[3] + 1
    cursor.seek(marks[4] + 1)
    calls = count_applies(cursor)
    cursor.seek(target)
    assert calls[0] == 1  # from the snapshot at marks[3], not from the start
    assert state_hash(cursor.state) == reference[target]


def test_the_log_events_are_those_of_the_current_side_turn(record: GameRecord) -> None:
    cursor = ReplayCursor(record)
    marks = [m.index for m in cursor.turn_marks()]
    cursor.seek(marks[2] + 2)
    numbers = [n for n, _events in cursor.recent_events()]
    assert numbers == [marks[2], marks[2] + 1, marks[2] + 2]
    # The events are those the engine gave when the action was first applied.
    engine = replay_engine(record, upto=marks[2] + 1)
    assert cursor.last_events() == engine.apply(record.actions[marks[2] + 1])
    cursor.seek(0)
    assert cursor.last_events() == [] and cursor.recent_events() == []


def test_a_cursor_with_sight_keeps_what_each_side_saw_after_each_action_of_the_side_turn(record: GameRecord) -> None:
    cursor = ReplayCursor(record, sight=True)
    marks = [m.index for m in cursor.turn_marks()]
    for target in (marks[2] + 3, marks[1] + 1):  # stepping forward, then back to an earlier turn
        cursor.seek(target)
        engine = replay_engine(record, upto=0)
        for n in range(target + 1):
            if n > 0:
                engine.apply(record.actions[n - 1])
            if n < cursor.recent_events()[0][0]:
                continue
            for side in ("coalition", "hailing"):
                kept = cursor.sight_after(n, side)
                assert kept == sight_of(engine.state, engine.board, engine.rules, side), (target, n, side)
    # Positions before the side-turn are let go, and a cursor without sight keeps nothing.
    assert cursor.sight_after(0, "coalition") is None
    plain = ReplayCursor(record)
    plain.seek(marks[2] + 1)
    assert plain.sight_after(marks[2] + 1, "coalition") is None


def test_a_record_with_an_illegal_action_is_shown_up_to_it(record: GameRecord, reference: list[str]) -> None:
    k = 9
    bad = record.model_copy(
        update={"actions": [*record.actions[:k], Move(unit="nobody", to=Hex(0, 0)), *record.actions[k:]]}
    )
    cursor = ReplayCursor(bad)
    cursor.seek(len(bad.actions))
    assert cursor.position == k and cursor.length == k
    assert cursor.problem is not None and f"action {k + 1}" in cursor.problem
    assert state_hash(cursor.state) == reference[k]
    assert not cursor.step_forward() and cursor.position == k


def test_a_tampered_checkpoint_is_reported(record: GameRecord) -> None:
    cps = [cp.model_copy() for cp in record.checkpoints]
    cps[2] = cps[2].model_copy(update={"hash": "0" * 16})
    cursor = ReplayCursor(record.model_copy(update={"checkpoints": cps}))
    cursor.seek(cps[1].actions)
    assert cursor.problem is None
    cursor.seek(cps[2].actions)
    assert cursor.problem is not None and f"after action {cps[2].actions}" in cursor.problem


@pytest.mark.parametrize(
    "controllers", [{"coalition": "human", "hailing": "ai"}, {"coalition": "ai", "hailing": "human"}]
)
def test_taking_over_reuses_the_record_and_verifies(
    record: GameRecord, controllers: dict[str, Commander], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The new game starts from the state the cursor's re-run reached, under new seats: the
    record's actions and checkpoints up to there are its own, none applied a second time."""
    cursor = ReplayCursor(record)
    marks = [m.index for m in cursor.turn_marks()]
    cursor.seek(marks[3] + 2)
    with monkeypatch.context() as m:
        m.setattr(engine_module.Engine, "apply", lambda self, action: pytest.fail("an action was applied again"))
        match = take_over(record, cursor.state, controllers, cursor.loaded)
    assert match.record.actions == record.actions[: cursor.position]
    assert match.record.checkpoints == [cp for cp in record.checkpoints if cp.actions <= cursor.position]
    assert match.seats.commanders() == controllers
    assert {side: seat.commander for side, seat in match.record.seats.items()} == controllers
    assert match.record.seed == record.seed and match.record.scenario_id == record.scenario_id
    # The same battle at the same moment: only who commands it differs, and no hash holds that.
    assert match.state == cursor.state and match.state is not cursor.state
    assert verify(match.record).ok and match.unsaved()
    # And it plays on: its next action is recorded after the original's.
    match.apply(EndTurn()) if match.state.pending_duel is None else match.apply(AnswerDuel(accept=False))
    assert len(match.record.actions) == cursor.position + 1
    assert verify(match.record).ok


def test_a_take_over_where_the_record_differs_is_refused(record: GameRecord) -> None:
    cps = list(record.checkpoints)
    cps[1] = cps[1].model_copy(update={"hash": "0" * 16})
    altered = record.model_copy(update={"checkpoints": cps})
    cursor = ReplayCursor(altered)
    cursor.seek(cps[1].actions)  # shown, where it went wrong
    assert cursor.problem is not None and cursor.position == cps[1].actions
    with pytest.raises(SaveError, match=r"^checkpoint 2 \(turn \d+, \w+\) of the record differs from the replay"):
        take_over(altered, cursor.state, {"coalition": "human", "hailing": "ai"}, cursor.loaded)
    cursor.seek(cps[1].actions - 1)
    assert take_over(altered, cursor.state, {"coalition": "human", "hailing": "ai"}, cursor.loaded)


def test_the_cursor_keeps_the_scenario_it_is_given(record: GameRecord) -> None:
    loaded: LoadedScenario = load_scenario(SCENARIO)
    assert ReplayCursor(record, loaded).loaded is loaded
