"""Saving and loading from the battle: the quicksave (F5) and quickload (F9), the autosave at the
start of a human turn, and the name the game is saved under when it is left."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..i18n import _
from ..record.errors import SaveError
from ..record.match import Match
from ..view.names import save_name

if TYPE_CHECKING:
    from .app import App


class BattleSaves:
    def __init__(
        self, app: App, match: Match, say: Callable[[str], None], viewer: Callable[[], str | None] = lambda: None
    ) -> None:
        self.app = app
        self.match = match
        self.say = say  # a line on the battle log
        self.viewer = viewer  # the side whose eyes are on the screen (who loads)

    def save_name(self) -> str:
        """The name it was saved or loaded under, else its scenario and turn."""
        return save_name(self.match.record.name, self.match.loaded.scenario, self.match.state.turn)

    def save_progress(self) -> None:
        """Save under ``save_name``, never over another game's save."""
        self.app.saves.save_game(self.match, self.save_name())

    def quicksave(self) -> None:
        try:
            self.app.saves.quicksave(self.match)
            self.say(_("Game saved"))
        except SaveError as exc:
            self.say(str(exc))

    def autosave(self) -> None:
        """Save at the start of a human turn, keeping only the player's number of autosaves of
        this game (other games' autosaves are theirs)."""
        try:
            self.app.saves.autosave(self.match)
        except SaveError as exc:
            self.say(_("Autosave failed: {reason}").format(reason=str(exc)))

    def quickload(self) -> None:
        """F9: the quicksave in place of this game; moves not yet saved are thrown away only
        once the player says so."""
        if self.match.unsaved() and not self.match.state.over:
            self.app.open(
                "dialog",
                title=_("Load the quicksave?"),
                text=_("The moves made since this game was last saved will be lost."),
                choices=[(_("Load the quicksave"), self._quickload), (_("Keep playing"), None)],
            )
            return
        self._quickload()

    def _quickload(self) -> None:
        try:
            match = self.app.saves.quickload()
        except SaveError as exc:
            self.say(_("Cannot load: {reason}").format(reason=str(exc)))
            return
        mine = self.match.record
        if match.record.scenario_id == mine.scenario_id and match.record.settings == mine.settings:
            # The same campaign battle, taken back to the quicksave: it still counts for the campaign.
            match.campaign = self.match.campaign
        self.open_loaded(match)

    def open_loaded(self, match: Match) -> None:
        """Play ``match`` (loaded from a save) in place of this game: going back in a game
        between people at one screen is recorded, and told to the other side."""
        self.app.saves.opened(match, left=self.match, viewer=self.viewer())
        self.app.go("battle", match=match)
