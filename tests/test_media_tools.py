"""The agent-facing media tools, called the way the runner calls them: through the one
tool registry, next to a scenario environment, on real encoded clips."""

import importlib.util
import json
import os
import shutil
import subprocess

import numpy as np
import pytest

from egoeval.media import tts
from egoeval.media.cache import Cache
from egoeval.tasks import egobench as suite
from egoeval.tools.egobench import ENVIRONMENTS
from egoeval.tools.media_tools import MediaTools
from egoeval.tasks.egobench import tool_schemas
from egoeval.tools.registry import ERROR_CATEGORIES, ToolRegistry
from egoeval.tools.workspace import Workspace, WorkspaceError

from clips import make_clip, read_code

REG = ToolRegistry()
MEDIA_TOOLS = {"get_video_info", "sample_frames", "get_frame_at", "save_frame", "extract_audio", "transcribe",
               "cut_clip"}


@pytest.fixture(scope="module")
def clip(tmp_path_factory):
    """90 frames at 30 fps (3 s), every frame carrying its index, with a tone track."""
    return make_clip(tmp_path_factory.mktemp("v") / "shelf.mp4", frames=90, fps=30, gop=30, audio_hz=440)


@pytest.fixture
def media(clip, tmp_path):
    return MediaTools({"retail1.mp4": clip}, workspace=Workspace(tmp_path / "ws"), cache=Cache(tmp_path / "cache"))


@pytest.fixture(scope="module")
def env():
    return REG.new_env("retail", suite.seed("retail_init_data1"))


def run(env, media, tool, **params):
    return REG.execute(env, {"tool_name": tool, "parameters": params}, extra=[media])


def value(result):
    return json.loads(result.content)


def decoded(result):
    import cv2

    return [cv2.imdecode(np.frombuffer(im.data, np.uint8), cv2.IMREAD_COLOR)[..., ::-1] for im in result.images]


def test_media_tools_join_every_scenario_without_clashing(media):
    for scenario, cls in ENVIRONMENTS.items():
        assert not MEDIA_TOOLS & set(cls.members)
        names = [s["function"]["name"] for s in REG.schemas(tool_schemas(scenario), extra=[media])]
        assert names[-7:] == list(media.members) and set(names[-7:]) == MEDIA_TOOLS
        assert names[:-7] == [s["function"]["name"] for s in REG.schemas(tool_schemas(scenario))]
    for s in media.schemas():
        fn = s["function"]
        assert fn["description"] and fn["parameters"]["type"] == "object"
        assert set(fn["parameters"].get("required", [])) <= set(fn["parameters"]["properties"])
    video = media.schemas()[0]["function"]["parameters"]["properties"]["video"]
    assert video["enum"] == ["retail1.mp4"]


def test_scenario_tools_still_win_and_unknown_names_stay_unknown(env, media):
    found = run(env, media, "find_products_by_allergen", allergen="nuts")
    assert found.error is None and not found.images and found.manifest is None
    missing = run(env, media, "teleport")
    assert missing.error == "unknown_tool" and value(missing) == {"error": "Tool 'teleport' not found"}
    assert REG.execute(env, {"tool_name": "sample_frames", "parameters": {}}).error == "unknown_tool"


def test_video_info(env, media):
    result = run(env, media, "get_video_info")
    assert result.error is None and not result.images
    info = value(result)
    assert info["video"] == "retail1.mp4" and info["frame_count"] == 90 and info["fps"] == 30
    assert info["duration_seconds"] == pytest.approx(3.0, abs=0.05) and info["has_audio"] is True
    assert (info["width"], info["height"]) == (192, 112)


def test_uniform_frames_are_the_frames_they_say(env, media):
    result = run(env, media, "sample_frames", num_frames=4)
    assert result.error is None
    listed = value(result)["frames"]
    assert [f["index"] for f in listed] == result.manifest["indices"] and len(result.images) == 4
    assert [read_code(im) for im in decoded(result)] == [f["index"] for f in listed]
    assert [f["second"] for f in listed] == pytest.approx([f["index"] / 30 for f in listed], abs=1e-3)
    assert result.images[1].caption == f"retail1.mp4 frame {listed[1]['index']} at {listed[1]['second']:.2f} s"
    parts = result.content_parts()
    assert parts[0] == {"type": "text", "text": result.content}
    urls = [p["image_url"]["url"] for p in parts if p["type"] == "image_url"]
    assert len(urls) == 4 and all(u.startswith("data:image/jpeg;base64,") for u in urls)
    log = result.to_log()
    assert log["frame_manifest"]["frame_sha256"] == result.manifest["frame_sha256"]
    assert [i["bytes"] for i in log["images"]] == [len(im.data) for im in result.images]
    assert "data" not in json.dumps(log["images"])  # the log keeps hashes, not pixels


def test_frames_over_a_span_and_at_a_second(env, media):
    span = run(env, media, "sample_frames", num_frames=3, start_second=1.0, end_second=1.5)
    indices = [f["index"] for f in value(span)["frames"]]
    assert len(indices) == 3 and all(30 <= i < 45 for i in indices)
    assert [read_code(im) for im in decoded(span)] == indices
    at = run(env, media, "get_frame_at", second=2.0)
    assert value(at)["frames"] == [{"index": 60, "second": 2.0}] and read_code(decoded(at)[0]) == 60


def test_sharpest_frames(env, media):
    result = run(env, media, "sample_frames", num_frames=3, method="sharpest")
    assert result.error is None and 1 <= len(result.images) <= 3
    assert result.manifest["params"]["keyframes"] == 3
    windowed = run(env, media, "sample_frames", method="sharpest", start_second=1.0)
    assert windowed.error == "tool_error" and "whole video" in value(windowed)["error"]


@pytest.mark.parametrize("tool,params,message", [
    ("get_frame_at", {}, "missing required parameter 'second'"),
    ("get_frame_at", {"second": "two"}, "parameter 'second' must be a number, not str"),
    ("sample_frames", {"num_frames": True}, "parameter 'num_frames' must be a integer, not bool"),
    ("sample_frames", {"num_frames": 2.5}, "parameter 'num_frames' must be a integer, not float"),
    ("sample_frames", {"num_frames": 500}, "parameter 'num_frames' must be within 1..16"),
    ("sample_frames", {"method": "best"}, "parameter 'method' must be one of ['uniform', 'sharpest']"),
    ("sample_frames", {"frames": 3}, "unexpected parameter 'frames'"),
    ("sample_frames", {"start_second": 2.0, "end_second": 1.0}, "end_second (1) must be after start_second (2)"),
    ("get_frame_at", {"second": float("nan")}, "parameter 'second' must be a finite number"),
    ("get_video_info", {"video": "kitchen1.mp4"}, "must be one of ['retail1.mp4']"),
])
def test_bad_arguments_are_tool_errors(env, media, tool, params, message):
    result = run(env, media, tool, **params)
    assert result.error == "tool_error" and message in value(result)["error"]


def test_a_time_past_the_end_is_a_media_error_without_host_paths(env, media, clip):
    for tool, params in (("get_frame_at", {"second": 9.0}), ("sample_frames", {"start_second": 7.0})):
        result = run(env, media, tool, **params)
        assert result.error == "media_error" and result.error in ERROR_CATEGORIES
        text = value(result)["error"]
        assert "past the end" in text and str(clip.parent) not in text


def test_corrupt_and_silent_videos_give_results_not_crashes(env, tmp_path):
    bad = tmp_path / "menu.mp4"
    bad.write_text("this is not a video")
    silent = make_clip(tmp_path / "silent.mp4", frames=30)
    tools = MediaTools([bad, silent], workspace=Workspace(tmp_path / "ws"), cache=False)
    for tool, params in (("get_video_info", {}), ("sample_frames", {}), ("get_frame_at", {"second": 0}),
                         ("extract_audio", {"file_name": "a.wav"}), ("cut_clip", {"start_second": 0,
                                                                                   "end_second": 1,
                                                                                   "file_name": "c.mp4"})):
        result = run(env, tools, tool, **params)
        assert result.error == "media_error", (tool, result.content)
        assert str(tmp_path) not in result.content and "menu.mp4" in value(result)["error"]
    no_sound = run(env, tools, "extract_audio", file_name="s.wav", video="silent.mp4")
    assert no_sound.error == "media_error" and "no audio track" in value(no_sound)["error"]
    assert run(env, tools, "get_video_info", video="silent.mp4").error is None  # the run goes on


def test_a_frame_saved_to_the_workspace(env, media):
    import cv2

    saved = run(env, media, "save_frame", second=1.0, file_name="frames/step.png")
    assert saved.error is None and saved.artifacts == ["frames/step.png"]
    assert value(saved)["frame"] == 30 and value(saved)["width"] == 192
    img = cv2.imread(str(media.workspace.root / "frames" / "step.png"))[..., ::-1]
    assert read_code(img) == 30
    wrong = run(env, media, "save_frame", second=1.0, file_name="step.mp4")
    assert wrong.error == "tool_error" and ".png" in value(wrong)["error"]


def test_audio_and_clips_land_in_the_workspace(env, media):
    audio = run(env, media, "extract_audio", file_name="sound/track.wav")
    assert audio.error is None
    assert value(audio) == {"file": "sound/track.wav", "duration_seconds": pytest.approx(3.0, abs=0.1),
                            "sample_rate": 16000}
    cut = run(env, media, "cut_clip", start_second=1.0, end_second=2.0, file_name="middle.mp4")
    assert cut.error is None and value(cut)["duration_seconds"] == pytest.approx(1.0, abs=0.1)
    names = {f["name"] for f in media.workspace.files()}
    assert names == {"sound/track.wav", "middle.mp4"}
    from egoeval.media.frames import sample_frames

    first = sample_frames(media.workspace.root / "middle.mp4", indices=[0], cache=False)
    assert abs(read_code(first.frames[0].image) - 30) <= 1
    for name in ("../escape.wav", "/tmp/x.wav", ".hidden.wav", "notes.exe"):
        refused = run(env, media, "cut_clip", start_second=0, end_second=1, file_name=name)
        assert refused.error == "tool_error", name
    wrong_kind = run(env, media, "extract_audio", file_name="track.mp4")
    assert wrong_kind.error == "tool_error" and ".wav" in value(wrong_kind)["error"]


def test_writing_tools_need_a_workspace_and_respect_its_quota(env, clip, tmp_path):
    none = MediaTools([clip], cache=False)
    result = run(env, none, "extract_audio", file_name="a.wav")
    assert result.error == "tool_error" and "no workspace" in value(result)["error"]
    tiny = MediaTools([clip], workspace=Workspace(tmp_path / "small", quota_bytes=10_000), cache=False)
    over = run(env, tiny, "extract_audio", file_name="a.wav")
    assert over.error == "tool_error" and "quota" in value(over)["error"]
    assert tiny.workspace.files() == []


def test_workspace_confines_names(tmp_path):
    ws = Workspace(tmp_path / "ws")
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, ws.root / "link")
    assert ws.path("deck/slides.pptx") == (ws.root / "deck" / "slides.pptx").resolve()
    for bad in ("", "../a.png", "a/../../b.png", "/etc/a.png", "C:\\a.png", "link/a.png", "a.sh", ".x.png",
                "a\x00.png", 7):
        with pytest.raises(WorkspaceError):
            ws.path(bad)
    with pytest.raises(WorkspaceError, match="no file"):
        ws.path("missing.png", must_exist=True)


has_speech = pytest.mark.skipif(shutil.which("espeak-ng") is None or importlib.util.find_spec("faster_whisper") is None,
                                reason="needs espeak-ng and faster-whisper (egoeval[asr])")


@has_speech
def test_transcribe_a_video_and_a_span_of_it(env, tmp_path):
    from egoeval.media.audio import ffmpeg_exe

    speech = tts.speak("Please add two bottles to my shopping cart.", tmp_path / "s.wav")
    video = make_clip(tmp_path / "v.mp4", frames=180, fps=30)
    narrated = tmp_path / "narrated.mp4"
    subprocess.run([ffmpeg_exe(), "-v", "error", "-y", "-i", str(video), "-i", str(speech.path),
                    "-filter_complex", "[1]adelay=2000[a]", "-map", "0:v", "-map", "[a]", "-c:v", "copy",
                    "-c:a", "aac", str(narrated)], check=True)
    tools = MediaTools({"retail1.mp4": narrated}, workspace=Workspace(tmp_path / "ws"),
                       cache=Cache(tmp_path / "cache"))
    whole = value(run(env, tools, "transcribe"))
    assert "shopping" in whole["text"].lower() and whole["language"] == "en"
    assert 0 <= whole["segments"][0]["start_second"] < 3.0 < whole["segments"][-1]["end_second"] <= 8.0
    span = value(run(env, tools, "transcribe", start_second=1.0, end_second=6.0))
    assert "cart" in span["text"].lower()
    # times are on the video's clock: the span's own zero is 1.0 s into the video
    assert 1.0 <= span["segments"][0]["start_second"] < 3.0 < span["segments"][-1]["end_second"] <= 8.0
    assert run(env, tools, "extract_audio", file_name="voice.wav").error is None
    again = value(run(env, tools, "transcribe", source="voice.wav"))
    assert "shopping cart" in again["text"].lower()
    missing = run(env, tools, "transcribe", source="nothing.wav")
    assert missing.error == "tool_error" and "no file" in value(missing)["error"]


def test_workspace_escape_attempts(tmp_path):
    ws = Workspace(tmp_path / "ws")
    secret = tmp_path / "secret.txt"
    secret.write_text("outside")
    os.symlink(tmp_path, ws.root / "up")
    os.symlink(secret, ws.root / "alias.txt")
    os.link(secret, ws.root / "hard.txt")
    (ws.root / "sub").mkdir()
    attempts = ["../secret.txt", "sub/../../secret.txt", "./../secret.txt", str(secret), "/etc/passwd",
                "up/secret.txt", "alias.txt", "hard.txt", "sub/" + "a" * 300 + ".txt", "b/" * 600 + "c.txt",
                "..\\secret.txt", "sub//../../secret.txt", "", " "]
    for name in attempts:
        with pytest.raises(WorkspaceError):
            ws.path(name)
            ws.path(name, must_exist=True)
    assert secret.read_text() == "outside"
    assert ws.path("sub/fine.txt") == (ws.root / "sub" / "fine.txt").resolve()
