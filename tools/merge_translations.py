"""Merge translations from a JSON file into the catalogs (needs babel).

The JSON maps each English msgid (the singular, for a plural message) to its translations:
{"msgid": {"zh_CN": "...", "zh_TW": "..."}}, a list of forms for a plural message.
The catalogs are first brought in step with the sources (tools/extract_messages.py), the given
msgstrs are set, and the catalogs are compiled again. An exclusive lock keeps two runs from
overwriting each other's work.

Usage:
  python tools/merge_translations.py FILE.json [FILE.json ...]
"""

from __future__ import annotations

import fcntl
import json
import sys
import tempfile
from pathlib import Path

from babel.messages.pofile import read_po, write_po

sys.path.insert(0, str(Path(__file__).resolve().parent))
import extract_messages  # noqa: E402

LOCK = Path(tempfile.gettempdir()) / "qiankun-translations.lock"


def merge(files: list[Path]) -> list[str]:
    """Set the msgstrs named in ``files``; return the msgids not found in the template."""
    wanted: dict[str, dict[str, str]] = {}
    for path in files:
        wanted.update(json.loads(path.read_text(encoding="utf-8")))
    missing: set[str] = set(wanted)
    for lang in extract_messages.LANGUAGES:
        po = extract_messages.po_path(extract_messages.LOCALE_DIR, lang)
        with po.open("rb") as fh:
            catalog = read_po(fh, locale=lang)
        for msgid, by_lang in wanted.items():
            message = catalog.get(msgid)
            if message is None or lang not in by_lang:
                continue
            missing.discard(msgid)
            text = by_lang[lang]
            # A plural message takes a list: one form per plural of the language.
            message.string = tuple(text) if isinstance(text, list) else text
            message.flags.discard("fuzzy")
        with po.open("wb") as fh:
            write_po(fh, catalog, width=extract_messages.WIDTH, omit_header=False, include_lineno=False)
    return sorted(missing)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    with LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        extract_messages.main([])
        missing = merge([Path(a) for a in argv])
        extract_messages.main([])
    for msgid in missing:
        print(f"not in the template (is the text in the sources yet?): {msgid[:70]!r}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
