"""What a media file holds, read from its container without decoding it.

:func:`probe` answers the questions every sampler and tool asks first (duration,
frame rate, frame count, display size, rotation, codecs, is there audio) and
:func:`frame_table` lists the presentation time and keyframe flag of every video frame
by demuxing packets only. Both backends index frames through this one table, which is
why the same request gives the same frame indices from decord and from PyAV.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from .errors import MediaError
from .hashing import file_sha256

#: Larger frames than this (8K UHD) are refused rather than risk exhausting memory.
MAX_PIXELS = 7680 * 4320


@dataclass(frozen=True)
class VideoInfo:
    """Facts about a media file; ``width``/``height`` are the displayed (rotated) size."""

    path: str
    sha256: str
    size_bytes: int
    container: str
    duration: float
    has_video: bool
    has_audio: bool
    fps: float = 0.0
    frame_count: int = 0
    width: int = 0
    height: int = 0
    rotation: int = 0
    codec: str | None = None
    audio_codec: str | None = None
    audio_sample_rate: int | None = None
    audio_channels: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class FrameTable:
    """Presentation times (seconds from the first frame), keyframe flags and raw
    timestamps (stream time base; empty when the packets carry none), in order."""

    times: tuple[float, ...]
    keyframes: tuple[bool, ...]
    fps: float
    pts: tuple[int, ...] = ()

    def __len__(self) -> int:
        return len(self.times)

    @property
    def duration(self) -> float:
        """End of the last frame: its time plus one frame interval."""
        step = 1 / self.fps if self.fps else (self.times[-1] - self.times[0]) / max(1, len(self) - 1)
        return self.times[-1] + step


def open_container(path: str | Path):
    """Open a file with PyAV, turning every failure into a MediaError."""
    import av

    path = str(path)
    if not os.path.exists(path):
        raise MediaError("no such file", path)
    if os.path.getsize(path) == 0:
        raise MediaError("empty file (0 bytes)", path)
    try:
        return av.open(path, metadata_errors="ignore")
    except Exception as e:  # PyAV raises many FFmpeg error types
        raise MediaError(f"not a readable media file ({type(e).__name__}: {e})", path) from None


def _rate(stream) -> float:
    for rate in (stream.average_rate, stream.guessed_rate, stream.base_rate):
        if rate:
            return float(rate)
    return 0.0


def _rotation(container, stream) -> int:
    """Display rotation in degrees (0/90/180/270), from the first decoded frame."""
    try:
        for frame in container.decode(stream):
            return int(round(getattr(frame, "rotation", 0) or 0)) % 360
    except Exception:
        return 0
    return 0


_MEMO: dict[tuple, Any] = {}


def _memo(kind: str, path: str | Path, read):
    """``read(path)``, remembered while the file is unchanged (same size, mtime, inode)."""
    try:
        st = os.stat(path)
    except OSError:
        raise MediaError("no such file", path) from None
    key = (kind, os.path.abspath(path), st.st_size, st.st_mtime_ns, st.st_ino)
    if key not in _MEMO:
        _MEMO[key] = read(path)
    return _MEMO[key]


def frame_table(path: str | Path) -> FrameTable:
    """Every video frame's time and keyframe flag, from the packets (memoised per file)."""
    return _memo("table", path, _read_frame_table)


def _check_size(width: int, height: int, path) -> None:
    if width * height > MAX_PIXELS:
        raise MediaError(f"frame size {width}x{height} is larger than 8K; refusing to decode", path)
    if width <= 0 or height <= 0:
        raise MediaError(f"invalid frame size {width}x{height}", path)


def _read_frame_table(path: str | Path) -> FrameTable:
    with open_container(path) as container:
        if not container.streams.video:
            raise MediaError("no video stream (audio-only or not a video)", path)
        stream = container.streams.video[0]
        _check_size(stream.codec_context.width, stream.codec_context.height, path)
        fps = _rate(stream)
        tb = stream.time_base
        stamps: list[tuple[int | None, bool]] = []
        try:
            for packet in container.demux(stream):
                if packet.size == 0:
                    continue  # the demuxer's end-of-stream flush packet
                stamps.append((packet.pts, bool(packet.is_keyframe)))
        except Exception:
            pass  # a truncated file: keep the frames whose packets were read
    if not stamps:
        raise MediaError("the video stream holds no frames", path)
    if tb is None or any(ts is None for ts, _ in stamps):
        # no usable timestamps: frames in decode order at the nominal rate
        return FrameTable(times=tuple(i / fps if fps else float(i) for i in range(len(stamps))),
                          keyframes=tuple(k for _, k in stamps), fps=fps)
    stamps.sort(key=lambda s: s[0])
    first = stamps[0][0]
    return FrameTable(times=tuple(float((ts - first) * Fraction(tb)) for ts, _ in stamps),
                      keyframes=tuple(k for _, k in stamps), fps=fps, pts=tuple(ts for ts, _ in stamps))


def probe(path: str | Path) -> VideoInfo:
    """Describe a media file (video and/or audio) without decoding it (memoised per file)."""
    return _memo("probe", str(path), _probe)


def _probe(path: str) -> VideoInfo:
    with open_container(path) as container:
        video = container.streams.video[0] if container.streams.video else None
        audio = container.streams.audio[0] if container.streams.audio else None
        if video is None and audio is None:
            raise MediaError("no video or audio stream", path)
        duration = float(container.duration / 1_000_000) if container.duration else 0.0
        fields: dict[str, Any] = {}
        if audio is not None:
            fields.update(audio_codec=audio.codec_context.name, audio_sample_rate=audio.codec_context.sample_rate,
                          audio_channels=audio.codec_context.channels)
            if not duration and audio.duration and audio.time_base:
                duration = float(audio.duration * audio.time_base)
        if video is not None:
            width, height = video.codec_context.width, video.codec_context.height
            _check_size(width, height, path)
            rotation = _rotation(container, video)
            if rotation in (90, 270):
                width, height = height, width
            fields.update(fps=_rate(video), width=width, height=height, rotation=rotation,
                          codec=video.codec_context.name)
            if not duration and video.duration and video.time_base:
                duration = float(video.duration * video.time_base)
        fmt = container.format.name
    if video is not None:
        table = frame_table(path)
        fields["frame_count"] = len(table)
        duration = duration or table.duration
    return VideoInfo(path=path, sha256=file_sha256(path), size_bytes=os.path.getsize(path), container=fmt,
                     duration=round(duration, 6), has_video=video is not None, has_audio=audio is not None,
                     **fields)
