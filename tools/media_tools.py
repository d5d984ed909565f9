"""Agent-facing media tools: let the agent look again, closer, and listen.

An agent under test gets some frames with the user's first message; these tools let it
ask for more of its episode's video — facts about it, frames over a span, the sharpest
frames, the frame at a second, the audio, a transcript, a cut clip. A :class:`MediaTools`
is bound to one episode: the videos it may read (by name, never by host path) and the
:class:`~egoeval.tools.workspace.Workspace` it may write to. The one tool registry
dispatches to it (``ToolRegistry.execute(env, call, extra=[media])``).

Every tool returns a JSON-able value, and frame tools add JPEG images the runner hands
to the model plus the frame manifest for the log. Bad arguments fail as ``tool_error``
and unusable media as ``media_error``: results for the agent, never crashes. Host paths
never appear in a result. The tools block (decoding, Whisper): the runner calls them
off its event loop.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from egoeval.media.audio import SPEECH_RATE, cut_clip, extract_audio, wav_duration
from egoeval.media.cache import Cache
from egoeval.media.errors import MediaError
from egoeval.media.frames import FrameSet, sample_frames, uniform_indices
from egoeval.media.probe import frame_table, probe
from egoeval.tools.registry import ToolError, ToolImage, ToolOutput
from egoeval.tools.toolset import Toolset, prop as _prop
from egoeval.tools.workspace import Workspace

class MediaTools(Toolset):
    """The media tools of one episode.

    ``videos`` maps the names the agent uses (e.g. ``retail1.mp4``) to files; a list of
    paths is named by file name. ``workspace`` receives extracted audio and cut clips
    (without one those two tools say so). ``cache`` is the media cache for frames and
    transcripts (True: the default cache). Frames are shrunk to ``max_side`` pixels and
    encoded as JPEG under ``max_image_bytes``; one call returns at most ``max_frames``.
    """

    def __init__(self, videos: Mapping[str, str | Path] | Sequence[str | Path],
                 workspace: Workspace | None = None, cache: Cache | bool | None = True,
                 max_side: int = 512, max_frames: int = 16, max_image_bytes: int = 200_000,
                 asr_model: str = "tiny.en") -> None:
        if not isinstance(videos, Mapping):
            videos = {Path(v).name: v for v in videos}
        if not videos:
            raise ValueError("media tools need at least one video")
        super().__init__(workspace)
        self.videos = {name: Path(p) for name, p in videos.items()}
        self.cache = cache
        self.max_side, self.max_frames, self.max_image_bytes = max_side, max_frames, max_image_bytes
        self.asr_model = asr_model
        self.add("get_video_info", self._info_schema(), self.get_video_info)
        self.add("sample_frames", self._frames_schema(), self.sample_frames)
        self.add("get_frame_at", self._frame_at_schema(), self.get_frame_at)
        self.add("save_frame", self._save_frame_schema(), self.save_frame)
        self.add("extract_audio", self._audio_schema(), self.extract_audio)
        self.add("transcribe", self._transcribe_schema(), self.transcribe)
        self.add("cut_clip", self._cut_schema(), self.cut_clip)

    failures = ((MediaError, "media_error"), (OSError, "media_error"), (ValueError, "media_error"),
                (RuntimeError, "media_error"))

    def hide_paths(self, message: str) -> str:
        """Replace host paths in a message by the names the agent knows."""
        for name, path in self.videos.items():
            message = message.replace(str(path), name)
        return super().hide_paths(message)

    # --- schemas --------------------------------------------------------------------
    def _video_prop(self) -> dict:
        names = list(self.videos)
        return _prop("string", f"Which video (default {names[0]}).", enum=names)

    def _info_schema(self) -> dict:
        return {"type": "object", "properties": {"video": self._video_prop()}}

    def _frames_schema(self) -> dict:
        return {"type": "object", "properties": {
            "num_frames": _prop("integer", f"How many frames (1..{self.max_frames}, default 8).",
                                minimum=1, maximum=self.max_frames),
            "start_second": _prop("number", "Start of the span to sample (default: the start).", minimum=0),
            "end_second": _prop("number", "End of the span to sample (default: the end).", minimum=0),
            "method": _prop("string", "'uniform' (evenly spaced) or 'sharpest' (the clearest frame of each "
                                      "segment, scene changes, no near-duplicates; whole video only).",
                            enum=["uniform", "sharpest"]),
            "video": self._video_prop()}}

    def _frame_at_schema(self) -> dict:
        return {"type": "object", "required": ["second"], "properties": {
            "second": _prop("number", "Time in seconds from the start.", minimum=0),
            "video": self._video_prop()}}

    def _audio_schema(self) -> dict:
        return {"type": "object", "required": ["file_name"], "properties": {
            "file_name": _prop("string", "Workspace file to write, ending in .wav."),
            "video": self._video_prop()}}

    def _transcribe_schema(self) -> dict:
        return {"type": "object", "properties": {
            "source": _prop("string", "A video name or a workspace audio/video file (default: the first video)."),
            "start_second": _prop("number", "Start of the span to transcribe (default: the start).", minimum=0),
            "end_second": _prop("number", "End of the span to transcribe (default: the end).", minimum=0)}}

    def _save_frame_schema(self) -> dict:
        return {"type": "object", "required": ["second", "file_name"], "properties": {
            "second": _prop("number", "Time in seconds from the start.", minimum=0),
            "file_name": _prop("string", "Workspace image file to write (.png or .jpg), e.g. to put in a document."),
            "video": self._video_prop()}}

    def _cut_schema(self) -> dict:
        return {"type": "object", "required": ["start_second", "end_second", "file_name"], "properties": {
            "start_second": _prop("number", "Start of the clip in seconds.", minimum=0),
            "end_second": _prop("number", "End of the clip in seconds.", minimum=0),
            "file_name": _prop("string", "Workspace file to write: .mp4 (video) or .wav (audio only)."),
            "video": self._video_prop()}}

    # --- helpers --------------------------------------------------------------------
    def _video(self, name: str | None) -> tuple[str, Path]:
        name = name or next(iter(self.videos))
        if name not in self.videos:
            raise ToolError(f"unknown video {name!r} (this episode has: {', '.join(self.videos)})")
        return name, self.videos[name]


    def _frames(self, video: str, fs: FrameSet) -> ToolOutput:
        images = [ToolImage(f.encode("jpeg", 85, self.max_image_bytes), "image/jpeg",
                            f"{video} frame {f.index} at {f.timestamp:.2f} s") for f in fs]
        listed = [{"index": f.index, "second": round(f.timestamp, 3)} for f in fs]
        return ToolOutput({"video": video, "frames": listed, "width": fs.manifest.width,
                           "height": fs.manifest.height}, images, fs.manifest.to_dict())

    # --- tools ----------------------------------------------------------------------
    def get_video_info(self, video: str | None = None) -> ToolOutput:
        """Duration, frame rate, frame count, size and whether the video has sound."""
        name, path = self._video(video)
        info = probe(path)
        if not info.has_video:
            raise MediaError("no video stream", path)
        return ToolOutput({"video": name, "duration_seconds": round(info.duration, 3), "fps": round(info.fps, 3),
                           "frame_count": info.frame_count, "width": info.width, "height": info.height,
                           "has_audio": info.has_audio})

    def sample_frames(self, num_frames: int = 8, start_second: float | None = None,
                      end_second: float | None = None, method: str = "uniform",
                      video: str | None = None) -> ToolOutput:
        """Look at frames of the video: evenly spaced over the video or a span, or the sharpest ones.

        Each image is captioned with its frame index and time.
        """
        name, path = self._video(video)
        windowed = start_second is not None or end_second is not None
        if method == "sharpest":
            if windowed:
                raise ToolError("'sharpest' covers the whole video: leave out start_second and end_second")
            fs = sample_frames(path, keyframes=num_frames, max_side=self.max_side, cache=self.cache)
        elif windowed:
            table = frame_table(path)
            start = 0.0 if start_second is None else start_second
            end = table.duration if end_second is None else end_second
            if start >= table.duration:
                raise MediaError(f"start_second {start:g} is past the end of the video ({table.duration:.2f} s)")
            if end <= start:
                raise ToolError(f"end_second ({end:g}) must be after start_second ({start:g})")
            span = [i for i, t in enumerate(table.times) if start <= t < end]
            if not span:
                raise ToolError(f"no frame starts between {start:g} and {end:g} s")
            chosen = [span[i] for i in uniform_indices(len(span), num_frames)]
            fs = sample_frames(path, indices=sorted(set(chosen)), max_side=self.max_side, cache=self.cache)
        else:
            fs = sample_frames(path, num=num_frames, max_side=self.max_side, cache=self.cache)
        return self._frames(name, fs)

    def get_frame_at(self, second: float, video: str | None = None) -> ToolOutput:
        """Look at the frame shown at a given second of the video."""
        name, path = self._video(video)
        return self._frames(name, sample_frames(path, at=[second], max_side=self.max_side, cache=self.cache))

    def save_frame(self, second: float, file_name: str, video: str | None = None) -> ToolOutput:
        """Save the frame shown at a given second as an image file in the workspace (full size)."""
        import cv2

        name, path = self._video(video)
        out = self.workspace_file(file_name, (".png", ".jpg", ".jpeg"))
        frame = sample_frames(path, at=[second], cache=self.cache).frames[0]
        out.parent.mkdir(parents=True, exist_ok=True)
        if not cv2.imwrite(str(out), cv2.cvtColor(frame.image, cv2.COLOR_RGB2BGR)):
            raise ToolError(f"could not write {file_name}")
        self.need_workspace().enforce_quota(out)
        return ToolOutput({"file": file_name, "video": name, "frame": frame.index, "second": round(frame.timestamp, 3),
                           "width": int(frame.image.shape[1]), "height": int(frame.image.shape[0])},
                          artifacts=[file_name])

    def extract_audio(self, file_name: str, video: str | None = None) -> ToolOutput:
        """Save the video's sound track as a 16 kHz mono WAV file in the workspace."""
        _, path = self._video(video)
        ws = self.need_workspace()
        out = ws.path(file_name)
        if out.suffix.lower() != ".wav":
            raise ToolError("extract_audio writes a .wav file")
        extract_audio(path, out)
        ws.enforce_quota(out)
        return ToolOutput({"file": file_name, "duration_seconds": round(wav_duration(out), 3),
                           "sample_rate": SPEECH_RATE}, artifacts=[file_name])

    def transcribe(self, source: str | None = None, start_second: float | None = None,
                   end_second: float | None = None) -> ToolOutput:
        """Transcribe what is said in a video or workspace file (speech-to-text, with segment times)."""
        from egoeval.media.asr import transcribe

        if source is None or source in self.videos:
            _, path = self._video(source)
        else:
            path = self.need_workspace().path(source, must_exist=True)
        offset = start_second or 0.0
        if start_second is None and end_second is None:
            result = transcribe(path, model=self.asr_model, cache=self.cache)
        else:
            end = probe(path).duration if end_second is None else end_second
            with tempfile.TemporaryDirectory(prefix="egoeval-tool-") as tmp:
                piece = cut_clip(path, offset, end, Path(tmp) / "span.wav")
                result = transcribe(piece, model=self.asr_model, cache=self.cache)
        segments = [{"start_second": round(s.start + offset, 2), "end_second": round(s.end + offset, 2),
                     "text": s.text.strip()} for s in result.segments]
        return ToolOutput({"text": result.text.strip(), "language": result.language, "segments": segments})

    def cut_clip(self, start_second: float, end_second: float, file_name: str,
                 video: str | None = None) -> ToolOutput:
        """Cut a span of the video into a workspace file: .mp4 for video, .wav for sound only."""
        _, path = self._video(video)
        ws = self.need_workspace()
        out = ws.path(file_name)
        if out.suffix.lower() not in (".mp4", ".wav"):
            raise ToolError("cut_clip writes a .mp4 or a .wav file")
        cut_clip(path, start_second, end_second, out)
        ws.enforce_quota(out)
        return ToolOutput({"file": file_name, "duration_seconds": round(probe(out).duration, 3)},
                          artifacts=[file_name])
