"""Names keep the script of their story: campaign A simplified, campaign B traditional."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from game import i18n
from game.content.campaigns import names_script
from game.content.ruleset import load_ruleset
from game.paths import DATA_DIR, MAPS_DIR
from game.ui.app import App
from game.ui.battle import BattleScene
from game.ui.fonts import SC_FONT, TC_FONT


@pytest.fixture(autouse=True)
def restore() -> Iterator[None]:
    before = i18n.language()
    yield
    i18n.set_language(before)
    i18n.set_story_script(None)
    i18n.set_names_follow_story(True)


def test_a_traditional_story_keeps_its_names_for_a_simplified_reader() -> None:
    i18n.set_language("zh_CN")
    i18n.set_story_script("zh_TW")
    assert i18n.name("Yue Fei") == "岳飛"
    assert i18n.name("Wanyan Wuzhu") == "完顏兀朮"
    assert i18n._("Yue Fei") == "岳飞"  # the rest of the screen is in the reader's script


def test_a_simplified_story_keeps_its_names_for_a_traditional_reader() -> None:
    i18n.set_language("zh_TW")
    i18n.set_story_script("zh_CN")
    assert i18n.name("Han Xin") == "韩信"


def test_the_reader_may_have_every_name_in_their_own_script() -> None:
    i18n.set_language("zh_CN")
    i18n.set_story_script("zh_TW")
    i18n.set_names_follow_story(False)
    assert i18n.name("Yue Fei") == "岳飞"


def test_english_readers_get_the_english_names() -> None:
    i18n.set_language("en")
    i18n.set_story_script("zh_TW")
    assert i18n.name("Yue Fei") == "Yue Fei"


def test_the_campaigns_name_their_scripts() -> None:
    assert names_script("yuqing") == "zh_CN"
    assert names_script(None) is None


@pytest.mark.parametrize("font, other", [(SC_FONT, "zh_TW"), (TC_FONT, "zh_CN")])
def test_each_face_draws_the_other_scripts_names(font: Path, other: str) -> None:
    """A simplified reader sees campaign B's traditional names in the simplified face, and
    the other way round: the face must have those glyphs."""
    rules = load_ruleset()
    i18n.set_language(other)
    names = [i18n._(h.name) for h in rules.heroes.values()] + [i18n._(f.name) for f in rules.factions.values()]
    names += [i18n._(h.surname) for h in rules.heroes.values()] + [i18n._(u.char) for u in rules.units.values()]
    cmap = TTFont(str(font), lazy=True).getBestCmap()
    missing = sorted({c for n in names for c in n if not c.isspace() and ord(c) not in cmap})
    assert missing == []


def test_yue_feis_banner_is_yue_in_both_scripts() -> None:
    """The surname 岳 is written the same in traditional script: 嶽 (a mountain) is a
    conversion slip, on the banner or in any shipped text."""
    assert load_ruleset().heroes["yue_fei"].surname == "岳"
    shipped = [*DATA_DIR.glob("*.toml"), *MAPS_DIR.glob("*.toml"), *MAPS_DIR.glob("*.tmx")]
    assert shipped and not [p.name for p in shipped if "嶽" in p.read_text(encoding="utf-8")]


def test_the_names_script_is_the_story_on_top(app: App) -> None:
    """Each story keeps its names' script (campaign A's simplified, B's traditional) on the
    screens that tell it; a screen with no story of its own (the settings) keeps the one beneath;
    closing the screen on top gives the one beneath its script back, and it is built again."""
    from game import i18n
    from game.record.match import new_match

    i18n.set_language("zh_TW")
    try:
        a1 = new_match("a1_valley_mouth", {"coalition": "human", "hailing": "ai"}, seed=1)
        battle = app.go("battle", match=a1)
        assert isinstance(battle, BattleScene)
        while app.scene is not battle:
            app.back()
        assert i18n.story_script() == "zh_CN"
        app.open("settings")
        assert i18n.story_script() == "zh_CN"
        app.back()
        b3 = new_match("b3_tangut_border", {"zhenguo": "human", "jin": "ai", "tangut": "ai"}, seed=1)
        app.open("replay", record=b3.saved_record())
        assert i18n.story_script() == "zh_TW"
        app.back()
        assert app.scene is battle and i18n.story_script() == "zh_CN" and not battle.stale(app.size)
        app.go("campaigns")
        assert i18n.story_script() is None  # the campaigns' own cards name both stories
    finally:
        i18n.set_language("en")


def test_a_banners_character_is_written_as_the_names_are() -> None:
    """The one character on a formation's banner, a hero's surname or a unit type's mark, keeps
    its story's script like the names, and follows the reader's own script when they ask for every
    name in theirs (a banner of 韩 over the name 韓信 was a slip)."""
    from game.core.hexgrid import Hex
    from game.core.state import Formation
    from game.ui.banners import Banners

    rules = load_ruleset()
    banners = Banners(None, rules)  # type: ignore[arg-type]  # char() reads no geometry
    han_xin = Formation(
        id="h", side="coalition", type="warrior", men=1, max_men=1, morale=100, hero="han_xin", pos=Hex(0, 0)
    )
    riders = Formation(id="r", side="zhenguo", type="zhenguo_rider", men=1, max_men=1, morale=100, pos=Hex(0, 0))
    i18n.set_language("zh_TW")
    i18n.set_story_script("zh_CN")
    assert banners.char(han_xin) == "韩" and i18n.name("Han Xin") == "韩信"
    i18n.set_names_follow_story(False)
    assert banners.char(han_xin) == "韓" and i18n.name("Han Xin") == "韓信"
    i18n.set_language("zh_CN")
    i18n.set_story_script("zh_TW")
    assert banners.char(riders) == "骑"
    i18n.set_names_follow_story(True)
    assert banners.char(riders) == "騎"
    i18n.set_language("en")
    assert banners.char(han_xin) == "韩"  # an English reader sees the story's own banner
