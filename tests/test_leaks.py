"""Nothing gives away a formation the side on screen cannot see: the battle screen is driven the
same way twice, once with a hidden formation of the other side on the map (in ambush in a wood
on the chosen formation's way) and once without it, and every picture, line and sound the side
on screen gets must be the same. A preview stopping short of an unseen enemy, a path bending round
it, a refusal saying why, a forecast, a hint, a sound or a log line would each make them differ."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pygame
import pytest
from conftest import Unit, frame, loaded_for, make_scenario, pass_curtain

from game.core.actions import Move, Rest
from game.core.engine import GameSettings
from game.core.hexgrid import Hex
from game.core.rules import Ruleset
from game.record.match import Match
from game.record.seats import Commander
from game.ui import audio as audio_module
from game.ui.app import App
from game.ui.battle import BattleScene
from game.ui.threat_overlay import KEY as THREAT_KEY

pytestmark = pytest.mark.usefixtures("english")

# A plain with a strip of wood across it, east of the near end: every way east goes through it.
GRID = ("....." + "f" + "." * 14,) * 5
NEAR = (3, 2)  # a's formation
WOOD = (5, 2)  # the ambush, hidden in the wood on the path east
BEYOND = (8, 2)  # a hex past the ambush, within a march
UNITS = [
    Unit("a_foot", "a", "warrior", 500, NEAR),
    Unit("a_guard", "a", "han_soldier", 1000, (1, 0)),
    Unit("b_far", "b", "soul_levy", 9000, (19, 4)),  # out of a's sight too, in both worlds
]
AMBUSH = Unit("b_ambush", "b", "soul_levy", 9000, WOOD, hidden=True)


class Witness:
    """What the player at the screen gets: pictures, log lines, messages and sounds."""

    def __init__(self) -> None:
        self.pictures: list[tuple[str, bytes]] = []
        self.sounds: list[str] = []

    def look(self, app: App, what: str) -> None:
        frame(app)
        self.pictures.append((what, pygame.image.tobytes(app.screen, "RGB")))


@contextmanager
def listening(witness: Witness, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    real = audio_module.Audio.play

    def play(self: audio_module.Audio, name: str) -> None:
        witness.sounds.append(name)
        real(self, name)

    monkeypatch.setattr(audio_module.Audio, "play", play)
    yield
    monkeypatch.setattr(audio_module.Audio, "play", real)


def battle_with(app: App, rules: Ruleset, ambush: bool, seats: dict[str, Commander]) -> BattleScene:
    scenario = make_scenario(rules, GRID, [*UNITS, *([AMBUSH] if ambush else [])], turn_limit=5)
    app.go("battle", match=Match(loaded_for(scenario), 7, GameSettings(), seats=seats))
    if len([s for s in seats.values() if s == "human"]) > 1:
        pass_curtain(app)
    battle = app.scene
    assert isinstance(battle, BattleScene)
    battle.hints.seen, battle.hints.queue, battle.hints.current = set(), [], None  # both worlds alike
    assert "b_ambush" not in battle.session.seen_ids("a")
    return battle


def hex_at(battle: BattleScene, col: int, row: int) -> Hex:
    return battle.match.loaded.scenario.board.at_offset(col, row)


def point_at(app: App, battle: BattleScene, h: Hex) -> None:
    x, y = battle.camera.to_screen(battle.geometry.centre(h))
    frame(app, pygame.event.Event(pygame.MOUSEMOTION, pos=(round(x), round(y)), rel=(0, 0), buttons=(0, 0, 0)))


def press(app: App, key: int) -> None:
    frame(
        app,
        pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0),
        pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode="", scancode=0),
    )


def play_through(app: App, battle: BattleScene, witness: Witness) -> None:
    """Every way the side on screen reads the map around the ambush: the choice and its reach,
    the path to a hex past the wood, the card under the cursor, the threat overlay, the orders
    that could be refused, and a march that stops short of the wood."""
    foot, wood, beyond = hex_at(battle, *NEAR), hex_at(battle, *WOOD), hex_at(battle, *BEYOND)
    witness.look(app, "opened")
    battle.click_hex(foot)
    witness.look(app, "chosen")
    for h in (wood, beyond):
        point_at(app, battle, h)
        witness.look(app, f"pointing at {h}")
        marks = battle.session.choice.marks(battle.match.engine, battle.match.loaded.scenario.board, h, None)
        assert h in marks.reachable and marks.path[-1] == h  # no stop short of it, no path round it
        assert wood in marks.path or h == wood
    press(app, THREAT_KEY)
    witness.look(app, "threats shown")
    press(app, THREAT_KEY)
    for key in (pygame.K_c, pygame.K_r, pygame.K_t):  # capture, rest, thunder: refused or aimed alike
        press(app, key)
        witness.look(app, f"order {pygame.key.name(key)}")
        press(app, pygame.K_ESCAPE)
    battle.click_hex(foot)
    battle.click_hex(hex_at(battle, 2, 0))  # a march that keeps away from the wood
    witness.look(app, "marched")
    witness.pictures.append(("log", "\n".join(battle.log.lines).encode()))


@pytest.mark.parametrize(
    "seats", [{"a": "human", "b": "human"}, {"a": "human", "b": "ai"}], ids=["two players", "against the computer"]
)
def test_a_hidden_formation_is_never_drawn_named_or_heard(
    app: App, rules: Ruleset, monkeypatch: pytest.MonkeyPatch, seats: dict[str, Commander]
) -> None:
    worlds: dict[bool, Witness] = {}
    for ambush in (False, True):
        witness = worlds[ambush] = Witness()
        with listening(witness, monkeypatch):
            battle = battle_with(app, rules, ambush, seats)
            play_through(app, battle, witness)
        assert "b_ambush" not in battle.session.seen_ids("a")
    plain, hidden = worlds[False], worlds[True]
    assert [w for w, _ in hidden.pictures] == [w for w, _ in plain.pictures]
    for (what, seen_plain), (_w, seen_hidden) in zip(plain.pictures, hidden.pictures, strict=True):
        same = seen_hidden == seen_plain
        assert same, f"the ambush shows when {what}"
    assert hidden.sounds == plain.sounds


def test_what_the_ambush_did_in_the_other_turn_is_neither_told_nor_heard(
    app: App, rules: Ruleset, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two players: the ambush shifts in its wood during the other side's turn; the side that
    waited reads, hears and sees the same as if it had not been there at all."""
    worlds: dict[bool, Witness] = {}
    for ambush in (False, True):
        witness = worlds[ambush] = Witness()
        battle = battle_with(app, rules, ambush, {"a": "human", "b": "human"})
        battle.end_turn()
        pass_curtain(app)
        assert battle.session.viewer == "b"
        battle.submit(Rest(unit="b_far"))
        if ambush:
            battle.submit(Move(unit="b_ambush", to=hex_at(battle, 5, 3)))  # still in the wood, unseen
        battle.end_turn()
        with listening(witness, monkeypatch):
            pass_curtain(app)
            assert battle.session.viewer == "a"
            witness.look(app, "back at the screen")
            report = [text for text, _speaker in battle.narration.queue]
            witness.pictures.append(("report", "\n".join(report).encode()))
            witness.pictures.append(("log", "\n".join(battle.log.lines).encode()))
        assert "b_ambush" not in battle.session.seen_ids("a")
    for (what, seen_plain), (_w, seen_hidden) in zip(worlds[False].pictures, worlds[True].pictures, strict=True):
        same = seen_hidden == seen_plain
        assert same, f"the ambush shows in the {what}"
    assert worlds[True].sounds == worlds[False].sounds


def test_walking_into_the_ambush_is_what_shows_it(app: App, rules: Ruleset) -> None:
    """The control: the same screens do show it once a march runs into the wood."""
    battle = battle_with(app, rules, True, {"a": "human", "b": "human"})
    battle.click_hex(hex_at(battle, *NEAR))
    battle.click_hex(hex_at(battle, *BEYOND))
    assert "b_ambush" in battle.session.seen_ids("a")
