"""The shipped CJK font faces: simplified Chinese glyph forms for zh_CN and English, traditional
for zh_TW. Both cover the characters of all game text (a test checks)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pygame

from .. import i18n
from ..paths import FONTS_DIR
from .scale import ui_scale

SC_FONT = FONTS_DIR / "NotoSansSC-Qiankun.otf"
TC_FONT = FONTS_DIR / "NotoSansTC-Qiankun.otf"


def font_path(lang: str | None = None) -> Path:
    lang = lang or i18n.language()
    return TC_FONT if lang == "zh_TW" else SC_FONT


@lru_cache(maxsize=64)
def _font(path: str, size: int, bold: bool) -> pygame.font.Font:
    f = pygame.font.Font(path, size)
    f.bold = bold
    return f


def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The UI font at a pixel size at 100% (scaled by the UI scale), in the face that suits the
    current language."""
    return _font(str(font_path()), max(6, round(size * ui_scale())), bold)


def map_font(size: int, bold: bool = False) -> pygame.font.Font:
    """The font for text drawn on the board (banners, marks): its size already follows the map's
    zoom, which itself starts at the UI scale, so it is not scaled a second time."""
    return _font(str(font_path()), max(6, round(size)), bold)
