"""The tutorial battle: its steps load and name a shipped scenario, a scripted player who does
what each step asks completes them all, and no step moves on for anything but its own deed."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.ai.driver import make_ais
from game.content.errors import ContentErrors
from game.content.scenarios import load_scenario, scenario_ids
from game.content.tutorial import check_tutorial, load_tutorial
from game.core.hexgrid import Hex, distance, neighbours
from game.session import BattleSession, Outcome
from game.session.tutorial import CONDITIONS, TutorialProgress, tutorial_match


class Player:
    """A newcomer at the tutorial: every input goes through the session, as the battle screen
    sends it, and the tutorial reads what came of it."""

    def __init__(self) -> None:
        self.tutorial = load_tutorial()
        self.session = BattleSession(tutorial_match(self.tutorial), None, curtains=False, describe=lambda e: None)
        self.progress = TutorialProgress(self.tutorial)

    @property
    def step(self) -> str | None:
        current = self.progress.current
        return current.id if current is not None else None

    def see(self, outcome: Outcome) -> Outcome:
        self.progress.observe(outcome, self.session.state)
        return outcome

    def pos(self, fid: str) -> Hex:
        return self.session.state.formations[fid].pos

    def select(self, fid: str) -> None:
        assert self.see(self.session.click(self.pos(fid))).kind == "selected"

    def march_next_to(self, fid: str, target: str) -> None:
        """March the selected ``fid`` to the nearest free hex beside ``target``."""
        taken = {f.pos for f in self.session.state.formations.values()}
        free = sorted(
            (h for h in neighbours(self.pos(target)) if h not in taken), key=lambda h: distance(h, self.pos(fid))
        )
        for h in free:
            if self.see(self.session.click(h)).applied:
                return
        raise AssertionError(f"{fid} could not march next to {target}")

    def aim(self, target: str) -> None:
        assert self.see(self.session.click(self.pos(target))).kind == "forecast"

    def strike(self) -> None:
        assert self.see(self.session.confirm_attack()).applied

    def computer_turn(self) -> None:
        ais = make_ais(self.session.match)
        while not self.session.human_to_move() and not self.session.state.over:
            side = self.session.state.active_side.id
            self.see(self.session.submit(ais[side].next_action()))


def test_the_steps_load_and_name_the_tutorial_scenario_and_side() -> None:
    tutorial = load_tutorial()
    assert tutorial.scenario in scenario_ids()
    sides = [s.id for s in load_scenario(tutorial.scenario).scenario.sides]
    check_tutorial(tutorial, scenario_ids(), sides)
    assert [s.done_when for s in tutorial.steps] == list(CONDITIONS)  # every condition taught, in order


def test_a_damaged_steps_file_names_the_file_the_step_and_the_field(tmp_path: Path) -> None:
    bad = tmp_path / "tutorial.toml"
    bad.write_text(
        'scenario = "tutorial"\nside = "coalition"\nseed = 1\n'
        '[[steps]]\nid = "x"\ntitle = "X"\ntext = "t"\ndone_when = "dance"\n'
    )
    with pytest.raises(ContentErrors) as caught:
        load_tutorial(bad)
    assert "tutorial.toml: tutorial: steps.0.done_when" in str(caught.value)
    with pytest.raises(ContentErrors, match="unknown scenario 'nowhere'"):
        check_tutorial(load_tutorial().model_copy(update={"scenario": "nowhere"}), scenario_ids(), [])


def test_a_scripted_player_completes_the_tutorial_and_each_step_waits_for_its_deed() -> None:
    p = Player()
    s = p.session
    assert p.step == "select"
    p.see(s.end_turn(warn=True))  # a warning, not an end of the turn
    p.see(s.click(p.pos("soul_levy")))  # looking at the enemy selects nothing of ours
    assert p.step == "select"
    p.select("han_foot")
    assert p.step == "march"
    p.select("guard_foot")  # choosing another is not marching
    p.select("han_foot")
    assert p.step == "march"
    p.march_next_to("han_foot", "soul_levy")
    assert p.step == "forecast"
    p.aim("soul_levy")
    assert p.step == "attack"
    s.cancel()
    p.see(s.confirm_attack())  # the blow was taken back: nothing to confirm
    assert p.step == "attack"
    p.aim("soul_levy")
    p.strike()
    assert p.step == "flank"
    assert not s.state.formations["soul_levy"].routed  # the first blow alone does not break them
    p.select("guard_foot")
    p.march_next_to("guard_foot", "soul_levy")
    assert p.step == "flank"  # marching beside them is not yet striking
    p.aim("soul_levy")
    p.strike()
    # The flanked blow breaks the levy: the rout step is done by the same blow.
    assert s.state.formations["soul_levy"].routed
    assert p.step == "bag"
    p.select("cao_zhi_retainers")
    p.see(s.order("capture"))  # nothing within reach yet: refused
    assert p.step == "bag"
    p.march_next_to("cao_zhi_retainers", "soul_levy")
    assert p.see(s.order("capture")).applied
    assert s.state.side("coalition").pouch > 0
    assert p.step == "end_turn"
    p.see(s.end_turn())
    assert p.step == "watch"
    p.computer_turn()
    assert p.step == "undo"
    p.see(s.order("undo"))  # nothing moved this turn: refused, the step waits
    assert p.step == "undo"
    p.select("cao_zhi_retainers")
    here = p.pos("cao_zhi_retainers")
    taken = {f.pos for f in s.state.formations.values()}
    back = next(h for h in neighbours(here) if h not in taken and p.see(s.click(h)).applied)
    assert p.pos("cao_zhi_retainers") == back
    p.see(s.order("undo"))
    assert p.pos("cao_zhi_retainers") == here
    assert p.progress.finished
    assert p.progress.observe(Outcome("undone"), s.state) == 0  # nothing left to complete
