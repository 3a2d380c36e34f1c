"""Render the game's score (tools/compose_score.py) into game/assets/audio/music_*.ogg.

Each piece is written as a MIDI file with mido, played by FluidSynth through the Fluid R3 General
MIDI soundfont (Frank Wen, MIT licence), made into a seamless loop, brought to the music's loudness
and encoded as Ogg Vorbis. The loop: the piece is rendered for a few seconds past its end, and
that tail (the last notes' release and the reverberation) is mixed into the head, so the sound
at the loop point goes on as it would have; the script measures the seam on the encoded file.

Needs (build time only, not the game): ``pip install -e '.[audio]'`` (mido, numpy) and the Debian
packages ``fluidsynth fluid-soundfont-gm vorbis-tools sox``.
Usage: ``python tools/make_music.py [--out game/assets/audio] [--only title camp ...] [--midi DIR]``.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import wave
from pathlib import Path

import mido
import numpy as np
from compose_score import DRUM_CHANNEL, PIECES, Piece, Score, compose, repeated_windows

SR = 44100
TICKS = 480
TAIL_SECONDS = 7.0
SOUNDFONT = Path("/usr/share/sounds/sf2/FluidR3_GM.sf2")
ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "game" / "assets" / "audio"
MUSIC_RMS_DB = -21.0
PEAK_CEILING_DB = -1.5
QUALITY = 3
LICENCE_TAG = "LICENSE=MIT (Qiankun score, tools/make_music.py; Fluid R3 GM soundfont, MIT)"


def midi_file(score: Score) -> mido.MidiFile:
    """The score as a type-0 MIDI file, with a silent event past the end so the render keeps the tail."""
    piece = score.piece
    events: list[tuple[int, int, mido.Message]] = []  # (tick, order, message): note-offs before note-ons
    for channel, program in score.programs.items():
        events.append((0, 0, mido.Message("program_change", channel=channel, program=program)))
        events.append((0, 0, mido.Message("control_change", channel=channel, control=10, value=score.pans[channel])))
        events.append((0, 0, mido.Message("control_change", channel=channel, control=91, value=56)))
    events.append((0, 0, mido.Message("control_change", channel=DRUM_CHANNEL, control=91, value=48)))
    for n in score.notes:
        on = round(n.start * TICKS)
        off = max(on + 1, round((n.start + n.length) * TICKS))
        events.append((on, 2, mido.Message("note_on", channel=n.channel, note=n.key, velocity=n.velocity)))
        events.append((off, 1, mido.Message("note_off", channel=n.channel, note=n.key, velocity=0)))
    end = round((piece.bars * piece.beats + TAIL_SECONDS * piece.bpm / 60) * TICKS)
    events.append((end, 3, mido.Message("control_change", channel=15, control=7, value=0)))
    track = mido.MidiTrack()
    track.append(mido.MetaMessage("set_tempo", tempo=mido.bpm2tempo(piece.bpm), time=0))
    now = 0
    for tick, _order, message in sorted(events, key=lambda e: (e[0], e[1])):
        track.append(message.copy(time=tick - now))
        now = tick
    midi = mido.MidiFile(type=0, ticks_per_beat=TICKS)
    midi.tracks.append(track)
    return midi


def render(midi_path: Path, work: Path) -> np.ndarray:
    """FluidSynth's rendering of a MIDI file: float samples, shape (n, 2)."""
    raw = work / (midi_path.stem + ".raw")
    subprocess.run(
        ["fluidsynth", "-ni", "-q", "-g", "0.5", "-r", str(SR), "-O", "float", "-T", "raw", "-F", str(raw)]
        + ["-o", "synth.chorus.active=0", str(SOUNDFONT), str(midi_path)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return np.fromfile(raw, dtype="<f4").astype(np.float64).reshape(-1, 2)


def looped(x: np.ndarray, seconds: float) -> np.ndarray:
    """Mix what rings on past the loop's end into its head, so the loop repeats without a seam."""
    n = round(seconds * SR)
    out = x[:n].copy()
    tail = x[n:]
    while len(tail):
        m = min(n, len(tail))
        out[:m] += tail[:m]
        tail = tail[m:]
    return out


def normalise(x: np.ndarray, rms_db: float) -> np.ndarray:
    """To the target RMS, then any peak above the ceiling rounded off by a soft limiter."""
    x = x - x.mean(axis=0)
    x = x * (10 ** (rms_db / 20) / max(float(np.sqrt(np.mean(x**2))), 1e-9))
    ceiling = 10 ** (PEAK_CEILING_DB / 20)
    knee = 0.7 * ceiling
    over = np.abs(x) > knee
    x[over] = np.sign(x[over]) * (knee + (ceiling - knee) * np.tanh((np.abs(x[over]) - knee) / (ceiling - knee)))
    return x


def write_ogg(x: np.ndarray, path: Path, title: str, work: Path) -> None:
    wav_path = work / "x.wav"
    with wave.open(str(wav_path), "wb") as w:
        w.setnchannels(x.shape[1])
        w.setsampwidth(2)
        w.setframerate(SR)
        w.writeframes((np.clip(x, -1, 1) * 32767).round().astype("<i2").tobytes())
    subprocess.run(
        ["oggenc", "-Q", "-q", str(QUALITY), "--serial", "7", "-t", title, "-c", LICENCE_TAG]
        + ["-o", str(path), str(wav_path)],
        check=True,
    )


def decoded(path: Path) -> np.ndarray:
    """The samples of an encoded file as the game's mixer will play them, shape (n, channels)."""
    out = subprocess.run(["sox", str(path), "-t", "f32", "-"], capture_output=True, check=True).stdout
    channels = int(subprocess.run(["soxi", "-c", str(path)], capture_output=True, text=True).stdout)
    return np.frombuffer(out, dtype="<f4").astype(np.float64).reshape(-1, channels)


def measure(x: np.ndarray) -> dict[str, float]:
    """Peak and RMS (dBFS), length, and the loop seam: the jump from the last sample to the first
    against the piece's own sample-to-sample steps (a click would stand far above their 99.9th
    percentile)."""
    steps = np.abs(np.diff(x, axis=0)).max(axis=1)
    seam = float(np.abs(x[0] - x[-1]).max())
    return {
        "seconds": len(x) / SR,
        "peak_db": 20 * float(np.log10(np.abs(x).max())),
        "rms_db": 20 * float(np.log10(np.sqrt(np.mean(x**2)))),
        "seam_step": seam,
        "step_p999": float(np.percentile(steps, 99.9)),
    }


def band_rms(x: np.ndarray, low: float = 2000.0, high: float = 6000.0) -> float:
    """RMS of a mono signal between two frequencies (where a selection's bells ring)."""
    spectrum = np.fft.rfft(x)
    f = np.fft.rfftfreq(len(x), 1 / SR)
    spectrum[(f < low) | (f > high)] = 0
    return float(np.sqrt(np.mean(np.fft.irfft(spectrum, len(x)) ** 2)))


def selection_over(music: np.ndarray, select: np.ndarray, effects: float = 0.8, music_gain: float = 0.6) -> float:
    """How far (dB) the selection sound stands above the music in 2-6 kHz at the default volumes
    (effects 80 %, music 60 %): its first 0.2 s against the loudest tenth of the music's 0.2 s windows."""
    w = round(0.2 * SR)
    mono, sel = music.mean(axis=1), select.mean(axis=1)[:w]
    windows = [band_rms(mono[i : i + w]) * music_gain for i in range(0, len(mono) - w, w)]
    return 20 * float(np.log10(band_rms(sel) * effects / np.percentile(windows, 90)))


def make(piece: Piece, out: Path, work: Path, midi_dir: Path | None) -> dict[str, float]:
    score = compose(piece)
    repeats = repeated_windows(score)
    if repeats:
        raise SystemExit(f"make_music: {piece.name} repeats four bars exactly at bars {repeats[0]}")
    midi_path = (midi_dir or work) / f"music_{piece.name}.mid"
    midi_file(score).save(str(midi_path))
    x = normalise(looped(render(midi_path, work), piece.seconds), MUSIC_RMS_DB)
    path = out / f"music_{piece.name}.ogg"
    write_ogg(x, path, f"music_{piece.name}", work)
    music = decoded(path)
    figures = measure(music)
    figures["kb"] = path.stat().st_size / 1024
    select = out / "sfx_select.ogg"
    figures["select_db"] = selection_over(music, decoded(select)) if select.exists() else float("nan")
    return figures


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--only", nargs="*", help="make only these pieces (e.g. title battle_tense)")
    ap.add_argument("--midi", type=Path, help="also keep the MIDI files in this folder")
    args = ap.parse_args()
    for tool in ("fluidsynth", "oggenc", "sox"):
        if shutil.which(tool) is None:
            print(f"make_music: {tool} not found: apt-get install -y fluidsynth vorbis-tools sox", file=sys.stderr)
            return 1
    if not SOUNDFONT.exists():
        print(f"make_music: {SOUNDFONT} not found: apt-get install -y fluid-soundfont-gm", file=sys.stderr)
        return 1
    unknown = set(args.only or ()) - {p.name for p in PIECES}
    if unknown:
        print(f"make_music: no such piece: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    if args.midi:
        args.midi.mkdir(parents=True, exist_ok=True)
    print("| file | length | RMS dB | peak dB | seam step | 99.9% step | selection over it, dB | KB |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        for piece in PIECES:
            if args.only and piece.name not in args.only:
                continue
            f = make(piece, args.out, Path(tmp), args.midi)
            print(
                f"| music_{piece.name}.ogg | {f['seconds']:.1f} s | {f['rms_db']:.2f} | {f['peak_db']:.2f} "
                f"| {f['seam_step']:.4f} | {f['step_p999']:.4f} | {f['select_db']:+.1f} | {f['kb']:.0f} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
