"""Heroes' signature skills: effects that change combat, and the Use-skill action.

``skill_modifiers`` lists the named combat modifiers a formation draws from skills (active
effects and passive ones).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules import Ruleset
from .state import Formation, GameState


def skill_modifiers(state: GameState, rules: Ruleset, f: Formation) -> list[tuple[str, int, str]]:
    """(name msgid, percent, "power" or "defence") for every skill effect on ``f``."""
    return []


if TYPE_CHECKING:
    from .actions import UseSkill
    from .combat import CombatSetup
    from .engine import Engine
    from .events import Event


def check(engine: Engine, f: Formation, action: UseSkill) -> None:
    from .errors import IllegalAction

    raise IllegalAction("unknown_skill", f"{f.id} has no skill {action.skill!r}")


def apply(engine: Engine, f: Formation, action: UseSkill) -> list[Event]:
    return []


def after_attack(engine: Engine, attacker: Formation, defender: Formation, setup: CombatSetup) -> list[Event]:
    return []


def after_combat(engine: Engine, attacker: Formation, defender: Formation, events: list[Event]) -> list[Event]:
    return []


def start_of_turn(engine: Engine, side_id: str) -> list[Event]:
    return []
