"""The end of a battle: who won, why, and what it cost each side."""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel

from .. import i18n
from ..content.campaigns import names_script
from ..i18n import N_, _, format_men
from ..record.campaign_run import CampaignRun
from ..record.match import Match
from ..record.saves import SaveError, save_path
from .pages import panel, paragraph, paragraph_height
from .scene import Scene

REASONS = {
    "annihilation": N_("The enemy has no formations left on the field."),
    "turn_limit": N_("The last turn has ended."),
    "scenario_event": N_("Events on the field have decided the battle."),
}


class ResultScene(Scene):
    def __init__(self, app, match: Match) -> None:
        self.match = match
        i18n.set_story_script(names_script(match.loaded.scenario.campaign))
        # A campaign battle: counted (and the progress saved) once, as the screen opens.
        self.run: CampaignRun | None = match.campaign if isinstance(match.campaign, CampaignRun) else None
        self.save_problem = ""
        if self.run is not None:
            try:
                self.run.battle_over(match)
            except SaveError as exc:
                self.save_problem = str(exc)
        super().__init__(app)

    def _won(self) -> bool:
        return self.run is not None and self.match.state.winner == self.run.spec.side

    def _side_name(self, side_id: str | None) -> str:
        for s in self.match.loaded.scenario.sides:
            if s.id == side_id:
                return i18n.name(s.name)
        return ""

    def build(self) -> None:
        w, h = self.app.size
        state = self.match.state
        if state.winner is None:
            headline = _("A draw")
        else:
            headline = _("Victory for {side}").format(side=self._side_name(state.winner))
        y = max(30, h // 2 - 240) if self.run is None else 24
        UILabel(pygame.Rect(0, y - 8, w, 86), headline, self.manager, object_id="#title")
        UILabel(
            pygame.Rect(0, y + 74, w, 32),
            _(REASONS.get(state.end_reason or "", "")),
            self.manager,
            object_id="#subtitle",
        )
        y += 130
        for side in state.sides:
            text = _("{side}: {start} men at the start, {now} now; {souls} souls in the pouch").format(
                side=self._side_name(side.id),
                start=format_men(side.men_start),
                now=format_men(state.men_of(side.id)),
                souls=format_men(side.pouch),
            )
            UILabel(pygame.Rect(w // 2 - 360, y, 720, 32), text, self.manager)
            y += 36
        text = _("Wandering souls left on the field: {n}").format(n=format_men(state.souls_on_field()))
        UILabel(pygame.Rect(w // 2 - 360, y, 720, 32), text, self.manager)
        y += 48
        self.debriefing_top = y
        self.camp_button = self.retry_button = None
        if self.run is not None:
            y = h - 150
            if self._won():
                label = _("To the camp") if not self.run.finished else _("The campaign is won")
                self.camp_button = UIButton(
                    pygame.Rect(w // 2 - 230, y, 460, 48), label, self.manager, object_id="#big_button"
                )
            else:
                self.retry_button = UIButton(
                    pygame.Rect(w // 2 - 230, y, 460, 48),
                    _("Fight the battle again"),
                    self.manager,
                    object_id="#big_button",
                )
            y += 58
        self.debriefing_bottom = y - 70
        self.save_button = UIButton(pygame.Rect(w // 2 - 230, y, 220, 46), _("Save the record"), self.manager)
        back = _("Campaigns") if self.run is not None else _("Main menu")
        self.menu_button = UIButton(pygame.Rect(w // 2 + 10, y, 220, 46), back, self.manager)
        self.note = UILabel(pygame.Rect(0, y + 50, w, 30), self.save_problem, self.manager, object_id="#subtitle")

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if self.run is None:
            return
        scenario = self.match.loaded.scenario
        text = scenario.debriefing_victory if self._won() else scenario.debriefing_defeat
        if not text:
            return
        w, _h = self.app.size
        width = min(860, w - 80)
        x = (w - width) // 2
        room = self.debriefing_bottom - self.debriefing_top
        height = min(room, paragraph_height(_(text), width) + 28)
        box = pygame.Rect(x - 16, self.debriefing_top, width + 32, height)
        panel(surface, box)
        paragraph(surface, _(text), x, box.y + 14, width, size=17, max_y=box.bottom - 8)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type != pygame_gui.UI_BUTTON_PRESSED:
            return
        if event.ui_element is self.save_button:
            rec = self.match.record
            name = f"{rec.scenario_id}-{rec.seed}"
            try:
                path = self.match.save(save_path(name))
                self.note.set_text(_("Saved to {path}").format(path=str(path)))
            except SaveError as exc:
                self.note.set_text(str(exc))
        elif event.ui_element is self.menu_button:
            if self.run is not None:
                self.app.go("campaigns", saves_dir=self.run.saves_dir)
            else:
                self.app.go("menu")
        elif event.ui_element is self.camp_button and self.run is not None:
            self.app.go("camp", run=self.run)
        elif event.ui_element is self.retry_button and self.run is not None:
            self.app.go("briefing", run=self.run)
