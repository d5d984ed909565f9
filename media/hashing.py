"""SHA-256 of media files, memoised by file identity.

Hashing is what makes the cache content-addressed and a frame manifest traceable, but a
long video takes a while to hash; the digest is remembered per (path, size, mtime,
inode) in this process so repeated requests for the same file cost a ``stat``.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

_MEMO: dict[tuple, str] = {}
_CHUNK = 1 << 20


def file_sha256(path: str | Path) -> str:
    """Hex SHA-256 of a file's bytes (memoised while the file is unchanged)."""
    st = os.stat(path)
    key = (os.path.abspath(path), st.st_size, st.st_mtime_ns, st.st_ino)
    digest = _MEMO.get(key)
    if digest is None:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            while chunk := f.read(_CHUNK):
                h.update(chunk)
        digest = _MEMO[key] = h.hexdigest()
    return digest


def bytes_sha256(data: bytes | memoryview) -> str:
    return hashlib.sha256(data).hexdigest()
