"""The quick battle: choose a scenario, who commands each side (and how well the computer plays
it), and start. Opened from the main menu for one player against the computer, or with every
side a human's for two players at one screen. The choices are remembered for the next time."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel

from .. import i18n
from ..content.campaigns import names_script
from ..content.errors import ContentErrors
from ..content.scenarios import load_scenario
from ..core.scenario import Scenario
from ..i18n import N_, _
from ..record.match import new_match
from ..record.seats import Commander, default_commander
from ..session.tutorial import offered_scenarios
from .pages import panel
from .scale import px
from .scene import Scene, asks_back
from .title_art import TitleArt

if TYPE_CHECKING:
    from .app import App

# The computer's levels, as recorded in the game settings, with their menu names.
LEVELS: dict[str, str] = {"easy": N_("Easy"), "normal": N_("Normal"), "hard": N_("Hard")}


class QuickBattleScene(Scene):
    music = "menu"
    tells_story = True
    # The player's choices: carried over from another menu, else set by the first ``build``.
    scenario_id: str
    controllers: dict[str, Commander]
    difficulties: dict[str, str]

    def __init__(self, app: App, two_players: bool = False) -> None:
        """``two_players``: every side starts as a human's (two players at one screen); else the
        choices made last time, the player's side against the computer at first."""
        self.two_players = two_players
        settings = app.profile.settings
        ids = offered_scenarios()
        if settings.last_scenario in ids and not two_players:
            self.scenario_id = settings.last_scenario
            self.controllers = dict(settings.last_seats)
            self.difficulties = dict(settings.last_levels)
        elif two_players and settings.last_scenario in ids:
            self.scenario_id = settings.last_scenario
            self.controllers = {}
            self.difficulties = {}
        self.art = TitleArt()
        super().__init__(app)

    def build(self) -> None:
        w, h = self.app.size
        self.ids = offered_scenarios()
        if not hasattr(self, "scenario_id"):
            self.scenario_id = self.ids[0] if self.ids else ""
            self.controllers = {}
            self.difficulties = {}
        self.message = ""
        cx = w // 2
        col = px(460)
        left = cx - col // 2
        y = max(px(40), h // 2 - px(290))
        top = y
        UILabel(
            pygame.Rect(left - px(100), y - px(3), col + px(200), px(86)),
            _("Two players") if self.two_players else _("Quick battle"),
            self.manager,
            object_id="#title",
        )
        UILabel(
            pygame.Rect(left - px(100), y + px(80), col + px(200), px(34)),
            _("Both sides commanded at this screen, turn by turn")
            if self.two_players
            else _("One battle against the computer"),
            self.manager,
            object_id="#subtitle",
        )
        y += px(140)
        UILabel(pygame.Rect(left, y, col, px(26)), _("Scenario"), self.manager)
        titles = self._scenario_titles()
        self.scenario_menu = UIDropDownMenu(
            [t for t, _i in titles] or ["-"],
            next((t for t, i in titles if i == self.scenario_id), titles[0][0] if titles else "-"),
            pygame.Rect(left, y + px(28), col, px(36)),
            self.manager,
        )
        self._title_to_id = dict(titles)
        y += px(76)
        self.side_menus: dict[str, UIDropDownMenu] = {}
        self.level_menus: dict[str, UIDropDownMenu] = {}
        levels: list[str | tuple[str, str]] = [_(name) for name in LEVELS.values()]
        scenario = self._scenario()
        self.tell_story()  # the names of the scenario chosen now
        self.built_story = i18n.story_script()
        options: list[str | tuple[str, str]] = [_("Human"), _("Computer")]
        if scenario is not None:
            for side in scenario.sides:
                first = "human" if self.two_players and side.role != "neutral" else default_commander(side.role)
                ctrl = self.controllers.get(side.id, first)
                self.controllers[side.id] = ctrl
                # Reaches left of the column: the level menu takes room in the row.
                UILabel(pygame.Rect(left - px(100), y, col - px(200), px(36)), i18n.name(side.name), self.manager)
                if ctrl == "ai":  # how well the computer plays this side
                    level = self.difficulties.setdefault(side.id, "normal")
                    self.level_menus[side.id] = UIDropDownMenu(
                        levels,
                        _(LEVELS[level]),
                        pygame.Rect(left + col - px(290), y, px(110), px(36)),
                        self.manager,
                    )
                self.side_menus[side.id] = UIDropDownMenu(
                    options,
                    options[0] if ctrl == "human" else options[1],
                    pygame.Rect(left + col - px(170), y, px(170), px(36)),
                    self.manager,
                )
                y += px(44)
        y += px(16)
        self.start_button = UIButton(
            pygame.Rect(left, y, col - px(180), px(48)), _("Start battle"), self.manager, object_id="#big_button"
        )
        self.back_button = UIButton(pygame.Rect(left + col - px(170), y, px(170), px(48)), _("Main menu"), self.manager)
        self.message_label = UILabel(pygame.Rect(left - px(100), y + px(58), col + px(200), px(30)), "", self.manager)
        # A panel behind the form, so it reads over the field.
        self.form_rect = pygame.Rect(left - px(120), top - px(10), col + px(240), y + px(96) - top)

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(self.art.backdrop(self.app.size), (0, 0))
        panel(surface, self.form_rect)

    def _scenario_titles(self) -> list[tuple[str, str]]:
        out = []
        for sid in self.ids:
            try:
                out.append((_(load_scenario(sid).scenario.title), sid))
            except ContentErrors:
                continue
        return out

    def story_script(self) -> str | None:
        scenario = self._scenario() if getattr(self, "scenario_id", "") else None
        return names_script(scenario.campaign) if scenario is not None else None

    def _scenario(self) -> Scenario | None:
        if not self.scenario_id:
            return None
        try:
            return load_scenario(self.scenario_id).scenario
        except (KeyError, ContentErrors):
            return None

    def _say(self, text: str) -> None:
        self.message = text
        self.message_label.set_text(text)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            if event.ui_element is self.scenario_menu:
                self.scenario_id = self._title_to_id.get(event.text, self.scenario_id)
                self.controllers = {}
                self.difficulties = {}
                self.resize(self.app.size)
            else:
                for sid, menu in self.side_menus.items():
                    if event.ui_element is menu:
                        self.controllers[sid] = "human" if event.text == _("Human") else "ai"
                        self.resize(self.app.size)  # the level choice shows for computer sides only
                        return
                for sid, menu in self.level_menus.items():
                    if event.ui_element is menu:
                        self.difficulties[sid] = next(k for k, v in LEVELS.items() if _(v) == event.text)
        elif asks_back(event, self.back_button):
            self.app.go("menu")
        elif self._asks_start(event):
            self.start()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_F1:
            self.app.open("help")

    def _asks_start(self, event: pygame.event.Event) -> bool:
        """Start battle pressed, or Enter."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            return bool(event.ui_element is self.start_button)
        return event.type == pygame.KEYDOWN and event.key == pygame.K_RETURN

    def _remember(self, **choice: object) -> None:
        """Keep a choice for the next start; the game goes on without it if it cannot."""
        problem = self.app.store_settings(**choice)
        if problem is not None:
            self._say(problem)

    def start(self) -> None:
        if self._scenario() is None:
            self._say(_("This scenario cannot be loaded."))
            return
        levels = {sid: level for sid, level in self.difficulties.items() if self.controllers.get(sid) == "ai"}
        if not self.two_players:  # two players choose their sides afresh each time
            self._remember(
                last_scenario=self.scenario_id, last_seats=dict(self.controllers), last_levels=dict(self.difficulties)
            )
        if list(self.controllers.values()).count("human") > 1:  # people at one screen: pass phrases first
            self.app.open("seal_setup", scenario_id=self.scenario_id, controllers=self.controllers, difficulties=levels)
            return
        self.app.go("battle", match=new_match(self.scenario_id, dict(self.controllers), seed=None, difficulties=levels))
