"""An episode's sandboxed workspace: the only place an agent's tools may write files.

Agents name files with relative paths they choose, so every name is checked before it
touches the disk: no absolute paths, no ``..``, no symlink that leads out, only the
allowed file types, and a size quota for the whole folder. A rejected name is a
:class:`WorkspaceError` (a ``ValueError``), which the tool registry turns into an error
result for the agent.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath, PureWindowsPath

#: File types agents may create or read: documents, images, audio, video, text.
DEFAULT_SUFFIXES = frozenset({
    ".pptx", ".docx", ".xlsx", ".odp", ".odt", ".ods", ".pdf",
    ".png", ".jpg", ".jpeg", ".wav", ".mp3", ".mp4",
    ".txt", ".md", ".csv", ".json",
})
DEFAULT_QUOTA = 256 * 1024 * 1024
MAX_NAME = 255  # bytes per path component (what file systems allow)
MAX_PATH = 1024  # bytes for the whole relative name


class WorkspaceError(ValueError):
    """A file name or size the workspace refuses, and why."""


class Workspace:
    """A folder with confined names, allowed types and a byte quota."""

    def __init__(self, root: str | Path, quota_bytes: int = DEFAULT_QUOTA,
                 suffixes: frozenset[str] = DEFAULT_SUFFIXES) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.quota_bytes = quota_bytes
        self.suffixes = suffixes

    def path(self, name: object, must_exist: bool = False) -> Path:
        """The real path for an agent-chosen ``name``; raises :class:`WorkspaceError`."""
        if not isinstance(name, str) or not name.strip():
            raise WorkspaceError("a file name must be a non-empty string")
        if "\x00" in name or "\\" in name:
            raise WorkspaceError(f"file name {name!r} contains a forbidden character")
        if len(name.encode()) > MAX_PATH or any(len(part.encode()) > MAX_NAME for part in name.split("/")):
            raise WorkspaceError(f"file name is too long (at most {MAX_NAME} bytes per part, {MAX_PATH} in all)")
        posix = PurePosixPath(name)
        if posix.is_absolute() or PureWindowsPath(name).drive:
            raise WorkspaceError(f"file name {name!r} must be relative to the workspace")
        if any(part in ("..", ".") for part in posix.parts) or posix.name.startswith("."):
            raise WorkspaceError(f"file name {name!r} may not contain '.' or '..' parts or be hidden")
        if posix.suffix.lower() not in self.suffixes:
            allowed = ", ".join(sorted(self.suffixes))
            raise WorkspaceError(f"file type {posix.suffix or '(none)'!r} is not allowed (allowed: {allowed})")
        real = (self.root / posix).resolve()
        if not real.is_relative_to(self.root.resolve()):
            raise WorkspaceError(f"file name {name!r} leads outside the workspace")
        if must_exist and not real.is_file():
            raise WorkspaceError(f"no file {name!r} in the workspace")
        if real.exists() and real.stat().st_nlink > 1:  # a hard link may share its data with a file outside
            raise WorkspaceError(f"{name!r} is a hard link; the workspace refuses it")
        return real

    def used_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.root.rglob("*") if p.is_file() and not p.is_symlink())

    def enforce_quota(self, written: Path) -> None:
        """Call after writing ``written``: over the quota, the file is removed and refused."""
        used = self.used_bytes()
        if used > self.quota_bytes:
            written.unlink(missing_ok=True)
            raise WorkspaceError(f"workspace quota exceeded ({used} > {self.quota_bytes} bytes); "
                                 f"{written.name} was not kept")

    def files(self) -> list[dict]:
        """Every regular file, by name relative to the root, with its size."""
        return [{"name": p.relative_to(self.root).as_posix(), "bytes": p.stat().st_size}
                for p in sorted(self.root.rglob("*")) if p.is_file() and not p.is_symlink()]
