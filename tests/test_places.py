"""Place names: the regions the maps name, where each name goes, which regions the objectives
turn on, and the checks that keep every region the story names named on the map."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from conftest import make_board, replace_once

from game.cli import main
from game.content.errors import ContentError, ContentErrors
from game.content.ruleset import load_ruleset
from game.content.scenarios import load_scenario, load_scenario_file, scenario_ids
from game.content.tmx import played_bytes
from game.core.engine import Engine
from game.core.hexgrid import Hex, distance, from_centre
from game.core.places import event_regions, label_candidates, map_places, objective_events, objective_region_ids
from game.core.rules import Ruleset
from game.core.scenario_events import EventSpec
from game.paths import MAPS_DIR

A1 = "a1_valley_mouth"
ROOT = Path(__file__).resolve().parents[1]

# What each shipped scenario's objectives turn on, worked out by hand from its events.
OBJECTIVE_REGIONS = {
    # the defile lost; the trap relieved; the host still before the defile at nightfall
    "a1_valley_mouth": {"the_front", "valley_mouth", "around_the_defile"},
    "a2_rear_guard_trap": {"the_pass"},  # Han Xin's five thousand back at the pass
    "a3_besiege_wei": set(),  # won by breaking formations and bagging souls; the palace is never threatened
    # Liang's escape; the note in his camp; the host under the walls at nightfall
    "a4_annihilation": {"hidden_path", "liang_camp", "under_the_walls"},
    # Tang Huai relieved at the foot of his hill; the rear guard still across the road at nightfall
    "b1_the_valley": {"hill_foot", "across_the_road"},
    "b2_the_pursuit": {"west_edge", "west_steppe"},  # the column through the gap; on the steppe at dusk
    # Wuzhu reaching the gate in the saddle can no longer be taken; shut in the fort unwounded, he
    # has given up the field
    "b3_tangut_border": {"fort_gate", "fort"},
    "tutorial": set(),  # won by breaking the soul levy
}


def event(data: dict[str, Any]) -> EventSpec:
    return EventSpec.model_validate(data)


def enters(eid: str, region: str, *actions: dict[str, Any], **extra: Any) -> EventSpec:
    return event(
        {"id": eid, "when": {"kind": "enters_region", "region": region, "side": "a"}, "do": list(actions), **extra}
    )


NARRATE = {"kind": "narrate", "text": "Look."}
DONE = {"kind": "objective", "id": "goal", "status": "done"}


# -- which regions the objectives turn on ---------------------------------------------------


@pytest.mark.parametrize("sid", sorted(OBJECTIVE_REGIONS))
def test_the_objective_regions_of_every_shipped_scenario(sid: str) -> None:
    scenario = load_scenario(sid).scenario
    assert set(map_places(scenario).objective_regions) == OBJECTIVE_REGIONS[sid]
    assert objective_region_ids(scenario.events) == OBJECTIVE_REGIONS[sid]


def test_every_shipped_scenario_is_listed() -> None:
    assert sorted(OBJECTIVE_REGIONS) == scenario_ids()


def test_a_region_concerns_the_objectives_when_its_event_settles_one_or_decides_the_battle() -> None:
    events = [
        enters("sightseeing", "meadow", NARRATE),
        enters("taken", "hill", DONE),
        enters("lost", "gate", {"kind": "defeat", "side": "a"}),
        enters("won", "palace", {"kind": "victory", "side": "a"}),
        # Not decisive itself, but the victory cannot come once it has fired.
        enters("spoiled", "well", NARRATE),
        event({"id": "late", "when": {"kind": "turn", "turn": 5}, "do": [DONE], "unless": ["spoiled"]}),
        # Where reinforcements arrive is named by a decisive event, yet nobody has to go there.
        event(
            {
                "id": "relief",
                "when": {"kind": "turn", "turn": 3},
                "do": [
                    {
                        "kind": "reinforce",
                        "side": "a",
                        "formations": [{"id": "r", "type": "han_soldier", "men": 10, "at": "ford"}],
                    },
                    DONE,
                ],
            }
        ),
    ]
    assert objective_region_ids(events) == {"hill", "gate", "palace", "well"}
    assert [e.id for e in objective_events(events)] == ["taken", "lost", "won", "spoiled", "late", "relief"]
    assert event_regions(events) == {
        "meadow": ("sightseeing", "when.region"),
        "hill": ("taken", "when.region"),
        "gate": ("lost", "when.region"),
        "palace": ("won", "when.region"),
        "well": ("spoiled", "when.region"),
        "ford": ("relief", "do[0].formations[0].at"),
    }


def test_an_offset_is_not_a_region() -> None:
    reinforce = {
        "kind": "reinforce",
        "side": "a",
        "formations": [{"id": "r", "type": "han_soldier", "men": 1, "at": "3,4"}],
    }
    assert event_regions([event({"id": "e", "when": {"kind": "turn", "turn": 2}, "do": [reinforce]})]) == {}


def test_objective_regions_fade_once_their_events_can_no_longer_fire(rules: Ruleset) -> None:
    loaded = load_scenario(A1)
    places = map_places(loaded.scenario)
    state = Engine(loaded.scenario, rules, 1).state
    assert places.live_objective_regions(state) == {"the_front", "valley_mouth", "around_the_defile"}
    # The valley swept: the relief of the trap can no longer lose the battle.
    state.fired_events.append("valley_swept")
    assert places.live_objective_regions(state) == {"the_front", "around_the_defile"}
    # Past turn 8 the defile can no longer be lost, but Han Xin's arrival there still counts.
    state.turn = 9
    assert places.live_objective_regions(state) == {"the_front", "around_the_defile"}
    # Once the army has joined the wings, the defile itself is done with; what still counts is
    # whether the host stands before it at nightfall (a host that has drawn off loses then).
    state.fired_events.append("army_joins")
    assert places.live_objective_regions(state) == {"around_the_defile"}
    state.fired_events.append("host_before_defile")
    assert places.live_objective_regions(state) == frozenset()
    state.fired_events.remove("valley_swept")
    state.fired_events.append("trap_relieved")  # it fired: nothing more to come of it
    assert places.live_objective_regions(state) == frozenset()


# -- where the names go ---------------------------------------------------------------------


@pytest.mark.parametrize("sid", sorted(OBJECTIVE_REGIONS))
def test_every_name_is_anchored_inside_its_region_near_the_centre(sid: str) -> None:
    scenario = load_scenario(sid).scenario
    board = scenario.board
    places = map_places(scenario)
    assert {p.region for p in places.places} == set(board.labels)
    for p in places.places:
        hexes = board.regions[p.region]
        assert p.anchor in hexes and p.hexes == hexes and p.label == board.labels[p.region]
        # The hex nearest the centre that is not in (or, if it can be, next to) a smaller named
        # place inside the region.
        inner = {
            h
            for r, area in board.regions.items()
            if r in board.labels and len(area) < len(hexes) and area <= hexes
            for h in area
        }
        clear = [h for h in from_centre(hexes) if all(distance(h, i) > 1 for i in inner)]
        assert p.anchor == (clear or [h for h in from_centre(hexes) if h not in inner])[0], p.region
    assert places.anchors() == {p.region: p.anchor for p in places.places}
    # Objective regions first, then the smaller before the larger.
    keys = [(not p.objective, len(p.hexes)) for p in places.places]
    assert keys == sorted(keys)
    assert {p.region for p in places.places if p.objective} == OBJECTIVE_REGIONS[sid]


def test_a_name_leaves_the_centre_to_a_smaller_place_inside_its_region(rules: Ruleset) -> None:
    board = make_board(rules, ("......",) * 5)
    everything = frozenset(board.hexes())
    hill = frozenset({from_centre(everything)[0]})
    board.regions = {"plain": everything, "hill": hill}
    board.labels = {"plain": "Plain", "hill": "Hill"}
    plain = label_candidates(board, "plain")
    assert set(plain) == everything and plain[-1] in hill
    # Away from the hill first, then beside it, on it last.
    ranks = [min(2, distance(h, next(iter(hill)))) for h in plain]
    assert ranks == sorted(ranks, reverse=True) and ranks[-1] == 0 and ranks[0] == 2
    # A small place may put its name beside it when its own hexes are crowded.
    near = label_candidates(board, "hill")
    assert near[0] in hill and len(near) == 7 and all(distance(h, near[0]) == 1 for h in near[1:])
    # An unnamed region does not push names aside.
    board.labels = {"plain": "Plain"}
    assert label_candidates(board, "plain")[0] in hill


def test_the_reinforcement_anchor_is_the_same_centre(rules: Ruleset) -> None:
    from game.core.placement import placement_area

    board = load_scenario(A1).scenario.board
    for region, hexes in board.regions.items():
        found = placement_area(board, region)
        assert found is not None and found[1] == from_centre(hexes)[0]
    assert from_centre([]) == [] and from_centre([Hex(2, 3)]) == [Hex(2, 3)]


# -- validation -----------------------------------------------------------------------------


def errors_of(path: Path) -> list[ContentError]:
    with pytest.raises(ContentErrors) as exc:
        load_scenario_file(path, load_ruleset())
    return exc.value.errors


DEFILE_LABEL = '\n   <properties>\n    <property name="label" value="The Defile"/>\n   </properties>\n  </object>'


def test_every_region_an_event_names_has_a_name_on_the_map() -> None:
    for sid in scenario_ids():
        loaded = load_scenario(sid)
        for region in event_regions(loaded.scenario.events):
            assert loaded.scenario.board.labels.get(region), f"{sid}: {region}"


def test_a_region_an_event_names_without_a_name_fails_validation(a1_copy: Path) -> None:
    replace_once(a1_copy.with_suffix(".tmx"), '"240">' + DEFILE_LABEL, '"240"/>')
    [e] = errors_of(a1_copy)
    assert (Path(e.file).name, e.object, e.field) == (f"{A1}.tmx", "the_front", "label")
    assert "'front_lost'" in e.message and "when.region" in e.message


def test_a_reinforcement_into_an_unnamed_region_fails_validation(a1_copy: Path) -> None:
    late = """
[[events]]
id = "late_help"
when = { kind = "turn", turn = 5 }
do = [{ kind = "reinforce", side = "coalition", formations = [
    { id = "cao", type = "retainer", men = 10, at = "muster" },
] }]
"""
    a1_copy.write_text(a1_copy.read_text(encoding="utf-8") + late, encoding="utf-8")
    [e] = errors_of(a1_copy)
    assert (Path(e.file).name, e.object, e.field) == (f"{A1}.tmx", "muster", "label")
    assert "'late_help'" in e.message and "do[0].formations[0].at" in e.message


def test_validate_prints_the_missing_name(a1_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    replace_once(a1_copy.with_suffix(".tmx"), '"240">' + DEFILE_LABEL, '"240"/>')
    assert main(["validate", str(a1_copy)]) == 1
    out = capsys.readouterr().out.strip()
    assert re.fullmatch(r".*a1_valley_mouth\.tmx: the_front: label: needs a label.*'front_lost'.*", out), out


@pytest.mark.parametrize(
    ("value", "words"),
    [("", "not empty"), (" The Defile", "leading or trailing spaces"), ("   ", "not empty")],
)
def test_a_name_must_be_one_clean_line(a1_copy: Path, value: str, words: str) -> None:
    replace_once(a1_copy.with_suffix(".tmx"), 'value="The Defile"', f'value="{value}"')
    [e] = errors_of(a1_copy)
    assert (Path(e.file).name, e.object, e.field) == (f"{A1}.tmx", "the_front", "label") and words in e.message


def test_the_objects_of_one_region_agree_on_its_name(a1_copy: Path) -> None:
    second = (
        '\n  <object id="90" name="the_front" class="region" x="1190" y="536" width="56" height="48">'
        + DEFILE_LABEL.replace("The Defile", "The Gorge")
    )
    replace_once(
        a1_copy.with_suffix(".tmx"),
        ' <objectgroup id="2" name="regions">',
        ' <objectgroup id="2" name="regions">' + second,
    )
    [e] = errors_of(a1_copy)
    assert (e.object, e.field) == ("the_front", "label") and "'The Defile'" in e.message


def test_a_regions_name_is_read_from_the_map(a1_copy: Path) -> None:
    board = load_scenario_file(a1_copy, load_ruleset()).scenario.board
    assert board.labels["the_front"] == "The Defile" and "muster" not in board.labels


def test_names_do_not_change_the_content_version(a1_copy: Path) -> None:
    """A name is shown, never played: renaming a place keeps the scenario's saves loadable."""
    tmx = a1_copy.with_suffix(".tmx")
    before = load_scenario_file(a1_copy, load_ruleset()).content_version
    replace_once(tmx, 'value="The Defile"', 'value="The Gorge"')
    assert load_scenario_file(a1_copy, load_ruleset()).content_version == before
    replace_once(tmx, '"1248">' + DEFILE_LABEL.replace("The Defile", "Western Plain"), '"1248"/>')
    assert load_scenario_file(a1_copy, load_ruleset()).content_version == before
    replace_once(tmx, 'x="686" y="536" width="168"', 'x="686" y="536" width="112"')  # the ground changes
    assert load_scenario_file(a1_copy, load_ruleset()).content_version != before


def test_played_bytes_take_out_only_the_names(tmp_path: Path) -> None:
    named = (
        '<object id="1" name="a" class="region" x="0" y="0" width="9" height="9">\n'
        '   <properties>\n    <property name="label" value="A Place"/>\n   </properties>\n  </object>\n'
        '  <object id="2" name="b" class="region" x="0" y="0">\n'
        '   <properties>\n    <property name="label" value="B"/>\n'
        '    <property name="note" value="x"/>\n   </properties>\n'
        '   <polygon points="0,0 9,0 9,9"/>\n  </object>\n'
    )
    bare = (
        '<object id="1" name="a" class="region" x="0" y="0" width="9" height="9"/>\n'
        '  <object id="2" name="b" class="region" x="0" y="0">\n'
        '   <properties>\n    <property name="note" value="x"/>\n   </properties>\n'
        '   <polygon points="0,0 9,0 9,9"/>\n  </object>\n'
    )
    (tmp_path / "named.tmx").write_text(named, encoding="utf-8")
    (tmp_path / "bare.tmx").write_text(bare, encoding="utf-8")
    assert played_bytes(tmp_path / "named.tmx") == played_bytes(tmp_path / "bare.tmx") == bare.encode()
    for path in sorted(MAPS_DIR.glob("*.tmx")):
        assert b'name="label"' not in played_bytes(path)


# -- translation ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("extract_messages", ROOT / "tools" / "extract_messages.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_map_names_are_extracted_for_translation(tool: ModuleType) -> None:
    template = tool.build_template()
    labels = {label for sid in scenario_ids() for label in load_scenario(sid).scenario.board.labels.values()}
    assert labels and labels <= {m.id for m in template if m.id}
    defile = template.get("The Defile")
    assert defile.locations == [("game/maps/a1_valley_mouth.tmx", 0)]
    assert defile.auto_comments == ["a1_valley_mouth: region the_front: label (a place name on the map)"]
    assert "muster" not in {m.id for m in template}
