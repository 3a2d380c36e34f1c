"""``qiankun replay``: open a saved game in the replay viewer, or ``--verify`` it headless."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from .errors import EXIT_FAIL, EXIT_OK, CliError
from .inputs import naming_file

if TYPE_CHECKING:
    from ..record.model import GameRecord


def cmd_replay(args: argparse.Namespace) -> int:
    from ..record.errors import SaveError
    from ..record.made_with import scenario_for
    from ..record.saves import load_record
    from ..record.snapshot import settings_problem
    from ..record.verify import verify

    try:
        record = load_record(args.save)
        if args.verify:
            loaded = scenario_for(record)
            problem = settings_problem(record, loaded.scenario)
            if problem:
                raise SaveError(f"damaged save: {problem}")
            result = verify(record, loaded)
    except SaveError as exc:
        raise CliError(naming_file(args.save, exc)) from None
    if not args.verify:
        return _open_replay(record, args.lang)
    if result.ok and not result.chained:
        # Exact as far as it can tell, which is less than a record of format 3 or later tells.
        print(
            f"ok by state only: actions={result.actions} turns={result.turns} hash={result.hash} "
            "(begun in format 2 or older, its checkpoints hold no digest of the actions: an action changed, "
            "moved, added or removed without changing the state at a turn's end would not show)"
        )
        return EXIT_OK
    if result.ok:
        print(f"ok actions={result.actions} turns={result.turns} hash={result.hash}")
        return EXIT_OK
    print(f"mismatch: {result.problem}")
    return EXIT_FAIL


def _open_replay(record: GameRecord, lang: str | None) -> int:
    """Open the replay viewer on the saved game, at its start."""
    from ..record.errors import SaveError
    from ..record.privacy import hides_each_side
    from ..record.replay_cursor import ReplayCursor

    if hides_each_side(record):
        raise CliError("a battle between two players that is not over: the replay would show each the other's army")
    try:
        cursor = ReplayCursor(record)  # a changed or unknown scenario is refused before any window opens
    except SaveError as exc:
        raise CliError(str(exc)) from None
    from ..ui.app import start

    start(lang, "replay", record=record, cursor=cursor)
    return EXIT_OK
