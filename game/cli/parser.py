"""The command line's arguments: every command, its options and the bounds of its numbers."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from .. import i18n
from .errors import CliError

# Bounds of the numbers the commands take (a seed is what a save can hold, ``model.MAX_SEED``).
MAX_SEED = (1 << 63) - 1
MAX_GAMES = 1_000_000
MAX_JOBS = 64
MAX_TURNS = 500  # a scenario's own turn limit is at most this (``ScenarioFile.turn_limit``)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line instead of usage + error
        raise CliError(f"{self.prog}: {message} (see --help)")


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WxH, like 1280x800, not {text!r}") from None
    if not (200 <= w <= 8192 and 200 <= h <= 8192):
        raise argparse.ArgumentTypeError("width and height must be between 200 and 8192")
    return w, h


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must not be negative")
    return value


def _at_most(high: int, low: int = 1) -> Callable[[str], int]:
    """An argument type: a whole number from ``low`` to ``high``, the bound named if it is not."""

    def parse(text: str) -> int:
        value = _non_negative(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, not {value}")
        return value

    return parse


def _games_arguments(parser: argparse.ArgumentParser, games: int) -> None:
    """The arguments of the commands that play AI games: which, how many, at what level, how shown."""
    parser.add_argument("scenario")
    parser.add_argument("--seed", type=_at_most(MAX_SEED, 0), default=1)
    parser.add_argument("--games", type=_at_most(MAX_GAMES), default=games)
    parser.add_argument(
        "--jobs", type=_at_most(MAX_JOBS), default=1, help="worker processes (no more than games or cores)"
    )
    parser.add_argument(
        "--difficulty",
        action="append",
        default=[],
        metavar="[SIDE=]LEVEL",
        help="easy, normal or hard: for every side, or SIDE=LEVEL for one (repeatable)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON line per game, then the summary")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="qiankun", description="Qiankun, a turn-based hex strategy game.")
    p.add_argument("--lang", choices=list(i18n.LANGUAGES), help="language of the game text")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)

    play = sub.add_parser("play", help="go straight into a battle")
    play.add_argument("scenario")
    play.add_argument("--side", help="the side you command (default: the scenario's player side)")
    play.add_argument("--hotseat", action="store_true", help="two players at one screen: every side human")
    play.add_argument("--difficulty", choices=["easy", "normal", "hard"], default="normal")
    play.add_argument("--seed", type=_at_most(MAX_SEED, 0))

    sc = sub.add_parser("scenarios", help="list the scenarios")
    sc.add_argument("--json", action="store_true")

    sim = sub.add_parser("simulate", help="AI against AI, headless")
    _games_arguments(sim, games=1)
    sim.add_argument("--max-turns", type=_at_most(MAX_TURNS))
    sim.add_argument("--save-dir", type=Path)

    ch = sub.add_parser("chronicle", help="how often the chronicle's set pieces come in AI games")
    _games_arguments(ch, games=30)

    rp = sub.add_parser("replay", help="replay a saved game")
    rp.add_argument("save", type=Path)
    rp.add_argument("--verify", action="store_true", help="re-run headless and check every checkpoint")

    va = sub.add_parser("validate", help="check maps, scenarios and data")
    va.add_argument("paths", nargs="*", type=Path)

    sh = sub.add_parser("screenshot", help="render one frame headless")
    sh.add_argument("source", help="a scenario id or a save file")
    sh.add_argument("--out", type=Path, required=True)
    sh.add_argument("--turn", type=_at_most(MAX_TURNS + 1))
    sh.add_argument("--size", type=_size, default=(1280, 800))
    sh.add_argument(
        "--view",
        help="a side id, or 'all' (default: all, but in a running game between two players the side to move)",
    )
    sh.add_argument("--reveal", action="store_true", help="draw everything, even a running two-player game's")
    sh.add_argument("--pass-phrase", help="the pass phrase of a sealed side whose view is drawn")
    return p
