"""``qiankun screenshot``: render one frame of a scenario or a save, headless, to a PNG."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from ..content.scenarios import scenario_ids
from .errors import EXIT_OK, CliError
from .inputs import check_out, exists, loaded_scenario, naming_file


def cmd_screenshot(args: argparse.Namespace) -> int:
    from ..record.errors import SaveError
    from ..record.match import match_at_turn, new_match
    from ..record.saves import load_record

    source, out, turn = args.source, args.out, args.turn
    check_out(out, ".png", "the screenshot")
    try:
        if source in scenario_ids():
            if turn not in (None, 1):
                raise CliError("--turn needs a save file; a scenario starts at turn 1")
            loaded_scenario(source)  # a broken scenario is refused here, as by every command
            match = new_match(source, {}, seed=0)
        else:
            path = Path(source)
            if not exists(path):
                raise CliError(f"{source!r} is neither a scenario id nor a save file")
            match = match_at_turn(load_record(path), turn)
    except SaveError as exc:
        raise CliError(naming_file(Path(source), exc)) from None
    sides = [s.id for s in match.state.sides]
    if args.view != "all" and args.view not in sides:
        raise CliError(f"--view must be 'all' or a side id ({', '.join(sides)})")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from ..ui.snapshot import render_screenshot

    try:
        render_screenshot(match, out, args.size, args.view)
    except OSError as exc:
        raise CliError(f"cannot write {out}: {exc.strerror or exc}") from None
    print(f"wrote {out}")
    return EXIT_OK
