"""A content-addressed, size-bounded disk cache that several processes can share.

Entries are folders named by a key (a SHA-256 of what produced them: the input file's
hash and the parameters), grouped by namespace (``frames``, ``transcripts``,
``clips``, ``models``). An entry is written into a private temporary folder and then
renamed into place, so a reader sees a whole entry or none; if two processes build the
same entry, the first rename wins and the other's copy is discarded. Reading touches
the entry; when the cache grows past its bound, the least recently used entries go.

The root is ``$EGOEVAL_CACHE`` or ``~/.cache/egoeval``.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Callable

DEFAULT_MAX_BYTES = 4 << 30


def default_root() -> Path:
    env = os.environ.get("EGOEVAL_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "egoeval"


def make_key(**parts: Any) -> str:
    """A stable key from JSON-able parts (order of keywords does not matter)."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


class Cache:
    """Folders by (namespace, key) under one root, at most ``max_bytes`` in all."""

    def __init__(self, root: str | Path | None = None, max_bytes: int = DEFAULT_MAX_BYTES):
        self.root = Path(root) if root is not None else default_root()
        self.max_bytes = max_bytes

    def path(self, namespace: str, key: str) -> Path:
        return self.root / namespace / key[:2] / key

    def get(self, namespace: str, key: str) -> Path | None:
        """The entry's folder, or None. Marks it as recently used."""
        path = self.path(namespace, key)
        try:
            os.utime(path)
        except OSError:
            return None
        return path

    def put(self, namespace: str, key: str, build: Callable[[Path], None]) -> Path:
        """Build an entry with ``build(folder)`` and publish it atomically."""
        final = self.path(namespace, key)
        final.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{key[:8]}-", dir=final.parent))
        try:
            build(tmp)
            try:
                os.rename(tmp, final)
            except OSError:  # another process published it first
                if not final.exists():
                    raise
        finally:
            if tmp.exists():
                shutil.rmtree(tmp, ignore_errors=True)
        self.evict()
        return final

    def get_or_put(self, namespace: str, key: str, build: Callable[[Path], None]) -> Path:
        return self.get(namespace, key) or self.put(namespace, key, build)

    def digest(self, path: str | Path) -> str:
        """SHA-256 of a file, remembered on disk by the file's identity (path, size,
        mtime, inode), so a fresh process need not re-read a long video to find its
        cached frames."""
        from .hashing import file_sha256

        st = os.stat(path)
        key = make_key(path=os.path.abspath(path), size=st.st_size, mtime=st.st_mtime_ns, inode=st.st_ino)
        hit = self.get("digests", key)
        if hit is not None:
            try:
                value = (hit / "sha256").read_text()
                if len(value) == 64:
                    return value
            except OSError:
                pass
        value = file_sha256(path)
        self.put("digests", key, lambda d: (d / "sha256").write_text(value))
        return value

    def entries(self, namespace: str | None = None) -> list[tuple[float, int, Path]]:
        """(last use, bytes, folder) of every published entry (of one namespace)."""
        out = []
        if not self.root.exists():
            return out
        for ns in self.root.iterdir():
            if not ns.is_dir() or ns.name.startswith(".") or (namespace and ns.name != namespace):
                continue
            for shard in ns.iterdir():
                if not shard.is_dir():
                    continue
                for entry in shard.iterdir():
                    if entry.name.startswith(".tmp-"):
                        continue
                    try:
                        size = sum(f.stat().st_size for f in entry.rglob("*") if f.is_file())
                        out.append((entry.stat().st_mtime, size, entry))
                    except OSError:
                        continue  # removed by another process meanwhile
        return out

    def size(self) -> int:
        return sum(size for _, size, _ in self.entries())

    def evict(self) -> int:
        """Remove least recently used entries until the cache fits; returns how many.

        One process evicts at a time (an advisory lock); a reader whose entry vanishes
        simply rebuilds it.
        """
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / ".lock", "w") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return 0  # another process is evicting
            entries = sorted(self.entries())
            total = sum(size for _, size, _ in entries)
            removed = 0
            for _, size, entry in entries:
                if total <= self.max_bytes:
                    break
                shutil.rmtree(entry, ignore_errors=True)
                total -= size
                removed += 1
            return removed

    def clear(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

