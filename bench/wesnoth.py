"""The general's side-turn against Wesnoth 1.16's RCA AI on a comparable battle.

An optional bench: it needs the ``wesnoth`` binary (Debian: ``apt-get install wesnoth-1.16-core``,
which puts it in /usr/games), which no dependency of the game or its test extra provides. Without
it the bench says so in one line and exits non-zero. Run from the repository root:

    python -m bench.wesnoth [--quick] [--games N] [--turns T] [--units N] [--wesnoth PATH]

The Wesnoth battle: The Freelands (the 2p map Wesnoth ships as its default, 37×24 hexes of open
grass, hills, woods and fords between two keeps) with a small scenario this bench writes into a
temporary userdata folder as an add-on: a Loyalist and a Northerner army of N units a side (default
8: a leader and seven level-1 units of mixed kinds, placed around the two keeps), no gold and no
recruit list, so the armies stay what they are, fog on, both sides played by the default RCA AI
(``ai_default_rca``), up to T turns (default 20) or until a leader falls. That is our kind of
battle: A1 is 36×26 hexes with 16 formations (5 and 11), B1 is 40×24 with 10 (3 and 7), fog on,
no reinforcements bought, a turn limit of about 20; 8 units a side gives Wesnoth's AI as many
pieces to move as A1 and more than B1.

Wesnoth is run headless (``wesnoth --nogui --multiplayer --scenario ... --controller 1:ai
--controller 2:ai --exit-at-end``), one process a game, and timed by its own
measurement: with ``--log-debug=ai/manager`` the AI manager logs ``side N: total turn time: T ms``
at the end of every AI side-turn, the wall time of ``ai::manager::play_turn`` (the RCA loop
evaluating its candidate actions and carrying them out; with no GUI nothing is animated), in whole
milliseconds. Start-up, loading the map and the turn's upkeep (income, healing) fall outside it.
Its multiplayer games are not reproducible (``--rng-seed`` does not fix the game's own seed), so
the same command plays other Wesnoth battles each run; the medians hold, the p95 moves more.

Ours, in the same run and interleaved with the Wesnoth games so both see the same load: the normal
general on both sides of A1 and B1 through the driver ``qiankun simulate`` uses (seeds 1..N). Two
figures a side-turn: the thinking alone (the AI-turn bench's figure) and the whole side-turn, the
thinking and the engine carrying out the orders, which is what Wesnoth's figure covers; the
targets (median at most a quarter of Wesnoth's, p95 under 200 ms) are judged on the whole side-turn.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .common import machine_note, markdown_table, row, summary

OUR_SCENARIOS = ("a1_valley_mouth", "b1_the_valley")
SCENARIO_ID = "qiankun_bench_freelands"
MAP_FILE = "multiplayer/maps/2p_The_Freelands.map"
TARGET_RATIO = 0.25
TARGET_P95_MS = 200.0
GAME_TIMEOUT_S = 600

# (unit type, x, y), the leader first: the hexes nearest each keep that a foot soldier can stand on.
ARMIES: dict[int, list[tuple[str, int, int]]] = {
    1: [
        ("Lieutenant", 19, 4),
        ("Spearman", 18, 4),
        ("Bowman", 20, 4),
        ("Spearman", 18, 3),
        ("Cavalryman", 20, 3),
        ("Mage", 19, 5),
        ("Heavy Infantryman", 17, 5),
        ("Spearman", 18, 6),
        ("Bowman", 20, 6),
        ("Fencer", 21, 6),
        ("Cavalryman", 17, 6),
        ("Spearman", 16, 6),
    ],
    2: [
        ("Orcish Warrior", 19, 21),
        ("Orcish Grunt", 18, 21),
        ("Orcish Archer", 20, 21),
        ("Orcish Grunt", 18, 20),
        ("Wolf Rider", 20, 20),
        ("Troll Whelp", 19, 20),
        ("Orcish Assassin", 17, 21),
        ("Orcish Grunt", 17, 20),
        ("Orcish Archer", 21, 20),
        ("Troll Whelp", 18, 19),
        ("Wolf Rider", 19, 19),
        ("Orcish Grunt", 20, 19),
    ],
}
MAX_UNITS = min(len(army) for army in ARMIES.values())

_TURN_TIME = re.compile(r"ai/manager: side (\d+): total turn time: (\d+) ms")
_AI_ID = re.compile(r"ai/testing: AI_IDENTIFIER (\d+): (\S+)")
_VERSION = re.compile(r"ai/testing: VERSION: (\S+)")
_WINNER = re.compile(r"ai/testing: WINNER: (\d+)")
_END_TURN = re.compile(r"ai/testing: GAME_END_TURN: (\d+)")
_UNIT = re.compile(r"^UNIT\t(\d+)\t", re.M)


def scenario_cfg(units: int) -> str:
    """The WML of the bench battle with ``units`` a side (the leader included)."""
    sides = []
    for side, army in ARMIES.items():
        (leader, lx, ly), *rest = army[:units]
        placed = "".join(
            f"        [unit]\n            type={kind}\n            x,y={x},{y}\n        [/unit]\n"
            for kind, x, y in rest
        )
        sides.append(
            f"    [side]\n        side={side}\n        controller=ai\n        team_name=side{side}\n"
            f"        fog=yes\n        canrecruit=yes\n        type={leader}\n        x,y={lx},{ly}\n"
            f'        recruit=""\n        faction=Custom\n        gold=0\n{placed}    [/side]\n'
        )
    census = "for _, u in ipairs(wesnoth.units.find_on_map{}) do std_print('UNIT\\t' .. u.side .. '\\t' .. u.type) end"
    return (
        "#ifdef MULTIPLAYER\n[multiplayer]\n"
        f"    id={SCENARIO_ID}\n    name=Qiankun bench: Freelands battle\n    map_file={MAP_FILE}\n"
        "    random_start_time=no\n    {DEFAULT_SCHEDULE}\n" + "".join(sides) + "    [event]\n        name=start\n"
        f"        [lua]\n            code=<< {census} >>\n        [/lua]\n    [/event]\n"
        "[/multiplayer]\n#endif\n"
    )


def write_userdata(folder: Path, units: int) -> None:
    """Install the bench battle as an add-on of a fresh userdata folder."""
    addon = folder / "data" / "add-ons" / "qiankun_bench"
    addon.mkdir(parents=True, exist_ok=True)
    (addon / "_main.cfg").write_text(scenario_cfg(units), encoding="utf-8")
    (addon / "_info.cfg").write_text('[info]\n    version="1.0.0"\n[/info]\n', encoding="utf-8")


def wesnoth_command(binary: str, userdata: Path, seed: int, turns: int) -> list[str]:
    return [
        binary,
        "--userdata-dir", str(userdata / "data"),
        "--userconfig-dir", str(userdata / "config"),
        "--nogui", "--nosound", "--multiplayer",
        "--scenario", SCENARIO_ID,
        "--controller", "1:ai", "--controller", "2:ai",
        "--turns", str(turns),
        "--rng-seed", str(seed),
        "--exit-at-end",
        "--log-info=ai/testing", "--log-debug=ai/manager",
    ]  # fmt: skip


@dataclass
class WesnothGame:
    """What one headless Wesnoth game's log says: every AI side-turn's ms, who played, how it ended."""

    turn_ms: list[float] = field(default_factory=list)
    ai: dict[int, str] = field(default_factory=dict)
    version: str = ""
    winners: list[int] = field(default_factory=list)
    end_turn: int = 0
    units: dict[int, int] = field(default_factory=dict)


def parse_log(text: str) -> WesnothGame:
    game = WesnothGame()
    game.turn_ms = [float(m.group(2)) for m in _TURN_TIME.finditer(text)]
    game.ai = {int(m.group(1)): m.group(2) for m in _AI_ID.finditer(text)}
    version = _VERSION.search(text)
    game.version = version.group(1) if version else ""
    game.winners = [int(m.group(1)) for m in _WINNER.finditer(text)]
    end = _END_TURN.search(text)
    game.end_turn = int(end.group(1)) if end else 0
    game.units = dict(Counter(int(m.group(1)) for m in _UNIT.finditer(text)))
    return game


def play_wesnoth(binary: str, userdata: Path, seed: int, turns: int) -> WesnothGame:
    """One headless AI-against-AI game; a failed run ends the bench with a one-line message."""
    command = wesnoth_command(binary, userdata, seed, turns)
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=GAME_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise SystemExit(f"bench.wesnoth: could not run {binary}: {error}") from None
    game = parse_log(done.stdout + done.stderr)
    if done.returncode != 0 or not game.turn_ms:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"bench.wesnoth: {binary} gave no AI turn times (exit {done.returncode}): {last}")
    return game


def play_ours(scenario_id: str, seed: int, max_turns: int | None) -> tuple[list[float], list[float]]:
    """One game of the normal general on both sides: per side-turn, thinking ms and whole ms."""
    from game.ai.driver import make_ais, play_ai_turn
    from game.content.scenarios import load_scenario
    from game.core.engine import GameSettings
    from game.record.match import Match

    loaded = load_scenario(scenario_id)
    settings = GameSettings(max_turns=max_turns, difficulty="normal")
    match = Match(loaded, seed, settings, seats={s.id: "ai" for s in loaded.scenario.sides})
    ais = make_ais(match)
    thinking: list[float] = []
    whole: list[float] = []
    while not match.state.over:
        start = time.perf_counter()
        thinking.append(play_ai_turn(match, ais[match.state.active_side.id], others=ais))
        whole.append((time.perf_counter() - start) * 1000.0)
    return thinking, whole


def _share(ours: float, theirs: float) -> float | None:
    return round(ours / theirs, 2) if theirs > 0 else None


def table_rows(wesnoth_ms: Sequence[float], thinking: Sequence[float], whole: Sequence[float]) -> list[dict[str, str]]:
    """The comparison: our medians against Wesnoth's, and our p95 against its bound."""
    wes, think, side_turn = summary(wesnoth_ms), summary(thinking), summary(whole)
    wes_median = f"{wes['median']:.0f} ms (Wesnoth 1.16 RCA AI, {wes['n']} side-turns)"
    wes_p95 = f"{wes['p95']:.0f} ms (Wesnoth's p95)"
    return [
        row(
            f"side-turn, whole ({side_turn['n']} side-turns of {' and '.join(OUR_SCENARIOS)}): median",
            f"{side_turn['median']:.1f} ms",
            wes_median,
            _share(side_turn["median"], wes["median"]),
            f"≤ {TARGET_RATIO}× Wesnoth's",
        ),
        row(
            "side-turn, whole: p95",
            f"{side_turn['p95']:.1f} ms",
            wes_p95,
            _share(side_turn["p95"], wes["p95"]),
            f"< {TARGET_P95_MS:.0f} ms",
        ),
        row(
            "side-turn, thinking only: median",
            f"{think['median']:.1f} ms",
            wes_median,
            _share(think["median"], wes["median"]),
            "–",
        ),
        row("side-turn, thinking only: p95", f"{think['p95']:.1f} ms", wes_p95, _share(think["p95"], wes["p95"]), "–"),
    ]


def verdict(wesnoth_ms: Sequence[float], whole: Sequence[float]) -> str:
    """Whether the whole side-turn meets both targets, in one line."""
    wes, side_turn = summary(wesnoth_ms), summary(whole)
    share = _share(side_turn["median"], wes["median"])
    ratio_met = share is not None and share <= TARGET_RATIO
    p95_met = side_turn["p95"] < TARGET_P95_MS
    return (
        f"median {share}× Wesnoth's (target ≤ {TARGET_RATIO}×: {'met' if ratio_met else 'not met'}); "
        f"p95 {side_turn['p95']:.1f} ms (target < {TARGET_P95_MS:.0f} ms: {'met' if p95_met else 'not met'})"
    )


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {text!r}")
    return value


def find_wesnoth(explicit: str | None) -> str | None:
    return shutil.which(explicit or "wesnoth")


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m bench.wesnoth", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one game each, 3 turns (smoke run)")
    parser.add_argument("--games", type=_positive, default=None, help="games of each, seeds 1..N (default 10)")
    parser.add_argument("--turns", type=_positive, default=None, help="Wesnoth's turn limit (default 20)")
    parser.add_argument("--units", type=int, default=8, help=f"Wesnoth units a side, 2..{MAX_UNITS} (default 8)")
    parser.add_argument("--wesnoth", default=None, help="the Wesnoth binary (default: wesnoth on PATH)")
    args = parser.parse_args(argv)
    if not 2 <= args.units <= MAX_UNITS:
        raise SystemExit(f"bench.wesnoth: --units must be between 2 and {MAX_UNITS}, not {args.units}")
    binary = find_wesnoth(args.wesnoth)
    if binary is None:
        raise SystemExit(
            f"bench.wesnoth: {args.wesnoth or 'wesnoth'} not found (not on PATH); install Wesnoth 1.16 "
            "(Debian: apt-get install wesnoth-1.16-core, in /usr/games) or pass --wesnoth PATH"
        )
    games = args.games or (1 if args.quick else 10)
    turns = args.turns or (3 if args.quick else 20)
    our_cap = 2 if args.quick else None
    print(__doc__.split("\n\n", 3)[3].strip() + "\n")

    wesnoth_ms: list[float] = []
    thinking_ms: list[float] = []
    whole_ms: list[float] = []
    by_scenario: dict[str, list[float]] = {scenario_id: [] for scenario_id in OUR_SCENARIOS}
    played: list[WesnothGame] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="qiankun-wesnoth-") as folder:
        userdata = Path(folder)
        write_userdata(userdata / "data", args.units)
        for seed in range(1, games + 1):
            game = play_wesnoth(binary, userdata, seed, turns)
            played.append(game)
            wesnoth_ms += game.turn_ms
            for scenario_id in OUR_SCENARIOS:
                thinking, whole = play_ours(scenario_id, seed, our_cap)
                thinking_ms += thinking
                whole_ms += whole
                by_scenario[scenario_id] += whole
            print(
                f"seed {seed}: Wesnoth {len(game.turn_ms)} side-turns, units {game.units}, "
                f"winners {game.winners or 'none'} at turn {game.end_turn}; ours {len(whole_ms)} side-turns so far",
                flush=True,
            )
    elapsed = time.perf_counter() - started
    first = played[0]
    print(f"\nWesnoth {first.version}, AIs {first.ai}; {elapsed:.0f} s in all")
    for scenario_id, values in by_scenario.items():
        s = summary(values)
        print(f"ours on {scenario_id}: {s['n']} side-turns, whole median {s['median']} ms, p95 {s['p95']} ms")
    rows = table_rows(wesnoth_ms, thinking_ms, whole_ms)
    print(verdict(wesnoth_ms, whole_ms) + "\n")
    print(markdown_table(rows))
    print(f"\n({machine_note()}; {games} games each, Wesnoth {args.units} units a side, {turns} turns)")
    return {
        "rows": rows,
        "wesnoth_ms": wesnoth_ms,
        "thinking_ms": thinking_ms,
        "whole_ms": whole_ms,
        "games": played,
    }


if __name__ == "__main__":
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    main(sys.argv[1:])
