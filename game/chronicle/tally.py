"""How often the chronicle's set pieces came over many games, and on which turns."""

from __future__ import annotations

import statistics
from dataclasses import asdict
from typing import Any

from .spec import SetPiece
from .watch import ChronicleWatch

# A set piece should come in at least this share of games played at normal by both sides.
GOAL_SHARE = 0.5


def set_piece_results(watch: ChronicleWatch) -> dict[str, dict[str, Any] | None]:
    """One game's set pieces as JSON-ready values: how each came, or None."""
    return {piece.id: (asdict(o) if o is not None else None) for piece, o in watch.report()}


class ChronicleTally:
    """Set pieces counted game by game (memory grows with the turns seen, not the games)."""

    def __init__(self, pieces: tuple[SetPiece, ...]) -> None:
        self.pieces = pieces
        self.games = 0
        self.turns: dict[str, list[int]] = {p.id: [] for p in pieces}

    def add(self, result: dict[str, Any]) -> None:
        """Take one game's result (``game.simulate.run_game``'s, with its ``set_pieces``)."""
        self.games += 1
        for piece_id, came in result.get("set_pieces", {}).items():
            if came is not None and piece_id in self.turns:
                self.turns[piece_id].append(int(came["turn"]))

    @staticmethod
    def game_line(r: dict[str, Any]) -> str:
        """One game in a line: its end and the set pieces that came, with their turns."""
        came = [f"{pid} (turn {c['turn']})" for pid, c in r.get("set_pieces", {}).items() if c is not None]
        return (
            f"seed {r['seed']}: winner {r['winner'] or 'none'} after {r['turns']} turns; "
            f"came: {', '.join(came) or 'none'}"
        )

    def summary(self) -> dict[str, Any]:
        rows = []
        for piece in self.pieces:
            turns = sorted(self.turns[piece.id])
            rows.append(
                {
                    "id": piece.id,
                    "title": piece.title,
                    "came": len(turns),
                    "share": round(len(turns) / self.games, 4) if self.games else 0.0,
                    "first_turn": turns[0] if turns else None,
                    "median_turn": statistics.median(turns) if turns else None,
                    "last_turn": turns[-1] if turns else None,
                }
            )
        return {"games": self.games, "goal_share": GOAL_SHARE, "set_pieces": rows}


def summary_table(summary: dict[str, Any]) -> str:
    """The summary as a plain-text table, one set piece a line, those under the goal marked."""
    games = summary["games"]
    lines = [f"{'set piece':<44} {'came':>9} {'share':>6}  turns (first/median/last)"]
    for row in summary["set_pieces"]:
        turns = "-"
        if row["came"]:
            turns = f"{row['first_turn']}/{row['median_turn']:g}/{row['last_turn']}"
        short = "  under the goal" if row["share"] < summary["goal_share"] else ""
        lines.append(f"{row['title']:<44} {row['came']:>4}/{games:<4} {row['share']:>6.0%}  {turns}{short}")
    return "\n".join(lines)
