"""Keyframes: the clearest frames of each part of a video, without near-duplicates.

Egocentric footage is shaky and blurred; which frames an agent gets to see decides a lot
of what it can answer, so choosing clear, distinct frames is part of what egoeval
measures. The method:

1. candidate frames at a modest rate (default 4 per second, at most 240), decoded
   and shrunk to 320 px;
2. scene changes where the colour histograms of neighbouring candidates differ
   strongly (Bhattacharyya distance above ``cut_threshold``);
3. the timeline split into segments - the scenes, the longest halved until there are
   N - and in each segment the sharpest candidate (variance of the Laplacian);
4. near-duplicates dropped (a 32x32 grey thumbnail within ``dup_level`` grey levels,
   on average, of a sharper pick's), then the remaining room filled with the sharpest
   distinct candidates.

A static video may therefore give fewer than N frames: they would all look the same.
"""

from __future__ import annotations

from dataclasses import dataclass

from .backends import read_frames
from .encode import resize_max_side
from .errors import MediaError
from .frames import plan
from .probe import frame_table

CHUNK = 32


@dataclass
class Candidate:
    index: int
    sharpness: float
    hist: object
    thumb: object


def measure(image) -> tuple[float, object, object]:
    """(sharpness, HSV histogram, 32x32 grey thumbnail) of an RGB image."""
    import cv2

    small = resize_max_side(image, 320)
    gray = cv2.cvtColor(small, cv2.COLOR_RGB2GRAY)
    sharpness = float(cv2.Laplacian(gray, cv2.CV_64F).var())
    hsv = cv2.cvtColor(small, cv2.COLOR_RGB2HSV)
    hist = cv2.calcHist([hsv], [0, 1], None, [16, 8], [0, 180, 0, 256])
    cv2.normalize(hist, hist)
    thumb = cv2.resize(gray, (32, 32), interpolation=cv2.INTER_AREA).astype("float32")
    return sharpness, hist, thumb


def candidates(path: str, rate: float = 4.0, max_candidates: int = 240, backend: str | None = None) -> list[Candidate]:
    table = frame_table(path)
    chosen = plan(table, fps=min(rate, table.fps or rate), max_frames=max_candidates, path=path)
    out = []
    for start in range(0, len(chosen), CHUNK):
        part = chosen[start:start + CHUNK]
        images, _ = read_frames(path, part, backend)
        out.extend(Candidate(i, *measure(im)) for i, im in zip(part, images))
    return out


def scenes(cands: list[Candidate], cut_threshold: float = 0.5) -> list[list[Candidate]]:
    import cv2

    groups = [[cands[0]]]
    for prev, cur in zip(cands, cands[1:]):
        if cv2.compareHist(prev.hist, cur.hist, cv2.HISTCMP_BHATTACHARYYA) > cut_threshold:
            groups.append([])
        groups[-1].append(cur)
    return groups


def select_keyframes(path: str, n: int, backend: str | None = None, rate: float = 4.0,
                     max_candidates: int = 240, cut_threshold: float = 0.5, dup_level: float = 3.0) -> list[int]:
    """Indices (in time order) of up to ``n`` clear, distinct frames."""
    if not isinstance(n, int) or n < 1:
        raise MediaError(f"the number of keyframes must be a positive integer, not {n!r}")
    cands = candidates(str(path), rate, max(max_candidates, n), backend)
    segments = scenes(cands, cut_threshold)
    while len(segments) < n:
        longest = max(range(len(segments)), key=lambda k: len(segments[k]))
        seg = segments[longest]
        if len(seg) < 2:
            break
        segments[longest:longest + 1] = [seg[: len(seg) // 2], seg[len(seg) // 2:]]
    if len(segments) > n:  # more scenes than frames wanted: keep the longest scenes
        segments = sorted(segments, key=len, reverse=True)[:n]
    picks = sorted((max(seg, key=lambda c: c.sharpness) for seg in segments), key=lambda c: -c.sharpness)
    kept: list[Candidate] = []

    def distinct(c: Candidate) -> bool:
        return all(float(abs(c.thumb - k.thumb).mean()) > dup_level for k in kept)

    for c in picks + sorted(cands, key=lambda c: -c.sharpness):
        if len(kept) == n:
            break
        if all(c is not k for k in kept) and distinct(c):
            kept.append(c)
    return sorted(c.index for c in kept)
