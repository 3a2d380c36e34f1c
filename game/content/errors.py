"""Content errors that name the file, the object and the field."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from ..paths import display_path


@dataclass(frozen=True)
class ContentError:
    file: str
    object: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.object}: {self.field}: {self.message}"


class ContentErrors(Exception):
    """One or more content errors; ``str()`` gives one line per error."""

    def __init__(self, errors: list[ContentError]) -> None:
        super().__init__("\n".join(str(e) for e in errors))
        self.errors = errors


def error(path: Path | str, obj: str, field: str, message: str) -> ContentError:
    file = display_path(path) if isinstance(path, Path) else path
    return ContentError(file, obj or "-", field or "-", message)


def from_validation(path: Path | str, obj: str, exc: ValidationError) -> list[ContentError]:
    """Turn a pydantic error into content errors, one per failing field."""
    out = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"]) or "-"
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = "unknown field"
        out.append(error(path, obj, loc, msg))
    return out
