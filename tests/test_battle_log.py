"""The battle log component, driven headlessly: it keeps the whole battle, shows the newest lines,
scrolls with the wheel only when the pointer is over it, expands and collapses, and wraps long
lines in English and Chinese without cutting a character."""

from __future__ import annotations

import pygame
import pytest

from game import i18n
from game.ui.battle_log import COLLAPSED_ROWS, BattleLog, log_area

SIZE = (1280, 800)


@pytest.fixture
def screen() -> pygame.Surface:
    pygame.display.init()
    pygame.font.init()
    return pygame.display.set_mode(SIZE)


def filled(n: int) -> BattleLog:
    log = BattleLog()
    for k in range(1, n + 1):
        log.add(f"Soul levy {k} moved")
    return log


def wheel(log: BattleLog, at: tuple[int, int], notches: int) -> bool:
    pygame.mouse.set_pos(at)
    return log.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=notches))


def shown(log: BattleLog) -> list[str]:
    """The rows the last draw showed, oldest first."""
    end = len(log._rows) - log.scroll
    return [text for text, _line in log._rows[max(0, end - log._room) : end]]


@pytest.mark.usefixtures("english")
def test_fifty_lines_are_all_kept_and_the_newest_shown(screen: pygame.Surface) -> None:
    log = filled(50)
    log.draw(screen, log_area(SIZE))
    assert len(log.lines) == 50 and log.lines[0] == "Soul levy 1 moved"
    assert shown(log) == [f"Soul levy {k} moved" for k in range(45, 51)]
    assert log.rect.bottom == log_area(SIZE).bottom and log.rect.left == log_area(SIZE).left
    assert log._thumb.height > 0  # a scrollbar says there is more above


@pytest.mark.usefixtures("english")
def test_the_wheel_over_the_log_scrolls_it_and_elsewhere_is_left_to_the_map(screen: pygame.Surface) -> None:
    log = filled(50)
    log.draw(screen, log_area(SIZE))
    assert not wheel(log, (SIZE[0] // 2, 100), 1)  # over the map: the map zooms
    assert log.scroll == 0
    assert wheel(log, log.rect.center, 2)  # over the log: back through older lines
    log.draw(screen, log_area(SIZE))
    assert log.scroll == 6 and shown(log)[-1] == "Soul levy 44 moved"
    # The wheel's old-style button events over the log are taken too (the map must not zoom).
    twin = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=4, pos=log.rect.center)
    assert log.handle(twin) and log.scroll == 6
    assert wheel(log, log.rect.center, -100)  # forward again, no further than the newest
    assert log.scroll == 0
    assert wheel(log, log.rect.center, 100)
    log.draw(screen, log_area(SIZE))
    assert shown(log)[0] == "Soul levy 1 moved"


@pytest.mark.usefixtures("english")
def test_a_reader_scrolled_back_keeps_their_place_as_lines_come(screen: pygame.Surface) -> None:
    log = filled(30)
    log.draw(screen, log_area(SIZE))
    wheel(log, log.rect.center, 3)
    log.draw(screen, log_area(SIZE))
    before = shown(log)
    log.add("Soul levy 31 moved")
    log.recall(["Turn 1: coalition"])  # earlier lines found after loading go on top
    log.draw(screen, log_area(SIZE))
    assert shown(log) == before
    assert log.lines[0] == "Turn 1: coalition" and log.lines[-1] == "Soul levy 31 moved"


@pytest.mark.usefixtures("english")
def test_l_and_the_button_expand_and_collapse_the_log(screen: pygame.Surface) -> None:
    log = filled(50)
    area = log_area(SIZE)
    log.draw(screen, area)
    collapsed = log.rect.height
    assert log.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_l))
    log.draw(screen, area)
    assert log.expanded and log.rect.height > 3 * collapsed and log._room > 3 * COLLAPSED_ROWS
    assert area.contains(log.rect)
    assert shown(log)[-1] == "Soul levy 50 moved"
    click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=log._button.center)
    assert log.handle(click) and not log.expanded
    assert log.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=log._button.center))
    log.draw(screen, area)
    assert log.rect.height == collapsed
    # A click on the map is not the log's, nor the button's release after it.
    away = (SIZE[0] - 20, 100)
    assert not log.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=away))
    assert not log.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=away))
    assert not log.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_e))


@pytest.mark.usefixtures("english")
def test_the_scrollbar_is_dragged_and_paged(screen: pygame.Surface) -> None:
    log = filled(50)
    log.draw(screen, log_area(SIZE))
    thumb = log._thumb.center
    log.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=thumb))
    assert log.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(thumb[0], 0), rel=(0, -500), buttons=(1, 0, 0)))
    assert log.scroll == log.max_scroll()  # dragged to the top: the oldest lines
    log.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=(thumb[0], 0)))
    assert not log.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=thumb, rel=(0, 5), buttons=(0, 0, 0)))
    assert log.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_PAGEDOWN))
    assert log.scroll == log.max_scroll() - (COLLAPSED_ROWS - 1)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_long_lines_are_wrapped_to_the_panel_and_never_cut(screen: pygame.Surface, lang: str) -> None:
    before = i18n.language()
    i18n.set_language(lang)
    try:
        log = BattleLog()
        long_en = "Xiang Yu · Hegemon's warriors attacked Soul levy 3: the defenders lost 1,234, the attackers 56 " * 2
        long_zh = "项羽·霸王勇士攻击游魂兵第三队：守方折损一千二百三十四人，攻方五十六人。" * 3
        log.add(long_en)
        log.add(long_zh)
        area = log_area((900, 700))
        log.draw(screen, area)
        rows = [text for text, _line in log._rows]
        assert len(rows) > 2  # both wrapped onto several rows
        assert "".join(t for t, i in log._rows if i == 1) == long_zh  # every character kept, in order
        assert " ".join(t for t, i in log._rows if i == 0).split() == long_en.split()
        assert log.rect.width <= area.width
        assert log.expanded is False and len(shown(log)) == min(COLLAPSED_ROWS, len(rows))
    finally:
        i18n.set_language(before)


@pytest.mark.usefixtures("english")
def test_an_empty_log_draws_nothing_and_takes_no_input(screen: pygame.Surface) -> None:
    log = BattleLog()
    log.draw(screen, log_area(SIZE))
    assert log.rect.width == 0
    assert not wheel(log, (20, SIZE[1] - 90), 1)
    log.recalling = True  # a game just loaded: its earlier lines are on their way
    log.draw(screen, log_area(SIZE))
    assert log.rect.height > 0
    log.recall(["Turn 1: coalition"])
    assert not log.recalling and log.lines == ["Turn 1: coalition"]
    log.clear()
    assert log.lines == [] and log.scroll == 0
