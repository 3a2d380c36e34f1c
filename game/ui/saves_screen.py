"""The save screen: the saved games with their map, scenario, sides, turn and date; save (from
a battle), load, watch as a replay, delete (asked twice). Autosaves are listed apart, below."""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIImage, UILabel, UIScrollingContainer, UITextEntryLine

from .. import i18n
from ..content.scenarios import load_scenario
from ..i18n import _
from ..record.match import match_from_record
from ..record.save_list import SaveEntry, delete_save, list_saves
from ..record.saves import SaveError, save_path
from .scene import Scene
from .thumbnail import map_thumbnail

ROW_H = 64
THUMB = (96, 56)


def _title(entry: SaveEntry) -> str:
    rec = entry.record
    if rec is None:
        return ""
    try:
        return _(load_scenario(rec.scenario_id).scenario.title)
    except Exception:  # noqa: BLE001 - a save of a scenario this game no longer has
        return rec.scenario_id


def _sides(entry: SaveEntry) -> str:
    rec = entry.record
    if rec is None:
        return ""
    try:
        sides = {s.id: s.name for s in load_scenario(rec.scenario_id).scenario.sides}
    except Exception:  # noqa: BLE001
        sides = {}
    humans = [i18n.name(sides.get(s, s)) for s in entry.humans]
    return " / ".join(humans) if humans else _("computer against computer")


def describe(entry: SaveEntry) -> str:
    """One line: scenario, who plays, turn, when."""
    if entry.problem is not None:
        # The message starts with the file's path, which the list already shows by its name.
        reason = entry.problem.removeprefix(f"{entry.path}: ")
        return _("Cannot be loaded: {reason}").format(reason=reason)
    when = (entry.record.saved_at or "").replace("T", " ").rstrip("Z") if entry.record else ""
    return _("{scenario} · {sides} · turn {turn} · {when}").format(
        scenario=_title(entry), sides=_sides(entry), turn=entry.turn, when=when
    )


class SaveScreen(Scene):
    def __init__(self, app, battle=None) -> None:
        """``battle``: the battle it was opened from (its game can be saved; Back returns to it)."""
        self.battle = battle
        self.selected: str | None = None
        self.confirm_delete: str | None = None
        self.note = ""
        super().__init__(app)

    def build(self) -> None:
        w, h = self.app.size
        self.entries = list_saves(self._saves_dir())
        if self.selected not in {e.name for e in self.entries}:
            self.selected = self.entries[0].name if self.entries else None
        UILabel(pygame.Rect(0, 14, w, 40), _("Saved games"), self.manager, object_id="#subtitle")
        top, bottom = 64, h - 176
        box = pygame.Rect(40, top, w - 80, bottom - top)
        self.container = UIScrollingContainer(box, self.manager, allow_scroll_x=False)
        self.rows: dict[object, str] = {}
        games = [e for e in self.entries if not e.autosave]
        autos = [e for e in self.entries if e.autosave]
        y = 0
        inner = box.w - 24
        for group, heading in ((games, None), (autos, _("Autosaves"))):
            if heading and group:
                UILabel(pygame.Rect(8, y + 4, inner, 28), heading, self.manager, container=self.container)
                y += 34
            for entry in group:
                self._row(entry, y, inner)
                y += ROW_H
        if not self.entries:
            UILabel(pygame.Rect(8, 8, inner, 30), _("No saved games yet."), self.manager, container=self.container)
        self.container.set_scrollable_area_dimensions((inner, max(y, box.h - 4)))
        by = h - 160
        self.name_entry = None
        self.save_button = None
        if self.battle is not None:
            self.name_entry = UITextEntryLine(pygame.Rect(40, by, 300, 40), self.manager)
            self.name_entry.set_text(self._default_name())
            self.save_button = UIButton(pygame.Rect(348, by, 160, 40), _("Save"), self.manager)
        x = w - 40 - 3 * 170 - 20
        self.load_button = UIButton(pygame.Rect(x, by, 160, 40), _("Load"), self.manager)
        # In a hotseat battle a replay would show the other player everything: not from here.
        hotseat = self.battle is not None and self.battle.is_hotseat()
        self.watch_button = UIButton(
            pygame.Rect(x + 170, by, 160, 40),
            _("Watch replay"),
            self.manager,
            tool_tip_text=_("Not while two players share the screen: a replay shows both sides") if hotseat else None,
        )
        delete_label = _("Really delete?") if self.confirm_delete == self.selected else _("Delete")
        self.delete_button = UIButton(pygame.Rect(x + 340, by, 170, 40), delete_label, self.manager)
        chosen = self._entry()
        if chosen is None or chosen.record is None:
            self.load_button.disable()
            self.watch_button.disable()
        if hotseat:
            self.watch_button.disable()
        if chosen is None:
            self.delete_button.disable()
        self.back_button = UIButton(pygame.Rect(w // 2 - 120, h - 72, 240, 44), _("Back"), self.manager)
        self.note_label = UILabel(pygame.Rect(0, h - 112, w, 32), self.note, self.manager)

    def _row(self, entry: SaveEntry, y: int, width: int) -> None:
        thumb = map_thumbnail(entry.record.scenario_id, THUMB) if entry.record is not None else None
        if thumb is not None:
            UIImage(pygame.Rect((8, y + 4), thumb.get_size()), thumb, self.manager, container=self.container)
        x = THUMB[0] + 20
        button = UIButton(
            pygame.Rect(x, y + 4, width - x - 8, ROW_H - 8),
            f"{entry.name}   {describe(entry)}",
            self.manager,
            container=self.container,
            object_id="#save_row",
        )
        if entry.name == self.selected:
            button.select()
        self.rows[button] = entry.name

    def _saves_dir(self):
        return save_path("x").parent

    def _default_name(self) -> str:
        rec = self.battle.match.record
        return f"{rec.scenario_id}-turn{self.battle.state.turn}"[:64]

    def _entry(self) -> SaveEntry | None:
        return next((e for e in self.entries if e.name == self.selected), None)

    # -- orders -------------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.back()
            return
        if event.type != pygame_gui.UI_BUTTON_PRESSED:
            return
        element = event.ui_element
        if element in self.rows:
            self.selected = self.rows[element]
            self.confirm_delete = None
            self.resize(self.app.size)
        elif element is self.back_button:
            self.back()
        elif element is self.save_button:
            self.save()
        elif element is self.load_button:
            self.load()
        elif element is self.watch_button:
            self.watch()
        elif element is self.delete_button:
            self.delete()

    def _say(self, text: str) -> None:
        self.note = text
        self.resize(self.app.size)

    def save(self) -> None:
        name = self.name_entry.get_text().strip() if self.name_entry is not None else ""
        try:
            path = save_path(name)
            self.battle.match.save(path)
        except SaveError as exc:
            self._say(str(exc))
            return
        self.selected = name
        self._say(_("Saved as {name}").format(name=name))

    def load(self) -> None:
        entry = self._entry()
        if entry is None or entry.record is None:
            return
        try:
            match = match_from_record(entry.record)
        except SaveError as exc:
            self._say(_("Cannot load: {reason}").format(reason=str(exc)))
            return
        self.app.go("battle", match=match)

    def watch(self) -> None:
        entry = self._entry()
        if entry is None or entry.record is None or (self.battle is not None and self.battle.is_hotseat()):
            return
        try:
            self.app.go("replay", record=entry.record)
        except SaveError as exc:
            self._say(_("Cannot load: {reason}").format(reason=str(exc)))

    def delete(self) -> None:
        entry = self._entry()
        if entry is None:
            return
        if self.confirm_delete != entry.name:
            self.confirm_delete = entry.name
            self.resize(self.app.size)
            return
        try:
            delete_save(entry.path, self._saves_dir())
        except SaveError as exc:
            self._say(str(exc))
            return
        self.confirm_delete = None
        self.selected = None
        self._say(_("Deleted {name}").format(name=entry.name))

    def back(self) -> None:
        self.app.back()
