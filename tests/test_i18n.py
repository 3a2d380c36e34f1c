"""Translations: complete catalogs in step with the sources and with their compiled files,
switching language at run time, choosing the start language, and fonts that can draw it all."""

from __future__ import annotations

import ast
import gettext
import importlib.util
import re
import string
import subprocess
import sys
import tomllib
import unicodedata
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from conftest import strings_in
from fontTools.ttLib import TTFont

from game import i18n
from game.paths import DATA_DIR, LOCALE_DIR, MAPS_DIR, PACKAGE_DIR, ROOT
from game.ui.fonts import font_path

CATALOG_LANGUAGES = ("zh_CN", "zh_TW")
POT = LOCALE_DIR / "qiankun.pot"
TOOL = ROOT / "tools" / "extract_messages.py"


def po_file(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / "qiankun.po"


@lru_cache
def load_po(path: Path) -> Catalog:
    with path.open("rb") as fh:
        return read_po(fh, charset="utf-8")


def messages(catalog: Catalog) -> dict[str, str]:
    """msgid -> msgstr (plural forms joined with NUL), the header left out."""

    def flat(value: str | tuple[str, ...] | list[str] | None) -> str:
        if value is None:
            return ""
        return value if isinstance(value, str) else "\x00".join(value)

    return {flat(m.id): flat(m.string) for m in catalog if m.id}


def msgids(catalog: Catalog) -> set[str]:
    return set(messages(catalog))


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    i18n.set_language("en")


# -- catalogs ------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", CATALOG_LANGUAGES)
def test_every_message_is_translated(lang: str) -> None:
    template = msgids(load_po(POT))
    catalog = load_po(po_file(lang))
    assert template, "the template is empty"
    assert msgids(catalog) == template, "the catalog's msgids differ from the template's"
    untranslated = [m.id for m in catalog if m.id and not all(m.string if isinstance(m.string, tuple) else [m.string])]
    assert not untranslated, f"{lang}: untranslated: {untranslated}"
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert not fuzzy, f"{lang}: fuzzy (unchecked) translations: {fuzzy}"


PERCENT = re.compile(r"%(?:\(\w+\))?[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa%]")


def placeholders(text: str) -> list[str]:
    """Brace fields with their format specs, and %-style conversions, sorted."""
    fields = [
        f"{{{name}!{conv}:{spec}}}" for _lit, name, spec, conv in string.Formatter().parse(text) if name is not None
    ]
    return sorted(fields + PERCENT.findall(text))


@pytest.mark.parametrize("lang", CATALOG_LANGUAGES)
def test_placeholders_are_kept(lang: str) -> None:
    for msgid, msgstr in messages(load_po(po_file(lang))).items():
        for single_id, single_str in zip(msgid.split("\x00"), msgstr.split("\x00"), strict=False):
            assert placeholders(single_str) == placeholders(single_id), f"{lang}: {msgid!r} -> {msgstr!r}"


def test_placeholders_helper_sees_fields() -> None:
    assert placeholders("Losses: {lo:,}–{hi:,} of %s") == ["%s", "{hi!None:,}", "{lo!None:,}"]
    assert placeholders("{a}{d}") != placeholders("{a}")


@pytest.mark.parametrize("lang", CATALOG_LANGUAGES)
def test_compiled_catalog_matches_po(lang: str) -> None:
    po = messages(load_po(po_file(lang)))
    mo_path = po_file(lang).with_suffix(".mo")
    with mo_path.open("rb") as fh:
        compiled = messages(read_mo(fh))
    assert compiled == po, f"{mo_path.name} is stale: run python tools/extract_messages.py"
    with mo_path.open("rb") as fh:
        runtime = gettext.GNUTranslations(fh)
    for msgid, msgstr in po.items():
        if "\x00" not in msgid:
            assert runtime.gettext(msgid) == msgstr


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("extract_messages", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_template_is_up_to_date(tmp_path: Path) -> None:
    fresh = tmp_path / "qiankun.pot"
    subprocess.run([sys.executable, str(TOOL), "--pot-only", "--pot", str(fresh)], check=True, capture_output=True)
    new, old = msgids(load_po(fresh)), msgids(load_po(POT))
    assert new == old, (
        f"game/locale/qiankun.pot is stale (added {sorted(new - old)}, gone {sorted(old - new)}): "
        "run python tools/extract_messages.py and translate the new messages"
    )


def test_extractor_finds_every_kind_of_text(tool: ModuleType) -> None:
    found = msgids(tool.build_template())
    assert "Start battle" in found  # _() in the UI
    assert "Hard" in found  # N_() in a table
    assert "Fatigue" in found  # _() inside an f-string
    assert "Terrain" in found  # a combat modifier name
    assert {"Han Xin", "Han soldiers", "Forest", "Jin army"} <= found  # data names
    scenario = tomllib.loads((MAPS_DIR / "a1_valley_mouth.toml").read_text(encoding="utf-8"))
    assert {scenario["title"], scenario["briefing"], *(o["text"] for o in scenario["objectives"])} <= found
    narrations = [a["text"] for e in scenario["events"] for a in e["do"] if a["kind"] == "narrate"]
    assert narrations and set(narrations) <= found
    assert {s["name"] for s in scenario["sides"]} <= found
    assert "a1_valley_mouth" not in found and "han_soldier" not in found  # ids are not text


def test_yue_fei_is_written_with_his_own_surname_in_both_scripts() -> None:
    """His surname is 岳 in traditional characters too; 嶽 (a mountain) is a conversion slip."""
    texts = content_strings() | {t for lang in CATALOG_LANGUAGES for t in messages(load_po(po_file(lang))).values()}
    assert not [t for t in texts if "嶽" in t]


@pytest.mark.parametrize(("lang", "foreign"), [("zh_CN", "「」"), ("zh_TW", "“”")])
def test_one_quotation_style_per_script(lang: str, foreign: str) -> None:
    """Simplified quotes with “”, traditional with 「」, and neither borrows the other's."""
    mixed = [t for t in messages(load_po(po_file(lang))).values() if any(q in t for q in foreign)]
    assert not mixed


# One term list per language: each word a catalog has left behind, with the one it uses instead.
# One term for one thing (the pouch, the souls, the replay), no modern or foreign-sounding words
# in a historical voice, no calques, and in zh_TW the words Taiwan writes, not the mainland's
# words in traditional characters.
TERMS: dict[str, dict[str, str]] = {
    "zh_CN": {
        "乾坤小袋": "乾坤袋",
        "魂魄": "游魂",
        "重播": "回放",
        "重演": "回放",
        "战争目标": "所期之数, 六万之数",
        "纵队": "步军, 队伍",
        "预备队": "后队",
        "杠杆": "(rephrase)",
        "军官": "将校",
        "生马": "养足脚力的战马",
        "逃跑的军队": "溃逃之敌",
        "逃跑的敌人": "溃逃之敌",
        # Taiwan's words, which a mainland reader does not write.
        "点选": "点击",
        "载入": "加载",
        "储存": "保存",
        "萤幕": "屏幕",
        "滑鼠": "鼠标",
        "预设": "默认",
        "档案": "文件",
        "讯息": "信息",
        "介面": "界面",
        "品质": "质量",
        "视窗": "窗口",
        "选单": "菜单",
        "设定": "设置",
        "软体": "软件",
        "游标": "光标",
        "遊魂": "游魂",
    },
    "zh_TW": {
        "乾坤小袋": "乾坤袋",
        "魂魄": "遊魂",
        "回放": "重播",
        "重演": "重播",
        "戰爭目標": "所期之數, 六萬之數",
        "縱隊": "步軍, 隊伍",
        "預備隊": "後隊",
        "槓桿": "(rephrase)",
        "軍官": "將校",
        "生馬": "養足腳力的戰馬",
        "逃跑的軍隊": "潰逃之敵",
        "逃跑的敵人": "潰逃之敵",
        "游魂": "遊魂",
        "點擊": "點選",
        "保存": "儲存",
        "選中": "選取",
        "屏幕": "螢幕",
        "鼠標": "滑鼠",
        "默認": "預設",
        "設置": "設定",
        "信息": "訊息",
        "視頻": "影片",
        "菜單": "選單",
        "加載": "載入",
        "窗口": "視窗",
        "界面": "介面",
        "用戶": "使用者",
        "軟件": "軟體",
        "程序": "程式",
        "數據": "資料",
        "光標": "游標",
        "讀取": "載入",
        "讀檔": "載入",
        "文件": "檔案",
        "支持": "支援",
        "質量": "品質",
        "網絡": "網路",
        "全屏": "全螢幕",
        "分辨率": "解析度",
        "打印": "列印",
        "鏈接": "連結",
        "導出": "匯出",
        "存盤": "存檔",
        "嶽": "岳",
    },
}


@pytest.mark.parametrize("lang", CATALOG_LANGUAGES)
def test_catalogs_keep_to_their_term_list(lang: str) -> None:
    terms = TERMS[lang]
    found = {
        word: f"{msgid[:40]}…"
        for msgid, msgstr in messages(load_po(po_file(lang))).items()
        for word in terms
        if word in msgstr
    }
    assert not found, {word: (terms[word], where) for word, where in found.items()}


# Characters of the other script: a simplified catalog never writes these traditional forms, nor
# a traditional one these simplified forms (pairs chosen so that neither form is also a word of the
# other script, as 里 the measure and 后 the queen are).
TRADITIONAL_ONLY = "們這個為說會來對還過點與國門見開軍戰將馬騎陣擊敵實歸斷從圍壓雙衛鐵槍劍頭兩讓時"
SIMPLIFIED_ONLY = "们这个为说会来对还过点与国门见开军战将马骑阵击敌实归断从围压双卫铁枪剑头两让时"


@pytest.mark.parametrize(("lang", "foreign"), [("zh_CN", TRADITIONAL_ONLY), ("zh_TW", SIMPLIFIED_ONLY)])
def test_each_catalog_writes_its_own_script(lang: str, foreign: str) -> None:
    """Banner characters aside (a banner shows the character its hero's own script writes)."""
    heroes = tomllib.loads((DATA_DIR / "heroes.toml").read_text(encoding="utf-8"))
    banners = {h["surname"] for h in heroes.values()}
    stray = {
        msgid[:40]: sorted({c for c in msgstr if c in foreign and c not in banners})
        for msgid, msgstr in messages(load_po(po_file(lang))).items()
        if any(c in foreign and c not in banners for c in msgstr)
    }
    assert not stray, stray


def test_script_lists_pair_up() -> None:
    assert len(TRADITIONAL_ONLY) == len(SIMPLIFIED_ONLY) == len(set(TRADITIONAL_ONLY))
    assert not set(TRADITIONAL_ONLY) & set(SIMPLIFIED_ONLY)


# Words the English text has left behind: the period's measures and voice, one spelling of a name.
ENGLISH_RETIRED = re.compile(
    r"\b(miles?|war aims?|levers?|zones? of fire|regiments?|Divine Blades|Jurchens|Hegemon King|Wu Zhu|Xixia)\b",
    re.IGNORECASE,
)


def test_english_keeps_the_periods_voice() -> None:
    found = {m.group(0): text[:60] for text in msgids(load_po(POT)) if (m := ENGLISH_RETIRED.search(text))}
    assert not found, found


# -- run time ------------------------------------------------------------------------------


def test_set_language_switches_translations() -> None:
    i18n.set_language("en")
    assert i18n._("The Valley Mouth") == "The Valley Mouth"
    i18n.set_language("zh_CN")
    assert i18n.language() == "zh_CN"
    assert i18n._("The Valley Mouth") == "谷口之战"
    assert i18n._("Yuqing Palace coalition") == "玉清宫联军"
    assert i18n._("Han Xin") == "韩信"
    i18n.set_language("zh_TW")
    assert i18n._("The Valley Mouth") == "谷口之戰"
    assert i18n._("Zhenguo Army") == "鎮國軍"
    assert i18n._("Wanyan Wuzhu") == "完顏兀朮"
    assert i18n._("Turn {n}/{limit}").format(n=3, limit=14) == "第 3/14 回合"
    assert i18n._("no such message") == "no such message"
    i18n.set_language("en")
    assert i18n._("Han Xin") == "Han Xin"


@pytest.mark.parametrize(
    ("n", "english", "chinese"),
    [
        (500, "500", "500"),
        (5000, "5,000", "5000"),
        (12345, "12,345", "12345"),
        (60000, "60,000", "6万"),
        (12000, "12,000", "1.2万"),
        (105000, "105,000", "10.5万"),
    ],
)
def test_men_are_counted_as_the_language_counts(n: int, english: str, chinese: str) -> None:
    assert i18n.format_men(n) == english
    i18n.set_language("zh_CN")
    assert i18n.format_men(n) == chinese
    i18n.set_language("zh_TW")
    assert i18n.format_men(n) == chinese.replace("万", "萬")  # in the reader's script


@pytest.mark.parametrize(
    ("n", "english", "chinese"),
    [
        (650, "650", "650"),
        (5000, "5k", "5000"),
        (2480, "2.5k", "2480"),
        (9960, "10k", "9960"),
        (10040, "10k", "1万"),
        (12400, "12.4k", "1.2万"),
        (70000, "70k", "7万"),
        (123456, "123.5k", "12.3万"),
    ],
)
def test_banner_counts_are_short_in_the_language(n: int, english: str, chinese: str) -> None:
    assert i18n.format_men_short(n) == english
    i18n.set_language("zh_CN")
    assert i18n.format_men_short(n) == chinese
    i18n.set_language("zh_TW")
    assert i18n.format_men_short(n) == chinese.replace("万", "萬")
    assert "k" not in chinese and "," not in chinese


def test_counts_in_messages_follow_the_language() -> None:
    line = "{a} attacked {d}: the defenders lost {dl:,}, the attackers {al:,}"
    english = i18n._(line).format(a="A", d="D", dl=i18n.Men(20000), al=i18n.Men(1234))
    assert english.endswith("lost 20,000, the attackers 1,234")
    i18n.set_language("zh_CN")
    text = i18n._(line).format(a="甲", d="乙", dl=i18n.Men(20000), al=i18n.Men(1234))
    assert "2万" in text and "1234" in text and "," not in text
    assert f"{i18n.Men(7):>3}" == "  7"  # other format specs are an int's


def test_sentences_run_together_as_the_language_writes_them() -> None:
    assert i18n.sentences("One.", "Two.") == "One. Two."
    i18n.set_language("zh_CN")
    assert i18n.sentences("其一。", "其二。") == "其一。其二。"


def test_unknown_language_is_refused() -> None:
    i18n.set_language("zh_CN")
    with pytest.raises(ValueError, match="unknown language"):
        i18n.set_language("fr")
    assert i18n.language() == "zh_CN"


def test_translations_need_no_babel_at_run_time() -> None:
    probe = (
        "import sys; from game import i18n; i18n.set_language('zh_TW'); "
        "assert i18n._('Han Xin') == '韓信', i18n._('Han Xin'); "
        "assert not any(m.split('.')[0] == 'babel' for m in sys.modules)"
    )
    subprocess.run([sys.executable, "-c", probe], check=True, cwd=ROOT)


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANG": "zh_CN.UTF-8"}, "zh_CN"),
        ({"LANG": "zh_SG.UTF-8"}, "zh_CN"),
        ({"LANG": "zh_TW.UTF-8"}, "zh_TW"),
        ({"LANG": "zh_HK.Big5-HKSCS"}, "zh_TW"),
        ({"LC_ALL": "zh_MO"}, "zh_TW"),
        ({"LANGUAGE": "zh-Hant"}, "zh_TW"),
        ({"LANGUAGE": "zh-Hans"}, "zh_CN"),
        ({"LANGUAGE": "zh"}, "zh_CN"),
        ({"LANGUAGE": "zh_TW:zh_CN", "LANG": "en_US.UTF-8"}, "zh_TW"),
        ({"LANGUAGE": "en_US:zh_CN", "LANG": "zh_CN.UTF-8"}, "en"),
        ({"LANGUAGE": "", "LC_MESSAGES": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}, "zh_TW"),
        ({"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}, "zh_CN"),
        ({"LANGUAGE": ":zh_CN"}, "zh_CN"),
    ],
)
def test_detect_language(environ: dict[str, str], expected: str) -> None:
    assert i18n.detect_language(environ) == expected


def test_detect_language_reads_the_process_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    assert i18n.detect_language() == "zh_TW"


# -- fonts ---------------------------------------------------------------------------------


def content_strings() -> set[str]:
    """Every string in the data and scenario files: names, banner characters, scenario text."""

    out: set[str] = set()
    for path in [*sorted(DATA_DIR.glob("*.toml")), *sorted(MAPS_DIR.glob("*.toml"))]:
        out.update(strings_in(tomllib.loads(path.read_text(encoding="utf-8"))))
    return out


def ui_literals() -> set[str]:
    """String literals (docstrings aside) in the screen code and the language names."""
    out = set(i18n.LANGUAGES.values())
    for path in [*sorted((PACKAGE_DIR / "ui").glob("*.py")), PACKAGE_DIR / "i18n.py"]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
        }
        out.update(
            node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
        )
    return out


def drawn_texts(lang: str) -> set[str]:
    """What the game may draw in `lang`: msgids (the fallback), translations, content, UI literals."""
    texts = set(msgids(load_po(POT))) | content_strings() | ui_literals()
    if lang != "en":
        for msgid, msgstr in messages(load_po(po_file(lang))).items():
            texts.update((*msgid.split("\x00"), *msgstr.split("\x00")))
    return texts


@lru_cache
def cmap(path: Path) -> frozenset[int]:
    return frozenset(TTFont(str(path), lazy=True).getBestCmap())


def missing_glyphs(texts: set[str], font: Path) -> str:
    have = cmap(font)
    chars = {c for text in texts for c in text}
    return "".join(
        sorted(
            c for c in chars if not c.isspace() and not unicodedata.category(c).startswith("C") and ord(c) not in have
        )
    )


@pytest.mark.parametrize("lang", ["en", *CATALOG_LANGUAGES])
def test_font_has_every_glyph(lang: str) -> None:
    font = font_path(lang)
    missing = missing_glyphs(drawn_texts(lang), font)
    assert not missing, (
        f"{font.name} lacks glyphs used in {lang}: {missing!r}; rebuild the fonts with python tools/make_font_subset.py"
    )


def test_glyph_check_notices_a_missing_character() -> None:
    assert missing_glyphs({"韩信 Han Xin\n"}, font_path("zh_CN")) == ""
    assert missing_glyphs({"韩信 \U0002a6a5"}, font_path("zh_CN")) == "\U0002a6a5"


@pytest.mark.parametrize(("lang", "title"), [("zh_CN", "封号"), ("zh_TW", "封號")])
def test_the_banner_legend_says_what_the_banners_show(lang: str, title: str) -> None:
    """A banner carries one character of its hero's name: a surname (韩), a given name (亮 for
    Wanyan Liang, 兀 for Wuzhu) or a title (信 for Lord Xinling), so the legend names all three."""
    heroes = tomllib.loads((DATA_DIR / "heroes.toml").read_text(encoding="utf-8"))
    shown = {h["surname"] for h in heroes.values()}
    assert {"亮", "兀", "信"} <= shown  # not every banner is a surname
    legend = messages(load_po(po_file(lang)))[
        "A gold dot on the banner: a hero commands it, and his character is on the banner."
    ]
    assert "姓" in legend and "名" in legend and title in legend


@pytest.mark.parametrize("lang", CATALOG_LANGUAGES)
def test_the_hailing_host_keeps_the_chronicles_name(lang: str) -> None:
    """The chronicle calls Wanyan Liang's host 海陵魂邦, the soul-state of Hailing."""
    assert messages(load_po(po_file(lang)))["Hailing soul-host"] == "海陵魂邦"
