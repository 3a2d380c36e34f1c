"""What one side knows of the battle at one position, asked of the rules once and kept.

A ``SideView`` answers for one state as it stands: the hexes the side sees now and has ever
explored, the formations it sees, the state as it knows it, where its enemies in sight could
strike next turn, and the cards of the formations it sees. Each answer is worked out when first
asked and kept for the view's lifetime, so a screen that redraws sixty times a second asks the
rules once per position; ``SideViews`` keeps the view of the position on screen and makes a
new one when the game moves on. The rules are game.core.vision's; this is only their reader.

A view with no side (``side=None``) is a spectator's: it sees everything.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..core import vision
from ..core.board import Board
from ..core.hexgrid import Hex
from ..core.rules import Ruleset
from ..core.state import Formation, GameState
from .card import FormationCard, formation_card
from .threat import Threat, threat_map

__all__ = ["Fog", "SideView", "SideViews"]


@dataclass(frozen=True)
class Fog:
    """What the side whose eyes are on the screen knows, as the map draws it."""

    visible: frozenset[Hex]  # in sight now
    explored: frozenset[Hex]  # ever seen
    shown: frozenset[str]  # formation ids it sees


class SideView:
    """``side``'s view of ``state``. The state must not change while the view is in use (build
    a new one, or ask ``SideViews``, after an action)."""

    def __init__(self, state: GameState, board: Board, rules: Ruleset, side: str | None) -> None:
        self.real = state
        self.board = board
        self.rules = rules
        self.side = side
        self._cards: dict[str, FormationCard | None] = {}

    @cached_property
    def visible(self) -> frozenset[Hex]:
        """The hexes the side (with its allies) sees now."""
        if self.side is None:
            return frozenset(self.board.hexes())
        return vision.visible_hexes(self.real, self.board, self.rules, self.side)

    @cached_property
    def explored(self) -> frozenset[Hex]:
        """The hexes the side has ever seen."""
        if self.side is None:
            return frozenset(self.board.hexes())
        return frozenset(Hex.parse(k) for k in self.real.side(self.side).explored)

    @cached_property
    def seen(self) -> tuple[Formation, ...]:
        """The formations the side sees, by id."""
        if self.side is None:
            return tuple(self.real.formations[k] for k in sorted(self.real.formations))
        return tuple(vision.seen_formations(self.real, self.board, self.rules, self.side))

    @cached_property
    def seen_ids(self) -> frozenset[str]:
        return frozenset(f.id for f in self.seen)

    @cached_property
    def sight(self) -> vision.Sight:
        """What the witness rule judges an event by (``witness.witnessed``)."""
        return vision.Sight(seen=self.seen_ids, visible=self.visible)

    @cached_property
    def state(self) -> GameState:
        """The state as the side knows it (``vision.side_view``): read-only, for planning and
        for showing, never for play."""
        if self.side is None:
            return self.real
        return vision.side_view(self.real, self.board, self.rules, self.side)

    @cached_property
    def fog(self) -> Fog | None:
        """The fog the map is drawn through; None for a spectator."""
        if self.side is None:
            return None
        return Fog(visible=self.visible, explored=self.explored, shown=self.seen_ids)

    # -- formations -------------------------------------------------------------------------

    def sees(self, unit_id: str) -> bool:
        return unit_id in self.seen_ids

    def formation_at(self, h: Hex) -> Formation | None:
        """The formation the side sees on ``h``, if any."""
        return next((f for f in self.seen if f.pos == h), None)

    def card(self, unit_id: str) -> FormationCard | None:
        """The card of a formation the side sees; None for one it does not see."""
        if unit_id not in self._cards:
            self._cards[unit_id] = formation_card(self.real, self.rules, self.side, unit_id, self.seen_ids)
        return self._cards[unit_id]

    # -- the enemy's next turn --------------------------------------------------------------

    @cached_property
    def threat(self) -> Threat:
        """Where the enemies the side sees could strike in their next turn, on the ground it
        has explored: ground never seen tells nothing, not even how far an enemy gets over it.
        Nothing for a spectator, who has no enemies."""
        if self.side is None:
            return Threat()
        return threat_map(self.state, self.board, self.rules, self.side).within(self.explored)

    def enemy_reach(self, unit_id: str) -> frozenset[Hex]:
        """Where one enemy formation could strike next turn; nothing for one the side does not
        see or that is no enemy of it."""
        return self.threat.of(unit_id)


def _position(state: GameState, side: str | None) -> tuple[int, int]:
    """Equal for two moments of one state object at the same position: every action advances
    ``action_index`` (undo and loading bring another state object)."""
    return (state.action_index, 0 if side is None else len(state.side(side).explored))


class SideViews:
    """A side's view of the position on screen, kept until the state object, its position or
    the side changes."""

    def __init__(self, board: Board, rules: Ruleset) -> None:
        self.board = board
        self.rules = rules
        self._kept: dict[str | None, tuple[tuple[int, int], SideView]] = {}

    def of(self, state: GameState, side: str | None) -> SideView:
        position = _position(state, side)
        kept = self._kept.get(side)
        if kept is None or kept[1].real is not state or kept[0] != position:
            kept = (position, SideView(state, self.board, self.rules, side))
            self._kept[side] = kept
        return kept[1]

    def clear(self) -> None:
        self._kept.clear()
