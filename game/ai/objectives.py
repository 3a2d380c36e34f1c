"""What a side must still do to win, read from the scenario's events, and when time presses for it.

A battle that the turn limit gives to the other side (or leaves undecided) is won only by making
one of the scenario's winning events fire: a victory for our side, a defeat for the enemy's, or
the objectives such an event waits for. Each is traced back to what our formations can make
happen: enemy formations to break (rout all at once) or destroy, an enemy hero to wound, ground
to reach (and, where the event asks for it unopposed, to clear). Events that wait for others
(``after``) or for objectives (``objectives_done``) are traced through the events that fire those;
an event that would forbid a winning one (``unless``) by the enemy's formations standing in order
on some ground is answered by breaking those that stand there (A1's host before the defile).

The plan is made against any opponent, one that comes to us or one that never does: while there
is time, the general fights as its personality says; once the turns left are no more than a
formation needs to march to its aim and fight there (``SLACK``), that formation leaves its post
and goes for the aim. It reads only the scenario (which both sides know), the events that have
fired (which both see) and its own fogged view: an aim it cannot see is not chased.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..core import vision
from ..core.engine import Engine
from ..core.hexgrid import Hex, disc, disc_set, distance, distance_to_area
from ..core.movement import max_steps
from ..core.scenario_events import (
    Defeat,
    OnBagged,
    OnDestroyed,
    OnEntersRegion,
    OnHeroWounded,
    OnObjectivesDone,
    OnRouted,
    OnSouls,
    OnTurn,
    SetObjective,
    Victory,
)
from ..core.sides import are_allied, are_enemies
from ..core.state import Formation, GameState
from ..core.triggers import refusal_events
from .scenario_reading import HOST_SIZE

# Turns of fighting an aim needs beyond the march to it: from this many turns before the end
# (plus the march) a formation leaves its post for the aim. The generals' styles set their own.
SLACK = 4
# Searching for an aim out of sight: the ground around where it was last seen, this many hexes
# wider for every turn since, up to the last.
SEARCH_STEP = 3
SEARCH_RADIUS = 12
# How deep to follow events that wait for other events (a scenario's chain is short).
MAX_DEPTH = 4
# Turns an aim's own work takes once there, beyond the slack: a duel runs over several turns of
# exchanges (and a hero out of sight must first be found); each further formation of a host that
# must be broken together takes about one more, up to a cap, and each other detachment that must
# be broken on its own about three, the march to it included (B2's detachments and column, scattered
# over the field by an opponent who will not stand, took the whole battle to find and break one
# after another when the general set out only at the last). (Counting the search for a hero in
# sight too, Yue Fei rode at Wuzhu from the second turn at the Tangut border and won 85% of the
# battles between equal generals; two turns more for a formation to destroy, and the Hailing at
# the rear guard trap caught Cao Zhi's retainers in every one.)
DUEL_TURNS = 6
# Turns before the last, beyond the march, at which ground that must then be clear of the enemy
# (a "clear" aim) goes before every other aim, for a general with a slack of up to two turns;
# where that ground is the last thing the battle waits on, a longer slack calls it back sooner
# (the hard general, off after the host with four, was still chasing it across the field when an
# unbroken Hailing levy walked back to A1's defile on the last turn, and won 89 of 100 against
# random play there).
CLEAR_SLACK = 2
BREAK_TURNS_CAP = 3
DETACHMENT_TURNS = 3
DETACHMENT_TURNS_CAP = 12
SEARCH_TURNS = 3


@dataclass(frozen=True)
class Aim:
    """One thing our side can do that brings a winning event nearer."""

    # "break": rout (or destroy) ``units``; "wound": strike ``hero``; "reach": stand in ``region``;
    # "clear": rout those of ``units`` (empty: any enemy) standing in ``region``; "herd": catch a
    # routed one of ``units`` whole; "bag": fill our pouch to ``souls``
    kind: str
    units: frozenset[str] = frozenset()  # to break; for "reach", ours that count (empty: any)
    destroy: bool = False
    hero: str | None = None
    region: str | None = None
    unopposed: bool = False
    souls: int = 0
    # An event that loses us the battle at no set turn would forbid the winning event this aim
    # serves (B1: Tang Huai's company destroyed before the relief reaches the foot of his hill):
    # the time it has is however long that holds off, not the turns left.
    forestalled: bool = False
    # For "clear": the winning event it keeps open waits on nothing else that is not done yet
    # (A1's host must be off the defile once the valley is swept; B1's eastern road matters only
    # once Tang Huai is relieved, and the relief goes first).
    last: bool = False


class Objectives:
    """The aims one side's general pursues, kept current as events fire."""

    def __init__(self, engine: Engine, side_id: str) -> None:
        self.side_id = side_id
        scenario = engine.scenario
        self._events = {spec.id: spec for spec in scenario.events}
        self._regions = engine.board.regions
        self._setters: dict[str, list[str]] = {}
        for spec in scenario.events:
            for action in spec.actions:
                if isinstance(action, SetObjective) and action.status == "done":
                    self._setters.setdefault(action.id, []).append(spec.id)
        # Time is on our side when the last turn gives us the battle: nothing to chase then.
        self.time_is_ours = scenario.turn_limit_outcome == side_id
        self._winning = [spec.id for spec in scenario.events if self._wins_for(engine.state, spec.actions, ours=True)]
        # The last turn we have: the turn limit, or sooner a turn on which an event gives the
        # enemy the battle (a rear guard that only has to hold out until then).
        losing = [spec.id for spec in scenario.events if self._wins_for(engine.state, spec.actions, ours=False)]
        timed = [self._turn_of(e, 0) for e in losing]
        self.deadline = min([scenario.turn_limit, *(t for t in timed if t is not None)])
        self._lost_untimed = frozenset(e for e, t in zip(losing, timed, strict=True) if t is None)
        # Whether an event gives us the battle outright on the destruction of an enemy formation:
        # a side that wins by a kill (B1's Jin at Tang Huai's hill) hunts.
        self.wins_by_a_kill = any(
            isinstance(spec.when, OnDestroyed) and self._wins_for(engine.state, spec.actions, ours=True)
            for spec in scenario.events
        )
        self._aims_key: tuple[int, int] | None = None
        self._aims: list[Aim] = []
        # Where enemy formations were last seen (it may remember what it saw), else where the
        # scenario deployed them in the open (what both sides know before the battle).
        self._last_seen: dict[str, tuple[Hex, int]] = {
            spec.id: (spec.pos, 1) for spec in scenario.formations if not spec.hidden and spec.side != side_id
        }
        # Which formation carries each enemy hero, as deployed in the open or last seen.
        self._hero_unit: dict[str, str] = {
            spec.hero: spec.id for spec in scenario.formations if spec.hero and not spec.hidden and spec.side != side_id
        }
        # Ground seen empty of each remembered enemy since it was last seen: the search does not
        # go back to where it has already looked.
        self._cleared: dict[str, set[Hex]] = {}
        # Remembered enemy -> (its spot, the ground in sight) when all that ground near the spot
        # was last added to what is cleared for it (dropped when that is emptied).
        self._noted: dict[str, tuple[Hex, frozenset[Hex]]] = {}
        self._seen_key: tuple[int, int] | None = None
        self._visible: frozenset[Hex] = frozenset()
        self._destinations: dict[tuple[str, Hex, int, int, int, bool], frozenset[Hex] | None] = {}

    # -- reading the scenario -------------------------------------------------------------

    def _wins_for(self, state: GameState, actions: tuple[object, ...], ours: bool) -> bool:
        """Whether ``actions`` win the battle for our side (``ours``) or for the enemy: a victory
        of a side on that side, or a defeat of a side on the other."""
        winner, loser = (are_allied, are_enemies) if ours else (are_enemies, are_allied)
        return any(
            (isinstance(action, Victory) and winner(state, self.side_id, action.side))
            or (isinstance(action, Defeat) and loser(state, self.side_id, action.side))
            for action in actions
        )

    def _turn_of(self, event_id: str, depth: int) -> int | None:
        """The turn by which ``event_id`` comes of itself, with time alone (None: it waits for
        something a side must do)."""
        spec = self._events.get(event_id)
        if spec is None or depth > MAX_DEPTH:
            return None
        when = spec.when
        turns: list[int | None] = [self._turn_of(before, depth + 1) for before in spec.after]
        if isinstance(when, OnTurn):
            turns.append(when.turn)
        elif isinstance(when, OnObjectivesDone):
            for objective in when.done:
                setters = [self._turn_of(e, depth + 1) for e in self._setters.get(objective, [])]
                timed = [t for t in setters if t is not None]
                turns.append(min(timed) if timed else None)
        else:
            return None
        return None if any(t is None for t in turns) else max(t for t in turns if t is not None)

    def aims(self, state: GameState) -> list[Aim]:
        """What is still to do for a winning event that may yet fire (none when time is ours)."""
        if self.time_is_ours:
            return []
        key = (len(state.fired_events), state.turn)
        if key != self._aims_key:
            self._aims_key = key
            fired = set(state.fired_events)
            out: list[Aim] = []
            for event_id in self._winning:
                for aim in self._needs(event_id, state, fired, 0):
                    if aim not in out:
                        out.append(aim)
            self._aims = out
        return self._aims

    def _needs(self, event_id: str, state: GameState, fired: set[str], depth: int) -> list[Aim]:
        spec = self._events.get(event_id)
        if spec is None or event_id in fired or depth > MAX_DEPTH:
            return []
        if any(u in fired for u in spec.unless) or (spec.until_turn is not None and state.turn > spec.until_turn):
            return []
        out = self._aims_of(spec.when, state)
        if any(u in self._lost_untimed for u in spec.unless):
            out = [replace(aim, forestalled=True) for aim in out]
        if isinstance(spec.when, OnBagged) and all(before in fired for before in spec.after):
            # A broken formation to catch whole, once the rout it waits for has come.
            out.append(Aim("herd", frozenset(spec.when.units)))
        last = all(before in fired for before in spec.after)
        for blocker in spec.unless:
            out += self._clearing(blocker, state, fired, last)
        for before in spec.after:
            out += self._needs(before, state, fired, depth + 1)
        if isinstance(spec.when, OnObjectivesDone):
            done = {k for k, v in state.objectives.items() if v == "done"}
            for objective in spec.when.done:
                if objective in done:
                    continue
                for setter in self._setters.get(objective, []):
                    out += self._needs(setter, state, fired, depth + 1)
        return out

    def _aims_of(self, when: object, state: GameState) -> list[Aim]:
        if isinstance(when, (OnRouted, OnDestroyed)):
            units = frozenset(u for u in (when.unit, *when.units) if u)
            return [Aim("break", units, destroy=isinstance(when, OnDestroyed))] if units else []
        if isinstance(when, OnHeroWounded):
            return [Aim("wound", hero=when.hero)]
        if isinstance(when, OnSouls) and are_allied(state, self.side_id, when.side):
            return [Aim("bag", souls=when.at_least)]
        if isinstance(when, OnEntersRegion) and are_allied(state, self.side_id, when.side):
            units = frozenset((when.unit,) if when.unit else when.units)
            return [Aim("reach", units, region=when.region, unopposed=when.unopposed)]
        return []

    def _clearing(self, event_id: str, state: GameState, fired: set[str], last: bool = False) -> list[Aim]:
        """What keeps ``event_id`` from firing, where it would forbid one of our winning events:
        enemy formations that must stand in order on some ground for it are routed there."""
        spec = self._events.get(event_id)
        if spec is None or event_id in fired or (spec.until_turn is not None and state.turn > spec.until_turn):
            return []
        if any(u in fired for u in spec.unless):  # it can no longer fire (B1: that formation already broke)
            return []
        when = spec.when
        if not (isinstance(when, OnEntersRegion) and when.unbroken and are_enemies(state, self.side_id, when.side)):
            return []
        units = frozenset((when.unit,) if when.unit else when.units)
        return [Aim("clear", units, region=when.region, last=last)]

    # -- planning -------------------------------------------------------------------------

    def destination(
        self, engine: Engine, f: Formation, enemies: list[Formation], slack: int = SLACK, hasten: bool = False
    ) -> frozenset[Hex] | None:
        """Where ``f`` must go now for an aim, if the turns left (less ``slack`` and the aim's own
        work there) leave it no time to do otherwise: the ground of every aim so pressing.
        ``hasten``: an aim a loss at no set turn may forestall presses at once."""
        state = engine.state
        aims = self.aims(state)
        if not aims:
            return None
        key = (f.id, f.pos, state.turn, state.action_index, slack, hasten)
        if key in self._destinations:
            return self._destinations[key]
        if len(self._destinations) > 256:
            self._destinations.clear()
        self._look(engine, enemies)
        own = [a for a in aims if a.kind == "reach" and a.units == {f.id}]
        if own:
            # Ground only ``f``'s coming wins is its own aim, and the others' are left to the
            # others: the hard Yue Fei, three hexes from the foot of Tang Huai's hill, rode back
            # across the field after B1's rear guard and was still on his way when the turns ran
            # out (11 of the 12 games of 200 the hard Zhenguo lost against random play).
            aims = own
        turns_left = self.deadline - state.turn + 1
        steps = max(1, max_steps(f, engine.rules))
        urgent: set[Hex] = set()
        last_call: set[Hex] = set()
        # A general that leaves its post sooner for the aims roams farther from the ground to
        # clear, and is called back to it sooner once that ground is all that is left: a turn
        # for every turn of slack past two (called back three sooner, the hard coalition gave up
        # a host it was breaking before A1's defile to a search that stood there, and won 3 of
        # 5 against it; two sooner, 4 of 5, and 96 of 100 against random play).
        roamed = max(0, min(slack, SLACK) - 2)
        for aim in aims:
            goals = self._aim_goals(engine, f, aim, enemies)
            if not goals:
                continue
            march = distance_to_area(f.pos, goals) / steps
            if (hasten and aim.forestalled) or turns_left <= march + slack + self._work(state, f, aim, enemies):
                urgent.update(goals)
            if aim.kind == "clear" and turns_left <= march + CLEAR_SLACK + (roamed if aim.last else 0):
                last_call.update(goals)
        # Ground that must be clear when the last turn comes goes before any other aim then: a
        # host scattered over the field is not broken in the turns left, and need not be.
        urgent = last_call or urgent
        self._destinations[key] = frozenset(urgent) if urgent else None
        return self._destinations[key]

    def _work(self, state: GameState, f: Formation, aim: Aim, enemies: list[Formation]) -> int:
        """Turns of fighting ``aim`` asks of ``f`` once there, as far as this side knows (a duel
        is fought by a hero: the others go as for any fight)."""
        if aim.kind == "wound":
            if f.hero is None:
                return 0
            # A hero out of sight must first be found.
            return DUEL_TURNS + (0 if any(e.hero == aim.hero for e in enemies) else SEARCH_TURNS)
        if aim.kind == "clear":
            return min(BREAK_TURNS_CAP, len(self._aim_enemies(state, aim, enemies)))
        if aim.kind == "herd":
            return 1
        if aim.kind != "break":
            return 0
        seen = {e.id: e for e in enemies}

        def standing(units: frozenset[str], destroy: bool) -> int:
            return sum(
                1
                for u in units
                if (u in seen and (destroy or not seen[u].routed)) or (u not in seen and u in self._last_seen)
            )

        # Detachments that must each be broken on their own (aims of fewer than a host) are broken
        # one after another wherever they stand: each other one still to break costs more turns.
        others = {
            u for a in self.aims(state) if a.kind == "break" and len(a.units) < HOST_SIZE for u in a.units
        } - aim.units
        after = min(DETACHMENT_TURNS_CAP, DETACHMENT_TURNS * standing(frozenset(others), aim.destroy))
        return min(BREAK_TURNS_CAP, max(0, standing(aim.units, aim.destroy) - 1)) + after

    def souls_wanted(self, state: GameState) -> int:
        """Souls our pouch still lacks for a winning event (0: none waits on the pouch)."""
        pouch = state.side(self.side_id).pouch
        return max([0, *(a.souls - pouch for a in self.aims(state) if a.kind == "bag")])

    def refusal_loses(self, engine: Engine, hero: str, challenger: str | None) -> bool:
        """Whether our ``hero`` turning down ``challenger``'s challenge now would give the enemy
        the battle (``triggers.refusal_events``)."""
        return any(spec.id in self._lost_untimed for spec in refusal_events(engine, hero, challenger))

    def wound_heroes(self, state: GameState) -> frozenset[str]:
        """Enemy heroes whose wounding serves an aim."""
        return frozenset(a.hero for a in self.aims(state) if a.kind == "wound" and a.hero in self._hero_unit)

    def urgent(self, engine: Engine, f: Formation, enemies: list[Formation], slack: int = SLACK) -> bool:
        return self.destination(engine, f, enemies, slack) is not None

    def targets(self, state: GameState, enemies: list[Formation]) -> frozenset[str]:
        """Enemy formations in sight whose breaking serves an aim."""
        out: set[str] = set()
        for aim in self.aims(state):
            out.update(e.id for e in self._aim_enemies(state, aim, enemies))
        return frozenset(out)

    def _look(self, engine: Engine, enemies: list[Formation]) -> None:
        """Note where the enemies in sight stand, and forget a remembered spot now seen empty."""
        state = engine.state
        key = (state.action_index, len(enemies))
        if key == self._seen_key:
            return
        self._seen_key = key
        before = self._visible
        self._visible = visible = frozenset(vision.visible_hexes(state, engine.board, engine.rules, self.side_id))
        for e in enemies:
            self._last_seen[e.id] = (e.pos, state.turn)
            self._cleared.pop(e.id, None)
            self._noted.pop(e.id, None)
            if e.hero is not None:
                self._hero_unit[e.hero] = e.id
        in_sight = {e.id for e in enemies}
        # Ground seen round a spot already noted as seen needs noting only where it is new.
        new = visible - before
        for unit, (pos, _turn) in self._last_seen.items():
            if unit not in in_sight:
                cleared = self._cleared.setdefault(unit, set())
                if self._noted.get(unit) == (pos, before):
                    cleared.update(_within(new, pos, SEARCH_RADIUS))
                else:
                    cleared.update(_within(visible, pos, SEARCH_RADIUS))
                self._noted[unit] = (pos, visible)

    def _aim_goals(self, engine: Engine, f: Formation, aim: Aim, enemies: list[Formation]) -> frozenset[Hex]:
        state = engine.state
        hexes: set[Hex] = set()
        if aim.kind == "reach":
            region = engine.board.regions.get(aim.region or "", frozenset())
            if aim.units and f.id not in aim.units:
                if aim.unopposed:  # the others clear the ground for those that must stand there
                    hexes.update(e.pos for e in enemies if e.pos in region)
                return frozenset(hexes)
            if f.pos in region:
                return frozenset(e.pos for e in enemies if e.pos in region and aim.unopposed)
            return frozenset(region)
        seen = self._aim_enemies(state, aim, enemies)
        hexes.update(e.pos for e in seen)
        if not seen:
            if aim.kind == "clear":
                # Nobody there yet: stand on the ground, to strike whoever comes into it.
                region = self._regions.get(aim.region or "", frozenset())
                return frozenset() if f.pos in region else region
            if aim.kind in ("break", "herd"):
                for unit in aim.units:
                    hexes.update(self._search_ground(engine, unit))
            elif aim.hero in self._hero_unit:
                hexes.update(self._search_ground(engine, self._hero_unit[aim.hero]))
        return frozenset(hexes)

    def _search_ground(self, engine: Engine, unit: str) -> set[Hex]:
        """Where to look for an enemy out of sight: the spot it was last seen at, or once that is in
        sight and empty, the unseen ground around it as far as it could have marched since."""
        if unit not in self._last_seen:
            return set()
        pos, turn = self._last_seen[unit]
        cleared = self._cleared.get(unit, set())
        if pos not in cleared:
            return {pos}
        radius = min(SEARCH_RADIUS, 2 + SEARCH_STEP * max(0, engine.state.turn - turn))
        around = [h for h in disc(pos, radius) if h in engine.board and h not in self._visible]
        unseen = [h for h in around if h not in cleared]
        if not unseen:
            # Everything about has been looked at once: it may have gone back to ground seen
            # earlier, so look again wherever is out of sight now.
            cleared.clear()
            self._noted.pop(unit, None)
            unseen = around
        if not unseen:
            return set()
        # Nearest the spot first: the search widens outward from it as the near ground is seen.
        nearest = min(distance(pos, h) for h in unseen)
        return {h for h in unseen if distance(pos, h) <= nearest + 1}

    def _aim_enemies(self, state: GameState, aim: Aim, enemies: list[Formation]) -> list[Formation]:
        if aim.kind == "herd":  # routed to be caught, or rallied to be broken again first
            return [e for e in enemies if e.id in aim.units]
        if aim.kind == "clear":
            region = self._regions.get(aim.region or "", frozenset())
            return [e for e in enemies if e.pos in region and not e.routed and (not aim.units or e.id in aim.units)]
        if aim.kind == "wound":
            return [e for e in enemies if e.hero == aim.hero]
        if aim.kind != "break":
            return []
        return [e for e in enemies if e.id in aim.units and (aim.destroy or not e.routed)]


def _within(hexes: frozenset[Hex], centre: Hex, radius: int) -> frozenset[Hex]:
    """The hexes of ``hexes`` within ``radius`` of ``centre``."""
    return hexes.intersection(disc_set(centre, radius)) if hexes else hexes
