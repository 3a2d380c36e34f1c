"""The tutorial battle's steps (game/content/data/tutorial.toml), validated: the scenario it is
played on, the side the player commands, and the steps in order, each with its text and what
completes it (``game.session.tutorial`` follows them)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..paths import DATA_DIR
from .errors import ContentError, ContentErrors, error
from .ruleset import load_model

TUTORIAL_PATH = DATA_DIR / "tutorial.toml"

# What completes a step, as the player does it (game.session.tutorial says how each is read).
Condition = Literal[
    "selected",
    "marched",
    "forecast",
    "attacked",
    "flanked",
    "routed",
    "bagged",
    "turn_ended",
    "computer_turn_ended",
    "undone",
]


class TutorialStep(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    title: str = Field(min_length=1)
    text: str = Field(min_length=1)
    done_when: Condition


class Tutorial(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    scenario: str
    side: str
    seed: int = Field(ge=0)
    difficulty: Literal["easy", "normal", "hard"] = "easy"
    steps: tuple[TutorialStep, ...] = Field(min_length=1)


def load_tutorial(path: Path = TUTORIAL_PATH) -> Tutorial:
    """The tutorial's steps; ContentErrors name the file, the step and the field. The scenario
    and side are checked against the scenario by whoever loads both (``check_tutorial``)."""
    tutorial = load_model(path, Tutorial, "tutorial")
    errors: list[ContentError] = []
    seen: set[str] = set()
    for i, step in enumerate(tutorial.steps):
        if step.id in seen:
            errors.append(error(path, f"steps.{i}", "id", f"step {step.id!r} listed twice"))
        seen.add(step.id)
    if errors:
        raise ContentErrors(errors)
    return tutorial


def check_tutorial(tutorial: Tutorial, scenario_ids: list[str], sides: list[str], path: Path = TUTORIAL_PATH) -> None:
    """The tutorial's scenario is shipped and its side is one of that scenario's."""
    errors: list[ContentError] = []
    if tutorial.scenario not in scenario_ids:
        errors.append(error(path, "tutorial", "scenario", f"unknown scenario {tutorial.scenario!r}"))
    elif tutorial.side not in sides:
        errors.append(error(path, "tutorial", "side", f"unknown side {tutorial.side!r}"))
    if errors:
        raise ContentErrors(errors)
