"""Movement: terrain costs per class, blocking, passing friends, zones of control."""

from __future__ import annotations

from conftest import EngineFactory, Unit
from hypothesis import given
from hypothesis import strategies as st

from game.core.board import Board
from game.core.engine import Engine
from game.core.hexgrid import DIRECTIONS, Hex, distance, neighbours
from game.core.movement import MoveMap, enemy_zoc, search_moves
from game.core.rules import Ruleset

OPEN = (".........",) * 7  # 9 x 7 plain
CENTRE = Hex(3, 3)  # offset (4, 3)


def moves(engine: Engine, unit: str) -> MoveMap:
    return engine.moves(unit)


def within(board: Board, origin: Hex, radius: int) -> set[Hex]:
    return {h for h in board.hexes() if 0 < distance(origin, h) <= radius}


def path_cost(board: Board, path: list[Hex], move_class: str) -> int:
    total = 0
    for h in path[1:]:
        c = board.move_cost(h, move_class)
        assert c is not None
        total += c
    return total


def test_foot_crosses_four_plain_hexes_and_horse_seven(small_engine: EngineFactory) -> None:
    far = (0, 6)  # Hex(-3, 6): six hexes from the centre, its zone out of the foot's reach
    eng = small_engine(OPEN, [Unit("foot", "a", "han_soldier", 100, CENTRE), Unit("far", "b", "soul_levy", 1, far)])
    foot = moves(eng, "foot")
    assert foot.destinations == within(eng.board, CENTRE, 4)
    assert all(foot.cost[h] == 2 * distance(CENTRE, h) for h in foot.destinations)

    eng = small_engine(OPEN, [Unit("horse", "a", "warrior", 100, (0, 0)), Unit("far", "b", "soul_levy", 1, (8, 6))])
    horse = moves(eng, "horse")
    assert horse.destinations == within(eng.board, Hex(0, 0), 7)


def test_roads_double_foot_speed(small_engine: EngineFactory) -> None:
    grid = ("=" * 12, "." * 12, "." * 12)
    eng = small_engine(grid, [Unit("u", "a", "han_soldier", 100, (0, 0)), Unit("e", "b", "soul_levy", 10, (11, 2))])
    m = moves(eng, "u")
    board = eng.board
    road_reached = {board.offset(h)[0] for h in m.destinations if board.offset(h)[1] == 0}
    assert road_reached == set(range(1, 9))  # 8 road hexes at 1 point each
    assert all(m.cost[h] == board.offset(h)[0] for h in m.destinations if board.offset(h)[1] == 0)
    # Off the road, plain costs 2: straight down the map only 4 rows would be reachable.
    assert all(m.cost[h] <= 8 for h in m.destinations)


def test_mountains_stop_cavalry_but_not_foot(small_engine: EngineFactory) -> None:
    # A wall of mountains in column 3 of every row.
    grid = ("...M...",) * 5
    units = [
        Unit("horse", "a", "warrior", 100, (2, 2)),
        Unit("foot", "a", "han_soldier", 100, (2, 1)),
        Unit("e", "b", "soul_levy", 10, (6, 4)),
    ]
    eng = small_engine(grid, units)
    board = eng.board
    east = {h for h in board.hexes() if board.offset(h)[0] > 3}
    wall = {h for h in board.hexes() if board.offset(h)[0] == 3}
    horse = moves(eng, "horse")
    assert not (horse.destinations & (east | wall))
    assert not (set(horse.cost) & wall)
    foot = moves(eng, "foot")
    assert foot.destinations & wall
    assert foot.destinations & east  # 6 for the mountain + 2 for the plain beyond
    for h in foot.destinations & east:
        path = foot.path_to(h)
        assert path is not None and any(p in wall for p in path)
        assert path_cost(board, path, "foot") == foot.cost[h] <= 8


def test_rivers_take_a_whole_move_except_at_fords(small_engine: EngineFactory) -> None:
    # Row 2 is a river with one ford at column 5.
    grid = (".......", ".......", "~~~~~d~", ".......", ".......")
    units = [
        Unit("west", "a", "han_soldier", 100, (1, 1)),
        Unit("ford", "a", "han_soldier", 100, (5, 1)),
        Unit("e", "b", "soul_levy", 10, (0, 4)),
    ]
    eng = small_engine(grid, units)
    board = eng.board
    south = {h for h in board.hexes() if board.offset(h)[1] > 2}
    west = moves(eng, "west")
    river_hexes = {h for h in west.destinations if board.terrain_at(h).id == "river"}
    assert river_hexes, "one river hex costs the whole move: it can be entered"
    assert all(west.cost[h] == 8 for h in river_hexes)
    assert not (west.destinations & south)  # the ford is too far and the river ends the move
    ford = moves(eng, "ford")
    crossed = ford.destinations & south
    assert crossed
    for h in crossed:
        path = ford.path_to(h)
        assert path is not None and any(board.terrain_at(p).id == "ford" for p in path)


def test_enemies_block_and_friends_can_be_passed_but_not_stopped_on(small_engine: EngineFactory) -> None:
    line = (".........",)  # one row: the only way is straight along it
    eng = small_engine(
        line,
        [
            Unit("u", "a", "warrior", 100, (0, 0)),
            Unit("friend", "a", "han_soldier", 100, (2, 0)),
            Unit("enemy", "b", "soul_levy", 100, (8, 0)),
        ],
    )
    board = eng.board
    m = moves(eng, "u")
    cols = sorted(board.offset(h)[0] for h in m.destinations)
    # Through the friend at 2; 7 is next to the enemy (zone of control); 8 is the enemy.
    assert cols == [1, 3, 4, 5, 6, 7]
    assert board.at_offset(2, 0) in m.cost  # passed through
    assert board.at_offset(8, 0) not in m.cost  # never entered


def test_an_enemy_blocks_the_only_road(small_engine: EngineFactory) -> None:
    eng = small_engine(
        (".........",),
        [Unit("u", "a", "warrior", 100, (0, 0)), Unit("enemy", "b", "soul_levy", 100, (3, 0))],
    )
    m = moves(eng, "u")
    assert sorted(eng.board.offset(h)[0] for h in m.destinations) == [1, 2]


def _zoc_engine(small_engine: EngineFactory, mover_type: str) -> Engine:
    # The enemy in the middle; the mover three hexes east; the target hex just west of the enemy.
    return small_engine(
        OPEN,
        [
            Unit("u", "a", mover_type, 18, CENTRE + Hex(3, 0)),
            Unit("enemy", "b", "soul_levy", 1000, CENTRE),
        ],
    )


def test_zone_of_control_stops_a_formed_unit(small_engine: EngineFactory) -> None:
    eng = _zoc_engine(small_engine, "han_soldier")
    m = moves(eng, "u")
    zoc = enemy_zoc(eng.state, "a")
    assert zoc == set(neighbours(CENTRE))
    behind = CENTRE + Hex(-1, 0)
    assert distance(CENTRE + Hex(3, 0), behind) == 4  # in range on open ground...
    assert behind not in m.destinations  # ...but only through the zone of control
    assert CENTRE + Hex(1, -1) in m.destinations  # entering the zone is allowed
    for dest in m.destinations:
        path = m.path_to(dest)
        assert path is not None
        assert not any(h in zoc for h in path[1:-1]), f"passed through the zone to {dest}"


def test_skirmishers_and_infiltrators_ignore_zones_of_control(small_engine: EngineFactory) -> None:
    behind = CENTRE + Hex(-1, 0)
    for kind in ("divine_blade", "decapitation_squad"):
        eng = _zoc_engine(small_engine, kind)
        m = moves(eng, "u")
        assert behind in m.destinations, kind
        path = m.path_to(behind)
        assert path is not None and CENTRE not in path  # still cannot walk through the enemy


def test_a_unit_may_leave_a_zone_of_control(small_engine: EngineFactory) -> None:
    eng = small_engine(
        OPEN,
        [Unit("u", "a", "han_soldier", 100, CENTRE + DIRECTIONS[0]), Unit("e", "b", "soul_levy", 100, CENTRE)],
    )
    m = moves(eng, "u")
    # Straight away from the enemy, the full four hexes.
    assert CENTRE + Hex(4, 0) in m.destinations
    # From one zone hex to the next around the enemy: one step is allowed.
    assert CENTRE + DIRECTIONS[1] in m.destinations
    # Two steps around it would cost 4, but the middle hex stops the move: the way round the
    # outside of the zone costs the whole 8.
    two_round = CENTRE + DIRECTIONS[2]
    assert m.cost[two_round] == 8
    path = m.path_to(two_round)
    assert path is not None and CENTRE + DIRECTIONS[1] not in path


def test_friendly_units_exert_no_zone_against_their_own_side(small_engine: EngineFactory) -> None:
    eng = small_engine(
        OPEN,
        [Unit("u", "a", "han_soldier", 100, CENTRE + Hex(3, 0)), Unit("f", "a", "soul_levy", 100, CENTRE)],
        sides=(("a", "yuqing", "player"), ("b", "hailing", "enemy")),
    )
    m = moves(eng, "u")
    assert CENTRE + Hex(-1, 0) in m.destinations


def test_path_to_unreachable_is_none_and_paths_start_at_origin(small_engine: EngineFactory) -> None:
    eng = small_engine(OPEN, [Unit("u", "a", "han_soldier", 100, CENTRE), Unit("e", "b", "soul_levy", 1, (8, 6))])
    m = moves(eng, "u")
    assert m.path_to(eng.board.at_offset(8, 6)) is None
    assert m.path_to(CENTRE) == [CENTRE]
    for dest in m.destinations:
        path = m.path_to(dest)
        assert path is not None and path[0] == CENTRE and path[-1] == dest


def test_search_is_deterministic(small_engine: EngineFactory) -> None:
    units = [Unit("u", "a", "han_soldier", 100, CENTRE), Unit("e", "b", "soul_levy", 1, (8, 6))]
    a = moves(small_engine(OPEN, units), "u")
    b = moves(small_engine(OPEN, units), "u")
    assert a.cost == b.cost and a.parent == b.parent
    assert [a.path_to(h) for h in sorted(a.destinations)] == [b.path_to(h) for h in sorted(b.destinations)]


# -- against a brute-force reference --------------------------------------------------------

TERRAIN_CHOICES = ".=fhM~dxa"
MOVERS = ("han_soldier", "warrior", "divine_blade", "soul_rider", "retainer")


def reference_costs(
    board: Board, rules: Ruleset, origin: Hex, side: str, utype: str, others: dict[Hex, str]
) -> dict[Hex, int]:
    """Fixed-point relaxation with the rules spelled out, no cleverness."""
    ut = rules.units[utype]
    ignores = bool({"skirmisher", "infiltrator"} & set(ut.abilities))
    zoc = set()
    if not ignores:
        for pos, s in others.items():
            if s != side:
                zoc.update(neighbours(pos))
    best = {origin: 0}
    changed = True
    while changed:
        changed = False
        for h, c in list(best.items()):
            if h != origin and h in zoc:
                continue
            for n in neighbours(h):
                step = board.move_cost(n, ut.move_class)
                if step is None or others.get(n, side) != side:
                    continue
                if c + step <= ut.movement and c + step < best.get(n, 1 << 30):
                    best[n] = c + step
                    changed = True
    return best


@st.composite
def battlefields(draw: st.DrawFn) -> tuple[list[str], list[Unit]]:
    w = draw(st.integers(3, 7))
    h = draw(st.integers(2, 5))
    grid = ["".join(draw(st.sampled_from(TERRAIN_CHOICES)) for _ in range(w)) for _ in range(h)]
    cells = [(c, r) for r in range(h) for c in range(w)]
    chosen = draw(st.lists(st.sampled_from(cells), min_size=2, max_size=min(6, len(cells)), unique=True))
    mover = Unit("mover", "a", draw(st.sampled_from(MOVERS)), 50, chosen[0])
    others = [
        Unit(f"o{i}", draw(st.sampled_from(["a", "b"])), "soul_levy", 50, cell) for i, cell in enumerate(chosen[1:])
    ]
    # Ensure side b exists so the scenario is a battle.
    if not any(u.side == "b" for u in others):
        others[-1] = Unit(others[-1].id, "b", "soul_levy", 50, others[-1].at)
    return grid, [mover, *others]


@given(battlefields())
def test_search_matches_brute_force_reference(rules: Ruleset, field: tuple[list[str], list[Unit]]) -> None:
    grid, units = field
    from conftest import make_scenario  # local: keeps the strategy independent of fixtures

    eng = Engine(make_scenario(rules, grid, units), rules, 1)
    mover = eng.state.formations["mover"]
    others = {f.pos: f.side for f in eng.state.formations.values() if f.id != "mover"}
    expected = reference_costs(eng.board, rules, mover.pos, "a", mover.type, others)
    got = search_moves(eng.state, eng.board, rules, mover)
    assert got.cost == expected
    assert got.destinations == {h for h in expected if h != mover.pos and h not in others}
    move_class = rules.units[mover.type].move_class
    for dest in got.destinations:
        path = got.path_to(dest)
        assert path is not None
        assert all(distance(a, b) == 1 for a, b in zip(path, path[1:], strict=False))
        assert path_cost(eng.board, path, move_class) == got.cost[dest]
