"""Frame sampling: which frames (the plan) and the frames themselves, with a manifest.

Ask for exactly one of ``num`` (uniform), ``fps`` (a rate), ``at`` (timestamps in
seconds), ``indices`` or ``keyframes`` (the N clearest frames, see
:mod:`egoeval.media.keyframes`). Every :class:`Frame` carries its index and timestamp,
and every :class:`FrameSet` a :class:`FrameManifest` that pins down the exact pixels a
model saw: the video's SHA-256, the backend and its version, the request, the indices,
the timestamps and the SHA-256 of each frame's pixels.
"""

from __future__ import annotations

import bisect
import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Sequence

from .backends import BACKENDS, get_backend, read_frames
from .cache import Cache, make_key
from .encode import check_max_side, data_url, encode_image, resize_max_side
from .errors import MediaError
from .hashing import bytes_sha256, file_sha256
from .probe import FrameTable, frame_table

#: Bumped when sampling changes what a request returns (invalidates cached frames).
SAMPLER_VERSION = 1


@dataclass
class Frame:
    """One decoded frame: RGB uint8 pixels (H, W, 3) with its place in the video."""

    index: int
    timestamp: float
    image: Any = field(repr=False)

    @property
    def sha256(self) -> str:
        """SHA-256 of the pixels, prefixed by the shape so reshaped bytes differ."""
        h, w = self.image.shape[:2]
        return bytes_sha256(f"{h}x{w}x3:".encode() + self.image.tobytes())

    def encode(self, fmt: str = "jpeg", quality: int = 85, max_bytes: int | None = None) -> bytes:
        return encode_image(self.image, fmt, quality, max_bytes)

    def data_url(self, fmt: str = "jpeg", quality: int = 85, max_bytes: int | None = None) -> str:
        return data_url(self.encode(fmt, quality, max_bytes), fmt)


@dataclass
class FrameManifest:
    """Everything needed to reproduce (and check) a set of frames."""

    video_sha256: str
    backend: str
    backend_version: str
    params: dict
    indices: list[int]
    timestamps: list[float]
    frame_sha256: list[str]
    width: int
    height: int
    sampler_version: int = SAMPLER_VERSION
    files: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class FrameSet:
    frames: list[Frame]
    manifest: FrameManifest

    def __len__(self) -> int:
        return len(self.frames)

    def __iter__(self):
        return iter(self.frames)

    def save(self, out_dir: str | Path, fmt: str = "jpeg", quality: int = 90) -> list[Path]:
        """Write each frame as ``frame_<index>_<ms>ms.<ext>``; records the names in the manifest."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        ext = ".jpg" if fmt == "jpeg" else ".png"
        paths = []
        for f in self.frames:
            p = out / f"frame_{f.index:06d}_{round(f.timestamp * 1000):07d}ms{ext}"
            p.write_bytes(f.encode(fmt, quality))
            paths.append(p)
        self.manifest.files = [str(p) for p in paths]
        return paths


# --- plans: which indices -------------------------------------------------------------
def index_at(table: FrameTable, t: float, path: str = "") -> int:
    """The frame on screen at ``t`` seconds."""
    if not isinstance(t, (int, float)) or math.isnan(t) or t < 0:
        raise MediaError(f"timestamp {t!r} is not a time in seconds >= 0", path or None)
    end = table.duration
    if t > end + 1e-6:
        raise MediaError(f"timestamp {t:g} s is past the end of the video ({end:g} s)", path or None)
    return max(0, bisect.bisect_right(table.times, t + 1e-6) - 1)


def uniform_indices(count: int, num: int, include_last: bool = False) -> list[int]:
    """``num`` frames spread evenly: the middle of ``num`` equal segments, or, with
    ``include_last``, evenly from the first frame to the last one inclusive."""
    if num >= count:
        return list(range(count))
    if include_last:
        if num == 1:
            return [count - 1]
        return [round(i * (count - 1) / (num - 1)) for i in range(num)]
    return [int((i + 0.5) * count / num) for i in range(num)]


def thin(indices: list[int], max_frames: int | None) -> list[int]:
    """At most ``max_frames`` of ``indices``, spread evenly."""
    if max_frames is None or len(indices) <= max_frames:
        return indices
    return [indices[i] for i in uniform_indices(len(indices), max_frames)]


def plan(table: FrameTable, *, num: int | None = None, fps: float | None = None,
         at: Sequence[float] | None = None, indices: Sequence[int] | None = None,
         include_last: bool = False, max_frames: int | None = None, path: str = "") -> list[int]:
    """Frame indices for one request (keyframes are chosen elsewhere: they need pixels)."""
    given = [name for name, v in (("num", num), ("fps", fps), ("at", at), ("indices", indices)) if v is not None]
    if len(given) != 1:
        raise MediaError("ask for exactly one of num, fps, at, indices or keyframes")
    count = len(table)
    if num is not None:
        if not isinstance(num, int) or num < 1:
            raise MediaError(f"num must be a positive integer, not {num!r}")
        chosen = uniform_indices(count, num, include_last)
    elif fps is not None:
        if not isinstance(fps, (int, float)) or not fps > 0 or math.isinf(fps):
            raise MediaError(f"fps must be a positive number, not {fps!r}")
        end = table.duration
        n = max(1, math.ceil(end * fps - 1e-9))
        chosen = sorted({index_at(table, k / fps, path) for k in range(n) if k / fps < end})
    elif at is not None:
        chosen = [index_at(table, t, path) for t in at]
    else:
        chosen = list(indices or [])
        for i in chosen:
            if not isinstance(i, int) or not 0 <= i < count:
                raise MediaError(f"frame index {i!r} is out of range (the video has {count} frames)", path or None)
    if not chosen:
        raise MediaError("the request selects no frames", path or None)
    return thin(chosen, max_frames)


# --- sampling -------------------------------------------------------------------------
def _request(**kw: Any) -> dict:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in kw.items() if v not in (None, False)}


def sample_frames(path: str | Path, *, num: int | None = None, fps: float | None = None,
                  at: Sequence[float] | None = None, indices: Sequence[int] | None = None,
                  keyframes: int | None = None, include_last: bool = False, max_frames: int | None = None,
                  max_side: int | None = None, backend: str | None = None,
                  cache: Cache | bool | None = None) -> FrameSet:
    """Sample frames from a video. See the module docstring for the request kinds.

    ``max_side`` shrinks frames (longer side, pixels). ``backend`` picks ``decord`` or
    ``pyav`` (default: decord, falling back to PyAV). ``cache`` (a :class:`Cache`, or
    True for the default one) keeps the result on disk, keyed by the video's content.
    """
    path = str(path)
    check_max_side(max_side)
    if backend is not None and backend not in BACKENDS:
        raise MediaError(f"unknown video backend {backend!r} (choose from {', '.join(BACKENDS)})")
    if not Path(path).is_file():
        raise MediaError("no such file", path)
    params = _request(num=num, fps=fps, at=tuple(at) if at is not None else None,
                      indices=tuple(indices) if indices is not None else None, keyframes=keyframes,
                      include_last=include_last, max_frames=max_frames, max_side=max_side)
    store = Cache() if cache is True else (cache or None)
    video_sha = store.digest(path) if store is not None else file_sha256(path)
    if store is not None:  # a hit costs a stat and a read: no probing, no decoding
        key = make_key(video=video_sha, params=params, backend=backend, v=SAMPLER_VERSION)
        hit = store.get("frames", key)
        loaded = _load(hit) if hit is not None else None
        if loaded is not None:
            return loaded
    table = frame_table(path)  # raises for a file without video
    if keyframes is not None:
        if any(v is not None for v in (num, fps, at, indices)):
            raise MediaError("ask for exactly one of num, fps, at, indices or keyframes")
        from .keyframes import select_keyframes

        chosen = select_keyframes(path, keyframes, backend=backend)
    else:
        chosen = plan(table, num=num, fps=fps, at=at, indices=indices, include_last=include_last,
                      max_frames=max_frames, path=path)
    images, used = read_frames(path, chosen, backend)
    images = [resize_max_side(im, max_side) for im in images]
    frames = [Frame(i, round(table.times[i], 6), im) for i, im in zip(chosen, images)]
    h, w = images[0].shape[:2]
    manifest = FrameManifest(video_sha256=video_sha, backend=used, backend_version=get_backend(used).version(),
                             params=params, indices=list(chosen), timestamps=[f.timestamp for f in frames],
                             frame_sha256=[f.sha256 for f in frames], width=w, height=h)
    result = FrameSet(frames, manifest)
    if store is not None:
        store.put("frames", key, lambda d: _save(result, d))
    return result


def _save(fs: FrameSet, folder: Path) -> None:
    import numpy as np

    np.save(folder / "frames.npy", np.stack([f.image for f in fs.frames]))
    (folder / "manifest.json").write_text(json.dumps(fs.manifest.to_dict()))


def _load(folder: Path) -> FrameSet | None:
    import numpy as np

    try:
        m = FrameManifest(**json.loads((folder / "manifest.json").read_text()))
        stack = np.load(folder / "frames.npy", mmap_mode="r")  # pages in on use
    except (OSError, ValueError, TypeError):
        return None  # evicted or damaged meanwhile: rebuild
    frames = [Frame(i, t, stack[k]) for k, (i, t) in enumerate(zip(m.indices, m.timestamps))]
    return FrameSet(frames, m)
