"""Campaign progress on disk: one JSON file per campaign in the saves folder, written
atomically after every battle and every camp order, read as defensively as any save."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from ..core.campaign import PROGRESS_FORMAT, PROGRESS_VERSION, CampaignProgress
from .errors import SaveError
from .saves import check_version, damaged, decode_json, own_path, read_save_bytes, write_atomic


def progress_path(campaign_id: str, saves_dir: Path) -> Path:
    return own_path(f"campaign-{campaign_id}", saves_dir)


def save_progress(progress: CampaignProgress, saves_dir: Path) -> Path:
    path = progress_path(progress.campaign_id, saves_dir)
    try:
        write_atomic(path, progress.model_dump_json(indent=1))
    except OSError as exc:
        raise SaveError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path


def load_progress(campaign_id: str, saves_dir: Path) -> CampaignProgress | None:
    """The saved progress of a campaign; None when it has not been started. A damaged file is
    a SaveError (and is left as it is)."""
    path = progress_path(campaign_id, saves_dir)
    if not path.exists():
        return None
    name = str(path)
    data = decode_json(read_save_bytes(path), name)
    if not isinstance(data, dict) or data.get("format") != PROGRESS_FORMAT:
        raise SaveError(f"{name}: not a Qiankun campaign file")
    check_version(data, name, PROGRESS_VERSION)
    try:
        progress = CampaignProgress.model_validate(data)
    except ValidationError as exc:
        raise SaveError(damaged(name, exc)) from None
    except RecursionError:
        raise SaveError(f"{name}: not a save file (nested too deeply)") from None
    if progress.campaign_id != campaign_id:
        raise SaveError(f"{name}: holds campaign {progress.campaign_id!r}, not {campaign_id!r}")
    return progress


def delete_progress(campaign_id: str, saves_dir: Path) -> None:
    path = progress_path(campaign_id, saves_dir)
    try:
        path.unlink(missing_ok=True)
    except OSError as exc:
        raise SaveError(f"cannot delete {path}: {exc.strerror or exc}") from None
