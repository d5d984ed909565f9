"""The rubric sliding-window judge, driven by a scripted judge on a real loopback
OpenAI-compatible server; and agreement with human labels."""

import asyncio
import json
import re

import pytest
from llm_server import LoopbackLLM, reply

from egoeval.cli import main
from egoeval.model_client import CallCache, ModelClient
from egoeval.suites import get_task
from egoeval.verifiers.agreement import agreement, cohen_kappa, read_labels
from egoeval.verifiers.rubric import RubricItem, judge_rubric, rubric_for, transcript, windows

ITEMS = [RubricItem("price", "The agent tells the user the price: 12.50"),
         RubricItem("added", "The agent calls add_to_cart with the Merlot")]


def conversation(n: int) -> dict:
    """A trajectory of ``n`` dialogue messages, user and agent in turn."""
    dialogue = [{"role": "user" if k % 2 == 0 else "agent", "turn": k // 2, "content": f"message {k + 1}"}
                for k in range(n)]
    return {"dialogue": dialogue, "tool_calls": []}


def window_of(body: dict) -> tuple[int, int]:
    """(first, last) turn of the window a judge request shows."""
    text = body["messages"][-1]["content"] if isinstance(body["messages"][-1]["content"], str) else ""
    first = [m for m in body["messages"] if m["role"] == "user"][0]["content"]
    m = re.search(r"Conversation turns (\d+)-(\d+) of", first or text)
    return int(m.group(1)), int(m.group(2))


def scripted(per_window: dict[int, dict[str, str]], w: int = 10, delta: int = 2):
    """A judge that answers window k (1-based, found from the turns shown) with
    ``per_window[k]`` and 'unchanged' for every item it does not name."""
    def respond(body: dict) -> dict:
        first, _ = window_of(body)
        k = (first - 1) // (w - delta) + 1
        items = {i.id: per_window.get(k, {}).get(i.id, "unchanged") for i in ITEMS}
        return reply(json.dumps({"items": items}))
    return respond


def client(server: LoopbackLLM, tmp_path, name: str = "j.db") -> ModelClient:
    return ModelClient("openai/judge-model", api_base=server.api_base, api_key="k", cache=CallCache(tmp_path / name),
                       backoff=0.01)


def test_windows_of_w_turns_overlapping_by_delta():
    assert windows(25) == [(0, 0, 10), (8, 10, 18), (16, 18, 25)]
    assert windows(10) == [(0, 0, 10)]  # the next window would hold no new turn
    assert windows(11) == [(0, 0, 10), (8, 10, 11)]
    assert windows(0) == []
    assert windows(7, w=3, delta=1) == [(0, 0, 3), (2, 3, 5), (4, 5, 7)]
    with pytest.raises(ValueError):
        windows(5, w=4, delta=4)


def test_met_in_window_1_and_negated_in_window_3_ends_unmet(tmp_path):
    turns = transcript(conversation(25))
    plan = {1: {"price": "met"}, 3: {"price": "negated", "added": "met"}}
    with LoopbackLLM(scripted(plan)) as server:
        result = judge_rubric(ITEMS, turns, client(server, tmp_path))
        prompts = [b["messages"][1]["content"] for b in server.requests]
    assert len(prompts) == 3 and result["windows"] == 3
    price, added = result["items"]
    assert price["met"] is False and price["history"] == [{"window": 1, "status": "met"},
                                                          {"window": 3, "status": "negated"}]
    assert added["met"] is True and added["history"] == [{"window": 3, "status": "met"}]
    assert result["passed"] is False and result["met"] == 1 and result["fraction"] == 0.5
    assert result["judge_model"] == "openai/judge-model" and (result["w"], result["delta"]) == (10, 2)
    # the state carries over: window 2 is told the price was met, window 3 still so
    assert "price [unmet so far]" in prompts[0] and "price [met so far]" in prompts[1] and "price [met so far]" in prompts[2]


def test_overlap_turns_are_shown_as_context_and_only_new_turns_count(tmp_path):
    turns = transcript(conversation(25))
    with LoopbackLLM(scripted({})) as server:
        judge_rubric(ITEMS, turns, client(server, tmp_path))
        second = server.requests[1]["messages"][1]["content"]
    assert "Conversation turns 9-18 of 25" in second
    assert "[turn 9, context] user: message 9" in second and "[turn 10, context] agent: message 10" in second
    assert "[turn 11] user: message 11" in second and "[turn 8" not in second and "[turn 19" not in second


def test_negated_then_met_again_ends_met(tmp_path):
    turns = transcript(conversation(25))
    plan = {1: {"price": "met"}, 2: {"price": "negated"}, 3: {"price": "met"}}
    with LoopbackLLM(scripted(plan)) as server:
        result = judge_rubric(ITEMS, turns, client(server, tmp_path))
        prompts = [b["messages"][1]["content"] for b in server.requests]
    assert result["items"][0]["met"] is True and [h["status"] for h in result["items"][0]["history"]] == \
        ["met", "negated", "met"]
    assert "price [unmet so far]" in prompts[2]  # window 3 is told the negation of window 2


def test_malformed_judge_output_is_retried_then_recorded(tmp_path):
    turns = transcript(conversation(4))
    good = reply(json.dumps({"items": {"price": "met", "added": "MET"}}))
    with LoopbackLLM() as server:
        server.push(reply("Both look satisfied to me."), reply('{"items": {"price": "met"}}'), good)
        result = judge_rubric(ITEMS, turns, client(server, tmp_path))
        retry = server.requests[2]["messages"]
    assert result["passed"] is True and result["error"] is None and len(server.requests) == 3
    assert "'added'" in retry[-1]["content"] and retry[-2] == {"role": "assistant", "content": '{"items": {"price": "met"}}'}
    with LoopbackLLM() as server:
        server.push(*[reply("no idea")] * 3)
        failed = judge_rubric(ITEMS, turns, client(server, tmp_path, "fail.db"))
    assert failed["passed"] is None and "window 1" in failed["error"] and "no usable answer" in failed["error"]
    assert [i["met"] for i in failed["items"]] == [False, False]
    # the rejected replies were not kept: the same cache with a working judge now succeeds
    with LoopbackLLM() as server:
        server.push(good)
        again = judge_rubric(ITEMS, turns, client(server, tmp_path, "fail.db"))
        assert len(server.requests) == 1
    assert again["passed"] is True and again["error"] is None


def test_json_is_found_in_prose_with_braces():
    from egoeval.verifiers.judge import json_object

    assert json_object('Sure: {"items": {"a": "met"}} (I used {braces} here)') == {"items": {"a": "met"}}
    assert json_object('{not json} then {"pass": true}') == {"pass": True}
    with pytest.raises(ValueError):
        json_object("no object at all")


def test_judge_replies_are_cached(tmp_path):
    turns = transcript(conversation(12))
    with LoopbackLLM(scripted({1: {"price": "met"}})) as server:
        first = judge_rubric(ITEMS, turns, client(server, tmp_path))
        calls = len(server.requests)
        again = judge_rubric(ITEMS, turns, client(server, tmp_path))
        assert len(server.requests) == calls == 2
    assert first == again


def test_transcript_puts_each_agent_turns_calls_before_its_words():
    traj = {"dialogue": [{"role": "user", "turn": 0, "content": "Price of this?"},
                         {"role": "agent", "turn": 0, "content": "It is $12.50."}],
            "tool_calls": [{"turn": 0, "calls": [{"tool_name": "get_price", "parameters": {"product_name": "Merlot"}}],
                            "results": [{"content": '{"price": 12.5}'}]}]}
    assert transcript(traj) == ["user: Price of this?",
                                'agent: [calls get_price({"product_name": "Merlot"}) -> {"price": 12.5}] It is $12.50.']


def test_transcript_of_malformed_and_cut_off_trajectories():
    for bad in (5, None, {"dialogue": 5, "tool_calls": 7}, {"dialogue": [3, None, {"role": "user", "turn": [1]}]},
                {"tool_calls": [{"turn": {"a": 1}, "calls": [{"tool_name": "x"}, "junk"]}]}):
        assert isinstance(transcript(bad), list)
    cut = {"dialogue": [{"role": "user", "turn": 0, "content": "Add the wine."}],
           "tool_calls": [{"turn": 0, "calls": [{"tool_name": "add_to_cart", "parameters": {"qty": 2}}],
                           "results": [{"content": "ok"}]}]}
    assert transcript(cut) == ["user: Add the wine.", 'agent: [calls add_to_cart({"qty": 2}) -> ok]']
    old = {"dialogue": [{"role": "agent", "turn": 1, "content": "Done."}],
           "tool_calls": [{"turn": 1, "call": {"tool_name": "get_price", "parameters": {}}, "result": "12.5"}]}
    assert transcript(old) == ["agent: [calls get_price({}) -> 12.5] Done."]


def test_rubrics_derived_from_the_ground_truth():
    items = rubric_for(get_task("egobench/restaurant1/1"))
    assert [i.text for i in items if i.id.startswith("tell")] == ["The agent tells the user the total to pay: 394.33",
                                                                  "The agent tells the user the total tax: 41.52"]
    kitchen = rubric_for(get_task("egobench/kitchen1/1"))
    assert kitchen[0].text == "The agent tells the user the total fiber (g): 47.08"
    assert sum(i.id.startswith("do-") for i in kitchen) == 7  # the seven shopping-list additions, not the reads
    order = [i.text for i in rubric_for(get_task("egobench/order1/1")) if i.id.startswith("do-")]
    assert order[0].startswith("The agent calls add_dish_to_order with") and "category" not in order[0]  # as sent right
    custom = {"egobench/kitchen1/1": [RubricItem("warn", "The agent warns about the sugar")]}
    assert rubric_for(get_task("egobench/kitchen1/1"), custom) == custom["egobench/kitchen1/1"]


def test_cohen_kappa_and_agreement():
    assert cohen_kappa([True, True, False, False], [True, False, False, False]) == pytest.approx(0.5)
    assert cohen_kappa([True, False], [True, False]) == 1.0
    assert cohen_kappa([True, True], [True, True]) is None  # chance agreement is 1: undefined
    judge = {"e1": {"a": True, "b": False}, "e2": {"a": True, "b": True}, "e3": {"a": False}}
    human = {"e1": {"a": True, "b": False}, "e2": {"a": False, "b": True}, "e4": {"a": True}}
    result = agreement(judge, human)
    assert result["episodes"] == 2 and result["pairs"] == 4 and result["agreement"] == 0.75
    assert result["per_item"]["a"]["agreement"] == 0.5 and result["per_item"]["b"]["agreement"] == 1.0
    assert result["judge_met_human_unmet"] == 1


def test_an_episode_labelled_twice_is_refused(tmp_path):
    twice = tmp_path / "labels.jsonl"
    twice.write_text('{"episode": "run/a:1", "items": {"x": true}}\n{"episode": "run/a:1", "items": {"x": false}}\n')
    with pytest.raises(ValueError, match="labelled twice"):
        read_labels(twice)


def test_egoeval_judge_on_a_real_run_then_agreement(tmp_path, capsys, monkeypatch):
    from egoeval.agents import OracleAgent
    from egoeval.observation import ObservationConfig
    from egoeval.runner import RunConfig, Runner
    from egoeval.users import ScriptedUser

    task = get_task("egobench/order1/1")
    runner = Runner(RunConfig(observation=ObservationConfig(no_video=True)), [task], OracleAgent,
                    lambda: ScriptedUser("easy"), tmp_path / "run")
    asyncio.run(runner.run())
    monkeypatch.delenv("EGOEVAL_JUDGE_MODEL", raising=False)
    assert main(["judge", str(tmp_path / "run")]) != 0
    assert "needs a model" in capsys.readouterr().err

    def all_met(body: dict) -> dict:
        ids = re.findall(r"^- (\S+) \[", body["messages"][1]["content"], re.MULTILINE)
        return reply(json.dumps({"items": {i: "met" for i in ids}}))

    out = tmp_path / "judged.jsonl"
    with LoopbackLLM(all_met) as server:
        code = main(["judge", str(tmp_path / "run"), "--judge-model", "openai/judge-model", "--judge-api-base",
                     server.api_base, "--out", str(out), "--no-judge-cache"])
    assert code == 0 and "1/1 episodes met every item" in capsys.readouterr().out
    [record] = [json.loads(line) for line in out.read_text().splitlines()]
    assert record["task"] == task.id and record["passed"] is True and record["judge_model"] == "openai/judge-model"
    # the judgements also land beside the run, where report and view find them
    beside = [json.loads(line) for line in (tmp_path / "run" / "run.rubric.jsonl").read_text().splitlines()]
    assert beside == [record] and record["episode_id"] == "egobench/order1/1@1"
    from egoeval.report import build, render
    from egoeval.viewer import build_viewer

    report = build([str(tmp_path / "run")], "egobench")
    assert report["models"]["oracle"]["rubric"] == {"episodes": 1, "passed": 1, "pass_rate": 100.0,
                                                     "mean_fraction": 1.0, "judge_models": ["openai/judge-model"],
                                                     "errors": 0}
    assert "rubric judge (openai/judge-model): 1/1 episodes met every item" in render(report, "md")
    build_viewer([tmp_path / "run"], tmp_path / "view")
    [page] = (tmp_path / "view" / "episodes").glob("*.html")
    assert "<h2>Rubric judge</h2>" in page.read_text() and "window 1: met" in page.read_text()
    assert main(["score", str(tmp_path / "run")]) == 0  # the judgements beside the log are not taken for a log
    assert "joint 1" in capsys.readouterr().out
    assert {i["id"] for i in record["items"]} == {"tell-1", "do-1", "do-2"}
    human = tmp_path / "human.jsonl"
    human.write_text(json.dumps({"episode": record["episode"], "items": {"tell-1": True, "do-1": False}}) + "\n")
    assert read_labels(out) == {record["episode"]: {"tell-1": True, "do-1": True, "do-2": True}}
    assert main(["judge-agreement", str(out), str(human), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["pairs"] == 2 and result["agreement"] == 0.5 and result["kappa"] == 0.0  # judge always "met"


def test_judgements_of_two_logs_in_one_folder_stay_apart(tmp_path, capsys):
    """Two runs' logs side by side: each gets its own judgements, the reports keep them
    apart, and the folder still scores (judgement files are not logs)."""
    import shutil

    from egoeval.agents import NullAgent, OracleAgent
    from egoeval.observation import ObservationConfig
    from egoeval.report import build
    from egoeval.runner import RunConfig, Runner
    from egoeval.users import ScriptedUser

    task = get_task("egobench/order1/1")
    folder = tmp_path / "logs"
    folder.mkdir()
    for agent in (OracleAgent, NullAgent):
        runner = Runner(RunConfig(agent=agent.name, observation=ObservationConfig(no_video=True)), [task], agent,
                        lambda: ScriptedUser("easy"), tmp_path / agent.name)
        asyncio.run(runner.run())
        shutil.copyfile(runner.log_path, folder / f"{agent.name}.jsonl")

    def met_if_added(body: dict) -> dict:  # the judge sees the calls: the null agent made none
        prompt = body["messages"][1]["content"]
        ids = re.findall(r"^- (\S+) \[", prompt, re.MULTILINE)
        return reply(json.dumps({"items": {i: "met" if "[calls" in prompt else "unchanged" for i in ids}}))

    with LoopbackLLM(met_if_added) as server:
        assert main(["judge", str(folder), "--judge-model", "openai/j", "--judge-api-base", server.api_base,
                     "--no-judge-cache"]) == 0
    assert sorted(p.name for p in folder.iterdir()) == ["null.jsonl", "null.rubric.jsonl", "oracle.jsonl",
                                                        "oracle.rubric.jsonl"]
    models = build([str(folder)], "egobench")["models"]
    assert models["oracle"]["rubric"]["passed"] == 1 and models["null"]["rubric"]["passed"] == 0
    capsys.readouterr()
    assert main(["score", str(folder)]) == 0 and "tool 1, result 1, joint 1" in capsys.readouterr().out


def test_odd_judgement_files_are_read_not_raised_on(tmp_path):
    from egoeval.report import Record, _rubric_summary
    from egoeval.viewer import _rubric_html

    odd = [{"passed": "false", "fraction": "0.5"}, {"passed": True, "fraction": 1, "items": "x"},
           {"passed": False, "fraction": 0.5, "items": ["a", {"id": "x", "met": True, "history": ["met", {"window": 1}]}]}]
    records = [Record("m", "egobench", "order", "order1", "easy", "t", 1, None, {}, j) for j in odd]
    summary = _rubric_summary(records)
    assert summary["episodes"] == 2 and summary["passed"] == 1 and summary["mean_fraction"] == 0.75
    for j in odd:
        assert "<h2>Rubric judge</h2>" in _rubric_html(j)
    assert "window 1: None" in _rubric_html(odd[2])
