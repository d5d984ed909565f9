"""Video decoding backends: decord (default, fastest batch sampler) and PyAV (fallback).

A backend turns frame *indices* (positions in :func:`egoeval.media.probe.frame_table`)
into upright RGB ``uint8`` arrays (H, W, 3). Choosing which frames is the sampler's
job, not the backend's, so both backends answer the same request with the same
indices; their pixels agree up to colour-conversion rounding.

OpenCV seeking and moviepy are deliberately not backends: both were measured 3-4x
slower on long GOPs (see ``bench/media_bench.py``).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Protocol, Sequence

from .errors import MediaError
from .probe import FrameTable, frame_table, open_container

BACKENDS = ("decord", "pyav")


class Backend(Protocol):
    name: str

    def version(self) -> str: ...

    def read(self, path: str, indices: Sequence[int]) -> list: ...


def _upright(image, rotation: int):
    """Rotate a decoded frame as its display matrix asks (counter-clockwise degrees)."""
    import numpy as np

    turns = (rotation // 90) % 4
    return np.ascontiguousarray(np.rot90(image, k=turns)) if turns else image


class DecordBackend:
    """decord's ``VideoReader.get_batch``: seeks and decodes a whole index list natively."""

    name = "decord"

    def version(self) -> str:
        import decord

        return decord.__version__

    def read(self, path: str, indices: Sequence[int]) -> list:
        import decord

        try:
            reader = decord.VideoReader(str(path), ctx=decord.cpu(0))
            count = len(frame_table(path))
            if len(reader) != count:
                # decord indexes frames differently (e.g. a truncated file): its indices
                # would not mean what ours mean, so let PyAV answer instead.
                raise MediaError(f"decord counts {len(reader)} frames, the packets {count}", path)
            batch = reader.get_batch(list(indices)).asnumpy()
        except MediaError:
            raise
        except Exception as e:
            raise MediaError(f"decord could not decode ({type(e).__name__}: {str(e)[:200]})", path) from None
        return [batch[i] for i in range(len(batch))]  # decord applies the rotation itself


class PyAVBackend:
    """PyAV: seek to the keyframe before each wanted frame only when that saves work,
    otherwise keep decoding forward (cheap for dense requests and long GOPs alike)."""

    name = "pyav"

    def version(self) -> str:
        import av

        return av.__version__

    def read(self, path: str, indices: Sequence[int]) -> list:
        table = frame_table(path)
        wanted = sorted(set(indices))
        try:
            got = self._decode(path, table, wanted)
        except MediaError:
            raise
        except Exception as e:
            raise MediaError(f"PyAV could not decode ({type(e).__name__}: {str(e)[:200]})", path) from None
        missing = [i for i in wanted if i not in got]
        if missing:
            raise MediaError(f"frames {missing[:5]} could not be decoded (truncated or corrupt video?)", path)
        return [got[i] for i in indices]

    def _decode(self, path: str, table: FrameTable, wanted: list[int]) -> dict:
        keyframe_before = []
        last = 0
        for i, k in enumerate(table.keyframes):
            last = i if k else last
            keyframe_before.append(last)
        got: dict = {}
        wanted_set = set(wanted)
        with open_container(path) as container:
            stream = container.streams.video[0]
            stream.thread_type = "AUTO"
            by_pts = {p: i for i, p in enumerate(table.pts)} if table.pts else None
            it, pos, rotation = None, None, None
            for target in wanted:
                if target in got:
                    continue
                if it is None or pos is None or pos >= target or keyframe_before[target] > pos + 1:
                    start = keyframe_before[target]
                    if by_pts is not None:
                        container.seek(table.pts[start], stream=stream, backward=True)
                        it, pos = container.decode(stream), None
                    else:  # no timestamps to seek by: decode from the start, counting
                        container.seek(0)
                        it, pos = container.decode(stream), -1
                for frame in it:
                    if by_pts is not None:
                        index = by_pts.get(frame.pts)
                        if index is None:
                            continue
                    else:
                        index = pos + 1
                    pos = index
                    if rotation is None:
                        rotation = int(round(getattr(frame, "rotation", 0) or 0)) % 360
                    if index in wanted_set and index not in got:
                        got[index] = _upright(frame.to_ndarray(format="rgb24"), rotation)
                    if index >= target:
                        break
                else:
                    it = None
        return got


def available() -> list[str]:
    """Backends importable here, in order of preference."""
    out = []
    if importlib.util.find_spec("decord") is not None:
        out.append("decord")
    if importlib.util.find_spec("av") is not None:
        out.append("pyav")
    return out


def get_backend(name: str) -> Backend:
    if name == "decord":
        if importlib.util.find_spec("decord") is None:
            raise MediaError("the decord backend is not installed (pip install decord)")
        return DecordBackend()
    if name == "pyav":
        return PyAVBackend()
    raise MediaError(f"unknown video backend {name!r} (choose from {', '.join(BACKENDS)})")


def read_frames(path: str | Path, indices: Sequence[int], backend: str | None = None) -> tuple[list, str]:
    """Decode ``indices`` of ``path``; returns (images, backend used).

    With no ``backend`` named, decord is tried first and PyAV takes over when decord is
    missing or fails on this file. A named backend is used alone.
    """
    path = str(path)
    names = [backend] if backend else (available() or ["pyav"])
    error: MediaError | None = None
    for name in names:
        try:
            return get_backend(name).read(path, indices), name
        except MediaError as e:
            error = e
    assert error is not None
    raise error
