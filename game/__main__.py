"""``python -m game`` opens the main menu; subcommands as in ``game.cli``."""

from .cli import run

run()
