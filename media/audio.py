"""Audio: the sound track as 16 kHz mono WAV (what speech models want), WAV reading,
and cutting clips of audio or video by time.

Decoding uses PyAV (FFmpeg's libraries in-process); cutting uses the ffmpeg program
shipped by ``imageio-ffmpeg``, re-encoding so that cuts are frame-exact rather than
snapped to keyframes.
"""

from __future__ import annotations

import subprocess
import wave
from pathlib import Path

from .errors import MediaError
from .probe import open_container, probe

SPEECH_RATE = 16000


def extract_audio(path: str | Path, out: str | Path, sample_rate: int = SPEECH_RATE,
                  start: float | None = None, end: float | None = None) -> Path:
    """Write the first audio track of ``path`` (optionally only ``start``..``end``
    seconds) to ``out`` as 16-bit mono WAV at ``sample_rate``; returns ``out``."""
    import av

    path, out = str(path), Path(out)
    if not 4000 <= sample_rate <= 192000:
        raise MediaError(f"sample rate {sample_rate} Hz is out of range (4000..192000)")
    with open_container(path) as container:
        if not container.streams.audio:
            raise MediaError("no audio track", path)
        stream = container.streams.audio[0]
        resampler = av.AudioResampler(format="s16", layout="mono", rate=sample_rate)
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(f".{out.name}.part")
        first = int((start or 0) * sample_rate)
        last = int(end * sample_rate) if end is not None else None
        written = 0
        try:
            with wave.open(str(tmp), "wb") as w:
                w.setnchannels(1)
                w.setsampwidth(2)
                w.setframerate(sample_rate)
                position = 0

                def emit(frames) -> None:
                    nonlocal position, written
                    for f in frames:
                        data = f.to_ndarray().reshape(-1)
                        lo, hi = max(first - position, 0), len(data) if last is None else min(last - position, len(data))
                        if hi > lo:
                            w.writeframes(data[lo:hi].tobytes())
                            written += hi - lo
                        position += len(data)

                try:
                    for frame in container.decode(stream):
                        emit(resampler.resample(frame))
                        if last is not None and position >= last:
                            break
                except av.error.FFmpegError as e:
                    if position == 0:
                        raise MediaError(f"the audio track cannot be decoded ({e})", path) from None
                    # a truncated file: keep what was decoded
                emit(resampler.resample(None))
            tmp.replace(out)
        finally:
            tmp.unlink(missing_ok=True)
    if written == 0:
        raise MediaError("the requested audio span is empty", path)
    return out


def read_wav(path: str | Path):
    """(float32 samples in [-1, 1], sample rate) of a 16-bit PCM WAV (mono or mixed down)."""
    import numpy as np

    try:
        with wave.open(str(path), "rb") as w:
            if w.getsampwidth() != 2:
                raise MediaError(f"only 16-bit WAV is read here, not {8 * w.getsampwidth()}-bit", path)
            data = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float32) / 32768.0
            channels, rate = w.getnchannels(), w.getframerate()
    except (wave.Error, EOFError) as e:
        raise MediaError(f"not a readable WAV file ({e})", path) from None
    if channels > 1:
        data = data.reshape(-1, channels).mean(axis=1)
    return data, rate


def wav_duration(path: str | Path) -> float:
    try:
        with wave.open(str(path), "rb") as w:
            return w.getnframes() / w.getframerate()
    except (wave.Error, EOFError) as e:
        raise MediaError(f"not a readable WAV file ({e})", path) from None


def ffmpeg_exe() -> str:
    try:
        import imageio_ffmpeg
    except ImportError:
        raise MediaError("cutting clips needs imageio-ffmpeg (pip install imageio-ffmpeg)") from None
    return imageio_ffmpeg.get_ffmpeg_exe()


def cut_clip(path: str | Path, start: float, end: float, out: str | Path) -> Path:
    """Cut ``start``..``end`` seconds of ``path`` into ``out``: a ``.wav`` gets the audio
    only, anything else (``.mp4``) the video re-encoded with H.264 (and AAC audio)."""
    path, out = str(path), Path(out)
    info = probe(path)
    if not (isinstance(start, (int, float)) and isinstance(end, (int, float))) or start < 0 or end <= start:
        raise MediaError(f"bad clip span {start!r}..{end!r} s (need 0 <= start < end)", path)
    if start >= info.duration:
        raise MediaError(f"clip start {start:g} s is past the end of the media ({info.duration:g} s)", path)
    if out.suffix.lower() == ".wav":
        return extract_audio(path, out, sample_rate=info.audio_sample_rate or SPEECH_RATE, start=start, end=end)
    if not info.has_video:
        raise MediaError("no video stream to cut into a video clip (ask for a .wav)", path)
    out.parent.mkdir(parents=True, exist_ok=True)
    cmd = [ffmpeg_exe(), "-v", "error", "-nostdin", "-y", "-ss", f"{start:.6f}", "-i", path, "-t", f"{end - start:.6f}",
           "-map", "0:v:0", "-map", "0:a:0?", "-c:v", "libx264", "-preset", "veryfast", "-crf", "20",
           "-pix_fmt", "yuv420p", "-c:a", "aac", "-movflags", "+faststart", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0 or not out.exists() or out.stat().st_size == 0:
        raise MediaError(f"ffmpeg could not cut the clip: {proc.stderr.strip()[-300:]}", path)
    return out
