"""A generic search opponent for the strength bench: plain UCT, tuned for no game in particular.

It stands in for OpenSpiel's MCTSBot played through a thin adapter, built only on the engine's
public search calls (``legal_orders``, ``value``, ``dice_blind``) and nothing this game's
generals know:

- one formation's order per tree node: the formations of the side to move come up one at a time
  (in id order); each may take its non-move orders, a few move destinations, or pass; a side-turn
  ends when every formation has passed or acted;
- a few move destinations per formation: the one nearest any enemy in sight and a few drawn at
  random (a search over every hex would never look deeper than one formation);
- chance by sampling: every simulation plays on a dice-blind copy of the side's fogged view that
  rolls dice of its own (open-loop UCT: a node stands for the orders that lead to it);
- a horizon of two side-turns (its own and the opponent's answer), past the tree's leaf played out
  by a random default policy that only strikes (moving is what costs a search here), and the
  leaf's worth is ``Engine.value`` for the side that chose.

It decides only from its side's view (``vision.side_view``) and never reads the game's seed for
its dice, as the generals must not either.
"""

from __future__ import annotations

import math
import random
import zlib
from dataclasses import dataclass, field

from game.core import vision
from game.core.actions import Action, AnswerDuel, Attack, EndTurn, Fire, Move
from game.core.engine import Engine, IllegalAction
from game.core.hexgrid import distance
from game.core.sides import are_enemies
from game.core.state import copy_state

SIMULATIONS = 200
MOVES_PER_FORMATION = 3
HORIZON_SIDE_TURNS = 2
EXPLORATION = 1.0
# A pass: the formation at this node takes no (further) order this turn.
PASS = "pass"

Option = Action | str


@dataclass
class Node:
    """Statistics of one sequence of orders from the root (open loop: not one state)."""

    visits: int = 0
    total: float = 0.0  # summed worth for the side that chose the order leading here
    options: list[Option] | None = None
    unit: str | None = None
    side: str = ""  # the side choosing among the options
    end_first: bool = False  # the side-turn before ends on reaching this node
    children: dict[int, Node] = field(default_factory=dict)


@dataclass
class Turn:
    """What one simulation tracks of the side-turn it is in: who has done with its orders."""

    done: set[str] = field(default_factory=set)
    side_turns_ended: int = 0


class MCTSPlayer:
    """Plays one side with UCT; ``simulations`` per decision."""

    def __init__(self, engine: Engine, side_id: str, simulations: int = SIMULATIONS, seed: int = 0) -> None:
        self.game = engine
        self.side_id = side_id
        self.simulations = simulations
        self.seed = seed ^ zlib.crc32(side_id.encode())
        self._done: set[str] = set()
        self._turn_key: tuple[int, int] | None = None

    def next_action(self) -> Action:
        game = self.game
        state = game.state
        if state.over:
            return EndTurn()
        if game.deciding_side() != self.side_id:
            return EndTurn()
        if state.pending_duel is None and (state.turn, state.active) != self._turn_key:
            self._turn_key = (state.turn, state.active)
            self._done = set()
        while True:
            choice, unit = self._search()
            if choice is None:
                return EndTurn()
            if isinstance(choice, str):  # pass: this formation is done; search for the next one
                assert unit is not None
                self._done.add(unit)
                continue
            if unit is not None and not isinstance(choice, Move):
                self._done.add(unit)
            return choice

    # -- the search ---------------------------------------------------------------------

    def _search(self) -> tuple[Option | None, str | None]:
        game = self.game
        view = vision.side_view(game.state, game.board, game.rules, self.side_id)
        rng = random.Random(self.seed * 1_000_003 + game.state.action_index * 7919 + len(self._done))
        root = Node(side=self.side_id)
        start = Turn(done=set(self._done))
        root.unit, root.options = _options_now(game.dice_blind(rng.getrandbits(62), state=view), start, rng)
        self._done = start.done  # with the formations that have no order left
        if not root.options:
            return None, None
        for i in range(self.simulations):
            lookahead = game.dice_blind(rng.getrandbits(62) ^ i, state=copy_state(view))
            self._simulate(lookahead, root, Turn(done=set(self._done)), rng)
            if len(root.options) <= 1:
                break  # nothing to choose between
        best = max(range(len(root.options)), key=lambda k: root.children[k].visits if k in root.children else -1)
        return root.options[best], root.unit

    def _simulate(self, engine: Engine, root: Node, turn: Turn, rng: random.Random) -> None:
        path: list[tuple[Node, str]] = []  # (child node, side that chose it)
        node = root
        while not engine.state.over and turn.side_turns_ended < HORIZON_SIDE_TURNS:
            expanding = node.options is None
            if expanding:
                unit, options = _options_now(engine, turn, rng)
                if not options:
                    node.end_first = True
                    _end_turn(engine, turn)
                    if engine.state.over or turn.side_turns_ended >= HORIZON_SIDE_TURNS:
                        node.options = []
                        break
                    unit, options = _options_now(engine, turn, rng)
                node.options, node.unit, node.side = options, unit, engine.deciding_side()
            elif node.end_first:
                _end_turn(engine, turn)
            if not node.options or engine.state.over or turn.side_turns_ended >= HORIZON_SIDE_TURNS:
                break
            k = _select(node, rng)
            child = node.children.setdefault(k, Node())
            path.append((child, node.side))
            _play(engine, turn, node.unit, node.options[k])
            node = child
            if expanding or child.visits == 0:
                break
        _roll_out(engine, turn, rng)
        worth: dict[str, float] = {}
        root.visits += 1
        for child, chooser in path:
            if chooser not in worth:
                worth[chooser] = engine.value(chooser)
            child.visits += 1
            child.total += worth[chooser]


def _select(node: Node, rng: random.Random) -> int:
    """UCT: every option once (in a random order), then the best upper bound."""
    assert node.options is not None
    unseen = [k for k in range(len(node.options)) if k not in node.children]
    if unseen:
        return rng.choice(unseen)
    log_n = math.log(max(1, node.visits))
    return max(
        node.children,
        key=lambda k: (
            node.children[k].total / node.children[k].visits + EXPLORATION * math.sqrt(log_n / node.children[k].visits)
        ),
    )


def _options_now(engine: Engine, turn: Turn, rng: random.Random) -> tuple[str | None, list[Option]]:
    """The formation whose order is due and its options (answers to a duel when one is pending)."""
    state = engine.state
    if state.pending_duel is not None:
        return None, [AnswerDuel(accept=True), AnswerDuel(accept=False)]
    for unit in sorted(f.id for f in state.formations_of(state.active_side.id)):
        if unit in turn.done:
            continue
        orders = engine.legal_orders(unit)
        if orders:
            return unit, [*_few_orders(engine, unit, orders, rng), PASS]
        turn.done.add(unit)
    return None, []


def _few_orders(engine: Engine, unit: str, orders: list[Action], rng: random.Random) -> list[Action]:
    """Every order but moves, and a few moves: the one nearest an enemy in sight, and random ones."""
    moves = [o for o in orders if isinstance(o, Move)]
    out: list[Action] = [o for o in orders if not isinstance(o, Move)]
    if not moves:
        return out
    state = engine.state
    side = state.formations[unit].side
    foes = [f.pos for f in state.formations.values() if are_enemies(state, side, f.side)]
    picked: list[Move] = []
    if foes:
        picked.append(min(moves, key=lambda m: (min(distance(m.to, p) for p in foes), m.to.q, m.to.r)))
    rest = [m for m in moves if m not in picked]
    picked += rng.sample(rest, min(len(rest), MOVES_PER_FORMATION - len(picked)))
    return out + picked


def _play(engine: Engine, turn: Turn, unit: str | None, option: Option) -> None:
    """Apply one option; an order that the sampled dice made illegal counts as a pass."""
    if isinstance(option, str):
        if unit is not None:
            turn.done.add(unit)
        return
    try:
        engine.apply(option)
    except IllegalAction:
        if unit is not None:
            turn.done.add(unit)
        return
    if unit is not None and not isinstance(option, Move):
        turn.done.add(unit)


def _end_turn(engine: Engine, turn: Turn) -> None:
    """End the side-turn. A challenge still waiting for its answer is refused first: the tree's
    nodes are shared by simulations whose dice differ, so a node whose first step was ending the
    turn in one may meet a challenge in another (ending the turn then was an illegal order that
    stopped the whole bench)."""
    if engine.state.pending_duel is not None:
        engine.apply(AnswerDuel(accept=False))
    if not engine.state.over:
        engine.apply(EndTurn())
    turn.done = set()
    turn.side_turns_ended += 1


def _roll_out(engine: Engine, turn: Turn, rng: random.Random) -> None:
    """Play to the horizon by the default policy: each formation in turn strikes a random target
    in reach, or not, at random; no one moves."""
    while not engine.state.over and turn.side_turns_ended < HORIZON_SIDE_TURNS:
        state = engine.state
        if state.pending_duel is not None:
            engine.apply(AnswerDuel(accept=rng.random() < 0.5))
            continue
        for unit in sorted(f.id for f in state.formations_of(state.active_side.id)):
            if engine.state.over or engine.state.pending_duel is not None:
                break
            if unit in turn.done or unit not in state.formations:
                continue
            turn.done.add(unit)
            strikes: list[Action] = [Attack(unit=unit, target=t) for t in engine.attack_targets(unit)]
            strikes += [Fire(unit=unit, target=t) for t in engine.fire_targets(unit)]
            if strikes and rng.random() < len(strikes) / (len(strikes) + 1):
                _play(engine, turn, unit, rng.choice(strikes))
        if engine.state.pending_duel is None and not engine.state.over:
            _end_turn(engine, turn)
