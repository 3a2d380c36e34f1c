"""One battle as it is played at one screen, without the screen: the match, the formation
chosen and what is being aimed, whose eyes are on the screen, and the hand-over between
the human sides.

Every input becomes one call (``click``, ``order``, ``hero_order``, ``confirm_attack``,
``end_turn``, or ``submit`` for an action already made) that goes through the match and
returns an ``Outcome``: what the viewer witnessed, the choice now, a forecast, or a refusal
with its reason. A refusal leaves the game as it was. The screen draws what the session and
its side views say; it decides nothing of the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from ..core.actions import Action, Blast, EndTurn
from ..core.combat import Forecast
from ..core.engine import Engine, IllegalAction
from ..core.events import Event, Moved
from ..core.hexgrid import Hex
from ..core.state import Formation, GameState
from ..forward import Forward
from ..i18n import N_, _, ngettext
from ..record.reloads import Reload, untold
from ..view.names import formation_names, side_name
from ..view.side_view import SideView, SideViews
from ..view.witness import sight_around, witnessed
from .choice import ChoiceMarks, OrderInput, Reading
from .hotseat import Describe, WatchReports
from .refusals import refusal_text

if TYPE_CHECKING:
    from ..record.match import Match  # the session is given one; loading one is not its job

# Why U takes nothing back, by Match.undo_refusal.
UNDO_REFUSALS = {
    "nothing": N_("Nothing to take back: no formation has moved since this turn began."),
    "not_a_move": N_("Cannot take back: only a plain move can be undone, not a blow, a capture or an order."),
    "revealed": N_("Cannot take back: that move showed you something new, and what was seen stays seen."),
    "new_turn": N_("Nothing to take back: a new turn has begun."),
}

OutcomeKind = Literal["applied", "refused", "selected", "forecast", "aiming", "toggled", "undone", "warning", "nothing"]


@dataclass(frozen=True)
class Outcome:
    """What came of one input, for the screen to show.

    ``applied``: an action went through; ``events`` are what the viewer witnessed of it,
    ``before`` where every formation stood and ``pouches`` what every side had bagged before it,
    ``spotted`` the enemies a halted march brought into view. ``refused``: nothing changed,
    ``message`` says why. ``selected``: a formation chosen or let go. ``forecast``: a blow aimed,
    its odds as the attacker knows the field. ``aiming``: the next click picks the target.
    ``toggled``: forced march on or off. ``undone``: the last move taken back. ``warning``: the
    turn was not ended, ``message`` says how many formations can still act. ``nothing``: the
    input meant nothing here."""

    kind: OutcomeKind
    events: tuple[Event, ...] = ()
    message: str | None = None
    forecast: Forecast | None = None
    selected: str | None = None
    before: Mapping[str, Hex] = field(default_factory=dict)
    pouches: Mapping[str, int] = field(default_factory=dict)
    spotted: tuple[str, ...] = ()
    by_computer: bool = False

    @property
    def applied(self) -> bool:
        return self.kind == "applied"


NOTHING = Outcome("nothing")


@dataclass(frozen=True)
class HandOver:
    """The screen passes to human side ``side`` (from ``previous``, None at the start).
    ``brief``: it reads the battle's briefing first. ``log``: the lines its formations saw
    while it waited, for its own log. With a ``curtain`` (two people at one screen) nothing of
    the last player's stays in view and ``side`` reads its ``report`` and the words it
    ``heard`` (text, speaker) behind the curtain."""

    side: str
    previous: str | None
    brief: bool
    curtain: bool
    log: tuple[str, ...] = ()
    report: str | None = None
    heard: tuple[tuple[str, str | None], ...] = ()


class BattleSession:
    def __init__(
        self,
        match: Match,
        view_side: str | None = None,
        curtains: bool = True,
        describe: Describe | None = None,
    ) -> None:
        self.match = match
        self.rules = match.engine.rules  # the data this battle is played with (a save may carry its own)
        # Whose fog to show: a side id, "all" for everything, None for the human at the screen.
        self.view_side = view_side
        # Whether the screen changes hands behind a curtain between human sides (two at one screen).
        self.curtains = curtains
        # What each side sees and knows, worked out once per position.
        self.side_views = SideViews(match.loaded.scenario.board, self.rules)
        # The formation chosen and what is being aimed: how the next click is read.
        self.choice = OrderInput()
        # The human side whose eyes are on the screen; the hand-over happens when it changes.
        self.viewer: str | None = None
        # The human sides that have read the briefing.
        self.briefed: set[str] = set()
        # Every formation's name for the whole battle (the log, the reports, the HUD).
        self.names = formation_names(self.rules, match.loaded.scenario, match.record.settings.roster)
        # Two at one screen: what each waiting player's formations see of the other turns.
        self.watch = WatchReports(describe or (lambda ev: None))
        self.watch.begin(self)
        # Whether the viewing side saw anything of the last action (an unseen one is not waited for).
        self.last_seen = True

    state = Forward[GameState]("match", "state")
    engine = Forward[Engine]("match", "engine")

    # -- who plays ------------------------------------------------------------------------

    def is_human(self, side: str) -> bool:
        """Whether a person commands ``side`` (every such question of the battle asks here)."""
        return self.match.seats.is_human(side)

    def humans(self) -> list[str]:
        """The sides people command, in side order."""
        return self.match.seats.humans()

    def first_human(self) -> str | None:
        humans = self.humans()
        return humans[0] if humans else None

    def side_name(self, side: str) -> str:
        return side_name(self.match.loaded.scenario, side)

    def is_hotseat(self) -> bool:
        return len(self.humans()) >= 2

    def human_to_move(self) -> bool:
        return not self.state.over and self.is_human(self.state.active_side.id)

    def computer_to_decide(self) -> bool:
        """Whether the computer decides now: its side's turn, or its answer to a challenge."""
        return not self.state.over and not self.is_human(self.engine.deciding_side())

    def human_to_decide(self) -> bool:
        """Whether a person decides now: their side's turn, or their answer to a challenge."""
        return not self.state.over and self.is_human(self.engine.deciding_side())

    # -- what is seen ---------------------------------------------------------------------

    def fog_side(self) -> str | None:
        """The side whose eyes are on the screen; None when everything is shown."""
        if self.view_side is not None:
            return None if self.view_side == "all" else self.view_side
        if not self.humans():
            return None
        return self.viewer or self.first_human()

    def view(self, side: str | None = None) -> SideView:
        """What ``side`` (by default the side whose eyes are on the screen) sees and knows now."""
        return self.side_views.of(self.state, side or self.fog_side())

    def seen_ids(self, side: str | None = None) -> set[str]:
        """Formations ``side`` (by default the viewing side) sees; every one when none views."""
        return set(self.view(side).seen_ids)

    def witnessed_by(self, ev: Event, side: str, seen_before: set[str]) -> bool:
        """Whether ``side`` saw ``ev`` happen (``witness.witnessed``): ``seen_before`` is what it
        saw just before the action; in hotseat a narration is heard only where it could be."""
        sight = sight_around(self.view(side).sight, seen_before)
        scenario = self.match.loaded.scenario
        return witnessed(ev, side, sight, self.state, scenario, self.rules, self.is_hotseat())

    def in_sight(self, path: tuple[Hex, ...] | list[Hex]) -> list[Hex]:
        """The part of a path the viewing side can see."""
        fog = self.view().fog
        return list(path) if fog is None else [h for h in path if h in fog.visible]

    # -- what is chosen -------------------------------------------------------------------

    @property
    def selected(self) -> str | None:
        """The formation chosen (its id), if any."""
        return self.choice.selected

    @selected.setter
    def selected(self, fid: str | None) -> None:
        self.choice.selected = fid

    def selected_formation(self) -> Formation | None:
        return self.choice.formation(self.engine)

    def knowing_engine(self, side: str) -> Engine:
        """The engine on what ``side`` knows of the field, for its forecasts (a hidden enemy
        hero's aura or an unseen formation's weight must not show in the odds)."""
        return self.engine.seeing(self.view(side).state)

    def pending_forecast(self) -> Forecast | None:
        """The odds of the attack being aimed, as the attacking side knows the field: a hidden
        enemy hero's aura or an unseen formation's weight stays out of it, or the forecast
        would give them away (the blow itself meets them all the same)."""
        blow = self.choice.pending_attack
        if blow is None:
            return None
        try:
            knowing = self.knowing_engine(self.state.active_side.id)
            if self.choice.pending_march is not None:
                # The odds from where the march will leave it (with the run-up of a charge).
                knowing = knowing.clone()
                knowing.apply(self.choice.pending_march)
            return knowing.forecast(blow)
        except IllegalAction:
            return None

    def thunder_forecast(self, hover: Hex | None) -> list[tuple[str, Forecast]]:
        """The palm thunder's odds on what it would strike at ``hover``, worked out on what the
        throwing side knows (as the attack forecast is)."""
        sel = self.selected_formation()
        if not self.choice.aiming_thunder or sel is None or hover is None:
            return []
        try:
            return self.knowing_engine(sel.side).blast_forecast(Blast(unit=sel.id, at=hover))
        except IllegalAction:
            return []

    def marks(self, hover: Hex | None) -> ChoiceMarks:
        """What the choice shows on the map, with the pointer on ``hover``."""
        fog = self.view().fog
        board = self.match.loaded.scenario.board
        return self.choice.marks(self.engine, board, hover, None if fog is None else fog.visible)

    def ready_formations(self) -> list[Formation]:
        """The side's formations that can still be given an order this turn."""
        return [f for f in self.state.formations_of(self.state.active_side.id) if not f.acted and not f.routed]

    def can_undo(self) -> bool:
        return self.match.can_undo()

    def settle(self) -> None:
        """After the game or the choice changed: the choice follows (``OrderInput.settle``); the
        session does it after each of its own changes."""
        side = self.state.active_side.id
        self.choice.settle(self.engine, self.knowing_engine(side) if self.fog_side() is not None else None)

    # -- orders ---------------------------------------------------------------------------

    def submit(self, action: Action) -> Outcome:
        """Apply ``action`` through the match: what the viewer witnessed of it, or why not."""
        before = {f.id: f.pos for f in self.state.formations.values()}
        pouches = {s.id: s.pouch for s in self.state.sides}
        by_computer = not self.human_to_move()
        seen_before = self.seen_ids()
        self.watch.before(self)
        try:
            events = self.match.apply(action)
        except IllegalAction as exc:
            unit = getattr(action, "unit", None)
            return Outcome("refused", message=refusal_text(exc, unit if isinstance(unit, str) else None, self.names))
        self.watch.after(self, events)
        # Only what the viewing side saw is shown and told.
        side = self.fog_side()
        shown = [ev for ev in events if side is None or self.witnessed_by(ev, side, seen_before)]
        self.last_seen = bool(shown)
        spotted: tuple[str, ...] = ()
        if any(isinstance(ev, Moved) and ev.interrupted for ev in shown):
            # What stopped the march: the enemies it brought into view.
            mover = side or self.state.active_side.id
            new = self.seen_ids() - seen_before
            spotted = tuple(fid for fid in sorted(new) if (f := self.state.formations.get(fid)) and f.side != mover)
        self.settle()
        return Outcome(
            "applied",
            events=tuple(shown),
            selected=self.selected,
            before=before,
            pouches=pouches,
            spotted=spotted,
            by_computer=by_computer,
        )

    def submit_after(self, first: Action | None, action: Action, before: Outcome | None = None) -> Outcome:
        """Apply ``first`` (a skill armed for this move or blow), then ``action``, as one order:
        one outcome for both, and for ``before`` (what was applied just before them). A refused
        step stops there, its reason told; the skill is spent only with its move."""
        done = before
        for step in (first, action):
            if step is None:
                continue
            out = self.submit(step)
            done = out if done is None else self._joined(done, out)
            if not out.applied:
                break
        assert done is not None
        return done

    @staticmethod
    def _joined(used: Outcome, then: Outcome) -> Outcome:
        """Two actions given as one order, as one outcome: the refusal of the second is told."""
        if not then.applied:
            return replace(used, message=then.message)
        return replace(then, events=used.events + then.events, before=used.before, pouches=used.pouches)

    def click(self, h: Hex) -> Outcome:
        """A left click on the map: select, move, or aim a blow (its forecast comes back)."""
        if not self.human_to_move():
            return NOTHING
        occupant = self.view(self.state.active_side.id).formation_at(h)  # an order into the fog is a move there
        return self._carry_out(self.choice.click(self.engine, h, occupant))

    def order(self, order: str) -> Outcome:
        """An order from the bar or its key for the chosen formation, or ``undo``."""
        if not self.human_to_move():
            return NOTHING
        if order == "undo":
            if self.match.undo():
                self.settle()
                return Outcome("undone", message=_("Move taken back"), selected=self.selected)
            return Outcome("refused", message=_(UNDO_REFUSALS[self.match.undo_refusal]))
        return self._carry_out(self.choice.order(self.engine, order))

    def hero_order(self, order: str) -> Outcome:
        """A hero's skill or challenge: given at once, or aimed by the next click."""
        if not self.human_to_move():
            return NOTHING
        reading = self.choice.hero_order(self.engine, self.rules, order)
        if reading.kind == "toggle":
            self.settle()  # the reach as it will be with the skill, or without it again
            skill = _(self.rules.skills[order].name)
            if self.choice.armed == order:
                text = _("{skill}: it is used as this formation's move or blow is given.").format(skill=skill)
            else:
                text = _("{skill}: held back.").format(skill=skill)
            return Outcome("toggled", message=text, selected=self.selected)
        return self._carry_out(reading)

    def confirm_attack(self) -> Outcome:
        """The blow aimed, given."""
        blow, march = self.choice.pending_attack, self.choice.pending_march
        if blow is None:
            return NOTHING
        first = self.choice.take_armed(self.engine)
        if march is None:
            return self.submit_after(first, blow)
        marched = self.submit_after(first, march)
        if not marched.applied:
            return marched
        if not self.engine.is_legal(blow):
            # The march was cut short (an ambush, an enemy coming into view): no blow is struck.
            return replace(marched, message=_("The march was cut short: no blow was struck."))
        return self.submit_after(None, blow, before=marched)

    def cancel(self) -> Literal["aim", "attack", "selection", "nothing"]:
        """Take back the last thing chosen, one step at a time (``OrderInput.cancel``)."""
        taken = self.choice.cancel()
        if taken == "aim":
            self.settle()  # a skill disarmed: the reach is the formation's own again
        return taken

    def choose(self, fid: str) -> bool:
        """Choose formation ``fid`` (a row of the unit list) when it may be ordered now."""
        f = self.state.formations.get(fid)
        if f is None or not self.human_to_move() or f.side != self.state.active_side.id:
            return False
        if self.choice.aiming is not None:
            return False
        self.choice.choose(fid)
        return True

    def select_next(self) -> str | None:
        """Choose the next of the side's formations that can still act (Tab): its id."""
        if not self.human_to_move():
            return None
        ids = [f.id for f in self.ready_formations()]
        if not ids:
            return None
        nxt = ids[(ids.index(self.selected) + 1) % len(ids)] if self.selected in ids else ids[0]
        self.choice.choose(nxt)
        return nxt

    def end_turn(self, warn: bool = False) -> Outcome:
        """End the turn; with ``warn`` and formations that can still act, only say how many."""
        if not self.human_to_move():
            return NOTHING
        ready = len(self.ready_formations())
        if ready and warn:
            text = ngettext(
                "{n} formation can still act this turn.", "{n} formations can still act this turn.", ready
            ).format(n=ready)
            return Outcome("warning", message=text, selected=self.selected)
        self.selected = None
        return self.submit(EndTurn())

    def _carry_out(self, reading: Reading) -> Outcome:
        """Do what the player's click or order meant (``choice.Reading``)."""
        if reading.kind == "act" and reading.action is not None:
            return self.submit_after(reading.first, reading.action)
        if reading.kind in ("select", "toggle"):
            self.settle()  # the reach of the formation chosen, or of a march forced or not
            return Outcome("selected" if reading.kind == "select" else "toggled", selected=self.selected)
        if reading.kind == "forecast":
            return Outcome("forecast", forecast=self.pending_forecast(), selected=self.selected)
        if reading.kind == "beyond" and reading.action is not None:
            return self._beyond(reading.action)
        if reading.kind == "aim":
            thunder = self.choice.aiming_thunder
            text = _("Palm thunder: click the hex to strike") if thunder else _("Click the target")
            return Outcome("aiming", message=text, selected=self.selected)
        return NOTHING

    def _beyond(self, action: Action) -> Outcome:
        """Why the chosen formation cannot do what the click asked this turn."""
        f = self.selected_formation()
        if f is None:
            return NOTHING
        try:
            self.knowing_engine(f.side).clone().apply(action)
            return NOTHING  # it could, after all
        except IllegalAction as exc:
            if exc.reason != "not_adjacent":
                return Outcome("refused", message=refusal_text(exc, f.id, self.names), selected=self.selected)
        target = getattr(action, "target", None)
        text = _("{t} is beyond the reach of {u} this turn: no hex next to it can be reached.").format(
            t=self.names.get(str(target), str(target)), u=self.names.get(f.id, f.id)
        )
        return Outcome("refused", message=_("Not allowed: {reason}").format(reason=text), selected=self.selected)

    # -- whose eyes -----------------------------------------------------------------------

    def hand_over(self, briefings: bool) -> HandOver | None:
        """When a human side other than the one viewing is to move, the screen becomes its
        (``HandOver``); None when it stays as it is. ``briefings``: the player reads briefings."""
        side = self.state.active_side.id
        if not self.is_human(side) or self.viewer == side:
            return None
        previous, self.viewer = self.viewer, side
        # Each player reads the briefing before their first orders (behind the hand-over in
        # hotseat, so it is read by the right person).
        brief = self.curtains and briefings and side not in self.briefed and self.state.turn == 1
        if brief:
            self.briefed.add(side)
        log = tuple(self.watch.take_log(side))
        if not (self.curtains and self.is_hotseat()):
            return HandOver(side, previous, brief, curtain=False, log=log)
        # What the last player chose and saw leaves with them.
        self.choice.let_go()
        report = self.watch.report(side) if previous is not None else None  # the first waited for nothing
        reloads = [reload_notice(r, self.side_name(r.by)) for r in untold(self.match.record.reloads, side)]
        if reloads:
            report = "\n\n".join([*reloads, *([report] if report else [])])
        heard = tuple(self.watch.narrations(side))
        return HandOver(side, previous, brief, curtain=True, log=log, report=report, heard=heard)


def reload_notice(reload: Reload, by: str) -> str:
    """What the other side is told of a reload that went back (``record.reloads``)."""
    return ngettext(
        "{side} loaded an earlier save: from turn {start} back to turn {back}, {n} order undone.",
        "{side} loaded an earlier save: from turn {start} back to turn {back}, {n} orders undone.",
        reload.undone,
    ).format(side=by, start=reload.from_turn, back=reload.to_turn, n=reload.undone)
