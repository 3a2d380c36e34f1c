"""Translations through gettext: English msgids, catalogs for simplified and traditional Chinese.

``_`` translates at call time with the current language, so switching language at runtime
changes every string drawn afterwards. ``N_`` marks a string for extraction without
translating it (for module-level constants and data field names).
"""

from __future__ import annotations

import gettext
import os

from .paths import LOCALE_DIR

DOMAIN = "qiankun"
LANGUAGES: dict[str, str] = {"en": "English", "zh_CN": "简体中文", "zh_TW": "繁體中文"}

_current: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"
# Names (heroes, sides) keep the script of the story they belong to: campaign A's in simplified
# characters, campaign B's in traditional, whichever Chinese the reader chose, unless the reader
# prefers every name in their own script. ``_names`` is the catalog names come from when the
# story's script differs from the reader's.
CHINESE = ("zh_CN", "zh_TW")
_names: gettext.NullTranslations | None = None
_story_script: str | None = None
_names_follow_story = True


def detect_language(environ: dict[str, str] | None = None) -> str:
    """The language to start in, from the usual locale variables; English if none fits."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        for part in value.split(":"):
            tag = part.split(".")[0].replace("-", "_").lower()
            if not tag or tag in ("c", "posix"):
                continue
            if tag.startswith("zh"):
                traditional = any(k in tag for k in ("tw", "hk", "mo", "hant"))
                return "zh_TW" if traditional else "zh_CN"
            return "en"
    return "en"


def set_language(lang: str) -> None:
    global _current, _language
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    _language = lang
    if lang == "en":
        _current = gettext.NullTranslations()
    else:
        _current = gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)
    _load_names()


def set_story_script(script: str | None) -> None:
    """The script of the story on screen (a campaign's ``names``; None: the reader's own)."""
    global _story_script
    _story_script = script
    _load_names()


def story_script() -> str | None:
    return _story_script


def set_names_follow_story(follow: bool) -> None:
    global _names_follow_story
    _names_follow_story = follow
    _load_names()


def names_follow_story() -> bool:
    return _names_follow_story


def _load_names() -> None:
    global _names
    _names = None
    script = _story_script
    if _names_follow_story and script in CHINESE and _language in CHINESE and script != _language:
        _names = gettext.translation(DOMAIN, LOCALE_DIR, languages=[script], fallback=True)


def name(message: str) -> str:
    """A hero's or a side's name, in the story's script where it keeps its own."""
    return (_names or _current).gettext(message)


def language() -> str:
    return _language


def _(message: str) -> str:
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.ngettext(singular, plural, n)


def N_(message: str) -> str:
    return message


def format_men(n: int) -> str:
    """An exact count of men as the reader's language writes it.

    English groups thousands: 5,000. Chinese writes no separator and counts large round
    numbers in 万 (萬 in traditional script): 5000, 6万, 1.2万; a count that is not a round thousand
    stays exact in plain digits (12345), where 万 would need a decimal or a 零.
    """
    if _language in CHINESE:
        if abs(n) >= 10000 and n % 1000 == 0:
            return _decimal(n / 10000) + _wan()
        return str(n)
    return f"{n:,}"


def format_men_short(n: int) -> str:
    """A count of men for a small banner: 5k, 12.4k in English; 5000, 1.2万 in Chinese.

    Chinese keeps four digits exact, as wide as 2.5k, and counts in 万 from there on, as it
    counts everything large (2.5千 is not how a Chinese reader counts men).
    """
    if _language in CHINESE:
        return str(n) if n < 10000 else _decimal(round(n / 10000, 1)) + _wan()
    return f"{n / 1000:.1f}k".replace(".0k", "k") if n >= 1000 else format_men(n)


def sentences(*parts: str) -> str:
    """Translated sentences run together: a space between English ones, none after a 。"""
    return ("" if _language in CHINESE else " ").join(parts)


def _wan() -> str:
    """Ten thousand, in the reader's script."""
    return "萬" if _language == "zh_TW" else "万"


def _decimal(x: float) -> str:
    """One decimal at most, none when it is zero: 1.2, 6."""
    return f"{x:.1f}".rstrip("0").rstrip(".")


class Men(int):
    """A count of men for a message field written ``{n:,}``: formats as :func:`format_men`.

    The English msgids keep the ``:,`` spec, so the count must stay an int; this int writes
    itself in the reader's language instead of always with commas.
    """

    def __format__(self, spec: str) -> str:
        return format_men(int(self)) if spec == "," else super().__format__(spec)
