"""Han Xin's coalition (the Yuqing faction)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from ..core import tallies
from ..core.actions import UseSkill
from ..core.hexgrid import Hex, distance
from ..core.sides import are_enemies
from ..core.state import Formation
from . import grounds
from .hailing import LIANG
from .persona import Destination, Persona

if TYPE_CHECKING:
    from .general import General

# How near a friend's front must lie to be the line a lane formation waits behind.
FRONT_REACH = 4
# Turns Han Xin waits for the host to come on and break against his posts (before Datong it
# leaned on the line on the second or third turn between equal generals, and broke by the fourth):
# a host that has not broken by then will not come, and every post is given up to go and fight it.
WAIT_FOR_HOST = 3
# A formation that bags souls at least this fast (Cao Zhi's scholars) is the army's soul-catcher.
SOUL_CATCHER = 2.0


class Yuqing(Persona):
    """The Yuqing Palace coalition: the plain commander, except that

    - Geng Gong's thirteen leave the Prince of Hailing a note and nothing else. For General Yeli's
      sake, who counted him a friend, they did not take him that day: the infiltrators turn no
      raid or sabotage on his guard (a player may).
    - A formation the scenario lets open a lane, kept at its post behind friends who hold a front
      of their own (the five thousand behind the wings before Datong), waits for Han Xin's word:
      it charges only once the enemy has thrown its weight against that front, at one of those
      who stood pressing on our posts when our turn began (or, once nobody stands on that front
      any more, wherever the charge pays), and the charge may carry it off its post.
    - Han Xin waits for the host at his posts only so long (``WAIT_FOR_HOST``): where the scenario
      names both a lane and the event of the host's breaking, a host still unbroken after that
      has refused battle, and the whole army gives up its posts and goes out to fight it. It
      goes for the host: enemies whose breaking the scenario credits to other formations' blows
      alone (the thirty thousand in the pass, Cao Zhi's retainers' own fight) are left to them,
      and the soul-catchers (the scholars themselves) leave a fight that will not come to them
      and follow the army, bagging the souls it strikes down."""

    def __init__(self, general: General) -> None:
        super().__init__(general)
        self.leaning: frozenset[str] = frozenset()

    def new_turn(self) -> None:
        super().new_turn()
        self.leaning = self._leaning_on_the_front()

    def memory(self) -> Hashable:
        return (super().memory(), self.leaning, self.waited_out(), self.host_holds_off())

    def waited_out(self) -> bool:
        """Whether the turns Han Xin waits at his posts for the host have passed (only where the
        scenario opens a lane for the five thousand and names the event of the host's breaking)."""
        hints = self.hints
        return bool(hints.lane) and hints.retreat_event is not None and self.g.engine.state.turn > WAIT_FOR_HOST

    def host_holds_off(self) -> bool:
        """Whether the enemy host has refused battle: the waiting is over and it has not broken."""
        return self.waited_out() and self.hints.retreat_event not in self.g.engine.state.fired_events

    def _post(self, unit: str) -> tuple[frozenset[Hex], str | None, str | None, bool, bool, bool] | None:
        # The waiting over, no post binds anybody any more: every one of them waited for the host
        # to come on or to break, and one that has not come by now is gone out to.
        return None if self.waited_out() else super()._post(unit)

    def others_feat(self, f: Formation) -> frozenset[str]:
        """Enemy formations in a tally the scenario credits to other formations' blows than
        ``f``'s: while the army goes out to a host that will not come, it leaves them be."""
        if not self.host_holds_off():
            return frozenset()
        return frozenset(
            unit
            for objective in self.g.game.scenario.objective_specs
            if objective.tally_by and not tallies.credited(objective, f)
            for unit in objective.tally
        )

    def guards_ground(self, f: Formation) -> bool:
        # Gone out to a host that will not come, the army is not called off to the scenario's
        # other aims when the turns run short: the scholars are not thrown at the thirty thousand
        # at any loss, nor the others sent into the pass after them. Each fights where it is.
        return self.host_holds_off() or super().guards_ground(f)

    def sweeping(self, f: Formation) -> bool:
        """Whether ``f`` is a soul-catcher following an army gone out to a host that will not come."""
        return self.host_holds_off() and self.g.engine.rules.units[f.type].capture_rate >= SOUL_CATCHER

    def may_strike(self, f: Formation, target: Formation) -> bool:
        if target.id in self.others_feat(f) or (self.sweeping(f) and not target.routed):
            return False
        return super().may_strike(f, target)

    def destination(self, f: Formation, enemies: list[Formation], goals: frozenset[Hex]) -> Destination | None:
        if self.sweeping(f):
            sweep = grounds.sweep_ground(self.g.engine, self.g.side_id, enemies)
            army = frozenset(o.pos for o in self.g.engine.state.formations_of(f.side) if o.id != f.id and not o.routed)
            return (sweep or army or goals), None
        feat = self.others_feat(f)
        if feat:
            host = frozenset(e.pos for e in enemies if e.id not in feat and not e.routed)
            if host:
                return host, None
        return super().destination(f, enemies, goals)

    def worth_using(self, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool | None:
        target = self.g.engine.state.formations.get(use.target or "")
        if target is not None and target.hero == LIANG and self._infiltrator(f):
            return False
        if target is not None and target.id in self.others_feat(f):
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
