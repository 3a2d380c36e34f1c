"""Qiankun: a turn-based hex strategy game of spirit armies and the qiankun pouch."""

import os

# pygame prints a banner on import (pytmx imports it too); it must not pollute CLI output.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

__version__ = "0.3.0"
