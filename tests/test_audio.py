"""Sound: silent without a device, settings that round-trip, the events a viewer hears, the
music by situation, and the shipped files. The mixer's calls are traced on a fake."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import pygame
import pytest
from conftest import current, root_elements

from game.core.events import Attacked, DuelFought, Event, GameOver, Moved, Routed, SoulsCaptured, TurnEnded
from game.core.hexgrid import Hex
from game.profile import Profile
from game.settings import UserSettings, load_settings, update_settings
from game.ui.app import App
from game.ui.audio import (
    AUDIO_DIR,
    DUCK_FALL_MS,
    DUCK_RISE_MS,
    DUCKS,
    EFFECTS,
    MUSIC,
    REPEAT_MS,
    THEMES,
    Audio,
    audio_of,
    battle_music,
    duck_gain,
    duck_of,
    theme_of,
)
from game.ui.battle import BattleScene
from game.ui.replay import ReplayScene


class FakeMixer:
    """Stands for pygame.mixer and writes down what it was asked."""

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.calls: list[tuple[object, ...]] = []

    def init(self, *args: object) -> None:
        if self.fail:
            raise pygame.error("No available audio device")
        self.calls.append(("init",))

    def set_num_channels(self, n: int) -> None:
        self.calls.append(("channels", n))

    def set_reserved(self, n: int) -> None:
        self.calls.append(("reserved", n))

    def Sound(self, path: str) -> object:  # noqa: N802 - pygame's name
        mixer, name = self, path.rsplit("/", 1)[-1].removesuffix(".ogg")

        class Sound:
            def set_volume(self, v: float) -> None:
                mixer.calls.append(("sound_volume", name, v))

            def play(self) -> None:
                mixer.calls.append(("play", name))

        self.calls.append(("load", name))
        return Sound()

    def Channel(self, i: int) -> object:  # noqa: N802
        mixer = self

        class Channel:
            def set_volume(self, v: float) -> None:
                mixer.calls.append(("channel_volume", i, v))

            def play(self, sound: object, loops: int = 0, fade_ms: int = 0) -> None:
                mixer.calls.append(("music", i, loops, fade_ms))

            def fadeout(self, ms: int) -> None:
                mixer.calls.append(("fadeout", i, ms))

            def stop(self) -> None:
                mixer.calls.append(("stop", i))

        return Channel()

    def last(self) -> tuple[object, ...]:
        return self.calls[-1]

    def played(self) -> list[str]:
        return [str(c[1]) for c in self.calls if c[0] == "play"]

    def loaded(self) -> list[str]:
        return [str(c[1]) for c in self.calls if c[0] == "load"]


class Clock:
    def __init__(self) -> None:
        self.ms = 10_000

    def __call__(self) -> int:
        return self.ms


def make_audio(**kwargs: Any) -> tuple[Audio, FakeMixer, Clock]:
    mixer, clock = FakeMixer(), Clock()
    return Audio(mixer, clock=clock, **kwargs), mixer, clock


# -- no device --------------------------------------------------------------------------------


def test_a_mixer_that_cannot_start_leaves_the_game_silent_and_working() -> None:
    audio = Audio.start(UserSettings(), mixer=FakeMixer(fail=True))
    assert audio.silent
    audio.play("blow")
    audio.music("menu")
    audio.on_events([Attacked(unit="a", target="b", attacker_losses=1, defender_losses=2)])
    app = App((800, 560), audio=audio)
    app.go("menu")
    app.step([], 0.1)
    assert audio.current == "menu"  # remembered, not played


def test_the_real_mixer_failing_to_start_is_silent(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise pygame.error("No available audio device")

    monkeypatch.setattr(pygame.mixer, "init", refuse)
    audio = Audio.start(UserSettings())
    assert audio.silent
    audio.play("click")


def test_the_dummy_driver_opens_and_plays_the_real_files() -> None:
    audio = Audio.start(UserSettings())  # SDL_AUDIODRIVER=dummy (conftest)
    if audio.silent:
        pytest.skip("no SDL_mixer here")
    audio.play("blow")
    audio.music("battle_calm")
    assert "music_battle_calm" not in audio._sounds  # decoded aside: no frame waits for it
    audio.settle()
    assert audio._sounds["sfx_blow"] is not None and audio._sounds["music_battle_calm"] is not None


def test_an_app_built_without_sound_has_a_silent_one() -> None:
    app = App((800, 560))
    assert app.audio.silent
    assert audio_of(object()).silent


def test_a_device_lost_mid_game_silences_instead_of_raising(monkeypatch: pytest.MonkeyPatch) -> None:
    audio, mixer, _ = make_audio()

    def broken(i: int) -> object:
        raise pygame.error("device lost")

    monkeypatch.setattr(mixer, "Channel", broken)
    audio.music("menu")
    assert audio.silent
    audio.play("blow")


# -- settings ---------------------------------------------------------------------------------


def test_sound_settings_round_trip(tmp_path: Path) -> None:
    update_settings(tmp_path, music_volume=40, effects_volume=100, muted=True)
    s = load_settings(tmp_path)
    assert (s.music_volume, s.effects_volume, s.muted) == (40, 100, True)
    assert load_settings(tmp_path / "none") == UserSettings()


@pytest.mark.parametrize("change", [{"music_volume": 101}, {"effects_volume": -1}, {"music_volume": "loud"}])
def test_sound_settings_out_of_range_are_refused(tmp_path: Path, change: dict[str, object]) -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        update_settings(tmp_path, **change)


def test_volumes_and_mute_apply_at_once() -> None:
    audio, mixer, _ = make_audio()
    audio.music("menu")
    audio.apply(UserSettings(music_volume=20, effects_volume=40))
    assert mixer.last() == ("channel_volume", audio._channel, 0.2)
    audio.play("blow")
    assert ("sound_volume", "sfx_blow", 0.4) in mixer.calls
    audio.apply(UserSettings(muted=True))
    assert mixer.last()[0] == "stop"
    mixer.calls.clear()
    audio.play("volley")
    audio.music("battle_tense")
    assert mixer.played() == [] and not any(c[0] == "music" for c in mixer.calls)
    audio.apply(UserSettings(muted=False))  # the piece asked for while muted starts
    assert ("music", audio._channel, -1, 0) in mixer.calls
    assert audio.current == "battle_tense"


def test_the_settings_screen_changes_the_volume_heard(tmp_path: Path) -> None:
    import pygame_gui

    from game.ui.settings_screen import SettingsScene

    audio, mixer, _ = make_audio()
    app = App((800, 560), audio=audio)
    app.use_profile(Profile.load("en", saves_dir=tmp_path))
    scene = SettingsScene(app, page="screen")
    app.switch(scene)
    event = pygame.event.Event(
        pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ui_element=scene.menus["effects_volume"], text="20%"
    )
    scene.handle(event)
    assert load_settings(tmp_path).effects_volume == 20 and audio.effects_volume == 20
    scene.handle(pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ui_element=scene.menus["sound"], text="Off"))
    assert load_settings(tmp_path).muted and audio.muted
    # Every row fits above Back at the smallest window.
    assert scene.back_button.rect.bottom <= 560


# -- events to effects ------------------------------------------------------------------------


def blow(mode: str = "melee") -> Attacked:
    return Attacked(unit="a", target="b", attacker_losses=1, defender_losses=3, mode=mode)


@pytest.mark.parametrize(
    ("event", "effect"),
    [
        (blow(), "blow"),
        (blow("fire"), "volley"),
        (blow("blast"), "thunder"),
        (Moved(unit="foot", path=(Hex(0, 0), Hex(1, 0))), "move_foot"),
        (Moved(unit="horse", path=(Hex(0, 0), Hex(1, 0))), "move_horse"),
        (Routed(unit="b", side="red"), "rout"),
        (SoulsCaptured(unit="a", side="blue", count=40), "souls"),
        (
            DuelFought(challenger="a", target="b", challenger_hero="x", target_hero="y", rounds=(), wounded=()),
            "duel",
        ),
        (GameOver(winner="blue", reason="rout"), "victory"),
        (GameOver(winner="red", reason="rout"), "defeat"),
    ],
)
def test_each_event_plays_its_effect(event: Event, effect: str) -> None:
    audio, mixer, _ = make_audio()
    audio.on_events([event], mounted=lambda unit: unit == "horse", viewer="blue")
    assert mixer.played() == [f"sfx_{effect}"]


def test_an_unwitnessed_event_is_not_heard() -> None:
    audio, mixer, _ = make_audio()
    seen = blow()
    unseen = Routed(unit="far", side="red")
    assert audio.on_events([seen, unseen], witnessed=lambda ev: ev is seen) == ["blow"]
    assert mixer.played() == ["sfx_blow"]
    assert audio.on_events([unseen], witnessed=lambda ev: False) == []
    assert mixer.played() == ["sfx_blow"]


def test_one_action_sounds_its_loudest_effects_only() -> None:
    audio, mixer, _ = make_audio()
    events: list[Event] = [Moved(unit="a", path=(Hex(0, 0),)), blow(), Routed(unit="b", side="red"), blow()]
    assert audio.on_events(events) == ["rout", "blow"]
    assert mixer.played() == ["sfx_rout", "sfx_blow"]


def test_the_same_effect_is_not_repeated_at_once() -> None:
    audio, mixer, clock = make_audio()
    audio.play("blow")
    audio.play("blow")
    clock.ms += REPEAT_MS
    audio.play("blow")
    assert mixer.played() == ["sfx_blow", "sfx_blow"]


def test_silent_effects_volume_plays_nothing() -> None:
    audio, mixer, _ = make_audio(effects_volume=0)
    audio.play("blow")
    assert mixer.played() == []


def test_a_sound_is_decoded_once() -> None:
    audio, mixer, clock = make_audio()
    for _ in range(3):
        audio.play("click")
        clock.ms += 1000
    assert mixer.loaded() == ["sfx_click"]


# -- music ------------------------------------------------------------------------------------


def test_battle_music_by_situation() -> None:
    assert battle_music(enemies_in_sight=False, fought=False) == "battle_calm"
    assert battle_music(enemies_in_sight=True, fought=False) == "battle_tense"
    assert battle_music(enemies_in_sight=False, fought=True) == "battle_tense"


def test_an_army_marches_to_its_theme_until_the_armies_meet() -> None:
    assert battle_music(False, False, "zhenguo", met=False) == "theme_zhenguo"
    assert battle_music(True, False, "zhenguo", met=False) == "battle_tense"
    assert battle_music(False, False, "zhenguo", met=True) == "battle_calm"
    assert battle_music(False, False, "tangut", met=False) == "battle_calm"  # no theme of its own
    assert battle_music(False, False, None, met=False) == "battle_calm"  # nobody's side at the screen
    assert {theme_of(f) for f in ("yuqing", "hailing", "zhenguo", "jin")} == set(THEMES.values())


def test_a_battle_leaves_the_theme_once_enemies_come_in_sight() -> None:
    from game.content.scenarios import load_scenario
    from game.record.match import new_match

    sides = [s.id for s in load_scenario("a1_valley_mouth").scenario.sides]
    match = new_match("a1_valley_mouth", {s: "ai" for s in sides}, seed=1)
    state, rules = match.state, match.loaded.rules
    side = sides[0]
    enemy = next(fid for fid, f in state.formations.items() if f.side != side)
    audio, _, _ = make_audio()
    audio.begin_battle()
    audio.battle_events([], state, rules, side, seen=set())
    assert audio.current == theme_of(state.side(side).faction) == "theme_yuqing"
    audio.battle_events([], state, rules, side, seen={enemy})
    assert audio.current == "battle_tense"
    audio.battle_events([], state, rules, side, seen=set())
    assert audio.current == "battle_calm"  # met: the theme does not come back
    audio.begin_battle()
    audio.battle_events([], state, rules, side, seen=set())
    assert audio.current == "theme_yuqing"


# -- ducking ----------------------------------------------------------------------------------


def charge() -> Attacked:
    return Attacked(unit="a", target="b", attacker_losses=1, defender_losses=3, charge=True)


def duel() -> DuelFought:
    return DuelFought(challenger="a", target="b", challenger_hero="x", target_hero="y", rounds=(), wounded=())


def test_big_moments_duck_the_music_and_small_ones_do_not() -> None:
    assert duck_of([Routed(unit="b", side="red")]) == DUCKS["rout"]
    assert duck_of([duel()]) == DUCKS["duel"]
    assert duck_of([charge()]) == DUCKS["charge"]
    assert duck_of([blow("blast")]) == DUCKS["thunder"]
    assert duck_of([blow(), blow("fire"), Moved(unit="a", path=(Hex(0, 0),))]) is None
    assert duck_of([charge(), duel()]) == DUCKS["duel"]  # the deepest of them


def test_a_duck_falls_fast_holds_and_rises_slowly() -> None:
    duck = DUCKS["rout"]
    assert duck_gain(duck, 0) == 1.0
    assert duck.depth < duck_gain(duck, DUCK_FALL_MS // 2) < 1.0
    assert duck_gain(duck, DUCK_FALL_MS) == duck.depth
    assert duck_gain(duck, DUCK_FALL_MS + duck.hold_ms) == duck.depth
    rising = [duck_gain(duck, DUCK_FALL_MS + duck.hold_ms + ms) for ms in range(0, DUCK_RISE_MS + 1, 100)]
    assert rising == sorted(rising) and rising[-1] == 1.0


def test_a_rout_ducks_the_music_channel_and_it_comes_back() -> None:
    audio, mixer, clock = make_audio(music_volume=50)
    audio.music("battle_tense")
    channel = audio._channel
    audio.on_events([Routed(unit="b", side="red")])
    clock.ms += DUCK_FALL_MS + 100
    audio.update()
    assert mixer.calls[-1] == ("channel_volume", channel, 0.5 * DUCKS["rout"].depth)
    clock.ms += DUCKS["rout"].hold_ms + DUCK_RISE_MS
    audio.update()
    assert mixer.calls[-1] == ("channel_volume", channel, 0.5)
    mixer.calls.clear()
    audio.update()  # over: nothing more to do
    assert mixer.calls == []


def test_a_second_big_moment_never_lifts_the_music_and_unseen_ones_do_not_duck() -> None:
    audio, mixer, clock = make_audio()
    audio.music("battle_tense")
    audio.on_events([duel()])
    clock.ms += DUCK_FALL_MS
    audio.update()
    low = audio._gain
    audio.on_events([charge()])  # shallower, but comes while the duel's duck holds
    assert audio._gain == low
    quiet, mixer2, _ = make_audio()
    quiet.music("battle_tense")
    quiet.on_events([Routed(unit="far", side="red")], witnessed=lambda ev: False)
    assert quiet._duck is None


def test_fighting_keeps_the_battle_tense_until_the_turn_ends() -> None:
    audio, _, _ = make_audio()
    audio.on_events([blow()])
    assert audio.fought
    audio.on_events([TurnEnded(side="blue", next_side="red", turn=2)])
    assert not audio.fought
    audio.on_events([blow()], witnessed=lambda ev: False)  # unseen fighting does not count
    assert not audio.fought


def test_music_crossfades_and_a_piece_playing_goes_on() -> None:
    audio, mixer, _ = make_audio()
    audio.music("battle_calm")
    first = audio._channel
    audio.music("battle_calm")
    audio.music("battle_tense")
    music = [c for c in mixer.calls if c[0] in ("music", "fadeout")]
    assert music == [
        ("fadeout", 1 - first, 1500),
        ("music", first, -1, 1500),
        ("fadeout", first, 1500),
        ("music", 1 - first, -1, 1500),
    ]
    assert mixer.loaded() == ["music_battle_calm", "music_battle_tense"]
    assert "music_battle_calm" not in audio._sounds  # only the piece playing stays decoded


class HeldDecoder(Executor):
    """Decodes only when told to: what was asked for waits, as on a slow disk."""

    def __init__(self) -> None:
        self.asked: list[tuple[Future[Any], Callable[[], Any]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.asked.append((future, lambda: fn(*args, **kwargs)))
        return future

    def finish(self) -> None:
        for future, work in self.asked:
            future.set_result(work())
        self.asked.clear()


def test_music_decoded_aside_starts_when_ready_and_only_if_still_wanted() -> None:
    decoder = HeldDecoder()
    audio, mixer, _ = make_audio(decoder=decoder)
    audio.music("menu")
    audio.update()
    assert not [c for c in mixer.calls if c[0] == "music"]  # nothing waits for the decoding
    decoder.finish()
    audio.update()
    assert [c[0] for c in mixer.calls if c[0] == "music"] == ["music"]
    # A piece superseded while it was being decoded never starts.
    audio.music("battle_calm")
    audio.music("battle_tense")
    decoder.finish()
    audio.update()
    started = [c for c in mixer.calls if c[0] == "music"]
    assert len(started) == 2 and audio.current == "battle_tense"
    assert "music_battle_tense" in audio._sounds and "music_menu" not in audio._sounds


def test_the_end_of_a_battle_plays_victory_or_defeat_music() -> None:
    audio, _, _ = make_audio()
    audio.on_events([GameOver(winner="blue", reason="rout")], viewer="blue")
    assert audio.current == "victory"
    audio.on_events([GameOver(winner="blue", reason="rout")], viewer="red")
    assert audio.current == "defeat"


def test_the_menu_plays_menu_music_and_buttons_click() -> None:
    import pygame_gui

    audio, mixer, _ = make_audio()
    app = App((800, 560), audio=audio)
    app.go("menu")
    assert audio.current == "menu"
    button = next(iter(root_elements(app.scene)))
    app.step([pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=button)], 0.01, draw=False)
    assert "sfx_click" in mixer.played()


def test_a_battle_plays_its_music_and_hands_over_what_the_viewer_saw(monkeypatch: pytest.MonkeyPatch) -> None:
    from game.content.scenarios import load_scenario
    from game.core.actions import EndTurn
    from game.record.match import new_match

    sides = [s.id for s in load_scenario("a1_valley_mouth").scenario.sides]
    match = new_match("a1_valley_mouth", {sides[0]: "human", **{s: "ai" for s in sides[1:]}}, seed=1)
    audio, mixer, _ = make_audio()
    app = App((1280, 800), audio=audio)
    app.go("battle", match=match)
    assert audio.current in ("theme_yuqing", "battle_calm", "battle_tense")
    scene = current(app, BattleScene)
    heard: list[tuple[list[Event], str | None]] = []

    def hear(events: list[Event], state: object, rules: object, side: str | None, seen: set[str]) -> None:
        heard.append((list(events), side))

    monkeypatch.setattr(audio, "battle_events", hear)
    scene.submit(EndTurn())
    assert heard and heard[-1][1] == sides[0]
    assert any(ev.kind == "turn_ended" for ev in heard[-1][0])


# -- the files --------------------------------------------------------------------------------


def test_every_sound_and_piece_is_shipped_as_ogg_and_small() -> None:
    names = [f"sfx_{n}" for n in EFFECTS] + [f"music_{n}" for n in MUSIC]
    total = 0
    for name in names:
        path = AUDIO_DIR / f"{name}.ogg"
        head = path.read_bytes()[:64]
        assert head.startswith(b"OggS") and b"vorbis" in head, name
        total += path.stat().st_size
    assert total < 20 * 1024 * 1024  # the repository stays a sensible size
    assert (AUDIO_DIR / "README.md").exists()


def test_each_screen_asks_for_its_music_as_it_is_shown(tmp_path: Path) -> None:
    from game.content.scenarios import load_scenario
    from game.record.saves import load_record
    from game.simulate import run_game

    audio, _mixer, _ = make_audio()
    app = App((800, 560), audio=audio)
    app.go("campaigns", saves_dir=tmp_path)
    assert audio.current == "menu"
    result = run_game(load_scenario("b3_tangut_border"), 1, max_turns=1, save_dir=tmp_path)
    app.go("replay", record=load_record(Path(result["save"])))
    assert audio.current == "battle_calm"
    app.use_profile(Profile.load("en", saves_dir=tmp_path))
    app.open("settings")  # a screen without music of its own lets it play on
    assert audio.current == "battle_calm"


def test_the_replay_viewer_sounds_each_action_it_steps_to(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from game.content.scenarios import load_scenario
    from game.record.saves import load_record
    from game.simulate import run_game

    audio, mixer, _ = make_audio()
    app = App((800, 560), audio=audio)
    result = run_game(load_scenario("a1_valley_mouth"), 2, max_turns=2, save_dir=tmp_path)
    viewer = app.go("replay", record=load_record(Path(result["save"])))
    assert isinstance(viewer, ReplayScene)
    heard: list[list[Event]] = []

    def hear(events: Iterable[Event], **kw: object) -> list[str]:
        heard.append(list(events))
        return []

    monkeypatch.setattr(audio, "on_events", hear)
    for _ in range(6):
        viewer.step_forward()
    assert len(heard) == 6 and any(heard)  # each step is sounded, with its events


def test_a_campaign_briefs_to_its_army_s_theme_and_rests_in_camp_to_the_camp_music(tmp_path: Path) -> None:
    from game.content.campaigns import load_campaigns
    from game.core import campaign as camp
    from game.record.campaign_run import CampaignRun

    campaigns = load_campaigns()
    audio, _mixer, _ = make_audio()
    app = App((800, 560), audio=audio)
    app.use_profile(Profile.load("en", saves_dir=tmp_path))
    for campaign_id, theme in (("yuqing", "theme_yuqing"), ("zhenguo", "theme_zhenguo")):
        spec = campaigns.campaigns[campaign_id]
        run = CampaignRun(campaigns, spec, camp.new_progress(spec, seed=3), tmp_path)
        app.go("briefing", run=run)
        assert audio.current == theme
        app.go("camp", run=run)
        assert audio.current == "camp"
