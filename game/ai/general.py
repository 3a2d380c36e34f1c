"""The computer general: a tactical core shared by every side, with faction behaviour on top.

Every call scores candidate actions on the side's fogged view (``SideView.state``) and returns
the best; the state is re-read after each action, so plans adapt to what just happened. Scores
are in "men-value": men times their melee power per man. An attack is worth the enemy's expected
losses, the chance it routs, its souls and any scenario objective it serves, less our own losses
and the counter-attack the threat map says we walk into. Faction behaviour (game.ai.personality)
then decides roles: who holds, who hides, who flees, who seeks whom.
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Hashable

from ..core import combat, duel, morale, souls
from ..core.actions import Action, AnswerDuel, Attack, Blast, Capture, Challenge, EndTurn, Fire, Move, Rest, UseSkill
from ..core.engine import Engine
from ..core.herding import HEMMED_BAG_FACTOR, hemmed
from ..core.hexgrid import Hex, distance, neighbours
from ..core.movement import MAX_FATIGUE_TO_FORCE, MoveMap, are_enemies, enemy_zoc, max_steps, search_moves
from ..core.rng import Rng
from ..core.state import Formation, GameState
from . import aimed_duels, personality
from .act_cache import ActCache, Candidate, field_token
from .basic import BasicAI, enemies_next_to
from .objectives import Objectives
from .styles import STYLES
from .threat import ThreatMap, threat_key

# Worth of one enemy soul that can be bagged, per man-value of a levy.
SOUL_VALUE = 0.6
# Weight of the chance a defender routs, times the men it would leave broken.
ROUT_WEIGHT = 0.5
DESTROY_BONUS = 0.5
# Extra worth of a formation a scenario objective asks to destroy or rout.
OBJECTIVE_BONUS = 0.5
# Movement points that losing a whole formation to counter-attack is worth when advancing.
EXPOSURE_COST = 30.0
# The least a blow at an enemy the turns left make it pursue is worth: struck even at a loss.
AIM_BLOW_SCORE = 1.0
# Weight of the souls a capture bags while a winning event waits on our pouch (a hard general).
BAG_AIM_WEIGHT = 4.0
# Fatigue from which an idle formation out of danger rests.
REST_FATIGUE = 50
# Stream offset for the easy general's noise, so it never shares draws with the game.
NOISE_STREAM = 1 << 40


class General(BasicAI):
    def __init__(self, engine: Engine, side_id: str, difficulty: str = "normal", keep_scores: bool = True) -> None:
        super().__init__(engine, side_id, difficulty)
        self.style = STYLES.get(difficulty, STYLES["normal"])
        faction = engine.state.side(side_id).faction
        self.persona = personality.for_faction(faction, self)
        self._deadline: float | None = None
        self._threat_key: tuple[Hashable, ...] | None = None
        self._threat: ThreatMap | None = None
        self._threat_state: GameState | None = None
        self._objective_units = _objective_units(engine)
        self._spared_state: GameState | None = None
        self._spared: frozenset[Hex] = frozenset()
        self.objectives = Objectives(engine, side_id)
        hunt = self.style.hunt_loss_weight
        self._loss_weight = hunt if hunt is not None and self.objectives.wins_by_a_kill else self.style.loss_weight
        # A hero's aura, or Wanyan Liang's pride, reaches past any formation's own radius.
        reach = max([h.aura for h in engine.rules.heroes.values()] + [personality.PRIDE_RADIUS])
        self.act_cache = ActCache(enabled=keep_scores, hero_reach=reach)

    # -- public ---------------------------------------------------------------------------

    def next_action(self, deadline: float | None = None) -> Action:
        self._deadline = deadline
        self._view = None  # the fogged view is rebuilt for every decision
        game = self.game
        if game.state.pending_duel is not None and not game.state.over and game.deciding_side() == self.side_id:
            return self._answer_duel()
        if game.state.over or game.state.active_side.id != self.side_id:
            return EndTurn()
        if self._late():
            return EndTurn()  # out of time before thinking at all: the cheapest legal answer
        engine = self.engine
        state = engine.state
        if self._turn_key != (state.turn, state.active):
            self._turn_key = (state.turn, state.active)
            self._holding.clear()
            self._used.clear()
            self.persona.new_turn()
        held = state.active_side.held_groups
        own = [
            f
            for f in state.formations_of(self.side_id)
            if f.id not in self._holding and f.group not in held and not self._hesitates(f)
        ]
        if state.active_side.role == "neutral":
            return self._best_attack(own, stand_only=True) or EndTurn()
        enemies = [f for f in state.formations.values() if are_enemies(state, self.side_id, f.side)]
        self.persona.observe(state, enemies)
        goals = self._goals(enemies)
        if not goals:
            return EndTurn()
        special = self.persona.special_action(own, enemies)
        if special is not None:
            return special
        heroic = self._hero_action(own, enemies)
        if heroic is not None:
            return heroic
        best = self._best_act(own)
        if best is not None:
            return best
        for f in own:
            if self._late():
                break
            if engine.can_move(f):
                move = self._movement(f, enemies, goals)
                if move is not None:
                    return move
            rest = self._rest(f)
            self._holding.add(f.id)
            if rest is not None:
                return rest
        return EndTurn()

    # -- time -----------------------------------------------------------------------------

    def _late(self) -> bool:
        return self._deadline is not None and time.perf_counter() >= self._deadline

    # -- duels ----------------------------------------------------------------------------

    def _answer_duel(self) -> AnswerDuel:
        answer = self.persona.answer_duel()
        if answer is None:
            answer = super()._answer_duel()
        self.persona.answered(answer.accept)
        return answer

    # -- values ---------------------------------------------------------------------------

    def threat(self) -> ThreatMap:
        """The enemies' reach, rebuilt only when an enemy in sight has changed: most of a turn's
        actions move our own men and leave it as it was."""
        state = self.engine.state
        if self._threat is not None and self._threat_state is state:
            return self._threat
        key = threat_key(state, self.side_id)
        if self._threat is None or self._threat_key != key:
            self._threat = ThreatMap(state, self.engine.rules, self.side_id)
            self._threat_key = key
        self._threat_state = state  # the view of this decision: it does not change under us
        return self._threat

    def exposure(self, f: Formation, at: Hex) -> float:
        """Men-value ``f`` risks by standing at ``at`` through the enemies' turn."""
        if self.style.exposure <= 0:
            return 0.0
        return self.style.exposure * self.threat().expected_loss(f, at) * self._value(f)

    def _hesitates(self, f: Formation) -> bool:
        """Whether ``f``'s orders come too late this turn (never for a hero's own formation)."""
        if self.style.hesitation <= 0 or f.hero is not None:
            return False
        rng = Rng(self.game.seed ^ NOISE_STREAM ^ zlib.crc32(f.id.encode()), self.engine.state.turn)
        return rng.random() < self.style.hesitation

    def _noise(self, salt: int) -> float:
        if self.style.noise <= 0:
            return 1.0
        rng = Rng(self.game.seed ^ NOISE_STREAM, self.engine.state.action_index * 4096 + salt)
        return 1.0 + self.style.noise * (rng.random() - 0.5)

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

    def attack_score(self, attacker: Formation, defender: Formation, mode: combat.Mode = "melee") -> float:
        engine = self.engine
        setup = combat.setup_attack(engine.state, engine.board, engine.rules, attacker, defender, mode)
        fc = combat.forecast_from(setup)
        dl, al = fc.defender_losses[1], fc.attacker_losses[1]
        if (fc.rout_chance > 0 or dl >= defender.men) and self._near_spared(defender):
            return -1.0  # a rout here would shake the formation our hero is to fight
        dv, av = self._value(defender), self._value(attacker)
        gain = dl * dv
        gain += ROUT_WEIGHT * fc.rout_chance / 100.0 * max(0, defender.men - dl) * dv
        if dl >= defender.men:
            gain += DESTROY_BONUS * defender.men * dv
        if self.style.cascade > 0 and fc.rout_chance > 0:
            gain += self.style.cascade * fc.rout_chance / 100.0 * self._cascade(defender)
        if "soul" in engine.rules.units[defender.type].abilities:
            gain += SOUL_VALUE * dl * min(1.0, dv)
        if defender.id in self._objective_units:
            gain *= 1.0 + OBJECTIVE_BONUS
        if setup.pincer or any(m.name == "Flank" for m in setup.modifiers):
            gain *= 1.0 + self.style.pincer
        gain *= self.persona.target_weight(defender)
        loss = al * av * self._loss_weight * self.persona.loss_weight(attacker)
        return gain - loss

    # -- acting ---------------------------------------------------------------------------

    def _best_act(self, own: list[Formation]) -> Action | None:
        """The best attack, shot, blast or capture, from where a unit stands or after a move.
        Each formation's scores are kept between decisions while nothing near it changes."""
        engine = self.engine
        state = engine.state
        token = field_token(state, (self.persona.memory(), len(state.fired_events)))
        self.act_cache.refresh(state, token)
        occupancy: dict[Hex, str] | None = None
        zoc: set[Hex] | None = None
        enemies: list[Formation] | None = None
        best: tuple[float, int, Action] | None = None
        salt = 0
        duelled = aimed_duels.marked(self.engine, self.side_id, self.objectives.wound_heroes(state))
        for f in own:
            if self._late():
                break
            candidates = self.act_cache.get(f.id)
            if candidates is None:
                if occupancy is None or zoc is None or enemies is None:
                    occupancy = state.occupancy()
                    zoc = enemy_zoc(state, self.side_id)
                    enemies = [e for e in state.formations.values() if are_enemies(state, self.side_id, e.side)]
                candidates, radius = self._candidates(f, enemies, occupancy, zoc)
                self.act_cache.put(f, radius, candidates)
            here: float | None = None
            aim = self._aim(f, enemies or self._enemies())
            for c in candidates:
                if aim is not None and not self._serves(f, c, aim):
                    continue  # no time left for fights off the way to the aim
                if isinstance(c.action, (Attack, Fire)) and c.action.target in duelled:
                    continue
                score = c.score
                if aim is not None and self._strikes_aim(c, aim):
                    # No time left to wait for a better blow: any blow at the aim is worth striking.
                    score = max(score, AIM_BLOW_SCORE)
                if c.dest is not None and not (aim is not None and self.style.heedless_pursuit):
                    if here is None:
                        here = self.exposure(f, f.pos)
                    score -= max(0.0, self.exposure(f, c.dest) - here) * 0.5
                salt += 1
                score *= self._noise(salt) if score > 0 else 1.0
                if score > 0 and (best is None or score > best[0]):
                    best = (score, salt, c.action)
        if field_token(state, (self.persona.memory(), len(state.fired_events))) != token:
            self.act_cache.clear()  # the general changed his mind while scoring: nothing kept is sure
        return best[2] if best else None

    def _enemies(self) -> list[Formation]:
        state = self.engine.state
        return [e for e in state.formations.values() if are_enemies(state, self.side_id, e.side)]

    def _aim(self, f: Formation, enemies: list[Formation]) -> frozenset[Hex] | None:
        """Where the turns left send ``f`` for the scenario's aims (None: it fights as it likes);
        a formation guarding ground the enemy wins by taking stays on it."""
        slack = self.persona.pursuit_slack(f, self.style.pursuit_slack)
        return None if self.persona.guards_ground(f) else self.objectives.destination(self.engine, f, enemies, slack)

    def _strikes_aim(self, c: Candidate, aim: frozenset[Hex]) -> bool:
        """Whether ``c`` is a blow at an enemy on the aim's ground, or the move to strike one."""
        action = c.action
        if isinstance(action, (Attack, Fire)):
            target = self.engine.state.formations.get(action.target)
            return target is not None and target.pos in aim
        if isinstance(action, Move):
            return c.dest is not None and any(h in aim for h in neighbours(c.dest))
        return False

    def _serves(self, f: Formation, c: Candidate, aim: frozenset[Hex]) -> bool:
        """Whether an action leaves ``f``'s march to the aim it pursues whole: once it has moved,
        anything; before, a strike at an enemy on the aim's ground or a move to strike from next
        to it (any other strike or a capture would hold it where it stands)."""
        return f.moved or self._strikes_aim(c, aim)

    def _candidates(
        self, f: Formation, enemies: list[Formation], occupancy: dict[Hex, str], zoc: set[Hex]
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
        for target_id in engine.attack_targets(f.id):
            target = state.formations[target_id]
            if not self.persona.may_strike(f, target):
                continue
            out.append(Candidate(self.attack_score(f, target) - floor, Attack(unit=f.id, target=target_id)))
        utype = engine.rules.units[f.type]
        for target_id in engine.fire_targets(f.id):
            target = state.formations[target_id]
            out.append(Candidate(self.attack_score(f, target, "fire") - floor, Fire(unit=f.id, target=target_id)))
            if f.charges > 0 and self.persona.may_blast(f):
                out.append(Candidate(self._blast_score(f, target.pos), Blast(unit=f.id, at=target.pos)))
        if utype.ranged > 0:
            radius = max(radius, utype.range + 3)
        role = self.persona.role(f)
        pursuing = self._aim(f, enemies) is not None
        kept = role in ("hold_still", "rear_guard") and not pursuing
        if kept or not engine.can_move(f) or not engine.can_attack(f):
            return out, radius
        reach = max_steps(f, engine.rules)
        if not any(distance(f.pos, e.pos) <= reach + 1 for e in enemies):
            # No enemy in sight is in reach; one that comes within reach changes this.
            return out, max(radius, reach + 3)
        move_map = search_moves(state, engine.board, engine.rules, f, occupancy, zoc)
        extent = max((distance(f.pos, h) for h in move_map.cost), default=0)
        out.extend(self._move_attacks(f, move_map, occupancy, floor, pursuing))
        return out, max(radius, extent + 3)

    def _move_attacks(
        self, f: Formation, move_map: MoveMap, occupancy: dict[Hex, str], floor: float, pursuing: bool = False
    ) -> list[Candidate]:
        """Attacks after one move, from each hex next to an enemy in sight (the view holds only
        formations the side sees); a formation pursuing an aim is not kept to its post."""
        engine = self.engine
        state = engine.state
        allowed = None if pursuing else self.persona.allowed_hexes(f)
        out = []
        for dest in sorted(move_map.destinations):
            if allowed is not None and dest not in allowed:
                continue
            moved: Formation | None = None
            for target in enemies_next_to(state, occupancy, f.side, dest):
                if moved is None:
                    # A rider saved for a charge counts the run-up a move would give it. (Counted for
                    # every rider, it moved other battles' balance far: B2 from 60% to 100%.)
                    run = self._open_run(move_map, dest) if f.id in self.persona.saved else 0
                    moved = f.model_copy(update={"pos": dest, "charge_run": run})
                if not self.persona.may_strike(moved, target):
                    continue
                if engine.board.terrain_at(target.pos).fortress and "siege" not in engine.rules.units[f.type].abilities:
                    continue
                score = self.attack_score(moved, target) * 0.98 - floor
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
        if bag and capacity * (HEMMED_BAG_FACTOR if hemmed(self.engine.state, bag[0]) else 1) >= bag[0].men:
            score += bag[0].men * (self._value(bag[0]) + SOUL_VALUE)
        if self.style.objectives and self.objectives.souls_wanted(self.engine.state) > 0:
            return score * BAG_AIM_WEIGHT  # the battle waits on the pouch: every hand bags
        # A fighter that can still strike prefers to; a soul-catcher's first duty is the bag.
        if self.engine.rules.units[f.type].capture_rate < 1.0:
            score *= 0.5
        return score

    def _rest(self, f: Formation) -> Action | None:
        engine = self.engine
        if f.fatigue < REST_FATIGUE or f.moved or not engine.can_act(f):
            return None
        if self.threat().at(f.pos) > 0 and self.style.exposure > 0:
            return None
        return Rest(unit=f.id)

    # -- moving ---------------------------------------------------------------------------

    def _movement(self, f: Formation, enemies: list[Formation], goals: frozenset[Hex]) -> Move | None:
        aim = self._aim(f, enemies)
        if aim is not None:
            # The turns left leave no time for anything else.
            return self._march(f, aim, None, heedless=self.style.heedless_pursuit)
        target = self.persona.destination(f, enemies, goals)
        if target is None:
            return None
        goal_hexes, keep_within = target
        return self._march(f, goal_hexes, keep_within)

    def _march(
        self, f: Formation, goals: frozenset[Hex], keep_within: frozenset[Hex] | None, heedless: bool = False
    ) -> Move | None:
        """Step toward ``goals`` on good ground, weighing the counter-attack at each stop;
        None when staying put is as good."""
        engine = self.engine
        if not goals:
            return None
        utype = engine.rules.units[f.type]
        field = self._field(utype.move_class, goals)
        weight = 0.0 if heedless else EXPOSURE_COST / max(1.0, f.men * self._value(f))
        # Goals it has no way onto (riders searching mountains): as near as its ground allows.
        near = field.get(f.pos) is None

        def rank(h: Hex) -> float:
            d = 2 * min(distance(h, g) for g in goals) if near else field.get(h)
            if d is None:
                return float(1 << 30)
            risk = weight * self.exposure(f, h) if weight > 0 else 0.0
            return d - engine.board.terrain_at(h).defence / 100.0 + risk

        here = rank(f.pos)
        paced = engine.moves(f.id).destinations
        forced = self.persona.forcing(f) and f.fatigue <= MAX_FATIGUE_TO_FORCE
        best: tuple[float, int, int, Hex] | None = None
        for dest in engine.moves(f.id, forced=True).destinations if forced else paced:
            if keep_within is not None and dest not in keep_within and f.pos in keep_within:
                continue
            r = rank(dest)
            if r >= here - 0.5:
                continue
            key = (r, dest.q, dest.r, dest)
            if best is None or key < best:
                best = key
        # Driven past its pace only where its own pace does not reach.
        return Move(unit=f.id, to=best[3], forced=best[3] not in paced) if best else None

    # -- heroes ---------------------------------------------------------------------------

    def _worth_using(self, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool:
        verdict = self.persona.worth_using(f, use, enemies)
        if verdict is not None:
            return verdict
        return super()._worth_using(f, use, enemies)

    def _hero_action(self, own: list[Formation], enemies: list[Formation]) -> Action | None:
        wanted = self.objectives.wound_heroes(self.engine.state)
        free = [f for f in own if self._may_challenge(f)]
        return super()._hero_action(own, enemies) or aimed_duels.challenge(self.engine, free, wanted)

    def _may_challenge(self, f: Formation) -> bool:
        return self.persona.may_challenge(f)

    def challenges(self, f: Formation) -> list[Challenge]:
        return duel.legal_challenges(self.engine, f.id)


def _objective_units(engine: Engine) -> frozenset[str]:
    """Formations a scenario event waits to see destroyed or routed: worth more to beat."""
    out: set[str] = set()
    for spec in engine.scenario.events:
        when = getattr(spec, "when", None)
        if getattr(when, "kind", None) in ("destroyed", "routed"):
            out.update(getattr(when, "units", ()) or ())
            unit = getattr(when, "unit", None)
            if unit:
                out.add(unit)
    return frozenset(out)


def near(a: Hex, hexes: frozenset[Hex], radius: int) -> bool:
    return any(distance(a, h) <= radius for h in hexes)
