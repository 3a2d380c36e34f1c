"""The plain commander, on top of the tactical core: roles, targets and the scenario's orders.

``Persona`` is the plain commander (the player factions): formations a scenario's ``[ai] hold``
names keep their front; the rest close on the enemy. A hard general also reads the scenario's
events (``scenario_reading``): it marches on ground whose taking wins the battle and keeps a
formation on ground whose loss would lose it. The factions' own commanders (``hailing``,
``jin``, ``zhenguo``) build on it. Every memory here is rebuilt from the sequence of states the
general sees, so the same game always gets the same decisions.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from ..core import combat, officers, skills
from ..core.actions import Action, AnswerDuel, UseSkill
from ..core.hexgrid import Hex, disc, distance, distance_to_area
from ..core.movement import are_enemies, max_steps
from ..core.sides import enemy_sides
from ..core.state import Formation, GameState
from ..core.triggers import conditions_hold
from . import grounds
from .scenario_reading import Ground, Hosts, hosts_to_keep_whole, losing_ground, vital_units, winning_ground

if TYPE_CHECKING:
    from .general import General

Destination = tuple[frozenset[Hex], frozenset[Hex] | None]

# A formation ordered to charge into the host (Yue Fei) weighs its own losses this lightly, and
# strikes first where officers are still standing to be cut down.
CHARGE_LOSS_WEIGHT = 0.25
OFFICERS_WEIGHT = 1.5


class Persona:
    def __init__(self, general: General) -> None:
        self.g = general
        self.hints = hints = general.game.scenario.ai
        board = general.game.board
        self.hold: dict[str, frozenset[Hex]] = {}
        # Formation id -> the event after which its front no longer needs holding.
        self.hold_until: dict[str, str] = {}
        # Formation id -> its posts in order: (region, from event, until event, kept by every
        # general, a march order, a forced one). The first post whose start has come and whose end
        # has not is held.
        self.posts: dict[str, list[tuple[frozenset[Hex], str | None, str | None, bool, bool, bool]]] = {}
        for spec in hints.hold:
            if spec.side != general.side_id or spec.region not in board.regions:
                continue
            region = board.regions[spec.region]
            units = spec.units or tuple(s.id for s in general.game.scenario.formations if s.side == general.side_id)
            for unit in units:
                self.hold.setdefault(unit, region)
                if spec.until is not None:
                    self.hold_until.setdefault(unit, spec.until)
                self.posts.setdefault(unit, []).append(
                    (region, spec.after, spec.until, spec.until_all, spec.march, spec.forced)
                )
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
        self.winning_ground: Ground = winning_ground(general) if general.style.objectives else ()
        # Regions whose taking by the enemy loses it: one of ours always stands in each.
        self.losing_ground: Ground = losing_ground(general) if general.style.objectives else ()
        # Hosts of ours the enemy wins something by breaking: enough of each is kept back.
        self.hosts: Hosts = hosts_to_keep_whole(general) if general.style.objectives else ()
        # Formations whose loss loses the battle: a march order to the ground they stand on is a
        # relief, and ends at the enemies pressing on them.
        self.vital = vital_units(general)
        self._guards_for: GameState | None = None
        self._guards_cache: dict[str, frozenset[Hex]] = {}
        self._reserves_for: GameState | None = None
        self._reserves_cache: frozenset[str] = frozenset()
        self._nearer_cache: dict[tuple[frozenset[Hex], Hex, int, int], frozenset[Hex]] = {}

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

    def _post(self, unit: str) -> tuple[frozenset[Hex], str | None, str | None, bool, bool, bool] | None:
        fired = self.g.engine.state.fired_events
        for post in self.posts.get(unit, ()):
            _region, after, until, until_all, _march, _forced = post
            if after is not None and after not in fired:
                continue
            if until is not None and until in fired and (until_all or self.g.style.objectives):
                continue
            return post
        return None

    def _pressing_on_relieved(self, f: Formation) -> frozenset[str]:
        """Under a march order whose post holds a friend the battle cannot lose (Han Xin back
        for Cao Zhi's retainers in the pass): the enemies standing next to that friend, whom the
        relief goes for first. Empty when nobody presses on such a friend."""
        post = self._post(f.id)
        if post is None or not post[4] or not self.vital:
            return frozenset()
        state = self.g.engine.state
        friends = [state.formations[u] for u in sorted(self.vital) if u in state.formations and u != f.id]
        held = [o for o in friends if o.side == f.side and o.pos in post[0]]
        return frozenset(
            e.id
            for o in held
            for e in state.formations.values()
            if are_enemies(state, f.side, e.side) and not e.routed and not e.hidden and distance(e.pos, o.pos) <= 1
        )

    def marching(self, f: Formation) -> bool:
        """Under a march order and not yet on the post: it strikes at nothing on the way."""
        post = self._post(f.id)
        return post is not None and post[4] and f.pos not in post[0]

    def forcing(self, f: Formation) -> bool:
        """Under a forced march order and not yet on the post."""
        post = self._post(f.id)
        return post is not None and post[5] and f.pos not in post[0]

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
            for _region, after, until, until_all, _march, _forced in posts
            for e in (after, until if (until_all or self.g.style.objectives) else None)
            if e is not None and e in fired
        )

    def reserves(self) -> frozenset[str]:
        """Formations a hard general keeps out of the fight, so that a host the enemy must
        break never breaks: of each such host, the fresh formations farthest from the enemy, one
        where every formation must be routed at once, else as many as hold more than the share of
        the host's men that may still stand when it counts as broken (a hero's own formation
        leads and is never held back, nor the host's last); and at every level the formations the
        scenario saves for one blow, while they wait. Worked out once per view of the game."""
        state = self.g.engine.state
        if self._reserves_for is state:
            return self._reserves_cache
        saved = self._saved_now()
        me = self.g.side_id
        foes = enemy_sides(state, me)
        live = [e.pos for e in state.formations.values() if e.side in foes and not e.routed]
        picks: set[str] = set()
        fielded_men = {spec.id: spec.men for spec in self.g.game.scenario.formations}
        for event_id, units, share in self.hosts:
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
            fresh.sort(key=lambda f: (min((distance(f.pos, e) for e in live), default=0), f.id), reverse=True)
            enough = share * sum(fielded_men.get(u, 0) for u in units)
            kept = 0
            for f in fresh[:-1]:
                picks.add(f.id)
                kept += f.men
                if kept > enough:
                    break
        self._reserves_for, self._reserves_cache = state, frozenset(picks) | saved
        return self._reserves_cache

    def may_strike(self, f: Formation, target: Formation) -> bool:
        if self.marching(f):
            return False
        pressing = self._pressing_on_relieved(f)
        if pressing and target.id not in pressing:
            return False  # the relief strikes those on the friend it came for, nobody else
        if grounds.duel_ring(self.g.engine, f, self.held_region(f.id) is not None):
            return False  # it rides to press on the enemy hero instead
        if f.id in self.following:
            # It strikes only at those engaging the charge, to take them in the flank.
            state = self.g.engine.state
            leaders = [state.formations[u] for u in self.charging if u in state.formations]
            return any(distance(lead.pos, target.pos) <= 1 for lead in leaders) or not leaders
        if f.id in self.charging and not officers.standing(self.g.engine, target) and not self._run_down(target):
            # The charge goes for the officers while any are left in the field.
            return not any(officers.standing(self.g.engine, e) for e in self.g.engine.state.formations.values())
        return self._worthy_blow(f, target)

    def _run_down(self, target: Formation) -> bool:
        """Whether ``target`` is broken and riding it down serves one of the scenario's aims
        (game.ai.objectives): Wuzhu's routed guards, whose hero no duel can reach any more and
        whose destruction takes him. Yue Fei's charge for the officers used to leave them be while
        an officer stood anywhere on the field, and he waited beside them to the turn limit."""
        return target.routed and target.id in self.g.objectives.targets(self.g.engine.state, [target])

    def may_challenge(self, f: Formation) -> bool:
        """Whether ``f``'s hero may stop to offer a duel the general thinks favourable."""
        return True

    def sweeps_for_the_pouch(self, f: Formation, enemies: list[Formation]) -> bool:
        """Whether ``f`` is a soul-catcher sweeping for a battle that waits on the pouch while
        souls lie on the field to bag, under a general that minds the pouch (``Style.pouch``):
        the turns left do not send it after the scenario's other aims (A4's scholars, sent to
        clear the walls of Datong, left three heaps of thousands to fade, and the pouch fell
        short)."""
        g = self.g
        return (
            f.id in self.sweepers and g.minds_the_pouch(f) and bool(grounds.sweep_ground(g.engine, g.side_id, enemies))
        )

    def may_capture(self, f: Formation) -> bool:
        # A relief bags no souls on its way to the friend it came for, and a formation saved
        # from the fight steps back out of contact before it stoops for souls.
        if f.id in self._saved_now() and self._in_contact(f):
            return False
        return not self._relieving_from_afar(f)

    def _in_contact(self, f: Formation) -> bool:
        state = self.g.engine.state
        return any(
            distance(e.pos, f.pos) <= 1 and not e.routed
            for e in state.formations.values()
            if are_enemies(state, f.side, e.side)
        )

    def _relieving_from_afar(self, f: Formation) -> bool:
        pressing = self._pressing_on_relieved(f)
        state = self.g.engine.state
        return bool(pressing) and all(distance(f.pos, state.formations[e].pos) > 1 for e in pressing)

    def may_blast(self, f: Formation) -> bool:
        """Whether ``f`` may throw one of its area charges now."""
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
        rear_guard = self.g.style.rear_guard_loss_weight
        if rear_guard != 1.0 and self.role(attacker) == "rear_guard":
            return rear_guard  # its men are the time it buys (the role is asked only when it counts)
        return CHARGE_LOSS_WEIGHT if attacker.id in self.charging else 1.0

    def allowed_hexes(self, f: Formation) -> frozenset[Hex] | None:
        """Where ``f`` may stop to strike: a holder that stands on its front stays on it, and so
        does the one guarding ground the enemy must not take."""
        region = self.held_region(f.id) or self._guarded_region(f)
        if region is not None and f.pos in region:
            return region
        if self.marching(f):
            # Under a march order: strike only where it brings the post nearer.
            assert region is not None
            return self._nearer(region, f.pos, max_steps(f, self.g.engine.rules))
        return None

    def _nearer(self, region: frozenset[Hex], at: Hex, reach: int, slack: int = 0) -> frozenset[Hex]:
        """The hexes within ``reach`` of ``at`` nearer ``region`` than it is, counting ``slack``
        hexes' distance as nearer (1: no farther) (kept: a marching formation asks for them at
        every decision)."""
        key = (region, at, reach, slack)
        found = self._nearer_cache.get(key)
        if found is None:
            now = distance_to_area(at, region)
            found = frozenset(h for h in disc(at, reach) if distance_to_area(h, region) < now + slack)
            if len(self._nearer_cache) > 256:
                self._nearer_cache.clear()
            self._nearer_cache[key] = found
        return found

    def destination(self, f: Formation, enemies: list[Formation], goals: frozenset[Hex]) -> Destination | None:
        if f.id in self.saved and self._released_reserve(f.id):
            # Released, it rides up to striking distance and waits there between its charges, far
            # enough off that its next blow comes with a run over open ground (the Hegemon-King).
            engine, side = self.g.engine, self.g.side_id
            return grounds.charge_ground(engine, enemies) or grounds.reserve_ground(engine, side, f, enemies), None
        if f.id in self.reserves():
            return grounds.reserve_ground(self.g.engine, self.g.side_id, f, enemies), None
        guard = self._guarded_region(f)
        if guard is not None:
            return guard, guard
        ring = grounds.duel_ring(self.g.engine, f, self.held_region(f.id) is not None)
        if ring:
            return ring, None
        if f.id in self.charging:
            return grounds.charge_goals(self.g.engine, enemies) or goals, None
        if f.id in self.following:
            behind = grounds.behind_the_charge(self.g.engine, self.charging, f)
            if behind is not None:
                return behind, None
        if f.id in self.sweepers:
            sweep = grounds.sweep_ground(self.g.engine, self.g.side_id, enemies)
            if sweep:
                return sweep, None
        region = self.held_region(f.id)
        if region is None:
            return self._winning_region(f) or goals, None
        pressing = self._pressing_on_relieved(f)
        if pressing and f.pos in region:
            state = self.g.engine.state
            if any(distance(f.pos, state.formations[e].pos) <= 1 for e in pressing):
                return None  # at them: it strikes where it stands
            return frozenset(state.formations[e].pos for e in sorted(pressing)), None
        if f.pos in region:
            # On the front: shift only to close a gap nearer the enemy, never off it.
            live = [e.pos for e in enemies if not e.routed]
            if not live or any(distance(f.pos, e) <= 1 for e in live):
                return None
            return frozenset(live), region
        return region, None

    def pursuit_slack(self, f: Formation, slack: int) -> int:
        """Turns beyond the march and the fight that the general leaves before ``f`` goes for the
        scenario's aims (game.ai.objectives); its style says how many."""
        return slack

    def special_action(self, own: list[Formation], enemies: list[Formation]) -> Action | None:
        return None

    def worth_using(self, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool | None:
        skill = self.g.engine.rules.skills[use.skill]
        if skill.effect == "lane" and f.id not in self.g.game.scenario.ai.lane:
            return False  # the lane is opened where the scenario's story has it opened
        pressing = self._pressing_on_relieved(f)
        if skill.effect == "lane" and pressing and use.target not in pressing:
            return False  # a relief charges only at those pressing on the friend it came for
        region = self.held_region(f.id)
        if skill.effect == "lane" and region is not None:
            # A formation kept at its post charges only where the charge leaves it on the post.
            target = self.g.engine.state.formations.get(use.target or "")
            plan = skills.lane_plan(self.g.engine, f, skill, target) if target is not None else "no_target"
            if isinstance(plan, str) or plan.path[-1] not in region:
                return False
        return None

    def guards_ground(self, f: Formation) -> bool:
        """Whether ``f`` holds ground whose unopposed taking loses the battle: it keeps that post
        even when the turns left press the others to go for the scenario's aims."""
        return f.id in self._guards()

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
        for spec, region, _when in self.losing_ground:
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
        for spec, region, when in self.winning_ground:
            if spec.id not in state.fired_events and conditions_hold(state, spec) and when.selects(f.id):
                return region
        return None

    def answer_duel(self) -> AnswerDuel | None:
        return None

    def answered(self, accept: bool) -> None:
        pass

    # -- helpers ----------------------------------------------------------------------------

    def region(self, name: str | None) -> frozenset[Hex]:
        """The hexes of a region the scenario's hints name (none if it names none the map has)."""
        return self.g.game.board.regions.get(name, frozenset()) if name else frozenset()

    def hero_formation(self, hero: str, side: str | None = None) -> Formation | None:
        state = self.g.engine.state
        for f in (state.formations[k] for k in sorted(state.formations)):
            if f.hero == hero and (side is None or f.side == side):
                return f
        return None
