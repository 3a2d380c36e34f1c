"""A1's set pieces in computer-against-computer games: how often the defile holds until the army
joins the wings, the Hegemon-King charges into the returning host, Cao Zhi's retainers bag souls
and the broken host is herded, and who wins.

    python -m bench.a1_set_pieces [--games N] [--seed S] [--json]

Each game is the one ``qiankun simulate a1_valley_mouth --seed S`` plays (normal difficulty).
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Sequence
from typing import Any

from game.ai.driver import make_ais, play_ai_turn
from game.content.scenarios import load_scenario
from game.core.engine import GameSettings
from game.core.events import Attacked, Destroyed, Event, Fled, SoulsCaptured
from game.record.match import Match

SCENARIO = "a1_valley_mouth"
HOST = (
    "liang_riders_1",
    "liang_levy_1",
    "liang_levy_2",
    "liang_levy_3",
    "liang_levy_4",
    "liang_levy_5",
    "liang_riders_2",
)
XIANG_YU = "xiang_yu_500"
RETAINERS = "cao_zhi_2000"


def play(seed: int, difficulty: str = "normal") -> dict[str, Any]:
    """One game and what happened in it: each scenario event with its turn, the charges into the
    host, the souls the retainers bagged, the men the herded routs left behind."""
    loaded = load_scenario(SCENARIO)
    settings = GameSettings(difficulty=difficulty)
    match = Match(loaded, seed, settings, seats={s.id: "ai" for s in loaded.scenario.sides})
    fired: dict[str, int] = {}
    out: dict[str, Any] = {"seed": seed, "charges": [], "retainer_souls": 0, "stragglers": 0, "xiang_yu_lost": None}

    # The defile's eastern edge: a host formation past it has broken through.
    board = loaded.scenario.board
    east_edge = max(board.offset(h)[0] for h in board.regions["the_front"])

    def listen(events: list[Event]) -> None:
        turn = match.state.turn
        waiting = "army_joins" not in match.state.fired_events and "breached" not in out
        if waiting and any(
            f.id in HOST and not f.routed and board.offset(f.pos)[0] > east_edge
            for f in match.state.formations.values()
        ):
            out["breached"] = turn
        for e in match.state.fired_events:
            fired.setdefault(e, turn)
        for e in events:
            if isinstance(e, Attacked) and e.unit == XIANG_YU and e.charge and e.target in HOST:
                out["charges"].append(turn)
            elif isinstance(e, SoulsCaptured) and e.unit == RETAINERS:
                out["retainer_souls"] += e.count
            elif isinstance(e, Fled):
                out["stragglers"] += e.stragglers
            elif isinstance(e, Destroyed) and e.unit == XIANG_YU:
                out["xiang_yu_lost"] = turn
            if "host_broken" in match.state.fired_events and "pouch_at_break" not in out:
                out["pouch_at_break"] = match.state.side("coalition").pouch

    match.listeners.append(listen)
    ais = make_ais(match)
    while not match.state.over:
        play_ai_turn(match, ais[match.state.active_side.id], others=ais)
    state = match.state
    out.update(
        winner=state.winner,
        turns=state.turn,
        events=fired,
        pouch=state.side("coalition").pouch,
        held=("front_lost" not in fired) or ("army_joins" in fired and fired["army_joins"] <= fired["front_lost"]),
    )
    return out


def summary(games: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(games)

    def count(pred) -> int:
        return sum(1 for g in games if pred(g))

    lost = [g["events"]["front_lost"] for g in games if "front_lost" in g["events"]]
    return {
        "games": n,
        "coalition_wins": count(lambda g: g["winner"] == "coalition"),
        "defile_held_until_army_joins": count(lambda g: g["held"] and "army_joins" in g["events"]),
        "defile_never_lost": count(lambda g: "front_lost" not in g["events"]),
        "defile_lost_turns": sorted(lost),
        "host_through_the_defile_before_army_joins": count(lambda g: "breached" in g),
        "army_joins": count(lambda g: "army_joins" in g["events"]),
        "xiang_yu_charges_host": count(lambda g: bool(g["charges"])),
        "xiang_yu_lost_before_charging": count(lambda g: g["xiang_yu_lost"] is not None and not g["charges"]),
        "retainers_bag_souls": count(lambda g: g["retainer_souls"] > 0),
        "host_broken": count(lambda g: "host_broken" in g["events"]),
        "rout_herded": count(lambda g: "rout_herded" in g["events"]),
        "mean_pouch": round(statistics.fmean(g["pouch"] for g in games), 1) if n else 0.0,
        "mean_turns": round(statistics.fmean(g["turns"] for g in games), 1) if n else 0.0,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--difficulty", default="normal")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    games = [play(s, args.difficulty) for s in range(args.seed, args.seed + args.games)]
    if args.json:
        print(json.dumps({"summary": summary(games), "games": games}, indent=1))
        return 0
    for g in games:
        ev = g["events"]
        print(
            f"seed {g['seed']:3}: {g['winner'] or 'draw':9} T{g['turns']:2}  swept {ev.get('valley_swept', '-')}"
            f"  front lost {ev.get('front_lost', '-')}  breached {g.get('breached', '-')}"
            f"  army joins {ev.get('army_joins', '-')}"
            f"  charges {g['charges']}  XY lost {g['xiang_yu_lost']}  broken {ev.get('host_broken', '-')}"
            f"  herded {ev.get('rout_herded', '-')}  pouch {g['pouch']} (at break {g.get('pouch_at_break', '-')})"
            f"  retainers {g['retainer_souls']}  stragglers {g['stragglers']}"
        )
    print(json.dumps(summary(games), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
