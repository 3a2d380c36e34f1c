"""Who made what the game is built from, and under which licence: every asset the game ships
(tiles, fonts, sounds, music), what went into the music, and the libraries it runs on.

The same facts as the README beside each asset folder (game/assets/*/README.md) and the
repository's LICENSE; tests/test_credits.py checks that every shipped asset is named here.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import N_


@dataclass(frozen=True)
class Credit:
    what: str  # a heading (N_, translated when drawn)
    files: tuple[str, ...]  # paths under game/assets (globs), or () for what is not a shipped file
    origin: str  # who made it and how (N_)
    licence: str  # the licence's name (N_)


CREDITS: tuple[Credit, ...] = (
    Credit(
        N_("The game"),
        (),
        N_("Qiankun's code, rules, scenarios, maps and texts, by the Qiankun developers."),
        N_("MIT (the LICENSE file)"),
    ),
    Credit(
        N_("Terrain tiles"),
        ("tiles/terrain.png", "tiles/terrain.tsx", "tiles/terrain_preview.png", "tiles/README.md"),
        N_("Drawn for this game by a program, tools/make_tileset.py: no pictures from elsewhere."),
        N_("MIT, like the game"),
    ),
    Credit(
        N_("Fonts"),
        ("fonts/NotoSansSC-Qiankun.otf", "fonts/NotoSansTC-Qiankun.otf", "fonts/OFL.txt", "fonts/README.md"),
        N_("Noto Sans CJK SC and TC by Google and Adobe, cut down by tools/make_font_subset.py."),
        N_("SIL Open Font License 1.1 (fonts/OFL.txt)"),
    ),
    Credit(
        N_("Sound effects"),
        ("audio/sfx_*.ogg",),
        N_("Synthesised for this game from numbers by tools/make_audio.py: no recordings."),
        N_("MIT, like the game"),
    ),
    Credit(
        N_("Music"),
        ("audio/music_*.ogg", "audio/README.md"),
        N_(
            "Ten pieces composed for this game by a program in Chinese pentatonic modes "
            "(tools/compose_score.py), played by FluidSynth with the Fluid R3 GM soundfont (tools/make_music.py)."
        ),
        N_("MIT, like the game"),
    ),
    Credit(
        N_("Soundfont"),
        (),
        N_(
            "Fluid R3 GM by Frank Wen and contributors: the instruments heard in the music. "
            "Used when the music is made; not shipped with the game."
        ),
        N_("MIT"),
    ),
    Credit(
        N_("Libraries"),
        (),
        N_(
            "pygame-ce (LGPL 2.1), pygame_gui (MIT), pytmx (LGPL 3), pydantic (MIT), platformdirs (MIT); "
            "the music is made with mido (MIT), numpy (BSD) and FluidSynth (LGPL 2.1)."
        ),
        N_("each its own, as named above"),
    ),
)
