"""What the general's blows are worth: the threat map and exposure, attack scores, and every
attack, shot, blast or capture a formation could make from where it stands or after one move
(``Striker``, the base of ``game.ai.general.General``).

Scores are in "men-value": men times their melee power per man. An attack is worth the enemy's
expected losses, the chance it routs, its souls and any scenario objective it serves, less our
own losses.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from ..core import combat, morale, souls, vision
from ..core.actions import Attack, Blast, Capture, Fire, Move
from ..core.herding import HEMMED_BAG_FACTOR, hemmed
from ..core.hexgrid import Hex, distance, neighbours
from ..core.movement import MoveMap, are_enemies, max_steps, search_moves, stops
from ..core.sides import closed_hexes, enemy_sides
from ..core.state import Formation, GameState
from . import aimed_duels
from .act_cache import ActCache, Candidate
from .basic import BasicAI, enemies_next_to
from .threat import Sighting, ThreatMap, sightings

if TYPE_CHECKING:
    from .objectives import Objectives
    from .persona import Persona
    from .styles import Style

# Worth of one enemy soul that can be bagged, per man-value of a levy.
SOUL_VALUE = 0.6
# Weight of the chance a defender routs, times the men it would leave broken.
ROUT_WEIGHT = 0.5
DESTROY_BONUS = 0.5
# Extra worth of a formation a scenario objective asks to destroy or rout.
OBJECTIVE_BONUS = 0.5
# Weight of the souls a capture bags while a winning event waits on our pouch (``Style.pouch``).
BAG_AIM_WEIGHT = 4.0


class Striker(BasicAI):
    """The scoring half of the general; ``General.__init__`` sets every attribute below."""

    style: Style
    persona: Persona
    objectives: Objectives
    _threat_key: tuple[Sighting, ...] | None
    _threat: ThreatMap | None
    # The enemies seen this side-turn (``known_enemies``), and which side-turn that is.
    _sighted: dict[str, Sighting]
    _sighted_turn: tuple[int, int] | None
    _threat_state: GameState | None
    _objective_units: frozenset[str]
    _spared_state: GameState | None
    _spared: frozenset[Hex]
    _loss_weight: float
    act_cache: ActCache
    # What ``_moves`` has searched: its key -> the move map and how far it reaches.
    _move_maps: dict[tuple[Hashable, ...], tuple[MoveMap, int]]

    def threat(self) -> ThreatMap:
        """The enemies' reach, rebuilt only when an enemy known to stand somewhere has changed:
        most of a turn's actions move our own men and leave it as it was."""
        state = self.engine.state
        if self._threat is not None and self._threat_state is state:
            return self._threat
        key = self.known_enemies()
        if self._threat is None or self._threat_key != key:
            self._threat = ThreatMap(self.engine.rules, key)
            self._threat_key = key
        self._threat_state = state  # the view of this decision: it does not change under us
        return self._threat

    def known_enemies(self) -> tuple[Sighting, ...]:
        """The enemies in sight, and those seen earlier this side-turn that are out of sight now
        on ground it no longer sees: nobody moves in another side's turn, so each still stands
        where it was seen. (In A2, once Han Xin had ridden on and taken his eyes with him, the
        retainers saw the road clear and set out for the hex beside the twenty thousand he had
        just seen there.)"""
        engine = self.engine
        state = engine.state
        turn = (state.turn, state.active)
        if self._sighted_turn != turn:
            self._sighted_turn, self._sighted = turn, {}
        seen = sightings(state, self.side_id)
        for s in seen:
            self._sighted[s.id] = s
        if len(seen) == len(self._sighted):
            return seen
        now = {s.id for s in seen}
        visible = vision.visible_hexes(state, engine.board, engine.rules, self.side_id)
        gone = [k for k, s in self._sighted.items() if k not in now and s.pos in visible]
        for k in gone:
            del self._sighted[k]  # its ground is in sight again and it is not there: struck down
        return seen + tuple(s for k, s in sorted(self._sighted.items()) if k not in now)

    def exposure(self, f: Formation, at: Hex) -> float:
        """Men-value ``f`` risks by standing at ``at`` through the enemies' turn."""
        if self.style.exposure <= 0:
            return 0.0
        return self.style.exposure * self.threat().expected_loss(f, at) * self._value(f)

    def spared(self) -> frozenset[Hex]:
        """Where the enemy formations stand whose hero a duel of ours is to wound (a style that
        spares them): a rout within ``morale.NEARBY_ROUT_RADIUS`` of one lowers its morale, and
        should it rout before the duel is fought out the duel is broken off and the aim lost."""
        state = self.engine.state
        if not self.style.spare_duel:
            return frozenset()
        if self._spared_state is not state:
            marked = aimed_duels.marked(self.engine, self.side_id, self.objectives.wound_heroes(state))
            self._spared = frozenset(state.formations[u].pos for u in marked if not state.formations[u].routed)
            self._spared_state = state
        return self._spared

    def _near_spared(self, defender: Formation) -> bool:
        return any(0 < distance(defender.pos, h) <= morale.NEARBY_ROUT_RADIUS for h in self.spared())

    def _herding(self) -> bool:
        """Whether the battle waits on a broken enemy formation caught whole: then a rout that
        spreads to its neighbours is not sought, as the routed scatter out of the sacks' reach
        (so weighed, the hard coalition at the valley mouth won 51 of 90 battles against the
        normal Hailing, as many as the normal one; 59 not seeking it while herding)."""
        return any(a.kind == "herd" for a in self.objectives.aims(self.engine.state))

    def _cascade(self, defender: Formation) -> float:
        """Men-value of the rout ``defender``'s rout would spread: its formed friends within the
        rout's reach whom the morale it costs them breaks too, weighed as a rout is."""
        state, rules = self.engine.state, self.engine.rules
        total = 0.0
        for g in state.formations.values():
            if g.id == defender.id or g.side != defender.side or g.routed:
                continue
            if distance(g.pos, defender.pos) > morale.NEARBY_ROUT_RADIUS:
                continue
            if g.morale - morale.NEARBY_ROUT_MORALE < rules.units[g.type].rout_threshold:
                total += ROUT_WEIGHT * g.men * self._value(g)
        return total

    def attack_score(
        self,
        attacker: Formation,
        defender: Formation,
        mode: combat.Mode = "melee",
        half: combat.DefenderHalf | None = None,
    ) -> float:
        engine = self.engine
        setup = combat.setup_attack(engine.state, engine.board, engine.rules, attacker, defender, mode, half)
        fc = _forecast(setup)
        dl, al = fc.defender_losses[1], fc.attacker_losses[1]
        if (fc.rout_chance > 0 or dl >= defender.men) and self._near_spared(defender):
            return -1.0  # a rout here would shake the formation our hero is to fight
        dv, av = self._value(defender), self._value(attacker)
        gain = dl * dv
        gain += ROUT_WEIGHT * fc.rout_chance / 100.0 * max(0, defender.men - dl) * dv
        if dl >= defender.men:
            gain += DESTROY_BONUS * defender.men * dv
        if self.style.cascade > 0 and fc.rout_chance > 0 and not self._herding():
            gain += self.style.cascade * fc.rout_chance / 100.0 * self._cascade(defender)
        if "soul" in engine.rules.units[defender.type].abilities:
            gain += SOUL_VALUE * dl * min(1.0, dv)
        if defender.id in self._objective_units:
            gain *= 1.0 + OBJECTIVE_BONUS
        if setup.pincer or any(m.name == combat.FLANKING_MODIFIER for m in setup.modifiers):
            gain *= 1.0 + self.style.pincer
        gain *= self.persona.target_weight(defender)
        loss = al * av * self._loss_weight * self.persona.loss_weight(attacker)
        return gain - loss

    def _aim(self, f: Formation, enemies: list[Formation]) -> frozenset[Hex] | None:
        """Where the turns left send ``f`` for the scenario's aims (None: it fights as it likes);
        a formation guarding ground the enemy wins by taking stays on it."""
        slack = self.persona.pursuit_slack(f, self.style.pursuit_slack)
        if self.persona.guards_ground(f) or self.persona.sweeps_for_the_pouch(f, enemies):
            return None
        # A formation the scenario keeps at a post (the besieged comrade on his hill) stays on it.
        hasten = self.style.rescue_at_once and self.persona.held_region(f.id) is None
        return self.objectives.destination(self.engine, f, enemies, slack, hasten)

    def _candidates(
        self, f: Formation, enemies: list[Formation], occupancy: dict[Hex, str], zoc: set[Hex], fronts: frozenset[Hex]
    ) -> tuple[list[Candidate], int]:
        """Every action ``f`` could strike or bag with, scored, and the radius of the field its
        scores depend on."""
        engine = self.engine
        state = engine.state
        out: list[Candidate] = []
        # Flanks and death ground reach two hexes past the target, the target one past where
        # the striker stands.
        radius = 3
        if engine.can_capture(f) and self.persona.may_capture(f) and not self.persona.marching(f):
            out.append(Candidate(self._capture_score(f), Capture(unit=f.id)))
        if not engine.can_act(f) or self.persona.role(f) == "reserve":
            return out, radius  # a reserve is kept out of the fight; it may still bag souls
        floor = self.style.min_gain * f.men * self._value(f)
        herd = self._herd()
        for target_id in engine.attack_targets(f.id):
            target = state.formations[target_id]
            if not self.persona.may_strike(f, target) or self._to_bag(f, target, herd):
                continue
            out.append(Candidate(self.attack_score(f, target) - floor, Attack(unit=f.id, target=target_id)))
        utype = engine.rules.units[f.type]
        for target_id in engine.fire_targets(f.id):
            target = state.formations[target_id]
            if self._to_bag(f, target, herd):
                continue
            out.append(Candidate(self.attack_score(f, target, "fire") - floor, Fire(unit=f.id, target=target_id)))
            if f.charges > 0 and self.persona.may_blast(f):
                out.append(Candidate(self._blast_score(f, target.pos), Blast(unit=f.id, at=target.pos)))
        if utype.ranged > 0:
            radius = max(radius, utype.range + 3)
        role = self.persona.role(f)
        pursuing = self._aim(f, enemies) is not None
        kept = role in ("hold_still", "rear_guard") and not pursuing
        if kept or not engine.can_move(f):
            return out, radius
        reach = max_steps(f, engine.rules)
        if not any(distance(f.pos, e.pos) <= reach + 1 for e in enemies):
            # No enemy in sight is in reach; one that comes within reach changes this.
            return out, max(radius, reach + 3)
        baggable = self._baggable(f, enemies, reach)
        if not baggable and not engine.can_attack(f):
            return out, radius
        move_map, extent = self._moves(f, reach, occupancy, zoc)
        if engine.can_attack(f):
            out.extend(self._move_attacks(f, move_map, occupancy, fronts, floor, pursuing))
        out.extend(self._move_bags(f, move_map, baggable, enemies, pursuing))
        return out, max(radius, extent + 3)

    def _baggable(self, f: Formation, enemies: list[Formation], reach: int) -> list[Formation]:
        """Routed enemy soul formations within a move of ``f`` small enough for its capture to
        bag whole from next to them (hemmed in, twice as many), where the battle waits on their
        bagging: a broken host to be herded into the bag. (Sought wherever souls were wanted, it
        drew the valley mouth's five thousand after the trapped host's broken stragglers while
        the wings at the defile were overrun: the normal coalition won 4 of 30 against itself.)"""
        engine = self.engine
        if not self.persona.may_capture(f) or self.persona.marching(f):
            return []
        herd = self._herd()
        if not herd:
            return []
        capacity = souls.capture_capacity(engine.rules, f) * HEMMED_BAG_FACTOR
        units = engine.rules.units
        return [
            e
            for e in enemies
            if e.routed
            and e.id in herd
            and not e.hidden
            and 0 < e.men <= capacity
            and "soul" in units[e.type].abilities
            and distance(f.pos, e.pos) <= reach + 1
        ]

    def _move_bags(
        self, f: Formation, move_map: MoveMap, baggable: list[Formation], enemies: list[Formation], pursuing: bool
    ) -> list[Candidate]:
        """Moves next to a routed soul formation that ``f``'s capture would then bag whole (a broken
        host is caught, not only cut down: A1's herd waits for it), scored as that capture."""
        if not baggable:
            return []
        engine = self.engine
        state = engine.state
        capacity = souls.capture_capacity(engine.rules, f)
        allowed = None if pursuing else self.persona.allowed_hexes(f)
        out = []
        for o in baggable:
            # Who hems it in once ``f`` stands next to it: its enemies, ``f`` moved.
            others = [
                e
                for e in state.formations.values()
                if e.id != f.id and not e.hidden and are_enemies(state, o.side, e.side)
            ]
            for dest in neighbours(o.pos):
                if dest not in move_map.destinations or (allowed is not None and dest not in allowed):
                    continue
                there = f.model_copy(update={"pos": dest})
                factor = HEMMED_BAG_FACTOR if hemmed(state, o, [*others, there]) else 1
                if capacity * factor < o.men:
                    continue
                score = self._bag_weight(f, o.men * (self._value(o) + SOUL_VALUE), herding=True) * 0.98
                out.append(Candidate(score, Move(unit=f.id, to=dest), dest))
        return out

    def _moves(self, f: Formation, reach: int, occupancy: dict[Hex, str], zoc: set[Hex]) -> tuple[MoveMap, int]:
        """Where ``f`` can move (``search_moves``) and how far that reaches, kept by what the
        search reads: the formation; who of other sides stands within ``reach`` (``max_steps``:
        no move goes farther) or next to it, whether they hold a zone of control, and who is at
        war with whom (``occupancy`` and ``zoc`` are the state's); and the gates shut to it.
        Its own side's formations are passed through: they only keep it from stopping on their
        hexes, so a kept search's destinations are taken afresh from ``occupancy``."""
        engine = self.engine
        state = engine.state
        q, r = f.pos
        near = []
        for o in state.formations.values():
            dq, dr = o.pos.q - q, o.pos.r - r
            if o.side != f.side and abs(dq) + abs(dr) + abs(dq + dr) <= 2 * reach + 2:
                near.append((o.pos, o.side, o.men > 0 and not o.routed))
        key = (
            f.pos,
            f.type,
            f.side,
            "ride_light" in f.effects,
            "breakthrough" in f.effects,
            tuple(near),
            tuple((s.id, s.role, tuple(s.allies), tuple(s.hostile_to)) for s in state.sides),
            closed_hexes(state, engine.board, f.side),
        )
        found = self._move_maps.get(key)
        if found is None:
            move_map = search_moves(state, engine.board, engine.rules, f, occupancy, zoc)
            found = (move_map, _farthest(f.pos, move_map.cost))
            if self.act_cache.enabled:  # off, every decision searches afresh (for the tests)
                if len(self._move_maps) > 512:
                    self._move_maps.clear()
                self._move_maps[key] = found
            return found
        kept, extent = found
        # Where it may stop, as ``search_moves`` gives it: every hex reached but its own and
        # those someone stands on now.
        return MoveMap(kept.origin, kept.cost, kept.parent, stops(kept.cost, kept.origin, occupancy)), extent

    def _move_attacks(
        self,
        f: Formation,
        move_map: MoveMap,
        occupancy: dict[Hex, str],
        fronts: frozenset[Hex],
        floor: float,
        pursuing: bool = False,
    ) -> list[Candidate]:
        """Attacks after one move, from each hex next to an enemy in sight (the view holds only
        formations the side sees; ``fronts_of`` gives the hexes next to them); a formation
        pursuing an aim is not kept to its post."""
        engine = self.engine
        state = engine.state
        dests = sorted(move_map.destinations & fronts)
        if not dests:
            return []  # no enemy to strike from anywhere it can go: its posts need no asking
        allowed = None if pursuing else self.persona.allowed_hexes(f)
        out = []
        herd = self._herd()
        # Each enemy's own half of the set-up, the same from every hex it is struck from.
        halves: dict[str, combat.DefenderHalf] = {}
        for dest in dests:
            if allowed is not None and dest not in allowed:
                continue
            moved: Formation | None = None
            for target in enemies_next_to(state, occupancy, f.side, dest):
                if moved is None:
                    # A rider saved for a charge counts the run-up a move would give it. (Counted for
                    # every rider, it moved other battles' balance far: B2 from 60% to 100%.)
                    run = self._open_run(move_map, dest) if f.id in self.persona.saved else 0
                    moved = f.model_copy(update={"pos": dest, "charge_run": run})
                if not self.persona.may_strike(moved, target) or self._to_bag(f, target, herd):
                    continue
                if engine.board.terrain_at(target.pos).fortress and "siege" not in engine.rules.units[f.type].abilities:
                    continue
                half = halves.get(target.id)
                if half is None:
                    half = halves[target.id] = combat.defender_half(state, engine.board, engine.rules, target)
                score = self.attack_score(moved, target, half=half) * 0.98 - floor
                out.append(Candidate(score, Move(unit=f.id, to=dest), dest))
        return out

    def _open_run(self, move_map: MoveMap, dest: Hex) -> int:
        """Hexes of open ground at the end of the way to ``dest`` (the engine's run-up)."""
        path = move_map.path_to(dest) or [dest]
        board = self.engine.board
        run = 0
        for h in reversed(path[1:]):
            if not board.terrain_at(h).open:
                break
            run += 1
        return run

    def _blast_score(self, f: Formation, at: Hex) -> float:
        engine = self.engine
        state = engine.state
        area = {at, *neighbours(at)}
        # The blast strikes only enemies (order_checks.check_blast): friends in the area, the
        # thrower himself next to the enemy on his hill, take no harm.
        return sum(
            self.attack_score(f, e, "blast")
            for e in state.formations.values()
            if e.pos in area and are_enemies(state, f.side, e.side)
        )

    def _capture_score(self, f: Formation) -> float:
        near, bag = souls.capturable(self.engine.state, self.engine.rules, f)
        capacity = souls.capture_capacity(self.engine.rules, f)
        score = SOUL_VALUE * min(near, capacity)
        whole = bool(bag) and capacity * (HEMMED_BAG_FACTOR if hemmed(self.engine.state, bag[0]) else 1) >= bag[0].men
        if whole:
            score += bag[0].men * (self._value(bag[0]) + SOUL_VALUE)
        return self._bag_weight(f, score, whole and bag[0].id in self._herd())

    def _to_bag(self, f: Formation, target: Formation, herd: frozenset[str]) -> bool:
        """Whether ``target`` is a routed formation the battle waits to see caught whole that
        ``f``'s capture could bag (hemmed in): struck instead, it would be cut down, never caught."""
        if not (target.routed and target.id in herd) or not self.persona.may_capture(f):
            return False
        return 0 < target.men <= souls.capture_capacity(self.engine.rules, f) * HEMMED_BAG_FACTOR

    def minds_the_pouch(self, f: Formation) -> bool:
        """Whether ``f`` bags first and foremost because a winning event waits on our pouch
        (``Style.pouch``). At normal only the soul-catchers do: with every hand bagging for the
        sweep of A1's valley, Xiang Yu's charge into the returning host came in half the games
        (97% with the fighters fighting)."""
        who = self.style.pouch
        if who == "nobody" or (who == "catchers" and self.engine.rules.units[f.type].capture_rate < 1.0):
            return False
        return self.objectives.souls_wanted(self.engine.state) > 0

    def _herd(self) -> frozenset[str]:
        """The routed formations the battle waits to see caught whole (A1's broken host)."""
        return frozenset(u for a in self.objectives.aims(self.engine.state) if a.kind == "herd" for u in a.units)

    def _bag_weight(self, f: Formation, score: float, herding: bool = False) -> float:
        """A capture's worth to this general: more while the battle waits on the pouch or on the
        formation it bags whole (cut down instead, it can never be caught), less to a fighter
        that could strike instead."""
        if herding or self.minds_the_pouch(f):
            return score * BAG_AIM_WEIGHT  # the battle waits on the bag
        # A fighter that can still strike prefers to; a soul-catcher's first duty is the bag.
        if self.engine.rules.units[f.type].capture_rate < 1.0:
            score *= 0.5
        return score


def fronts_of(state: GameState, occupancy: dict[Hex, str], side_id: str) -> frozenset[Hex]:
    """The hexes next to a formation at war with ``side_id`` (``occupancy``: hex -> formation
    id): the only ones a formation of the side can strike from after a move."""
    formations = state.formations
    foes = enemy_sides(state, side_id)
    return frozenset(n for h, fid in occupancy.items() if formations[fid].side in foes for n in neighbours(h))


def _farthest(origin: Hex, hexes: Iterable[Hex]) -> int:
    """The distance from ``origin`` to the farthest of ``hexes`` (0 for none): ``distance``
    written out, as every move map searched asks it of each hex it reaches."""
    q, r = origin
    return max(((abs(a - q) + abs(b - r) + abs(a + b - q - r)) // 2 for a, b in hexes), default=0)


@lru_cache(maxsize=1 << 12)
def _forecast(setup: combat.CombatSetup) -> combat.Forecast:
    """``combat.forecast_from``, a pure function of the setup: the same blow is weighed again
    whenever something near the striker changes, the setup as it was."""
    return combat.forecast_from(setup)
