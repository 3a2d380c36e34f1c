"""``qiankun screenshot``: render one frame of a scenario or a save, headless, to a PNG."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from ..content.scenarios import scenario_ids
from .errors import EXIT_OK, CliError
from .inputs import check_out, exists, loaded_scenario, naming_file

if TYPE_CHECKING:
    from ..record.match import Match


def default_view(match: Match) -> str:
    """Whose eyes a screenshot is drawn through unless asked: in a running game between people
    at one screen, the side to move (as the game itself would open it, behind its curtain, so
    nothing of the other side is drawn); else everything."""
    if len(match.seats.humans()) >= 2 and not match.state.over:
        return match.engine.deciding_side()
    return "all"


def check_seal(match: Match, view: str, phrase: str | None) -> None:
    """A side sealed by a pass phrase in a running game is drawn only with its phrase, as its
    curtain would ask for it (``--reveal`` asks for everything, on purpose)."""
    seal = None if view == "all" or match.state.over else match.seats.seal(view)
    if seal is None:
        return
    if phrase is None:
        raise CliError(f"side {view!r} of this running game is sealed by a pass phrase: give it with --pass-phrase")
    if not seal.opens(phrase):
        raise CliError(f"that is not the pass phrase of side {view!r}")


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
    if args.reveal and args.view is not None:
        raise CliError("--reveal draws everything: give it or --view, not both")
    if args.view is not None and args.view != "all" and args.view not in sides:
        raise CliError(f"--view must be 'all' or a side id ({', '.join(sides)})")
    view = "all" if args.reveal else args.view or default_view(match)
    check_seal(match, view, args.pass_phrase)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from ..ui.snapshot import render_screenshot

    try:
        render_screenshot(match, out, args.size, view)
    except OSError as exc:
        raise CliError(f"cannot write {out}: {exc.strerror or exc}") from None
    print(f"wrote {out}")
    return EXIT_OK
