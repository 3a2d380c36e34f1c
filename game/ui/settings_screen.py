"""The settings screen, from the main menu and the battle menu: what it changes is written at
once to the settings file and applies at every later start."""

from __future__ import annotations

from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel

from .. import i18n
from ..i18n import N_, _
from ..paths import SAVES_DIR
from ..record.save_list import prune_autosaves
from ..record.saves import SaveError
from ..settings import AUTOSAVE_CHOICES, UserSettings, load_settings, update_settings
from .audio import audio_of
from .pages import BACKGROUND
from .scene import Scene

SPEED_NAMES: dict[str, str] = {
    "slow": N_("Slow"),
    "normal": N_("Normal"),
    "fast": N_("Fast"),
    "instant": N_("Instant (no pauses)"),
}
ON_OFF = (N_("On"), N_("Off"))
ROW_H = 44
# Rows shrink to this on a short window so that every one fits above Back.
MIN_ROW_H = 38
COLUMN = 660
VOLUME_STEPS = (0, 20, 40, 60, 80, 100)


class SettingsScene(Scene):
    def __init__(self, app, saves_dir: Path = SAVES_DIR) -> None:
        self.saves_dir = saves_dir
        self.note = ""
        super().__init__(app)

    @property
    def settings(self) -> UserSettings:
        return load_settings(self.saves_dir)

    def build(self) -> None:
        w, h = self.app.size
        s = self.settings
        left = (w - COLUMN) // 2
        y = max(20, h // 2 - 250)
        UILabel(pygame.Rect(0, y, w, 60), _("Settings"), self.manager, object_id="#subtitle")
        y += 70
        self.menus: dict[str, UIDropDownMenu] = {}
        rows = 8 + (i18n.language() in i18n.CHINESE)
        row_h = max(MIN_ROW_H, min(ROW_H, (h - y - 100) // rows))

        def row(key: str, label: str, options: list[str], current: str) -> None:
            nonlocal y
            UILabel(pygame.Rect(left, y, COLUMN - 270, 36), label, self.manager)
            self.menus[key] = UIDropDownMenu(
                options, current, pygame.Rect(left + COLUMN - 260, y, 260, 36), self.manager
            )
            y += row_h

        row("language", _("Language"), list(i18n.LANGUAGES.values()), i18n.LANGUAGES[i18n.language()])
        if i18n.language() in i18n.CHINESE:
            # Campaign A's names are simplified, campaign B's traditional, unless the reader wants
            # every name in the script they chose.
            options = [_("As the chronicle writes them"), _("In this script")]
            row("names", _("Names"), options, options[0] if i18n.names_follow_story() else options[1])
        row("ai_speed", _("Computer's moves"), [_(v) for v in SPEED_NAMES.values()], _(SPEED_NAMES[s.ai_speed]))
        on_off = [_(v) for v in ON_OFF]
        row("briefings", _("Briefing as a battle begins"), on_off, on_off[not s.briefings])
        row(
            "end_turn_warning", _("Ask before ending a turn with orders unused"), on_off, on_off[not s.end_turn_warning]
        )
        row("hints", _("Hints in battle"), on_off, on_off[not s.hints])
        kept = [str(n) for n in sorted({*AUTOSAVE_CHOICES, s.autosaves})]
        row("autosaves", _("Autosaves kept for each game"), kept, str(s.autosaves))
        row("sound", _("Sound"), on_off, on_off[s.muted])
        # Music and effects volumes side by side, in one row.
        UILabel(pygame.Rect(left, y, COLUMN - 270, 36), _("Volume: music, effects"), self.manager)
        for i, key in enumerate(("music_volume", "effects_volume")):
            now = getattr(s, key)
            steps = [f"{n}%" for n in sorted({*VOLUME_STEPS, now})]
            rect = pygame.Rect(left + COLUMN - 260 + 132 * i, y, 128, 36)
            self.menus[key] = UIDropDownMenu(steps, f"{now}%", rect, self.manager)
        y += row_h
        self.note_label = UILabel(pygame.Rect(0, y + 4, w, 30), self.note, self.manager)
        self.back_button = UIButton(pygame.Rect(w // 2 - 120, y + 44, 240, 44), _("Back"), self.manager)

    def choose(self, key: str, text: str) -> None:
        """A value picked in one of the menus, by its shown text."""
        on = text == _(ON_OFF[0])
        if key == "language":
            lang = next(k for k, v in i18n.LANGUAGES.items() if v == text)
            i18n.set_language(lang)
            self._store(language=lang)
            self.resize(self.app.size)  # every label in the new language, and its font
        elif key == "names":
            follow = text == _("As the chronicle writes them")
            i18n.set_names_follow_story(follow)
            self._store(names_follow_story=follow)
        elif key == "ai_speed":
            self._store(ai_speed=next(k for k, v in SPEED_NAMES.items() if _(v) == text))
        elif key in ("briefings", "end_turn_warning", "hints"):
            self._store(**{key: on})
        elif key == "autosaves":
            self.keep_autosaves(int(text))
        elif key in ("sound", "music_volume", "effects_volume"):
            change = {"muted": not on} if key == "sound" else {key: int(text.rstrip("%"))}
            if self._store(**change):
                audio_of(self.app).apply(self.settings)  # heard at once

    def keep_autosaves(self, n: int) -> None:
        """Remember how many autosaves to keep for each game, and let every game's go beyond
        that at once."""
        if self._store(autosaves=n):
            try:
                prune_autosaves(n, self.saves_dir)
            except SaveError as exc:
                self._say(str(exc))

    def _store(self, **changes: object) -> bool:
        try:
            update_settings(self.saves_dir, **changes)
        except OSError as exc:
            self._say(_("The settings could not be saved: {reason}").format(reason=exc.strerror or exc))
            return False
        return True

    def _say(self, text: str) -> None:
        self.note = text
        self.note_label.set_text(text)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            for key, menu in self.menus.items():
                if event.ui_element is menu:
                    self.choose(key, event.text)
                    return
        elif (event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.back_button) or (
            event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE
        ):
            self.app.back()

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(BACKGROUND)
