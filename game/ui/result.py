"""The end of a battle: who won, why, and what it cost each side."""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel

from ..i18n import N_, _, format_men
from ..record.match import Match
from ..record.saves import SaveError, save_path, save_record
from .scene import Scene

REASONS = {
    "annihilation": N_("The enemy has no formations left on the field."),
    "turn_limit": N_("The last turn has ended."),
    "scenario_event": N_("Events on the field have decided the battle."),
}


class ResultScene(Scene):
    def __init__(self, app, match: Match) -> None:
        self.match = match
        super().__init__(app)

    def _side_name(self, side_id: str | None) -> str:
        for s in self.match.loaded.scenario.sides:
            if s.id == side_id:
                return _(s.name)
        return ""

    def build(self) -> None:
        w, h = self.app.size
        state = self.match.state
        if state.winner is None:
            headline = _("A draw")
        else:
            headline = _("Victory for {side}").format(side=self._side_name(state.winner))
        y = max(30, h // 2 - 240)
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
        y += 60
        self.save_button = UIButton(pygame.Rect(w // 2 - 230, y, 220, 46), _("Save the record"), self.manager)
        self.menu_button = UIButton(pygame.Rect(w // 2 + 10, y, 220, 46), _("Main menu"), self.manager)
        self.note = UILabel(pygame.Rect(0, y + 56, w, 30), "", self.manager, object_id="#subtitle")

    def handle(self, event: pygame.event.Event) -> None:
        if event.type != pygame_gui.UI_BUTTON_PRESSED:
            return
        if event.ui_element is self.save_button:
            rec = self.match.record
            name = f"{rec.scenario_id}-{rec.seed}"
            try:
                path = save_record(rec, save_path(name))
                self.note.set_text(_("Saved to {path}").format(path=str(path)))
            except SaveError as exc:
                self.note.set_text(str(exc))
        elif event.ui_element is self.menu_button:
            from .menu import MenuScene

            self.app.switch(MenuScene(self.app))
