"""The main menu: choose a scenario, who commands each side (and how well the computer plays
it), the language; start or load."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel

from .. import i18n
from ..content.campaigns import names_script
from ..content.errors import ContentErrors
from ..content.scenarios import load_scenario, scenario_ids
from ..core.scenario import Scenario
from ..i18n import N_, _
from ..record.errors import SaveError
from ..record.match import new_match
from ..record.seats import Commander, default_commander
from .scale import px
from .scene import Scene

if TYPE_CHECKING:
    from .app import App

# How far the bottom row of buttons reaches past the column on each side.
ROW_OVERHANG = 70
# The computer's levels, as recorded in the game settings, with their menu names.
LEVELS: dict[str, str] = {"easy": N_("Easy"), "normal": N_("Normal"), "hard": N_("Hard")}


class MenuScene(Scene):
    music = "menu"
    tells_story = True
    # The player's choices: carried over from another menu, else set by the first ``build``.
    scenario_id: str
    controllers: dict[str, Commander]
    difficulties: dict[str, str]

    def __init__(self, app: App, carry_from: MenuScene | None = None) -> None:
        """``carry_from``: a menu whose choices (scenario, who plays each side, at what level)
        this one keeps, as when the language changes and the widgets are built anew."""
        if carry_from is not None:
            self.scenario_id = carry_from.scenario_id
            self.controllers = dict(carry_from.controllers)
            self.difficulties = dict(carry_from.difficulties)
        super().__init__(app)

    def build(self) -> None:
        w, h = self.app.size
        self.ids = scenario_ids()
        if not hasattr(self, "scenario_id"):
            self.scenario_id = self.ids[0] if self.ids else ""
            self.controllers = {}
            self.difficulties = {}
        self.message = ""
        cx = w // 2
        col = px(460)
        left = cx - col // 2
        y = max(px(40), h // 2 - px(290))
        UILabel(
            pygame.Rect(left - px(100), y - px(3), col + px(200), px(86)),
            "乾坤 Qiankun",
            self.manager,
            object_id="#title",
        )
        UILabel(
            pygame.Rect(left - px(100), y + px(80), col + px(200), px(34)),
            _("Souls, armies and the qiankun pouch"),
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
                ctrl = self.controllers.get(side.id, default_commander(side.role))
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
        y += px(8)
        # The language is asked here, first thing; the names' script and the rest are in Settings.
        UILabel(pygame.Rect(left, y, col - px(180), px(36)), _("Language"), self.manager)
        self.lang_menu = UIDropDownMenu(
            list(i18n.LANGUAGES.values()),
            i18n.LANGUAGES[i18n.language()],
            pygame.Rect(left + col - px(170), y, px(170), px(36)),
            self.manager,
        )
        y += px(60)
        self.start_button = UIButton(
            pygame.Rect(left, y, col - px(180), px(48)), _("Start battle"), self.manager, object_id="#big_button"
        )
        self.replay_button = UIButton(
            pygame.Rect(left + col - px(170), y, px(170), px(48)), _("Watch a replay"), self.manager
        )
        y += px(58)
        # The row reaches a little past the column on both sides, so five buttons keep their room.
        row = [_("Campaigns"), _("Saved games"), _("Settings"), _("Help"), _("Quit")]
        row_left, row_w = left - px(ROW_OVERHANG), col + 2 * px(ROW_OVERHANG)
        fifth = (row_w - px(10) * (len(row) - 1)) // len(row)
        buttons = [
            UIButton(pygame.Rect(row_left + i * (fifth + px(10)), y, fifth, px(40)), t, self.manager)
            for i, t in enumerate(row)
        ]
        self.campaign_button, self.saves_button, self.settings_button, self.help_button, self.quit_button = buttons
        self.message_label = UILabel(pygame.Rect(left - px(100), y + px(50), col + px(200), px(30)), "", self.manager)

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
            elif event.ui_element is self.lang_menu:
                lang = next(k for k, v in i18n.LANGUAGES.items() if v == event.text)
                self.app.set_language(lang)
                self._remember(language=lang)
                self.app.go("menu", carry_from=self)
            else:
                for sid, menu in self.side_menus.items():
                    if event.ui_element is menu:
                        self.controllers[sid] = "human" if event.text == _("Human") else "ai"
                        self.resize(self.app.size)  # the level choice shows for computer sides only
                        return
                for sid, menu in self.level_menus.items():
                    if event.ui_element is menu:
                        self.difficulties[sid] = next(k for k, v in LEVELS.items() if _(v) == event.text)
        elif event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.start_button:
                self.start()
            elif event.ui_element is self.campaign_button:
                self.app.go("campaigns")
            elif event.ui_element is self.saves_button:
                self.app.open("saves")
            elif event.ui_element is self.settings_button:
                self.app.open("settings")
            elif event.ui_element is self.help_button:
                self.app.open("help")
            elif event.ui_element is self.replay_button:
                self.watch_replay()
            elif event.ui_element is self.quit_button:
                self.app.leave()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_RETURN:
            self.start()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_F1:
            self.app.open("help")

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
        if list(self.controllers.values()).count("human") > 1:  # people at one screen: pass phrases first
            self.app.open("seal_setup", scenario_id=self.scenario_id, controllers=self.controllers, difficulties=levels)
            return
        match = new_match(self.scenario_id, dict(self.controllers), seed=None, difficulties=levels)
        self.app.go("battle", match=match)

    def watch_replay(self) -> None:
        """The replay viewer on the most recent save."""
        record = self.app.saves.newest_record()
        if record is None:
            self._say(_("No saved game to watch yet."))
            return
        try:
            self.app.go("replay", record=record)
        except SaveError as exc:
            self._say(_("Cannot load: {reason}").format(reason=str(exc)))
