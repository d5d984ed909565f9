"""What the agent sees of the task's video before the user's first message.

One of: N uniform frames (default 8), frames at a rate, the sharpest keyframes, those
frames as a single contact sheet (for single-image models), or the video file itself
for providers that accept video. Each becomes OpenAI content parts (captioned JPEG data
URLs) plus a log record holding the frame manifest, so a score can be traced to the
exact pixels the model saw. ``no_video`` runs without any video (for agents that do not
look, such as the oracle over EgoBench without the downloaded videos); the log says so.
Building an observation decodes video: the runner calls :func:`observe` in a thread.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import asdict, dataclass, field
from pathlib import Path

from egoeval.task import Task
from egoeval.videos import resolve_video


@dataclass
class ObservationConfig:
    frames: int | None = 8
    fps: float | None = None
    keyframes: int | None = None
    contact_sheet: bool = False
    native_video: bool = False
    no_video: bool = False
    max_frames: int = 64
    max_side: int = 448
    max_image_bytes: int = 200_000

    def kind(self) -> str:
        if self.no_video:
            return "none"
        if self.native_video:
            return "native_video"
        base = "keyframes" if self.keyframes else "fps" if self.fps else "uniform"
        return f"{base}+contact_sheet" if self.contact_sheet else base

    def to_dict(self) -> dict:
        return {**asdict(self), "kind": self.kind()}


@dataclass
class Observation:
    parts: list[dict] = field(default_factory=list)
    log: dict = field(default_factory=dict)


def _image_part(data: bytes) -> dict:
    return {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64," + base64.b64encode(data).decode()}}


def observe(task: Task, cfg: ObservationConfig, folder: Path | None = None) -> Observation:
    """Build the observation; raises ``VideoMissing`` or ``MediaError`` when it cannot."""
    if cfg.no_video:
        return Observation([], {"kind": "none", "video": None,
                                "reason": "run without video (--no-video): the agent saw no frames"})
    path = resolve_video(task, folder)
    if cfg.native_video:
        data = path.read_bytes()
        mime = "video/quicktime" if path.suffix.lower() == ".mov" else "video/mp4"
        part = {"type": "file", "file": {"file_data": f"data:{mime};base64,{base64.b64encode(data).decode()}",
                                         "format": mime}}
        return Observation([{"type": "text", "text": f"Video {task.video}:"}, part],
                           {"kind": "native_video", "video": task.video, "bytes": len(data),
                            "sha256": hashlib.sha256(data).hexdigest()})
    from egoeval.media.frames import sample_frames

    if cfg.keyframes:
        fs = sample_frames(path, keyframes=cfg.keyframes, max_side=cfg.max_side, cache=True)
    elif cfg.fps:
        fs = sample_frames(path, fps=cfg.fps, max_frames=cfg.max_frames, max_side=cfg.max_side, cache=True)
    else:
        fs = sample_frames(path, num=cfg.frames or 8, max_side=cfg.max_side, cache=True)
    log = {"kind": cfg.kind(), "video": task.video, "manifest": fs.manifest.to_dict()}
    intro = f"Frames from the user's first-person video {task.video} ({len(fs)} frames, in order):"
    if cfg.contact_sheet:
        from egoeval.media.contact import contact_sheet
        from egoeval.media.encode import encode_image

        sheet = encode_image(contact_sheet(fs.frames), "jpeg", 85, cfg.max_image_bytes * 4)
        log["contact_sheet_sha256"] = hashlib.sha256(sheet).hexdigest()
        return Observation([{"type": "text", "text": intro + " one contact sheet, each cell labelled with its time."},
                            _image_part(sheet)], log)
    parts: list[dict] = [{"type": "text", "text": intro}]
    for f in fs:
        parts.append({"type": "text", "text": f"frame {f.index} at {f.timestamp:.2f} s"})
        parts.append(_image_part(f.encode("jpeg", 85, cfg.max_image_bytes)))
    return Observation(parts, log)
