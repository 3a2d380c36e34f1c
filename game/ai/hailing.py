"""Wanyan Liang's host (the Hailing faction): ambushes that let the vanguard pass, a feigned
retreat toward them, re-forming the routed, turning back for the palace, the retreat to it once a
battle is lost, and rash overreach when his pride is hurt."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from ..core.actions import UseSkill
from ..core.hexgrid import Hex, distance
from ..core.state import Formation, GameState
from .persona import Destination, Persona
from .threat import blow

if TYPE_CHECKING:
    from .general import General

# Pride: turns of rash overreach, how near a loss must fall to sting, how little he then fears.
PRIDE_TURNS = 2
PRIDE_RADIUS = 3
PRIDE_LOSS_WEIGHT = 0.3
PRIDE_MEN_DROP = 0.15
# Turns the host keeps marching home after the raiders at the palace were last seen.
ALARM_TURNS = 3
# Wanyan Liang rides to routed souls within this many hexes to re-form them.
REFORM_REACH = 8
LIANG = "wanyan_liang"
# A formation on its way to its post does not turn aside for infiltrators this many times fewer.
HANDFUL = 50


class Hailing(Persona):
    def __init__(self, general: General) -> None:
        super().__init__(general)
        self.palace = self.region(self.hints.palace_region)
        self.alarm = self.hints.palace_alarm
        self.feint = frozenset(self.hints.feint)
        self.feint_ground = self.region(self.hints.feint_region)
        # Once the palace has been threatened the host marches home, and keeps on for a while
        # after the raiders draw off.
        self.alarm_until = 0
        self.alarm_event = self.hints.palace_alarm_event
        self.alarm_heard = False
        # Once the battle is lost (the scenario's retreat event), the host makes for its refuge.
        self.refuge = self.region(self.hints.refuge_region)
        self.retreat_event = self.hints.retreat_event
        self.sprung: set[str] = set()
        self.men_seen: dict[str, int] = {}
        self.pos_seen: dict[str, Hex] = {}
        self.pride_until = 0
        self.threatening: frozenset[str] = frozenset()

    # Memory ------------------------------------------------------------------------------

    def observe(self, state: GameState, enemies: list[Formation]) -> None:
        own = {f.id: f for f in state.formations_of(self.g.side_id)}
        liang = next((f for f in own.values() if f.hero == LIANG), None)
        for fid, men in self.men_seen.items():
            f = own.get(fid)
            if f is not None and f.men < men and self._is_ambusher(f):
                self.sprung.add(fid)  # struck while waiting: the ambush is off
            if liang is None:
                continue
            if f is None and distance(self.pos_seen[fid], liang.pos) <= PRIDE_RADIUS:
                self.hurt(state.turn)  # a formation at his side destroyed
            if fid == liang.id and f is not None and f.men < men * (1 - PRIDE_MEN_DROP):
                self.hurt(state.turn)
        self.men_seen = {fid: f.men for fid, f in own.items()}
        self.pos_seen = {fid: f.pos for fid, f in own.items()}
        self.threatening = frozenset(
            e.id
            for e in enemies
            if self.palace and not e.routed and any(distance(e.pos, h) <= self.alarm for h in self.palace)
        )
        heard = self.alarm_event is not None and self.alarm_event in state.fired_events
        if self.threatening or (heard and not self.alarm_heard):
            self.alarm_until = state.turn + ALARM_TURNS
        self.alarm_heard = heard

    def memory(self) -> Hashable:
        return (super().memory(), frozenset(self.sprung), self.threatening, self.pride_until, self.alarm_until)

    def reserves(self) -> frozenset[str]:
        # With the palace threatened, or the retreat ordered, every man rides back.
        ordered = self.retreat_event is not None and self.retreat_event in self.g.engine.state.fired_events
        return frozenset() if self.alarmed() or ordered else super().reserves()

    def alarmed(self) -> bool:
        return self.g.engine.state.turn <= self.alarm_until

    def retreating(self, f: Formation) -> bool:
        """Whether ``f`` gives up the field for the refuge: the retreat has been ordered and it
        is not posted where the scenario wants it."""
        ordered = self.retreat_event is not None and self.retreat_event in self.g.engine.state.fired_events
        return ordered and bool(self.refuge) and self.held_region(f.id) is None

    def homeward(self, f: Formation) -> bool:
        """Whether ``f`` marches back for the palace: the alarm has been given and it is not
        posted where the scenario wants it."""
        return self.alarmed() and self.held_region(f.id) is None

    def hurt(self, turn: int) -> None:
        self.pride_until = max(self.pride_until, turn + PRIDE_TURNS)

    def proud(self) -> bool:
        return self.g.engine.state.turn <= self.pride_until

    def answered(self, accept: bool) -> None:
        if not accept:
            self.hurt(self.g.game.state.turn)  # refusing stings as much as losing

    # Roles -------------------------------------------------------------------------------

    def _is_ambusher(self, f: Formation) -> bool:
        return "ambush" in self.g.engine.rules.units[f.type].abilities

    def waiting(self, f: Formation) -> bool:
        # Once the retreat is ordered nobody is left to spring the trap for: the hidden men go too.
        ordered = self.retreat_event is not None and self.retreat_event in self.g.engine.state.fired_events
        # A post the scenario gives them sends them out too (the thirty thousand who tire of
        # waiting for the rear go down the road to find it).
        return (
            self._is_ambusher(f)
            and f.id not in self.sprung
            and self.held_region(f.id) is None
            and not self.alarmed()
            and not ordered
        )

    def role(self, f: Formation) -> str | None:
        if self.waiting(f):
            return "hold_still"
        if f.id in self.feint and self._ambush_waiting():
            return "feint"
        return super().role(f)

    def _ambush_waiting(self) -> list[Formation]:
        return [f for f in self.g.engine.state.formations_of(self.g.side_id) if self.waiting(f)]

    def may_strike(self, f: Formation, target: Formation) -> bool:
        if self.waiting(f):
            # Let the strong vanguard pass; spring on the weaker rear.
            rules = self.g.engine.rules
            weak = blow(rules, target) <= blow(rules, f) or target.routed
            if weak:
                self.sprung.add(f.id)
            return weak
        if f.id in self.feint and self._ambush_waiting():
            return False
        if self.homeward(f):
            return target.id in self.threatening  # the palace first, whatever else is near
        if self.retreating(f):
            return False  # running for the refuge, not turning to fight
        return not self._slips_past(f, target)

    def _slips_past(self, f: Formation, target: Formation) -> bool:
        """Whether ``target`` is a handful of infiltrators that ``f``, on its way to its post,
        does not turn aside for (Geng Gong's thirteen slipping through the host fleeing home)."""
        region = self.held_region(f.id)
        if region is None or f.pos in region or target.men * HANDFUL >= f.men:
            return False
        return "infiltrator" in self.g.engine.rules.units[target.type].abilities

    def target_weight(self, target: Formation) -> float:
        return 2.0 if target.id in self.threatening else 1.0

    def loss_weight(self, attacker: Formation) -> float:
        if not self.proud():
            return 1.0
        liang = self.hero_formation(LIANG, self.g.side_id)
        if liang is not None and distance(liang.pos, attacker.pos) <= PRIDE_RADIUS:
            return PRIDE_LOSS_WEIGHT
        return 1.0

    def destination(self, f: Formation, enemies: list[Formation], goals: frozenset[Hex]) -> Destination | None:
        if self.waiting(f):
            return None  # hidden men do not stir
        if self.retreating(f):
            return self.refuge, None
        if self.homeward(f):
            state = self.g.engine.state
            if self.threatening:
                return frozenset(state.formations[e].pos for e in sorted(self.threatening)), None
            return self.palace, None  # the raiders withdrew: home anyway, to see the halls safe
        if f.id in self.feint and self._ambush_waiting():
            if self.feint_ground:
                # Run on, away from the pursuers' rear, and draw them past the hidden friends.
                return self.feint_ground, None
            return frozenset(a.pos for a in self._ambush_waiting()), None
        if f.hero == LIANG:
            # He rides to the routed near him, but once on his way to his post he does not turn
            # back for those it would lead him away from.
            post = self.held_region(f.id)
            ahead = min((distance(f.pos, h) for h in post), default=0) if post else 0

            def on_the_way(o: Formation) -> bool:
                return not post or min(distance(o.pos, h) for h in post) <= ahead

            routed = [
                o.pos
                for o in self.g.engine.state.formations_of(self.g.side_id)
                if o.routed and distance(o.pos, f.pos) <= REFORM_REACH and on_the_way(o)
            ]
            if routed:
                return frozenset(routed), None
        return super().destination(f, enemies, goals)

    def may_challenge(self, f: Formation) -> bool:
        # On his way to the post the scenario gives him (the hidden path home), the Prince of
        # Hailing re-forms his routed as he goes but stops for no duel.
        if f.hero == LIANG:
            post = self.held_region(f.id)
            if post is not None and f.pos not in post:
                return False
        return super().may_challenge(f)

    def worth_using(self, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool | None:
        if self.g.engine.rules.skills[use.skill].effect == "reform":
            return True
        return super().worth_using(f, use, enemies)
