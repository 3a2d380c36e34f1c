"""One frame of a battle rendered headless to a PNG (the ``screenshot`` command)."""

from __future__ import annotations

import os
from pathlib import Path

from ..record.match import Match, match_from_record
from ..record.model import GameRecord


def _match_at_turn(record: GameRecord, turn: int | None) -> Match:
    """Replay a record up to the start of ``turn`` (the whole record if None)."""
    if turn is None:
        return match_from_record(record)
    trimmed = record.model_copy(update={"actions": []})
    match = match_from_record(trimmed)
    for action in record.actions:
        if match.state.turn >= turn or match.state.over:
            break
        match.apply(action)
    return match


def render_screenshot(
    source: str, out: Path, size: tuple[int, int], turn: int | None = None, view: str = "all"
) -> None:
    from ..cli import CliError

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from ..content.scenarios import scenario_ids
    from ..record.match import new_match
    from ..record.saves import SaveError, load_record

    if not out.parent.exists():
        raise CliError(f"cannot write {out}: folder {out.parent} does not exist")
    if out.suffix.lower() != ".png":
        raise CliError(f"{out}: the screenshot must be a .png file")
    try:
        if source in scenario_ids():
            if turn not in (None, 1):
                raise CliError("--turn needs a save file; a scenario starts at turn 1")
            match = new_match(source, {}, seed=0)
        else:
            path = Path(source)
            if not path.exists():
                raise CliError(f"{source!r} is neither a scenario id nor a save file")
            match = _match_at_turn(load_record(path), turn)
    except SaveError as exc:
        raise CliError(str(exc)) from None
    if view != "all" and view not in {s.id for s in match.state.sides}:
        raise CliError(f"--view must be 'all' or a side id ({', '.join(s.id for s in match.state.sides)})")
    _render(match, out, size, view)


def _render(match: Match, out: Path, size: tuple[int, int], view: str = "all") -> None:
    import pygame

    from .app import App
    from .battle import BattleScene

    app = App(size)
    scene = BattleScene(app, match, show_handover=False, view_side=view)
    app.switch(scene)
    app.step([], 0.0)
    tmp = out.with_name(f".{out.name}.tmp.png")
    pygame.image.save(app.screen, str(tmp))
    os.replace(tmp, out)
    # Only the display: quitting pygame would invalidate the cached fonts of later renders
    # in the same process.
    pygame.display.quit()
