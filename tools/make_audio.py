"""Synthesise the game's sound effects into game/assets/audio/sfx_*.ogg (the music is composed
and rendered by tools/make_music.py).

Everything is made here from numbers: plucked strings (guqin- and pipa-like, additive partials
that die faster the higher they are), drums, gongs, bells, woodblocks and noise. Variations come
from a generator seeded by each file's name, so every run gives the same sounds.

Each file is checked after encoding: Vorbis can push a peak above what was encoded, so a file
whose decoded peak passes -1 dBFS is made quieter and encoded again.

Needs (generation only, not the game): numpy (``pip install -e '.[audio]'``) and the Debian
packages ``vorbis-tools`` (oggenc, the Vorbis encoder) and ``sox`` (decodes for the peak check).
Usage: ``python tools/make_audio.py [--out game/assets/audio] [--only NAME ...]``.
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
# Loudness targets (RMS, dBFS): effects stand a little above the music (-21 dBFS RMS) under them.
EFFECT_RMS_DB = -17.0
# Effects heard often or meant to be in the background sit lower than the battle's big moments;
# the selection stays near the effects' level so that it is heard over the battle music.
EFFECT_OFFSET_DB = {"click": -9.0, "select": -1.0, "move_foot": -4.0, "move_horse": -4.0, "souls": -2.0}
EFFECT_QUALITY = 3  # oggenc -q
# Peaks are limited to LIMIT_DB before encoding and must decode at or under PEAK_MAX_DB.
LIMIT_DB = -2.0
PEAK_MAX_DB = -1.0

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


# -- the effects -------------------------------------------------------------------------------


def sfx_click(rng: np.random.Generator) -> np.ndarray:
    return woodblock(1150, 0.09) * 0.8


def sfx_select(rng: np.random.Generator) -> np.ndarray:
    # A wooden tap and two small bells, a fifth apart: short and bright, above the music's
    # plucked strings and drums, so a selection is heard even in the thick of the battle music.
    out = np.zeros(int(0.6 * SR))
    place(out, woodblock(1500, 0.06), 0, 0.6)
    place(out, fade_out(bell(midi_hz(88), 0.55), 0.3), 0.005)
    place(out, fade_out(bell(midi_hz(95), 0.5), 0.3), 0.06, 0.7)
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
    tramps = [footsteps(rng, 1.6, [t + 0.03 * rng.random() for t in times]) for _ in range(4)]
    out = tramps[0] + tramps[1] + tramps[2] + tramps[3]
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
# -- output ------------------------------------------------------------------------------------


def normalise(x: np.ndarray, rms_db: float) -> np.ndarray:
    """Scale to the target RMS, then round off any peak above LIMIT_DB (a soft limiter)."""
    x = x - np.mean(x)
    rms = np.sqrt(np.mean(x**2))
    x = x * (10 ** (rms_db / 20) / max(rms, 1e-9))
    ceiling = 10 ** (LIMIT_DB / 20)
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
                "--serial",
                "7",
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


def sox_stats(path: Path) -> dict[str, str]:
    """sox's figures for a file as decoded (``RMS lev dB``, ``Pk lev dB``, ...)."""
    stats = subprocess.run(["sox", str(path), "-n", "stats"], capture_output=True, text=True).stderr
    return {m[1]: m[2] for m in re.finditer(r"^(\S.*?)\s{2,}(\S+)", stats, re.M)}


def encode_under_ceiling(x: np.ndarray, path: Path, title: str) -> dict[str, str]:
    """Encode, and while the decoded peak passes PEAK_MAX_DB take the excess (and a margin) off."""
    for _ in range(6):
        write_ogg(x, path, EFFECT_QUALITY, title)
        figures = sox_stats(path)
        over = float(figures["Pk lev dB"]) - PEAK_MAX_DB
        if over <= -0.1:
            return figures
        x = x * 10 ** (-(over + 0.2) / 20)
    raise SystemExit(f"make_audio: {path.name} still peaks above {PEAK_MAX_DB} dBFS")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--only", nargs="*", help="make only these (e.g. sfx_blow sfx_select)")
    args = ap.parse_args()
    for tool, package in (("oggenc", "vorbis-tools"), ("sox", "sox")):
        if shutil.which(tool) is None:
            print(f"make_audio: {tool} not found: apt-get install -y {package}", file=sys.stderr)
            return 1
    args.out.mkdir(parents=True, exist_ok=True)
    print("| file | length | RMS dB | peak dB | KB |")
    print("| --- | --- | --- | --- | --- |")
    for key, make in EFFECTS.items():
        name = f"sfx_{key}"
        if args.only and name not in args.only:
            continue
        rng = np.random.default_rng(seed_of(name))
        x = normalise(np.asarray(make(rng), dtype=np.float64), EFFECT_RMS_DB + EFFECT_OFFSET_DB.get(key, 0.0))
        path = args.out / f"{name}.ogg"
        figures = encode_under_ceiling(x, path, name)
        print(
            f"| {path.name} | {len(x) / SR:.1f} s | {figures['RMS lev dB']} | {figures['Pk lev dB']} "
            f"| {path.stat().st_size / 1024:.0f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
