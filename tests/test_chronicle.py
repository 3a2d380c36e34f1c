"""The chronicle's set pieces: the shipped data checks out against the scenarios, each sign reads
a game right, watching changes nothing, and `qiankun chronicle` counts them over games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli

from game.ai.driver import make_ais, play_ai_turn
from game.chronicle.spec import Fired, Happened, SetPiece, Survives
from game.chronicle.tally import ChronicleTally, summary_table
from game.chronicle.watch import ChronicleWatch, matches
from game.content.campaigns import load_campaigns
from game.content.chronicle import load_chronicle, load_chronicle_file
from game.content.errors import ContentErrors
from game.content.scenarios import load_scenario
from game.core.engine import Engine, GameSettings
from game.core.events import Attacked, DuelFought, SkillUsed
from game.core.state import GameState, copy_state, state_hash
from game.record.match import Match
from game.simulate import run_game


def _piece(when: Fired | Happened | Survives, pid: str = "p") -> SetPiece:
    return SetPiece(id=pid, title="A moment", history="It happened.", when=when)


def _at(state: GameState, turn: int) -> GameState:
    moved = copy_state(state)
    moved.turn = turn
    return moved


# -- the shipped chronicle -------------------------------------------------------------------------


def test_every_campaign_battle_has_set_pieces_and_every_sign_names_what_exists() -> None:
    chronicle = load_chronicle()  # raises ContentErrors on a sign naming nothing
    battles = {sid for spec in load_campaigns().campaigns.values() for sid in spec.scenarios}
    assert battles <= set(chronicle)
    for sid, pieces in chronicle.items():
        assert len(pieces) >= 2, sid
        assert len({p.id for p in pieces}) == len(pieces)


def test_a_scripted_turn_is_no_set_piece() -> None:
    """A moment the scenario scripts on a fixed turn comes in every game; it measures nothing."""
    for sid, pieces in load_chronicle().items():
        events = {e.id: e for e in load_scenario(sid).scenario.events}
        for piece in pieces:
            if isinstance(piece.when, Fired):
                assert events[piece.when.event].when.kind != "turn", f"{sid}.{piece.id}"


@pytest.mark.parametrize(
    ("body", "field", "says"),
    [
        ('when = { kind = "fired", event = "no_such_event" }', "when.event", "no event 'no_such_event'"),
        ('when = { kind = "survives", unit = "nobody" }', "when.unit", "no formation 'nobody'"),
        ('when = { kind = "happened", event = "volley" }', "when.event", "unknown engine event 'volley'"),
        (
            'when = { kind = "happened", event = "attacked", where = { weapon = "blast" } }',
            "when.where.weapon",
            "has no field 'weapon'",
        ),
        ('when = { kind = "happened", event = "attacked", who = "hero" }', "when.who", "has no field 'hero'"),
        ('when = { kind = "teleported" }', "when", ""),
    ],
)
def test_a_sign_that_names_nothing_is_a_content_error_naming_file_object_and_field(
    tmp_path: Path, body: str, field: str, says: str
) -> None:
    path = tmp_path / "chronicle.toml"
    path.write_text(f'[a1_valley_mouth.broken]\ntitle = "T"\nhistory = "H"\n{body}\n', encoding="utf-8")
    with pytest.raises(ContentErrors) as caught:
        load_chronicle_file(path)
    first = caught.value.errors[0]
    assert first.file.endswith("chronicle.toml")
    assert first.object == "a1_valley_mouth.broken"
    assert first.field.startswith(field)
    assert says in first.message


def test_an_unknown_scenario_is_named(tmp_path: Path) -> None:
    path = tmp_path / "chronicle.toml"
    path.write_text('[z9_nowhere.p]\ntitle = "T"\nhistory = "H"\nwhen = { kind = "fired", event = "e" }\n')
    with pytest.raises(ContentErrors, match="unknown scenario 'z9_nowhere'"):
        load_chronicle_file(path)


# -- the signs -----------------------------------------------------------------------------------


def test_happened_matches_values_lists_and_numbers() -> None:
    blast = Attacked(unit="u", target="t", attacker_losses=0, defender_losses=300, mode="blast")
    melee = blast.model_copy(update={"mode": "melee"})
    assert matches(Happened(event="attacked", where={"mode": "blast"}), blast)
    assert not matches(Happened(event="attacked", where={"mode": "blast"}), melee)
    assert matches(Happened(event="attacked", where={"mode": ["fire", "blast"]}), blast)
    assert matches(Happened(event="attacked", at_least={"defender_losses": 300}), blast)
    assert not matches(Happened(event="attacked", at_least={"defender_losses": 301}), blast)
    assert not matches(Happened(event="skill_used"), blast)
    both = DuelFought(challenger="a", target="b", challenger_hero="h", target_hero="k", rounds=(), wounded=("h", "k"))
    assert matches(Happened(event="duel_fought", at_least={"wounded": 2}), both)
    assert not matches(
        Happened(event="duel_fought", at_least={"wounded": 2}), both.model_copy(update={"wounded": ("h",)})
    )


def test_fired_comes_on_the_turn_its_event_fires(engine: Engine) -> None:
    watch = ChronicleWatch([_piece(Fired(event="e1"), "one"), _piece(Fired(event="e2"), "two")])
    state = _at(engine.state, 3)
    state.fired_events = ["e0"]
    watch.seen([], state)
    assert watch.occurred == {}
    later = _at(state, 4)
    later.fired_events = ["e0", "e1"]
    watch.seen([], later)
    assert set(watch.occurred) == {"one"}
    assert watch.occurred["one"].turn == 4
    assert watch.occurred["one"].side == later.active_side.id


def test_happened_over_turns_needs_that_many_different_turns_and_counts(engine: Engine) -> None:
    fought = DuelFought(challenger="a", target="b", challenger_hero="yue_fei", target_hero="w", rounds=(), wounded=())
    watch = ChronicleWatch([_piece(Happened(event="duel_fought", on_turns=2, who="challenger_hero"))])
    watch.seen([fought, fought], _at(engine.state, 5))
    assert watch.occurred == {}  # two exchanges on one turn are not a duel over turns
    watch.seen([fought], _at(engine.state, 6))
    came = watch.occurred["p"]
    assert (came.turn, came.who, came.count) == (6, "yue_fei", None)

    sally = SkillUsed(unit="blades", hero="su_lin", skill="blades_sally", affected=("x", "y"))
    counting = ChronicleWatch([_piece(Happened(event="skill_used", where={"skill": "blades_sally"}, count="affected"))])
    counting.seen([sally.model_copy(update={"skill": "other"})], _at(engine.state, 2))
    assert counting.occurred == {}
    counting.seen([sally], _at(engine.state, 3))
    assert counting.occurred["p"].count == 2


def test_survives_is_judged_when_the_battle_ends(engine: Engine) -> None:
    alive = next(iter(engine.state.formations))
    watch = ChronicleWatch([_piece(Survives(unit=alive), "alive"), _piece(Survives(unit="gone"), "gone")])
    watch.seen([], engine.state)
    assert watch.occurred == {}
    watch.finish(engine.state)
    assert set(watch.occurred) == {"alive"}
    assert watch.occurred["alive"].count == engine.state.formations[alive].men
    assert [o is not None for _p, o in watch.report()] == [True, False]


# -- over games ----------------------------------------------------------------------------------


def test_a_game_reports_its_set_pieces_and_watching_changes_nothing() -> None:
    loaded = load_scenario("b3_tangut_border")
    result = run_game(loaded, 7000, max_turns=3)
    assert set(result["set_pieces"]) == {p.id for p in load_chronicle()["b3_tangut_border"]}
    # The same game played with no watch at all ends in the same state.
    match = Match(loaded, 7000, GameSettings(max_turns=3), seats={s.id: "ai" for s in loaded.scenario.sides})
    ais = make_ais(match)
    while not match.state.over:
        play_ai_turn(match, ais[match.state.active_side.id], others=ais)
    assert state_hash(match.state) == result["final_hash"]


def test_the_tally_counts_shares_and_turns() -> None:
    pieces = (_piece(Fired(event="a"), "a"), _piece(Fired(event="b"), "b"))
    tally = ChronicleTally(pieces)
    for turn in (3, 5, None, 4):
        tally.add({"set_pieces": {"a": None if turn is None else {"turn": turn}, "b": None}})
    summary = tally.summary()
    first, second = summary["set_pieces"]
    assert (first["came"], first["share"], first["first_turn"], first["median_turn"], first["last_turn"]) == (
        3,
        0.75,
        3,
        4,
        5,
    )
    assert (second["came"], second["share"], second["median_turn"]) == (0, 0.0, None)
    table = summary_table(summary)
    assert "3/4" in table and "75%" in table
    assert table.splitlines()[2].endswith("under the goal")


def test_the_chronicle_command_counts_games(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "chronicle", "b3_tangut_border", "--games", "1", "--seed", "7000", "--json")
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    game, summary = lines[0], lines[-1]["summary"]
    assert game["seed"] == 7000 and "set_pieces" in game
    assert summary["games"] == 1 and summary["scenario"] == "b3_tangut_border"
    came = {pid for pid, c in game["set_pieces"].items() if c is not None}
    assert {row["id"] for row in summary["set_pieces"] if row["came"] == 1} == came


def test_the_chronicle_command_refuses_an_unknown_scenario_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "chronicle", "z9_nowhere")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "unknown scenario 'z9_nowhere'" in err
