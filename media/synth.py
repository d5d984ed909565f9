"""Synthetic egocentric clips: a deterministic, seeded generator of first-person scenes.

Three scene kinds, drawn with OpenCV: a **shelf** of labelled bottles, a **menu** card
of dishes with prices, and a kitchen **counter** with labelled ingredients. A hand
enters from below and points at items in sequence; the camera shakes like a head-worn
one, blurs when it moves fast, and is now and then partly occluded by the other arm.
Optional narration is spoken with text-to-speech and mixed into an AAC track.

The clip comes with its annotations (what is where, which item is pointed at and
when), so tasks can be written against it and checked. The same spec and seed give a
byte-identical file (single-threaded x264, bit-exact muxing) on a given installation.
"""

from __future__ import annotations

import json
import math
import textwrap
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .errors import MediaError

GENERATOR_VERSION = 1
KINDS = ("shelf", "menu", "counter")


@dataclass(frozen=True)
class ClipSpec:
    """What to draw. ``labels`` are the items left to right (menu: top to bottom);
    ``points`` the positions (0-based) pointed at, in order; ``prices`` optional text
    shown beside each item."""

    kind: str
    labels: tuple[str, ...]
    points: tuple[int, ...]
    seed: int = 0
    prices: tuple[str, ...] = ()
    title: str = ""
    fps: int = 15
    width: int = 640
    height: int = 360
    intro: float = 1.0
    dwell: float = 1.6
    travel: float = 0.8
    shake: float = 1.0
    blur: bool = True
    occlusion: bool = True
    narration: tuple[tuple[float, str], ...] = ()

    def validate(self) -> None:
        if self.kind not in KINDS:
            raise MediaError(f"unknown scene kind {self.kind!r} (choose from {', '.join(KINDS)})")
        if not 1 <= len(self.labels) <= 12:
            raise MediaError("a scene needs 1 to 12 labelled items")
        if any(not 0 <= p < len(self.labels) for p in self.points):
            raise MediaError(f"pointed positions {list(self.points)} do not all name one of {len(self.labels)} items")
        if self.prices and len(self.prices) != len(self.labels):
            raise MediaError("give one price per item, or none")
        if not (160 <= self.width <= 1920 and 120 <= self.height <= 1080 and 1 <= self.fps <= 60):
            raise MediaError(f"frame size {self.width}x{self.height} at {self.fps} fps is out of range")

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "ClipSpec":
        d = dict(d)
        for k in ("labels", "points", "prices"):
            if k in d:
                d[k] = tuple(d[k])
        if "narration" in d:
            d["narration"] = tuple((float(t), str(s)) for t, s in d["narration"])
        return cls(**d)


@dataclass
class Clip:
    path: Path
    annotations: dict = field(repr=False)


# --- the world: a static scene larger than the camera's view ----------------------------
def _world(spec: ClipSpec, rng) -> tuple:
    """(world RGB image, item boxes [(x0, y0, x1, y1)], pointing targets [(x, y)])."""
    import cv2
    import numpy as np

    n = len(spec.labels)
    W, H = int(spec.width * 1.5), int(spec.height * 1.4)
    font = cv2.FONT_HERSHEY_SIMPLEX
    if spec.kind == "shelf":
        img = np.full((H, W, 3), (205, 195, 180), np.uint8)
        for y in (int(H * 0.72), int(H * 0.74)):
            cv2.line(img, (0, y), (W, y), (120, 85, 50), 6)
        slot = (W - 80) / n
        boxes, targets = [], []
        for k, label in enumerate(spec.labels):
            cx = int(40 + slot * (k + 0.5))
            bw = int(min(slot * 0.7, 130))
            top, bottom = int(H * 0.22), int(H * 0.72)
            colour = tuple(int(c) for c in rng.integers(30, 140, 3))
            cv2.rectangle(img, (cx - bw // 6, top - 40), (cx + bw // 6, top + 10), colour, -1)  # neck
            cv2.rectangle(img, (cx - bw // 2, top), (cx + bw // 2, bottom), colour, -1)
            ly0, ly1 = top + int((bottom - top) * 0.3), top + int((bottom - top) * 0.75)
            cv2.rectangle(img, (cx - bw // 2 + 4, ly0), (cx + bw // 2 - 4, ly1), (245, 242, 230), -1)
            _text_block(img, label, (cx - bw // 2 + 8, ly0 + 6, cx + bw // 2 - 8, ly1 - 4), spec.prices[k] if spec.prices else "")
            boxes.append((cx - bw // 2, top - 40, cx + bw // 2, bottom))
            targets.append((cx, ly1 + 8))
    elif spec.kind == "menu":
        img = np.full((H, W, 3), (90, 70, 55), np.uint8)  # a wooden table
        x0, x1, y0 = int(W * 0.18), int(W * 0.82), int(H * 0.06)
        row = min(46, int((H * 0.86) / (n + 1.5)))
        cv2.rectangle(img, (x0, y0), (x1, y0 + int(row * (n + 1.6))), (250, 246, 235), -1)
        cv2.putText(img, spec.title or "MENU", (x0 + 24, y0 + int(row * 0.9)), font, 1.0, (40, 30, 30), 2, cv2.LINE_AA)
        boxes, targets = [], []
        for k, label in enumerate(spec.labels):
            y = y0 + int(row * (k + 1.9))
            cv2.putText(img, label, (x0 + 24, y), font, 0.75, (30, 30, 30), 2, cv2.LINE_AA)
            if spec.prices:
                cv2.putText(img, spec.prices[k], (x1 - 120, y), font, 0.75, (30, 30, 30), 2, cv2.LINE_AA)
            boxes.append((x0 + 16, y - row + 12, x1 - 16, y + 10))
            targets.append((x0 + 90, y + 14))
    else:  # counter
        img = np.full((H, W, 3), (170, 175, 180), np.uint8)
        cv2.rectangle(img, (0, int(H * 0.35)), (W, H), (215, 205, 190), -1)  # the worktop
        cols = min(n, 4)
        rows = math.ceil(n / cols)
        cw, ch = (W - 120) / cols, (H * 0.55) / rows
        boxes, targets = [], []
        for k, label in enumerate(spec.labels):
            r, c = divmod(k, cols)
            cx, cy = int(60 + cw * (c + 0.5)), int(H * 0.40 + ch * (r + 0.45))
            colour = tuple(int(v) for v in rng.integers(60, 200, 3))
            rx, ry = int(cw * 0.32), int(ch * 0.28)
            cv2.ellipse(img, (cx, cy), (rx, ry), 0, 0, 360, colour, -1)
            tag = (cx - int(cw * 0.42), cy + ry - 6, cx + int(cw * 0.42), cy + ry + 38)
            cv2.rectangle(img, tag[:2], tag[2:], (252, 252, 245), -1)
            _text_block(img, label, (tag[0] + 4, tag[1] + 2, tag[2] - 4, tag[3] - 2), spec.prices[k] if spec.prices else "")
            boxes.append((tag[0], cy - ry, tag[2], tag[3]))
            targets.append((cx, tag[3] + 6))
    return img, boxes, targets


def _text_block(img, text: str, box: tuple[int, int, int, int], extra: str = "") -> None:
    """Write ``text`` wrapped to fit ``box`` (largest font that fits)."""
    import cv2

    x0, y0, x1, y1 = box
    font = cv2.FONT_HERSHEY_SIMPLEX
    for scale in (0.6, 0.5, 0.42, 0.36, 0.3):
        width = max(4, int((x1 - x0) / (19 * scale)))
        lines = textwrap.wrap(text, width) + ([extra] if extra else [])
        sizes = [cv2.getTextSize(line, font, scale, 1)[0] for line in lines]
        height = sum(h + 6 for _, h in sizes)
        if max(w for w, _ in sizes) <= x1 - x0 and height <= y1 - y0:
            break
    y = y0
    for line, (w, h) in zip(lines, sizes):
        y += h + 4
        cv2.putText(img, line, (x0 + (x1 - x0 - w) // 2, y), font, scale, (20, 20, 20), 1, cv2.LINE_AA)
        y += 2


# --- motion ----------------------------------------------------------------------------
def _smooth(t: float) -> float:
    return t * t * (3 - 2 * t)


def _timeline(spec: ClipSpec) -> tuple[list[dict], float]:
    """Pointing segments (dwell on each pointed item) and the clip duration."""
    segs, t = [], spec.intro
    for order, pos in enumerate(spec.points, 1):
        t += spec.travel
        segs.append({"order": order, "position": pos, "item": spec.labels[pos], "start": round(t, 3),
                     "end": round(t + spec.dwell, 3)})
        t += spec.dwell
    return segs, t + 0.8


def _hand_at(t: float, segs: list[dict], targets, rest) -> tuple[float, float]:
    """Fingertip position at time ``t`` (world coordinates)."""
    prev = rest
    for s in segs:
        goal = targets[s["position"]]
        travel_start = s["start"] - 0.8 if s["order"] == 1 else segs[s["order"] - 2]["end"]
        if t < travel_start:
            return prev
        if t < s["start"]:
            a = _smooth((t - travel_start) / max(1e-6, s["start"] - travel_start))
            return prev[0] + (goal[0] - prev[0]) * a, prev[1] + (goal[1] - prev[1]) * a
        if t <= s["end"]:
            return goal
        prev = goal
    end = segs[-1]["end"] if segs else 0
    a = _smooth(min(1.0, (t - end) / 0.6))
    return prev[0] + (rest[0] - prev[0]) * a, prev[1] + (rest[1] - prev[1]) * a


def _draw_hand(frame, tip: tuple[float, float]) -> None:
    import cv2
    import numpy as np

    x, y = int(tip[0]), int(tip[1])
    skin, shade = (196, 150, 122), (170, 124, 98)
    cv2.rectangle(frame, (x - 9, y), (x + 9, y + 70), skin, -1)  # the index finger
    cv2.ellipse(frame, (x, y), (9, 9), 0, 180, 360, skin, -1)
    cv2.ellipse(frame, (x + 22, y + 110), (52, 62), 0, 0, 360, shade, -1)  # palm and fist
    cv2.ellipse(frame, (x + 20, y + 104), (48, 56), 0, 0, 360, skin, -1)
    pts = np.array([[x - 20, y + 150], [x + 70, y + 150], [x + 90, frame.shape[0] + 40], [x - 40, frame.shape[0] + 40]])
    cv2.fillPoly(frame, [pts], shade)  # the forearm


def generate(spec: ClipSpec, out: str | Path) -> Clip:
    """Render ``spec`` into ``out`` (an .mp4) and ``out``.json (the annotations)."""
    import av
    import cv2
    import numpy as np

    spec.validate()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(spec.seed)
    world, boxes, targets = _world(spec, rng)
    H, W = world.shape[:2]
    segs, duration = _timeline(spec)
    n_frames = int(round(duration * spec.fps))
    rest = (W * 0.62, H + 60)
    phases = rng.uniform(0, 2 * math.pi, 6)
    occluders = sorted(rng.uniform(spec.intro, max(spec.intro + 0.1, duration - 1), 1 if spec.occlusion else 0))
    look = np.array([W / 2, H / 2], float)
    prev_cam = None
    tmp = out.with_name(f".{out.name}.part")
    try:
        with av.open(str(tmp), "w", format="mp4", options={"fflags": "+bitexact"}) as container:
            stream = container.add_stream("libx264", rate=spec.fps, options={
                "crf": "23", "preset": "veryfast", "threads": "1", "g": str(spec.fps * 2)})
            stream.width, stream.height, stream.pix_fmt = spec.width, spec.height, "yuv420p"
            stream.codec_context.flags |= getattr(av.codec.context.Flags, "bitexact", 0)
            audio = _narration_track(container, spec, duration) if spec.narration else None
            for i in range(n_frames):
                t = i / spec.fps
                tip = _hand_at(t, segs, targets, rest)
                # the head turns toward what the hand points at, lagging behind it
                goal = np.array([min(max(tip[0], spec.width / 2), W - spec.width / 2),
                                 min(max(tip[1] - spec.height * 0.25, spec.height / 2), H - spec.height / 2)])
                look += (goal - look) * 0.12
                a = spec.shake
                jitter = np.array([
                    a * (9 * math.sin(2.1 * t + phases[0]) + 4 * math.sin(7.3 * t + phases[1]) + 2 * math.sin(17 * t + phases[2])),
                    a * (7 * math.sin(1.7 * t + phases[3]) + 3 * math.sin(6.1 * t + phases[4]) + 2 * math.sin(13 * t + phases[5])),
                ])
                cam = look + jitter
                x0 = int(min(max(cam[0] - spec.width / 2, 0), W - spec.width))
                y0 = int(min(max(cam[1] - spec.height / 2, 0), H - spec.height))
                canvas = world.copy()
                _draw_hand(canvas, tip)
                frame = np.ascontiguousarray(canvas[y0:y0 + spec.height, x0:x0 + spec.width])
                if spec.blur and prev_cam is not None:
                    dx, dy = x0 - prev_cam[0], y0 - prev_cam[1]
                    length = int(min(15, math.hypot(dx, dy) * 1.5))
                    if length >= 3:
                        kernel = np.zeros((length, length), np.float32)
                        c = (length - 1) / 2
                        ang = math.atan2(dy, dx)
                        cv2.line(kernel, (int(c - c * math.cos(ang)), int(c - c * math.sin(ang))),
                                 (int(c + c * math.cos(ang)), int(c + c * math.sin(ang))), 1.0, 1)
                        frame = cv2.filter2D(frame, -1, kernel / max(kernel.sum(), 1e-6))
                prev_cam = (x0, y0)
                for o in occluders:
                    if o <= t < o + 0.6:
                        k = (t - o) / 0.6
                        reach = int(spec.width * 0.28 * math.sin(math.pi * k))
                        cv2.ellipse(frame, (-20 + reach // 2, spec.height), (reach + 30, int(spec.height * 0.55)),
                                    -20, 0, 360, (150, 110, 90), -1)
                for p in stream.encode(av.VideoFrame.from_ndarray(frame, format="rgb24")):
                    container.mux(p)
            for p in stream.encode():
                container.mux(p)
            if audio is not None:
                audio(container)
        tmp.replace(out)
    finally:
        tmp.unlink(missing_ok=True)
    annotations = {
        "generator_version": GENERATOR_VERSION, "spec": spec.to_dict(), "fps": spec.fps, "frames": n_frames,
        "duration": round(n_frames / spec.fps, 3), "size": [spec.width, spec.height],
        "items": [{"position": k, "label": label, "price": spec.prices[k] if spec.prices else None}
                  for k, label in enumerate(spec.labels)],
        "pointing": segs,
        "occlusions": [{"start": round(o, 3), "end": round(o + 0.6, 3)} for o in occluders],
        "narration": [{"start": t, "text": s} for t, s in spec.narration],
    }
    out.with_suffix(".json").write_text(json.dumps(annotations, indent=1, ensure_ascii=False))
    return Clip(out, annotations)


def _narration_track(container, spec: ClipSpec, duration: float):
    """Speak each narration line (espeak-ng) and return a function that muxes the mix."""
    import tempfile

    import av
    import numpy as np

    from .audio import extract_audio, read_wav
    from .tts import speak

    rate = 16000
    total = np.zeros(int(rate * (duration + 1)), np.float32)
    with tempfile.TemporaryDirectory(prefix="egoeval-synth-") as tmp:
        for k, (start, text) in enumerate(spec.narration):
            wav = speak(text, Path(tmp) / f"{k}.wav").path
            samples, _ = read_wav(extract_audio(wav, Path(tmp) / f"{k}_16k.wav", sample_rate=rate))
            at = int(start * rate)
            end = min(len(total), at + len(samples))
            total[at:end] += samples[: end - at]
    pcm = (np.clip(total, -1, 1) * 32767).astype(np.int16)
    stream = container.add_stream("aac", rate=rate)
    stream.layout = "mono"
    stream.codec_context.flags |= getattr(av.codec.context.Flags, "bitexact", 0)

    def mux(c) -> None:
        for start in range(0, len(pcm), 1024):
            frame = av.AudioFrame.from_ndarray(pcm[start:start + 1024].reshape(1, -1), format="s16", layout="mono")
            frame.sample_rate, frame.pts = rate, start
            for p in stream.encode(frame):
                c.mux(p)
        for p in stream.encode():
            c.mux(p)

    return mux
