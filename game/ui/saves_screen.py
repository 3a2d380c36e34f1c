"""The save screen: the saved games with their map, name, scenario, sides, turn and date; save
(from a battle, under any name; saving over a save asks first), load, watch as a replay, delete
(asked twice). Autosaves are listed apart, below, each game's together."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIImage, UILabel, UIScrollingContainer, UITextEntryLine

from .. import i18n
from ..content.scenarios import load_scenario
from ..core.scenario import Scenario
from ..i18n import _, ngettext
from ..record.errors import SaveError
from ..record.match import match_from_record
from ..record.names import MAX_NAME_CHARS, BadSaveName, clean_name
from ..record.save_list import SaveEntry, autosave_pools, game_id
from ..record.saves import QUICKSAVE_NAME
from ..settings import load_settings
from .fonts import font
from .scale import px
from .scene import Scene
from .thumbnail import map_thumbnail

if TYPE_CHECKING:
    from ..record.model import GameRecord
    from .app import App
    from .battle import BattleScene

ROW_H = 64
THUMB = (96, 56)
BUTTON_W = 170
# The list and its buttons are no wider than this: a row is read from its name to its file.
MAX_WIDTH = 1200
# Text sizes in a row (the theme's #save_name, #save_meta and #save_file).
NAME_SIZE, META_SIZE, FILE_SIZE = 17, 14, 13


class RowText(UILabel):
    """Text over a row's button: the mouse passes through it, so the row lights up and is
    pressed wherever it is pointed at."""

    def hover_point(self, hover_x: float, hover_y: float) -> bool:
        return False


def fit(text: str, size: int, width: int) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels at ``size``."""
    f = font(size)
    if f.size(text)[0] <= width:
        return text
    while text and f.size(text + "…")[0] > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _scenario(entry: SaveEntry) -> Scenario | None:
    rec = entry.record
    try:
        return load_scenario(rec.scenario_id).scenario if rec is not None else None
    except Exception:  # noqa: BLE001 - a save of a scenario this game no longer has
        return None


def _title(entry: SaveEntry) -> str:
    rec = entry.record
    if rec is None:
        return ""
    scenario = _scenario(entry)
    return _(scenario.title) if scenario is not None else rec.scenario_id


def _side_name(entry: SaveEntry, side: str) -> str:
    scenario = _scenario(entry)
    names = {s.id: s.name for s in scenario.sides} if scenario is not None else {}
    return i18n.name(names.get(side, side))


def _sides(entry: SaveEntry) -> str:
    if entry.record is None:
        return ""
    humans = [_side_name(entry, s) for s in entry.humans]
    return " / ".join(humans) if humans else _("computer against computer")


def _when(entry: SaveEntry) -> str:
    return (entry.record.saved_at or "").replace("T", " ").rstrip("Z") if entry.record else ""


def describe(entry: SaveEntry) -> str:
    """One line: scenario, who plays, turn, when."""
    if entry.problem is not None:
        # The message starts with the file's path, which the list already shows by its name.
        reason = entry.problem.removeprefix(f"{entry.path}: ")
        return _("Cannot be loaded: {reason}").format(reason=reason)
    return _("{scenario} · {sides} · turn {turn} · {when}").format(
        scenario=_title(entry), sides=_sides(entry), turn=entry.turn, when=_when(entry)
    )


def load_game(app: App, record: GameRecord) -> str | None:
    """Play a saved game on from where it was saved (the save list's Load, the main menu's
    Continue): None once its battle is shown, else why it cannot be."""
    try:
        match = match_from_record(record)
    except SaveError as exc:
        return _("Cannot load: {reason}").format(reason=str(exc))
    app.saves.opened(match)  # a two-player game gone back to is seen by the other side too
    app.go("battle", match=match)
    return None


def shown_name(entry: SaveEntry) -> str:
    """What a save is called in the list: the player's name for it; for an autosave its turn
    and the side to move; the quicksave as such; else its file name."""
    if entry.autosave and entry.record is not None:
        side = entry.side_to_move
        if side is None:
            return _("Turn {turn}").format(turn=entry.turn)
        return _("Turn {turn} · {side} to move").format(turn=entry.turn, side=_side_name(entry, side))
    if not entry.named and entry.path.stem == QUICKSAVE_NAME:
        return _("Quicksave")
    return entry.name


def refusal(exc: BadSaveName) -> str:
    """Why a name was refused, in one line."""
    if exc.reason == "empty":
        return _("Type a name to save the game under.")
    if exc.reason == "too_long":
        return ngettext(
            "That name has {n} character; a save name can have at most {limit}.",
            "That name has {n} characters; a save name can have at most {limit}.",
            exc.length,
        ).format(n=exc.length, limit=MAX_NAME_CHARS)
    if exc.reason == "unshowable":
        return _("That name holds an invisible or control character; type it again without it.")
    return str(exc)


class SaveScreen(Scene):
    def __init__(self, app: App, battle: BattleScene | None = None) -> None:
        """``battle``: the battle it was opened from (its game can be saved; Back returns to it)."""
        self.battle = battle
        # Rows are told apart by their file: two saves may carry the same name.
        self.selected: Path | None = None
        self.confirm_delete: Path | None = None
        self.note = ""
        # The text in the name field, kept when the screen is built again (a refusal, a resize).
        self.typed: str | None = None
        self.refused = False
        self.name_entry: UITextEntryLine | None = None  # made by ``build``
        super().__init__(app)

    def resize(self, size: tuple[int, int]) -> None:
        if self.name_entry is not None:
            self.typed = self.name_entry.get_text()
        super().resize(size)

    def build(self) -> None:
        w, h = self.app.size
        self.entries = self.app.saves.entries()
        if self.selected not in {e.path for e in self.entries}:
            self.selected = self.entries[0].path if self.entries else None
        UILabel(pygame.Rect(0, px(14), w, px(40)), _("Saved games"), self.manager, object_id="#subtitle")
        # One column, no wider than reads well; the buttons on one row below it when it is wide
        # enough, else the name and Save on a row of their own.
        col = pygame.Rect(0, 0, min(w - 80, px(MAX_WIDTH)), h)
        col.centerx = w // 2
        button_w, line_h = px(BUTTON_W), px(40)
        actions_w = 3 * button_w
        field_w = min(px(420), col.w - button_w - 8 - 24 - actions_w)
        one_row = self.battle is None or field_w >= px(280)
        if not one_row:
            field_w = col.w - 8 - button_w
        by = h - px(160)
        fy = by if one_row else by - px(48)
        top, bottom = px(64), fy - 16
        box = pygame.Rect(col.x, top, col.w, bottom - top)
        self.container = UIScrollingContainer(box, self.manager, allow_scroll_x=False)
        self.rows: dict[object, Path] = {}
        inner = box.w - 24
        y = self._list(inner)
        self.container.set_scrollable_area_dimensions((inner, max(y, box.h - 4)))
        self.name_entry = None
        self.save_button = None
        if self.battle is not None:
            self.name_entry = UITextEntryLine(pygame.Rect(col.x, fy, field_w, line_h), self.manager)
            self.name_entry.set_text(self._default_name() if self.typed is None else self.typed)
            self.save_button = UIButton(pygame.Rect(col.x + field_w + 8, fy, button_w, line_h), _("Save"), self.manager)
            if self.refused:
                self.refused = False
                self.manager.set_focus_set(self.name_entry)
        x = col.right - actions_w
        self.load_button = UIButton(pygame.Rect(x, by, button_w - 10, line_h), _("Load"), self.manager)
        # In a hotseat battle a replay would show the other player everything: not from here.
        hotseat = self.battle is not None and self.battle.session.is_hotseat()
        self.watch_button = UIButton(
            pygame.Rect(x + button_w, by, button_w - 10, line_h),
            _("Watch replay"),
            self.manager,
            tool_tip_text=_("Not while two players share the screen: a replay shows both sides") if hotseat else None,
        )
        asking = self.confirm_delete is not None and self.confirm_delete == self.selected
        delete_label = _("Really delete?") if asking else _("Delete")
        self.delete_button = UIButton(pygame.Rect(x + 2 * button_w, by, button_w, line_h), delete_label, self.manager)
        chosen = self._entry()
        if chosen is None or chosen.record is None:
            self.load_button.disable()
            self.watch_button.disable()
        if hotseat:
            self.watch_button.disable()
        if chosen is None:
            self.delete_button.disable()
        self.back_button = UIButton(pygame.Rect(w // 2 - px(120), h - px(72), px(240), px(44)), _("Back"), self.manager)
        self.note_label = UILabel(
            pygame.Rect(20, h - px(112), w - 40, px(32)), fit(self.note, 16, w - 60), self.manager, object_id="#note"
        )

    def _list(self, inner: int) -> int:
        """The rows: the saved games, then the autosaves game by game; the height they take."""
        games = [e for e in self.entries if not e.autosave]
        pools = autosave_pools(self.entries)
        # Autosaves that cannot be loaded belong to no game: listed last, to be deleted.
        stray = [e for e in self.entries if e.autosave and e.game is None]
        y = 0
        for entry in games:
            self._row(entry, y, inner)
            y += px(ROW_H)
        if pools or stray:
            keep = load_settings(self.app.saves.folder).autosaves
            heading = ngettext(
                "Autosaves: the newest {n} save is kept for each game",
                "Autosaves: the newest {n} saves are kept for each game",
                keep,
            ).format(n=keep)
            UILabel(pygame.Rect(8, y + 8, inner - 16, px(28)), heading, self.manager, container=self.container)
            y += px(38)
        mine = game_id(self.battle.match.record) if self.battle is not None else None
        for pool in pools:
            first = pool[0]
            text = f"{_title(first)} · {_sides(first)}"
            if first.game == mine:
                text = _("{game} (this game)").format(game=text)
            UILabel(
                pygame.Rect(8, y, inner - 16, px(24)),
                fit(text, META_SIZE, inner - 16),
                self.manager,
                container=self.container,
                object_id="#save_meta",
            )
            y += px(26)
            for entry in pool:
                self._row(entry, y, inner)
                y += px(ROW_H)
            y += 6
        for entry in stray:
            self._row(entry, y, inner)
            y += px(ROW_H)
        if not self.entries:
            UILabel(pygame.Rect(8, 8, inner, px(30)), _("No saved games yet."), self.manager, container=self.container)
        return y

    def _row(self, entry: SaveEntry, y: int, width: int) -> None:
        thumb = map_thumbnail(entry.record.scenario_id, THUMB) if entry.record is not None else None
        if thumb is not None:
            UIImage(pygame.Rect((8, y + 4), thumb.get_size()), thumb, self.manager, container=self.container)
        rect = pygame.Rect(THUMB[0] + 20, y + 4, width - THUMB[0] - 28, px(ROW_H) - 8)
        button = UIButton(rect, "", self.manager, container=self.container, object_id="#save_row")
        # The muted text of the chosen row is lighter, to be read on its highlight.
        on = "_on" if entry.path == self.selected else ""
        if on:
            button.select()
        self.rows[button] = entry.path
        name = shown_name(entry)
        meta = _when(entry) if entry.autosave and entry.problem is None else describe(entry)
        text_w = rect.w - 24
        # The file, where the name does not say it: small, at the right of the name.
        file_note = "" if entry.autosave or entry.path.stem == name else entry.path.name
        file_w = 0
        if file_note:
            file_note = fit(file_note, FILE_SIZE, text_w * 2 // 5)
            file_w = font(FILE_SIZE).size(file_note)[0] + 8
            RowText(
                pygame.Rect(rect.right - 12 - file_w, rect.y + px(6), file_w, px(22)),
                file_note,
                self.manager,
                container=self.container,
                object_id=f"#save_file{on}",
            )
        name_w = text_w - (file_w + 16 if file_w else 0)
        RowText(
            pygame.Rect(rect.x + 12, rect.y + 3, name_w, px(26)),
            fit(name, NAME_SIZE, name_w - 4),
            self.manager,
            container=self.container,
            object_id="#save_name",
        )
        RowText(
            pygame.Rect(rect.x + 12, rect.y + px(29), text_w, px(22)),
            fit(meta, META_SIZE, text_w - 4),
            self.manager,
            container=self.container,
            object_id=f"#save_meta{on}",
        )

    def _default_name(self) -> str:
        assert self.battle is not None, "only a screen opened from a battle offers a name"
        return self.battle.saves.save_name()

    def _entry(self) -> SaveEntry | None:
        return next((e for e in self.entries if e.path == self.selected), None)

    # -- orders -------------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.back()
            return
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.name_entry:
            self.save()  # Enter in the name field
            return
        if event.type != pygame_gui.UI_BUTTON_PRESSED:
            return
        element = event.ui_element
        if element in self.rows:
            self.select(self.rows[element])
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

    def select(self, path: Path) -> None:
        """Choose a row; a saved game's name goes into the name field, to save over it."""
        self.selected = path
        self.confirm_delete = None
        entry = self._entry()
        if self.name_entry is not None and entry is not None and not entry.autosave and entry.record is not None:
            self.name_entry.set_text(entry.name)
        self.resize(self.app.size)

    def _say(self, text: str) -> None:
        self.note = text
        self.resize(self.app.size)

    def save(self) -> None:
        """Save under the name typed; a name refused says why and stays to be corrected; a
        save of that name is replaced only once the player says so."""
        if self.battle is None or self.name_entry is None:
            return
        self.typed = self.name_entry.get_text()
        try:
            name = clean_name(self.typed)
            existing = next((e for e in self.entries if e.name == name and not e.autosave), None)
            path = existing.path if existing is not None else self.app.saves.path_for(name)
        except BadSaveName as exc:
            self.refused = True
            self._say(refusal(exc))
            return
        if existing is None:
            existing = next((e for e in self.entries if e.path == path), None)
        if existing is None and not path.exists():
            self._write(name, path)
            return
        details = describe(existing) if existing is not None else path.name
        self.app.open(
            "dialog",
            title=_("Replace a saved game?"),
            text=_("“{name}” already holds a saved game ({details}). Saving now puts this game in its place.").format(
                name=name, details=details
            ),
            choices=[(_("Replace it"), lambda: self._write(name, path)), (_("Cancel"), None)],
        )

    def _write(self, name: str, path: Path) -> None:
        assert self.battle is not None, "only a screen opened from a battle saves"
        try:
            self.app.saves.save_as(self.battle.match, name, path)
        except SaveError as exc:
            self._say(_("Could not save: {reason}").format(reason=str(exc)))
            return
        self.selected = path
        self.typed = name
        self.confirm_delete = None
        self._say(_("Saved as “{name}”").format(name=name))

    def load(self) -> None:
        entry = self._entry()
        if entry is None or entry.record is None:
            return
        if self.battle is not None:
            try:
                self.battle.saves.open_loaded(match_from_record(entry.record))
            except SaveError as exc:
                self._say(_("Cannot load: {reason}").format(reason=str(exc)))
            return
        refusal = load_game(self.app, entry.record)
        if refusal is not None:
            self._say(refusal)

    def watch(self) -> None:
        entry = self._entry()
        if entry is None or entry.record is None or (self.battle is not None and self.battle.session.is_hotseat()):
            return
        try:
            self.app.go("replay", record=entry.record)
        except SaveError as exc:
            self._say(_("Cannot load: {reason}").format(reason=str(exc)))

    def delete(self) -> None:
        entry = self._entry()
        if entry is None:
            return
        if self.confirm_delete != entry.path:
            self.confirm_delete = entry.path
            self.resize(self.app.size)
            return
        try:
            self.app.saves.delete(entry.path)
        except SaveError as exc:
            self._say(str(exc))
            return
        self.confirm_delete = None
        self.selected = None
        self._say(_("Deleted “{name}”").format(name=shown_name(entry)))

    def back(self) -> None:
        self.app.back()
