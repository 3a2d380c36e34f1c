"""Checks on what the commands are given: a scenario id, a path to read, a file to write."""

from __future__ import annotations

import os
from pathlib import Path

from ..content.errors import ContentErrors
from ..content.scenarios import LoadedScenario, load_scenario, scenario_ids
from .errors import CliError


def loaded_scenario(scenario_id: str) -> LoadedScenario:
    """The scenario by id; CliError naming the known ids, or the first error of a broken one."""
    try:
        return load_scenario(scenario_id)
    except KeyError:
        known = ", ".join(scenario_ids()) or "none"
        raise CliError(f"unknown scenario {scenario_id!r} (known: {known})") from None
    except ContentErrors as exc:
        raise CliError(f"scenario {scenario_id!r} is broken: {exc.errors[0]}") from None


def exists(path: Path) -> bool:
    """Whether ``path`` exists; a path the system cannot even look up is a CliError."""
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except (OSError, ValueError) as exc:  # too long, a loop of links, a NUL byte...
        raise CliError(f"{path}: {getattr(exc, 'strerror', None) or exc}") from None
    return True


def check_out(out: Path, suffix: str, what: str) -> None:
    """A file a command is to write: in a folder that exists and may be written, not a folder."""
    if out.suffix.lower() != suffix:
        raise CliError(f"{out}: {what} must be a {suffix} file")
    if exists(out) and out.is_dir():
        raise CliError(f"cannot write {out}: it is a folder")
    folder = out.parent
    if not exists(folder):
        raise CliError(f"cannot write {out}: folder {folder} does not exist")
    if not folder.is_dir():
        raise CliError(f"cannot write {out}: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise CliError(f"cannot write {out}: folder {folder} is not writable")


def writable_folder(folder: Path, option: str) -> Path:
    """``folder``, made if needed, once it proves writable; CliError naming the option if not."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not folder.is_dir():
            raise NotADirectoryError(20, "not a folder")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise PermissionError(13, "not writable")
    except OSError as exc:
        raise CliError(f"cannot use {option} {folder}: {exc.strerror or exc}") from None
    return folder


def naming_file(path: Path, exc: Exception) -> str:
    """A save's error message, starting with the file it is about."""
    message = str(exc)
    return message if message.startswith(str(path)) else f"{path}: {message}"
