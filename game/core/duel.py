"""Duels between heroes (单挑): challenge, answer, and the fight."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import IllegalAction
from .events import Event
from .state import Formation

if TYPE_CHECKING:
    from .engine import Engine


def check_challenge(engine: Engine, challenger: Formation, target: Formation) -> None:
    raise IllegalAction("no_duels", "duels are not possible yet")


def challenge(engine: Engine, challenger: Formation, target: Formation) -> list[Event]:
    return []


def answer(engine: Engine, accept: bool) -> list[Event]:
    return []
