"""Morale, rout and rally (README "How to play"): why formations break, flee and come back.

Pure functions over the state; the engine calls them and turns their results into events.
"""

from __future__ import annotations

from .board import Board
from .events import Event, Fled, MoraleChanged, Rallied, Routed, SoulsReleased
from .herding import HEMMED_STRAGGLERS, hemmed
from .hexgrid import Hex, distance, ring_of_six
from .movement import exerts_zoc, search_moves
from .rules import Ruleset
from .sides import are_allied, are_enemies
from .souls import add_souls
from .state import Formation, GameState

# Morale lost per percent of men lost in one blow (losing a quarter costs 10).
LOSS_MORALE_PER_PERCENT = 0.4
# Morale the winner of an exchange gains (it inflicted at least twice what it took).
VICTORY_MORALE = 5
# A formation routing costs friends within this radius this much morale.
NEARBY_ROUT_RADIUS = 2
NEARBY_ROUT_MORALE = 8
# Turn start: morale recovered when out of contact, plus leadership/LEADERSHIP_DIVISOR in an aura.
RECOVERY_MORALE = 3
LEADERSHIP_DIVISOR = 10
# Rallying: a routed formation with no enemy within RALLY_CLEAR hexes gains this much per turn
# (doubled near a friendly hero) and re-forms once its morale is RALLY_MARGIN above its threshold.
RALLY_CLEAR = 2
RALLY_MORALE = 8
RALLY_MARGIN = 15
# A routed formation flees when an enemy is within this many hexes.
FLEE_TRIGGER = 4
# Effect that keeps a formation from routing (Han Xin's backs-to-the-river).
NO_ROUT = "no_rout"


def loss_morale(losses: int, men_before: int) -> int:
    if losses <= 0 or men_before <= 0:
        return 0
    return round(LOSS_MORALE_PER_PERCENT * 100 * losses / men_before)


def change_morale(rules: Ruleset, f: Formation, delta: int, reason: str) -> list[Event]:
    """Add ``delta`` to morale, clamped to 0..the type's full morale. A no-rout effect keeps it at
    the rout threshold."""
    if delta == 0:
        return []
    utype = rules.units[f.type]
    new = max(0, min(utype.morale, f.morale + delta))
    if NO_ROUT in f.effects and not f.routed:
        new = max(new, min(f.morale, utype.rout_threshold))
    real = new - f.morale
    if real == 0:
        return []
    f.morale = new
    return [MoraleChanged(unit=f.id, delta=real, reason=reason)]


def best_aura(state: GameState, rules: Ruleset, f: Formation) -> int:
    """Half the leadership of the best friendly hero whose aura reaches ``f`` (0 if none)."""
    best = 0
    for other in state.formations.values():
        if other.hero is None or other.id == f.id or other.routed or other.side != f.side:
            continue
        hero = rules.heroes[other.hero]
        if distance(other.pos, f.pos) <= hero.aura:
            best = max(best, hero.leadership // 2)
    return best


def near_hero(state: GameState, rules: Ruleset, f: Formation) -> bool:
    return f.hero is not None or best_aura(state, rules, f) > 0


def is_death_ground(state: GameState, board: Board, rules: Ruleset, f: Formation) -> bool:
    """No way out: every neighbouring hex is impassable, occupied or in an enemy zone of control."""
    move_class = rules.units[f.type].move_class
    occupied = state.occupancy()

    def in_enemy_zoc(h: Hex) -> bool:
        for n in ring_of_six(h):
            o = occupied.get(n)
            if o is not None:
                holder = state.formations[o]
                if exerts_zoc(holder) and are_enemies(state, f.side, holder.side):
                    return True
        return False

    enemies_adjacent = False
    for h in ring_of_six(f.pos):
        other = occupied.get(h)
        if other is not None:
            if are_enemies(state, f.side, state.formations[other].side):
                enemies_adjacent = True
            continue
        if board.move_cost(h, move_class) is None or in_enemy_zoc(h):
            continue
        return False
    return enemies_adjacent


def check_routs(state: GameState, rules: Ruleset) -> list[Event]:
    """Rout every formation below its threshold; each rout shakes nearby friends, which may rout
    in turn. Runs to a fixed point; a formation routs at most once."""
    events: list[Event] = []
    while True:
        breaking = [
            f
            for f in sorted(state.formations.values(), key=lambda x: x.id)
            if not f.routed and f.morale < rules.units[f.type].rout_threshold and NO_ROUT not in f.effects
        ]
        if not breaking:
            return events
        for f in breaking:
            f.routed = True
            events.append(Routed(unit=f.id, side=f.side))
        for f in breaking:
            for friend in sorted(state.formations.values(), key=lambda x: x.id):
                if friend.routed or friend.side != f.side or distance(friend.pos, f.pos) > NEARBY_ROUT_RADIUS:
                    continue
                events += change_morale(rules, friend, -NEARBY_ROUT_MORALE, "Friends routed nearby")


def _nearest_enemy(state: GameState, f: Formation, enemies: list[Formation]) -> int:
    return min((distance(f.pos, e.pos) for e in enemies), default=1 << 20)


def flee(state: GameState, board: Board, rules: Ruleset, f: Formation, enemies: list[Formation]) -> list[Event]:
    """Run to the reachable hex farthest from the nearest enemy (ties: cheapest, then by hex).
    Hemmed in, that is the way along the open side, and stragglers fall where it stood."""
    caught = hemmed(state, f, enemies)
    start = f.pos
    move_map = search_moves(state, board, rules, f)
    here = _nearest_enemy(state, f, enemies)
    best: tuple[int, int, Hex] | None = None
    for h in move_map.destinations:
        away = min((distance(h, e.pos) for e in enemies), default=1 << 20)
        if away <= here:
            continue
        key = (-away, move_map.cost[h], h)
        if best is None or key < best:
            best = key
    if best is None:
        return []
    path = move_map.path_to(best[2])
    assert path is not None
    f.pos = best[2]
    stragglers = min(f.men - 1, f.men * HEMMED_STRAGGLERS // 100) if caught else 0
    if stragglers <= 0:
        return [Fled(unit=f.id, path=tuple(path))]
    f.men -= stragglers
    add_souls(state, start, f.side, stragglers)
    return [Fled(unit=f.id, path=tuple(path), stragglers=stragglers), SoulsReleased(at=start, count=stragglers)]


def start_of_turn(state: GameState, board: Board, rules: Ruleset, side_id: str) -> list[Event]:
    """Morale at the start of ``side_id``'s turn: routed formations flee or rally, the rest recover."""
    events: list[Event] = []
    enemies = [e for e in state.formations.values() if are_enemies(state, side_id, e.side) and not e.hidden]
    for f in state.formations_of(side_id):
        utype = rules.units[f.type]
        nearest = _nearest_enemy(state, f, enemies)
        if f.routed:
            if nearest <= FLEE_TRIGGER:
                events += flee(state, board, rules, f, enemies)
                nearest = _nearest_enemy(state, f, enemies)
            if nearest > RALLY_CLEAR:
                gain = RALLY_MORALE * (2 if near_hero(state, rules, f) else 1) - f.fatigue // 20
                events += change_morale(rules, f, max(1, gain), "Rallying")
                if f.morale >= min(utype.morale, utype.rout_threshold + RALLY_MARGIN):
                    f.routed = False
                    events.append(Rallied(unit=f.id))
            continue
        gain = 0
        if nearest > 1:
            gain += RECOVERY_MORALE
        aura = best_aura(state, rules, f) if f.hero is None else rules.heroes[f.hero].leadership // 2
        gain += aura * 2 // LEADERSHIP_DIVISOR
        events += change_morale(rules, f, gain, "Recovery")
    return events


def friends_within(state: GameState, f: Formation, radius: int) -> list[Formation]:
    return [
        o
        for o in sorted(state.formations.values(), key=lambda x: x.id)
        if o.id != f.id and are_allied(state, o.side, f.side) and distance(o.pos, f.pos) <= radius
    ]
