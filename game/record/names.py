"""Save names and the files they are kept in.

A save's name is what the player typed: any letters (Chinese included), digits, spaces and
punctuation, up to ``MAX_NAME_CHARS``. The file name is derived from it and is always safe: a
plain lowercase name (``quicksave``, ``my_game-2``) is its own file name; any other name becomes a
slug of its letters and digits plus ``~`` and a hash of the whole name, so two different names
never share a file (not even on file systems that ignore case), and no name can give a path
separator, a dot-file, a device name, or one of the game's own files (settings, campaigns).
The name itself is stored in the save (``GameRecord.name``).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

from .errors import SaveError

MAX_NAME_CHARS = 64
# Names used as their own file name: they cannot collide with a hashed one, which has a "~".
_PLAIN = re.compile(r"^[a-z0-9_\-]{1,64}$")
# The game's own files in the saves folder, which no save may take the place of.
OWN_FILE = re.compile(r"^(campaign-.*|settings)$")
_DEVICES = frozenset({"CON", "PRN", "AUX", "NUL"} | {f"{d}{i}" for d in ("COM", "LPT") for i in range(1, 10)})
# Control characters, surrogates (not encodable) and invisible format characters (bidi
# overrides, zero-width spaces): a name holding one could not be shown for what it is.
_UNSHOWABLE = frozenset({"Cc", "Cf", "Cs"})
_HASH_CHARS = 10
_SLUG_CHARS = 32


class BadSaveName(SaveError):
    """A name refused as a save name; ``reason`` says why, for the screen to word: "not_text",
    "empty", "too_long" (``length`` characters) or "unshowable"."""

    def __init__(self, name: object, reason: str, why: str, length: int = 0) -> None:
        shown = repr(name) if len(repr(name)) <= 40 else repr(name)[:37] + "..."
        super().__init__(f"bad save name {shown}: {why}")
        self.reason = reason
        self.length = length


def clean_name(name: object) -> str:
    """The name as it is saved: NFC, every run of white space one space, none at the ends.
    BadSaveName if it is not text, empty, too long or holds a character that cannot be shown."""
    if not isinstance(name, str):
        raise BadSaveName(name, "not_text", "it is not text")
    if any(unicodedata.category(c) in _UNSHOWABLE and not c.isspace() for c in name):
        raise BadSaveName(name, "unshowable", "it contains a control character")
    cleaned = " ".join(unicodedata.normalize("NFC", name).split())
    if not cleaned:
        raise BadSaveName(name, "empty", "it is empty")
    if len(cleaned) > MAX_NAME_CHARS:
        why = f"it has {len(cleaned)} characters (at most {MAX_NAME_CHARS})"
        raise BadSaveName(name, "too_long", why, len(cleaned))
    return cleaned


def file_stem(name: str) -> str:
    """The file name (without ``.json``) for a name already cleaned by ``clean_name``."""
    if _PLAIN.fullmatch(name) and name.upper() not in _DEVICES and not OWN_FILE.match(name):
        return name
    # Compatibility forms folded (full-width letters, ligatures), then every run of anything
    # but letters, digits and "_" is one "-": no separator, dot, colon or space survives.
    slug = re.sub(r"[^\w]+", "-", unicodedata.normalize("NFKC", name)).strip("-_")
    slug = slug[:_SLUG_CHARS].rstrip("-_") or "save"
    if OWN_FILE.match(slug.lower()):
        slug = f"save-{slug}"
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:_HASH_CHARS]
    return f"{slug}~{digest}"


def is_plain(stem: str) -> bool:
    """Whether ``stem`` is a file name the game uses as it is (its own files, autosaves)."""
    return bool(_PLAIN.fullmatch(stem)) and stem.upper() not in _DEVICES
