"""Before a battle between people at one screen begins: each side may set a pass phrase, which
its hand-over curtain then asks for (``record.seal``). Typed hidden; an empty field leaves the
side open. Only the phrase's salted slow hash is kept."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UITextEntryLine

from .. import i18n
from ..content.scenarios import load_scenario
from ..i18n import _
from ..record.match import new_match
from ..record.seal import MAX_PHRASE, Seal
from ..record.seats import Commander, Seat
from .scale import px
from .scene import Scene, asks_back

if TYPE_CHECKING:
    from .app import App


class SealSetupScene(Scene):
    def __init__(
        self, app: App, scenario_id: str, controllers: dict[str, Commander], difficulties: dict[str, str]
    ) -> None:
        self.scenario_id = scenario_id
        self.controllers = dict(controllers)
        self.difficulties = dict(difficulties)
        self.sides = [s for s in load_scenario(scenario_id).scenario.sides if controllers.get(s.id) == "human"]
        super().__init__(app)

    def build(self) -> None:
        w, h = self.app.size
        col = min(w - px(40), px(560))
        left = (w - col) // 2
        y = max(px(20), h // 2 - px(110) - px(44) * len(self.sides))
        UILabel(pygame.Rect(0, y, w, px(86)), _("Pass phrases"), self.manager, object_id="#title")
        y += px(90)
        for line in (
            _("Each side may set a pass phrase: its hand-over curtain will ask for it."),
            _("Let the other player look away while you type. Leave it empty for none."),
        ):
            UILabel(pygame.Rect(left, y, col, px(28)), line, self.manager)
            y += px(30)
        y += px(12)
        self.entries: dict[str, UITextEntryLine] = {}
        for side in self.sides:
            UILabel(pygame.Rect(left, y, col - px(260), px(36)), i18n.name(side.name), self.manager)
            entry = UITextEntryLine(pygame.Rect(left + col - px(250), y, px(250), px(36)), self.manager)
            entry.set_text_hidden(True)
            entry.set_text_length_limit(MAX_PHRASE)
            self.entries[side.id] = entry
            y += px(46)
        y += px(16)
        self.start_button = UIButton(
            pygame.Rect(left, y, col - px(180), px(48)), _("Start battle"), self.manager, object_id="#big_button"
        )
        self.back_button = UIButton(pygame.Rect(left + col - px(170), y, px(170), px(48)), _("Back"), self.manager)

    def seats(self) -> dict[str, Seat | Commander]:
        """Every side's seat: the computer's as chosen, a person's with the seal of its phrase."""
        seats: dict[str, Seat | Commander] = dict(self.controllers)
        for side, entry in self.entries.items():
            phrase = entry.get_text()
            seats[side] = Seat(commander="human", seal=Seal.of(phrase) if phrase else None)
        return seats

    def start(self) -> None:
        match = new_match(self.scenario_id, self.seats(), seed=None, difficulties=self.difficulties)
        self.app.go("battle", match=match)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.start_button:
                self.start()
            elif event.ui_element is self.back_button:
                self.app.back()
        elif asks_back(event, None):
            self.app.back()

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill((16, 17, 20))
