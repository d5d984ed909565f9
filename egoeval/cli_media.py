"""``egoeval media ...``: probe, sample frames, extract and cut audio/video, transcribe,
speak, and make synthetic clips. Every MediaError becomes a one-line message, exit 2."""

from __future__ import annotations

import argparse
import functools
import json
from pathlib import Path
from typing import Callable

EXIT_OK = 0


def _media_errors(func: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Turn MediaError into the CLI's bad-input error (imported lazily, like the rest)."""

    @functools.wraps(func)
    def wrapper(args: argparse.Namespace) -> int:
        from egoeval.cli import CliError
        from egoeval.media.errors import MediaError

        try:
            return func(args)
        except MediaError as e:
            raise CliError(str(e)) from None
        except OSError as e:  # e.g. --out names a folder where a file goes, or the other way round
            raise CliError(f"{e.filename or ''}: {e.strerror or e}".lstrip(": ")) from None

    return wrapper


def _floats(text: str) -> list[float]:
    try:
        return [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated seconds, got {text!r}") from None


def _ints(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated frame indices, got {text!r}") from None


@_media_errors
def cmd_probe(args: argparse.Namespace) -> int:
    from egoeval.media.probe import probe

    info = probe(args.video)
    if args.json:
        print(json.dumps(info.to_dict(), indent=2))
        return EXIT_OK
    print(f"{info.path}\n  container {info.container}, {info.size_bytes:,} bytes, sha256 {info.sha256}")
    print(f"  duration {info.duration:.3f} s")
    if info.has_video:
        print(f"  video {info.codec} {info.width}x{info.height}, {info.fps:.3f} fps, {info.frame_count} frames"
              + (f", rotated {info.rotation}°" if info.rotation else ""))
    print(f"  audio {info.audio_codec} {info.audio_sample_rate} Hz, {info.audio_channels} ch" if info.has_audio
          else "  no audio")
    return EXIT_OK


@_media_errors
def cmd_frames(args: argparse.Namespace) -> int:
    from egoeval.cli import CliError
    from egoeval.media.frames import sample_frames

    if args.include_last and args.num is None:
        raise CliError("--include-last goes with --num (uniform frames)")
    if args.max_frames is not None and args.fps is None:
        raise CliError("--max-frames goes with --fps")

    fs = sample_frames(args.video, num=args.num, fps=args.fps, at=args.at, indices=args.indices,
                       keyframes=args.keyframes, include_last=args.include_last, max_frames=args.max_frames,
                       max_side=args.max_side, backend=args.backend, cache=True if args.cache else None)
    out = Path(args.out)
    fs.save(out, fmt=args.format)
    if args.contact_sheet:
        import cv2

        from egoeval.media.contact import contact_sheet

        sheet = out / "contact_sheet.jpg"
        cv2.imwrite(str(sheet), cv2.cvtColor(contact_sheet(fs), cv2.COLOR_RGB2BGR))
        fs.manifest.files.append(str(sheet))
    manifest = fs.manifest.to_dict()
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2))
    if args.json:
        print(json.dumps(manifest, indent=2))
    else:
        m = fs.manifest
        print(f"{len(fs)} frames ({m.width}x{m.height}, backend {m.backend} {m.backend_version}) -> {out}")
        for i, t in zip(m.indices, m.timestamps):
            print(f"  #{i:<6} {t:9.3f} s")
    return EXIT_OK


@_media_errors
def cmd_audio(args: argparse.Namespace) -> int:
    from egoeval.media.audio import extract_audio, wav_duration

    out = extract_audio(args.media, args.out, sample_rate=args.rate, start=args.start, end=args.end)
    print(f"{out} ({wav_duration(out):.2f} s, {args.rate} Hz mono)")
    return EXIT_OK


@_media_errors
def cmd_cut(args: argparse.Namespace) -> int:
    from egoeval.media.audio import cut_clip

    print(cut_clip(args.media, args.start, args.end, args.out))
    return EXIT_OK


@_media_errors
def cmd_transcribe(args: argparse.Namespace) -> int:
    from egoeval.media.asr import transcribe

    result = transcribe(args.file, model=args.model, language=args.language, word_timestamps=args.words,
                        cache=not args.no_cache)
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
        return EXIT_OK
    for s in result.segments:
        print(f"[{s.start:7.2f} – {s.end:7.2f}] {s.text}")
    print(f"({result.model}, language {result.language}, {result.duration:.1f} s of audio)")
    return EXIT_OK


@_media_errors
def cmd_speak(args: argparse.Namespace) -> int:
    from egoeval.media.tts import speak

    speech = speak(args.text, args.out, backend=args.backend, voice=args.voice)
    print(f"{speech.path} ({speech.duration:.2f} s, {speech.sample_rate} Hz, {speech.backend} voice {speech.voice})")
    return EXIT_OK


@_media_errors
def cmd_synth(args: argparse.Namespace) -> int:
    from egoeval.media.synth import ClipSpec, generate

    from egoeval.cli import CliError

    own = [f"--{k}" for k in ("kind", "labels", "points", "seed", "narrate") if getattr(args, k) is not None]
    if args.task:
        from egoeval.tasks import demo

        if own:
            raise CliError(f"--task makes the task's own clip; leave out {', '.join(own)}")
        try:
            spec = ClipSpec.from_dict(demo.get_task(args.task).extra["clip"])
        except KeyError:
            raise CliError(f"unknown demo task {args.task!r}; e.g. demo/retail/1 (see `egoeval tasks list --suite demo`)")
    else:
        labels = args.labels or "Souda Red Wine,ZONIN Chianti,Riumi Moscato,Mouton Cadet"
        spec = ClipSpec(kind=args.kind or "shelf", labels=tuple(x.strip() for x in labels.split(",") if x.strip()),
                        points=tuple(args.points if args.points is not None else [1, 3]), seed=args.seed or 0,
                        narration=tuple((0.3, line) for line in ([args.narrate] if args.narrate else [])))
    clip = generate(spec, args.out)
    if args.json:
        print(json.dumps(clip.annotations, ensure_ascii=False, indent=2))
    else:
        print(f"{clip.path} ({clip.annotations['duration']} s, {clip.annotations['frames']} frames); "
              f"annotations in {clip.path.with_suffix('.json')}")
        for seg in clip.annotations["pointing"]:
            print(f"  {seg['start']:5.2f}-{seg['end']:5.2f} s  points at #{seg['position']} {seg['item']}")
    return EXIT_OK


def add_media_parser(sub, parser_class) -> None:
    m = sub.add_parser("media", help="probe videos, sample frames, audio, speech-to-text, text-to-speech")
    msub = m.add_subparsers(dest="media_command", metavar="ACTION", parser_class=parser_class)

    p = msub.add_parser("probe", help="duration, fps, frames, size, rotation, codecs, audio, sha256")
    p.add_argument("video")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_probe)

    f = msub.add_parser("frames", help="sample frames (uniform, rate, timestamps, indices or keyframes)")
    f.add_argument("video")
    how = f.add_mutually_exclusive_group(required=True)
    how.add_argument("--num", type=int, help="N frames spread evenly")
    how.add_argument("--fps", type=float, help="frames per second")
    how.add_argument("--at", type=_floats, metavar="T,T,...", help="timestamps in seconds")
    how.add_argument("--indices", type=_ints, metavar="I,I,...", help="frame indices")
    how.add_argument("--keyframes", type=int, metavar="N", help="the N sharpest distinct frames")
    f.add_argument("--include-last", action="store_true", help="with --num: span first to last frame")
    f.add_argument("--max-frames", type=int, help="with --fps: at most this many")
    f.add_argument("--max-side", type=int, metavar="PX", help="shrink frames to this longer side")
    f.add_argument("--backend", choices=("decord", "pyav"), help="default: decord, falling back to PyAV")
    f.add_argument("--format", choices=("jpeg", "png"), default="jpeg")
    f.add_argument("--contact-sheet", action="store_true", help="also write contact_sheet.jpg")
    f.add_argument("--cache", action="store_true", help="use the frame cache ($EGOEVAL_CACHE)")
    f.add_argument("--out", required=True, metavar="DIR")
    f.add_argument("--json", action="store_true", help="print the frame manifest")
    f.set_defaults(func=cmd_frames)

    a = msub.add_parser("audio", help="extract the audio track as mono WAV (16 kHz by default)")
    a.add_argument("media")
    a.add_argument("--out", required=True, metavar="WAV")
    a.add_argument("--rate", type=int, default=16000)
    a.add_argument("--start", type=float)
    a.add_argument("--end", type=float)
    a.set_defaults(func=cmd_audio)

    c = msub.add_parser("cut", help="cut START..END seconds into a clip (.mp4) or audio (.wav)")
    c.add_argument("media")
    c.add_argument("start", type=float)
    c.add_argument("end", type=float)
    c.add_argument("--out", required=True)
    c.set_defaults(func=cmd_cut)

    t = msub.add_parser("transcribe", help="speech-to-text with Whisper (offline)")
    t.add_argument("file")
    t.add_argument("--model", default="tiny.en", help="tiny.en (default) or base")
    t.add_argument("--language", help="e.g. en (default: detected)")
    t.add_argument("--words", action="store_true", help="word timestamps")
    t.add_argument("--no-cache", action="store_true")
    t.add_argument("--json", action="store_true")
    t.set_defaults(func=cmd_transcribe)

    s = msub.add_parser("speak", help="text-to-speech into a WAV file")
    s.add_argument("text")
    s.add_argument("--out", required=True, metavar="WAV")
    s.add_argument("--backend", default="espeak-ng", help="espeak-ng (default, offline), piper, edge-tts (online)")
    s.add_argument("--voice")
    s.set_defaults(func=cmd_speak)

    y = msub.add_parser("synth", help="generate a synthetic egocentric clip (and its annotations)")
    y.add_argument("--task", help="the clip of a demo task, e.g. demo/retail/1")
    y.add_argument("--kind", choices=("shelf", "menu", "counter"), help="default shelf")
    y.add_argument("--labels", help="comma-separated item labels (default: four wines)")
    y.add_argument("--points", type=_ints, metavar="P,P,...",
                   help="0-based positions pointed at, in order (default 1,3)")
    y.add_argument("--seed", type=int, help="default 0")
    y.add_argument("--narrate", metavar="TEXT", help="spoken narration (espeak-ng) at 0.3 s")
    y.add_argument("--out", required=True, metavar="CLIP.mp4")
    y.add_argument("--json", action="store_true", help="print the annotations")
    y.set_defaults(func=cmd_synth)
