"""The command line (README "Command line"). Bad input gets one clear line and a non-zero exit, never a
traceback; set QIANKUN_DEBUG=1 to see tracebacks of unexpected errors."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import NoReturn

from . import i18n
from .content.campaigns import CAMPAIGNS_FILE, load_campaigns_file
from .content.errors import ContentError, ContentErrors
from .content.ruleset import RULESET_FILES, load_ruleset, load_ruleset_from, read_toml
from .content.scenarios import load_scenario, load_scenario_file, scenario_ids, scenario_paths
from .paths import DATA_DIR, MAPS_DIR

EXIT_OK = 0
EXIT_FAIL = 1
EXIT_BAD_INPUT = 2


class CliError(Exception):
    """Bad input: printed as one line, exit code 2 unless given."""

    def __init__(self, message: str, code: int = EXIT_BAD_INPUT) -> None:
        super().__init__(message)
        self.code = code


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line instead of usage + error
        raise CliError(f"{self.prog}: {message} (see --help)")


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WxH, like 1280x800, not {text!r}") from None
    if not (200 <= w <= 8192 and 200 <= h <= 8192):
        raise argparse.ArgumentTypeError("width and height must be between 200 and 8192")
    return w, h


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must not be negative")
    return value


# Bounds of the numbers the commands take (a seed is what a save can hold, ``model.MAX_SEED``).
MAX_SEED = (1 << 63) - 1
MAX_GAMES = 1_000_000
MAX_JOBS = 64
MAX_TURNS = 500  # a scenario's own turn limit is at most this (``ScenarioFile.turn_limit``)


def _at_most(high: int, low: int = 1):
    """An argument type: a whole number from ``low`` to ``high``, the bound named if it is not."""

    def parse(text: str) -> int:
        value = _non_negative(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, not {value}")
        return value

    return parse


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="qiankun", description="Qiankun, a turn-based hex strategy game.")
    p.add_argument("--lang", choices=list(i18n.LANGUAGES), help="language of the game text")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)

    play = sub.add_parser("play", help="go straight into a battle")
    play.add_argument("scenario")
    play.add_argument("--side", help="the side you command (default: the scenario's player side)")
    play.add_argument("--hotseat", action="store_true", help="two players at one screen: every side human")
    play.add_argument("--difficulty", choices=["easy", "normal", "hard"], default="normal")
    play.add_argument("--seed", type=_at_most(MAX_SEED, 0))

    sc = sub.add_parser("scenarios", help="list the scenarios")
    sc.add_argument("--json", action="store_true")

    sim = sub.add_parser("simulate", help="AI against AI, headless")
    sim.add_argument("scenario")
    sim.add_argument("--seed", type=_at_most(MAX_SEED, 0), default=1)
    sim.add_argument("--games", type=_at_most(MAX_GAMES), default=1)
    sim.add_argument(
        "--jobs", type=_at_most(MAX_JOBS), default=1, help="worker processes (no more than games or cores)"
    )
    sim.add_argument("--max-turns", type=_at_most(MAX_TURNS))
    sim.add_argument("--save-dir", type=Path)
    sim.add_argument(
        "--difficulty",
        action="append",
        default=[],
        metavar="[SIDE=]LEVEL",
        help="easy, normal or hard: for every side, or SIDE=LEVEL for one (repeatable)",
    )
    sim.add_argument("--json", action="store_true")

    rp = sub.add_parser("replay", help="replay a saved game")
    rp.add_argument("save", type=Path)
    rp.add_argument("--verify", action="store_true", help="re-run headless and check every checkpoint")

    va = sub.add_parser("validate", help="check maps, scenarios and data")
    va.add_argument("paths", nargs="*", type=Path)

    sh = sub.add_parser("screenshot", help="render one frame headless")
    sh.add_argument("source", help="a scenario id or a save file")
    sh.add_argument("--out", type=Path, required=True)
    sh.add_argument("--turn", type=_at_most(MAX_TURNS + 1))
    sh.add_argument("--size", type=_size, default=(1280, 800))
    sh.add_argument("--view", default="all", help="a side id, or 'all'")
    return p


# -- commands ------------------------------------------------------------------------------


def _loaded(scenario_id: str):
    try:
        return load_scenario(scenario_id)
    except KeyError:
        known = ", ".join(scenario_ids()) or "none"
        raise CliError(f"unknown scenario {scenario_id!r} (known: {known})") from None
    except ContentErrors as exc:
        raise CliError(f"scenario {scenario_id!r} is broken: {exc.errors[0]}") from None


def cmd_scenarios(args: argparse.Namespace) -> int:
    rows = []
    for sid in scenario_ids():
        sc = _loaded(sid).scenario
        rows.append(
            {
                "id": sc.id,
                "title": i18n._(sc.title),
                "campaign": sc.campaign,
                "sides": [{"id": s.id, "faction": s.faction, "role": s.role} for s in sc.sides],
                "map_size": [sc.board.width, sc.board.height],
            }
        )
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))
    else:
        for r in rows:
            sides = " vs ".join(s["id"] for s in r["sides"])
            w, h = r["map_size"]
            print(f"{r['id']:<22} {r['title']:<24} {r['campaign'] or '-':<10} {sides}  {w}x{h}")
    return EXIT_OK


SimJob = tuple[str, int, int | None, str | None, str, dict[str, str]]


def _simulate_one(job: SimJob) -> dict:
    from .simulate import run_game

    scenario_id, seed, max_turns, save_dir, difficulty, per_side = job
    save = Path(save_dir) if save_dir else None
    return run_game(load_scenario(scenario_id), seed, max_turns, save, difficulty, per_side)


def parse_difficulties(values: Sequence[str], side_ids: Sequence[str]) -> tuple[str, dict[str, str]]:
    """``--difficulty`` values: ``LEVEL`` for every side, ``SIDE=LEVEL`` for one side. Returns
    (every side's level, the sides' own levels)."""
    from .core.game_settings import DIFFICULTIES

    default, per_side = "normal", {}
    for value in values:
        side, _eq, level = value.rpartition("=")
        if level not in DIFFICULTIES:
            raise CliError(f"unknown difficulty {level!r} in --difficulty {value} (levels: {', '.join(DIFFICULTIES)})")
        if not _eq:
            default = level
        elif side in side_ids:
            per_side[side] = level
        else:
            raise CliError(f"unknown side {side!r} in --difficulty {value} (sides: {', '.join(side_ids)})")
    return default, per_side


def cmd_simulate(args: argparse.Namespace) -> int:
    from .record.errors import SaveError
    from .simulate import Tally

    side_ids = list(_loaded(args.scenario).scenario.side_ids())
    default, per_side = parse_difficulties(args.difficulty, side_ids)
    last_seed = args.seed + args.games - 1
    if last_seed > MAX_SEED:
        raise CliError(
            f"--seed {args.seed} with --games {args.games} would reach seed {last_seed}, "
            f"above the largest seed {MAX_SEED}"
        )
    save_dir = None if args.save_dir is None else str(_writable_folder(args.save_dir, "--save-dir"))
    # Made as they are played: memory does not grow with --games.
    jobs: Iterator[SimJob] = (
        (args.scenario, args.seed + i, args.max_turns, save_dir, default, per_side) for i in range(args.games)
    )
    progress = _Progress(args.games) if sys.stderr.isatty() else None
    workers = min(args.jobs, args.games, _cores())
    tally = Tally(side_ids)
    try:
        if workers > 1:
            from concurrent.futures import ProcessPoolExecutor

            with ProcessPoolExecutor(max_workers=workers) as pool:
                _print_results(_in_order(pool, jobs, 2 * workers), args.json, progress, tally)
        else:
            _print_results(map(_simulate_one, jobs), args.json, progress, tally)
    except SaveError as exc:
        raise CliError(str(exc)) from None
    summary = tally.summary()
    if args.json:
        print(json.dumps({"summary": summary}, ensure_ascii=False), flush=True)
    else:
        from .simulate import summary_table

        print(summary_table(summary), flush=True)
    return EXIT_OK


def _cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _in_order(pool, jobs, ahead: int):
    """The games' results in seed order, with at most ``ahead`` games queued at a time."""
    from collections import deque

    pending: deque = deque()
    for job in jobs:
        pending.append(pool.submit(_simulate_one, job))
        if len(pending) >= ahead:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def _writable_folder(folder: Path, option: str) -> Path:
    """``folder``, made if needed, once it proves writable; CliError naming the option if not."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not folder.is_dir():
            raise NotADirectoryError(20, "not a folder")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise PermissionError(13, "not writable")
    except OSError as exc:
        raise CliError(f"cannot use {option} {folder}: {exc.strerror or exc}") from None
    return folder


class _Progress:
    """``12/100 games, 3.1 s`` rewritten in place on a terminal's stderr."""

    def __init__(self, total: int) -> None:
        import time

        self.total = total
        self.clock = time.perf_counter
        self.start = self.clock()

    def show(self, done: int) -> None:
        end = "\n" if done >= self.total else ""
        print(f"\r{done}/{self.total} games, {self.clock() - self.start:.1f} s", end=end, file=sys.stderr, flush=True)


def _print_results(results, as_json: bool, progress: _Progress | None, tally) -> None:
    """Print each game's line in seed order as it comes, counting it in ``tally``."""
    from .simulate import AI_SAMPLES

    if progress is not None:
        progress.show(0)
    for r in results:
        tally.add(r)
        r = {k: v for k, v in r.items() if k != AI_SAMPLES}
        if progress is not None:
            print("\r\033[K", end="", file=sys.stderr, flush=True)  # the line is not left under the output
        if as_json:
            print(json.dumps(r, ensure_ascii=False), flush=True)
        else:
            sides = ", ".join(f"{s['id']} {s['men_start']:,}→{s['men_end']:,}" for s in r["sides"])
            print(
                f"seed {r['seed']}: winner {r['winner'] or 'none'} after {r['turns']} turns, "
                f"{r['actions']} actions; {sides}; AI ms median {r['ai_ms']['median']}",
                flush=True,
            )
        if progress is not None:
            progress.show(tally.games)


def cmd_replay(args: argparse.Namespace) -> int:
    from .record.errors import SaveError
    from .record.made_with import scenario_for
    from .record.saves import load_record
    from .record.snapshot import settings_problem
    from .record.verify import verify

    try:
        record = load_record(args.save)
        if args.verify:
            loaded = scenario_for(record)
            problem = settings_problem(record, loaded.scenario)
            if problem:
                raise SaveError(f"damaged save: {problem}")
            result = verify(record, loaded)
    except SaveError as exc:
        raise CliError(_naming_file(args.save, exc)) from None
    if not args.verify:
        return _open_replay(record, args.lang)
    if result.ok and not result.chained:
        # Exact as far as it can tell, which is less than a record of format 3 or later tells.
        print(
            f"ok by state only: actions={result.actions} turns={result.turns} hash={result.hash} "
            "(begun in format 2 or older, its checkpoints hold no digest of the actions: an action changed, "
            "moved, added or removed without changing the state at a turn's end would not show)"
        )
        return EXIT_OK
    if result.ok:
        print(f"ok actions={result.actions} turns={result.turns} hash={result.hash}")
        return EXIT_OK
    print(f"mismatch: {result.problem}")
    return EXIT_FAIL


def _naming_file(path: Path, exc: Exception) -> str:
    """A save's error message, starting with the file it is about."""
    message = str(exc)
    return message if message.startswith(str(path)) else f"{path}: {message}"


def _open_replay(record, lang: str | None) -> int:
    """Open the replay viewer on the saved game, at its start."""
    from .record.errors import SaveError
    from .record.privacy import hides_each_side
    from .record.replay_cursor import ReplayCursor

    if hides_each_side(record):
        raise CliError("a battle between two players that is not over: the replay would show each the other's army")
    try:
        cursor = ReplayCursor(record)  # a changed or unknown scenario is refused before any window opens
    except SaveError as exc:
        raise CliError(str(exc)) from None
    from .ui.app import start

    start(lang, "replay", record=record, cursor=cursor)
    return EXIT_OK


def cmd_validate(args: argparse.Namespace) -> int:
    errors: list[ContentError] = []
    files = 0
    paths: list[Path] = list(args.paths) or [DATA_DIR, MAPS_DIR]
    for path in paths:
        if not _exists(path):
            raise CliError(f"{path}: no such file or folder")
        n, errs = _validate_path(path)
        files += n
        errors += errs
    if errors:
        for e in errors:
            print(e)
        return EXIT_FAIL
    print(f"ok {files} files")
    return EXIT_OK


def _validate_path(path: Path) -> tuple[int, list[ContentError]]:
    """(files checked, errors) for a data folder, a maps folder, or one file."""
    if path.is_dir():
        if (path / "units.toml").exists():
            return _validate_ruleset(path)
        return _validate_folder(path)
    if path.name in RULESET_FILES:
        return _validate_ruleset(path.parent)
    if path.name == CAMPAIGNS_FILE.name or (path.suffix == ".toml" and "campaigns" in (read_toml(path, []) or {})):
        return _validate_campaigns(path)
    if path.suffix == ".toml":
        try:
            load_scenario_file(path, _shipped_rules())
        except ContentErrors as exc:
            return 2, exc.errors
        return 2, []
    if path.suffix == ".tmx":
        from .content.tmx import load_tmx

        errs = []
        # A map is checked through the scenarios that use it: only they say which sides and
        # unit types its formation objects may name.
        owners = [p for p in scenario_paths(path.parent) if _map_of(p) == path.name]
        for owner in owners:
            try:
                load_scenario_file(owner, _shipped_rules())
            except ContentErrors as exc:
                errs += [e for e in exc.errors if e not in errs]
        if not owners:
            load_tmx(path, _shipped_rules(), errs)
        return 1, errs
    return 0, [ContentError(str(path), "-", "-", "not a scenario (.toml), map (.tmx) or data folder")]


def _validate_folder(path: Path) -> tuple[int, list[ContentError]]:
    """Every scenario in a folder, and every map no scenario uses; a folder without a scenario
    is an error saying what it holds (a map alone cannot say which sides and units it may name)."""
    scenarios = scenario_paths(path)
    total, errs = 0, []
    for p in scenarios:
        n, e = _validate_path(p)
        total += n
        errs += e
    used = {_map_of(p) for p in scenarios}
    maps = sorted(p for p in path.glob("*.tmx") if p.name not in used)
    for p in maps:
        n, e = _validate_path(p)
        total += n
        errs += e
    if not scenarios:
        if maps:
            found = f"{len(maps)} map{'s' if len(maps) > 1 else ''} (.tmx) but no scenario (.toml): "
            found += "formations are checked through the scenario that uses their map"
        else:
            found = "nothing to validate: no scenario (.toml), map (.tmx) or data (units.toml) in it"
        errs.append(ContentError(str(path), "-", "-", found))
    return total, errs


def _map_of(scenario_toml: Path) -> str | None:
    """The map file a scenario names, if its TOML can be read at all."""
    data = read_toml(scenario_toml, [])
    return data.get("map") if data else None


def _validate_ruleset(folder: Path) -> tuple[int, list[ContentError]]:
    try:
        rules = load_ruleset_from(folder)
    except ContentErrors as exc:
        return len(RULESET_FILES), exc.errors
    if not (folder / CAMPAIGNS_FILE.name).exists():
        return len(RULESET_FILES), []
    n, errs = _validate_campaigns(folder / CAMPAIGNS_FILE.name, rules)
    return len(RULESET_FILES) + n, errs


def _validate_campaigns(path: Path, rules=None) -> tuple[int, list[ContentError]]:
    """The campaigns, checked against the shipped scenarios they list."""
    try:
        load_campaigns_file(path, rules or _shipped_rules(), MAPS_DIR)
    except ContentErrors as exc:
        return 1, exc.errors
    return 1, []


def _shipped_rules():
    try:
        return load_ruleset()
    except ContentErrors as exc:
        raise CliError(f"the game's own data is broken: {exc.errors[0]}", EXIT_FAIL) from None


def cmd_screenshot(args: argparse.Namespace) -> int:
    from .record.errors import SaveError
    from .record.match import match_at_turn, new_match
    from .record.saves import load_record

    source, out, turn = args.source, args.out, args.turn
    _check_out(out, ".png", "the screenshot")
    try:
        if source in scenario_ids():
            if turn not in (None, 1):
                raise CliError("--turn needs a save file; a scenario starts at turn 1")
            _loaded(source)  # a broken scenario is refused here, as by every command
            match = new_match(source, {}, seed=0)
        else:
            path = Path(source)
            if not _exists(path):
                raise CliError(f"{source!r} is neither a scenario id nor a save file")
            match = match_at_turn(load_record(path), turn)
    except SaveError as exc:
        raise CliError(_naming_file(Path(source), exc)) from None
    sides = [s.id for s in match.state.sides]
    if args.view != "all" and args.view not in sides:
        raise CliError(f"--view must be 'all' or a side id ({', '.join(sides)})")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from .ui.snapshot import render_screenshot

    try:
        render_screenshot(match, out, args.size, args.view)
    except OSError as exc:
        raise CliError(f"cannot write {out}: {exc.strerror or exc}") from None
    print(f"wrote {out}")
    return EXIT_OK


def _exists(path: Path) -> bool:
    """Whether ``path`` exists; a path the system cannot even look up is a CliError."""
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except (OSError, ValueError) as exc:  # too long, a loop of links, a NUL byte...
        raise CliError(f"{path}: {getattr(exc, 'strerror', None) or exc}") from None
    return True


def _check_out(out: Path, suffix: str, what: str) -> None:
    """A file a command is to write: in a folder that exists and may be written, not a folder."""
    if out.suffix.lower() != suffix:
        raise CliError(f"{out}: {what} must be a {suffix} file")
    if _exists(out) and out.is_dir():
        raise CliError(f"cannot write {out}: it is a folder")
    folder = out.parent
    if not _exists(folder):
        raise CliError(f"cannot write {out}: folder {folder} does not exist")
    if not folder.is_dir():
        raise CliError(f"cannot write {out}: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise CliError(f"cannot write {out}: folder {folder} is not writable")


def cmd_play(args: argparse.Namespace) -> int:
    loaded = _loaded(args.scenario)
    side_ids = loaded.scenario.side_ids()
    side = args.side or loaded.scenario.default_player_side()
    if side not in side_ids:
        raise CliError(f"unknown side {side!r} for {args.scenario} (sides: {', '.join(side_ids)})")
    from .record.match import new_match
    from .record.seats import Commander

    controllers: dict[str, Commander] = {s: ("human" if args.hotseat or s == side else "ai") for s in side_ids}
    from .ui.app import start

    start(args.lang, "battle", match=new_match(args.scenario, controllers, args.seed, args.difficulty))
    return EXIT_OK


COMMANDS = {
    "play": cmd_play,
    "scenarios": cmd_scenarios,
    "simulate": cmd_simulate,
    "replay": cmd_replay,
    "validate": cmd_validate,
    "screenshot": cmd_screenshot,
}


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        i18n.set_language(args.lang or i18n.detect_language())
        if args.command is None:
            from .ui.app import start

            start(args.lang)
            return EXIT_OK
        return COMMANDS[args.command](args)
    except CliError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.code
    except ContentErrors as exc:
        print(f"error: {exc.errors[0]}", file=sys.stderr)
        return EXIT_FAIL
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # a bug, not bad input: still one line unless debugging
        if os.environ.get("QIANKUN_DEBUG"):
            raise
        print(f"error: internal error: {type(exc).__name__}: {exc} (set QIANKUN_DEBUG=1 for details)", file=sys.stderr)
        return 70


def run() -> None:
    sys.exit(main())
