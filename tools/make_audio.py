"""Synthesise the game's sound effects and music into game/assets/audio/*.ogg.

Everything is made here from numbers: plucked strings (guqin- and pipa-like, additive partials
that die faster the higher they are), a bamboo flute (dizi/xiao-like, with breath and vibrato),
drums, gongs, bells, woodblocks and noise. The tunes are pentatonic and written for this game;
their variations come from a seeded generator, so every run gives the same files.

Needs (generation only, not the game): numpy (``pip install -e '.[dev]'``) and the Debian packages
``vorbis-tools`` (oggenc, the Vorbis encoder) and ``sox`` (the loudness figures printed at the
end). Usage: ``python tools/make_audio.py [--out game/assets/audio] [--only NAME ...]``.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import wave
from collections.abc import Callable
from pathlib import Path

import numpy as np

SR = 44100
ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "game" / "assets" / "audio"
# Loudness targets (RMS, dBFS): effects stand a little above the music under them.
EFFECT_RMS_DB = -17.0
MUSIC_RMS_DB = -21.0
# Effects heard often or meant to be in the background sit lower than the battle's big moments.
EFFECT_OFFSET_DB = {"click": -9.0, "select": -6.0, "move_foot": -4.0, "move_horse": -4.0, "souls": -2.0}
# Vorbis quality (oggenc -q): music is long, effects are short.
MUSIC_QUALITY = 2
EFFECT_QUALITY = 3

# -- building blocks ---------------------------------------------------------------------------


def t_of(dur: float) -> np.ndarray:
    return np.arange(int(dur * SR)) / SR


def midi_hz(note: float) -> float:
    return 440.0 * 2 ** ((note - 69) / 12)


def band(x: np.ndarray, lo: float = 0.0, hi: float = SR / 2) -> np.ndarray:
    """Keep the frequencies between lo and hi (a soft-edged FFT mask)."""
    spec = np.fft.rfft(x)
    f = np.fft.rfftfreq(len(x), 1 / SR)
    mask = np.ones_like(f)
    if lo > 0:
        mask *= 1 / (1 + (lo / np.maximum(f, 1e-3)) ** 4)
    if hi < SR / 2:
        mask *= 1 / (1 + (f / hi) ** 4)
    return np.fft.irfft(spec * mask, len(x))


def noise(rng: np.random.Generator, dur: float) -> np.ndarray:
    return rng.standard_normal(int(dur * SR))


def env_ad(n: int, attack: float, decay: float) -> np.ndarray:
    """A quick attack then an exponential decay (``decay``: seconds to fall by e)."""
    t = np.arange(n) / SR
    a = np.minimum(1.0, t / max(attack, 1e-4))
    return a * np.exp(-np.maximum(0, t - attack) / decay)


def string(
    freq: float,
    dur: float,
    bright: float = 1.2,
    decay: float = 1.5,
    slide: float = 0.0,
    vibrato: float = 0.0,
    pos: float = 0.18,
) -> np.ndarray:
    """A plucked string: partials by the pluck position, the high ones dying first; ``slide``
    bends the pitch into the note (a guqin's glide), ``vibrato`` sways it (its rocking finger)."""
    t = t_of(dur)
    bend = 1 + slide * np.exp(-t / 0.06) + vibrato * np.sin(2 * np.pi * 5.0 * t) * np.minimum(1, t / 0.4)
    out = np.zeros_like(t)
    for k in range(1, 24):
        fk = freq * k * np.sqrt(1 + 0.00012 * k * k)
        if fk > 9000:
            break
        amp = abs(np.sin(np.pi * k * pos)) / k**bright
        phase = 2 * np.pi * np.cumsum(fk * bend) / SR
        out += amp * np.sin(phase) * np.exp(-t / (decay / (1 + 0.45 * (k - 1))))
    return out * np.minimum(1, t / 0.003)


def guqin(freq: float, dur: float = 2.5, slide: float = 0.0) -> np.ndarray:
    return string(freq, dur, bright=1.5, decay=1.8, slide=slide, vibrato=0.004, pos=0.12)


def pipa(freq: float, dur: float = 0.8, rng: np.random.Generator | None = None) -> np.ndarray:
    x = string(freq, dur, bright=0.9, decay=0.45, pos=0.22)
    if rng is not None:  # the nail's click
        n = min(len(x), int(0.01 * SR))
        x[:n] += 0.15 * band(noise(rng, 0.01)[:n], 2000, 8000) * np.linspace(1, 0, n)
    return x


def pipa_tremolo(freq: float, dur: float, rng: np.random.Generator, rate: float = 13.0) -> np.ndarray:
    """Lunzhi: the fingers rolling over one string, a fast even stream of plucks."""
    out = np.zeros(int((dur + 0.5) * SR))
    step = 1 / rate
    for i in range(int(dur / step)):
        at = int(i * step * SR)
        note = pipa(freq, 0.5, rng) * (0.55 + 0.25 * rng.random())
        out[at : at + len(note)] += note
    return out


def flute(freq: float, dur: float, rng: np.random.Generator, breath: float = 0.06) -> np.ndarray:
    """A bamboo flute: a near-sine with a little 2nd and 3rd, vibrato growing in, and breath."""
    t = t_of(dur)
    vib = 1 + 0.006 * np.sin(2 * np.pi * 5.2 * t) * np.minimum(1, t / 0.5)
    phase = 2 * np.pi * np.cumsum(freq * vib) / SR
    tone = np.sin(phase) + 0.28 * np.sin(2 * phase) + 0.1 * np.sin(3 * phase)
    air = band(noise(rng, dur), freq * 1.5, freq * 4) * breath
    env = np.minimum(1, t / 0.09) * np.minimum(1, (dur - t) / 0.15).clip(0)
    return (tone + air) * env


def drum(
    dur: float, rng: np.random.Generator, hi: float = 130, lo: float = 55, decay: float = 0.35, slap: float = 0.25
) -> np.ndarray:
    """A skin drum: a sine falling from ``hi`` to ``lo`` Hz and the stick's noisy slap."""
    t = t_of(dur)
    f = lo + (hi - lo) * np.exp(-t / 0.05)
    body = np.sin(2 * np.pi * np.cumsum(f) / SR) * np.exp(-t / decay)
    hit = band(noise(rng, dur), 100, 2500) * np.exp(-t / 0.02) * slap
    return body + hit


def gong(freq: float, dur: float, rng: np.random.Generator, decay: float = 1.8) -> np.ndarray:
    """A gong: inharmonic partials, a shimmering beat, the hit's noise."""
    t = t_of(dur)
    out = np.zeros_like(t)
    for ratio, amp, dk in (
        (1.0, 1.0, 1.0),
        (1.52, 0.6, 0.8),
        (2.41, 0.45, 0.6),
        (3.3, 0.3, 0.45),
        (4.17, 0.2, 0.35),
        (5.63, 0.12, 0.25),
    ):
        f = freq * ratio
        out += amp * np.sin(2 * np.pi * f * t + 0.3 * np.sin(2 * np.pi * 2.3 * t)) * np.exp(-t / (decay * dk))
    out *= np.minimum(1, t / 0.008)
    return out + 0.3 * band(noise(rng, dur), 200, 3000) * np.exp(-t / 0.05)


def bell(freq: float, dur: float = 1.6) -> np.ndarray:
    """A small bronze bell: a bright inharmonic strike that rings."""
    t = t_of(dur)
    out = np.zeros_like(t)
    for ratio, amp, dk in ((1.0, 1.0, 1.0), (2.0, 0.5, 0.6), (2.76, 0.4, 0.4), (5.4, 0.25, 0.2)):
        out += amp * np.sin(2 * np.pi * freq * ratio * t) * np.exp(-t / (0.9 * dk))
    return out * np.minimum(1, t / 0.002)


def woodblock(freq: float = 900, dur: float = 0.12) -> np.ndarray:
    t = t_of(dur)
    return (np.sin(2 * np.pi * freq * t) + 0.4 * np.sin(2 * np.pi * freq * 2.7 * t)) * np.exp(-t / 0.018)


def clang(rng: np.random.Generator, dur: float = 0.7, pitch: float = 1.0) -> np.ndarray:
    """Steel on steel: a few hard inharmonic partials and a burst of noise."""
    t = t_of(dur)
    out = np.zeros_like(t)
    for f, a, d in ((1230, 0.7, 0.25), (2870, 0.5, 0.18), (4190, 0.4, 0.12), (5830, 0.3, 0.08), (7320, 0.2, 0.05)):
        out += a * np.sin(2 * np.pi * f * pitch * t + rng.random() * 6) * np.exp(-t / d)
    out += band(noise(rng, dur), 1500, 9000) * np.exp(-t / 0.015) * 0.8
    return out


def reverb(x: np.ndarray, rng: np.random.Generator, time: float = 1.4, wet: float = 0.22) -> np.ndarray:
    """A hall: convolution with decaying, darkened noise; the tail is kept."""
    t = t_of(time)
    ir = band(noise(rng, time), 80, 5000) * np.exp(-t / (time / 5))
    ir /= np.sqrt(np.sum(ir**2))
    n = len(x) + len(ir)
    size = 1 << (n - 1).bit_length()
    wet_sig = np.fft.irfft(np.fft.rfft(x, size) * np.fft.rfft(ir, size), size)[:n]
    out = np.zeros(n)
    out[: len(x)] += x
    return out + wet * wet_sig


def place(track: np.ndarray, sound: np.ndarray, at: float, gain: float = 1.0) -> None:
    i = max(0, int(at * SR))
    if i >= len(track):
        return
    j = min(len(track), i + len(sound))
    track[i:j] += gain * sound[: j - i]


def fade_out(x: np.ndarray, secs: float) -> np.ndarray:
    n = min(len(x), int(secs * SR))
    x = x.copy()
    x[-n:] *= np.linspace(1, 0, n) ** 2
    return x


# -- scales and phrases ------------------------------------------------------------------------

# Pentatonic modes as semitones above the tonic: gong (major-like) and yu (minor-like).
GONG = (0, 2, 4, 7, 9)
YU = (0, 3, 5, 7, 10)


def degree(tonic: int, mode: tuple[int, ...], d: int) -> int:
    """The MIDI note of scale degree ``d`` (any integer: octaves wrap)."""
    octave, i = divmod(d, len(mode))
    return tonic + 12 * octave + mode[i]


def phrase(rng: np.random.Generator, length: int, start: int, end: int, low: int, high: int) -> list[int]:
    """A melody as scale degrees: mostly steps, a leap now and then, landing on ``end``."""
    out = [start]
    for i in range(1, length - 1):
        left = length - 1 - i
        step = rng.choice([-2, -1, 0, 1, 2, 3, -3], p=[0.1, 0.25, 0.1, 0.25, 0.1, 0.1, 0.1])
        nxt = int(np.clip(out[-1] + step, low, high))
        # Draw towards the goal as the phrase runs out.
        if abs(nxt - end) > 2 * left:
            nxt = out[-1] + int(np.sign(end - out[-1]))
        out.append(nxt)
    out.append(end)
    return out


# -- the effects -------------------------------------------------------------------------------


def sfx_click(rng: np.random.Generator) -> np.ndarray:
    return woodblock(1150, 0.09) * 0.8


def sfx_select(rng: np.random.Generator) -> np.ndarray:
    # A harmonic touched on the guqin: a soft, high, bell-like pair of notes.
    out = np.zeros(int(0.7 * SR))
    place(out, string(midi_hz(86), 0.6, bright=2.5, decay=0.4, pos=0.5), 0)
    place(out, string(midi_hz(93), 0.5, bright=2.5, decay=0.35, pos=0.5), 0.07, 0.7)
    return out


def footsteps(rng: np.random.Generator, dur: float, times: list[float], weight: float = 1.0) -> np.ndarray:
    out = np.zeros(int(dur * SR))
    for at in times:
        thump = band(noise(rng, 0.12), 60, 900) * env_ad(int(0.12 * SR), 0.004, 0.03)
        gear = band(noise(rng, 0.1), 3000, 8000) * env_ad(int(0.1 * SR), 0.002, 0.02) * 0.25
        place(out, thump * weight, at)
        place(out, gear, at + 0.01 + 0.02 * rng.random())
    return out


def sfx_move_foot(rng: np.random.Generator) -> np.ndarray:
    # Many feet in step: two tramps a beat, a little ragged.
    times = [i * 0.27 + 0.015 * rng.standard_normal() for i in range(5)]
    out = sum(footsteps(rng, 1.6, [t + 0.03 * rng.random() for t in times]) for _ in range(4))
    return fade_out(out, 0.5)


def sfx_move_horse(rng: np.random.Generator) -> np.ndarray:
    # A gallop's three-beat pattern, several horses slightly out of step.
    out = np.zeros(int(1.6 * SR))
    for horse in range(3):
        off = 0.04 * horse
        for bar in range(3):
            for beat in (0.0, 0.09, 0.2):
                at = off + bar * 0.42 + beat + 0.01 * rng.standard_normal()
                hoof = band(noise(rng, 0.08), 150, 2500) * env_ad(int(0.08 * SR), 0.002, 0.018)
                hoof += 0.6 * drum(0.08, rng, 220, 120, 0.03, 0)[: len(hoof)]
                place(out, hoof, max(0, at), 0.7)
    return fade_out(out, 0.4)


def sfx_blow(rng: np.random.Generator) -> np.ndarray:
    out = np.zeros(int(0.9 * SR))
    place(out, clang(rng, 0.8), 0.0)
    place(out, clang(rng, 0.7, 1.13), 0.06, 0.6)
    place(out, drum(0.4, rng, 110, 50, 0.12, 0.4), 0.0, 0.9)
    return out


def sfx_volley(rng: np.random.Generator) -> np.ndarray:
    # A flight of arrows: falling whistles of filtered noise, then the hits.
    dur = 1.6
    out = np.zeros(int(dur * SR))
    for _ in range(14):
        start = 0.25 * rng.random()
        length = 0.5 + 0.3 * rng.random()
        n = int(length * SR)
        t = np.arange(n) / SR
        x = band(noise(rng, length), 1800 + 1500 * rng.random(), 6000)
        x *= np.sin(np.pi * t / length) ** 2
        place(out, x * 0.35, start)
        place(out, band(noise(rng, 0.05), 200, 3000) * env_ad(int(0.05 * SR), 0.001, 0.012), start + length, 0.6)
    return fade_out(out, 0.3)


def sfx_thunder(rng: np.random.Generator) -> np.ndarray:
    # Palm thunder: a crack, then a rolling rumble.
    dur = 2.4
    t = t_of(dur)
    crack = band(noise(rng, dur), 300, 9000) * np.exp(-t / 0.05)
    rumble_src = np.cumsum(noise(rng, dur))  # brown noise
    rumble_src -= band(rumble_src, 0, 8)  # no drift
    rumble = band(rumble_src, 25, 400)
    rumble /= np.max(np.abs(rumble))
    swell = (1 - np.exp(-t / 0.03)) * np.exp(-t / 0.7) * (1 + 0.4 * np.sin(2 * np.pi * 3.1 * t))
    boom = drum(dur, rng, 90, 32, 0.5, 0)
    return fade_out(crack * 0.9 + rumble * swell * 1.2 + boom * 0.8, 0.6)


def sfx_rout(rng: np.random.Generator) -> np.ndarray:
    # The line breaking: a falling gong, a sliding pipa, scattered running feet.
    out = np.zeros(int(2.0 * SR))
    place(out, gong(196, 1.8, rng, 0.8), 0.0, 0.5)
    for i, d in enumerate((4, 3, 1, 0)):
        place(out, pipa(midi_hz(degree(57, YU, d)), 0.6, rng), 0.1 + 0.16 * i, 0.6)
    times = sorted(0.5 + 1.1 * rng.random(10))
    place(out, footsteps(rng, 1.5, [t - 0.5 for t in times], 0.8), 0.5)
    return fade_out(out, 0.4)


def sfx_souls(rng: np.random.Generator) -> np.ndarray:
    # Souls drawn into the pouch: a rising shimmer of small bells.
    out = np.zeros(int(2.0 * SR))
    for i, d in enumerate((0, 1, 2, 3, 4, 5, 6, 7)):
        f = midi_hz(degree(74, GONG, d))
        place(out, bell(f, 1.2) * 0.35, 0.08 * i)
        place(out, bell(f * 1.004, 1.2) * 0.2, 0.08 * i + 0.012)
    t = t_of(2.0)
    whoosh = band(noise(rng, 2.0), 2000, 7000) * np.sin(np.pi * np.minimum(1, t / 0.9)) ** 2 * 0.08
    return reverb(fade_out(out + whoosh, 0.5), rng, 1.0, 0.3)


def sfx_duel(rng: np.random.Generator) -> np.ndarray:
    # Two champions: a drum roll, then two blades meeting and again.
    out = np.zeros(int(1.6 * SR))
    for i in range(6):
        place(out, drum(0.3, rng, 180, 90, 0.08, 0.3), 0.05 * i, 0.3 + 0.1 * i)
    place(out, clang(rng, 0.9, 1.0), 0.38)
    place(out, clang(rng, 0.9, 0.87), 0.78, 0.85)
    return reverb(out, rng, 0.8, 0.15)


def sfx_victory(rng: np.random.Generator) -> np.ndarray:
    out = np.zeros(int(3.0 * SR))
    for i, at in enumerate((0.0, 0.25, 0.5)):
        place(out, drum(0.6, rng, 120, 55, 0.25, 0.3), at, 0.8 + 0.1 * i)
    place(out, gong(147, 2.5, rng, 1.5), 0.75, 0.6)
    for i, d in enumerate((0, 2, 3, 5)):
        place(out, pipa_tremolo(midi_hz(degree(62, GONG, d)), 0.3 if i < 3 else 1.2, rng), 0.75 + 0.3 * i, 0.5)
    return reverb(fade_out(out, 0.6), rng, 1.2, 0.2)


def sfx_defeat(rng: np.random.Generator) -> np.ndarray:
    out = np.zeros(int(3.2 * SR))
    place(out, gong(98, 3.0, rng, 2.0), 0.0, 0.7)
    for i, d in enumerate((2, 1, 0, -1)):
        place(out, guqin(midi_hz(degree(57, YU, d)), 1.6, slide=-0.03), 0.5 + 0.5 * i, 0.6)
    return reverb(fade_out(out, 0.8), rng, 1.6, 0.25)


# -- the music ---------------------------------------------------------------------------------


def loop(track: np.ndarray, length: float) -> np.ndarray:
    """Fold what rings on past the loop's end back onto its start, so it repeats seamlessly."""
    n = int(length * SR)
    out = track[:n].copy()
    tail = track[n:]
    while len(tail):
        m = min(n, len(tail))
        out[:m] += tail[:m]
        tail = tail[m:]
    return out


def music_menu(rng: np.random.Generator) -> np.ndarray:
    # A guqin alone at first, a xiao answering: slow, D gong mode, 16 bars of 4 beats at 60.
    beat = 1.0
    bars = 12
    length = bars * 4 * beat
    track = np.zeros(int((length + 4) * SR))
    tonic = 50  # D3
    for p in range(bars // 2):
        goal = [0, 3, 2, 0, 4, 0][p]
        notes = phrase(rng, 6, [2, 0, 4, 2, 3, 1][p], goal, -2, 7)
        rhythm = [1, 1, 0.5, 0.5, 1, 4][:6]
        at = p * 8 * beat
        for d, r in zip(notes, rhythm, strict=True):
            place(track, guqin(midi_hz(degree(tonic + 12, GONG, d)), 3.0, slide=0.02 if d % 2 else 0.0), at, 0.8)
            at += r * beat
        # The open bass string on each phrase's first beat.
        place(track, guqin(midi_hz(tonic - 12 + (7 if p % 2 else 0)), 4.0), p * 8 * beat, 0.6)
        if p % 2 == 1:  # the xiao's answer over the held note
            f_notes = phrase(rng, 3, goal + 5, 5 + [2, 0, 4][p % 3], 3, 10)
            at = p * 8 * beat + 4.5 * beat
            for d, r in zip(f_notes, (1.0, 1.0, 1.5), strict=True):
                place(track, flute(midi_hz(degree(tonic + 12, GONG, d)), r * beat * 1.05, rng), at, 0.25)
                at += r * beat
    return loop(reverb(track, rng, 2.2, 0.3), length)


def music_battle_calm(rng: np.random.Generator) -> np.ndarray:
    # Armies on the march: a pipa's low ostinato, a frame drum's heartbeat, a dizi above. A yu.
    beat = 60 / 84
    bars = 16
    length = bars * 4 * beat
    track = np.zeros(int((length + 3) * SR))
    tonic = 57  # A3
    ostinato = [0, 2, 3, 2, 0, 2, 4, 3]
    for bar in range(bars):
        at0 = bar * 4 * beat
        shift = [0, 0, -2, -1][(bar // 2) % 4]
        for i, d in enumerate(ostinato):
            place(track, pipa(midi_hz(degree(tonic - 12, YU, d + shift)), 0.7, rng), at0 + i * beat / 2, 0.45)
        place(track, drum(0.6, rng, 100, 60, 0.3, 0.15), at0, 0.5)
        place(track, drum(0.6, rng, 100, 60, 0.3, 0.15), at0 + 2 * beat, 0.3)
        place(track, woodblock(700, 0.1), at0 + 3.5 * beat, 0.12)
    for p in range(4, bars, 4):
        notes = phrase(rng, 7, 4, [3, 0, 2, 0][p // 4 % 4], 0, 9)
        rhythm = (1.5, 0.5, 1, 1, 2, 2, 8)
        at = p * 4 * beat
        for d, r in zip(notes, rhythm, strict=True):
            dur = min(r, 4) * beat
            place(track, flute(midi_hz(degree(tonic + 12, YU, d)), dur * 1.02, rng), at, 0.22)
            at += r * beat
    return loop(reverb(track, rng, 1.5, 0.22), length)


def music_battle_tense(rng: np.random.Generator) -> np.ndarray:
    # Battle joined: war drums, a pipa's tremolo climbing, gongs at each fourth bar. E yu, 120.
    beat = 0.5
    bars = 16
    length = bars * 4 * beat
    track = np.zeros(int((length + 3) * SR))
    tonic = 52  # E3
    pattern = [(0, 1.0), (1, 0.5), (1.5, 0.6), (2, 0.9), (3, 0.5), (3.25, 0.4), (3.5, 0.7)]
    for bar in range(bars):
        at0 = bar * 4 * beat
        for b, g in pattern:
            place(track, drum(0.5, rng, 120, 48, 0.22, 0.35), at0 + b * beat, g * 0.9)
        for b in range(8):  # the small drum's quavers
            place(track, drum(0.15, rng, 420, 300, 0.04, 0.5), at0 + b * beat / 2, 0.12 + 0.08 * (b % 2 == 0))
        if bar % 4 == 0:
            place(track, gong(110, 3.0, rng, 1.2), at0, 0.4)
        line = [[0, 2, 3, 4], [0, 2, 4, 5], [3, 2, 0, -1], [0, 1, 2, 4]][bar % 4]
        for i, d in enumerate(line):
            note = midi_hz(degree(tonic + 12, YU, d + bar // 8))
            place(track, pipa_tremolo(note, beat * 0.95, rng), at0 + i * beat, 0.3)
        place(track, pipa(midi_hz(degree(tonic - 12, YU, line[0])), 1.0, rng), at0, 0.5)
    return loop(reverb(track, rng, 1.2, 0.18), length)


def music_victory(rng: np.random.Generator) -> np.ndarray:
    # The field held: a bright march in C gong mode, dizi over pipa and drums, 100 a minute.
    beat = 0.6
    bars = 12
    length = bars * 4 * beat
    track = np.zeros(int((length + 4) * SR))
    tonic = 60
    for bar in range(bars):
        at0 = bar * 4 * beat
        for b, g in ((0, 0.9), (1, 0.4), (2, 0.7), (2.5, 0.4), (3, 0.5)):
            place(track, drum(0.5, rng, 130, 60, 0.25, 0.3), at0 + b * beat, g * 0.7)
        chord = [0, 3, 4, 0][bar % 4]
        for i, d in enumerate((chord, chord + 2, chord + 4, chord + 2)):
            place(track, pipa(midi_hz(degree(tonic - 12, GONG, d)), 0.8, rng), at0 + i * beat, 0.4)
        if bar % 4 == 0:
            place(track, gong(131, 3.0, rng, 1.3), at0, 0.35)
    for p in range(0, bars, 2):
        notes = phrase(rng, 6, [4, 2, 5, 4, 3, 0][p // 2], [2, 0, 4, 3, 1, 0][p // 2], 0, 9)
        at = p * 4 * beat
        for d, r in zip(notes, (1, 1, 1, 1, 2, 2), strict=True):
            place(track, flute(midi_hz(degree(tonic + 12, GONG, d)), r * beat, rng), at, 0.2)
            at += r * beat
    return loop(reverb(track, rng, 1.6, 0.22), length)


def music_defeat(rng: np.random.Generator) -> np.ndarray:
    # The field lost: a slow guqin lament in A yu mode, a distant gong, the xiao alone at the end.
    beat = 60 / 54
    bars = 8
    length = bars * 4 * beat
    track = np.zeros(int((length + 5) * SR))
    tonic = 57
    for bar in range(bars):
        at0 = bar * 4 * beat
        if bar % 4 == 0:
            place(track, gong(82, 5.0, rng, 2.5), at0, 0.35)
        place(track, guqin(midi_hz(degree(tonic - 24, YU, [0, -2, 1, 0][bar % 4])), 4.5), at0, 0.6)
        notes = phrase(rng, 4, [4, 3, 2, 3, 4, 2, 1, 0][bar], [2, 1, 0, 2, 3, 1, 0, 0][bar], -1, 7)
        at = at0
        for d, r in zip(notes, (1, 0.5, 0.5, 2), strict=True):
            place(track, guqin(midi_hz(degree(tonic, YU, d)), 3.0, slide=-0.025 if r >= 2 else 0.0), at, 0.7)
            at += r * beat
        if bar in (3, 7):
            place(track, flute(midi_hz(degree(tonic + 12, YU, [4, 2][bar == 7])), 3 * beat, rng, 0.1), at0 + beat, 0.18)
    return loop(reverb(track, rng, 2.5, 0.32), length)


EFFECTS: dict[str, Callable[[np.random.Generator], np.ndarray]] = {
    "click": sfx_click,
    "select": sfx_select,
    "move_foot": sfx_move_foot,
    "move_horse": sfx_move_horse,
    "blow": sfx_blow,
    "volley": sfx_volley,
    "thunder": sfx_thunder,
    "rout": sfx_rout,
    "souls": sfx_souls,
    "duel": sfx_duel,
    "victory": sfx_victory,
    "defeat": sfx_defeat,
}
MUSIC: dict[str, Callable[[np.random.Generator], np.ndarray]] = {
    "menu": music_menu,
    "battle_calm": music_battle_calm,
    "battle_tense": music_battle_tense,
    "victory": music_victory,
    "defeat": music_defeat,
}

# -- output ------------------------------------------------------------------------------------


def normalise(x: np.ndarray, rms_db: float) -> np.ndarray:
    """Scale to the target RMS, then round off any peak above -1 dBFS (a soft limiter)."""
    x = x - np.mean(x)
    rms = np.sqrt(np.mean(x**2))
    x = x * (10 ** (rms_db / 20) / max(rms, 1e-9))
    ceiling = 10 ** (-1.5 / 20)
    over = np.abs(x) > 0.7 * ceiling
    knee = 0.7 * ceiling
    x[over] = np.sign(x[over]) * (knee + (ceiling - knee) * np.tanh((np.abs(x[over]) - knee) / (ceiling - knee)))
    return x


def write_ogg(x: np.ndarray, path: Path, quality: int, title: str) -> None:
    pcm = (np.clip(x, -1, 1) * 32767).astype("<i2")
    with tempfile.TemporaryDirectory() as tmp:
        wav_path = Path(tmp) / "x.wav"
        with wave.open(str(wav_path), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(SR)
            w.writeframes(pcm.tobytes())
        subprocess.run(
            [
                "oggenc",
                "-Q",
                "-q",
                str(quality),
                "-t",
                title,
                "-c",
                "LICENSE=MIT (Qiankun, tools/make_audio.py)",
                "-o",
                str(path),
                str(wav_path),
            ],
            check=True,
        )


def seed_of(name: str) -> int:
    return int(sum(ord(c) * 31**i for i, c in enumerate(name)) % 2**32)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--only", nargs="*", help="make only these (e.g. sfx_blow music_menu)")
    args = ap.parse_args()
    if shutil.which("oggenc") is None:
        print("make_audio: oggenc not found: apt-get install -y vorbis-tools", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    jobs = [(f"sfx_{k}", f, EFFECT_RMS_DB + EFFECT_OFFSET_DB.get(k, 0.0), EFFECT_QUALITY) for k, f in EFFECTS.items()]
    jobs += [(f"music_{k}", f, MUSIC_RMS_DB, MUSIC_QUALITY) for k, f in MUSIC.items()]
    for name, make, rms_db, quality in jobs:
        if args.only and name not in args.only:
            continue
        rng = np.random.default_rng(seed_of(name))
        x = normalise(np.asarray(make(rng), dtype=np.float64), rms_db)
        path = args.out / f"{name}.ogg"
        write_ogg(x, path, quality, name)
        print(f"{path.name}: {len(x) / SR:.1f} s, {path.stat().st_size // 1024} KB")
    if shutil.which("sox"):
        print("\nloudness (sox stats: RMS lev dB, Pk lev dB):")
        for path in sorted(args.out.glob("*.ogg")):
            stats = subprocess.run(["sox", str(path), "-n", "stats"], capture_output=True, text=True).stderr
            figures = {m[1]: m[2] for m in re.finditer(r"^(\S.*?)\s{2,}(\S+)", stats, re.M)}
            print(f"  {path.name:28} RMS {figures.get('RMS lev dB')}  peak {figures.get('Pk lev dB')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
