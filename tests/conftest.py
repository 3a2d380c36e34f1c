"""Shared fixtures: headless SDL, the real ruleset, and small programmatic scenarios.

The SDL drivers are set at import, before any test module (or pytmx, which imports pygame)
can import pygame, so the whole suite runs without a display or a sound card.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# Nothing a test saves (autosaves, quicksaves, campaign progress) lands in the checkout's saves/.
import tempfile  # noqa: E402

os.environ["QIANKUN_SAVES_DIR"] = tempfile.mkdtemp(prefix="qiankun-test-saves-")
# The suite's player ends turns with orders unused, has read the briefings and the hints; the
# tests of those questions, briefings and hints set their own settings.
TEST_SETTINGS = '{"end_turn_warning": false, "hints": false, "briefings": false}'
with open(os.path.join(os.environ["QIANKUN_SAVES_DIR"], "settings.json"), "w", encoding="utf-8") as _file:
    _file.write(TEST_SETTINGS)

from collections.abc import Callable, Iterator, Sequence  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import TYPE_CHECKING, TypeVar  # noqa: E402

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

from game.content.ruleset import load_ruleset  # noqa: E402
from game.content.scenarios import LoadedScenario  # noqa: E402
from game.content.tmx import HexLayout  # noqa: E402
from game.core.actions import EndTurn  # noqa: E402
from game.core.board import Board  # noqa: E402
from game.core.engine import Engine, GameSettings  # noqa: E402
from game.core.hexgrid import Hex  # noqa: E402
from game.core.rules import Ruleset, TerrainType  # noqa: E402
from game.core.scenario import FormationSpec, Scenario, SideSpec  # noqa: E402
from game.record.match import Match  # noqa: E402
from game.record.saves_folder import SavesFolder  # noqa: E402
from game.settings import load_settings  # noqa: E402

if TYPE_CHECKING:
    import pygame
    from pygame_gui.core.interfaces import IUIElementInterface

    from game.ai.basic import BasicAI
    from game.core.events import Event
    from game.core.roster import CarriedFormation, Roster
    from game.record.seats import Commander
    from game.ui.app import App
    from game.ui.battle import BattleScene
    from game.ui.scene import Scene

SceneT = TypeVar("SceneT", bound="Scene")
BuiltT = TypeVar("BuiltT")

# The suite's own saves folder (where the windows the tests open keep their settings).
SUITE_SAVES = Path(os.environ["QIANKUN_SAVES_DIR"])


def saves_folder_at(folder: Path) -> SavesFolder:
    """A saves folder elsewhere, keeping as many autosaves as its own settings file says."""
    return SavesFolder(folder, autosaves_kept=lambda: load_settings(folder).autosaves)


# Hypothesis: small example counts, no per-example deadline (CI machines stall), and the
# session-scoped fixtures below are safe to share between examples.
settings.register_profile(
    "qiankun",
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("qiankun")

# Letters for compact terrain grids in tests.
TERRAIN_LETTERS: dict[str, str] = {
    ".": "plain",
    "s": "steppe",
    "a": "farmland",
    "=": "road",
    "f": "forest",
    "h": "hills",
    "M": "mountain",
    "v": "valley",
    "~": "river",
    "d": "ford",
    "x": "marsh",
    "l": "loess",
    "V": "village",
    "T": "town",
    "F": "fortress",
    "P": "palace",
}

# The fixture battlefield: 10 columns x 8 rows (Tiled offset layout, odd rows shifted right).
# The north (side "a", Yuqing) and the south (side "b", Hailing) are split by a river with two
# fords; there is a mountain spur in each half, forest, hills, roads, a village and a marsh.
FIXTURE_GRID: tuple[str, ...] = (
    "...ffhMM..",
    "..======..",
    ".f..V..h..",
    "~~~d~~~~d~",
    "......f...",
    ".h..sss.x.",
    "..======..",
    "...f..M...",
)


@dataclass(frozen=True)
class Unit:
    """A formation to place, with its position in Tiled offset (col, row) or axial."""

    id: str
    side: str
    type: str
    men: int
    at: tuple[int, int] | Hex
    hero: str | None = None
    max_men: int | None = None
    hidden: bool = False
    group: str | None = None


def grid_rows(rules: Ruleset, grid: Sequence[str]) -> list[list[TerrainType]]:
    return [[rules.terrain[TERRAIN_LETTERS[c]] for c in row] for row in grid]


def make_board(rules: Ruleset, grid: Sequence[str], regions: dict[str, frozenset[Hex]] | None = None) -> Board:
    return Board.from_offset_grid(grid_rows(rules, grid), regions)


def make_scenario(
    rules: Ruleset,
    grid: Sequence[str],
    units: Sequence[Unit],
    *,
    sides: Sequence[tuple[str, str, str]] = (("a", "yuqing", "player"), ("b", "hailing", "enemy")),
    turn_limit: int = 10,
    outcome: str = "attrition",
    scenario_id: str = "test_field",
) -> Scenario:
    """A scenario from a terrain grid; ``Unit.at`` as a plain tuple is offset (col, row)."""
    board = make_board(rules, grid)
    specs = []
    for u in units:
        pos = u.at if isinstance(u.at, Hex) else board.at_offset(*u.at)
        assert pos in board, f"{u.id} placed off the map"
        specs.append(
            FormationSpec(
                id=u.id,
                side=u.side,
                type=u.type,
                men=u.men,
                max_men=u.max_men,
                hero=u.hero,
                pos=pos,
                hidden=u.hidden,
                group=u.group,
            )
        )
    return Scenario(
        id=scenario_id,
        title="Test field",
        campaign=None,
        sides=tuple(SideSpec(id=s, faction=f, role=r, name=s) for s, f, r in sides),
        turn_limit=turn_limit,
        turn_limit_outcome=outcome,
        objectives=(),
        briefing="",
        board=board,
        formations=tuple(specs),
    )


FIXTURE_UNITS: tuple[Unit, ...] = (
    Unit("a_han", "a", "han_soldier", 3000, (2, 0), hero="han_xin"),
    Unit("a_horse", "a", "warrior", 500, (5, 1), hero="xiang_yu"),
    Unit("a_blade", "a", "divine_blade", 18, (7, 2)),
    Unit("a_spirit", "a", "sword_spirit", 1200, (4, 2), hero="liu_bosheng"),
    Unit("a_retainer", "a", "retainer", 800, (0, 0)),
    Unit("b_levy", "b", "soul_levy", 10000, (2, 6)),
    Unit("b_liang", "b", "soul_levy", 6000, (5, 6), hero="wanyan_liang"),
    Unit("b_rider", "b", "soul_rider", 1500, (7, 5)),
    Unit("b_ambush", "b", "ambush_host", 3000, (1, 5)),
)


def fixture_scenario(rules: Ruleset, turn_limit: int = 8, outcome: str = "attrition") -> Scenario:
    return make_scenario(
        rules,
        FIXTURE_GRID,
        FIXTURE_UNITS,
        turn_limit=turn_limit,
        outcome=outcome,
        scenario_id="test_fixture",
    )


def loaded_for(scenario: Scenario, content_version: str = "test-content") -> LoadedScenario:
    """A LoadedScenario around a programmatic scenario (the paths are never opened)."""
    return LoadedScenario(
        scenario=scenario,
        layout=HexLayout(56.0, 64.0, 32.0, True),
        toml_path=Path("/nonexistent/test_fixture.toml"),
        map_path=Path("/nonexistent/test_fixture.tmx"),
        content_version=content_version,
    )


# -- fixtures -------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def rules() -> Ruleset:
    return load_ruleset()


@pytest.fixture(scope="session")
def scenario(rules: Ruleset) -> Scenario:
    return fixture_scenario(rules)


@pytest.fixture(scope="session")
def loaded(scenario: Scenario) -> LoadedScenario:
    return loaded_for(scenario)


@pytest.fixture
def engine(scenario: Scenario, rules: Ruleset) -> Engine:
    return Engine(scenario, rules, seed=1234)


EngineFactory = Callable[..., Engine]


@pytest.fixture(scope="session")
def small_engine(rules: Ruleset) -> EngineFactory:
    """Build an engine on a small grid: ``small_engine(grid, units, seed=..., **scenario_kw)``."""

    def build(
        grid: Sequence[str],
        units: Sequence[Unit],
        seed: int = 7,
        settings: GameSettings | None = None,
        **kw: object,
    ) -> Engine:
        return Engine(make_scenario(rules, grid, units, **kw), rules, seed, settings)  # type: ignore[arg-type]

    return build


# -- the screens --------------------------------------------------------------------------------

UI_SIZE = (1280, 800)


@pytest.fixture
def english() -> Iterator[None]:
    """English on screen for the test, whatever the language was before."""
    from game import i18n

    before = i18n.language()
    i18n.set_language("en")
    yield
    i18n.set_language(before)


@pytest.fixture
def app() -> App:
    """A headless game window at the default size."""
    import pygame

    from game.ui.app import App

    # Each window starts from the suite's settings: a choice one test made (the menus remember
    # the last scenario and seats) is not the next test's.
    (SUITE_SAVES / "settings.json").write_text(TEST_SETTINGS, encoding="utf-8")
    app = App(UI_SIZE)
    pygame.event.clear()
    return app


def frame(app: App, *events: pygame.event.Event, dt: float = 0.0) -> None:
    """One frame with ``events``, then the widget events it produced (button presses etc.)."""
    import pygame

    app.step(list(events), dt)
    for _ in range(10):
        posted = [e for e in pygame.event.get() if e.type >= pygame.USEREVENT]
        if not posted:
            return
        app.step(posted, 0.0)
    raise AssertionError("widget events keep coming")


def current(app: App, kind: type[SceneT]) -> SceneT:
    """The screen on top, which the test expects to be a ``kind``."""
    scene = app.scene
    assert isinstance(scene, kind), f"on {type(scene).__name__}, not {kind.__name__}"
    return scene


def root_elements(scene: Scene | None) -> list[IUIElementInterface]:
    """The widgets a screen placed straight in its window (not inside a panel)."""
    from pygame_gui.core import UIContainer

    assert scene is not None
    root = scene.manager.get_root_container()
    assert isinstance(root, UIContainer)
    return root.elements


# -- shipped scenarios ------------------------------------------------------------------------


def ai_engine(scenario: Scenario, seed: int = 1) -> Engine:
    """An engine on ``scenario`` with the computer commanding every side."""
    return Engine(scenario, load_ruleset(), seed, GameSettings())


def play_general_turn(eng: Engine, general: BasicAI, limit: int = 40) -> None:
    """Let a computer general play the rest of its side's turn, up to its EndTurn."""
    for _ in range(limit):
        action = general.next_action()
        eng.apply(action)
        if isinstance(action, EndTurn):
            return
    raise AssertionError(f"the {general.side_id} general did not end its turn")


def end_turns_until(eng: Engine, turn: int, side: str) -> list[Event]:
    """End turns until ``side``'s turn ``turn`` begins; the events on the way."""
    events: list[Event] = []
    while not (eng.state.turn == turn and eng.state.active_side.id == side):
        assert not eng.state.over
        events += eng.apply(EndTurn())
    return events


def stand_in(eng: Engine, unit: str, region: str, routed: bool = False, avoid: str | None = None) -> None:
    """Put ``unit`` on a free hex of ``region`` (not in ``avoid``); routed, and too shaken to rally
    as its side's turn begins, if asked. For the nightfall endings' tests."""
    hexes = eng.board.regions[region] - eng.board.regions.get(avoid or "", frozenset())
    taken = {f.pos for f in eng.state.formations.values()}
    f = eng.state.formations[unit]
    f.pos = next(h for h in sorted(hexes) if h not in taken)
    f.routed = routed
    if routed:
        f.morale = 0


def open_field(
    app: App,
    rules: Ruleset,
    grid: Sequence[str],
    units: Sequence[Unit],
    controllers: dict[str, Commander] | None = None,
) -> BattleScene:
    """A battle screen on a small programmatic field: side "a" human, "b" the computer unless
    ``controllers`` says otherwise (six turns, seed 2)."""
    from game.ui.battle import BattleScene

    scenario = make_scenario(rules, grid, units, turn_limit=6)
    seats: dict[str, Commander] = controllers or {"a": "human", "b": "ai"}
    battle = app.go("battle", match=Match(loaded_for(scenario), 2, GameSettings(), seats=seats))
    assert isinstance(battle, BattleScene)
    return battle


@pytest.fixture
def own_settings() -> Iterator[None]:
    """The suite's settings file, put back as it was after the test (which may change it)."""
    from game import i18n
    from game.settings import settings_path

    before = settings_path(SUITE_SAVES).read_bytes()
    yield
    settings_path(SUITE_SAVES).write_bytes(before)
    i18n.set_names_follow_story(True)


# -- the command line and the UI scale ---------------------------------------------------------


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``qiankun ARGV...`` in this process: its exit code, standard output and standard error."""
    from game.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def keep_language() -> Iterator[None]:
    """The test may change the language (``main`` sets it from the system locale); the next one
    starts with the one it had."""
    from game import i18n

    before = i18n.language()
    yield
    i18n.set_language(before)


def at_each_scale(
    build: Callable[[App], BuiltT], percents: Sequence[int] = (100, 200), size: tuple[int, int] = (3840, 2160)
) -> dict[int, tuple[BuiltT, list[str]]]:
    """``build(app)`` in a window of ``size`` (4K by default) at each UI scale: by scale, what it
    returned and the labels pygame_gui found too small for their text. The scale is 100% after."""
    import warnings

    from game.ui import scale
    from game.ui.app import App

    out: dict[int, tuple[BuiltT, list[str]]] = {}
    try:
        for percent in percents:
            scale.set_ui_scale(percent)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                built = build(App(size))
            out[percent] = (built, [str(w.message) for w in caught if "too small" in str(w.message)])
    finally:
        scale.set_ui_scale(100)
    return out


@pytest.fixture
def saves_folder(app: App, tmp_path: Path) -> Path:
    """Every save the app's screens write goes to a folder of this test's own."""
    folder = tmp_path / "saves"
    folder.mkdir()
    app.saves = saves_folder_at(folder)
    return folder


@pytest.fixture
def a1_copy(tmp_path: Path) -> Path:
    """A1's scenario file beside a copy of its map that still finds the shipped tileset: a map a
    test may edit (``replace_once``). The scenario file's path."""
    import shutil

    from game.paths import MAPS_DIR, TILES_DIR

    a1 = "a1_valley_mouth"
    shutil.copyfile(MAPS_DIR / f"{a1}.toml", tmp_path / f"{a1}.toml")
    tmx = (MAPS_DIR / f"{a1}.tmx").read_text(encoding="utf-8")
    tmx = tmx.replace('source="../assets/tiles/terrain.tsx"', f'source="{(TILES_DIR / "terrain.tsx").as_posix()}"')
    (tmp_path / f"{a1}.tmx").write_text(tmx, encoding="utf-8")
    return tmp_path / f"{a1}.toml"


def in_roster(roster: Roster, key: str) -> CarriedFormation:
    """The formation ``key`` in ``roster``, which the test expects to be there."""
    found = roster.get(key)
    assert found is not None, key
    return found


def replace_once(path: Path, old: str, new: str) -> None:
    """Edit a copied content file: ``old`` must stand in it exactly once."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def pass_curtain(app: App, key: int | None = None, phrase: str | None = None) -> None:
    """Pass the hand-over curtain on top as a player means to: once it is armed, a fresh press
    of ``key`` (Enter by default) and its release, in one frame; ``phrase`` typed first, for a
    side sealed by a pass phrase."""
    import pygame

    from game.ui.handover import HandoverScene

    curtain = app.scene
    assert isinstance(curtain, HandoverScene), curtain
    if phrase is not None:
        assert curtain.phrase is not None, "this side has no pass phrase"
        curtain.phrase.set_text(phrase)
    key = pygame.K_RETURN if key is None else key
    at = curtain.act.armed_at
    frame(
        app,
        pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0, timestamp=at),
        pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode="", scancode=0, timestamp=at + 90),
    )


def strings_in(value: object) -> Iterator[str]:
    """Every string in a parsed TOML value (tables and arrays walked through)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings_in(v)
