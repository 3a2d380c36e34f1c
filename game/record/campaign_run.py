"""A campaign being played: its data, its progress, and the glue between them and battles.

Every change of progress (a battle's end, a camp order) is saved at once, so quitting at any
moment loses nothing but the battle in hand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..content.campaigns import Campaigns
from ..content.scenarios import load_scenario
from ..core import campaign as camp
from ..core.campaign import CampaignProgress, CampaignSpec, CampError
from ..core.engine import GameSettings
from .campaign_saves import save_progress
from .errors import SaveError
from .match import Match, match_from_record
from .saves_folder import SavesFolder
from .seats import Commander


@dataclass
class CampaignRun:
    campaigns: Campaigns
    spec: CampaignSpec
    progress: CampaignProgress
    saves_dir: Path
    # Battles already counted, by the identity of their Match.
    _counted: set[int] = field(default_factory=set)

    @property
    def finished(self) -> bool:
        return self.progress.finished(self.spec)

    @property
    def scenario_id(self) -> str:
        """The battle at hand (the last one once the campaign is won)."""
        return self.spec.scenarios[min(self.progress.stage, len(self.spec.scenarios) - 1)]

    def start_battle(self) -> Match:
        """The next battle: the campaign's side is the player's, every other side the computer's
        at the campaign's difficulty; the army carried from the battles before takes the field."""
        loaded = load_scenario(self.scenario_id)
        settings = self.battle_settings()
        seats: dict[str, Commander] = {
            s.id: ("human" if s.id == self.spec.side else "ai") for s in loaded.scenario.sides
        }
        match = Match(loaded, self.progress.battle_seed(), settings, seats=seats)
        match.campaign = self
        return match

    def battle_settings(self) -> GameSettings:
        """The settings of the battle at hand: the campaign's level and the army carried in."""
        return GameSettings(difficulty=self.progress.difficulty, roster=self.progress.roster)

    def battle_in_progress(self, saves: SavesFolder) -> Match | None:
        """The battle at hand as it was last saved, if it was left unfinished: the newest save of
        this very attempt (its scenario, seed and settings) that loads and is not over. Continuing
        a campaign resumes it there instead of fighting it again from the first turn."""
        if self.finished:
            return None
        seed, settings = self.progress.battle_seed(), self.battle_settings()
        for entry in saves.entries():  # newest first
            record = entry.record
            if record is None or record.scenario_id != self.scenario_id or record.seed != seed:
                continue
            if record.settings != settings:
                continue
            try:
                match = match_from_record(record)
            except SaveError:
                continue
            if match.state.over:
                continue
            match.campaign = self
            return match
        return None

    def battle_over(self, match: Match) -> CampaignProgress:
        """Count a finished battle once (the result screen may be built again) and save."""
        if id(match) not in self._counted and match.state.over:
            self._counted.add(id(match))
            self.progress = camp.after_battle(self.progress, self.spec, match.loaded.scenario, match.state)
            save_progress(self.progress, self.saves_dir)
        return self.progress

    def order(self, change: Callable[[CampaignProgress], CampaignProgress]) -> str | None:
        """Carry out a camp order and save; the reason it was refused, or None."""
        try:
            self.progress = change(self.progress)
        except CampError as exc:
            return str(exc)
        save_progress(self.progress, self.saves_dir)
        return None

    def save(self) -> None:
        save_progress(self.progress, self.saves_dir)
