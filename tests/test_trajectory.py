"""Trajectory files: EgoBench results reading and egoeval's JSONL log."""

import json

import pytest

from egoeval.trajectory import BadInput, LogWriter, read_log, read_results_file, results_file_stem


def test_results_file_names():
    assert results_file_stem("x/retail10_easy.json") == ("retail10", "easy")
    assert results_file_stem("order2_static.json") == ("order2", "static")
    assert results_file_stem("retail10.json") is None and results_file_stem("retail_easy.json") is None


@pytest.mark.parametrize("data,needle", [(b"[1, 2", "not valid JSON"), (b'{"a": 1}', "found a JSON object"),
                                         (b'"x"', "found a JSON str"), (b"\xff\xfe[", "not UTF-8")])
def test_unreadable_results_files_raise_bad_input_naming_the_file(tmp_path, data, needle):
    p = tmp_path / "retail1_easy.json"
    p.write_bytes(data)
    with pytest.raises(BadInput) as err:
        read_results_file(p)
    assert str(p) in str(err.value) and needle in str(err.value)


def write_episode(writer, eid="e1", task="egobench/retail1/1"):
    writer.write({"event": "episode_start", "episode": eid, "task": task, "epoch": 1, "mode": "easy"})
    writer.write({"event": "message", "episode": eid, "turn": 0, "role": "user", "content": "hi"})
    writer.write({"event": "tool_calls", "episode": eid, "turn": 0,
                  "calls": [{"tool_name": "get_cart", "parameters": {"user_id": "u"}}], "results": []})
    writer.write({"event": "user_scores", "episode": eid, "scores": {"resilience": 1}})
    writer.write({"event": "episode_end", "episode": eid, "reason": "user_stop", "counters": {"rounds_count": 1}})


def test_log_round_trip_and_every_event_is_on_disk_when_written(tmp_path):
    path = tmp_path / "run.jsonl"
    writer = LogWriter(path, suite="egobench", config={"model": "m"})
    write_episode(writer)
    # flushed per event: readable before close
    header, episodes = read_log(path)
    assert header["format"] == "egoeval-log" and header["config"] == {"model": "m"}
    (ep,) = episodes
    t = ep.as_trajectory()
    assert t["task_id"] == 1 and t["tool_calls"][0]["calls"][0]["tool_name"] == "get_cart"
    assert t["corrected_scores"] == {"resilience": 1} and t["rounds_count"] == 1 and ep.end_reason == "user_stop"
    writer.close()
    # appending to an existing log writes no second header
    with LogWriter(path, suite="egobench") as again:
        write_episode(again, eid="e2")
    assert sum(1 for line in path.read_text().splitlines() if '"header"' in line) == 1
    assert [e.episode for e in read_log(path)[1]] == ["e1", "e2"]


def test_a_torn_last_line_is_tolerated_but_garbage_inside_is_not(tmp_path):
    path = tmp_path / "run.jsonl"
    with LogWriter(path, suite="egobench", fsync=False) as w:
        write_episode(w)
    with open(path, "a") as fh:
        fh.write('{"event": "episode_start", "epis')  # a crash mid-write
    assert len(read_log(path)[1]) == 1
    lines = path.read_text().splitlines()
    lines.insert(2, "garbage")
    path.write_text("\n".join(lines))
    with pytest.raises(BadInput, match="line 3"):
        read_log(path)


def test_a_file_without_header_is_not_a_log(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text(json.dumps({"event": "episode_start", "episode": "e", "task": "egobench/retail1/1"}) + "\n")
    with pytest.raises(BadInput, match="not an egoeval log"):
        read_log(path)
