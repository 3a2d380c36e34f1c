"""Saving and loading records as JSON, written atomically, read defensively.

A save is untrusted input: every way it can be wrong ends in one ``SaveError`` with a message
a player can act on, and loading never modifies any file. Older formats are brought up to date
by ``migrations`` before they are validated.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import tempfile
import time
from pathlib import Path

from pydantic import ValidationError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: dead writers' files are cleared by age
    fcntl = None  # type: ignore[assignment]

from .errors import SaveError
from .model import FORMAT_VERSION, RECORD_FORMAT, GameRecord
from .names import clean_name, file_stem, is_plain

# No honest save comes near this; refusing early keeps a hostile file from eating memory.
MAX_SAVE_BYTES = 64 * 1024 * 1024
QUICKSAVE_NAME = "quicksave"
# ``write_atomic``'s temporary files: ".<target name>.<random>.tmp". One outlives its write only
# if the writing process died; after this long no write can still be using it.
TEMP_SUFFIX = ".tmp"
STALE_TEMP_SECONDS = 600


def write_atomic(path: Path, content: str | bytes) -> None:
    """Write ``content`` so that ``path`` holds either the old content or the new, never a mix.

    Temporary file in the same folder, written, fsynced and checked to hold every byte, then
    renamed over the target; any failure (OSError) leaves the old file as it was. The temporary
    file is locked while it is written, so the next write to the folder can tell what a killed
    writer left behind and clear it away.
    """
    data = content.encode("utf-8") if isinstance(content, str) else content
    path.parent.mkdir(parents=True, exist_ok=True)
    clear_dead_temps(path.parent)
    fd, tmp_name = _locked_temp(path)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
            written = os.fstat(fh.fileno()).st_size
            if written != len(data):
                raise OSError(errno.EIO, f"wrote {written} of {len(data)} bytes")
        os.replace(tmp_name, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        raise
    try:
        dir_fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return  # some platforms cannot open folders; the rename is still atomic
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def _locked_temp(path: Path) -> tuple[int, str]:
    """A new temporary file beside ``path``, open and locked: (fd, name)."""
    while True:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent)
        if fcntl is None:
            return fd, tmp_name
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:  # a file system without locks: nobody can lock it either (``_unlocked``)
            return fd, tmp_name
        try:
            # Another writer clearing the folder may have taken it for dead before it was locked.
            if os.stat(tmp_name).st_ino == os.fstat(fd).st_ino:
                return fd, tmp_name
        except FileNotFoundError:
            pass
        os.close(fd)


def _is_temp(p: Path) -> bool:
    return p.name.startswith(".") and p.name.endswith(TEMP_SUFFIX)


def clear_dead_temps(folder: Path) -> None:
    """Remove the temporary files of writers that died (best effort): those no live writer holds
    locked, or (where files cannot be locked) those old enough to be certainly abandoned."""
    try:
        entries = [p for p in folder.iterdir() if _is_temp(p)]
    except OSError:
        return
    now = time.time()
    for p in entries:
        with contextlib.suppress(OSError):
            age = now - p.stat().st_mtime  # where nothing can be locked, age tells
            if age > STALE_TEMP_SECONDS or _unlocked(p):
                p.unlink()


def _unlocked(p: Path) -> bool:
    """Whether no process holds ``p`` locked (its writer is gone)."""
    if fcntl is None:
        return False
    fd = os.open(p, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    finally:
        os.close(fd)
    return True


def write_record(record: GameRecord, path: Path) -> Path:
    """Write ``record`` (as ``Match.saved_record`` makes it) atomically to ``path``, which it
    returns; SaveError says why not."""
    try:
        write_atomic(path, record.model_dump_json(indent=1))
    except OSError as exc:
        raise SaveError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path


def save_path(name: str, saves_dir: Path) -> Path:
    """The file for a save name (see ``names``): always a file directly in ``saves_dir``, never
    one of the game's own files. BadSaveName (a SaveError) says why a name is refused."""
    path = saves_dir / f"{file_stem(clean_name(name))}.json"
    # ``file_stem`` keeps separators and dots out; this states the promise itself.
    if path.parent != saves_dir or path.name.startswith("."):  # pragma: no cover - unreachable
        raise SaveError(f"bad save name {name!r}: it leaves the saves folder")
    return path


def own_path(stem: str, saves_dir: Path) -> Path:
    """The file for one of the game's own files (campaign progress): ``stem`` is used as it is,
    so it must be plain (lowercase letters, digits, '-' and '_')."""
    if not isinstance(stem, str) or not is_plain(stem):
        raise SaveError(f"bad file name {stem!r}: use up to 64 lowercase letters, digits, '-' and '_'")
    return saves_dir / f"{stem}.json"


def save_files(saves_dir: Path) -> list[Path]:
    """The save files in a folder, by name; temporary files of interrupted writes are never
    listed, and those of dead writers are removed (best effort)."""
    clear_dead_temps(saves_dir)
    try:
        entries = list(saves_dir.iterdir())
    except OSError:
        return []
    return sorted(p for p in entries if p.suffix == ".json" and not p.name.startswith(".") and p.is_file())


def load_record(path: Path) -> GameRecord:
    return parse_record(read_save_bytes(path), str(path))


def read_save_bytes(path: Path) -> bytes:
    """The bytes of a save file, refusing what is missing, not a file or far too large."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise SaveError(f"{path}: no such file") from None
    except OSError as exc:
        raise SaveError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except ValueError:  # a NUL character: no file can have this name
        raise SaveError(f"{path!r}: not a file name") from None
    if not path.is_file():
        raise SaveError(f"{path}: not a file")
    if size > MAX_SAVE_BYTES:
        raise SaveError(f"{path}: too large for a save ({size} bytes)")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SaveError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return raw


def parse_record(raw: bytes, name: str = "save") -> GameRecord:
    from .snapshot import MAX_FORMATIONS, check_integrity

    # Every formation in a snapshot (or a campaign's roster, at most 500) has one "max_men": a
    # file of far more is refused before it is parsed into memory (``check_integrity`` counts
    # exactly, for a file written in some other way).
    held = raw.count(b'"max_men"')
    if held > MAX_FORMATIONS + 500:
        raise SaveError(f"{name}: damaged save: it holds {held:,} formations; a battle has at most {MAX_FORMATIONS:,}")
    record = _current_record(raw) or _any_record(raw, name)
    try:
        check_integrity(record)
    except SaveError as exc:
        raise SaveError(f"{name}: {exc}") from None
    return record


def _current_record(raw: bytes) -> GameRecord | None:
    """The record, if ``raw`` is a valid save of the current format; else None.

    The fast way for the common case: pydantic parses and validates the JSON in one pass, about
    twice as fast as ``json.loads`` and validating the dict. Whatever it does not accept goes the
    careful way, which alone words the error and migrates older formats.
    """
    try:
        record = GameRecord.model_validate_json(raw)
    except Exception:  # any failure: the careful way decides, and explains
        return None
    # Both must be in the file itself, not filled in from the model's defaults.
    stated = {"format", "format_version"} <= record.model_fields_set
    return record if stated and record.format_version == FORMAT_VERSION else None


def _any_record(raw: bytes, name: str) -> GameRecord:
    """The record in ``raw`` of any format this game reads, or a SaveError saying why not."""
    data = decode_json(raw, name)
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        raise SaveError(f"{name}: not a Qiankun save file")
    check_version(data, name, FORMAT_VERSION)
    from .migrations import migrate

    data = migrate(data, name)
    try:
        return GameRecord.model_validate(data)
    except ValidationError as exc:
        raise SaveError(damaged(name, exc)) from None
    except RecursionError:
        raise SaveError(f"{name}: not a save file (nested too deeply)") from None


def decode_json(raw: bytes, name: str) -> object:
    """The JSON in ``raw``; anything that is not JSON text is a one-line SaveError."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError(f"{name}: not a save file (not UTF-8 text)") from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise SaveError(f"{name}: not a save file (nested too deeply)") from None
    except json.JSONDecodeError as exc:
        raise SaveError(f"{name}: not a save file (invalid JSON at line {exc.lineno}: {exc.msg})") from None
    except ValueError:
        # json raises a bare ValueError for integers longer than Python's digit limit.
        raise SaveError(f"{name}: not a save file (a number is far too long)") from None
    return data


def check_version(data: dict[str, object], name: str, newest: int) -> None:
    version = data.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SaveError(f"{name}: damaged save: format_version is missing or not a number")
    if version > newest:
        raise SaveError(
            f"{name}: made by a newer version of the game (format {version}; this one reads up to {newest})"
        )


def damaged(name: str, exc: ValidationError) -> str:
    first = exc.errors()[0]
    loc = ".".join(str(p) for p in first["loc"]) or "file"
    # Actions are dataclasses: pydantic words a field they lack as an "unexpected keyword
    # argument"; a save's reader sees the same thing a model's extra field is.
    msg = EXTRA_FIELD if first["type"] == "unexpected_keyword_argument" else first["msg"]
    return f"{name}: damaged save: {loc}: {msg}"


EXTRA_FIELD = "Extra inputs are not permitted"
