"""``egoeval media ...`` run as a user runs it (a real subprocess)."""

import json
import shutil
import subprocess
import sys

import pytest

from clips import make_clip, read_code


def egoeval(*args, env=None):
    return subprocess.run([sys.executable, "-m", "egoeval", *args], capture_output=True, text=True, env=env)


@pytest.fixture(scope="module")
def clip(tmp_path_factory):
    return make_clip(tmp_path_factory.mktemp("cli") / "clip.mp4", frames=90, gop=30, audio_hz=300)


def test_probe_json(clip):
    out = egoeval("media", "probe", str(clip), "--json")
    assert out.returncode == 0, out.stderr
    info = json.loads(out.stdout)
    assert (info["frame_count"], info["fps"], info["has_audio"], len(info["sha256"])) == (90, 30.0, True, 64)


def test_frames_json_prints_the_manifest_and_writes_the_files(clip, tmp_path):
    out = egoeval("media", "frames", str(clip), "--at", "0,1.5,2.9", "--backend", "pyav", "--out", str(tmp_path / "f"),
                  "--json", "--contact-sheet")
    assert out.returncode == 0, out.stderr
    m = json.loads(out.stdout)
    assert m["indices"] == [0, 45, 87] and m["timestamps"] == pytest.approx([0, 1.5, 2.9])
    assert m["backend"] == "pyav" and m["video_sha256"] and len(m["frame_sha256"]) == 3
    assert all((tmp_path / "f" / p.split("/")[-1]).exists() for p in m["files"])
    assert m["files"][-1].endswith("contact_sheet.jpg")
    assert json.loads((tmp_path / "f" / "manifest.json").read_text()) == m
    import cv2

    first = cv2.cvtColor(cv2.imread(m["files"][1]), cv2.COLOR_BGR2RGB)
    assert read_code(first) == 45


@pytest.mark.parametrize("args,message", [
    (["media", "frames", "{bad}", "--num", "3", "--out", "{tmp}"], "not a readable media file"),
    (["media", "frames", "{clip}", "--at", "99", "--out", "{tmp}"], "past the end"),
    (["media", "frames", "{clip}", "--num", "3"], "--out"),
    (["media", "probe", "{tmp}/missing.mp4"], "no such file"),
    (["media", "audio", "{silent}", "--out", "{tmp}/a.wav"], "no audio track"),
])
def test_bad_media_exits_2_with_one_line(clip, tmp_path, args, message):
    bad = tmp_path / "bad.mp4"
    bad.write_text("not a video")
    silent = make_clip(tmp_path / "silent.mp4", frames=5)
    argv = [a.format(bad=bad, tmp=tmp_path, clip=clip, silent=silent) for a in args]
    out = egoeval(*argv)
    assert out.returncode == 2 and message in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_speak_then_transcribe_json(tmp_path):
    wav = tmp_path / "s.wav"
    out = egoeval("media", "speak", "Hello, I would like the menu please.", "--out", str(wav))
    assert out.returncode == 0 and wav.exists(), out.stderr
    pytest.importorskip("faster_whisper")
    out = egoeval("media", "transcribe", str(wav), "--json", "--no-cache")
    assert out.returncode == 0, out.stderr
    t = json.loads(out.stdout)
    assert t["language"] == "en" and "menu" in t["text"].lower()
    assert {"start", "end", "text"} <= set(t["segments"][0])
