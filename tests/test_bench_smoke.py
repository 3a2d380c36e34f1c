"""The benchmarks run end to end on tiny settings and report the structure their tables need.

Timings are never asserted: machines are shared and noisy, so the benches report ratios instead.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bench import ai_turns, frame, idle, run_all, stress, win_rates
from bench.common import markdown_table, replace_between, summary
from game.content.ruleset import load_ruleset
from game.content.scenarios import scenario_ids
from game.core.actions import Action
from game.simulate import percentile

COLUMNS = ["figure", "measured", "baseline", "ratio", "target"]


def _check_rows(rows: list[dict[str, str]], out: str) -> None:
    assert rows and all(list(r) == COLUMNS for r in rows)
    assert "| figure | measured | baseline | ratio | target |" in out
    for r in rows:
        assert f"| {r['figure']} |" in out


def test_ai_turns_quick(capsys: pytest.CaptureFixture[str]) -> None:
    report = ai_turns.main(["--quick", "--max-turns", "1"])
    results = report["results"]
    assert [r["scenario"] for r in results] == scenario_ids()
    for r in results:
        assert r["ai_ms"]["n"] >= 2 and r["enumeration_ms"]["n"] == r["ai_ms"]["n"]
        assert r["ai_ms"]["median"] > 0 and r["enumeration_ms"]["median"] > 0
        assert r["ratio_median"] is not None
    _check_rows(report["rows"], capsys.readouterr().out)


def test_stress_quick(capsys: pytest.CaptureFixture[str]) -> None:
    report = stress.main(["--quick", "--size", "16", "--formations", "6", "--turns", "2"])
    assert report["ai_ms"]["n"] == 2 and len(report["raw_ai_ms"]) == 2
    assert report["enumeration_ms"]["median"] > 0 and report["ratio_median"] is not None
    _check_rows(report["rows"], capsys.readouterr().out)


def test_stress_map_is_seeded_varied_and_full_size() -> None:
    rules = load_ruleset()
    grid = stress.terrain_grid(5, 96, 96)
    assert grid == stress.terrain_grid(5, 96, 96)
    assert grid != stress.terrain_grid(6, 96, 96)
    assert len({t for line in grid for t in line}) >= 8
    scenario = stress.build_scenario(rules, seed=5)
    assert (scenario.board.width, scenario.board.height) == (96, 96)
    for side in ("north", "south"):
        mine = [f for f in scenario.formations if f.side == side]
        assert len(mine) == 150
        assert len({f.type for f in mine}) >= 3
    assert len({f.pos for f in scenario.formations}) == 300


def test_replay_quick(capsys: pytest.CaptureFixture[str]) -> None:
    from bench import replay

    report = replay.main(["--quick", "--turns", "4", "--samples", "2"])
    assert report["turns"] == 4 and report["actions"] > 8
    for key in ("back_turn_ms", "back_action_ms", "forward_turn_ms"):
        assert report[key]["n"] == 2 and report[key]["median"] > 0
    assert len(report["rows"]) == 2 and all("Replay viewer" in r["figure"] for r in report["rows"])
    _check_rows(report["rows"], capsys.readouterr().out)


def test_win_rates_quick(capsys: pytest.CaptureFixture[str]) -> None:
    report = win_rates.main(["--quick", "--max-turns", "1"])
    results = report["results"]
    pairs = {(r["player"], r["opponent"], r["side"]) for r in results}
    sides = {r["side"] for r in results}
    assert len(sides) == 2
    assert pairs == {(p, o, s) for p, o, _ in win_rates.PAIRINGS for s in sides}
    for r in results:
        assert 0 <= r["wins"] <= r["games"] == 1 and 0 <= r["baseline_wins"] <= 1
    assert "games capped at 1 turns" in report["notes"]
    assert len(report["rows"]) == len(results) + len(win_rates.PAIRINGS)  # and each pairing pooled
    _check_rows(report["rows"], capsys.readouterr().out)


def test_win_rates_on_mirror_fields_quick(capsys: pytest.CaptureFixture[str]) -> None:
    report = win_rates.main(["--quick", "--max-turns", "1", "--scenario", "mirror", "--pairings", "hard-easy"])
    results = report["results"]
    assert {(r["player"], r["opponent"], r["side"]) for r in results} == {
        ("hard", "easy", "north"),
        ("hard", "easy", "south"),
    }
    assert len(report["rows"]) == 3 and all("mirror fields" in r["figure"] for r in report["rows"])
    _check_rows(report["rows"], capsys.readouterr().out)


def test_win_rates_refuse_an_unknown_pairing() -> None:
    with pytest.raises(SystemExit):
        win_rates.main(["--quick", "--pairings", "hard-random"])


def test_readme_table_goes_between_the_markers(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n\n## Benchmarks\n\n{run_all.START}\nold\n{run_all.END}\n\n## After\n", encoding="utf-8")
    table = markdown_table([dict.fromkeys(COLUMNS, "v")])
    run_all.write_readme(table, readme)
    body = readme.read_text(encoding="utf-8")
    assert "old" not in body and table in body and body.endswith("## After\n")


def test_summary_figures() -> None:
    values = [float(v) for v in range(1, 101)]
    assert summary(values) == {"n": 100, "median": 50.5, "p95": 95.0, "max": 100.0}
    assert percentile([], 95) == 0.0


# -- the game loop the win rates are played with ----------------------------------------------


def _random_game(seed: int, turns: int = 2) -> list[Action]:
    from bench.common import make_player, play_side_turn
    from game.content.scenarios import load_scenario
    from game.core.engine import GameSettings
    from game.record.match import Match

    loaded = load_scenario(scenario_ids()[0])
    settings = GameSettings(max_turns=turns)
    match = Match(loaded, seed, settings, seats={s.id: "ai" for s in loaded.scenario.sides})
    players = {s.id: make_player("random", match.engine, s.id) for s in loaded.scenario.sides}
    while not match.state.over:
        play_side_turn(match, players)
    return list(match.record.actions)


def test_bench_game_loop_replays_from_the_seed() -> None:
    from game.core.actions import EndTurn

    first = _random_game(3)
    assert first == _random_game(3)  # the win rates are reproducible
    assert first != _random_game(4)
    # Two turns of two sides: four side-turns, each closed by an EndTurn, with actions between.
    assert sum(isinstance(a, EndTurn) for a in first) == 4 and len(first) > 4


def test_balance_plays_each_campaign_scenario_and_writes_its_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bench import balance

    rows = balance.main(["--games", "2", "--jobs", "1", "--scenario", "a1_valley_mouth"])
    (r,) = rows
    assert r["games"] == 2 and 0 <= r["wins"] <= 2 and r["max_turns"] <= r["turn_limit"]
    out = capsys.readouterr().out
    assert "| a1_valley_mouth (coalition) | 2 |" in out
    readme = tmp_path / "README.md"
    readme.write_text(f"before\n{balance.START}\nold\n{balance.END}\nafter\n", encoding="utf-8")
    balance.write_readme(balance.table(rows), readme)
    text = readme.read_text(encoding="utf-8")
    assert "old" not in text and "| a1_valley_mouth (coalition) | 2 |" in text and text.endswith("after\n")
    assert set(balance.campaign_scenarios()) <= set(scenario_ids())


def test_a_computer_played_campaign_carries_its_army_to_the_end_or_gives_up() -> None:
    from bench import balance

    run = balance.play_campaign(("yuqing", 1))
    assert run["campaign"] == "yuqing" and 1 <= run["battles"] <= balance.MAX_BATTLES
    assert run["won"] == (run["stage"] == 4) and run["souls"] >= 0
    assert "| yuqing | 1 |" in balance.campaign_table([run])
    assert set(run["offered"]) <= {"war_aim", "liang"}  # the decisions put, each after a battle


def test_chronicle_bench_counts_each_set_piece_and_writes_its_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bench import chronicle

    (summary,) = chronicle.main(["--games", "1", "--jobs", "1", "--scenario", "b3_tangut_border"])
    assert summary["games"] == 1 and summary["scenario"] == "b3_tangut_border"
    assert all(row["came"] in (0, 1) for row in summary["set_pieces"])
    readme = tmp_path / "README.md"
    readme.write_text(f"before\n{chronicle.START}\nold\n{chronicle.END}\nafter\n", encoding="utf-8")
    replace_between(readme, chronicle.START, chronicle.END, chronicle.table([summary]))
    text = readme.read_text(encoding="utf-8")
    assert "old" not in text and "| b3_tangut_border | The duel of two war gods | " in text


def test_saves_bench_quick(capsys: pytest.CaptureFixture[str]) -> None:
    from bench import saves

    report = saves.main(["--quick", "--turns", "3", "--repeats", "1"])
    assert report["turns"] == 3 and report["actions"] > 6 and report["bytes"] > 0
    assert report["verify_actions_per_s"] > 0 and report["parse_ms"] > 0 and report["load_ms"] > 0
    assert report["verify_ratio"] is not None and report["load_ratio"] is not None
    assert [r["target"] for r in report["rows"]] == [saves.TARGET_VERIFY, saves.TARGET_LOAD]
    _check_rows(report["rows"], capsys.readouterr().out)


def test_idle_quick(capsys: pytest.CaptureFixture[str]) -> None:
    report = idle.main(["--seconds", "0.1", "--warm-up", "0.05", "--size", "800x560"])
    figures = report["figures"]
    assert set(figures) >= {"bare window", "main menu", "battle, the player to move", "replay viewer, paused"}
    assert all(share >= 0 for share in figures.values())
    _check_rows(report["rows"], capsys.readouterr().out)


def test_first_frame_quick(capsys: pytest.CaptureFixture[str]) -> None:
    from bench import first_frame

    report = first_frame.main(["--quick"])
    assert len(report["times"]["game"]) == len(report["times"]["bare"]) == 1
    assert all(t > 0 for ts in report["times"].values() for t in ts)
    (row,) = report["rows"]
    assert "first frame" in row["figure"] and row["ratio"].endswith("×")
    _check_rows(report["rows"], capsys.readouterr().out)


def test_frame_quick(capsys: pytest.CaptureFixture[str]) -> None:
    report = frame.main(["--quick", "--size", "800x560"])
    f = report["figures"]
    assert f["blit"] > 0 and f["pan"] > 0 and f["animated_frames"] >= 1
    _check_rows(report["rows"], capsys.readouterr().out)


# -- the strength bench and its search opponent ------------------------------------------------


def test_strength_quick_plays_every_part_from_both_sides(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bench import strength

    report = strength.main(["--quick", "--scenario", "b1_the_valley"])
    pairings = {(r["player"], r["opponent"], r["side"]) for r in report["rows"]}
    sides = {r["side"] for r in report["rows"]}
    assert len(sides) == 2
    expected = {(lvl, opp, s) for lvl in strength.LEVELS for opp in ("random", "mcts") for s in sides}
    expected |= {(a, b, s) for a, b in strength.LADDER for s in sides}
    assert pairings == expected
    assert all(r["games"] == 1 and 0 <= r["wins"] <= 1 for r in report["rows"])
    # A ladder row is judged against the weaker level's own games from the same side and seeds.
    mirrored = {(r.job.player, r.job.seed): r.winner for r in report["results"] if r.job.part == strength.MIRROR}
    for row in (r for r in report["rows"] if r["part"] == "ladder"):
        assert row["baseline_games"] == 1 and row["target"] == row["baseline_wins"]
        weaker = [w for (level, _seed), w in mirrored.items() if level == row["opponent"]]
        assert row["baseline_wins"] == sum(w == row["side"] for w in weaker)
    assert set(report["timing"]) == set(strength.LEVELS)
    assert all(t["n"] >= 1 and t["baseline"] > 0 for t in report["timing"].values())
    out = capsys.readouterr().out
    assert "| pairing | scenario | side | wins | target | met |" in out and "| hard vs mcts | b1_the_valley |" in out


def test_strength_refuses_an_unknown_part_or_scenario() -> None:
    from bench import strength

    with pytest.raises(SystemExit):
        strength.main(["--quick", "--parts", "chess"])
    with pytest.raises(SystemExit):
        strength.main(["--quick", "--scenario", "z9_nowhere"])


def test_the_search_opponent_plays_legal_orders_of_its_own_side_only() -> None:
    from bench.mcts import MCTSPlayer
    from game.content.scenarios import load_scenario
    from game.core.actions import EndTurn
    from game.core.engine import GameSettings
    from game.record.match import Match

    loaded = load_scenario("b1_the_valley")
    sides = [s.id for s in loaded.scenario.sides]
    match = Match(loaded, 240_000, GameSettings(max_turns=1), seats=dict.fromkeys(sides, "ai"))
    search = MCTSPlayer(match.engine, sides[0], simulations=8, seed=1)
    seed_before = match.engine.seed
    played = []
    while match.state.active_side.id == sides[0] and not match.state.over:
        action = search.next_action()
        match.apply(action)  # raises IllegalAction if the search chose an illegal order
        played.append(action)
    assert played[-1] == EndTurn() and len(played) > 1
    assert all(
        (unit := getattr(a, "unit", None)) is None
        or match.state.formations.get(unit) is None
        or match.state.formations[unit].side == sides[0]
        for a in played
    )
    assert match.engine.seed == seed_before
    assert search.next_action() == EndTurn()  # not its turn: it has nothing to order


def test_the_search_ends_a_turn_in_its_lookahead_even_with_a_challenge_waiting() -> None:
    """A node of the search tree is shared by lookaheads with different dice: one whose first step
    was ending the turn may meet, in another, a challenge still waiting for its answer. The turn
    then ends with the challenge refused, not with an illegal order that stops the bench."""
    from bench import mcts
    from game.content.scenarios import load_scenario
    from game.core.actions import Challenge, EndTurn
    from game.core.engine import GameSettings
    from game.core.hexgrid import neighbours
    from game.record.match import Match

    loaded = load_scenario("b3_tangut_border")
    match = Match(loaded, 240_000, GameSettings(), seats={s.id: "ai" for s in loaded.scenario.sides})
    while match.state.active_side.id != "zhenguo":
        match.apply(EndTurn())
    engine = match.engine.dice_blind(7)
    st = engine.state
    yue, guards = st.formations["yue_fei_riders"], st.formations["wuzhu_guards"]
    guards.pos = next(h for h in sorted(neighbours(yue.pos)) if h in engine.board and h not in st.occupancy())
    engine.apply(Challenge(unit=yue.id, target=guards.id))
    assert engine.state.pending_duel is not None
    turn = mcts.Turn(done={yue.id})
    mcts._end_turn(engine, turn)
    assert engine.state.pending_duel is None and engine.state.active_side.id != "zhenguo"
    assert turn.side_turns_ended == 1 and turn.done == set()


# -- the comparison with Wesnoth's AI (the parts that need no Wesnoth) -------------------------

WESNOTH_LOG = """\
20261206 02:49:03.323307 info ai/testing: AI_IDENTIFIER 1: ai_default_rca
20261206 02:49:03.323307 info ai/testing: AI_IDENTIFIER 2: ai_default_rca
20261206 02:49:03.323307 info ai/testing: VERSION: 1.16.9
UNIT\t1\tLieutenant
UNIT\t1\tSpearman
UNIT\t2\tOrcish Warrior
20261206 02:49:03.323307 info ai/testing: Turn 1:
20261206 02:49:03.352016 debug ai/manager: side 1: total turn time: 28 ms
20261206 02:49:03.368637 debug ai/manager: side 2: total turn time: 16 ms
20261206 02:49:03.391302 debug ai/manager: side 1: total turn time: 23 ms
20261206 02:49:03.553973 info ai/testing: WINNER: 1
20261206 02:49:03.554026 info ai/testing: GAME_END_TURN: 2
"""


def test_wesnoth_log_gives_each_side_turn_and_the_outcome() -> None:
    from bench import wesnoth

    game = wesnoth.parse_log(WESNOTH_LOG)
    assert game.turn_ms == [28.0, 16.0, 23.0]
    assert game.ai == {1: "ai_default_rca", 2: "ai_default_rca"} and game.version == "1.16.9"
    assert game.winners == [1] and game.end_turn == 2 and game.units == {1: 2, 2: 1}
    assert wesnoth.parse_log("no AI here").turn_ms == []


def test_wesnoth_battle_places_the_asked_number_a_side() -> None:
    from bench import wesnoth

    cfg = wesnoth.scenario_cfg(5)
    assert f"id={wesnoth.SCENARIO_ID}" in cfg and wesnoth.MAP_FILE in cfg
    assert cfg.count("[side]") == 2 and cfg.count("[unit]") == 2 * 4  # a leader and four more a side
    assert "type=Lieutenant" in cfg and "type=Orcish Warrior" in cfg and 'recruit=""' in cfg
    for army in wesnoth.ARMIES.values():
        assert len({(x, y) for _, x, y in army}) == len(army)  # no two on one hex


def test_wesnoth_table_compares_medians_and_judges_the_p95(capsys: pytest.CaptureFixture[str]) -> None:
    from bench import wesnoth

    rows = wesnoth.table_rows([40.0] * 10, [8.0] * 10, [10.0] * 9 + [250.0])
    print(markdown_table(rows))
    _check_rows(rows, capsys.readouterr().out)
    assert rows[0]["ratio"] == "0.25×" and rows[0]["measured"] == "10.0 ms" and "Wesnoth" in rows[0]["baseline"]
    assert rows[2]["ratio"] == "0.2×"
    line = wesnoth.verdict([40.0] * 10, [10.0] * 9 + [250.0])
    assert "0.25×" in line and "target ≤ 0.25×: met" in line and "target < 200 ms: not met" in line
    assert "not met" in wesnoth.verdict([40.0] * 10, [20.0] * 10).split(";")[0]


def test_wesnoth_bench_without_wesnoth_says_so_in_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    env = {k: v for k, v in os.environ.items() if k != "PATH"} | {"PATH": str(tmp_path)}
    for args, words in ((["--quick"], "wesnoth not found"), (["--units", "99"], "--units must be")):
        done = subprocess.run(
            [sys.executable, "-m", "bench.wesnoth", *args], cwd=root, env=env, capture_output=True, text=True
        )
        assert done.returncode != 0 and done.stdout == ""
        assert words in done.stderr and len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_wesnoth_bench_runs_against_a_stand_in_binary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The whole bench on a stand-in that prints a Wesnoth log: our side-turns are timed and compared."""
    from bench import wesnoth

    log = tmp_path / "wesnoth.log"
    log.write_text(WESNOTH_LOG, encoding="utf-8")
    stand_in = tmp_path / "wesnoth"
    stand_in.write_text(f"#!/bin/sh\ncat '{log}' >&2\n", encoding="utf-8")
    stand_in.chmod(0o755)
    report = wesnoth.main(["--quick", "--wesnoth", str(stand_in)])
    assert report["wesnoth_ms"] == [28.0, 16.0, 23.0]
    assert len(report["whole_ms"]) == len(report["thinking_ms"]) >= 4  # A1 and B1, two turns each
    assert all(w >= t for w, t in zip(report["whole_ms"], report["thinking_ms"], strict=True))
    _check_rows(report["rows"], capsys.readouterr().out)


def test_strength_measures_the_campaign_battles_and_leaves_out_the_tutorial() -> None:
    from bench import strength
    from bench.balance import campaign_scenarios

    chosen = strength.default_scenarios()
    assert "tutorial" not in chosen
    assert sorted(chosen) == sorted(campaign_scenarios())
    assert len(chosen) == 7
