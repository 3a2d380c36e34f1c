"""A battle in figures: each side's men on the field and souls in its pouch at every turn's end,
and what each formation lost, read from the game as it is played or re-run from its record.

Pure: no pygame. ``FiguresWatch`` is told every action's events with the state after it (the
same way the chronicle's watch is), and ``figures`` gives what the plots draw. Losses are read
from the change in each formation's men between one action and the next, so men who come back
(the Hailing host re-forming from its souls, a column replenished) are not taken off them; a
formation that leaves the field without being destroyed (a prince slipping away) has lost
nothing by leaving.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core.events import Destroyed, Event
from ..core.state import GameState


@dataclass(frozen=True)
class FormationLoss:
    formation: str
    side: str
    lost: int  # men lost over the battle (cut down, fled as stragglers, destroyed)
    most: int  # the most men it held at any time
    standing: int  # men it held at the end (0: gone from the field)


@dataclass(frozen=True)
class BattleFigures:
    sides: tuple[str, ...]  # in turn order
    # The turn each sample closes; 0 is the field as the battle began.
    turns: tuple[int, ...]
    men: dict[str, tuple[int, ...]]  # side -> men on the field at each sample
    souls: dict[str, tuple[int, ...]]  # side -> souls in its pouch at each sample
    losses: tuple[FormationLoss, ...]  # every formation that lost men, the heaviest first

    def peak(self, series: dict[str, tuple[int, ...]]) -> int:
        return max((v for values in series.values() for v in values), default=0)


def _men_by_side(state: GameState) -> dict[str, int]:
    out = {s.id: 0 for s in state.sides}
    for f in state.formations.values():
        out[f.side] = out.get(f.side, 0) + f.men
    return out


class FiguresWatch:
    """Samples a battle at every turn's end; ``start`` is the state before the first action."""

    def __init__(self, start: GameState) -> None:
        self.sides = tuple(s.id for s in start.sides)
        self._turns: list[int] = []
        self._men: dict[str, list[int]] = {s: [] for s in self.sides}
        self._souls: dict[str, list[int]] = {s: [] for s in self.sides}
        self._lost: dict[str, int] = {}
        self._most: dict[str, int] = {}
        self._side_of: dict[str, str] = {}
        self._men_now: dict[str, int] = {}
        self._turn = start.turn
        self._take(start, 0)
        self._note_formations(start, ())

    def _take(self, state: GameState, label: int) -> None:
        men = _men_by_side(state)
        pouch = {s.id: s.pouch for s in state.sides}
        self._turns.append(label)
        for side in self.sides:
            self._men[side].append(men.get(side, 0))
            self._souls[side].append(pouch.get(side, 0))

    def _note_formations(self, state: GameState, events: Sequence[Event]) -> None:
        destroyed = {ev.unit for ev in events if isinstance(ev, Destroyed)}
        for fid, before in self._men_now.items():
            now = state.formations.get(fid)
            if now is not None:
                self._lost[fid] = self._lost.get(fid, 0) + max(0, before - now.men)
            elif fid in destroyed:
                self._lost[fid] = self._lost.get(fid, 0) + before
        self._men_now = {fid: f.men for fid, f in state.formations.items()}
        for fid, f in state.formations.items():
            self._side_of[fid] = f.side
            self._most[fid] = max(self._most.get(fid, 0), f.men)

    def seen(self, events: Sequence[Event], state: GameState) -> None:
        """Take in one action's events, ``state`` being the game just after it."""
        self._note_formations(state, events)
        if state.turn > self._turn:
            self._take(state, self._turn)
            self._turn = state.turn
        elif state.over and self._turns[-1] != state.turn:
            self._take(state, state.turn)

    def figures(self) -> BattleFigures:
        losses = [
            FormationLoss(fid, self._side_of[fid], lost, self._most.get(fid, 0), self._men_now.get(fid, 0))
            for fid, lost in self._lost.items()
            if lost > 0
        ]
        losses.sort(key=lambda x: (-x.lost, x.formation))
        return BattleFigures(
            sides=self.sides,
            turns=tuple(self._turns),
            men={s: tuple(v) for s, v in self._men.items()},
            souls={s: tuple(v) for s, v in self._souls.items()},
            losses=tuple(losses),
        )
