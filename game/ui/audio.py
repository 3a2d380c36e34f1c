"""Sound effects and music (game/assets/audio: effects made by tools/make_audio.py, music by
tools/make_music.py).

One ``Audio`` belongs to the app (``app.audio``). It plays effects by name and one music piece
at a time, crossfading between pieces on two reserved mixer channels. Without a sound device,
or when the mixer cannot start, it stays silent and never raises: sound is never worth a crash.
The mixer is passed in (``pygame.mixer`` by default) so tests can trace its calls.

The battle hands it the events its viewer witnessed (``battle_events``): each maps to at most
one effect, and the music follows the situation: the viewer's army's theme until the armies
first meet, then tense while enemies are in sight or blows fell this turn and calm otherwise;
victory or defeat when the battle ends. Big moments (a rout, a duel, a charge, palm thunder)
duck the music for a moment under their effect; ``update`` (every frame) brings it back."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import Executor, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from ..core.events import (
    Attacked,
    DuelFought,
    Event,
    Fled,
    GameOver,
    Moved,
    Routed,
    SkillUsed,
    SoulsCaptured,
    TurnEnded,
)
from ..paths import ASSETS_DIR

AUDIO_DIR = ASSETS_DIR / "audio"
EFFECTS = (
    "click",
    "select",
    "move_foot",
    "move_horse",
    "blow",
    "volley",
    "thunder",
    "rout",
    "souls",
    "duel",
    "victory",
    "defeat",
)
# Each army's theme, by faction (a faction without one hears the calm battle music).
THEMES = {
    "yuqing": "theme_yuqing",
    "hailing": "theme_hailing",
    "zhenguo": "theme_zhenguo",
    "jin": "theme_jin",
}
# "menu" is the title theme, played on the title screen and the menus.
MUSIC = ("menu", "camp", *THEMES.values(), "battle_calm", "battle_tense", "victory", "defeat")
CROSSFADE_MS = 1500
# The same effect again this soon is not replayed (a fast computer turn's burst of moves).
REPEAT_MS = 150
# One action's events sound at most this many effects (the loudest kinds first).
MAX_AT_ONCE = 2
# Which effect outranks which when one action brings several.
PRIORITY = ("victory", "defeat", "thunder", "duel", "rout", "volley", "blow", "souls", "move_horse", "move_foot")
# Events that make the battle tense for the rest of the turn.
FIGHTING = (Attacked, DuelFought, Routed, Fled)


def effect_of(ev: Event, mounted: Callable[[str], bool], viewer: str | None) -> str | None:
    """The effect an event sounds (None: silent)."""
    if isinstance(ev, Moved):
        return "move_horse" if mounted(ev.unit) else "move_foot"
    if isinstance(ev, Attacked):
        return {"fire": "volley", "blast": "thunder"}.get(ev.mode, "blow")
    if isinstance(ev, (Routed, Fled)):
        return "rout"
    if isinstance(ev, SoulsCaptured):
        return "souls"
    if isinstance(ev, DuelFought):
        return "duel"
    if isinstance(ev, GameOver):
        return "victory" if won(ev, viewer) else "defeat"
    return None


def won(ev: GameOver, viewer: str | None) -> bool:
    """Whether the side at the screen won (with nobody's side at the screen, any win is one)."""
    return ev.winner is not None and (viewer is None or ev.winner == viewer)


def theme_of(faction: str | None) -> str:
    """The music of an army (its theme), or the calm battle music for one without a theme."""
    return THEMES.get(faction or "", "battle_calm")


def battle_music(enemies_in_sight: bool, fought: bool, faction: str | None = None, met: bool = True) -> str:
    """Tense while enemies are in sight or blows fell this turn; before the armies ``met`` the
    ``faction``'s theme, after it the calm battle music."""
    if enemies_in_sight or fought:
        return "battle_tense"
    return "battle_calm" if met else theme_of(faction)


@dataclass(frozen=True)
class Duck:
    """The music held down under a big moment: to ``depth`` (a gain, 0-1) for ``hold_ms``."""

    depth: float
    hold_ms: int


DUCKS = {
    "rout": Duck(0.45, 1700),
    "duel": Duck(0.4, 2200),
    "charge": Duck(0.5, 1200),
    "thunder": Duck(0.45, 2000),
}
DUCK_FALL_MS = 120
DUCK_RISE_MS = 1000


def duck_of(events: Iterable[Event]) -> Duck | None:
    """The deepest duck the events call for (None: the music stays as it is)."""
    ducks: list[Duck] = []
    for ev in events:
        if isinstance(ev, (Routed, Fled)):
            ducks.append(DUCKS["rout"])
        elif isinstance(ev, DuelFought):
            ducks.append(DUCKS["duel"])
        elif isinstance(ev, Attacked) and ev.mode == "blast":
            ducks.append(DUCKS["thunder"])
        elif isinstance(ev, Attacked) and ev.charge:
            ducks.append(DUCKS["charge"])
    return min(ducks, key=lambda d: (d.depth, -d.hold_ms), default=None)


def duck_gain(duck: Duck, elapsed_ms: int) -> float:
    """The music's gain ``elapsed_ms`` after a duck began: a quick fall, the hold, a slow rise."""
    if elapsed_ms <= 0:
        return 1.0
    if elapsed_ms < DUCK_FALL_MS:
        return 1.0 - (1.0 - duck.depth) * elapsed_ms / DUCK_FALL_MS
    rising = elapsed_ms - DUCK_FALL_MS - duck.hold_ms
    if rising <= 0:
        return duck.depth
    return min(1.0, duck.depth + (1.0 - duck.depth) * rising / DUCK_RISE_MS)


class Audio:
    def __init__(
        self,
        mixer: Any = None,
        music_volume: int = 60,
        effects_volume: int = 80,
        muted: bool = False,
        clock: Callable[[], int] | None = None,
        decoder: Executor | None = None,
    ) -> None:
        """``mixer``: an initialised pygame.mixer-like module, or None for silence. Volumes are
        percentages. ``clock`` gives milliseconds (pygame's ticks by default). ``decoder``: where
        music is decoded away from the frames (the piece starts once ready); None decodes it at
        once."""
        self.mixer = mixer
        self.music_volume, self.effects_volume, self.muted = music_volume, effects_volume, muted
        if clock is None:
            import pygame

            clock = pygame.time.get_ticks
        self.clock = clock
        self._sounds: dict[str, Any] = {}
        self._decoder = decoder
        # The music piece being decoded: its name, its fade and the decoding under way.
        self._pending: tuple[str, int, Future[Any]] | None = None
        self._last_played: dict[str, int] = {}
        # The music asked for (kept while muted, to start again on unmute) and its channel.
        self.current: str | None = None
        self._channel = 0
        # Blows fell (or someone broke) since the current turn began: the battle stays tense.
        self.fought = False
        # The armies have met in this battle (the army's theme gives way to the battle music).
        self.met = False
        # The duck holding the music down (when it began, and how deep), and the gain it gives now.
        self._duck: tuple[int, Duck] | None = None
        self._gain = 1.0

    @classmethod
    def start(cls, settings: Any = None, mixer: Any = None) -> Audio:
        """Open the sound device (``settings``: a UserSettings for the volumes); silent when it
        cannot be opened."""
        if mixer is None:
            import pygame

            mixer = pygame.mixer
        try:
            mixer.init(44100, -16, 2, 2048)
            mixer.set_num_channels(12)
            mixer.set_reserved(2)  # channels 0 and 1: the music, crossfading between them
        except Exception:  # no device, no driver, no SDL_mixer: play nothing
            mixer = None
        # Decoding a piece of two minutes takes a good part of a second: a thread of its own
        # does it, so that neither the first frame nor a change of music waits for it.
        decoder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="music") if mixer is not None else None
        audio = cls(mixer, decoder=decoder)
        if settings is not None:
            audio.apply(settings)
        return audio

    @property
    def silent(self) -> bool:
        return self.mixer is None

    # -- settings -----------------------------------------------------------------------------

    def apply(self, settings: Any) -> None:
        """Take the volumes and mute from a UserSettings at once."""
        self.set_volumes(settings.music_volume, settings.effects_volume, settings.muted)

    def set_volumes(self, music: int, effects: int, muted: bool) -> None:
        was_muted = self.muted
        self.music_volume, self.effects_volume, self.muted = music, effects, muted
        if self.mixer is None:
            return
        if muted and not was_muted:
            self._stop_music(0)
        elif was_muted and not muted and self.current is not None:
            self._start_music(self.current, 0)
        elif not muted and self.current is not None:
            self._set_music_volume()

    def _set_music_volume(self) -> None:
        channel_id, volume = self._channel, self.music_volume / 100 * self._gain
        self._safe(lambda: self.mixer.Channel(channel_id).set_volume(volume))

    # -- ducking ------------------------------------------------------------------------------

    def duck(self, duck: Duck) -> None:
        """Hold the music down under a big moment (a duck under way goes on from where it is)."""
        now = self.clock()
        if self._duck is not None:
            start, running = self._duck
            duck = Duck(min(duck.depth, running.depth), max(duck.hold_ms, running.hold_ms - (now - start)))
        # Start the fall from where the music already is, so a second big moment never lifts it.
        already = min(1.0, (1.0 - self._gain) / max(1e-6, 1.0 - duck.depth))
        self._duck = (now - int(DUCK_FALL_MS * already), duck)
        self.update()

    def update(self) -> None:
        """Every frame: a piece decoded since starts, and the music's volume follows the duck,
        back to full when it is over."""
        self._start_decoded()
        if self._duck is None:
            return
        start, duck = self._duck
        elapsed = self.clock() - start
        gain = round(duck_gain(duck, elapsed), 3)
        if elapsed >= DUCK_FALL_MS + duck.hold_ms + DUCK_RISE_MS:
            self._duck, gain = None, 1.0
        if gain != self._gain:
            self._gain = gain
            if self.mixer is not None and not self.muted and self.current is not None:
                self._set_music_volume()

    # -- effects ------------------------------------------------------------------------------

    def play(self, name: str) -> None:
        """Play an effect (unless muted, silent, or the same one just played)."""
        if self.mixer is None or self.muted or self.effects_volume <= 0:
            return
        now = self.clock()
        if now - self._last_played.get(name, -REPEAT_MS) < REPEAT_MS:
            return
        self._last_played[name] = now
        sound = self._sound(f"sfx_{name}")
        if sound is not None:
            self._safe(lambda: (sound.set_volume(self.effects_volume / 100), sound.play()))

    def on_events(
        self,
        events: Iterable[Event],
        witnessed: Callable[[Event], bool] | None = None,
        mounted: Callable[[str], bool] | None = None,
        viewer: str | None = None,
    ) -> list[str]:
        """Sound what the viewer witnessed of one action's events; returns the effects played
        (the most telling first, at most MAX_AT_ONCE). The end of the battle also changes the
        music."""
        heard = [ev for ev in events if witnessed is None or witnessed(ev)]
        names: list[str] = []
        for ev in heard:
            if isinstance(ev, TurnEnded):
                self.fought = False
            elif isinstance(ev, FIGHTING) or (isinstance(ev, SkillUsed) and ev.target is not None):
                self.fought = True
            name = effect_of(ev, mounted or (lambda _unit: False), viewer)
            if name is not None and name not in names:
                names.append(name)
        names.sort(key=lambda n: PRIORITY.index(n) if n in PRIORITY else len(PRIORITY))
        names = names[:MAX_AT_ONCE]
        duck = duck_of(heard)
        if duck is not None and names:
            self.duck(duck)
        for name in names:
            self.play(name)
        for ev in heard:
            if isinstance(ev, GameOver):
                self.music("victory" if won(ev, viewer) else "defeat")
        return names

    def begin_battle(self) -> None:
        """A battle opens: its armies have not met yet, and no blow fell this turn."""
        self.fought = self.met = False

    def battle_events(self, events: list[Event], state: Any, rules: Any, side: str | None, seen: set[str]) -> None:
        """The battle's hook: ``events`` are what ``side`` witnessed of an action (already
        filtered), ``seen`` the formations it sees now. Plays their effects and picks the music."""

        def mounted(unit: str) -> bool:
            f = state.formations.get(unit)
            unit_type = rules.units.get(f.type) if f is not None else None
            return unit_type is not None and unit_type.move_class == "horse"

        self.on_events(events, mounted=mounted, viewer=side)
        if state.over:
            winner = next((ev for ev in events if isinstance(ev, GameOver)), None)
            if winner is None and self.current not in ("victory", "defeat"):
                self.music("victory" if state.winner is not None and state.winner in (side, None) else "defeat")
            return
        enemies = side is not None and any(
            (f := state.formations.get(fid)) is not None and f.side != side for fid in seen
        )
        faction = state.side(side).faction if side is not None else None
        music = battle_music(enemies, self.fought, faction, self.met)
        self.met = self.met or music == "battle_tense"
        self.music(music)

    # -- music --------------------------------------------------------------------------------

    def music(self, name: str | None, fade_ms: int = CROSSFADE_MS) -> None:
        """Crossfade to a music piece (looped); None fades the music out. The piece already
        playing goes on undisturbed."""
        if name == self.current:
            return
        self.current = name
        if self.mixer is None or self.muted:
            return
        self._stop_music(fade_ms)
        if name is not None:
            self._start_music(name, fade_ms)

    def _start_music(self, name: str, fade_ms: int) -> None:
        stem = f"music_{name}"
        if stem not in self._sounds and self._decoder is not None:
            self._pending = (name, fade_ms, self._decoder.submit(self._decode, stem))
            return
        self._play_music(stem, self._sound(stem), fade_ms)

    def _start_decoded(self) -> None:
        """Start the piece decoded aside, if it is ready and still the one wanted."""
        if self._pending is None or not self._pending[2].done():
            return
        name, fade_ms, decoding = self._pending
        self._pending = None
        stem = f"music_{name}"
        self._sounds[stem] = decoding.result()
        if name == self.current and self.mixer is not None and not self.muted:
            self._play_music(stem, self._sounds[stem], fade_ms)

    def settle(self) -> None:
        """Wait for a piece being decoded and start it (for whoever must hear it now)."""
        if self._pending is not None:
            wait([self._pending[2]])
            self._start_decoded()

    def _play_music(self, stem: str, sound: Any, fade_ms: int) -> None:
        if sound is None:
            return
        self._channel = 1 - self._channel
        channel_id = self._channel

        def start() -> None:
            channel = self.mixer.Channel(channel_id)
            channel.set_volume(self.music_volume / 100 * self._gain)
            channel.play(sound, loops=-1, fade_ms=fade_ms)

        self._safe(start)
        # Only the pieces playing stay decoded in memory (a piece is a few MB as samples).
        for key in [k for k in self._sounds if k.startswith("music_") and k != stem]:
            del self._sounds[key]

    def _stop_music(self, fade_ms: int) -> None:
        channel_id = self._channel
        self._safe(lambda: self.mixer.Channel(channel_id).fadeout(fade_ms) if fade_ms else None)
        if not fade_ms:
            self._safe(lambda: self.mixer.Channel(channel_id).stop())

    # -- loading ------------------------------------------------------------------------------

    def _sound(self, stem: str) -> Any:
        """The decoded sound of assets/audio/STEM.ogg, loaded once; None if it cannot be."""
        if stem not in self._sounds:
            self._sounds[stem] = self._decode(stem)
        return self._sounds[stem]

    def _decode(self, stem: str) -> Any:
        try:
            return self.mixer.Sound(str(AUDIO_DIR / f"{stem}.ogg"))
        except Exception:  # a missing or unreadable file (or a device gone): that sound is silent
            return None

    def _safe(self, call: Callable[[], object]) -> None:
        """Run a mixer call; a device lost mid-game silences the game instead of ending it."""
        try:
            call()
        except Exception:
            self.mixer = None


def audio_of(app: Any) -> Audio:
    """The app's Audio; a silent one for apps built without it (tests' stand-ins)."""
    audio = getattr(app, "audio", None)
    return audio if isinstance(audio, Audio) else SILENT


SILENT = Audio(mixer=None, clock=lambda: 0)
