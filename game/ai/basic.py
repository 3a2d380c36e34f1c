"""The first computer general: fight where the forecast favours it, else advance or hold.

One action per call, re-evaluated from the current state every time, so what the AI does is
always legal for the state it sees and the UI can show it move by move. It plans on its side's
view of the game (``SideView.state``, the one the screens read): what it cannot see, it does not know.
"""

from __future__ import annotations

import zlib

from ..core import combat, duel, skills, souls, vision
from ..core.actions import Action, AnswerDuel, Attack, Capture, Challenge, EndTurn, Move, UseSkill
from ..core.engine import Engine
from ..core.hexgrid import Hex, distance, neighbours
from ..core.movement import are_enemies, enemy_zoc, search_moves
from ..core.skill_kinds import SKILLS
from ..core.state import Formation, GameState
from ..view.side_view import SideView
from .distance_field import CostField

# Extra worth of wiping a formation out rather than just bleeding it.
DESTROY_BONUS = 0.5
# Capture rate from which a unit type is a soul-catcher first and a fighter second.
CATCHER_RATE = 1.0
# Duels: accept unless the challenger's martial skill is this much higher; challenge only when
# ours is at least this much higher.
ACCEPT_MARGIN = 5
CHALLENGE_MARGIN = 10
# Mixed into the seed of the dice a general imagines when it looks ahead.
LOOKAHEAD_DICE = 0x100C_A4EAD


def enemies_next_to(state: GameState, occupancy: dict[Hex, str], side_id: str, at: Hex) -> list[Formation]:
    """The formations at war with ``side_id`` on the hexes around ``at`` (``occupancy``: hex ->
    formation id), in the order of ``neighbours``."""
    around = (occupancy.get(n) for n in neighbours(at))
    return [
        state.formations[fid]
        for fid in around
        if fid is not None and are_enemies(state, side_id, state.formations[fid].side)
    ]


class BasicAI:
    def __init__(self, engine: Engine, side_id: str, difficulty: str = "normal") -> None:
        self.game = engine
        self.side_id = side_id
        self.difficulty = difficulty
        self._view: Engine | None = None
        self._holding: set[str] = set()
        self._turn_key: tuple[int, int] | None = None
        self._fields: dict[tuple[str, frozenset[Hex]], CostField] = {}
        self._used: set[tuple[str, str]] = set()
        # The lane charge chosen for a formation in one state: (key, target id).
        self._lane_pick: tuple[tuple[str, int, int, frozenset[str] | None], str | None] | None = None
        # The seed of the dice it imagines: its side's own, unrelated to the game's seed.
        self.dice_seed = LOOKAHEAD_DICE ^ zlib.crc32(side_id.encode())

    @property
    def engine(self) -> Engine:
        """The game as this side knows it: a fogged copy with dice of its own (``Engine.dice_blind``),
        rebuilt for every decision. What is chosen on it is legal in the real game, where moves and
        targets are also worked out from what the side sees."""
        if self._view is None:
            game = self.game
            view = SideView(game.state, game.board, game.rules, self.side_id).state
            # Its own dice: whatever it tries on the view, it learns nothing of the game's rolls.
            self._view = game.dice_blind(self.dice_seed, state=view)
        return self._view

    # -- public ---------------------------------------------------------------------------

    def next_action(self, deadline: float | None = None) -> Action:
        """The next action for this side; EndTurn when it has nothing better to do. (This simple
        general is always quick, so it ignores the ``deadline``.)"""
        self._view = None
        engine = self.engine
        state = engine.state
        if state.pending_duel is not None and not state.over and engine.deciding_side() == self.side_id:
            return self._answer_duel()
        if state.over or state.active_side.id != self.side_id:
            return EndTurn()
        if self._turn_key != (state.turn, state.active):
            self._turn_key = (state.turn, state.active)
            self._holding.clear()
            self._used.clear()
        held = state.active_side.held_groups  # they wait for a scenario event to release them
        own = [f for f in state.formations_of(self.side_id) if f.id not in self._holding and f.group not in held]
        if state.active_side.role == "neutral":
            # A neutral side never marches out: it strikes, from where it stands, only at those
            # who attacked it, and otherwise waits.
            return self._best_attack(own, stand_only=True) or EndTurn()
        enemies = [f for f in state.formations.values() if are_enemies(state, self.side_id, f.side)]
        goals = self._goals(enemies)
        if not goals:
            return EndTurn()
        heroic = self._hero_action(own, enemies)
        if heroic is not None:
            return heroic
        capture = self._capture(own, specialists_only=True)
        if capture is not None:
            return capture
        best = self._best_attack(own)
        if best is not None:
            return best
        capture = self._capture(own, specialists_only=False)
        if capture is not None:
            return capture
        for f in own:
            if engine.can_move(f):
                move = self._advance(f, enemies, goals)
                if move is not None:
                    return move
            self._holding.add(f.id)
        return EndTurn()

    # -- heroes ---------------------------------------------------------------------------

    def _answer_duel(self) -> AnswerDuel:
        """Accept a challenge unless the challenger is clearly the better fighter."""
        state = self.engine.state
        pending = state.pending_duel
        assert pending is not None
        rules = self.engine.rules
        challenger = self.game.state.formations.get(pending.challenger)
        ours = state.formations.get(pending.target)
        if challenger is None or ours is None or challenger.hero is None or ours.hero is None:
            return AnswerDuel(accept=True)
        gap = rules.heroes[challenger.hero].martial - rules.heroes[ours.hero].martial
        return AnswerDuel(accept=gap <= ACCEPT_MARGIN)

    def _hero_action(self, own: list[Formation], enemies: list[Formation]) -> Action | None:
        """A duel already fought is pressed first (``presses_first``), then signature skills where
        a simple rule says they pay, then favourable challenges."""
        engine = self.engine
        if self.presses_first:
            pressed = self._press_duel(own)
            if pressed is not None:
                return pressed
        for f in own:
            for use in skills.legal_uses(engine, f.id):
                if (f.id, use.skill) not in self._used and self._worth_using(f, use, enemies):
                    self._used.add((f.id, use.skill))
                    return use
        rules = engine.rules
        for f in own:
            if f.hero is None or duel.in_duel(f) or not self._may_challenge(f):
                continue
            for challenge in duel.legal_challenges(engine, f.id):
                target = engine.state.formations[challenge.target]
                assert target.hero is not None
                if rules.heroes[f.hero].martial - rules.heroes[target.hero].martial >= CHALLENGE_MARGIN:
                    return challenge
        return None

    # Whether a duel in progress is pressed before anything else is done in the turn.
    presses_first = True

    def _press_duel(self, own: list[Formation]) -> Challenge | None:
        """The next exchange of a duel one of ``own`` fights, if it is worth pressing now."""
        for f in own:
            if duel.in_duel(f):
                pressing = duel.legal_challenges(self.engine, f.id)
                if pressing and self._worth_pressing(f, pressing[0]):
                    return pressing[0]
        return None

    def _worth_pressing(self, f: Formation, press: Challenge) -> bool:
        return True

    def _may_challenge(self, f: Formation) -> bool:
        """Whether ``f``'s hero may stop to offer a duel (a general with orders may forbid it)."""
        return True

    def _worth_using(self, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool:
        """Where a simple rule says the skill pays: each skill kind gives its own (its hint)."""
        return SKILLS.get(self.engine.rules.skills[use.skill].effect).hint(self, f, use, enemies)

    def lane_target(self, f: Formation, skill_id: str, among: frozenset[str] | None = None) -> str | None:
        """The enemy formation a charge down an opened lane hurts most for what it costs, if
        any such charge pays; with ``among``, only those formations are weighed (worked out once
        per state: every target asks)."""
        engine = self.engine
        key = (f.id, engine.state.action_index, engine.state.active, among)
        if self._lane_pick is not None and self._lane_pick[0] == key:
            return self._lane_pick[1]
        best: tuple[float, str] | None = None
        for use in skills.targets(engine, f, skill_id):
            if among is not None and use.target not in among:
                continue
            fc = skills.lane_forecast(engine, f, use)
            if fc is None or use.target is None:
                continue
            target = engine.state.formations[use.target]
            gain = fc.defender_losses[1] * self._value(target) * (1 + fc.rout_chance / 100.0)
            score = gain - fc.attacker_losses[1] * self._value(f)
            if score > 0 and (best is None or score > best[0]):
                best = (score, use.target)
        self._lane_pick = (key, best[1] if best else None)
        return self._lane_pick[1]

    # -- souls ----------------------------------------------------------------------------

    def _capture(self, own: list[Formation], specialists_only: bool) -> Action | None:
        """Bag souls within reach: soul-catchers (retainers) before anything else, fighting
        troops only when they have nothing better to do."""
        engine = self.engine
        for f in own:
            rate = engine.rules.units[f.type].capture_rate
            if specialists_only and rate < CATCHER_RATE and not self._bags_a_formation(f):
                continue
            if engine.can_capture(f):
                return Capture(unit=f.id)
        return None

    def _bags_a_formation(self, f: Formation) -> bool:
        """A routed soul formation next to ``f`` that its capture would take whole: no fight is
        as cheap as that."""
        _souls, bag = souls.capturable(self.engine.state, self.engine.rules, f)
        return bool(bag) and souls.capture_capacity(self.engine.rules, f) >= bag[0].men

    # -- attacks --------------------------------------------------------------------------

    def _value(self, f: Formation) -> float:
        return self.engine.rules.units[f.type].melee

    def _score(self, attacker: Formation, defender: Formation) -> float:
        engine = self.engine
        setup = combat.setup_attack(engine.state, engine.board, engine.rules, attacker, defender)
        fc = combat.forecast_from(setup)
        score = fc.defender_losses[1] * self._value(defender) - fc.attacker_losses[1] * self._value(attacker)
        if fc.defender_losses[1] >= defender.men:
            score += DESTROY_BONUS * defender.men * self._value(defender)
        return score

    def _best_attack(self, own: list[Formation], stand_only: bool = False) -> Action | None:
        """The most favourable attack, from where a unit stands or (unless ``stand_only``)
        after one move. Only sides at war are attacked: a neutral at peace is left alone."""
        engine = self.engine
        state = engine.state
        occupancy = state.occupancy()
        zoc = enemy_zoc(state, self.side_id)
        best: tuple[float, Action] | None = None
        for f in own:
            if not engine.can_attack(f):
                continue
            # From where it stands.
            for target_id in engine.attack_targets(f.id):
                if not are_enemies(state, f.side, state.formations[target_id].side):
                    continue
                s = self._score(f, state.formations[target_id])
                if s > 0 and (best is None or s > best[0]):
                    best = (s, Attack(unit=f.id, target=target_id))
            if stand_only or not engine.can_move(f):
                continue
            move_map = search_moves(state, engine.board, engine.rules, f, occupancy, zoc)
            for dest in sorted(move_map.destinations):
                for target in enemies_next_to(state, occupancy, f.side, dest):
                    moved = f.model_copy(update={"pos": dest})
                    # A small preference for not moving: an attack from here loses nothing.
                    s = self._score(moved, target) * 0.98
                    if s > 0 and (best is None or s > best[0]):
                        best = (s, Move(unit=f.id, to=dest))
        return best[1] if best else None

    # -- movement -------------------------------------------------------------------------

    def _goals(self, enemies: list[Formation]) -> frozenset[Hex]:
        """Where to advance: the enemies in sight; with none in sight, where the scenario
        deployed enemies in the open (hexes out of sight now), then ground not yet explored."""
        if enemies:
            return frozenset(e.pos for e in enemies)
        engine = self.engine
        state = engine.state
        seen = vision.visible_hexes(state, engine.board, engine.rules, self.side_id)
        deployed = frozenset(
            spec.pos
            for spec in engine.scenario.formations
            if not spec.hidden and spec.pos not in seen and are_enemies(state, self.side_id, spec.side)
        )
        if deployed:
            return deployed
        explored = set(state.side(self.side_id).explored)
        return frozenset(h for h in engine.board.hexes() if h.key() not in explored)

    def _field(self, move_class: str, goals: frozenset[Hex]) -> CostField:
        key = (move_class, goals)
        if key not in self._fields:
            if len(self._fields) > 8:
                self._fields.clear()
            self._fields[key] = CostField(self.engine.board, move_class, goals)
        return self._fields[key]

    def _advance(self, f: Formation, enemies: list[Formation], goals: frozenset[Hex]) -> Move | None:
        """Close on the enemy, preferring good ground; None means hold where it is."""
        engine = self.engine
        if any(distance(f.pos, e.pos) == 1 for e in enemies):
            return None  # in contact and no good attack: hold the line
        utype = engine.rules.units[f.type]
        field = self._field(utype.move_class, goals)
        here = field.get(f.pos, 1 << 30)
        move_map = engine.moves(f.id)
        board = engine.board
        best: tuple[tuple[int, int, int, int], Hex] | None = None
        for dest in move_map.destinations:
            d = field.get(dest)
            if d is None or d >= here:
                continue
            rank = (d, -board.terrain_at(dest).defence, dest.q, dest.r)
            if best is None or rank < best[0]:
                best = (rank, dest)
        return Move(unit=f.id, to=best[1]) if best else None
