"""The scenario a record was made with, and what changed since if it is not the game's own any more."""

from __future__ import annotations

from ..content.bundle import BundleError, same_content, unpack
from ..content.errors import ContentErrors
from ..content.scenarios import LoadedScenario, load_scenario
from .errors import SaveError
from .model import GameRecord


def scenario_for(record: GameRecord) -> LoadedScenario:
    """The scenario a record is played with: the game's own while its maps and data are still
    the ones the record was made with, else the content the record carries (``content.bundle``).
    SaveError if it has neither."""
    sid = record.scenario_id
    current: LoadedScenario | None = None
    try:
        current = load_scenario(sid)
        problem = ""
    except KeyError:
        problem = f"unknown scenario {sid!r}: this version of the game does not have it"
    except ContentErrors as exc:
        problem = f"scenario {sid!r} does not load: {exc.errors[0]}"
    if current is not None and same_content(record.content_version, current.content_version):
        return current
    if record.content is not None:
        try:
            carried = unpack(record.content)
        except BundleError as exc:
            raise SaveError(f"the content it carries cannot be read: {exc}") from None
        if carried.scenario.id != sid or not same_content(record.content_version, carried.content_version):
            raise SaveError("the content it carries is not the content it was made with")
        return carried
    if current is None:
        raise SaveError(problem)
    change = content_change(record.content_version, current.content_version)
    raise SaveError(
        f"made with other content for scenario {sid}: {change} since the save was made "
        f"(by version {record.game_version} of the game, which did not put its content in the save), "
        f"so its moves cannot be re-run (save {record.content_version}, game {current.content_version})"
    )


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
