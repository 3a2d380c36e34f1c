"""The one way in for change: ``Engine.apply(action)`` validates, mutates, returns events.

Every handler checks everything first (``order_checks``) and only then mutates, so an illegal
action raises ``IllegalAction`` and leaves the state exactly as it was. The rules themselves live
in their own modules (combat and ``fighting``, morale, souls, vision, skills, duel, triggers, the
start-of-turn ``upkeep``, ``victory``); the engine sequences them.

For search (OpenSpiel's State is the model) the engine also answers, in one place each: the legal
actions and the legal orders of each formation, whether an action is legal, a value of the game for
one side, an exact ``clone`` (it holds the seed, so it rolls the game's own coming dice: for
replays and legality, never for a lookahead) and a ``dice_blind`` copy that rolls dice of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from . import (
    baggage,
    combat,
    duel,
    evaluation,
    legal,
    morale,
    order_checks,
    skill_marks,
    skills,
    souls,
    triggers,
    vision,
)
from .actions import Action, AnswerDuel, Attack, Blast, Capture, Challenge, EndTurn, Fire, Move, Rest, UseSkill
from .board import Board
from .errors import IllegalAction
from .events import Event, GameOver, Moved, Rested, TurnEnded
from .fatigue import (
    ATTACK_FATIGUE,
    DEFEND_FATIGUE,
    FORCED_MARCH_FATIGUE,
    IDLE_FATIGUE,
    MOVE_FATIGUE,
    REST_FATIGUE,
    REST_MORALE,
    tire,
)
from .fighting import resolve
from .game_settings import GameSettings
from .hexgrid import Hex, distance, neighbours
from .initial_state import initial_state
from .movement import MoveMap
from .rng import Rng, random_u64
from .rules import Ruleset
from .scenario import Scenario
from .sides import are_enemies, may_attack
from .state import Formation, GameState, copy_state, state_hash
from .upkeep import start_side_turn
from .victory import decided_at_turn_limit, decided_by_annihilation

# The fatigue numbers live in core.fatigue; they are still named here for the callers that
# read them from the engine (the order buttons).
__all__ = [
    "ATTACK_FATIGUE",
    "DEFEND_FATIGUE",
    "FORCED_MARCH_FATIGUE",
    "IDLE_FATIGUE",
    "MOVE_FATIGUE",
    "REST_FATIGUE",
    "REST_MORALE",
    "Engine",
    "GameSettings",
    "IllegalAction",
    "initial_state",
]

# Mixed into a dice-blind engine's seed, so its dice are never the game's own.
DICE_BLIND_STREAM = 0xB1D_D1CE


class Engine:
    """Holds one game's state and applies actions to it."""

    def __init__(
        self,
        scenario: Scenario,
        rules: Ruleset,
        seed: int,
        settings: GameSettings | None = None,
        state: GameState | None = None,
    ) -> None:
        self.scenario = scenario
        self.rules = rules
        self.board: Board = scenario.board
        self.seed = seed
        self.settings = settings or GameSettings()
        self.state = state if state is not None else initial_state(scenario, rules, self.settings)
        self._handlers: dict[type, Callable[[Any], list[Event]]] = {
            Move: self._move,
            Attack: self._attack,
            Fire: self._fire,
            Blast: self._blast,
            Capture: self._capture,
            Rest: self._rest,
            UseSkill: self._skill,
            Challenge: self._challenge,
            AnswerDuel: self._answer_duel,
            EndTurn: self._end_turn,
        }

    # -- the game as a whole: one way each ------------------------------------------------

    def seeing(self, state: GameState) -> Engine:
        """An engine on ``state`` for the same game (scenario, rules, seed, settings): a side's
        fogged view of the field, for forecasts made on what that side knows. It holds the game's
        seed; a plan that plays moves out looks ahead on ``dice_blind`` instead."""
        return Engine(self.scenario, self.rules, self.seed, self.settings, state=state)

    def clone(self) -> Engine:
        """The game as it stands, on a state of its own (what is done to one changes nothing
        in the other)."""
        return self.seeing(copy_state(self.state))

    def hash(self) -> str:
        """The state's hash: what a record's checkpoints hold."""
        return state_hash(self.state)

    def legal_actions(self, forced_marches: bool = False) -> list[Action]:
        """Every action the deciding side may take now, in a stable order (``legal``)."""
        return legal.legal_actions(self, forced_marches)

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` may be applied now: tried on a clone, so that the rules say it in
        one place (``apply``, which checks everything before it changes anything)."""
        try:
            self.clone().apply(action)
        except IllegalAction:
            return False
        return True

    # -- what a search needs: orders per formation, a value, a lookahead with its own dice --

    def legal_orders(self, unit_id: str, forced_marches: bool = False) -> list[Action]:
        """The legal orders of one formation now (empty if it is not the moving side's, or while
        a challenge to a duel awaits its answer); IllegalAction for an unknown formation."""
        return legal.legal_orders(self, unit_id, forced_marches)

    def legal_orders_by_formation(self, forced_marches: bool = False) -> dict[str, list[Action]]:
        """Formation id -> its legal orders, for each formation of the side to move that has any:
        ``legal_actions`` is these lists one after another, then EndTurn (unless a duel's answer
        is awaited or the game is over, when there are none)."""
        return legal.legal_orders_by_formation(self, forced_marches)

    def value(self, side_id: str) -> float:
        """What the game is worth to ``side_id`` now, finished or not, in [-1, 1]: 1 won, -1 lost,
        0 drawn; an unfinished game by the men each camp still has standing (``evaluation``)."""
        return evaluation.value(self.state, side_id)

    def dice_blind(self, dice_seed: int, state: GameState | None = None) -> Engine:
        """The game for a lookahead that rolls its own dice: on a copy of the state as it stands,
        or on ``state`` (a state of the caller's own, e.g. a side's fogged view, used as it is).
        Its seed is drawn from ``dice_seed``, which the caller chooses, never from the game's seed,
        which it does not hold: what is played on it tells nothing of the game's coming rolls,
        and nothing done to it changes the game."""
        own_seed = random_u64(dice_seed, DICE_BLIND_STREAM, 0) >> 1  # a seed a record could hold
        lookahead = copy_state(self.state) if state is None else state
        return Engine(self.scenario, self.rules, own_seed, self.settings, state=lookahead)

    # -- queries ----------------------------------------------------------------------

    def formation(self, unit_id: str) -> Formation:
        try:
            return self.state.formations[unit_id]
        except KeyError:
            raise IllegalAction("unknown_unit", f"there is no formation {unit_id!r}") from None

    def deciding_side(self) -> str:
        """The side whose action is awaited: the challenged side while a duel is pending."""
        pending = self.state.pending_duel
        if pending is not None and pending.target in self.state.formations:
            return self.state.formations[pending.target].side
        return self.state.active_side.id

    def moves(self, unit_id: str, forced: bool = False) -> MoveMap:
        f = self.formation(unit_id)
        return vision.search_moves_seen(self.state, self.board, self.rules, f, forced=forced)

    def can_move(self, f: Formation) -> bool:
        return (
            not f.moved
            and (not f.acted or skill_marks.MAY_MOVE_AFTER_ATTACK in f.effects)
            and not f.routed
            and f.side == self.state.active_side.id
            and self.state.pending_duel is None
            and f.group not in self.state.side(f.side).held_groups
            and not duel.in_duel(f)
            and skill_marks.HALTED not in f.effects
        )

    def can_act(self, f: Formation) -> bool:
        return (
            not f.acted
            and not f.routed
            and f.side == self.state.active_side.id
            and self.state.pending_duel is None
            and f.group not in self.state.side(f.side).held_groups
        )

    def can_attack(self, f: Formation) -> bool:
        return self.can_act(f) and "no_line_combat" not in self.rules.units[f.type].abilities and not duel.in_duel(f)

    def attack_targets(self, unit_id: str) -> list[str]:
        """Formations this unit may attack in melee from where it stands (as its side sees them)."""
        f = self.formation(unit_id)
        if not self.can_attack(f):
            return []
        around = set(neighbours(f.pos))
        adjacent = sorted((e for e in self.state.formations.values() if e.pos in around), key=lambda x: x.id)
        return [
            e.id
            for e in adjacent
            if order_checks.visible_target(self, f, e)
            and may_attack(self.state, f.side, e.side)
            and order_checks.may_assault(self, f, e)
            and not duel.in_duel(e)
        ]

    def fire_targets(self, unit_id: str) -> list[str]:
        f = self.formation(unit_id)
        utype = self.rules.units[f.type]
        if (
            not self.can_act(f)
            or utype.ranged <= 0
            or f.ammo == 0
            or skill_marks.DOWNHILL in f.effects
            or duel.in_duel(f)
        ):
            return []
        in_range = sorted(
            (e for e in self.state.formations.values() if 1 <= distance(f.pos, e.pos) <= utype.range),
            key=lambda x: x.id,
        )
        return [
            e.id
            for e in in_range
            if are_enemies(self.state, f.side, e.side)
            and order_checks.visible_target(self, f, e)
            and not duel.in_duel(e)
        ]

    def can_capture(self, f: Formation) -> bool:
        if not self.can_act(f) or self.rules.units[f.type].capture_rate <= 0:
            return False
        # The souls about are asked first: with some there, the bag need not be looked at.
        return souls.souls_near(self.state, f) > 0 or bool(souls.soul_bag(self.state, self.rules, f))

    def forecast(self, action: Attack | Fire) -> combat.Forecast:
        if isinstance(action, Fire):
            attacker, defender = order_checks.check_fire(self, action)
            mode: combat.Mode = "fire"
        else:
            attacker, defender = order_checks.check_attack(self, action)
            mode = "melee"
        return combat.forecast_from(combat.setup_attack(self.state, self.board, self.rules, attacker, defender, mode))

    def blast_forecast(self, action: Blast) -> list[tuple[str, combat.Forecast]]:
        """The odds of a palm thunder on each formation it would strike (IllegalAction as the
        blast itself would raise it)."""
        f, targets = order_checks.check_blast(self, action)
        return [
            (t.id, combat.forecast_from(combat.setup_attack(self.state, self.board, self.rules, f, t, "blast")))
            for t in targets
        ]

    # -- applying actions -------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        if self.state.over:
            raise IllegalAction("game_over", "the game is over")
        if self.state.pending_duel is not None and not isinstance(action, AnswerDuel):
            raise IllegalAction("duel_pending", "a challenge to a duel awaits its answer")
        handler = self._handlers.get(type(action))
        if handler is None:  # pragma: no cover - the union is closed
            raise IllegalAction("unknown_action", f"unknown action {action!r}")
        events = handler(action)
        self.state.action_index += 1
        if not self.state.over:
            events.extend(triggers.after_action(self, events))
        events.extend(self._check_victory())
        return events

    def apply_all(self, actions: Sequence[Action]) -> list[Event]:
        events: list[Event] = []
        for a in actions:
            events.extend(self.apply(a))
        return events

    def rng(self) -> Rng:
        """The random stream of the action being applied."""
        return Rng(self.seed, self.state.action_index)

    # -- shared checks ----------------------------------------------------------------

    # Move ----------------------------------------------------------------------------

    def _move(self, action: Move) -> list[Event]:
        f, path, seen = order_checks.check_move(self, action)
        walked, events = vision.walk(self.state, self.board, self.rules, f, path, seen)
        f.pos = walked[-1]
        f.moved = True
        f.forced = action.forced
        f.charge_run = self._open_run(walked)
        # A forced column (Guo Yaoshi) marches hard at the cost of an ordinary move.
        hard = action.forced and skill_marks.FORCED_COLUMN not in f.effects
        tire(self.rules, f, FORCED_MARCH_FATIGUE if hard else MOVE_FATIGUE)
        moved = Moved(unit=f.id, path=tuple(walked), forced=action.forced, interrupted=walked[-1] != path[-1])
        events = [moved, *events]
        events += self._loot(f)
        events += vision.refresh_explored(self.state, self.board, self.rules, f.side)
        return events

    def _open_run(self, path: list[Hex]) -> int:
        """Hexes of open ground crossed at the end of the path (the run-up of a charge)."""
        run = 0
        for h in reversed(path[1:]):
            if not self.board.terrain_at(h).open:
                break
            run += 1
        return run

    def _loot(self, f: Formation) -> list[Event]:
        """Undisciplined troops stop on the enemy's abandoned baggage to loot it (game.core.baggage)."""
        return baggage.loot(self.state, self.rules, f)

    # Attack, fire, blast -------------------------------------------------------------

    def _attack(self, action: Attack) -> list[Event]:
        attacker, defender = order_checks.check_attack(self, action)
        return self._resolve(attacker, defender, "melee")

    def _fire(self, action: Fire) -> list[Event]:
        attacker, defender = order_checks.check_fire(self, action)
        if attacker.ammo is not None:
            attacker.ammo -= 1
        return self._resolve(attacker, defender, "fire")

    def _blast(self, action: Blast) -> list[Event]:
        f, targets = order_checks.check_blast(self, action)
        f.charges -= 1
        events: list[Event] = []
        for target in targets:
            if target.id in self.state.formations and f.id in self.state.formations:
                events += self._resolve(f, target, "blast", spend_action=False)
        f.acted = True
        f.moved = True
        return events + morale.check_routs(self.state, self.rules)

    def strike(self, attacker: Formation, defender: Formation) -> list[Event]:
        """A melee blow a skill has already cleared (a charge down Han Xin's lane)."""
        return self._resolve(attacker, defender, "melee")

    def _resolve(
        self, attacker: Formation, defender: Formation, mode: combat.Mode, spend_action: bool = True
    ) -> list[Event]:
        return resolve(self, attacker, defender, mode, spend_action)

    # Capture and rest ----------------------------------------------------------------

    def _capture(self, action: Capture) -> list[Event]:
        f = order_checks.own_ready(self, action.unit)
        if self.rules.units[f.type].capture_rate <= 0:
            raise IllegalAction("cannot_capture", f"{f.id} cannot capture souls")
        souls_near, bag = souls.capturable(self.state, self.rules, f)
        if souls_near <= 0 and not bag:
            raise IllegalAction("no_souls", f"there are no enemy souls within reach of {f.id}")
        f.acted = True
        f.moved = True
        return souls.capture(self.state, self.rules, f)

    def _rest(self, action: Rest) -> list[Event]:
        f = order_checks.own_ready(self, action.unit)
        if f.moved:
            raise IllegalAction("already_moved", f"{f.id} has moved and cannot rest this turn")
        f.acted = True
        f.moved = True
        f.fatigue = max(0, f.fatigue - REST_FATIGUE)
        return [Rested(unit=f.id), *morale.change_morale(self.rules, f, REST_MORALE, "Rest")]

    # Skills and duels ----------------------------------------------------------------

    def _skill(self, action: UseSkill) -> list[Event]:
        f = order_checks.own_ready(self, action.unit)
        skills.check(self, f, action)
        return skills.apply(self, f, action)

    def _challenge(self, action: Challenge) -> list[Event]:
        f = order_checks.own_ready(self, action.unit)
        target = order_checks.seen_target(self, f, action.target)
        duel.check_challenge(self, f, target)
        return duel.challenge(self, f, target)

    def _answer_duel(self, action: AnswerDuel) -> list[Event]:
        if self.state.pending_duel is None:
            raise IllegalAction("no_duel", "no challenge awaits an answer")
        return duel.answer(self, action.accept)

    # End turn ------------------------------------------------------------------------

    def _end_turn(self, action: EndTurn) -> list[Event]:
        state = self.state
        ending = state.active_side
        state.active = (state.active + 1) % len(state.sides)
        if state.active == 0:
            if state.turn >= state.turn_limit:
                ended: list[Event] = [TurnEnded(side=ending.id, next_side=ending.id, turn=state.turn)]
                # Duels the scenario has fought out at dusk end first, and may end the battle.
                dusk = duel.fight_out(self)
                if dusk:
                    ended += dusk + triggers.after_action(self, dusk)
                    if state.over:
                        return ended
                return ended + self._finish(*decided_at_turn_limit(state, self.scenario))
            state.turn += 1
        nxt = state.active_side
        events: list[Event] = [TurnEnded(side=ending.id, next_side=nxt.id, turn=state.turn)]
        events += start_side_turn(self, nxt.id)
        return events

    # Victory -------------------------------------------------------------------------

    def _check_victory(self) -> list[Event]:
        if self.state.over:
            return []
        decision = decided_by_annihilation(self.state)
        return [] if decision is None else self._finish(*decision)

    def finish(self, winner: str | None, reason: str) -> list[Event]:
        """End the game now (scenario events call this for victory and defeat)."""
        return self._finish(winner, reason)

    def _finish(self, winner: str | None, reason: str) -> list[Event]:
        self.state.over = True
        self.state.winner = winner
        self.state.end_reason = reason
        return [GameOver(winner=winner, reason=reason)]
