"""Translations through gettext: English msgids, catalogs for simplified and traditional Chinese.

``_`` translates at call time with the current language (the profile's, kept in the ContextVar
``TRANSLATOR``), so switching language at runtime changes every string drawn afterwards. ``N_``
marks a string for extraction without translating it (for module-level constants and data field
names).
"""

from __future__ import annotations

import gettext
import os
from contextvars import ContextVar
from dataclasses import dataclass, field

from .core.msgid import N_ as N_  # the one marker, shared with the rules
from .paths import LOCALE_DIR

DOMAIN = "qiankun"
LANGUAGES: dict[str, str] = {"en": "English", "zh_CN": "简体中文", "zh_TW": "繁體中文"}

# Names (heroes, sides) keep the script of the story they belong to: campaign A's in simplified
# characters, campaign B's in traditional, whichever Chinese the reader chose, unless the reader
# prefers every name in their own script.
CHINESE = ("zh_CN", "zh_TW")


# A story's names as its prose writes them: (simplified, traditional) for each.
NameForms = tuple[tuple[str, str], ...]
# Texts a translator keeps with the story's names put in (far more than one screen draws).
STORY_TEXTS_KEPT = 4096


@dataclass(frozen=True)
class Translator:
    """The reader's language and the catalogs it reads from: ``catalog`` for every text, ``names``
    for the names when the story's script differs from the reader's (else None); then ``swaps``
    puts the story's names in its script inside the prose too: (reader's form, story's form),
    longest first."""

    language: str = "en"
    catalog: gettext.NullTranslations = field(default_factory=gettext.NullTranslations)
    story_script: str | None = None
    names_follow_story: bool = True
    names: gettext.NullTranslations | None = None
    name_forms: NameForms = ()
    swaps: NameForms = ()
    # Texts already given the story's names: ``_`` is called for every string drawn, every frame.
    _in_story_names: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    def story_names(self, text: str) -> str:
        """``text`` with the story's names in the story's script (``swaps``, longest first: a
        full name before the short form inside it)."""
        found = self._in_story_names.get(text)
        if found is None:
            found = text
            for reader_form, story_form in self.swaps:
                found = found.replace(reader_form, story_form)
            if len(self._in_story_names) >= STORY_TEXTS_KEPT:
                self._in_story_names.clear()
            self._in_story_names[text] = found
        return found


def make_translator(
    language: str, story_script: str | None = None, names_follow_story: bool = True, name_forms: NameForms = ()
) -> Translator:
    """The translator for ``language`` (ValueError names the choices when it is not one), with the
    story's script for names and the story's ``name_forms``."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")
    catalog = gettext.NullTranslations() if language == "en" else _catalog(language)
    names = None
    swaps: NameForms = ()
    if names_follow_story and story_script in CHINESE and language in CHINESE and story_script != language:
        names = _catalog(story_script)
        story = CHINESE.index(story_script)
        pairs = {(pair[1 - story], pair[story]) for pair in name_forms}
        swaps = tuple(sorted(pairs, key=lambda p: (-len(p[0]), p)))
    return Translator(language, catalog, story_script, names_follow_story, names, name_forms, swaps)


def _catalog(language: str) -> gettext.NullTranslations:
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[language], fallback=True)


# The translator of the profile in use. ``_`` is called at draw time in hundreds of places, so
# rather than passed to each the translator is kept in this one ContextVar, set from the profile
# as the game starts and when the player picks another language or script (the functions below);
# the test of module-level state allows it by name.
ENGLISH = Translator()  # frozen: the default can be shared
TRANSLATOR: ContextVar[Translator] = ContextVar("translator", default=ENGLISH)


def translator() -> Translator:
    return TRANSLATOR.get()


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
    now = TRANSLATOR.get()
    TRANSLATOR.set(make_translator(lang, now.story_script, now.names_follow_story, now.name_forms))


def set_story_script(script: str | None, name_forms: NameForms = ()) -> None:
    """The script of the story on screen (a campaign's ``names``; None: the reader's own) and its
    names as its prose writes them."""
    now = TRANSLATOR.get()
    TRANSLATOR.set(make_translator(now.language, script, now.names_follow_story, name_forms))


def story_script() -> str | None:
    return TRANSLATOR.get().story_script


def set_names_follow_story(follow: bool) -> None:
    now = TRANSLATOR.get()
    TRANSLATOR.set(make_translator(now.language, now.story_script, follow, now.name_forms))


def names_follow_story() -> bool:
    return TRANSLATOR.get().names_follow_story


def name(message: str) -> str:
    """A hero's or a side's name, in the story's script where it keeps its own."""
    now = TRANSLATOR.get()
    return (now.names or now.catalog).gettext(message)


def language() -> str:
    return TRANSLATOR.get().language


def _(message: str) -> str:
    now = TRANSLATOR.get()
    text = now.catalog.gettext(message)
    return now.story_names(text) if now.swaps else text


def ngettext(singular: str, plural: str, n: int) -> str:
    now = TRANSLATOR.get()
    text = now.catalog.ngettext(singular, plural, n)
    return now.story_names(text) if now.swaps else text


def format_men(n: int) -> str:
    """An exact count of men as the reader's language writes it.

    English groups thousands: 5,000. Chinese writes no separator and counts large round
    numbers in 万 (萬 in traditional script): 5000, 6万, 1.2万; a count that is not a round thousand
    stays exact in plain digits (12345), where 万 would need a decimal or a 零.
    """
    if language() in CHINESE:
        if abs(n) >= 10000 and n % 1000 == 0:
            return _decimal(n / 10000) + _wan()
        return str(n)
    return f"{n:,}"


def format_men_short(n: int) -> str:
    """A count of men for a small banner: 5k, 12.4k in English; 5000, 1.2万 in Chinese.

    Chinese keeps four digits exact, as wide as 2.5k, and counts in 万 from there on, as it
    counts everything large (2.5千 is not how a Chinese reader counts men).
    """
    if language() in CHINESE:
        return str(n) if n < 10000 else _decimal(round(n / 10000, 1)) + _wan()
    return f"{n / 1000:.1f}k".replace(".0k", "k") if n >= 1000 else format_men(n)


def sentences(*parts: str) -> str:
    """Translated sentences run together: a space between English ones, none after a 。"""
    return ("" if language() in CHINESE else " ").join(parts)


def _wan() -> str:
    """Ten thousand, in the reader's script."""
    return "萬" if language() == "zh_TW" else "万"


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
