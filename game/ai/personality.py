"""Faction behaviour on top of the tactical core: roles, targets and the chronicles' tricks.

``Persona`` is the plain commander (the player factions): formations a scenario's ``[ai] hold``
names keep their front; the rest close on the enemy. A hard general also reads the scenario's
events: it marches on ground whose taking wins the battle and keeps a formation on ground whose
loss would lose it. ``Hailing`` is Wanyan Liang: ambushes that
let the vanguard pass, a feigned retreat toward them, re-forming the routed, turning back for
the palace, and rash overreach when his pride is hurt. ``Jin`` is Wanyan Wuzhu: an army that
masses behind its vanguard to force a pass; when losing, a rear guard that dies in place, the
rest riding light for the refuge fort, and delaying detachments; and a duel with Yue Fei. Every
memory here is rebuilt from the sequence of states the general sees, so the same game always
gets the same decisions.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from ..core.actions import Action, AnswerDuel, Challenge, UseSkill
from ..core.combat import CHARGE_RUN
from ..core.hexgrid import Hex, distance, spiral
from ..core.movement import are_enemies, max_steps
from ..core.scenario_events import Defeat, EventSpec, OnEntersRegion, OnRouted, SetObjective, Victory
from ..core.state import Formation, GameState
from ..core.triggers import conditions_hold
from .threat import blow

if TYPE_CHECKING:
    from .general import General

Destination = tuple[frozenset[Hex], frozenset[Hex] | None]

# Pride: turns of rash overreach, how near a loss must fall to sting, how little he then fears.
PRIDE_TURNS = 2
PRIDE_RADIUS = 3
PRIDE_LOSS_WEIGHT = 0.3
PRIDE_MEN_DROP = 0.15
# A reserve waits within this many hexes of its commander and at least this far from the enemy.
RESERVE_GAP = 3
# A sweeper goes only where no formed enemy stands within this many hexes.
SWEEP_CLEAR = 2
# Wanyan Liang rides to routed souls within this many hexes to re-form them.
REFORM_REACH = 8
# Jin falls back when its men are below this share of the start or of the enemies in sight.
LOSING_SHARE = 0.5
LOSING_RATIO = 0.6
# Weight of an attack on a formation barring the pass the Jin mean to force.
PASS_WEIGHT = 1.5
# A delaying detachment is at most this share of the army.
DETACHMENT_SHARE = 0.25
LIANG = "wanyan_liang"
WUZHU = "wanyan_wuzhu"
YUE_FEI = "yue_fei"


class Persona:
    def __init__(self, general: General) -> None:
        self.g = general
        hints = general.game.scenario.ai
        board = general.game.board
        self.hold: dict[str, frozenset[Hex]] = {}
        # Formation id -> the event after which its front no longer needs holding.
        self.hold_until: dict[str, str] = {}
        # Formation id -> the event before which its front does not need holding yet.
        self.hold_after: dict[str, str] = {}
        # Formations under a march order: on the way to their post they turn aside for nothing.
        self.marchers: set[str] = set()
        for spec in hints.hold:
            if spec.side != general.side_id or spec.region not in board.regions:
                continue
            region = board.regions[spec.region]
            units = spec.units or tuple(s.id for s in general.game.scenario.formations if s.side == general.side_id)
            for unit in units:
                self.hold[unit] = region
                if spec.until is not None:
                    self.hold_until[unit] = spec.until
                if spec.after is not None:
                    self.hold_after[unit] = spec.after
                if spec.march:
                    self.marchers.add(unit)
        # Saved for one blow (the scenario's reserves): formation id -> (from event, until events).
        self.saved: dict[str, tuple[str | None, tuple[str, ...]]] = {
            unit: (spec.after, spec.until)
            for spec in hints.reserve
            if spec.side == general.side_id
            for unit in spec.units
        }
        # Soul-catchers sweeping behind the army.
        self.sweepers = frozenset(hints.sweepers)
        # Ordered to stand and die, or to fall back as bait: never kept back as a reserve.
        self.under_orders = frozenset(hints.rear_guard) | frozenset(hints.feint)
        # Regions whose taking wins the battle (a hard general reads the scenario's events).
        self.winning_ground: Ground = _winning_ground(general) if general.style.objectives else ()
        # Regions whose taking by the enemy loses it: one of ours always stands in each.
        self.losing_ground: Ground = _losing_ground(general) if general.style.objectives else ()
        # Hosts of ours the enemy wins something by routing all at once: one of each is kept back.
        self.hosts: Hosts = _hosts_to_keep_whole(general) if general.style.objectives else ()
        self._guards_for: GameState | None = None
        self._guards_cache: dict[str, frozenset[Hex]] = {}
        self._reserves_for: GameState | None = None
        self._reserves_cache: frozenset[str] = frozenset()

    # -- hooks the general calls ------------------------------------------------------------

    def new_turn(self) -> None:
        pass

    def memory(self) -> Hashable:
        """What the persona remembers that may change its choices (roles, targets, weights):
        while it stays the same, scores worked out earlier still hold."""
        return (self._released(), self.reserves(), self._orders_fired())

    def _orders_fired(self) -> frozenset[str]:
        """The events the scenario's holds and reserves wait for that have fired."""
        watched = set(self.hold_after.values())
        for after, until in self.saved.values():
            watched.update((after, *until) if after else until)
        return frozenset(e for e in self.g.engine.state.fired_events if e in watched)

    def observe(self, state: GameState, enemies: list[Formation]) -> None:
        pass

    def role(self, f: Formation) -> str | None:
        if f.id in self._saved_now():
            return "reserve"
        if self.held_region(f.id) is not None:
            return "hold"
        return "reserve" if f.id in self.reserves() else None

    def held_region(self, unit: str) -> frozenset[Hex] | None:
        """The front ``unit`` is to keep; a hard general lets it go once the event the hold
        waited for has fired (the trap it protected is sprung). A formation the scenario saves
        for one blow is bound by no front once its waiting has begun."""
        region = self.hold.get(unit)
        if region is None or self.hold_until.get(unit) in self._released():
            return None
        if unit in self.saved and self._saving_began(unit):
            return None
        if unit in self.hold_after and self.hold_after[unit] not in self.g.engine.state.fired_events:
            return None
        return region

    def _saving_began(self, unit: str) -> bool:
        after = self.saved[unit][0]
        return after is None or after in self.g.engine.state.fired_events

    def _saved_now(self) -> frozenset[str]:
        """The scenario's reserves still waiting for their moment."""
        if not self.saved:
            return frozenset()
        fired = self.g.engine.state.fired_events
        return frozenset(
            unit
            for unit, (_after, until) in self.saved.items()
            if self._saving_began(unit) and not any(e in fired for e in until)
        )

    def _released(self) -> frozenset[str]:
        if not self.g.style.objectives or not self.hold_until:
            return frozenset()
        fired = self.g.engine.state.fired_events
        return frozenset(e for e in self.hold_until.values() if e in fired)

    def reserves(self) -> frozenset[str]:
        """Formations a hard general keeps out of the fight, so that a host the enemy must
        break all at once never breaks: of each such host, the fresh formation farthest from
        the enemy (a hero's own formation leads and is never held back); and at every level the
        formations the scenario saves for one blow, while they wait. Worked out once per view of
        the game."""
        state = self.g.engine.state
        if self._reserves_for is state:
            return self._reserves_cache
        saved = self._saved_now()
        me = self.g.side_id
        live = [e.pos for e in state.formations.values() if are_enemies(state, me, e.side) and not e.routed]
        picks: set[str] = set()
        for event_id, units in self.hosts:
            if event_id in state.fired_events:
                continue
            fresh = [
                state.formations[u]
                for u in units
                if u in state.formations
                and not state.formations[u].routed
                and state.formations[u].hero is None
                and not state.formations[u].hidden
                and u not in self.hold
                and u not in self.under_orders
            ]
            if len(fresh) < 2:
                continue  # a lone formation kept back would be the host's last: it fights
            picks.add(max(fresh, key=lambda f: (min((distance(f.pos, e) for e in live), default=0), f.id)).id)
        self._reserves_for, self._reserves_cache = state, frozenset(picks) | saved
        return self._reserves_cache

    def may_strike(self, f: Formation, target: Formation) -> bool:
        return self._worthy_blow(f, target)

    def _worthy_blow(self, f: Formation, target: Formation) -> bool:
        """A sweeper strikes only the routed. A formation saved for one blow, once released,
        spends itself only on a charge (or on the routed): it is not thrown into a standing
        fight."""
        if f.id in self.sweepers:
            return target.routed
        if f.id not in self.saved or not self._released_reserve(f.id) or target.routed:
            return True
        rules = self.g.engine.rules
        return "charge" in rules.units[f.type].abilities and f.charge_run >= CHARGE_RUN

    def _released_reserve(self, unit: str) -> bool:
        until = self.saved[unit][1]
        return self._saving_began(unit) and any(e in self.g.engine.state.fired_events for e in until)

    def target_weight(self, target: Formation) -> float:
        return 1.0

    def loss_weight(self, attacker: Formation) -> float:
        return 1.0

    def allowed_hexes(self, f: Formation) -> frozenset[Hex] | None:
        """Where ``f`` may stop to strike: a holder that stands on its front stays on it, and so
        does the one guarding ground the enemy must not take."""
        region = self.held_region(f.id) or self._guarded_region(f)
        if region is not None and f.pos in region:
            return region
        if self.marching(f):
            # Under a march order: strike only where it brings the post nearer.
            assert region is not None
            now = min(distance(f.pos, h) for h in region)
            reach = max_steps(f, self.g.engine.rules)
            return frozenset(h for h in spiral(f.pos, reach) if min(distance(h, r) for r in region) < now)
        return None

    def marching(self, f: Formation) -> bool:
        """Whether ``f`` is on its way to a post under a march order."""
        region = self.held_region(f.id)
        return f.id in self.marchers and region is not None and f.pos not in region

    def destination(self, f: Formation, enemies: list[Formation], goals: frozenset[Hex]) -> Destination | None:
        if f.id in self.reserves() or (f.id in self.saved and self._released_reserve(f.id)):
            # Released, it still waits out of reach between its charges.
            return self._reserve_ground(f, enemies), None
        guard = self._guarded_region(f)
        if guard is not None:
            return guard, guard
        if f.id in self.sweepers:
            sweep = self._sweep_ground(enemies)
            if sweep:
                return sweep, None
        region = self.held_region(f.id)
        if region is None:
            return self._winning_region(f) or goals, None
        if f.pos in region:
            # On the front: shift only to close a gap nearer the enemy, never off it.
            live = [e.pos for e in enemies if not e.routed]
            if not live or any(distance(f.pos, e) <= 1 for e in live):
                return None
            return frozenset(live), region
        return region, None

    def special_action(self, own: list[Formation], enemies: list[Formation]) -> Action | None:
        return None

    def worth_using(self, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool | None:
        return None

    def _guarded_region(self, f: Formation) -> frozenset[Hex] | None:
        """Ground the enemy wins by taking unopposed that ``f`` is to hold: it is the only one
        of ours standing there, or none stands there and it is the nearest."""
        return self._guards().get(f.id)

    def _guards(self) -> dict[str, frozenset[Hex]]:
        """Formation id -> the ground it guards, worked out once per view of the game (it is
        asked for every formation the general scores)."""
        state = self.g.engine.state
        if self._guards_for is state:
            return self._guards_cache
        guards: dict[str, frozenset[Hex]] = {}
        own = [o for o in state.formations_of(self.g.side_id) if not o.routed]
        for spec, region in self.losing_ground:
            if spec.id in state.fired_events or not conditions_hold(state, spec):
                continue
            inside = [o for o in own if o.pos in region]
            if len(inside) == 1:
                guards.setdefault(inside[0].id, region)
            elif not inside and own:
                nearest = min(own, key=lambda o: (min(distance(o.pos, h) for h in region), o.id))
                guards.setdefault(nearest.id, region)
        self._guards_for, self._guards_cache = state, guards
        return guards

    def _winning_region(self, f: Formation) -> frozenset[Hex] | None:
        """The region ``f`` should march on because standing there wins the battle now."""
        state = self.g.engine.state
        for spec, region in self.winning_ground:
            when = spec.when
            assert isinstance(when, OnEntersRegion)
            if spec.id not in state.fired_events and conditions_hold(state, spec) and when.selects(f.id):
                return region
        return None

    def _sweep_ground(self, enemies: list[Formation]) -> frozenset[Hex]:
        """Where a sweeper goes: next to routed enemy soul formations, else to enemy souls lying
        on the field; only where no formed enemy stands within SWEEP_CLEAR hexes (it sweeps
        behind the army, not in front of it)."""
        state, rules = self.g.engine.state, self.g.engine.rules
        formed = [e.pos for e in enemies if not e.routed]

        def clear(h: Hex) -> bool:
            return all(distance(h, e) > SWEEP_CLEAR for e in formed)

        routed = frozenset(
            e.pos for e in enemies if e.routed and "soul" in rules.units[e.type].abilities and clear(e.pos)
        )
        if routed:
            return routed
        me = self.g.side_id
        return frozenset(
            h
            for key, by_side in state.field_souls.items()
            if any(n > 0 and are_enemies(state, me, side) for side, n in by_side.items()) and clear(h := Hex.parse(key))
        )

    def _reserve_ground(self, f: Formation, enemies: list[Formation]) -> frozenset[Hex]:
        """Where a reserve waits: near the side's commander, out of the enemy's reach; with no
        commander in the field, as far from the enemy as it can get."""
        board = self.g.engine.board
        live = [e.pos for e in enemies if not e.routed]

        def clear_of_enemy(h: Hex) -> int:
            return min((distance(h, e) for e in live), default=RESERVE_GAP)

        commander = next(
            (o for o in self.g.engine.state.formations_of(self.g.side_id) if o.hero is not None and not o.routed),
            None,
        )
        if commander is not None:
            near = frozenset(
                h
                for h in spiral(commander.pos, RESERVE_GAP)
                if h != commander.pos and h in board and clear_of_enemy(h) >= RESERVE_GAP
            )
            if near:
                return near
        around = [h for h in spiral(f.pos, RESERVE_GAP + 2) if h in board]
        far = max(clear_of_enemy(h) for h in around)
        return frozenset(h for h in around if clear_of_enemy(h) == far)

    def answer_duel(self) -> AnswerDuel | None:
        return None

    def answered(self, accept: bool) -> None:
        pass

    # -- helpers ----------------------------------------------------------------------------

    def hero_formation(self, hero: str, side: str | None = None) -> Formation | None:
        state = self.g.engine.state
        for f in (state.formations[k] for k in sorted(state.formations)):
            if f.hero == hero and (side is None or f.side == side):
                return f
        return None


class Hailing(Persona):
    def __init__(self, general: General) -> None:
        super().__init__(general)
        hints = general.game.scenario.ai
        board = general.game.board
        self.palace = board.regions.get(hints.palace_region, frozenset()) if hints.palace_region else frozenset()
        self.alarm = hints.palace_alarm
        self.feint = frozenset(hints.feint)
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

    def memory(self) -> Hashable:
        return (super().memory(), frozenset(self.sprung), self.threatening, self.pride_until)

    def reserves(self) -> frozenset[str]:
        # With the palace threatened, every man rides back for it.
        return frozenset() if self.threatening else super().reserves()

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
        return self._is_ambusher(f) and f.id not in self.sprung and not self.threatening

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
        if self.threatening:
            return target.id in self.threatening  # the palace first, whatever else is near
        return True

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
        if self.threatening:
            state = self.g.engine.state
            return frozenset(state.formations[e].pos for e in sorted(self.threatening)), None
        if f.id in self.feint and self._ambush_waiting():
            # Fall back past the hidden friends so the pursuers walk into them.
            return frozenset(a.pos for a in self._ambush_waiting()), None
        if f.hero == LIANG:
            routed = [
                o.pos
                for o in self.g.engine.state.formations_of(self.g.side_id)
                if o.routed and distance(o.pos, f.pos) <= REFORM_REACH
            ]
            if routed:
                return frozenset(routed), None
        return super().destination(f, enemies, goals)

    def worth_using(self, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool | None:
        if self.g.engine.rules.skills[use.skill].effect == "reform":
            return True
        return None


class Jin(Persona):
    def __init__(self, general: General) -> None:
        super().__init__(general)
        hints = general.game.scenario.ai
        board = general.game.board
        self.refuge = board.regions.get(hints.refuge_region, frozenset()) if hints.refuge_region else frozenset()
        self.pass_hexes = board.regions.get(hints.pass_region, frozenset()) if hints.pass_region else frozenset()
        self.rear_guard = frozenset(hints.rear_guard)
        self.losing = False
        self.delaying: str | None = None
        # Forcing the pass: the formation leading into it, the enemies barring it, and whether
        # it has been forced (the vanguard stands in it and no enemy does).
        self.vanguard: str | None = None
        self.barring: frozenset[str] = frozenset()
        self.forced = False

    def observe(self, state: GameState, enemies: list[Formation]) -> None:
        side = state.side(self.g.side_id)
        own_men = state.men_of(self.g.side_id)
        rules = self.g.engine.rules
        ours = sum(blow(rules, f) for f in state.formations_of(self.g.side_id))
        theirs = sum(blow(rules, e) for e in enemies if not e.routed)
        self.losing = bool(self.refuge) and (
            own_men < LOSING_SHARE * side.men_start or (theirs > 0 and ours < LOSING_RATIO * theirs)
        )
        self.delaying = self._detachment(state, enemies) if self.losing else None
        self._watch_the_pass(state, enemies)

    def _watch_the_pass(self, state: GameState, enemies: list[Formation]) -> None:
        self.vanguard, self.barring = None, frozenset()
        if not self.pass_hexes or self.forced or self.losing:
            return
        near = {h for p in self.pass_hexes for h in spiral(p, 1)}
        self.barring = frozenset(e.id for e in enemies if e.pos in near and not e.routed)
        picks = [
            (min(distance(f.pos, h) for h in self.pass_hexes), f.id)
            for f in state.formations_of(self.g.side_id)
            if f.id not in self.rear_guard and f.hero != WUZHU and not f.routed and f.id not in self.reserves()
        ]
        if not picks:
            return
        self.vanguard = min(picks)[1]
        if state.formations[self.vanguard].pos in self.pass_hexes and not self.barring:
            self.forced, self.vanguard = True, None  # through: the army fights as it will

    def memory(self) -> Hashable:
        # Where the vanguard stands bounds where the rest may stop to strike.
        formations = self.g.engine.state.formations
        at = formations[self.vanguard].pos if self.vanguard in formations else None
        return (super().memory(), self.losing, self.delaying, self.vanguard, at, self.barring, self.forced)

    def target_weight(self, target: Formation) -> float:
        # Whoever bars the pass is struck first.
        return PASS_WEIGHT if target.id in self.barring else 1.0

    def allowed_hexes(self, f: Formation) -> frozenset[Hex] | None:
        """While forcing the pass no one turns aside to strike: the vanguard stops only where it
        is no farther from the pass, the rest no farther from the vanguard."""
        held = super().allowed_hexes(f)
        if held is not None or self.vanguard is None or self.role(f) is not None:
            return held
        state = self.g.engine.state
        anchor = self.pass_hexes if f.id == self.vanguard else frozenset([state.formations[self.vanguard].pos])

        def away(h: Hex) -> int:
            return min(distance(h, a) for a in anchor)

        limit = max(away(f.pos), 1)
        return frozenset(h for h in spiral(f.pos, max_steps(f, self.g.engine.rules)) if away(h) <= limit)

    def _detachment(self, state: GameState, enemies: list[Formation]) -> str | None:
        """The small formation nearest the pursuers, left behind to delay them."""
        live = [e.pos for e in enemies if not e.routed]
        if not live:
            return None
        total = max(1, state.men_of(self.g.side_id))
        picks = [
            (min(distance(f.pos, e) for e in live), f.id)
            for f in state.formations_of(self.g.side_id)
            if f.id not in self.rear_guard and f.hero is None and f.men <= DETACHMENT_SHARE * total
        ]
        return min(picks)[1] if picks else None

    def role(self, f: Formation) -> str | None:
        if f.id in self.rear_guard:
            return "rear_guard"
        if f.id == self.delaying:
            return "rear_guard"
        if self.losing:
            return "flee"
        return super().role(f)

    def may_strike(self, f: Formation, target: Formation) -> bool:
        if f.hero == WUZHU:
            yue = self.hero_formation(YUE_FEI)
            # He will not be drawn into lesser fights while Yue Fei is in the field.
            return yue is None or yue.side == f.side or target.id == yue.id
        return not (self.losing and self.role(f) == "flee" and f.hero != WUZHU)

    def destination(self, f: Formation, enemies: list[Formation], goals: frozenset[Hex]) -> Destination | None:
        role = self.role(f)
        if role == "rear_guard":
            return None  # stand and die where ordered
        yue = self.hero_formation(YUE_FEI)
        # He rides for Yue Fei unless the scenario has ordered him to keep some ground.
        if f.hero == WUZHU and yue is not None and yue.side != f.side and self.held_region(f.id) is None:
            return frozenset([yue.pos]), None
        if role == "flee":
            return self.refuge, None
        if self.vanguard is not None and self.held_region(f.id) is None and f.id not in self.reserves():
            if f.id == self.vanguard:
                return self.pass_hexes, None  # the vanguard drives into the pass
            # The rest close up behind it, so every blow at the pass is backed by the whole army.
            vanguard = self.g.engine.state.formations[self.vanguard].pos
            return frozenset(spiral(vanguard, 2)) - {vanguard}, None
        return super().destination(f, enemies, goals)

    def special_action(self, own: list[Formation], enemies: list[Formation]) -> Action | None:
        # Wuzhu seeks Yue Fei for single combat whatever the odds.
        for f in own:
            if f.hero != WUZHU:
                continue
            for challenge in self.g.challenges(f):
                target = self.g.engine.state.formations[challenge.target]
                if target.hero == YUE_FEI:
                    return Challenge(unit=f.id, target=target.id)
        return None

    def answer_duel(self) -> AnswerDuel | None:
        pending = self.g.game.state.pending_duel
        if pending is None:
            return None
        challenger = self.g.game.state.formations.get(pending.challenger)
        target = self.g.game.state.formations.get(pending.target)
        if challenger is not None and target is not None and target.hero == WUZHU and challenger.hero == YUE_FEI:
            return AnswerDuel(accept=True)
        return None

    def worth_using(self, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool | None:
        if self.g.engine.rules.skills[use.skill].effect == "ride_light":
            return self.losing
        return None


Ground = tuple[tuple[EventSpec, frozenset[Hex]], ...]
# (event id, formations it waits to see all routed at once)
Hosts = tuple[tuple[str, tuple[str, ...]], ...]
# A host is at least this many formations: fewer are a detachment, and fight.
HOST_SIZE = 3


def _hosts_to_keep_whole(general: General) -> Hosts:
    """Groups of this side's formations whose routing all at once wins the enemy something: the
    battle itself, or an objective of the enemy's."""
    scenario = general.game.scenario
    me = general.side_id
    ours = {f.id for f in scenario.formations if f.side == me}
    owner = {o.id: o.side or scenario.default_player_side() for o in scenario.objective_specs}
    out = []
    for spec in scenario.events:
        when = spec.when
        if not isinstance(when, OnRouted) or len(when.units) < HOST_SIZE or not set(when.units) <= ours:
            continue
        if any(_favours_enemy(action, me, owner) for action in spec.actions):
            out.append((spec.id, when.units))
    return tuple(out)


def _favours_enemy(action: object, me: str, owner: dict[str, str]) -> bool:
    if isinstance(action, Victory):
        return action.side != me
    if isinstance(action, Defeat):
        return action.side == me
    if isinstance(action, SetObjective):
        return action.status == "done" and owner.get(action.id, me) != me
    return False


def _region_endings(general: General) -> list[tuple[EventSpec, OnEntersRegion, set[str], set[str]]]:
    """Every ``enters_region`` event on a region of the map that ends the battle, with the
    sides it declares winners and losers."""
    regions = general.game.board.regions
    out = []
    for spec in general.game.scenario.events:
        when = spec.when
        if not isinstance(when, OnEntersRegion) or when.region not in regions:
            continue
        winners = {a.side for a in spec.actions if isinstance(a, Victory)}
        losers = {a.side for a in spec.actions if isinstance(a, Defeat)}
        if winners or losers:
            out.append((spec, when, winners, losers))
    return out


def _winning_ground(general: General) -> Ground:
    """Regions whose taking by this side's formations ends the battle in its favour."""
    me, regions = general.side_id, general.game.board.regions
    return tuple(
        (spec, regions[when.region])
        for spec, when, winners, losers in _region_endings(general)
        if when.side == me and (me in winners or (losers and me not in losers))
    )


def _losing_ground(general: General) -> Ground:
    """Regions whose unopposed taking by another side ends the battle against this one: while
    one of ours stands in them, they cannot fire."""
    me, regions = general.side_id, general.game.board.regions
    return tuple(
        (spec, regions[when.region])
        for spec, when, winners, losers in _region_endings(general)
        if when.unopposed and when.side != me and (me in losers or (winners and me not in winners))
    )


def for_faction(faction: str, general: General) -> Persona:
    if faction == "hailing":
        return Hailing(general)
    if faction == "jin":
        return Jin(general)
    return Persona(general)
