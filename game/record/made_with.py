"""The scenario a record was made with, and what changed since if it is not the game's own any more."""

from __future__ import annotations

from ..content.errors import ContentErrors
from ..content.scenarios import LoadedScenario, load_scenario
from .errors import SaveError
from .model import GameRecord


def scenario_for(record: GameRecord) -> LoadedScenario:
    """The scenario a record was made with, refusing one whose content has changed."""
    sid = record.scenario_id
    try:
        loaded = load_scenario(sid)
    except KeyError:
        raise SaveError(f"unknown scenario {sid!r}: this version of the game does not have it") from None
    except ContentErrors as exc:
        raise SaveError(f"scenario {sid!r} does not load: {exc.errors[0]}") from None
    if loaded.content_version != record.content_version:
        change = content_change(record.content_version, loaded.content_version)
        raise SaveError(
            f"made with other content for scenario {sid}: {change} "
            f"since the save was made, so its moves cannot be replayed "
            f"(save {record.content_version}, game {loaded.content_version})"
        )
    return loaded


def content_change(saved: str, current: str) -> str:
    """What changed between two content versions ("<game>+<rules digest>/<scenario digest>")."""
    saved_rules, _, saved_map = saved.partition("/")
    rules, _, scenario_map = current.partition("/")
    saved_game, _, saved_data = saved_rules.partition("+")
    game, _, data = rules.partition("+")
    changed = []
    if saved_map != scenario_map:
        changed.append("its map or scenario file")
    if saved_data != data:
        changed.append("the game's unit and terrain data")
    if saved_game != game:
        changed.append(f"the game's version ({saved_game or '?'} to {game or '?'})")
    if not changed:
        return "the content"
    what = " and ".join([", ".join(changed[:-1]), changed[-1]] if len(changed) > 1 else changed)
    return f"{what} {'have' if len(changed) > 1 else 'has'} changed"
