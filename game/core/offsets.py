"""A place named in a scenario file by a Tiled offset rather than a region ("12,7")."""

from __future__ import annotations

import re

_OFFSET = re.compile(r"^\s*(\d+)\s*,\s*(\d+)\s*$")


def parse_offset(at: str) -> tuple[int, int] | None:
    """The (col, row) of an offset ``at`` such as "12,7"; None when it names a region."""
    m = _OFFSET.match(at)
    return (int(m.group(1)), int(m.group(2))) if m else None
