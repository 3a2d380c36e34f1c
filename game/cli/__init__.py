"""The command line (README "Command line"): ``qiankun`` and ``python -m game``.

``parser`` reads the arguments, one module per command carries it out, and ``errors`` turns bad
input (or a bug) into one line and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from .. import i18n
from .chronicle import cmd_chronicle
from .errors import EXIT_OK, CliError, in_one_line
from .parser import build_parser
from .play import cmd_play
from .replay import cmd_replay
from .scenarios import cmd_scenarios
from .screenshot import cmd_screenshot
from .simulate import cmd_simulate
from .validate import cmd_validate

__all__ = ["COMMANDS", "CliError", "build_parser", "main", "run"]

COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "play": cmd_play,
    "scenarios": cmd_scenarios,
    "simulate": cmd_simulate,
    "chronicle": cmd_chronicle,
    "replay": cmd_replay,
    "validate": cmd_validate,
    "screenshot": cmd_screenshot,
}


def main(argv: Sequence[str] | None = None) -> int:
    def command() -> int:
        args = build_parser().parse_args(argv)
        i18n.set_language(args.lang or i18n.detect_language())
        if args.command is None:
            from ..ui.app import start

            start(args.lang)
            return EXIT_OK
        return COMMANDS[args.command](args)

    return in_one_line(command)


def run() -> None:
    sys.exit(main())
