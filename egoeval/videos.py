"""Where a task's video is on this machine.

EgoBench tasks name files (``retail1.mp4``, ``Green Pepper Chicken.mp4``, sometimes
``.MOV``, sometimes a URL whose last part is the file) that users download from the
EgoBench authors or find in a clone of their repository (``scenarios/final/video/``);
egoeval does not ship them. ``--video-dir`` (or ``EGOEVAL_VIDEO_DIR``, or
``EGOBENCH_VIDEO_DIR``) points at the folder, searched recursively, and a task's file is
found by its stem, case-insensitively, with any video extension.
Demo tasks' clips are generated into the media cache on first use.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from egoeval.task import Task

VIDEO_SUFFIXES = (".mp4", ".mov", ".m4v", ".mkv", ".webm", ".avi")


class VideoMissing(Exception):
    """A task's video cannot be found (an infrastructure problem, not the agent's)."""


def video_dir(explicit: str | os.PathLike | None = None) -> Path | None:
    """``--video-dir``, else ``EGOEVAL_VIDEO_DIR``, else ``EGOBENCH_VIDEO_DIR`` (the name
    the EgoBench repository's own scripts use); None when none is set."""
    value = explicit or os.environ.get("EGOEVAL_VIDEO_DIR") or os.environ.get("EGOBENCH_VIDEO_DIR")
    return Path(value) if value else None


def video_stem(name: str) -> str:
    """The file stem a task's video is found by: ``image_path`` entries may be URLs
    (``http://host/leqi/restaurant5.MOV``) or plain names, any case, any extension."""
    if "://" in name:
        from urllib.parse import unquote, urlparse

        name = unquote(urlparse(name).path)
    return Path(name.replace("\\", "/")).stem.casefold()


@lru_cache(maxsize=8)
def _index(folder: str) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for root, _, files in os.walk(folder):
        for name in sorted(files):
            p = Path(root) / name
            if p.suffix.lower() in VIDEO_SUFFIXES:
                found.setdefault(p.stem.casefold(), p)
    return found


def find_video(name: str, folder: Path | None) -> Path:
    """The file for a task's video name in ``folder``; raises :class:`VideoMissing`."""
    if folder is None:
        raise VideoMissing(f"video {name!r} needs --video-dir (or EGOEVAL_VIDEO_DIR): EgoBench videos are "
                           f"downloaded from the EgoBench authors, not shipped with egoeval")
    if not folder.is_dir():
        raise VideoMissing(f"video folder {folder} does not exist")
    path = _index(str(folder.resolve())).get(video_stem(name))
    if path is None:
        raise VideoMissing(f"video {name!r} is not in {folder} (looked for any of "
                           f"{', '.join(VIDEO_SUFFIXES)} by name, ignoring case)")
    return path


def resolve_video(task: Task, folder: Path | None = None) -> Path:
    """The video file of ``task``, as its suite finds it (a clip it makes, or a file in
    ``folder``)."""
    from egoeval.suites import suite_of

    return suite_of(task.id).video_path(task, folder)


def missing_videos(tasks: list[Task], folder: Path | None) -> dict[str, list[str]]:
    """Video names that cannot be found, each with the ids of the tasks that need it."""
    from egoeval.suites import suite_of

    out: dict[str, list[str]] = {}
    for t in tasks:
        try:
            suite_of(t.id).video_path(t, folder)
        except VideoMissing:
            out.setdefault(t.video, []).append(t.id)
    return out
