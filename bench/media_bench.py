"""Speed of the media layer. Prints figures; asserts nothing.

Run from the repository root: ``python bench/media_bench.py [--repeat N] [--skip-asr]``.

* 16 uniform frames and 1 frame per second from a 20 s 720p clip, GOP 60 and GOP 250,
  with decord ``get_batch``, PyAV (our seeking decoder), OpenCV seeking and the ffmpeg
  program; our sampler's overhead over raw decord (goal <= 1.1x);
* a cache hit for 16 frames (goal <= 5 ms), in this process and in a fresh one;
* speech-to-text real-time factor for tiny.en and base (goal >= 5x for tiny.en);
* text-to-speech latency per sentence (espeak-ng; piper when installed).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from egoeval.media.frames import plan, sample_frames
from egoeval.media.probe import frame_table


def scene(i: int, w: int = 1280, h: int = 720) -> np.ndarray:
    """A moving, textured first-person-ish scene (compresses like real footage, not like a flat card)."""
    import cv2

    rng = np.random.default_rng(i // 15)
    img = np.empty((h, w, 3), np.uint8)
    yy, xx = np.mgrid[0:h, 0:w]
    img[..., 0] = (xx + 3 * i) % 256
    img[..., 1] = (yy * 2 + i) % 256
    img[..., 2] = ((xx ^ yy) + 5 * i) % 256
    for k in range(12):
        x = int((k * 137 + 7 * i) % (w - 120))
        cv2.rectangle(img, (x, 200 + (k % 4) * 110), (x + 100, 290 + (k % 4) * 110), (240, 240 - 15 * k, 30 * k % 256), -1)
        cv2.putText(img, f"ITEM {k}", (x + 5, 250 + (k % 4) * 110), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 0), 2)
    noise = rng.integers(0, 12, (h, w, 1), dtype=np.uint8)
    return cv2.add(img, np.repeat(noise, 3, axis=2))


def make_clip(path: Path, gop: int, seconds: int = 20, fps: int = 30) -> Path:
    import av

    with av.open(str(path), "w") as c:
        s = c.add_stream("libx264", rate=fps, options={"g": str(gop), "keyint_min": str(gop), "sc_threshold": "0",
                                                       "preset": "veryfast", "crf": "23"})
        s.width, s.height, s.pix_fmt = 1280, 720, "yuv420p"
        for i in range(seconds * fps):
            for p in s.encode(av.VideoFrame.from_ndarray(scene(i), format="rgb24")):
                c.mux(p)
        for p in s.encode():
            c.mux(p)
    return path


def timed(fn, repeat: int) -> float:
    """Median wall time in ms."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def raw_decord(path: Path, idx: list[int]):
    import decord

    return decord.VideoReader(str(path), ctx=decord.cpu(0)).get_batch(idx).asnumpy()


def raw_pyav(path: Path, idx: list[int]):
    from egoeval.media.backends import PyAVBackend

    return PyAVBackend().read(str(path), idx)


def opencv_seek(path: Path, idx: list[int]):
    import cv2

    cap = cv2.VideoCapture(str(path))
    out = []
    for i in idx:
        cap.set(cv2.CAP_PROP_POS_FRAMES, i)
        ok, frame = cap.read()
        out.append(frame)
    cap.release()
    return out


def ffmpeg_cli(path: Path, idx: list[int]):
    from egoeval.media.audio import ffmpeg_exe

    select = "+".join(f"eq(n\\,{i})" for i in idx)
    raw = subprocess.run([ffmpeg_exe(), "-v", "error", "-i", str(path), "-vf", f"select={select}", "-fps_mode",
                          "passthrough", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:"], capture_output=True,
                         check=True).stdout
    return np.frombuffer(raw, np.uint8).reshape(-1, 720, 1280, 3)


def bench_video(tmp: Path, repeat: int) -> None:
    print("frame sampling, 20 s 1280x720 30 fps H.264 (median ms of", repeat, "runs)")
    print(f"  {'clip':<8} {'request':<10} {'decord':>8} {'PyAV':>8} {'OpenCV':>8} {'ffmpeg':>8} {'ours':>8} {'ours/decord':>12}")
    for gop in (60, 250):
        path = make_clip(tmp / f"gop{gop}.mp4", gop)
        table = frame_table(path)
        for name, idx in (("16 frames", plan(table, num=16)), ("1 fps", plan(table, fps=1.0))):
            raw_decord(path, idx)  # warm the page cache
            t_decord = timed(lambda: raw_decord(path, idx), repeat)
            t_pyav = timed(lambda: raw_pyav(path, idx), repeat)
            t_cv = timed(lambda: opencv_seek(path, idx), max(1, repeat // 2))
            t_ff = timed(lambda: ffmpeg_cli(path, idx), max(1, repeat // 2))
            t_ours = timed(lambda: sample_frames(path, indices=idx, backend="decord"), repeat)
            print(f"  GOP {gop:<4} {name:<10} {t_decord:8.1f} {t_pyav:8.1f} {t_cv:8.1f} {t_ff:8.1f} {t_ours:8.1f}"
                  f" {t_ours / t_decord:11.2f}x")
    bench_cache(tmp, tmp / "gop60.mp4", repeat)
    keys = timed(lambda: sample_frames(tmp / "gop60.mp4", keyframes=8), max(1, repeat // 2))
    print(f"keyframes (8 of 20 s, 80 candidates): {keys:.0f} ms")


def bench_cache(tmp: Path, path: Path, repeat: int) -> None:
    from egoeval.media.cache import Cache

    cache = Cache(tmp / "cache")
    for side in (448, None):
        sample_frames(path, num=16, max_side=side, cache=cache)
        hit = timed(lambda: sample_frames(path, num=16, max_side=side, cache=cache), repeat * 4)
        touch = timed(lambda: [np.asarray(f.image).sum() for f in sample_frames(path, num=16, max_side=side, cache=cache)],
                      repeat)
        code = ("import time,sys; import numpy; from egoeval.media.frames import sample_frames; "
                "from egoeval.media.cache import Cache; t1=time.perf_counter(); "
                f"sample_frames(sys.argv[1], num=16, max_side={side}, cache=Cache(sys.argv[2])); "
                "print((time.perf_counter()-t1)*1000)")
        fresh = statistics.median(float(subprocess.run([sys.executable, "-c", code, str(path), str(tmp / "cache")],
                                                       capture_output=True, text=True, check=True).stdout)
                                  for _ in range(3))
        label = f"max side {side}" if side else "full 1280x720"
        print(f"cache hit, 16 frames, {label}: {hit:.2f} ms (pixels touched: {touch:.1f} ms); "
              f"first request in a fresh process (numpy already imported): {fresh:.1f} ms")


def speech_sample(tmp: Path) -> Path | None:
    from egoeval.media.tts import available, speak

    text = ("I am standing in front of the wine shelf. The second bottle I pointed at is the Souda red wine. "
            "Please add two of them to my cart, and tell me the total price with tax.")
    backend = "piper" if available()["piper"] is None else "espeak-ng"
    if available()[backend] is not None:
        return None
    return speak(text, tmp / "speech.wav", backend=backend).path


def bench_asr(tmp: Path) -> None:
    from egoeval.media import asr
    from egoeval.media.audio import wav_duration

    wav = speech_sample(tmp)
    if wav is None:
        print("speech-to-text: skipped (no text-to-speech backend to make speech)")
        return
    seconds = wav_duration(wav)
    for model in ("tiny.en", "base"):
        try:
            t = time.perf_counter()
            asr.load_model(model)
            load = time.perf_counter() - t
            runs = []
            for _ in range(3):
                t = time.perf_counter()
                asr.transcribe(wav, model=model, cache=False)
                runs.append(time.perf_counter() - t)
        except Exception as e:  # not installed: say so
            print(f"speech-to-text {model}: unavailable ({e})")
            continue
        best = statistics.median(runs)
        print(f"speech-to-text {model}: load {load:.2f} s; {seconds:.1f} s of speech in {best:.2f} s "
              f"= {seconds / best:.1f}x faster than real time ({os.cpu_count()} cores)")


def bench_tts(tmp: Path) -> None:
    from egoeval.media.tts import available, speak

    sentence = "The second bottle I pointed at is the Souda red wine."
    for backend, why in available().items():
        if why:
            print(f"text-to-speech {backend}: unavailable ({why})")
            continue
        try:
            speak(sentence, tmp / f"warm-{backend}.wav", backend=backend)
            t = timed(lambda: speak(sentence, tmp / f"{backend}.wav", backend=backend), 3)
            print(f"text-to-speech {backend}: {t:.0f} ms per sentence (after loading)")
        except Exception as e:
            print(f"text-to-speech {backend}: failed ({str(e)[:120]})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--skip-asr", action="store_true")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="egoeval-media-bench-"))
    try:
        bench_video(tmp, args.repeat)
        if not args.skip_asr:
            bench_asr(tmp)
        bench_tts(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
