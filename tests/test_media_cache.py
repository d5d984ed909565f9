"""The content-addressed frame/transcript cache: hits, atomic publication, bounds."""

import multiprocessing as mp

import numpy as np
import pytest

from egoeval.media.cache import Cache, make_key
from egoeval.media.frames import sample_frames

from clips import make_clip, read_code


@pytest.fixture(scope="module")
def clip(tmp_path_factory):
    return make_clip(tmp_path_factory.mktemp("c") / "clip.mp4", frames=60, gop=30)


def test_keys_are_stable_and_order_free():
    assert make_key(a=1, b=[1, 2]) == make_key(b=[1, 2], a=1) != make_key(a=1, b=[2, 1])


def test_a_hit_returns_the_same_frames_and_manifest(clip, tmp_path):
    cache = Cache(tmp_path / "cache")
    first = sample_frames(clip, num=4, max_side=96, cache=cache)
    assert len(cache.entries("frames")) == 1 and len(cache.entries("digests")) == 1
    again = sample_frames(clip, num=4, max_side=96, cache=cache)
    assert again.manifest.to_dict() == first.manifest.to_dict()
    assert all(np.array_equal(a.image, b.image) for a, b in zip(first, again))
    assert [read_code(f.image) for f in sample_frames(clip, num=4, cache=cache)] == first.manifest.indices
    assert len(cache.entries("frames")) == 2  # another request, another entry


def test_a_damaged_entry_is_rebuilt(clip, tmp_path):
    cache = Cache(tmp_path / "cache")
    sample_frames(clip, num=3, cache=cache)
    (_, _, entry), = cache.entries("frames")
    (entry / "frames.npy").write_bytes(b"garbage")
    fs = sample_frames(clip, num=3, cache=cache)
    assert [read_code(f.image) for f in fs] == fs.manifest.indices


def test_the_cache_stays_within_its_bound_evicting_least_recently_used(tmp_path):
    cache = Cache(tmp_path / "cache", max_bytes=2500)
    for k in range(4):
        cache.put("blobs", make_key(k=k), lambda d: (d / "x.bin").write_bytes(b"x" * 1000))
        if k == 1:
            import os
            import time

            time.sleep(0.01)
            os.utime(cache.path("blobs", make_key(k=0)))  # entry 0 used again: entry 1 is older now
    names = {e.name for _, _, e in cache.entries()}
    assert names == {make_key(k=3), make_key(k=2)} or names == {make_key(k=3), make_key(k=0)}
    assert cache.size() <= 2500


def _build_same_entry(root: str, out) -> None:
    cache = Cache(root)
    path = cache.get_or_put("blobs", make_key(same=True), lambda d: (d / "v.txt").write_text("value"))
    out.put((path / "v.txt").read_text())


def test_concurrent_builders_of_one_entry_both_succeed(tmp_path):
    ctx = mp.get_context("fork")
    out = ctx.Queue()
    procs = [ctx.Process(target=_build_same_entry, args=(str(tmp_path / "cache"), out)) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(30)
    assert [out.get(timeout=5) for _ in procs] == ["value"] * 4
    assert len(Cache(tmp_path / "cache").entries()) == 1
    assert not list((tmp_path / "cache" / "blobs").rglob(".tmp-*"))


def test_file_digests_are_remembered_on_disk_and_follow_changes(tmp_path):
    import hashlib

    cache = Cache(tmp_path / "cache")
    f = tmp_path / "v.bin"
    f.write_bytes(b"first")
    assert cache.digest(f) == hashlib.sha256(b"first").hexdigest()
    assert len(cache.entries("digests")) == 1
    assert Cache(tmp_path / "cache").digest(f) == hashlib.sha256(b"first").hexdigest()  # read back
    f.write_bytes(b"second, longer")
    assert cache.digest(f) == hashlib.sha256(b"second, longer").hexdigest()
