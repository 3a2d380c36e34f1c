"""``qiankun chronicle``: how often the chronicle's set pieces come in AI games, and on which turns."""

from __future__ import annotations

import argparse
import json

from .errors import EXIT_OK, CliError
from .inputs import loaded_scenario
from .simulate import play_games


def cmd_chronicle(args: argparse.Namespace) -> int:
    from ..chronicle.tally import ChronicleTally, summary_table
    from ..content.chronicle import set_pieces

    pieces = set_pieces(loaded_scenario(args.scenario).scenario.id)
    if not pieces:
        raise CliError(f"the chronicle tells no set piece of {args.scenario!r}")
    tally = ChronicleTally(pieces)
    play_games(args, None, None, tally)
    summary = tally.summary() | {"scenario": args.scenario, "seeds": [args.seed, args.seed + args.games - 1]}
    print(json.dumps({"summary": summary}, ensure_ascii=False) if args.json else summary_table(summary), flush=True)
    return EXIT_OK
