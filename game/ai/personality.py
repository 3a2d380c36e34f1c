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

from ..core import combat, duel, officers, skill_marks, skills
from ..core.actions import Action, AnswerDuel, Attack, Challenge, Move, UseSkill
from ..core.hexgrid import Hex, distance, neighbours, spiral
from ..core.movement import are_enemies, max_steps
from ..core.scenario_events import Defeat, EventSpec, OnDestroyed, OnEntersRegion, OnRouted, SetObjective, Victory
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
# Turns the host keeps marching home after the raiders at the palace were last seen.
ALARM_TURNS = 3
# A reserve waits within this many hexes of its commander and at least this far from the enemy.
RESERVE_GAP = 3
# A sweeper goes only where no formed enemy stands within this many hexes.
SWEEP_CLEAR = 2
# Wanyan Liang rides to routed souls within this many hexes to re-form them.
REFORM_REACH = 8
# Jin falls back when its men are below this share of the start or of the enemies in sight.
LOSING_SHARE = 0.5
LOSING_RATIO = 0.6
# A formation ordered to charge into the host (Yue Fei) weighs its own losses this lightly, and
# strikes first where officers are still standing to be cut down.
CHARGE_LOSS_WEIGHT = 0.25
OFFICERS_WEIGHT = 1.5
# Formations that follow the charge keep this far from its leader.
FOLLOW_GAP = 2
# Free formations this near the enemy hero in a duel with ours ride up to press on him.
RING_REACH = 8
# Weight of an attack on a formation barring the pass the Jin mean to force.
PASS_WEIGHT = 1.5
# A delaying detachment is at most this share of the army.
DETACHMENT_SHARE = 0.25
# A formation whose loss loses the battle strikes only if the worst case leaves it at least a
# quarter of its men.
VITAL_RISK = 0.75
# Wuzhu lets Yue Fei come into the host, cutting down this many officers, for at most this many
# turns before he rides out for him.
WAIT_OFFICERS = 3
WAIT_TURNS = 3
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
        # Formation id -> its posts in order: (region, from event, until event, kept by every
        # general, a march order). The first post whose start has come and whose end has not is
        # held.
        self.posts: dict[str, list[tuple[frozenset[Hex], str | None, str | None, bool, bool]]] = {}
        for spec in hints.hold:
            if spec.side != general.side_id or spec.region not in board.regions:
                continue
            region = board.regions[spec.region]
            units = spec.units or tuple(s.id for s in general.game.scenario.formations if s.side == general.side_id)
            for unit in units:
                self.hold.setdefault(unit, region)
                if spec.until is not None:
                    self.hold_until.setdefault(unit, spec.until)
                self.posts.setdefault(unit, []).append((region, spec.after, spec.until, spec.until_all, spec.march))
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
        self.under_orders = frozenset(hints.rear_guard) | frozenset(hints.feint) | frozenset(hints.charge)
        # Ordered to ride into the enemy host, cutting down its officers, or close behind them.
        self.charging = frozenset(hints.charge)
        self.following = frozenset(hints.follow)
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
        """The events the scenario's reserves wait for that have fired (the holds' are in
        ``_released``)."""
        watched: set[str] = set()
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
        if unit in self.saved and self._saving_began(unit):
            return None
        post = self._post(unit)
        return post[0] if post is not None else None

    def _post(self, unit: str) -> tuple[frozenset[Hex], str | None, str | None, bool, bool] | None:
        fired = self.g.engine.state.fired_events
        for post in self.posts.get(unit, ()):
            _region, after, until, until_all, _march = post
            if after is not None and after not in fired:
                continue
            if until is not None and until in fired and (until_all or self.g.style.objectives):
                continue
            return post
        return None

    def marching(self, f: Formation) -> bool:
        """Under a march order and not yet on the post: it strikes at nothing on the way."""
        post = self._post(f.id)
        return post is not None and post[4] and f.pos not in post[0]

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
        """The events that have changed some formation's post (what the scores depend on)."""
        fired = self.g.engine.state.fired_events
        return frozenset(
            e
            for posts in self.posts.values()
            for _region, after, until, until_all, _march in posts
            for e in (after, until if (until_all or self.g.style.objectives) else None)
            if e is not None and e in fired
        )

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
        if self.marching(f):
            return False
        if self._duel_ring(f):
            return False  # it rides to press on the enemy hero instead
        if f.id in self.following:
            # It strikes only at those engaging the charge, to take them in the flank.
            state = self.g.engine.state
            leaders = [state.formations[u] for u in self.charging if u in state.formations]
            return any(distance(lead.pos, target.pos) <= 1 for lead in leaders) or not leaders
        if f.id in self.charging and not officers.standing(self.g.engine, target):
            # The charge goes for the officers while any are left in the field.
            return not any(officers.standing(self.g.engine, e) for e in self.g.engine.state.formations.values())
        return self._worthy_blow(f, target)

    def may_capture(self, f: Formation) -> bool:
        return True

    def _worthy_blow(self, f: Formation, target: Formation) -> bool:
        """A sweeper strikes only the routed. A formation saved for one blow, once released,
        spends itself only on a charge (or on the routed): it is not thrown into a standing
        fight."""
        if f.id in self.sweepers:
            return target.routed
        if f.id not in self.saved or not self._released_reserve(f.id) or target.routed:
            return True
        rules = self.g.engine.rules
        return "charge" in rules.units[f.type].abilities and f.charge_run >= combat.CHARGE_RUN

    def _released_reserve(self, unit: str) -> bool:
        until = self.saved[unit][1]
        return self._saving_began(unit) and any(e in self.g.engine.state.fired_events for e in until)

    def target_weight(self, target: Formation) -> float:
        if self.charging and officers.standing(self.g.engine, target):
            return OFFICERS_WEIGHT
        return 1.0

    def loss_weight(self, attacker: Formation) -> float:
        return CHARGE_LOSS_WEIGHT if attacker.id in self.charging else 1.0

    def _duel_ring(self, f: Formation) -> frozenset[Hex]:
        """While a hero of ours fights a duel, a formation within ``RING_REACH`` that keeps no front
        and is out of contact rides up next to him or his opponent: friends close round a duel
        shift it."""
        state, board = self.g.engine.state, self.g.engine.board
        if duel.in_duel(f) or self.held_region(f.id) is not None:
            return frozenset()
        if any(distance(e.pos, f.pos) <= 1 for e in state.formations.values() if are_enemies(state, f.side, e.side)):
            return frozenset()  # in contact: it fights where it stands
        occupied = state.occupancy()
        for ours in state.formations_of(f.side):
            opp = duel.opponent(state, ours)
            if opp is None or distance(opp.pos, f.pos) > RING_REACH:
                continue
            if distance(opp.pos, f.pos) == 1 or distance(ours.pos, f.pos) == 1:
                return frozenset()  # already there
            ring = set(neighbours(opp.pos)) | set(neighbours(ours.pos))
            free = frozenset(h for h in ring if h in board and h not in occupied)
            if free:
                return free
        return frozenset()

    def _behind_the_charge(self, f: Formation) -> frozenset[Hex] | None:
        """Free hexes two off the nearest charging friend, those farthest from the enemy (behind
        the charge); None: no charge in the field, or already there."""
        state, board = self.g.engine.state, self.g.engine.board
        leaders = [state.formations[u] for u in sorted(self.charging) if u in state.formations]
        if not leaders:
            return None
        lead = min(leaders, key=lambda o: (distance(o.pos, f.pos), o.id))
        if distance(lead.pos, f.pos) == FOLLOW_GAP:
            return None
        occupied = state.occupancy()
        ring = [
            h
            for h in spiral(lead.pos, FOLLOW_GAP)
            if distance(h, lead.pos) == FOLLOW_GAP and h in board and h not in occupied
        ]
        foes = [e.pos for e in state.formations.values() if are_enemies(state, f.side, e.side) and not e.routed]
        if not ring or not foes:
            return frozenset(ring) or None

        def clear(h: Hex) -> int:
            return min(distance(h, e) for e in foes)

        best = max(clear(h) for h in ring)
        return frozenset(h for h in ring if clear(h) == best)

    def _charge_goals(self, enemies: list[Formation]) -> frozenset[Hex]:
        """Where a charging formation rides: the enemy formations whose officers still stand,
        else any enemy in the field."""
        live = [e for e in enemies if not e.routed]
        led = [e.pos for e in live if officers.standing(self.g.engine, e)]
        return frozenset(led or [e.pos for e in live])

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

    def destination(self, f: Formation, enemies: list[Formation], goals: frozenset[Hex]) -> Destination | None:
        if f.id in self.reserves() or (f.id in self.saved and self._released_reserve(f.id)):
            # Released, it still waits out of reach between its charges.
            return self._reserve_ground(f, enemies), None
        guard = self._guarded_region(f)
        if guard is not None:
            return guard, guard
        ring = self._duel_ring(f)
        if ring:
            return ring, None
        if f.id in self.charging:
            return self._charge_goals(enemies) or goals, None
        if f.id in self.following:
            behind = self._behind_the_charge(f)
            if behind is not None:
                return behind, None
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
        skill = self.g.engine.rules.skills[use.skill]
        if skill.effect == "lane" and f.id not in self.g.game.scenario.ai.lane:
            return False  # the lane is opened where the scenario's story has it opened
        region = self.held_region(f.id)
        if skill.effect == "lane" and region is not None:
            # A formation kept at its post charges only where the charge leaves it on the post.
            target = self.g.engine.state.formations.get(use.target or "")
            plan = skills.lane_plan(self.g.engine, f, skill, target) if target is not None else "no_target"
            if isinstance(plan, str) or plan.path[-1] not in region:
                return False
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
        self.feint_ground = board.regions.get(hints.feint_region, frozenset()) if hints.feint_region else frozenset()
        # Once the palace has been threatened the host marches home, and keeps on for a while
        # after the raiders draw off.
        self.alarm_until = 0
        self.alarm_event = hints.palace_alarm_event
        self.alarm_heard = False
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
        # With the palace threatened, every man rides back for it.
        return frozenset() if self.alarmed() else super().reserves()

    def alarmed(self) -> bool:
        return self.g.engine.state.turn <= self.alarm_until

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
        return self._is_ambusher(f) and f.id not in self.sprung and not self.alarmed()

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
        return super().worth_using(f, use, enemies)


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
            own_men < LOSING_SHARE * side.men_start
            or (theirs > 0 and ours < LOSING_RATIO * theirs)
            or WUZHU in state.wounded_heroes  # his guards carry him to the refuge, and the host follows
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
        if f.hero == WUZHU:
            yue = self.hero_formation(YUE_FEI)
            if yue is not None and yue.side != f.side:
                return self._cut_off(yue) or None  # he comes at Yue Fei from between him and his men
        return self._allowed_hexes(f)

    def _allowed_hexes(self, f: Formation) -> frozenset[Hex] | None:
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
            # He will not be drawn into lesser fights while Yue Fei is in the field, and waits
            # for him to come into the host.
            return yue is None or yue.side == f.side or (target.id == yue.id and self._yue_in_the_host(yue))
        if target.hero == YUE_FEI and self.hero_formation(WUZHU, self.g.side_id) is not None:
            return False  # "Nobody touches Yue Fei but me."
        return not (self.losing and self.role(f) == "flee" and f.hero != WUZHU)

    def destination(self, f: Formation, enemies: list[Formation], goals: frozenset[Hex]) -> Destination | None:
        role = self.role(f)
        if role == "rear_guard":
            return None  # stand and die where ordered
        yue = self.hero_formation(YUE_FEI)
        # He rides for Yue Fei unless the scenario has ordered him to keep some ground, cutting
        # through the Zhenguo line to come at him from between him and his men.
        if f.hero == WUZHU and yue is not None and yue.side != f.side and self.held_region(f.id) is None:
            if not self._yue_in_the_host(yue):
                return None  # he lets Yue Fei come on into the host before he rides out
            return self._cut_off(yue) or frozenset([yue.pos]), None
        if role == "flee":
            return self.refuge, None
        if self.vanguard is not None and self.held_region(f.id) is None and f.id not in self.reserves():
            if f.id == self.vanguard:
                return self.pass_hexes, None  # the vanguard drives into the pass
            # The rest close up behind it, so every blow at the pass is backed by the whole army.
            vanguard = self.g.engine.state.formations[self.vanguard].pos
            return frozenset(spiral(vanguard, 2)) - {vanguard}, None
        return super().destination(f, enemies, goals)

    def _yue_in_the_host(self, yue: Formation) -> bool:
        """Whether Yue Fei has ridden into the host: he has cut down ``WAIT_OFFICERS`` officers,
        or the waiting has gone on past ``WAIT_TURNS``. In a scenario with no named officers
        Wuzhu does not wait."""
        engine = self.g.engine
        if not engine.scenario.officers or engine.state.turn > WAIT_TURNS:
            return True
        return len(officers.slain(engine)) >= WAIT_OFFICERS

    def _cut_off(self, yue: Formation) -> frozenset[Hex]:
        """Free hexes next to Yue Fei that lie between him and his nearest friend: standing there
        cuts his line in two."""
        state, board = self.g.engine.state, self.g.engine.board
        friends = [o for o in state.formations_of(yue.side) if o.id != yue.id and not o.routed]
        if not friends:
            return frozenset()
        friend = min(friends, key=lambda o: (distance(o.pos, yue.pos), o.id))
        apart = distance(friend.pos, yue.pos)
        occupied = state.occupancy()
        return frozenset(
            h
            for h in spiral(yue.pos, 1)
            if h != yue.pos and h in board and h not in occupied and distance(h, friend.pos) + 1 == apart
        )

    def special_action(self, own: list[Formation], enemies: list[Formation]) -> Action | None:
        # Wuzhu seeks Yue Fei for single combat whatever the odds, first slipping in between
        # him and his men if he can (the Zhenguo line cut in two).
        engine = self.g.engine
        for f in own:
            if f.hero != WUZHU:
                continue
            yue = self.hero_formation(YUE_FEI)
            if yue is not None and yue.side != f.side and distance(yue.pos, f.pos) <= 1 and engine.can_move(f):
                cut = self._cut_off(yue)
                if cut and f.pos not in cut:
                    reach = sorted(engine.moves(f.id).destinations & cut)
                    if reach:
                        return Move(unit=f.id, to=reach[0])
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
        return super().worth_using(f, use, enemies)


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


class Zhenguo(Persona):
    """Yue Fei's army: a formation riding to the ground it is ordered to (a comrade's besieged
    hill) leaves the stragglers and their souls to the wind until it gets there; a formation
    whose loss loses the battle (Tang Huai's company) strikes only blows it is sure to survive,
    and comes down its hill on the besiegers once the relief has struck them."""

    def __init__(self, general: General) -> None:
        super().__init__(general)
        self.vital = _vital_units(general)

    def may_capture(self, f: Formation) -> bool:
        region = self.held_region(f.id)
        return region is None or f.pos in region

    def may_strike(self, f: Formation, target: Formation) -> bool:
        if not super().may_strike(f, target):
            return False
        if f.id not in self.vital or f.id in self.charging:
            return True  # a hero ordered to charge (Yue Fei at the border) weighs his losses lightly
        engine = self.g.engine
        setup = combat.setup_attack(engine.state, engine.board, engine.rules, f, target)
        return combat.forecast_from(setup).attacker_losses[2] < f.men * VITAL_RISK

    def worth_using(self, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool | None:
        rules = self.g.engine.rules
        skill = rules.skills[use.skill]
        if skill.effect != "downhill_charge":
            return None
        # When the blow it opens is one the company can survive (charging, it cannot shoot).
        return self._downhill_blow(f) is not None

    def special_action(self, own: list[Formation], enemies: list[Formation]) -> Action | None:
        # Down the hill the moment the order is given: the blow follows the charge at once.
        for f in own:
            if skill_marks.DOWNHILL in f.effects and self.g.engine.can_attack(f):
                target = self._downhill_blow(f)
                if target is not None:
                    return Attack(unit=f.id, target=target.id)
        return None

    def _downhill_blow(self, f: Formation) -> Formation | None:
        """The enemy below ``f`` its downhill charge would strike hardest and survive, once the
        relief next to it has struck (a relief that can still strike this turn goes first: the
        besiegers turn to meet it, and the hill falls on their backs)."""
        engine = self.g.engine
        skill = skill_marks.effect_skill(engine.rules, skill_marks.DOWNHILL)
        if skill is None:
            return None
        charging = f.model_copy(update={"effects": {**f.effects, skill_marks.DOWNHILL: engine.state.turn + 1}})
        waiting = [o.pos for o in engine.state.formations_of(f.side) if o.id != f.id and engine.can_attack(o)]
        scored = [
            (self.g.attack_score(charging, e), e.id, e)
            for e in skills.downhill_targets(engine, f, skill)
            if self.may_strike(charging, e) and not any(distance(h, e.pos) == 1 for h in waiting)
        ]
        return max(scored, key=lambda x: (x[0], x[1]))[2] if scored else None


def _vital_units(general: General) -> frozenset[str]:
    """This side's formations whose destruction is a scenario's defeat for it."""
    me = general.side_id
    out: set[str] = set()
    for spec in general.game.scenario.events:
        when = spec.when
        if not isinstance(when, OnDestroyed) or not any(isinstance(a, Defeat) and a.side == me for a in spec.actions):
            continue
        out.update(u for u in (when.unit, *when.units) if u)
    return frozenset(out)


def for_faction(faction: str, general: General) -> Persona:
    if faction == "hailing":
        return Hailing(general)
    if faction == "jin":
        return Jin(general)
    if faction == "zhenguo":
        return Zhenguo(general)
    return Persona(general)
