"""Synthetic egocentric clips and the demo suite built on them."""

import json
import subprocess
import sys

import pytest

from egoeval.media.errors import MediaError
from egoeval.media.frames import sample_frames
from egoeval.media.hashing import file_sha256
from egoeval.media.probe import probe
from egoeval.media.synth import ClipSpec, generate

SPEC = ClipSpec(kind="shelf", labels=("Souda Red Wine", "ZONIN Chianti", "Riumi Moscato"), points=(2, 0), seed=5,
                prices=("$45", "$32", "$19"))


def test_clips_are_byte_stable_for_a_seed_and_differ_across_seeds(tmp_path):
    a, b = generate(SPEC, tmp_path / "a.mp4"), generate(SPEC, tmp_path / "b.mp4")
    assert file_sha256(a.path) == file_sha256(b.path)
    c = generate(ClipSpec(**{**SPEC.__dict__, "seed": 6}), tmp_path / "c.mp4")
    assert file_sha256(c.path) != file_sha256(a.path)


def test_annotations_describe_the_clip(tmp_path):
    clip = generate(SPEC, tmp_path / "s.mp4")
    notes = json.loads((tmp_path / "s.json").read_text())
    assert notes == json.loads(json.dumps(clip.annotations))
    info = probe(clip.path)
    assert info.frame_count == notes["frames"] and (info.width, info.height) == (640, 360)
    assert [(p["order"], p["item"]) for p in notes["pointing"]] == [(1, "Riumi Moscato"), (2, "Souda Red Wine")]
    first, second = notes["pointing"]
    assert first["end"] <= second["start"] <= notes["duration"]
    assert ClipSpec.from_dict(notes["spec"]) == SPEC


def test_the_hand_is_on_screen_while_pointing_and_the_camera_moves(tmp_path):
    import numpy as np

    clip = generate(SPEC, tmp_path / "s.mp4")
    seg = clip.annotations["pointing"][0]
    mid = (seg["start"] + seg["end"]) / 2
    frames = sample_frames(clip.path, at=[0.1, mid]).frames
    skin = np.array([196, 150, 122])
    near_skin = lambda img: (np.abs(img.astype(int) - skin).sum(axis=2) < 40).mean()  # noqa: E731
    assert near_skin(frames[1].image) > near_skin(frames[0].image) + 0.01  # the hand entered
    a, b = sample_frames(clip.path, indices=[0, 1]).frames
    assert np.abs(a.image.astype(int) - b.image.astype(int)).mean() > 0.5  # head-worn camera shake


def test_narration_adds_an_audio_track(tmp_path):
    import shutil

    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")
    spec = ClipSpec(kind="menu", labels=("Lasagne", "Cheesecake"), points=(1,), narration=((0.2, "This one."),))
    assert probe(generate(spec, tmp_path / "n.mp4").path).has_audio


@pytest.mark.parametrize("bad,message", [
    (dict(kind="garage"), "unknown scene kind"), (dict(points=(7,)), "do not all name"),
    (dict(labels=()), "1 to 12"), (dict(prices=("$1",)), "one price per item"), (dict(width=10000), "out of range"),
])
def test_bad_specs_are_media_errors(tmp_path, bad, message):
    with pytest.raises(MediaError, match=message):
        generate(ClipSpec(**{**SPEC.__dict__, **bad}), tmp_path / "x.mp4")


# --- the demo suite -----------------------------------------------------------------------
def test_shipped_tasks_equal_the_builders_output():
    from egoeval.tasks import demo
    from egoeval.tasks.demo.build import build

    assert demo.raw_tasks() == json.loads(json.dumps(build()))
    tasks = demo.load_tasks()
    assert len(tasks) == 12 and {t.scenario for t in tasks} == set(demo.SCENARIOS)
    assert all(sum(t.scenario == s for t in tasks) == 3 for s in demo.SCENARIOS)
    assert demo.get_task("demo/order/11").value == ["Greek Salad", "Moussaka"]


def test_validate_demo_json(tmp_path):
    import os

    env = {**os.environ, "EGOEVAL_CACHE": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-m", "egoeval", "validate", "--suite", "demo", "--json"],
                         capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert (report["tasks"], report["oracle_joint_success"], report["null_joint_success"]) == (12, 12, 0)
    assert report["defective"] == [] and report["clip_problems"] == []
    clips = sorted((tmp_path / "cache" / "clips").rglob("*.mp4"))
    assert len(clips) == 12
    # a second generation, into another cache, gives the same bytes
    from egoeval.media.cache import Cache
    from egoeval.tasks import demo

    task = demo.get_task("demo/retail/1")
    again = demo.clip_path(task, Cache(tmp_path / "other"))
    first = next(p for p in clips if p.name == task.video)
    assert file_sha256(again) == file_sha256(first)
