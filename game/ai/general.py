"""The computer general: a tactical core shared by every side, with faction behaviour on top.

Every call scores candidate actions on the side's fogged view (``SideView.state``) and returns
the best; the state is re-read after each action, so plans adapt to what just happened. Scores
are in "men-value": men times their melee power per man. An attack is worth the enemy's expected
losses, the chance it routs, its souls and any scenario objective it serves, less our own losses
and the counter-attack the threat map says we walk into (``game.ai.striking`` scores them). Faction
behaviour (game.ai.personality) then decides roles: who holds, who hides, who flees, who seeks whom.
"""

from __future__ import annotations

import math
import time
import zlib

from ..core import duel
from ..core.actions import Action, AnswerDuel, Attack, Challenge, EndTurn, Fire, Move, Rest, UseSkill
from ..core.engine import Engine
from ..core.hexgrid import Hex, distance, neighbours
from ..core.movement import MAX_FATIGUE_TO_FORCE, enemy_zoc, max_steps
from ..core.rng import Rng
from ..core.sides import enemy_sides
from ..core.state import Formation, GameState
from . import aimed_duels, personality
from .act_cache import ActCache, Candidate, field_token
from .objectives import Objectives
from .striking import Striker, fronts_of
from .styles import STYLES
from .threat import Sighting, ThreatMap

# Movement points that losing a whole formation to counter-attack is worth when advancing.
EXPOSURE_COST = 30.0
# The least a blow at an enemy the turns left make it pursue is worth: struck even at a loss.
AIM_BLOW_SCORE = 1.0
# The least chance of our hero wounding the other alone for which a side the last turn favours
# still presses a duel in its last turns.
WAITING_DUEL_ODDS = 0.5
# Fatigue from which an idle formation out of danger rests.
REST_FATIGUE = 50
# Stream offset for the easy general's noise, so it never shares draws with the game.
NOISE_STREAM = 1 << 40


class General(Striker):
    def __init__(self, engine: Engine, side_id: str, difficulty: str = "normal", keep_scores: bool = True) -> None:
        super().__init__(engine, side_id, difficulty)
        self.style = STYLES.get(difficulty, STYLES["normal"])
        faction = engine.state.side(side_id).faction
        self.persona = personality.for_faction(faction, self)
        self._deadline: float | None = None
        self._threat_key: tuple[Sighting, ...] | None = None
        self._threat: ThreatMap | None = None
        self._threat_state: GameState | None = None
        self._sighted: dict[str, Sighting] = {}
        self._sighted_turn: tuple[int, int] | None = None
        self._objective_units = _objective_units(engine)
        self._spared_state: GameState | None = None
        self._spared: frozenset[Hex] = frozenset()
        self._move_maps = {}
        self.objectives = Objectives(engine, side_id)
        # Enemy formations whose hero refused a challenge of ours: an opponent that will not fight
        # the duel the scenario asks for is struck instead (destroying his formation takes him
        # too), rather than spared for a duel that never comes.
        self._refused: set[str] = set()
        self._challenged: str | None = None
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
        self._note_refusal()
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
        enemies = self._enemies()
        self.persona.observe(state, enemies)
        goals = self._goals(enemies)
        if not goals:
            return EndTurn()
        special = self.persona.special_action(own, enemies)
        if special is not None:
            return special
        heroic = self._hero_action(own, enemies)
        if heroic is not None:
            self._challenged = heroic.target if isinstance(heroic, Challenge) else None
            return heroic
        best = self._best_act(own)
        if best is not None:
            return best
        for f in own:
            if self._late():
                break
            if duel.in_duel(f):
                continue  # its next exchange comes last, once friends have closed round it
            if engine.can_move(f):
                move = self._movement(f, enemies, goals)
                if move is not None:
                    return move
            rest = self._rest(f)
            self._holding.add(f.id)
            if rest is not None:
                return rest
        return self._press_duel(own) or EndTurn()

    def _note_refusal(self) -> None:
        """After a challenge of ours: answered, and no duel under way, it was refused."""
        target = self._challenged
        if target is None or self.game.state.pending_duel is not None:
            return
        self._challenged = None
        f = self.game.state.formations.get(target)
        if f is not None and not duel.in_duel(f):
            self._refused.add(target)

    # -- time -----------------------------------------------------------------------------

    def _late(self) -> bool:
        return self._deadline is not None and time.perf_counter() >= self._deadline

    # -- duels ----------------------------------------------------------------------------

    # A duel in progress is pressed last in the turn: every friend that closes round it first
    # adds to the hero's score (duel.support).
    presses_first = False

    def _worth_pressing(self, f: Formation, press: Challenge) -> bool:
        """Whether to fight the next exchange now or let a duel going badly lapse (a duel neither
        side presses for a whole turn is broken off, and the blows landed with it): pressed on
        unless starting afresh would give our hero better odds, or when too few turns are left
        to fight another."""
        if self.waits_out_the_duel(f, press):
            return False
        opp = self.engine.state.formations.get(press.target)
        return opp is None or self._duel_time_short() or aimed_duels.worth_pressing(self.engine, f, opp)

    def waits_out_the_duel(self, f: Formation, press: Challenge) -> bool:
        """Whether to let a duel lapse rather than fight its next exchange because the last turns
        are ours to wait out and the duel is no likelier won than not (B3's Jin, pressing a duel
        to its end on the last turns, lost battles the turn limit would have given them)."""
        opp = self.engine.state.formations.get(press.target)
        if opp is None or not self.objectives.time_is_ours or not self._duel_time_short():
            return False
        return duel.current_odds(self.engine, f, opp)[0] <= WAITING_DUEL_ODDS

    def _duel_time_short(self) -> bool:
        """Whether fewer turns are left than a duel takes: any duel is better than none."""
        return self.objectives.deadline - self.engine.state.turn + 1 <= duel.WINS_NEEDED

    def _answer_duel(self) -> AnswerDuel:
        answer = AnswerDuel(accept=True) if self._refusal_loses() else self.persona.answer_duel()
        if answer is None:
            answer = super()._answer_duel()
        self.persona.answered(answer.accept)
        return answer

    def _refusal_loses(self) -> bool:
        """Whether turning down the challenge we must answer would lose us the battle."""
        state = self.game.state
        pending = state.pending_duel
        assert pending is not None
        target, challenger = state.formations.get(pending.target), state.formations.get(pending.challenger)
        if target is None or target.hero is None:
            return False
        return self.objectives.refusal_loses(self.engine, target.hero, challenger.hero if challenger else None)

    # -- values ---------------------------------------------------------------------------

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
        fronts: frozenset[Hex] = frozenset()
        best: tuple[float, int, Action] | None = None
        salt = 0
        duelled = aimed_duels.marked(self.engine, self.side_id, self.objectives.wound_heroes(state)) - self._refused
        for f in own:
            if self._late():
                break
            candidates = self.act_cache.get(f.id)
            if candidates is None:
                if occupancy is None or zoc is None or enemies is None:
                    occupancy = state.occupancy()
                    zoc = enemy_zoc(state, self.side_id)
                    enemies = self._enemies()
                    fronts = fronts_of(state, occupancy, self.side_id)
                candidates, radius = self._candidates(f, enemies, occupancy, zoc, fronts)
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
        foes = enemy_sides(state, self.side_id)
        return [e for e in state.formations.values() if e.side in foes]

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

        def rank(h: Hex, within: int = 1 << 30) -> float:
            d = 2 * min(distance(h, g) for g in goals) if near else field.get_within(h, within)
            if d is None:
                return float(1 << 30)
            risk = weight * self.exposure(f, h) if weight > 0 else 0.0
            return d - engine.board.terrain_at(h).defence / 100.0 + risk

        here = rank(f.pos)
        paced = self._paced(f)
        forced = self.persona.forcing(f) and f.fatigue <= MAX_FATIGUE_TO_FORCE
        # A stop farther from the goals than this cannot rank half a step better than staying,
        # whatever its ground (risk only adds): the field is not searched that far for it.
        best_ground = max([0, *(t.defence for t in engine.rules.terrain.values())]) / 100.0
        within = math.ceil(here - 0.5 + best_ground) + 1 if here < 1 << 29 else 1 << 30
        best: tuple[float, int, int, Hex] | None = None
        for dest in engine.moves(f.id, forced=True).destinations if forced else paced:
            if keep_within is not None and dest not in keep_within and f.pos in keep_within:
                continue
            r = rank(dest, within)
            if r >= here - 0.5:
                continue
            key = (r, dest.q, dest.r, dest)
            if best is None or key < best:
                best = key
        # Driven past its pace only where its own pace does not reach.
        return Move(unit=f.id, to=best[3], forced=best[3] not in paced) if best else None

    def _paced(self, f: Formation) -> frozenset[Hex]:
        """``engine.moves(f.id).destinations``: the view holds only formations the side sees, so
        the engine's search (by what the side sees) is the one ``_moves`` keeps."""
        state = self.engine.state
        reach = max_steps(f, self.engine.rules)
        return self._moves(f, reach, state.occupancy(), enemy_zoc(state, self.side_id))[0].destinations

    # -- heroes ---------------------------------------------------------------------------

    def _worth_using(self, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool:
        verdict = self.persona.worth_using(f, use, enemies)
        if verdict is not None:
            return verdict
        return super()._worth_using(f, use, enemies)

    def _hero_action(self, own: list[Formation], enemies: list[Formation]) -> Action | None:
        wanted = self.objectives.wound_heroes(self.engine.state)
        free = [f for f in own if self._may_challenge(f)]
        risk = 1.0 if self._duel_time_short() else aimed_duels.CHALLENGE_RISK
        return super()._hero_action(own, enemies) or aimed_duels.challenge(self.engine, free, wanted, risk)

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
