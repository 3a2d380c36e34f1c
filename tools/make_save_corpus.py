"""Write the save corpus that tests/test_save_format.py loads: real saves of the current format.

    python tools/make_save_corpus.py [--out tests/saves_corpus/vN]

Three games, all played by the computer's generals without a time budget (so the same code
writes the same files): A1 after three turns, a finished B3 battle, and a two-player (hotseat)
A1 game saved in the middle of a side's turn. Each file is written by ``Match.save`` exactly as
the game writes a save. Files of an older format are kept as they were written: never
regenerate them with newer code (a newer format goes into a new ``vN`` folder).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.ai.driver import play_ai_turn  # noqa: E402
from game.ai.general import General  # noqa: E402
from game.content.scenarios import load_scenario  # noqa: E402
from game.core.engine import GameSettings  # noqa: E402
from game.record.match import Match, match_from_record  # noqa: E402
from game.record.model import FORMAT_VERSION, GameRecord  # noqa: E402
from game.record.seats import Commander  # noqa: E402


def play(
    scenario_id: str, seed: int, controllers: dict[str, Commander], turns: int | None, max_turns: int | None
) -> Match:
    """A game whose every side is played by a general (human sides too: they stand in for the
    players), for ``turns`` turns or until it is over."""
    loaded = load_scenario(scenario_id)
    match = Match(loaded, seed, GameSettings(max_turns=max_turns), seats=controllers)
    generals = {s.id: General(match.engine, s.id, "normal") for s in match.state.sides}
    while not match.state.over and (turns is None or match.state.turn <= turns):
        if match.state.pending_duel is not None:
            # A challenge to a person's side: its stand-in general answers it.
            match.apply(generals[match.engine.deciding_side()].next_action())
            continue
        play_ai_turn(match, generals[match.state.active_side.id], budget=None, others=generals)
    return match


def cut(record: GameRecord, actions: int) -> Match:
    """The game as it stood after its first ``actions`` actions (a save made mid-turn)."""
    short = record.model_copy(
        update={
            "actions": record.actions[:actions],
            "checkpoints": [c for c in record.checkpoints if c.actions <= actions],
        }
    )
    return match_from_record(short)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "saves_corpus" / f"v{FORMAT_VERSION}")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)

    a1 = play("a1_valley_mouth", 7, {"coalition": "human", "hailing": "ai"}, turns=3, max_turns=None)
    a1.save(args.out / "a1_turn4.json")

    b3 = play("b3_tangut_border", 3, {"zhenguo": "ai", "jin": "ai", "tangut": "ai"}, turns=None, max_turns=None)
    assert b3.state.over, "the finished game did not finish"
    b3.save(args.out / "b3_finished.json")

    hotseat = play("a1_valley_mouth", 12, {"coalition": "human", "hailing": "human"}, turns=2, max_turns=None)
    last = hotseat.record.checkpoints[-2].actions  # a few actions into the last side-turn played
    mid = cut(hotseat.record, last + 3)
    mid.save(args.out / "a1_hotseat_midturn.json")
    for p in sorted(args.out.glob("*.json")):
        print(p, p.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
