"""The game's score, composed by rule from a fixed seed: notes only, no sound (tools/make_music.py
renders them).

Each piece is a set of eight-bar sections in a Chinese pentatonic mode. A piece's first section
states a melody (a four-bar question ending away from the tonic, a four-bar answer coming home);
the sections after it vary that melody (ornamented, moved up the mode, answered by another
instrument, or set aside for a contrasting tune) over accompaniment re-drawn bar by bar, with the
ensemble thickening towards the middle and thinning again so that the last section leads back
into the first: a loop of ninety seconds or more in which no four bars sound twice.

Pure Python (random with a seed per piece), so the tests can check the composition without mido.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

# The five modes of the pentatonic scale, as semitones above their tonic.
MODES: dict[str, tuple[int, ...]] = {
    "gong": (0, 2, 4, 7, 9),
    "shang": (0, 2, 5, 7, 10),
    "jue": (0, 3, 5, 8, 10),
    "zhi": (0, 2, 5, 7, 9),
    "yu": (0, 3, 5, 7, 10),
}
SECTION_BARS = 8
DRUM_CHANNEL = 9
# General MIDI percussion keys used by the drum styles.
KICK, LOW_TOM, HIGH_TOM, MID_TOM, CYMBAL, CRASH, HI_BLOCK, LO_BLOCK, TAMBOURINE, RIM = (
    35,
    41,
    43,
    47,
    52,
    49,
    76,
    77,
    54,
    37,
)


@dataclass(frozen=True)
class Voice:
    """One instrument's part: ``role`` says what it plays, ``low`` the bottom of its register."""

    role: str  # lead, answer, arp, ostinato, tremolo, pad, bass, bells, taiko, gong
    program: int  # General MIDI program, 0-based
    low: int
    velocity: int
    pan: int = 64


@dataclass(frozen=True)
class Piece:
    name: str
    what: str  # a line for the README
    tonic: int  # pitch class, 0 = C
    mode: str
    bpm: int
    beats: int  # beats to the bar (3 or 4)
    sections: int
    voices: tuple[Voice, ...]
    drums: str  # none, frame, march, war, gallop, heartbeat, festive
    seed: int

    @property
    def bars(self) -> int:
        return self.sections * SECTION_BARS

    @property
    def seconds(self) -> float:
        return self.bars * self.beats * 60 / self.bpm


@dataclass(frozen=True, order=True)
class Note:
    start: float  # in beats from the piece's start
    length: float  # beats
    key: int  # MIDI key
    velocity: int
    channel: int


@dataclass
class Score:
    piece: Piece
    notes: list[Note] = field(default_factory=list)
    programs: dict[int, int] = field(default_factory=dict)  # channel -> GM program
    pans: dict[int, int] = field(default_factory=dict)
    # Channels of unpitched parts (the drum kit, the taiko): their keys need not be in the mode.
    drum_channels: set[int] = field(default_factory=lambda: {DRUM_CHANNEL})


# General MIDI programs standing in for Chinese instruments (0-based numbers).
KOTO, SHAMISEN, SHAKUHACHI, PAN_FLUTE, FLUTE, PICCOLO, SHANAI = 107, 106, 77, 75, 73, 72, 111
VIOLIN, CELLO, CONTRABASS, PIZZICATO, STRINGS, SLOW_STRINGS, HARP = 40, 42, 43, 45, 48, 49, 46
CHOIR, TUBULAR_BELLS, GLOCKENSPIEL, CELESTA, TIMPANI, TAIKO, FIDDLE, REED_ORGAN = 52, 14, 9, 8, 47, 116, 110, 20

V = Voice
PIECES: tuple[Piece, ...] = (
    Piece(
        "menu",
        "the title theme, on the title screen and the menus: xiao and zither over slow strings, temple bells; "
        "D gong mode, 66 bpm",
        2,
        "gong",
        66,
        4,
        4,
        (
            V("lead", SHAKUHACHI, 62, 84, 54),
            V("answer", FLUTE, 69, 76, 74),
            V("arp", KOTO, 50, 70, 80),
            V("pad", SLOW_STRINGS, 38, 52, 64),
            V("bass", CONTRABASS, 26, 64, 60),
            V("bells", TUBULAR_BELLS, 62, 60, 44),
        ),
        "none",
        101,
    ),
    Piece(
        "camp",
        "the camp between battles: pipa and dizi, light woodblocks; G zhi mode, 88 bpm in three",
        7,
        "zhi",
        88,
        3,
        6,
        (
            V("lead", FLUTE, 67, 80, 70),
            V("answer", SHAMISEN, 60, 78, 50),
            V("arp", KOTO, 55, 66, 84),
            V("pad", STRINGS, 43, 44, 64),
            V("bass", PIZZICATO, 31, 70, 60),
        ),
        "frame",
        202,
    ),
    Piece(
        "theme_yuqing",
        "the Yuqing Palace coalition: a bright suona call, strings and taiko; C gong mode, 96 bpm",
        0,
        "gong",
        96,
        4,
        6,
        (
            V("lead", SHANAI, 67, 86, 60),
            V("answer", FLUTE, 72, 78, 76),
            V("ostinato", KOTO, 55, 68, 84),
            V("pad", STRINGS, 48, 54, 64),
            V("bass", CELLO, 36, 72, 56),
            V("bells", TUBULAR_BELLS, 72, 56, 40),
            V("taiko", TAIKO, 36, 92, 64),
        ),
        "march",
        303,
    ),
    Piece(
        "theme_hailing",
        "the Hailing soul-host: choir and xiao over a heartbeat, low strings; E yu mode, 72 bpm",
        4,
        "yu",
        72,
        4,
        4,
        (
            V("lead", SHAKUHACHI, 59, 84, 60),
            V("answer", CHOIR, 57, 66, 70),
            V("tremolo", VIOLIN, 64, 50, 84),
            V("pad", SLOW_STRINGS, 35, 60, 60),
            V("bass", CONTRABASS, 28, 72, 64),
            V("gong", TIMPANI, 40, 70, 64),
        ),
        "heartbeat",
        404,
    ),
    Piece(
        "theme_zhenguo",
        "the Zhenguo Army: a proud, disciplined march for strings, dizi and drums; Bb gong mode, 104 bpm",
        10,
        "gong",
        104,
        4,
        6,
        (
            V("lead", STRINGS, 58, 86, 60),
            V("answer", PICCOLO, 74, 70, 76),
            V("ostinato", SHAMISEN, 58, 70, 44),
            V("pad", REED_ORGAN, 46, 40, 64),
            V("bass", CELLO, 34, 76, 64),
            V("taiko", TAIKO, 34, 92, 64),
        ),
        "march",
        505,
    ),
    Piece(
        "theme_jin",
        "the Jin army: steppe riders, a fiddle and plucked strings over a galloping drum; D yu mode, 120 bpm",
        2,
        "yu",
        120,
        4,
        7,
        (
            V("lead", FIDDLE, 62, 84, 58),
            V("answer", SHANAI, 62, 74, 72),
            V("ostinato", SHAMISEN, 50, 74, 84),
            V("pad", STRINGS, 38, 46, 64),
            V("bass", CONTRABASS, 26, 76, 64),
            V("taiko", TAIKO, 33, 90, 64),
        ),
        "gallop",
        606,
    ),
    Piece(
        "battle_calm",
        "battle, no enemy in sight: pipa ostinato, frame drum, dizi; A yu mode, 84 bpm",
        9,
        "yu",
        84,
        4,
        5,
        (
            V("lead", FLUTE, 69, 78, 70),
            V("answer", KOTO, 57, 74, 52),
            V("ostinato", SHAMISEN, 45, 66, 80),
            V("pad", STRINGS, 45, 44, 64),
            V("bass", PIZZICATO, 33, 72, 60),
        ),
        "frame",
        707,
    ),
    Piece(
        "battle_tense",
        "battle, enemies in sight or blows this turn: war drums, pipa tremolo, suona calls; E yu mode, 126 bpm",
        4,
        "yu",
        126,
        4,
        7,
        (
            V("lead", SHANAI, 64, 84, 60),
            V("answer", VIOLIN, 64, 72, 76),
            V("tremolo", SHAMISEN, 52, 70, 46),
            V("ostinato", CELLO, 40, 74, 64),
            V("bass", CONTRABASS, 28, 80, 64),
            V("taiko", TAIKO, 33, 100, 64),
        ),
        "war",
        808,
    ),
    Piece(
        "victory",
        "after a victory: a festive dizi and suona tune, bells and drums; C gong mode, 100 bpm",
        0,
        "gong",
        100,
        4,
        6,
        (
            V("lead", FLUTE, 72, 84, 66),
            V("answer", SHANAI, 67, 76, 58),
            V("arp", KOTO, 60, 68, 84),
            V("pad", STRINGS, 48, 50, 64),
            V("bass", PIZZICATO, 36, 74, 60),
            V("bells", GLOCKENSPIEL, 84, 52, 70),
            V("taiko", TAIKO, 36, 80, 64),
        ),
        "festive",
        909,
    ),
    Piece(
        "defeat",
        "after a defeat: an erhu-like lament over the zither, a distant gong; A yu mode, 56 bpm",
        9,
        "yu",
        56,
        4,
        4,
        (
            V("lead", VIOLIN, 64, 78, 60),
            V("answer", SHAKUHACHI, 57, 72, 72),
            V("arp", KOTO, 45, 60, 84),
            V("pad", SLOW_STRINGS, 33, 52, 64),
            V("bass", CONTRABASS, 21, 60, 64),
            V("gong", TIMPANI, 33, 64, 64),
        ),
        "none",
        1010,
    ),
)

# Rhythms of one bar of melody, in beats (the last of a phrase is held instead).
RHYTHMS: dict[int, tuple[tuple[float, ...], ...]] = {
    4: ((1, 1, 2), (2, 1, 1), (1.5, 0.5, 1, 1), (1, 0.5, 0.5, 2), (0.5, 0.5, 1, 1, 1), (3, 1), (2, 2), (1, 1, 1, 1)),
    3: ((1, 1, 1), (2, 1), (1.5, 0.5, 1), (1, 0.5, 0.5, 1), (1, 2)),
}


def scale(piece: Piece, low: int, high: int) -> list[int]:
    """The mode's notes from ``low`` to ``high`` (MIDI keys)."""
    steps = MODES[piece.mode]
    return [k for k in range(low, high + 1) if (k - piece.tonic) % 12 in steps]


def degree_key(piece: Piece, low: int, index: int) -> int:
    """The ``index``-th note of the mode counting from the tonic at or above ``low``."""
    keys = scale(piece, low, low + 60)
    first = next(i for i, k in enumerate(keys) if (k - piece.tonic) % 12 == 0)
    return keys[max(0, first + index)]


@dataclass(frozen=True)
class Phrase:
    """A melody as (beat in the bar group, length, step of the mode from the tonic)."""

    notes: tuple[tuple[float, float, int], ...]


def make_phrase(rng: random.Random, beats: int, bars: int, end_step: int, start_step: int = 0) -> Phrase:
    """A walk on the mode's steps, mostly by step, sometimes by a leap, ending held on ``end_step``."""
    notes: list[tuple[float, float, int]] = []
    step = start_step
    for bar in range(bars):
        last = bar == bars - 1
        rhythm = (float(beats),) if last else rng.choice(RHYTHMS[beats])
        at = float(bar * beats)
        for i, length in enumerate(rhythm):
            if last:
                step = end_step
            elif i or bar:
                move = rng.choice((-1, -1, 1, 1, -2, 2, 0, 3, -3))
                # Lean back towards the ending as the phrase closes.
                if bar == bars - 2 and abs(step + move - end_step) > abs(step - end_step):
                    move = -move
                step = max(-3, min(8, step + move))
            notes.append((at, length, step))
            at += length
    return Phrase(tuple(notes))


def ornament(rng: random.Random, phrase: Phrase, amount: float) -> Phrase:
    """Split some held notes into a passing figure (the player's own decoration)."""
    out: list[tuple[float, float, int]] = []
    for at, length, step in phrase.notes:
        if length >= 1 and rng.random() < amount and (at, length, step) != phrase.notes[-1]:
            half = length / 2
            out.append((at, half, step))
            out.append((at + half, half / 2, step + rng.choice((1, -1))))
            out.append((at + half + half / 2, half / 2, step))
        else:
            out.append((at, length, step))
    return Phrase(tuple(out))


def shifted(phrase: Phrase, by: int) -> Phrase:
    """The phrase moved along the mode (the last note kept, so cadences still land home)."""
    notes = phrase.notes
    return Phrase(tuple((a, n, s + by) for a, n, s in notes[:-1]) + notes[-1:])


# -- the parts ---------------------------------------------------------------------------------


def intensity(section: int, sections: int) -> int:
    """0 (sparse) to 2 (full): building to the middle and falling back so the loop closes softly."""
    if section == 0 or section == sections - 1:
        return 1 if sections > 4 else 0
    middle = sections / 2
    return 2 if abs(section + 0.5 - middle) <= max(1.0, sections / 4) else 1


def roots_for(rng: random.Random, bars: int) -> list[int]:
    """One root (a step of the mode) per bar: two four-bar halves, the first ending open, the second home."""
    out: list[int] = []
    for half in range(bars // 4):
        cadence = 3 if half % 2 == 0 else 0
        middle = rng.sample((0, 1, 3, 4, 2, 0), 2)
        out += [0 if half % 2 == 0 else rng.choice((4, 0, 3)), *middle, cadence]
    return out


class Composer:
    """Writes one piece's notes into a Score."""

    def __init__(self, piece: Piece) -> None:
        self.piece = piece
        self.rng = random.Random(piece.seed)
        self.score = Score(piece)
        self.channel_of: dict[int, int] = {}
        channel = 0
        for i, voice in enumerate(piece.voices):
            if channel == DRUM_CHANNEL:
                channel += 1
            self.channel_of[i] = channel
            self.score.programs[channel] = voice.program
            self.score.pans[channel] = voice.pan
            if voice.role == "taiko":
                self.score.drum_channels.add(channel)
            channel += 1

    def note(self, voice_index: int, start: float, length: float, key: int, velocity: int) -> None:
        jitter = self.rng.uniform(-0.015, 0.015) if start > 0 else 0.0
        vel = max(20, min(120, velocity + self.rng.randint(-7, 7)))
        channel = self.channel_of[voice_index]
        self.score.notes.append(Note(round(start + jitter, 4), length, key, vel, channel))

    def drum(self, start: float, key: int, velocity: int) -> None:
        vel = max(20, min(120, velocity + self.rng.randint(-9, 9)))
        self.score.notes.append(Note(round(start, 4), 0.25, key, vel, DRUM_CHANNEL))

    def up(self, key: int, steps: int) -> int:
        """The note ``steps`` steps of the mode above ``key`` (three steps: the mode's fifth)."""
        keys = scale(self.piece, key, key + 24)
        return keys[steps]

    def voices(self, role: str) -> list[int]:
        return [i for i, v in enumerate(self.piece.voices) if v.role == role]

    def compose(self) -> Score:
        p, rng = self.piece, self.rng
        question = make_phrase(rng, p.beats, 4, end_step=rng.choice((1, 3)))
        answer = make_phrase(rng, p.beats, 4, end_step=0, start_step=question.notes[-1][2])
        contrast = (
            make_phrase(rng, p.beats, 4, end_step=4, start_step=3),
            make_phrase(rng, p.beats, 4, end_step=0, start_step=4),
        )
        plans = ["statement"] + [
            rng.choice(("ornament", "shift", "answered", "contrast")) for _ in range(p.sections - 1)
        ]
        if "contrast" not in plans and p.sections > 2:
            plans[p.sections // 2] = "contrast"
        for section, plan in enumerate(plans):
            start = section * SECTION_BARS * p.beats
            level = intensity(section, p.sections)
            if plan == "contrast":
                halves = (ornament(rng, contrast[0], 0.2), ornament(rng, contrast[1], 0.2))
            elif plan == "ornament":
                halves = (ornament(rng, question, 0.5), ornament(rng, answer, 0.5))
            elif plan == "shift":
                by = rng.choice((1, 2, -1))
                halves = (shifted(ornament(rng, question, 0.25), by), ornament(rng, answer, 0.3))
            else:
                halves = (ornament(rng, question, 0.15), ornament(rng, answer, 0.15))
            self.melody(start, halves, plan, section)
            roots = roots_for(rng, SECTION_BARS)
            for bar, root in enumerate(roots):
                at = start + bar * p.beats
                last_bar = bar == SECTION_BARS - 1
                self.accompany(at, root, level, last_bar)
                self.percussion(at, level, last_bar, bar)
        return self.score

    def melody(self, start: float, halves: tuple[Phrase, Phrase], plan: str, section: int) -> None:
        p = self.piece
        leads, answers = self.voices("lead"), self.voices("answer")
        first = leads[0] if leads else answers[0]
        second = answers[0] if answers else first
        # Who sings the question and who the answer changes from section to section.
        singers = (first, second) if plan == "answered" else (first, first) if section % 2 == 0 else (second, first)
        for half, (phrase, singer) in enumerate(zip(halves, singers, strict=True)):
            voice = p.voices[singer]
            octave_up = 12 if plan == "contrast" and voice.low < 66 else 0
            for at, length, step in phrase.notes:
                key = degree_key(p, voice.low, step) + octave_up
                self.note(singer, start + half * 4 * p.beats + at, length * 0.95, key, voice.velocity)
            tremolo = self.voices("tremolo")
            if tremolo and (section + half) % 2 == 1:
                tv = p.voices[tremolo[0]]
                for at, length, step in phrase.notes:
                    if length >= 2:
                        key = degree_key(p, tv.low, step)
                        beat = start + half * 4 * p.beats + at
                        for k in range(int(length * 4)):
                            self.note(tremolo[0], beat + k * 0.25, 0.22, key, tv.velocity - (k % 2) * 10)

    def accompany(self, at: float, root: int, level: int, last_bar: bool) -> None:
        p, rng = self.piece, self.rng
        for i, v in enumerate(p.voices):
            base = degree_key(p, v.low, root)
            if v.role == "pad" and (level > 0 or rng.random() < 0.5):
                for k in (base, self.up(base, 3), base + 12)[: 2 + (level > 1)]:
                    self.note(i, at, p.beats, k, v.velocity)
            elif v.role == "bass":
                hits = (0.0,) if level == 0 else (0.0, p.beats / 2) if level == 1 else (0.0, 1.5, p.beats / 2 + 1)
                for h in hits:
                    if h < p.beats:
                        self.note(
                            i,
                            at + h,
                            min(1.5, p.beats - h),
                            base if rng.random() > 0.2 else self.up(base, 3),
                            v.velocity,
                        )
            elif v.role == "arp" and not (level == 0 and rng.random() < 0.3):
                chord = scale(p, base, base + 19)
                shape = rng.choice(((0, 2, 4, 5), (0, 3, 5, 4), (0, 2, 3, 5), (5, 4, 2, 0)))
                step = 0.5 if level > 0 else 1.0
                for n in range(int(p.beats / step)):
                    key = chord[shape[n % len(shape)] % len(chord)]
                    self.note(i, at + n * step, step * 1.8, key, v.velocity - 6 * (n % 2))
            elif v.role == "ostinato" and (level > 0 or rng.random() < 0.6):
                figure = [base, base, base + 7, rng.choice((base + 5, base + 10, base + 3, base + 12))]
                step = 0.5 if level < 2 else 0.25
                for n in range(int(p.beats / step)):
                    key = figure[n % 4]
                    if key % 12 not in {(p.tonic + s) % 12 for s in MODES[p.mode]}:
                        key = base
                    accent = 10 if n % int(1 / step) == 0 else 0
                    self.note(i, at + n * step, step * 0.9, key, v.velocity - 8 + accent)
            elif v.role == "bells" and (last_bar or rng.random() < 0.2):
                self.note(i, at, p.beats * 2, degree_key(p, v.low, rng.choice((0, 3, 5))), v.velocity)
            elif v.role == "gong" and (last_bar or rng.random() < 0.15):
                self.note(i, at, p.beats * 2, base, v.velocity)

    def percussion(self, at: float, level: int, last_bar: bool, bar: int) -> None:
        p, rng = self.piece, self.rng
        taiko = self.voices("taiko")
        style = p.drums

        def big(beat: float, velocity: int, low: bool = True) -> None:
            if taiko:
                v = p.voices[taiko[0]]
                self.note(taiko[0], at + beat, 1.0, v.low if low else v.low + 7, velocity)
            else:
                self.drum(at + beat, KICK if low else LOW_TOM, velocity)

        if style == "none":
            return
        if style == "heartbeat":
            for beat in (0.0, 0.6) if p.beats == 4 else (0.0,):
                big(beat, 70 - int(beat * 20))
            if level > 1 and bar % 2:
                big(2.0, 60)
        elif style == "frame":
            self.drum(at, LOW_TOM, 70)
            for beat in range(1, p.beats):
                if rng.random() < 0.7:
                    self.drum(at + beat, HI_BLOCK if beat % 2 else LO_BLOCK, 50)
            if level > 0:
                for beat in range(p.beats):
                    if rng.random() < 0.4:
                        self.drum(at + beat + 0.5, TAMBOURINE, 40)
        elif style in ("march", "festive"):
            big(0.0, 96)
            big(2.0, 80)
            if level > 0:
                for beat in (1.0, 3.0):
                    self.drum(at + beat, RIM, 56)
            if level > 1:
                for beat in (1.5, 3.5):
                    if rng.random() < 0.5:
                        big(beat, 64, low=False)
            if style == "festive" and bar % 2 == 0:
                self.drum(at, CYMBAL, 60)
        elif style == "gallop":
            for beat in range(p.beats):
                big(beat, 90 if beat == 0 else 66)
                if level > 0:
                    self.drum(at + beat + 2 / 3, MID_TOM, 54)
                if level > 1:
                    self.drum(at + beat + 1 / 3, HIGH_TOM, 44)
        elif style == "war":
            for beat in range(p.beats):
                big(float(beat), 100 if beat % 2 == 0 else 78)
                if level > 1 or rng.random() < 0.4:
                    big(beat + 0.5, 62, low=False)
            if bar % 4 == 0:
                self.drum(at, CYMBAL, 80)
        if last_bar:
            # A fill into the next section: rolling drums, a cymbal on the downbeat after.
            for n in range(8):
                big(p.beats - 2 + n * 0.25, 60 + n * 5, low=n % 2 == 0)
            if level > 0 and style != "heartbeat":
                self.drum(at + p.beats, CRASH if style != "frame" else CYMBAL, 70)


def compose(piece: Piece) -> Score:
    score = Composer(piece).compose()
    # A note at or after the loop's end belongs to its start (the fill's crash on the first downbeat).
    length = piece.bars * piece.beats
    score.notes = sorted(
        Note(n.start % length, n.length, n.key, n.velocity, n.channel) if n.start >= length else n for n in score.notes
    )
    return score


def repeated_windows(score: Score, bars: int = 4) -> list[tuple[int, int]]:
    """Pairs of bar numbers where ``bars`` bars of every part sound exactly alike (nothing
    played counts as a window too, so silence repeated is caught)."""
    p = score.piece
    span = bars * p.beats
    windows: dict[tuple[tuple[float, float, int, int], ...], int] = {}
    pairs: list[tuple[int, int]] = []
    for first in range(0, p.bars - bars + 1):
        lo, hi = first * p.beats, first * p.beats + span
        key = tuple(
            (round(n.start - lo, 1), round(n.length, 1), n.key, n.channel) for n in score.notes if lo <= n.start < hi
        )
        if key in windows:
            pairs.append((windows[key], first))
        else:
            windows[key] = first
    return pairs
