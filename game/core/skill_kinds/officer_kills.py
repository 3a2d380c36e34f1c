"""``officer_kills``: passive, every melee blow of the formation fells officers, which shakes
the defender and heartens the hero's men nearby (Yue Fei)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import morale, officers
from ..skill_kind import Passive
from ..skill_marks import OFFICER_KILLS_NEARBY, OFFICERS_SLAIN, friends_within, passive_skill

if TYPE_CHECKING:
    from ..combat import CombatSetup
    from ..events import Event
    from ..state import Formation
    from ..table import Table


class OfficerKills(Passive):
    reads = ("morale", "area_morale", "radius")
    description = OFFICERS_SLAIN

    def after_attack(self, table: Table, attacker: Formation, defender: Formation, setup: CombatSetup) -> list[Event]:
        if setup.mode != "melee":
            return []
        skill = passive_skill(table.rules, attacker, self.name)
        if skill is None:
            return []
        events = morale.change_morale(table.rules, defender, skill.morale, OFFICERS_SLAIN)
        for friend in friends_within(table.state, attacker, skill.radius):
            if not friend.routed:
                events += morale.change_morale(table.rules, friend, skill.area_morale, OFFICER_KILLS_NEARBY)
        # The scenario's named officers fall one by one, each lifting the hero's men.
        return events + officers.cut_down(table, attacker, defender)


KIND = OfficerKills()
