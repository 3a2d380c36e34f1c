"""``qiankun play``: straight into a battle, against the computer or hotseat."""

from __future__ import annotations

import argparse

from .errors import EXIT_OK, CliError
from .inputs import loaded_scenario


def cmd_play(args: argparse.Namespace) -> int:
    loaded = loaded_scenario(args.scenario)
    side_ids = loaded.scenario.side_ids()
    side = args.side or loaded.scenario.default_player_side()
    if side not in side_ids:
        raise CliError(f"unknown side {side!r} for {args.scenario} (sides: {', '.join(side_ids)})")
    from ..record.match import new_match
    from ..record.seats import Commander

    controllers: dict[str, Commander] = {s: ("human" if args.hotseat or s == side else "ai") for s in side_ids}
    from ..ui.app import start

    start(args.lang, "battle", match=new_match(args.scenario, controllers, args.seed, args.difficulty))
    return EXIT_OK
