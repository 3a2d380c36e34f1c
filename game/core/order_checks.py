"""Whether an order may be carried out: each check raises IllegalAction saying why, before
anything changes, and returns what the order acts on (the same checks serve the forecasts)."""

from __future__ import annotations

from . import duel, skill_marks, vision
from .actions import Attack, Blast, Fire, Move
from .errors import IllegalAction
from .hexgrid import Hex, distance, neighbours
from .movement import MAX_FATIGUE_TO_FORCE
from .sides import are_enemies, may_attack
from .state import Formation
from .table import Table


def own_ready(table: Table, unit_id: str, *, act: bool = True) -> Formation:
    """The moving side's formation, free to take an order (``act=False``: one that has acted
    may still be ready to move)."""
    f = table.formation(unit_id)
    if f.side != table.state.active_side.id:
        raise IllegalAction("not_your_unit", f"{f.id} belongs to {f.side}, not the side to move")
    if f.group in table.state.side(f.side).held_groups:
        raise IllegalAction("held", f"{f.id} is holding its position until ordered")
    if f.routed:
        raise IllegalAction("routed", f"{f.id} is routed and will not obey")
    if act and f.acted:
        raise IllegalAction("already_acted", f"{f.id} has already acted this turn")
    return f


def visible_target(table: Table, viewer: Formation, target: Formation) -> bool:
    state = table.state
    if state.formations.get(viewer.id) is viewer and distance(viewer.pos, target.pos) == 1:
        return vision.sees_neighbour(state, table.board, table.rules, viewer, target)  # the common case: cheap
    return vision.sees_formation(state, table.board, table.rules, viewer.side, target)


def may_assault(table: Table, attacker: Formation, defender: Formation) -> bool:
    if not table.board.terrain_at(defender.pos).fortress:
        return True
    return "siege" in table.rules.units[attacker.type].abilities


def seen_target(table: Table, attacker: Formation, target_id: str) -> Formation:
    """The formation ``target_id``, if ``attacker``'s side sees it."""
    defender = table.formation(target_id)
    if not visible_target(table, attacker, defender):
        raise IllegalAction("unseen", f"{attacker.side} cannot see {target_id}")
    return defender


def check_move(table: Table, action: Move) -> tuple[Formation, list[Hex], list[Formation]]:
    """The mover, its path, and what its side sees (the walk starts from that)."""
    f = own_ready(table, action.unit, act=False)
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
    if to not in table.board:
        raise IllegalAction("off_map", f"{to.key()} is not on the map")
    seen = vision.seen_formations(table.state, table.board, table.rules, f.side)
    # Searched only as far as the destination: the same cost and path as a full search.
    move_map = vision.search_moves_seen(
        table.state, table.board, table.rules, f, forced=action.forced, target=to, seen=seen
    )
    if to not in move_map.destinations:
        raise IllegalAction("unreachable", f"{f.id} cannot reach {to.key()} this turn")
    path = move_map.path_to(to)
    assert path is not None
    return f, path, seen


def check_attack(table: Table, action: Attack) -> tuple[Formation, Formation]:
    table.formation(action.target)  # an unknown target is reported before anything else
    attacker = own_ready(table, action.unit)
    defender = table.formation(action.target)
    if "no_line_combat" in table.rules.units[attacker.type].abilities:
        raise IllegalAction("cannot_attack", f"{attacker.id} cannot fight formed troops")
    if not may_attack(table.state, attacker.side, defender.side):
        raise IllegalAction("not_an_enemy", f"{defender.id} is not an enemy of {attacker.id}")
    if distance(attacker.pos, defender.pos) != 1:
        raise IllegalAction("not_adjacent", f"{defender.id} is not next to {attacker.id}")
    # Next door is always in sight (even an ambush), but the rule is the same as for missiles.
    seen_target(table, attacker, action.target)
    if not may_assault(table, attacker, defender):
        raise IllegalAction("fortress", f"{attacker.id} cannot assault a fortress")
    duel.check_not_duelling(attacker, defender)
    return attacker, defender


def check_fire(table: Table, action: Fire) -> tuple[Formation, Formation]:
    table.formation(action.target)
    attacker = own_ready(table, action.unit)
    defender = seen_target(table, attacker, action.target)
    utype = table.rules.units[attacker.type]
    if utype.ranged <= 0:
        raise IllegalAction("no_missiles", f"{attacker.id} has no missile weapons")
    if attacker.ammo == 0:
        raise IllegalAction("no_ammo", f"{attacker.id} has no missiles left")
    if skill_marks.DOWNHILL in attacker.effects:
        raise IllegalAction("charging", f"{attacker.id} has left its bows to charge downhill")
    if not are_enemies(table.state, attacker.side, defender.side):
        raise IllegalAction("not_an_enemy", f"{defender.id} is not an enemy of {attacker.id}")
    if not 1 <= distance(attacker.pos, defender.pos) <= utype.range:
        raise IllegalAction("out_of_range", f"{defender.id} is out of range")
    duel.check_not_duelling(attacker, defender)
    return attacker, defender


def check_blast(table: Table, action: Blast) -> tuple[Formation, list[Formation]]:
    f = own_ready(table, action.unit)
    utype = table.rules.units[f.type]
    if utype.area_power <= 0:
        raise IllegalAction("no_area_weapon", f"{f.id} has no area weapon")
    if f.charges <= 0:
        raise IllegalAction("no_charges", f"{f.id} has used all its charges")
    if duel.in_duel(f):
        raise IllegalAction("duelling", f"{f.id} is in single combat")
    at = Hex(*action.at)
    if at not in table.board:
        raise IllegalAction("off_map", f"{at.key()} is not on the map")
    if not 1 <= distance(f.pos, at) <= max(1, utype.range):
        raise IllegalAction("out_of_range", f"{at.key()} is out of range")
    area = {at, *neighbours(at)}
    targets = [
        e
        for e in sorted(table.state.formations.values(), key=lambda x: x.id)
        if e.pos in area
        and are_enemies(table.state, f.side, e.side)
        and visible_target(table, f, e)
        and not duel.in_duel(e)
    ]
    if not targets:
        raise IllegalAction("no_target", f"no enemy is seen within the blast at {at.key()}")
    return f, targets
