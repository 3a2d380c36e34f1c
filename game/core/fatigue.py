"""What tires men and what rests them: the fatigue each kind of order costs or restores.

Fatigue runs from 0 to 100 and each unit type's ``fatigue_rate`` scales what it gains.
"""

from __future__ import annotations

from .rules import Ruleset
from .state import Formation

MOVE_FATIGUE = 4
FORCED_MARCH_FATIGUE = 20
ATTACK_FATIGUE = 8
DEFEND_FATIGUE = 4
REST_FATIGUE = 30
IDLE_FATIGUE = 15  # recovered at turn start by a formation that neither moved nor acted
REST_MORALE = 10
MAX_FATIGUE = 100


def tire(rules: Ruleset, f: Formation, amount: int) -> None:
    """``f`` gains ``amount`` fatigue, scaled by its unit type's rate, up to the maximum."""
    rate = rules.units[f.type].fatigue_rate
    f.fatigue = min(MAX_FATIGUE, f.fatigue + round(amount * rate))
