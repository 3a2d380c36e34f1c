"""Names keep the script of their story: campaign A simplified, campaign B traditional."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from game import i18n
from game.content.campaigns import load_campaigns, load_campaigns_file, names_script, story_name_forms
from game.content.errors import ContentErrors
from game.content.ruleset import load_ruleset
from game.content.scenarios import load_scenario
from game.i18n import make_translator
from game.paths import DATA_DIR, MAPS_DIR
from game.ui.app import App
from game.ui.battle import BattleScene
from game.ui.fonts import SC_FONT, TC_FONT
from game.view.names import order_of_battle


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
    assert i18n._("Yue Fei") == "岳飞"  # text told no story's names is in the reader's script


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


def test_the_prose_writes_the_storys_names_as_the_banners_do() -> None:
    """A simplified reader of the Zhenguo story reads 岳飛 on the banners; the briefing beside
    them wrote 岳飞 (and 兀术 beside 完顏兀朮) until the story's names came to the prose too."""
    briefing = load_scenario("b3_tangut_border").scenario.briefing
    i18n.set_language("zh_CN")
    i18n.set_story_script("zh_TW", story_name_forms("zh_TW"))
    text = i18n._(briefing)
    for story_form in ("岳飛", "完顏兀朮", "兀朮", "郭藥師", "党項"):
        assert story_form in text
    for reader_form in ("岳飞", "完颜", "兀术", "郭药师", "党项"):
        assert reader_form not in text
    assert "人困马乏" in text  # the prose itself stays in the reader's script
    i18n.set_names_follow_story(False)
    assert "岳飞" in i18n._(briefing) and "岳飛" not in i18n._(briefing)


def test_a_translator_keeps_the_texts_it_put_names_in_up_to_a_bound() -> None:
    reader = make_translator("zh_CN", "zh_TW", name_forms=story_name_forms("zh_TW"))
    assert reader.story_names("岳飞的骑兵") == "岳飛的骑兵"
    assert reader.story_names("岳飞的骑兵") == "岳飛的骑兵"  # kept, and the same
    for n in range(i18n.STORY_TEXTS_KEPT + 10):
        assert reader.story_names(f"兀术 {n}") == f"兀朮 {n}"
    assert len(reader._in_story_names) <= i18n.STORY_TEXTS_KEPT


def test_a_traditional_reader_reads_the_coalitions_names_as_its_story_writes_them() -> None:
    briefing = load_scenario("a1_valley_mouth").scenario.briefing
    i18n.set_language("zh_TW")
    plain = i18n._(briefing)
    i18n.set_story_script("zh_CN", story_name_forms("zh_CN"))
    text = i18n._(briefing)
    assert "韓信" in plain and "韩信" in text and "韓信" not in text and "项王" in text
    back = text
    for simplified, traditional in story_name_forms("zh_CN"):
        back = back.replace(simplified, traditional)
    assert back == plain  # only the names changed
    i18n.set_story_script("zh_TW", story_name_forms("zh_TW"))  # a story told in the reader's script
    assert i18n._(briefing) == plain


@pytest.mark.parametrize("campaign_id", ["yuqing", "zhenguo"])
def test_every_name_of_a_story_reads_alike_in_its_prose_and_on_its_banners(campaign_id: str) -> None:
    """For a reader of the other Chinese, each hero's, side's and officer's name, and each troop
    type's name that holds one, reads the same through the prose's swaps as in the story's own
    catalog: a name missing from ``name_forms``, or a troop type holding one only half swapped
    (鎮國军骑兵), fails here."""
    spec = load_campaigns().campaigns[campaign_id]
    rules = load_ruleset()
    reader = "zh_CN" if spec.names == "zh_TW" else "zh_TW"
    names: set[str] = set()
    troops: set[str] = set()
    for scenario_id in spec.scenarios:
        scenario = load_scenario(scenario_id).scenario
        enlisted = order_of_battle(scenario)
        names |= {rules.heroes[e.hero].name for e in enlisted if e.hero is not None}
        names |= {s.name for s in scenario.sides} | {o.name for o in scenario.officers}
        troops |= {rules.units[e.type].name for e in enlisted}
    i18n.set_language(reader)
    i18n.set_story_script(spec.names, story_name_forms(spec.names))
    for msgid in sorted(names):
        assert i18n._(msgid) == i18n.name(msgid), msgid
    story = make_translator(spec.names).catalog
    for msgid in sorted(troops):
        if i18n._(msgid) != make_translator(reader).catalog.gettext(msgid):
            assert i18n._(msgid) == story.gettext(msgid), msgid


def test_a_name_written_alike_in_both_scripts_or_of_one_character_is_refused(tmp_path: Path) -> None:
    text = (DATA_DIR / "campaigns.toml").read_text(encoding="utf-8")
    text = text.replace('["岳飞", "岳飛"]', '["岳飛", "岳飛"]').replace('["韩信", "韓信"]', '["韩", "韓"]')
    bad = tmp_path / "campaigns.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ContentErrors) as info:
        load_campaigns_file(bad)
    lines = [str(e) for e in info.value.errors]
    assert any("campaigns.zhenguo" in line and "'岳飛' is written alike in both scripts" in line for line in lines), (
        lines
    )
    assert any("campaigns.yuqing" in line and "name_forms.0" in line for line in lines), lines


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
