"""The one exception of the media layer.

Every failure to read, decode, sample, transcribe or synthesise media becomes a
:class:`MediaError` with a message a person can act on (which file, what is wrong),
so callers (tools, the runner, the CLI) can record it as a result instead of crashing.
"""

from __future__ import annotations

from pathlib import Path


class MediaError(Exception):
    """Media that cannot be used, and why."""

    def __init__(self, message: str, path: str | Path | None = None):
        self.path = str(path) if path is not None else None
        super().__init__(f"{self.path}: {message}" if self.path else message)
