"""The spoken user: the simulated user's messages also delivered as speech.

Omni-modal agents hear the user as well as read them. With ``egoeval run --spoken-user``
each user message is synthesised (the media layer's text-to-speech; offline espeak-ng by
default) and, for an agent that takes audio (``--agent-audio-input``), sent beside the
text as an ``input_audio`` part (OpenAI's chat format, which LiteLLM carries to other
providers). An agent that answers in speech has its audio saved and transcribed with the
offline Whisper model; the transcript (what the user hears, not the words the agent may
also have written) is what the simulated user, the scorers and the judge read. Audio files live in ``<log dir>/audio/<episode>/`` and each message event
records its file, so a run can be listened to afterwards.

Speech is never allowed to end an episode: a message that cannot be synthesised goes as
text only, and agent audio that cannot be transcribed leaves the agent's text (or its
provider's transcript), each with the reason logged on the message.
"""

from __future__ import annotations

import asyncio
import base64
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ASR_MODEL = "tiny.en"


@dataclass
class Heard:
    """What the user hears of an agent's spoken reply."""

    text: str
    log: dict[str, Any]


class SpokenChannel:
    """Speech both ways for one episode; files go to ``folder`` (created on first use)."""

    def __init__(self, folder: Path, log_dir: Path, backend: str = "espeak-ng", voice: str | None = None,
                 asr_model: str = ASR_MODEL) -> None:
        self.folder, self.log_dir = Path(folder), Path(log_dir)
        self.backend, self.voice, self.asr_model = backend, voice, asr_model

    def _rel(self, path: Path) -> str:
        return path.relative_to(self.log_dir).as_posix()

    async def user_part(self, text: str, turn: int) -> tuple[dict | None, dict]:
        """(the ``input_audio`` content part or None, what to log) for a user message."""
        from egoeval.media.errors import MediaError
        from egoeval.media.tts import speak

        out = self.folder / f"user-{turn}.wav"
        try:
            speech = await asyncio.to_thread(speak, text, out, self.backend, self.voice)
            data = base64.b64encode(speech.path.read_bytes()).decode()
        except (MediaError, OSError) as exc:
            return None, {"error": f"text-to-speech failed, sent as text only: {exc}"}
        except Exception as exc:  # noqa: BLE001 - an optional backend's own errors (piper) must not end the episode
            return None, {"error": f"text-to-speech failed, sent as text only: {type(exc).__name__}: {exc}"}
        return ({"type": "input_audio", "input_audio": {"data": data, "format": "wav"}},
                {"file": self._rel(speech.path), "duration": speech.duration, "backend": speech.backend,
                 "voice": speech.voice})

    async def hear(self, audio: bytes, turn: int, text: str | None, provider_transcript: str | None = None) -> Heard:
        """Save an agent's spoken reply and transcribe it (offline Whisper)."""
        from egoeval.media.audio import wav_duration
        from egoeval.media.errors import MediaError

        suffix = ".wav" if audio[:4] == b"RIFF" else ".mp3" if audio[:3] == b"ID3" or audio[:2] == b"\xff\xfb" else ".bin"
        out = self.folder / f"agent-{turn}{suffix}"
        log: dict[str, Any] = {"file": self._rel(out), "provider_transcript": provider_transcript}
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            out.write_bytes(audio)
            transcript = await asyncio.to_thread(self._transcribe, out)
        except (MediaError, OSError) as exc:
            log["error"] = f"the agent's audio could not be transcribed: {exc}"
            return Heard(text or provider_transcript or "", log)
        try:
            log["duration"] = round(wav_duration(out), 3) if suffix == ".wav" else None
        except MediaError:
            log["duration"] = None
        said = transcript.strip()
        log.update(transcribed_by=f"faster-whisper {self.asr_model}", transcript=said, text=text)
        return Heard(said or text or provider_transcript or "", log)

    def _transcribe(self, path: Path) -> str:
        from egoeval.media.asr import transcribe

        return transcribe(path, self.asr_model, language="en", cache=False).text
