"""How every command ends: exit codes, and bad input or a bug told in one line, never a traceback.

Set QIANKUN_DEBUG=1 to see the traceback of an unexpected error.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from ..content.errors import ContentErrors

EXIT_OK = 0
EXIT_FAIL = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
EXIT_INTERNAL_ERROR = 70


class CliError(Exception):
    """Bad input: printed as one line, exit code 2 unless given."""

    def __init__(self, message: str, code: int = EXIT_BAD_INPUT) -> None:
        super().__init__(message)
        self.code = code


def in_one_line(run: Callable[[], int]) -> int:
    """``run()``'s exit code; whatever it raises becomes one line on stderr and its exit code."""
    try:
        return run()
    except CliError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.code
    except ContentErrors as exc:
        print(f"error: {exc.errors[0]}", file=sys.stderr)
        return EXIT_FAIL
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # a bug, not bad input: still one line unless debugging
        if os.environ.get("QIANKUN_DEBUG"):
            raise
        print(f"error: internal error: {type(exc).__name__}: {exc} (set QIANKUN_DEBUG=1 for details)", file=sys.stderr)
        return EXIT_INTERNAL_ERROR
