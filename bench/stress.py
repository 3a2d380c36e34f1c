"""AI side-turn time on a large generated battlefield, against a legal-action enumeration.

The map (default 96×96 hexes, 150 formations a side) is generated from a seed with the game's
counter-based RNG, so every run times the same battle. Run from the repository root:

    python -m bench.stress [--quick] [--size N] [--formations N] [--turns N] [--seed N]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from game.ai.driver import make_ais, play_ai_turn
from game.content.ruleset import load_ruleset
from game.content.scenarios import LoadedScenario
from game.content.tmx import HexLayout
from game.core.board import Board
from game.core.engine import GameSettings
from game.core.rng import Rng
from game.core.rules import Ruleset, TerrainType
from game.core.scenario import FormationSpec, Scenario, SideSpec
from game.record.match import Match

from .common import enumeration_ms, machine_note, markdown_table, ratio, row, summary

# Value-noise lattice spacing in hexes: the size of hills, woods and plains.
NOISE_CELL = 8
# Rows of empty ground between the two deployment bands: contact comes on the second turn.
GAP_ROWS = 6
MEN = 1500
TARGET = "median ≤ 2000 ms"


def _noise(rng: Rng, width: int, height: int) -> list[list[float]]:
    """Smooth values in [0, 1): a random lattice every NOISE_CELL hexes, interpolated between."""
    cols, rows = width // NOISE_CELL + 2, height // NOISE_CELL + 2
    lattice = [[rng.random() for _ in range(cols)] for _ in range(rows)]
    out = []
    for y in range(height):
        gy, fy = divmod(y / NOISE_CELL, 1.0)
        sy = fy * fy * (3 - 2 * fy)
        line = []
        for x in range(width):
            gx, fx = divmod(x / NOISE_CELL, 1.0)
            sx = fx * fx * (3 - 2 * fx)
            i, j = int(gy), int(gx)
            top = lattice[i][j] * (1 - sx) + lattice[i][j + 1] * sx
            bottom = lattice[i + 1][j] * (1 - sx) + lattice[i + 1][j + 1] * sx
            line.append(top * (1 - sy) + bottom * sy)
        out.append(line)
    return out


def _base_terrain(height: float, wet: float) -> str:
    if height > 0.75:
        return "mountain"
    if height > 0.62:
        return "forest" if wet > 0.6 else "hills"
    if height < 0.22 and wet > 0.55:
        return "marsh"
    if wet > 0.64:
        return "forest"
    if wet < 0.3:
        return "loess" if height > 0.45 else "steppe"
    return "farmland" if wet > 0.5 else "plain"


def terrain_grid(seed: int, width: int, height: int) -> list[list[str]]:
    """Terrain ids, row-major: noise for relief and woods, a north-south river with fords, two
    east-west roads, and scattered villages and towns."""
    elevation = _noise(Rng(seed, 1), width, height)
    moisture = _noise(Rng(seed, 2), width, height)
    grid = [[_base_terrain(elevation[y][x], moisture[y][x]) for x in range(width)] for y in range(height)]
    rng = Rng(seed, 3)
    river_x = width // 3
    for y in range(height):
        river_x = min(width - 2, max(1, river_x + rng.randint(-1, 1)))
        grid[y][river_x] = "ford" if y % 9 == 4 else "river"
    for road_y in (height // 4, (3 * height) // 4):
        for x in range(width):
            grid[road_y][x] = "ford" if grid[road_y][x] == "river" else "road"
    for y in range(height):
        for x in range(width):
            if grid[y][x] in ("plain", "farmland", "steppe", "road") and rng.random() < 0.012:
                grid[y][x] = "town" if rng.random() < 0.2 else "village"
    return grid


def _deploy_slots(width: int, first_row: int, rows: range) -> list[tuple[int, int]]:
    """Every other hex of every other row of a band, in reading order."""
    return [(col, first_row + r) for r in rows for col in range(2 + r % 4 // 2, width - 2, 2)]


def build_scenario(
    rules: Ruleset,
    seed: int = 1,
    size: int = 96,
    per_side: int = 150,
    factions: tuple[str, str] = ("yuqing", "hailing"),
    turn_limit: int = 30,
    heroes: bool = True,
) -> Scenario:
    """A ``size``×``size`` battle: two bands of ``per_side`` formations facing each other across
    the middle of the map. Deployment hexes are levelled to plain so every unit can stand there.
    Without ``heroes`` no formation is led by one (a mirror match of one faction needs that: a
    hero can only be in one place)."""
    grid = terrain_grid(seed, size, size)
    per_row = len(range(2, size - 2, 2))
    band_rows = 2 * -(-per_side // per_row)  # every other row
    north_top = max(0, size // 2 - GAP_ROWS // 2 - band_rows)
    south_top = size // 2 + GAP_ROWS // 2
    if south_top + band_rows > size:
        raise ValueError(f"{per_side} formations a side do not fit on a {size}×{size} map")
    bands = [
        _deploy_slots(size, north_top, range(0, band_rows, 2))[:per_side],
        _deploy_slots(size, south_top, range(0, band_rows, 2))[:per_side],
    ]
    for band in bands:
        for col, r in band:
            grid[r][col] = "plain"
    terrain: list[list[TerrainType]] = [[rules.terrain[t] for t in line] for line in grid]
    board = Board.from_offset_grid(terrain)
    sides = (("north", factions[0], "player"), ("south", factions[1], "enemy"))
    specs: list[FormationSpec] = []
    for (side, faction, _role), band in zip(sides, bands, strict=True):
        types = sorted(u.id for u in rules.units.values() if u.faction == faction)
        leaders = sorted(h.id for h in rules.heroes.values() if h.faction == faction) if heroes else []
        for i, (col, r) in enumerate(band):
            specs.append(
                FormationSpec(
                    id=f"{side}_{i:03d}",
                    side=side,
                    type=types[i % len(types)],
                    men=MEN,
                    hero=leaders[i] if i < len(leaders) else None,
                    pos=board.at_offset(col, r),
                )
            )
    return Scenario(
        id=f"stress_{size}x{size}",
        title="Stress field",
        campaign=None,
        sides=tuple(SideSpec(id=s, faction=f, role=r, name=s) for s, f, r in sides),
        turn_limit=turn_limit,
        turn_limit_outcome="attrition",
        objectives=(),
        briefing="",
        board=board,
        formations=tuple(specs),
    )


def loaded_stress(scenario: Scenario) -> LoadedScenario:
    """Wrap a generated scenario for ``Match`` (its file paths are never opened)."""
    return LoadedScenario(
        scenario=scenario,
        layout=HexLayout(56.0, 64.0, 32.0, True),
        toml_path=Path("<generated>/stress.toml"),
        map_path=Path("<generated>/stress.tmx"),
        content_version="bench-stress",
    )


def run(seed: int, size: int, per_side: int, side_turns: int) -> dict[str, Any]:
    """Play ``side_turns`` AI side-turns from the start; before each, time one enumeration of
    the active side's legal actions on the same state as the baseline."""
    rules = load_ruleset()
    scenario = build_scenario(rules, seed, size, per_side)
    settings = GameSettings()
    match = Match(loaded_stress(scenario), seed, settings, seats={s.id: "ai" for s in scenario.sides})
    ais = make_ais(match)
    ai_ms: list[float] = []
    base_ms: list[float] = []
    for _ in range(side_turns):
        if match.state.over:
            break
        base_ms.append(enumeration_ms(match.engine))
        ai_ms.append(play_ai_turn(match, ais[match.state.active_side.id]))
    ai, base = summary(ai_ms), summary(base_ms)
    return {
        "size": size,
        "per_side": per_side,
        "formations_left": len(match.state.formations),
        "ai_ms": ai,
        "enumeration_ms": base,
        "ratio_median": ratio(ai["median"], base["median"]),
        "raw_ai_ms": [round(v, 2) for v in ai_ms],
    }


def table_rows(result: dict[str, Any]) -> list[dict[str, str]]:
    ai, base = result["ai_ms"], result["enumeration_ms"]
    label = f"AI side-turn, stress {result['size']}×{result['size']}, {result['per_side']} a side"
    baseline = f"{base['median']:.0f} ms (one legal-action enumeration)"
    return [
        row(f"{label}: median", f"{ai['median']:.0f} ms", baseline, result["ratio_median"], TARGET),
        row(f"{label}: p95 / max", f"{ai['p95']:.0f} / {ai['max']:.0f} ms", baseline, None, "–"),
    ]


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m bench.stress", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small map and two side-turns (smoke run)")
    parser.add_argument("--size", type=int, default=None, help="map width and height in hexes (default 96)")
    parser.add_argument("--formations", type=int, default=None, help="formations per side (default 150)")
    parser.add_argument("--turns", type=int, default=None, help="AI side-turns to time (default 6)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    size = args.size or (24 if args.quick else 96)
    per_side = args.formations or (12 if args.quick else 150)
    turns = args.turns or (2 if args.quick else 6)
    result = run(args.seed, size, per_side, turns)
    result["rows"] = table_rows(result)
    ai = result["ai_ms"]
    print(
        f"stress {size}×{size}, {per_side} formations a side, {ai['n']} side-turns: "
        f"AI median {ai['median']} ms, p95 {ai['p95']} ms, max {ai['max']} ms; "
        f"enumeration median {result['enumeration_ms']['median']} ms; ratio {result['ratio_median']}"
    )
    print(f"per side-turn ms: {result['raw_ai_ms']}")
    print()
    print(markdown_table(result["rows"]))
    print(f"\n({machine_note()})")
    return result


if __name__ == "__main__":
    main(sys.argv[1:])
