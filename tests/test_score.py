"""The score (tools/compose_score.py): every piece the game asks for is composed, long enough,
without four bars sounding twice, the same on every run, and shipped (tools/make_music.py
renders it; the measured figures are in game/assets/audio/README.md)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from compose_score import PIECES, compose, repeated_windows  # noqa: E402

from game.ui.audio import AUDIO_DIR, MUSIC, THEMES  # noqa: E402


def test_every_piece_the_game_plays_is_composed_and_shipped() -> None:
    names = {p.name for p in PIECES}
    assert names == set(MUSIC)
    assert set(THEMES.values()) <= names and len(PIECES) >= 8
    for name in names:
        assert (AUDIO_DIR / f"music_{name}.ogg").exists(), name


def test_each_piece_lasts_ninety_seconds_or_more() -> None:
    assert all(p.seconds >= 90 for p in PIECES), {p.name: round(p.seconds) for p in PIECES}


def test_no_four_bars_of_a_piece_sound_twice() -> None:
    for piece in PIECES:
        assert repeated_windows(compose(piece)) == [], piece.name


def test_the_check_finds_a_repeat_when_there_is_one() -> None:
    piece = PIECES[0]
    score = compose(piece)
    bar = piece.beats
    early = [n for n in score.notes if n.start < 4 * bar]
    late_start = 16 * bar
    score.notes = [n for n in score.notes if not late_start <= n.start < late_start + 4 * bar]
    score.notes += [type(n)(n.start + late_start, n.length, n.key, n.velocity, n.channel) for n in early]
    score.notes.sort()
    assert (0, 16) in repeated_windows(score)


def test_the_composition_is_the_same_on_every_run_and_keeps_to_the_mode() -> None:
    from compose_score import MODES

    for piece in PIECES:
        score = compose(piece)
        assert score.notes == compose(piece).notes, piece.name
        length = piece.bars * piece.beats
        assert all(0 <= n.start < length and 0 < n.velocity <= 127 and 0 <= n.key <= 127 for n in score.notes)
        steps = {(piece.tonic + s) % 12 for s in MODES[piece.mode]}
        pitched = [n for n in score.notes if n.channel not in score.drum_channels]
        assert pitched and all(n.key % 12 in steps for n in pitched), piece.name
