"""The settings screen, from the main menu and the battle menu: what it changes is written at
once to the settings file and applies at every later start. Two pages, so every row fits the
smallest window: the game, and the screen and sound."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel

from .. import i18n
from ..i18n import N_, _
from ..record.errors import SaveError
from ..settings import AUTOSAVE_CHOICES, UserSettings
from . import scale
from .audio import audio_of
from .pages import BACKGROUND
from .scale import px
from .scene import Scene, asks_back

if TYPE_CHECKING:
    from .app import App

SPEED_NAMES: dict[str, str] = {
    "slow": N_("Slow"),
    "normal": N_("Normal"),
    "fast": N_("Fast"),
    "instant": N_("Instant (no pauses)"),
}
ON_OFF = (N_("On"), N_("Off"))
WINDOW_MODES = (N_("In a window"), N_("Full screen"))
PAGES = {"game": N_("Game"), "screen": N_("Screen and sound")}
# At 100%; the rows close up (to ROW_H_MIN) when the window is too short for them all.
ROW_H = 44
ROW_H_MIN = 38
COLUMN = 660
MENU_W = 260
VOLUME_STEPS = (0, 20, 40, 60, 80, 100)
# The most rows a page has (the game page in Chinese, with the names' script).
MOST_ROWS = 8


class SettingsScene(Scene):
    def __init__(self, app: App, page: str = "game") -> None:
        self.page = page
        self.note = ""
        super().__init__(app)

    @property
    def settings(self) -> UserSettings:
        return self.app.profile.read_settings()

    def build(self) -> None:
        w, h = self.app.size
        s = self.settings
        column, menu_w = min(px(COLUMN), w - 20), min(px(MENU_W), (w - 20) // 2)
        left = (w - column) // 2
        # The title, the page tabs, the rows, the note and Back, as tall as the window allows.
        row_h = max(px(ROW_H_MIN), min(px(ROW_H), (h - px(240)) // MOST_ROWS))
        y = max(px(10), (h - MOST_ROWS * row_h - px(240)) // 2)
        UILabel(pygame.Rect(0, y, w, px(56)), _("Settings"), self.manager, object_id="#subtitle")
        y += px(60)
        self.tabs: dict[UIButton, str] = {}
        tab_w = (column - px(10)) // 2
        for i, (key, name) in enumerate(PAGES.items()):
            tab = UIButton(pygame.Rect(left + i * (tab_w + px(10)), y, tab_w, px(36)), _(name), self.manager)
            if key == self.page:
                tab.select()
            self.tabs[tab] = key
        y += px(50)
        rows_top = y
        self.menus: dict[str, UIDropDownMenu] = {}

        def row(key: str, label: str, options: Sequence[str], current: str) -> None:
            nonlocal y
            height = row_h - px(6)
            UILabel(pygame.Rect(left, y, column - menu_w - px(10), height), label, self.manager)
            self.menus[key] = UIDropDownMenu(
                list(options), current, pygame.Rect(left + column - menu_w, y, menu_w, height), self.manager
            )
            y += row_h

        on_off = [_(v) for v in ON_OFF]
        if self.page == "game":
            row("language", _("Language"), list(i18n.LANGUAGES.values()), i18n.LANGUAGES[i18n.language()])
            if i18n.language() in i18n.CHINESE:
                # Campaign A's names are simplified, campaign B's traditional, unless the reader
                # wants every name in the script they chose.
                options = [_("As the chronicle writes them"), _("In this script")]
                row("names", _("Names"), options, options[0] if i18n.names_follow_story() else options[1])
            speeds = [_(v) for v in SPEED_NAMES.values()]
            row("own_speed", _("Your moves shown"), speeds, _(SPEED_NAMES[s.own_speed]))
            row("ai_speed", _("Computer's moves"), speeds, _(SPEED_NAMES[s.ai_speed]))
            row("briefings", _("Briefing as a battle begins"), on_off, on_off[not s.briefings])
            warning = _("Ask before ending a turn with orders unused")
            row("end_turn_warning", warning, on_off, on_off[not s.end_turn_warning])
            row("hints", _("Hints in battle"), on_off, on_off[not s.hints])
            kept = [str(n) for n in sorted({*AUTOSAVE_CHOICES, s.autosaves})]
            row("autosaves", _("Autosaves kept for each game"), kept, str(s.autosaves))
        else:
            modes = [_(m) for m in WINDOW_MODES]
            row("fullscreen", _("Screen (F11)"), modes, modes[self.app.fullscreen])
            scales = self.scale_names()
            row("ui_scale", _("Size of text and panels"), list(scales.values()), scales[s.ui_scale])
            row("sound", _("Sound"), on_off, on_off[s.muted])
            for key, label in (("music_volume", _("Music volume")), ("effects_volume", _("Effects volume"))):
                now = getattr(s, key)
                row(key, label, [f"{n}%" for n in sorted({*VOLUME_STEPS, now})], f"{now}%")
        y = rows_top + MOST_ROWS * row_h  # Back stands in one place on every page
        self.note_label = UILabel(pygame.Rect(0, y + px(4), w, px(30)), self.note, self.manager)
        self.back_button = UIButton(pygame.Rect(w // 2 - px(120), y + px(40), px(240), px(44)), _("Back"), self.manager)

    def scale_names(self) -> dict[int | None, str]:
        """The scale's choices by their shown names: automatic (the screen's) first."""
        from .app import desktop_size

        auto = scale.default_scale(desktop_size())
        names: dict[int | None, str] = {None: _("Automatic ({percent}%)").format(percent=auto)}
        names.update({p: f"{p}%" for p in scale.SCALE_CHOICES})
        return names

    def choose(self, key: str, text: str) -> None:
        """A value picked in one of the menus, by its shown text."""
        on = text == _(ON_OFF[0])
        if key == "language":
            lang = next(k for k, v in i18n.LANGUAGES.items() if v == text)
            self.app.set_language(lang)
            self._store(language=lang)
            self.resize(self.app.size)  # every label in the new language, and its font
        elif key == "names":
            follow = text == _("As the chronicle writes them")
            i18n.set_names_follow_story(follow)
            self._store(names_follow_story=follow)
        elif key in ("ai_speed", "own_speed"):
            self._store(**{key: next(k for k, v in SPEED_NAMES.items() if _(v) == text)})
        elif key in ("briefings", "end_turn_warning", "hints"):
            self._store(**{key: on})
        elif key == "autosaves":
            self.keep_autosaves(int(text))
        elif key == "fullscreen":
            on = text == _(WINDOW_MODES[1])
            self._store(fullscreen=on)
            self.app.set_fullscreen(on)
        elif key == "ui_scale":
            from .app import desktop_size

            percent = next(p for p, name in self.scale_names().items() if name == text)
            self._store(ui_scale=percent)
            self.app.set_ui_scale(percent or scale.default_scale(desktop_size()))
        elif key in ("sound", "music_volume", "effects_volume"):
            change = {"muted": not on} if key == "sound" else {key: int(text.rstrip("%"))}
            if self._store(**change):
                audio_of(self.app).apply(self.settings)  # heard at once

    def keep_autosaves(self, n: int) -> None:
        """Remember how many autosaves to keep for each game, and let every game's go beyond
        that at once."""
        if self._store(autosaves=n):
            try:
                self.app.saves.keep_autosaves(n)
            except SaveError as exc:
                self._say(str(exc))

    def _store(self, **changes: object) -> bool:
        problem = self.app.store_settings(**changes)
        if problem is not None:
            self._say(problem)
        return problem is None

    def _say(self, text: str) -> None:
        self.note = text
        self.note_label.set_text(text)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            for key, menu in self.menus.items():
                if event.ui_element is menu:
                    self.choose(key, event.text)
                    return
        elif event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.tabs:
            self.page = self.tabs[event.ui_element]
            self.resize(self.app.size)
        elif asks_back(event, self.back_button):
            self.app.back()

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(BACKGROUND)
