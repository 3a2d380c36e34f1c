"""Named officers (謀克, 猛安, 萬戶) cut down by a hero whose blows fell officers.

A scenario lists the officers of its formations (``Scenario.officers``) in the order they fall.
Each melee blow of Yue Fei's formation cuts down the next one still standing in the formation it
strikes: an event names him, and his fall lifts the spirit of the hero's men, the more the
higher his rank. Who has fallen is kept on the formation that lost him as a mark that never
runs out (``Formation.effects``, so a save needs no new field).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import morale
from .events import Event, OfficerSlain
from .msgid import N_
from .scenario import OfficerSpec
from .state import Formation

if TYPE_CHECKING:
    from .table import Table


# Rank id -> (name, morale the slayer's own formation gains).
RANKS: dict[str, tuple[str, int]] = {
    "mouke": (N_("mouke"), 3),  # 謀克, captain of a hundred households
    "mengan": (N_("meng'an"), 5),  # 猛安, commander of a thousand
    "wanhu": (N_("wanhu"), 10),  # 萬戶, commander of ten thousand
}
SLAIN = "officer_slain_"  # + officer id: a mark on the formation that lost him
NEVER = 1_000_000  # marks that never run out
OFFICER_REASON = N_("An officer cut down")


def standing(engine: Table, f: Formation) -> list[OfficerSpec]:
    """The formation's named officers not yet cut down, in the order they fall."""
    return [o for o in engine.scenario.officers if o.unit == f.id and SLAIN + o.id not in f.effects]


def cut_down(engine: Table, attacker: Formation, defender: Formation) -> list[Event]:
    """The blow fells the defender's next officer, if it has one left; the attacker's men take heart."""
    if defender.id not in engine.state.formations:
        return []
    left = standing(engine, defender)
    if not left:
        return []
    officer = left[0]
    defender.effects[SLAIN + officer.id] = NEVER
    events: list[Event] = [OfficerSlain(unit=defender.id, by=attacker.id, rank=officer.rank, name=officer.name)]
    if attacker.id in engine.state.formations:
        events += morale.change_morale(engine.rules, attacker, RANKS[officer.rank][1], OFFICER_REASON)
    return events


def slain(engine: Table, side: str | None = None) -> list[str]:
    """Ids of the named officers cut down so far (of ``side``'s formations, if given); those of a
    destroyed formation are not counted, since its marks are gone with it."""
    state = engine.state
    out = []
    for o in engine.scenario.officers:
        f = state.formations.get(o.unit)
        if f is not None and SLAIN + o.id in f.effects and (side is None or f.side == side):
            out.append(o.id)
    return out
