"""The one way in for change: ``Engine.apply(action)`` validates, mutates, returns events.

Every handler checks everything first and only then mutates, so an illegal action raises
``IllegalAction`` and leaves the state exactly as it was. The rules themselves live in their
own modules (combat, morale, souls, vision, skills, duel, triggers); the engine sequences them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from . import baggage, combat, duel, legal, morale, skill_marks, skills, souls, triggers, vision
from .actions import Action, AnswerDuel, Attack, Blast, Capture, Challenge, EndTurn, Fire, Move, Rest, UseSkill
from .board import Board
from .campaign import carry_in, carry_key, place_raised
from .errors import IllegalAction
from .events import Attacked, Event, GameOver, Moved, Rested, SideJoined, TurnEnded
from .game_settings import GameSettings
from .hexgrid import Hex, distance, neighbours
from .movement import MAX_FATIGUE_TO_FORCE, MoveMap
from .rng import Rng
from .rules import MAX_EXPERIENCE, Ruleset
from .scenario import OUTCOME_ATTRITION, OUTCOME_DRAW, Scenario
from .sides import are_allied, are_enemies, may_attack
from .state import Formation, GameState, SideState, copy_state, state_hash

__all__ = ["Engine", "GameSettings", "IllegalAction", "initial_state"]

# Fatigue: gained by moving (forced march far more), fighting and being attacked; lost by resting.
MOVE_FATIGUE = 4
FORCED_MARCH_FATIGUE = 20
ATTACK_FATIGUE = 8
DEFEND_FATIGUE = 4
REST_FATIGUE = 30
IDLE_FATIGUE = 15  # recovered at turn start by a formation that neither moved nor acted
REST_MORALE = 10
# Experience is capped so veterans stay mortal.


def initial_state(scenario: Scenario, rules: Ruleset, settings: GameSettings) -> GameState:
    formations: dict[str, Formation] = {}
    for spec in scenario.formations:
        formations[spec.id] = vision.new_formation(spec, rules)
        if settings.roster is not None:
            carry_in(formations[spec.id], carry_key(spec.hero, spec.id), settings.roster)
    if settings.roster is not None:
        place_raised(formations, scenario.board, rules, settings.roster)
    sides = [
        SideState(
            id=s.id,
            faction=s.faction,
            role=s.role,
            men_start=sum(f.men for f in formations.values() if f.side == s.id),
            allies=list(s.allies),
            held_groups=list(s.held_groups),
            gates=s.gates,
        )
        for s in scenario.sides
    ]
    turn_limit = scenario.turn_limit
    if settings.max_turns is not None:
        turn_limit = min(turn_limit, settings.max_turns)
    state = GameState(
        scenario_id=scenario.id,
        turn_limit=turn_limit,
        sides=sides,
        formations=formations,
        objectives={o.id: "open" for o in scenario.objective_specs},
    )
    for s in sides:
        vision.refresh_explored(state, scenario.board, rules, s.id)
    return state


def attrition_shares(state: GameState) -> dict[str, float]:
    """Fighting (non-neutral) side -> the share of its enemies' starting men they no longer have:
    what the "attrition" rule compares when the last turn ends."""
    fighting = [s for s in state.sides if s.role != "neutral"]
    shares: dict[str, float] = {}
    for side in fighting:
        enemies = [s for s in fighting if are_enemies(state, side.id, s.id)]
        start = sum(s.men_start for s in enemies)
        lost = sum(s.men_start - state.men_of(s.id) for s in enemies)
        shares[side.id] = lost / start if start else 0.0
    return shares


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
        fogged view of the field, for forecasts and plans made on what that side knows."""
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
            if self._visible_target(f, e)
            and may_attack(self.state, f.side, e.side)
            and self._may_assault(f, e)
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
            if are_enemies(self.state, f.side, e.side) and self._visible_target(f, e) and not duel.in_duel(e)
        ]

    def can_capture(self, f: Formation) -> bool:
        if not self.can_act(f) or self.rules.units[f.type].capture_rate <= 0:
            return False
        souls_near, bag = souls.capturable(self.state, self.rules, f)
        return souls_near > 0 or bool(bag)

    def forecast(self, action: Attack | Fire) -> combat.Forecast:
        if isinstance(action, Fire):
            attacker, defender = self._check_fire(action)
            mode: combat.Mode = "fire"
        else:
            attacker, defender = self._check_attack(action)
            mode = "melee"
        return combat.forecast_from(combat.setup_attack(self.state, self.board, self.rules, attacker, defender, mode))

    def blast_forecast(self, action: Blast) -> list[tuple[str, combat.Forecast]]:
        """The odds of a palm thunder on each formation it would strike (IllegalAction as the
        blast itself would raise it)."""
        f, targets = self._check_blast(action)
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

    def _own_ready(self, unit_id: str, *, act: bool = True) -> Formation:
        f = self.formation(unit_id)
        if f.side != self.state.active_side.id:
            raise IllegalAction("not_your_unit", f"{f.id} belongs to {f.side}, not the side to move")
        if f.group in self.state.side(f.side).held_groups:
            raise IllegalAction("held", f"{f.id} is holding its position until ordered")
        if f.routed:
            raise IllegalAction("routed", f"{f.id} is routed and will not obey")
        if act and f.acted:
            raise IllegalAction("already_acted", f"{f.id} has already acted this turn")
        return f

    def _visible_target(self, viewer: Formation, target: Formation) -> bool:
        return vision.sees_formation(self.state, self.board, self.rules, viewer.side, target)

    def _may_assault(self, attacker: Formation, defender: Formation) -> bool:
        if not self.board.terrain_at(defender.pos).fortress:
            return True
        return "siege" in self.rules.units[attacker.type].abilities

    def _target(self, attacker: Formation, target_id: str) -> Formation:
        defender = self.formation(target_id)
        if not self._visible_target(attacker, defender):
            raise IllegalAction("unseen", f"{attacker.side} cannot see {target_id}")
        return defender

    def _fight_fatigue(self, f: Formation, amount: int) -> None:
        rate = self.rules.units[f.type].fatigue_rate
        f.fatigue = min(100, f.fatigue + round(amount * rate))

    # Move ----------------------------------------------------------------------------

    def _check_move(self, action: Move) -> tuple[Formation, list[Hex], list[Formation]]:
        """The mover, its path, and what its side sees (the walk starts from that)."""
        f = self._own_ready(action.unit, act=False)
        if f.moved:
            raise IllegalAction("already_moved", f"{f.id} has already moved this turn")
        if skill_marks.HALTED in f.effects:
            raise IllegalAction("halted", f"{f.id} is halted and cannot move this turn")
        # A breakthrough charge that broke its enemy may ride on after the blow.
        if f.acted and skill_marks.MAY_MOVE_AFTER_ATTACK not in f.effects:
            raise IllegalAction("already_acted", f"{f.id} has already acted this turn")
        if duel.in_duel(f):
            raise IllegalAction("duelling", f"{f.id} is in single combat")
        if action.forced and f.fatigue > MAX_FATIGUE_TO_FORCE:
            raise IllegalAction("too_tired", f"{f.id} is too tired to force-march")
        to = Hex(*action.to)
        if to not in self.board:
            raise IllegalAction("off_map", f"{to.key()} is not on the map")
        seen = vision.seen_formations(self.state, self.board, self.rules, f.side)
        # Searched only as far as the destination: the same cost and path as a full search.
        move_map = vision.search_moves_seen(
            self.state, self.board, self.rules, f, forced=action.forced, target=to, seen=seen
        )
        if to not in move_map.destinations:
            raise IllegalAction("unreachable", f"{f.id} cannot reach {to.key()} this turn")
        path = move_map.path_to(to)
        assert path is not None
        return f, path, seen

    def _move(self, action: Move) -> list[Event]:
        f, path, seen = self._check_move(action)
        walked, events = vision.walk(self.state, self.board, self.rules, f, path, seen)
        f.pos = walked[-1]
        f.moved = True
        f.forced = action.forced
        f.charge_run = self._open_run(walked)
        rate = self.rules.units[f.type].fatigue_rate
        # A forced column (Guo Yaoshi) marches hard at the cost of an ordinary move.
        hard = action.forced and skill_marks.FORCED_COLUMN not in f.effects
        f.fatigue = min(100, f.fatigue + round((FORCED_MARCH_FATIGUE if hard else MOVE_FATIGUE) * rate))
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

    def _check_attack(self, action: Attack) -> tuple[Formation, Formation]:
        self.formation(action.target)  # an unknown target is reported before anything else
        attacker = self._own_ready(action.unit)
        defender = self.formation(action.target)
        if "no_line_combat" in self.rules.units[attacker.type].abilities:
            raise IllegalAction("cannot_attack", f"{attacker.id} cannot fight formed troops")
        if not may_attack(self.state, attacker.side, defender.side):
            raise IllegalAction("not_an_enemy", f"{defender.id} is not an enemy of {attacker.id}")
        if distance(attacker.pos, defender.pos) != 1:
            raise IllegalAction("not_adjacent", f"{defender.id} is not next to {attacker.id}")
        # Next door is always in sight (even an ambush), but the rule is the same as for missiles.
        self._target(attacker, action.target)
        if not self._may_assault(attacker, defender):
            raise IllegalAction("fortress", f"{attacker.id} cannot assault a fortress")
        duel.check_not_duelling(attacker, defender)
        return attacker, defender

    def _attack(self, action: Attack) -> list[Event]:
        attacker, defender = self._check_attack(action)
        return self._resolve(attacker, defender, "melee")

    def _check_fire(self, action: Fire) -> tuple[Formation, Formation]:
        self.formation(action.target)
        attacker = self._own_ready(action.unit)
        defender = self._target(attacker, action.target)
        utype = self.rules.units[attacker.type]
        if utype.ranged <= 0:
            raise IllegalAction("no_missiles", f"{attacker.id} has no missile weapons")
        if attacker.ammo == 0:
            raise IllegalAction("no_ammo", f"{attacker.id} has no missiles left")
        if skill_marks.DOWNHILL in attacker.effects:
            raise IllegalAction("charging", f"{attacker.id} has left its bows to charge downhill")
        if not are_enemies(self.state, attacker.side, defender.side):
            raise IllegalAction("not_an_enemy", f"{defender.id} is not an enemy of {attacker.id}")
        if not 1 <= distance(attacker.pos, defender.pos) <= utype.range:
            raise IllegalAction("out_of_range", f"{defender.id} is out of range")
        duel.check_not_duelling(attacker, defender)
        return attacker, defender

    def _fire(self, action: Fire) -> list[Event]:
        attacker, defender = self._check_fire(action)
        if attacker.ammo is not None:
            attacker.ammo -= 1
        return self._resolve(attacker, defender, "fire")

    def _check_blast(self, action: Blast) -> tuple[Formation, list[Formation]]:
        f = self._own_ready(action.unit)
        utype = self.rules.units[f.type]
        if utype.area_power <= 0:
            raise IllegalAction("no_area_weapon", f"{f.id} has no area weapon")
        if f.charges <= 0:
            raise IllegalAction("no_charges", f"{f.id} has used all its charges")
        if duel.in_duel(f):
            raise IllegalAction("duelling", f"{f.id} is in single combat")
        at = Hex(*action.at)
        if at not in self.board:
            raise IllegalAction("off_map", f"{at.key()} is not on the map")
        if not 1 <= distance(f.pos, at) <= max(1, utype.range):
            raise IllegalAction("out_of_range", f"{at.key()} is out of range")
        area = {at, *neighbours(at)}
        targets = [
            e
            for e in sorted(self.state.formations.values(), key=lambda x: x.id)
            if e.pos in area
            and are_enemies(self.state, f.side, e.side)
            and self._visible_target(f, e)
            and not duel.in_duel(e)
        ]
        if not targets:
            raise IllegalAction("no_target", f"no enemy is seen within the blast at {at.key()}")
        return f, targets

    def _blast(self, action: Blast) -> list[Event]:
        f, targets = self._check_blast(action)
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
        """One attack from setup to morale: the same setup the forecast showed, rolled with the dice."""
        events: list[Event] = []
        defender_side = self.state.side(defender.side)
        if defender_side.role == "neutral" and attacker.side not in defender_side.hostile_to:
            defender_side.hostile_to.append(attacker.side)
            events.append(SideJoined(side=defender_side.id, against=attacker.side))
        setup = combat.setup_attack(self.state, self.board, self.rules, attacker, defender, mode)
        attacker_losses, defender_losses = combat.roll_exchange(setup, self.rng())
        if spend_action:
            attacker.acted = True
            attacker.moved = True  # no moving after fighting
        if attacker.hidden:
            attacker.hidden = False
            events += vision.revealed(attacker)
        attacker.experience = min(MAX_EXPERIENCE, attacker.experience + 1)
        defender.experience = min(MAX_EXPERIENCE, defender.experience + 1)
        self._fight_fatigue(attacker, ATTACK_FATIGUE)
        self._fight_fatigue(defender, DEFEND_FATIGUE)
        events.append(
            Attacked(
                unit=attacker.id,
                target=defender.id,
                attacker_losses=attacker_losses,
                defender_losses=defender_losses,
                mode=mode,
                surprise=setup.surprise,
                pincer=setup.pincer,
                charge=setup.charge,
            )
        )
        events += morale.change_morale(
            self.rules, defender, -combat.defender_morale_loss(setup, defender_losses), "Losses"
        )
        events += morale.change_morale(
            self.rules, attacker, -morale.loss_morale(attacker_losses, setup.attacker_men), "Losses"
        )
        if defender_losses >= 2 * max(1, attacker_losses):
            events += morale.change_morale(self.rules, attacker, morale.VICTORY_MORALE, "Victory")
        elif attacker_losses > defender_losses:
            events += morale.change_morale(self.rules, defender, morale.VICTORY_MORALE, "Victory")
        events += skills.after_attack(self, attacker, defender, setup)
        events += souls.take_losses(self.state, defender, defender_losses)
        events += souls.take_losses(self.state, attacker, attacker_losses)
        if spend_action:
            events += morale.check_routs(self.state, self.rules)
        events += skills.after_combat(self, attacker, defender, events)
        return events

    # Capture and rest ----------------------------------------------------------------

    def _capture(self, action: Capture) -> list[Event]:
        f = self._own_ready(action.unit)
        if self.rules.units[f.type].capture_rate <= 0:
            raise IllegalAction("cannot_capture", f"{f.id} cannot capture souls")
        souls_near, bag = souls.capturable(self.state, self.rules, f)
        if souls_near <= 0 and not bag:
            raise IllegalAction("no_souls", f"there are no enemy souls within reach of {f.id}")
        f.acted = True
        f.moved = True
        return souls.capture(self.state, self.rules, f)

    def _rest(self, action: Rest) -> list[Event]:
        f = self._own_ready(action.unit)
        if f.moved:
            raise IllegalAction("already_moved", f"{f.id} has moved and cannot rest this turn")
        f.acted = True
        f.moved = True
        f.fatigue = max(0, f.fatigue - REST_FATIGUE)
        return [Rested(unit=f.id), *morale.change_morale(self.rules, f, REST_MORALE, "Rest")]

    # Skills and duels ----------------------------------------------------------------

    def _skill(self, action: UseSkill) -> list[Event]:
        f = self._own_ready(action.unit)
        skills.check(self, f, action)
        return skills.apply(self, f, action)

    def _challenge(self, action: Challenge) -> list[Event]:
        f = self._own_ready(action.unit)
        target = self._target(f, action.target)
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
                return [TurnEnded(side=ending.id, next_side=ending.id, turn=state.turn)] + (
                    self._finish_at_turn_limit()
                )
            state.turn += 1
        nxt = state.active_side
        events: list[Event] = [TurnEnded(side=ending.id, next_side=nxt.id, turn=state.turn)]
        events += self._start_side_turn(nxt.id)
        return events

    def _start_side_turn(self, side_id: str) -> list[Event]:
        """Upkeep at the start of a side's turn: effects and cooldowns run down, tired men who
        stood still recover, souls drift, routed formations flee or rally, heroes inspire."""
        state = self.state
        events: list[Event] = []
        for f in state.formations_of(side_id):
            if not f.moved and not f.acted:
                f.fatigue = max(0, f.fatigue - IDLE_FATIGUE)
            f.moved = False
            f.acted = False
            f.forced = False
            f.charge_run = 0
            f.effects = {k: v for k, v in f.effects.items() if v > state.turn}
            f.cooldowns = {k: v - 1 for k, v in f.cooldowns.items() if v > 1}
        events += souls.drift(state, self.rules, side_id)
        events += skills.start_of_turn(self, side_id)
        events += morale.start_of_turn(state, self.board, self.rules, side_id)
        events += morale.check_routs(state, self.rules)
        events += vision.refresh_explored(state, self.board, self.rules, side_id)
        events += duel.start_of_turn(self, side_id)
        return events

    # Victory -------------------------------------------------------------------------

    def _combatant_sides(self) -> list[SideState]:
        return [s for s in self.state.sides if s.role != "neutral"]

    def _check_victory(self) -> list[Event]:
        state = self.state
        if state.over:
            return []
        alive = [s for s in self._combatant_sides() if state.men_of(s.id) > 0]
        camps = {min(o.id for o in alive if are_allied(state, s.id, o.id)) for s in alive}
        if len(camps) == 1 and len(self._combatant_sides()) > 1:
            leader = sorted(s.id for s in alive if state.side(s.id).role == "player") or [alive[0].id]
            return self._finish(leader[0], "annihilation")
        if not alive:
            return self._finish(None, "annihilation")
        return []

    def _finish_at_turn_limit(self) -> list[Event]:
        outcome = self.scenario.turn_limit_outcome
        if outcome == OUTCOME_DRAW:
            return self._finish(None, "turn_limit")
        if outcome == OUTCOME_ATTRITION:
            return self._finish(self._attrition_leader(), "turn_limit")
        return self._finish(outcome, "turn_limit")

    def _attrition_leader(self) -> str | None:
        """The side whose enemies lost the largest share of their starting men."""
        scores = sorted(((share, side) for side, share in attrition_shares(self.state).items()), reverse=True)
        if len(scores) < 2 or scores[0][0] == scores[1][0]:
            return None
        return scores[0][1]

    def finish(self, winner: str | None, reason: str) -> list[Event]:
        """End the game now (scenario events call this for victory and defeat)."""
        return self._finish(winner, reason)

    def _finish(self, winner: str | None, reason: str) -> list[Event]:
        self.state.over = True
        self.state.winner = winner
        self.state.end_reason = reason
        return [GameOver(winner=winner, reason=reason)]
