"""Han Xin's coalition (the Yuqing faction)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from ..core.actions import UseSkill
from ..core.hexgrid import Hex, distance
from ..core.sides import are_enemies
from ..core.state import Formation
from .hailing import LIANG
from .persona import Persona

if TYPE_CHECKING:
    from .general import General

# How near a friend's front must lie to be the line a lane formation waits behind.
FRONT_REACH = 4


class Yuqing(Persona):
    """The Yuqing Palace coalition: the plain commander, except that

    - Geng Gong's thirteen leave the Prince of Hailing a note and nothing else. For General Yeli's
      sake, who counted him a friend, they did not take him that day: the infiltrators turn no
      raid or sabotage on his guard (a player may).
    - A formation the scenario lets open a lane, kept at its post behind friends who hold a front
      of their own (the five thousand behind the wings before Datong), waits for Han Xin's word:
      it charges only once the enemy has thrown its weight against that front, at one of those
      who stood pressing on our posts when our turn began (or, once nobody stands on that front
      any more, wherever the charge pays), and the charge may carry it off its post."""

    def __init__(self, general: General) -> None:
        super().__init__(general)
        self.leaning: frozenset[str] = frozenset()

    def new_turn(self) -> None:
        super().new_turn()
        self.leaning = self._leaning_on_the_front()

    def memory(self) -> Hashable:
        return (super().memory(), self.leaning)

    def worth_using(self, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool | None:
        target = self.g.engine.state.formations.get(use.target or "")
        if target is not None and target.hero == LIANG and self._infiltrator(f):
            return False
        skill = self.g.engine.rules.skills[use.skill]
        if skill.effect == "lane" and f.id in self.hints.lane and self._behind_a_front(f):
            if not self._front_standing(f):
                # The line is gone: the word cannot wait for the host to lean on it any longer.
                return use.target == self.g.lane_target(f, use.skill)
            if use.target not in self.leaning:
                return False
            return use.target == self.g.lane_target(f, use.skill, among=self.leaning)
        return super().worth_using(f, use, enemies)

    def _infiltrator(self, f: Formation) -> bool:
        return "infiltrator" in self.g.engine.rules.units[f.type].abilities

    def _behind_a_front(self, f: Formation) -> bool:
        """Whether ``f`` stands on its post while friends are told to hold a front of their own
        (whether or not they still stand on it)."""
        own = self.held_region(f.id)
        if own is None or f.pos not in own:
            return False
        return any(
            self._front_before(f, self.held_region(unit))
            for unit in self.posts
            if unit != f.id and unit not in self.hints.lane
        )

    def _front_before(self, f: Formation, region: frozenset[Hex] | None) -> bool:
        """Whether ``region`` is a front near ``f`` other than its own post (the line before the
        five thousand, not the Hegemon-King's waiting ground far off)."""
        own = self.held_region(f.id)
        return region is not None and region != own and min(distance(f.pos, h) for h in region) <= FRONT_REACH

    def _front_standing(self, f: Formation) -> bool:
        """Whether a friend still stands, unbroken, on a front near ``f`` other than its post."""
        for o in self.g.engine.state.formations_of(self.g.side_id):
            region = self.held_region(o.id)
            if o.id != f.id and not o.routed and o.pos in (region or ()) and self._front_before(f, region):
                return True
        return False

    def _leaning_on_the_front(self) -> frozenset[str]:
        """Enemies in contact with a friend standing on its post as our turn begins: the host has
        thrown its weight against the line (or, the line gone, against those behind it)."""
        state = self.g.engine.state
        posted = []
        for o in state.formations_of(self.g.side_id):
            region = self.held_region(o.id)
            if not o.routed and region is not None and o.pos in region:
                posted.append(o)
        return frozenset(
            e.id
            for e in state.formations.values()
            if are_enemies(state, self.g.side_id, e.side)
            and not e.routed
            and not e.hidden
            and any(distance(e.pos, o.pos) <= 1 for o in posted)
        )
