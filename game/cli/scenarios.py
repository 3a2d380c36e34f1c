"""``qiankun scenarios``: list the scenarios, as a table or as JSON."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .. import i18n
from ..content.scenarios import scenario_ids
from .errors import EXIT_OK
from .inputs import loaded_scenario


def cmd_scenarios(args: argparse.Namespace) -> int:
    rows: list[dict[str, Any]] = []
    for sid in scenario_ids():
        sc = loaded_scenario(sid).scenario
        rows.append(
            {
                "id": sc.id,
                "title": i18n._(sc.title),
                "campaign": sc.campaign,
                "sides": [{"id": s.id, "faction": s.faction, "role": s.role} for s in sc.sides],
                "map_size": [sc.board.width, sc.board.height],
            }
        )
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))
    else:
        for r in rows:
            sides = " vs ".join(s["id"] for s in r["sides"])
            w, h = r["map_size"]
            print(f"{r['id']:<22} {r['title']:<24} {r['campaign'] or '-':<10} {sides}  {w}x{h}")
    return EXIT_OK
