"""The LiteLLM agent and the LLM user, end to end against a real OpenAI-compatible HTTP
server on 127.0.0.1 (tests/llm_server.py) that plays scripted model behaviour and
injects faults. Only the hosted model is simulated; LiteLLM, HTTP and the runner are real."""

import asyncio
import json


from egoeval.agents import OracleAgent
from egoeval.cli import main
from egoeval.litellm_agent import LiteLLMAgent, parse_text_calls
from egoeval.llm_user import LLMUser
from egoeval.model_client import CallCache
from egoeval.observation import ObservationConfig
from egoeval.runner import Limits, RunConfig, Runner
from egoeval.suites import load_tasks
from egoeval.trajectory import iter_events
from egoeval.users import ScriptedUser

from llm_server import DROP, GARBAGE, LoopbackLLM, hang, http_error, reply

ADD = {"user_id": "demo_shopper_01", "product_name": "Mouton Cadet", "qty": 2, "category": "wine", "price": 208,
       "tax_rate": 0.14, "discount": 0.9}
FAST = {"backoff": 0.01, "max_backoff": 0.5, "timeout": 3.0}


def text_of(message: dict) -> str:
    content = message.get("content")
    if isinstance(content, list):
        return " ".join(p.get("text", "") for p in content if p.get("type") == "text")
    return content or ""


def shop_agent(body: dict):
    """Model behaviour: add the wine on the first request of an episode, then talk."""
    if not any(m["role"] == "assistant" for m in body["messages"]):
        return reply(None, [("add_to_cart", ADD)])
    return reply("I added two bottles of Mouton Cadet to your cart.")


def run(tmp_path, agent, user=None, tasks=None, mode="easy", observation=None, **config):
    tasks = tasks or load_tasks("demo", pattern="demo/retail/1")
    cfg = RunConfig(mode=mode, observation=observation or ObservationConfig(frames=2), **config)
    runner = Runner(cfg, tasks, agent, user or (lambda: ScriptedUser(mode)), tmp_path)
    return runner, asyncio.run(runner.run())


def events(runner, kind):
    return [e for e in iter_events(runner.log_path) if e["event"] == kind]


def test_native_tool_calls_with_frames_reach_the_server_and_succeed(tmp_path):
    with LoopbackLLM(shop_agent) as server:
        agent = lambda: LiteLLMAgent("openai/test-model", api_base=server.api_base, api_key="k",  # noqa: E731
                                     cache=CallCache(tmp_path / "calls.sqlite"), **FAST)
        runner, [outcome] = run(tmp_path / "log", agent)
    assert outcome.reason == "user_stop" and outcome.verdict["joint_success"] is True
    first = server.requests[0]
    parts = first["messages"][1]["content"]
    assert sum(p["type"] == "image_url" and p["image_url"]["url"].startswith("data:image/jpeg;base64,")
               for p in parts) == 2
    assert "add_to_cart" in {t["function"]["name"] for t in first["tools"]} and first["temperature"] == 0.0
    assert isinstance(first["seed"], int)
    second = server.requests[1]["messages"]
    assert second[-1]["role"] == "tool" and second[-1]["tool_call_id"] == "call_0"
    [calls] = events(runner, "tool_calls")
    assert calls["calls"] == [{"tool_name": "add_to_cart", "parameters": ADD}]
    assert calls["usage"] == {"input_tokens": 100, "output_tokens": 20, "cost": 0.0}
    end = events(runner, "episode_end")[0]
    n = len(server.requests)
    assert end["counters"]["input_tokens"] == 100 * n and end["counters"]["output_tokens"] == 20 * n


def test_faults_are_retried_visibly_and_never_lose_the_episode(tmp_path):
    with LoopbackLLM(shop_agent) as server:
        server.push(http_error(429, **{"Retry-After": "0.2"}), http_error(500), http_error(503), hang(5), DROP,
                    GARBAGE)
        agent = lambda: LiteLLMAgent("openai/test-model", api_base=server.api_base, api_key="k", cache=False,  # noqa: E731
                                     **{**FAST, "timeout": 1.0})
        runner, [outcome] = run(tmp_path, agent, observation=ObservationConfig(no_video=True))
    assert outcome.reason == "user_stop" and outcome.verdict["joint_success"] is True
    [calls] = events(runner, "tool_calls")
    retries = calls["retries"]
    assert [r["attempt"] for r in retries] == [1, 2, 3, 4, 5, 6]
    kinds = " ".join(r["error"] for r in retries)
    for expected in ("RateLimitError", "InternalServerError", "ServiceUnavailableError", "Timeout",
                     "Connection error", "Expecting property name"):
        assert expected in kinds
    assert retries[0]["wait_s"] == 0.2  # Retry-After honoured
    assert server.times[1] - server.times[0] >= 0.2


def test_a_provider_that_stays_down_is_an_infra_error_and_the_run_goes_on(tmp_path):
    def responder(body):
        if "demo_shopper_02" in json.dumps(body["messages"]):
            return http_error(503)
        return shop_agent(body)

    with LoopbackLLM(responder) as server:
        agent = lambda: LiteLLMAgent("openai/test-model", api_base=server.api_base, api_key="k", cache=False,  # noqa: E731
                                     max_retries=2, **FAST)
        runner, outcomes = run(tmp_path, agent, tasks=load_tasks("demo", pattern="demo/retail/[12]"),
                               observation=ObservationConfig(no_video=True))
    by_task = {o.task: o for o in outcomes}
    down = by_task["demo/retail/2"]
    assert down.reason == "infra_error" and down.verdict is None and "after 2 retries" in down.error
    assert by_task["demo/retail/1"].verdict["joint_success"] is True
    assert len(events(runner, "episode_end")) == 2


def test_auth_errors_fail_at_once_and_broken_arguments_are_tool_errors(tmp_path):
    with LoopbackLLM() as server:
        server.push(http_error(401))
        agent = lambda: LiteLLMAgent("openai/test-model", api_base=server.api_base, api_key="k",  # noqa: E731
                                     cache=False, **FAST)
        _, [auth] = run(tmp_path / "a", agent, observation=ObservationConfig(no_video=True))
        assert auth.reason == "infra_error" and "AuthenticationError" in auth.error and len(server.requests) == 1
        server.push(reply(None, [("add_to_cart", '{"user_id": "demo_shopper_01", "qty": ')]), reply("Oops."))
        runner, [bad] = run(tmp_path / "b", agent, observation=ObservationConfig(no_video=True))
    assert bad.reason == "user_stop" and bad.verdict["joint_success"] is False
    [calls] = events(runner, "tool_calls")
    assert calls["errors"] == ["tool_error"] and isinstance(calls["calls"][0]["parameters"], str)


def test_json_in_text_protocol(tmp_path):
    def responder(body):
        if not any(m["role"] == "assistant" for m in body["messages"]):
            return reply("Sure, adding them now.\n" + json.dumps({"tool_name": "add_to_cart", "parameters": ADD}))
        return reply("Done, two bottles are in your cart.")

    with LoopbackLLM(responder) as server:
        agent = lambda: LiteLLMAgent("openai/test-model", protocol="json", api_base=server.api_base,  # noqa: E731
                                     api_key="k", cache=False, **FAST)
        runner, [outcome] = run(tmp_path, agent)
    assert outcome.verdict["joint_success"] is True
    assert all("tools" not in r for r in server.requests)
    assert '"tool_name": NAME' in server.requests[0]["messages"][0]["content"]
    second = server.requests[1]["messages"]
    assert second[-2]["role"] == "assistant" and json.loads(second[-2]["content"])[0]["tool_name"] == "add_to_cart"
    assert second[-1]["content"].startswith("Tool results:")


def test_text_call_parser():
    nested = {"tool_name": "compute_total_nutrition", "parameters": {"products": [{"product_name": "a", "quantity": 2}]}}
    assert parse_text_calls(json.dumps(nested))[0].arguments == nested["parameters"]
    two = parse_text_calls("first " + json.dumps(nested) + " then " + json.dumps({"name": "clear_cart", "arguments": {}}))
    assert [c.name for c in two] == ["compute_total_nutrition", "clear_cart"]
    fenced = parse_text_calls("```json\n[" + json.dumps({"tool_call": {"tool_name": "x", "parameters": {}}}) + "]\n```")
    assert [c.name for c in fenced] == ["x"]
    assert parse_text_calls("The price is {about} 20 dollars.") == [] and parse_text_calls(None) == []
    assert parse_text_calls('Your cart holds {"name": "Mouton Cadet", "qty": 2}.') == []  # data, not a call
    wrapped = parse_text_calls(json.dumps({"calls": [{"tool_name": "a", "parameters": {}}, {"name": "b", "arguments": {}}]}))
    assert [c.name for c in wrapped] == ["a", "b"]
    assert parse_text_calls('{"tool_call": "get_cart", "parameters": {"user_id": "u"}}')[0].name == "get_cart"


def test_model_call_cache_makes_a_rerun_offline(tmp_path):
    cache = CallCache(tmp_path / "calls.sqlite")
    with LoopbackLLM(shop_agent) as server:
        agent = lambda: LiteLLMAgent("openai/test-model", api_base=server.api_base, api_key="k",  # noqa: E731
                                     cache=cache, **FAST)
        _, [first] = run(tmp_path / "a", agent)
        sent = len(server.requests)
        runner, [again] = run(tmp_path / "b", agent)
    assert sent >= 2 and len(server.requests) == sent
    assert again.verdict == first.verdict and events(runner, "tool_calls")[0]["cached"] is True


def llm_user_model(body):
    """Plays the three user roles and the agent, told apart by their prompts."""
    messages = body["messages"]
    system = messages[0]["content"] if messages[0]["role"] == "system" else ""
    last = text_of(messages[-1])
    if "role-playing a customer" in system:
        if "The agent just said" in last:
            return reply("STOP")
        if "Rewrite your message" in last:
            return reply("My user ID is demo_shopper_01. Please add two bottles of the second wine I pointed at.")
        return reply("Hi, I am the agent here, how can I help?")  # a role slip the evaluator must catch
    if "You check a simulated customer's message" in last:
        slip = "I am the agent" in last
        return reply(json.dumps({"role_consistency": 0 if slip else 1, "instruction_following": 1, "resilience": 1,
                                 "contextual_robustness": 1, "suggestion": "Speak as the customer." if slip else ""}))
    if "Keep a compact record" in last:
        return reply("Asked to add two bottles of the second wine.")
    raise AssertionError(f"unexpected request: {last[:80]}")


def test_llm_user_actor_evaluator_summarizer(tmp_path):
    with LoopbackLLM(llm_user_model) as server:
        user = lambda: LLMUser("openai/user-model", "easy", api_base=server.api_base, api_key="k",  # noqa: E731
                               cache=False, **FAST)
        runner, [outcome] = run(tmp_path, OracleAgent, user, observation=ObservationConfig(no_video=True))
    assert outcome.reason == "user_stop" and outcome.verdict["joint_success"] is True
    said = [e["content"] for e in events(runner, "message") if e["role"] == "user"]
    assert said[0].startswith("My user ID is demo_shopper_01") and said[-1] == "STOP"
    scores = events(runner, "user_scores")[-1]["scores"]
    assert scores["role_consistency"] == 1 and scores["original"]["role_consistency"] == 0
    assert all("seed" in r for r in server.requests)
    end = events(runner, "episode_end")[0]["counters"]
    assert end["user_input_tokens"] > 0 and end["input_tokens"] == 0  # the oracle spends nothing


def test_hard_llm_user_appends_a_scenario_distractor(tmp_path):
    from egoeval.users import distractor_pool

    with LoopbackLLM(llm_user_model) as server:
        user = lambda: LLMUser("openai/user-model", "hard", api_base=server.api_base, api_key="k",  # noqa: E731
                               cache=False, **FAST)
        runner, _ = run(tmp_path, OracleAgent, user, mode="hard", observation=ObservationConfig(no_video=True))
    first = [e["content"] for e in events(runner, "message") if e["role"] == "user"][0]
    pool = distractor_pool(load_tasks("demo", pattern="demo/retail/1")[0])
    assert any(first.endswith(s) for s in pool)


def test_egoeval_run_with_a_litellm_agent_from_the_command_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("EGOEVAL_CACHE", str(tmp_path / "cache"))
    config = tmp_path / "models.yaml"
    config.write_text("defaults:\n  timeout: 5\n  backoff: 0.01\nmodels:\n  openai/test-model:\n    temperature: 0.3\n")
    with LoopbackLLM(shop_agent) as server:
        code = main(["run", "--agent", "litellm:openai/test-model", "--agent-api-base", server.api_base,
                     "--tasks", "demo/retail/1", "--frames", "2", "--model-config", str(config), "--quiet",
                     "--log-dir", str(tmp_path / "log")])
    assert code == 0 and "joint 1" in capsys.readouterr().out
    assert server.requests[0]["temperature"] == 0.3
    header = next(iter_events(tmp_path / "log" / "run.jsonl"))
    assert header["config"]["agent_settings"]["api_key"] == "***"
    bad = tmp_path / "bad.yaml"
    bad.write_text("defaults:\n  temprature: 0\n")
    assert main(["run", "--agent", "litellm:openai/x", "--model-config", str(bad), "--quiet"]) == 2
    assert "temprature" in capsys.readouterr().err


def test_a_long_retry_after_is_the_providers_time_not_an_agent_timeout(tmp_path):
    with LoopbackLLM(shop_agent) as server:
        warm = LiteLLMAgent("openai/test-model", api_base=server.api_base, api_key="k", cache=False)
        asyncio.run(warm.client.complete([{"role": "user", "content": "warm up"}]))  # LiteLLM's slow first call
        server.push(http_error(429, **{"Retry-After": "3"}))
        agent = lambda: LiteLLMAgent("openai/test-model", api_base=server.api_base, api_key="k", cache=False,  # noqa: E731
                                     backoff=0.01, max_backoff=5, timeout=3)
        _, [outcome] = run(tmp_path, agent, observation=ObservationConfig(no_video=True),
                           limits=Limits(episode_timeout=1.0))
    assert outcome.reason == "infra_error" and "retried" in outcome.error and outcome.verdict is None


def test_an_empty_reply_is_retried(tmp_path):
    empty = reply("x")
    empty["choices"] = []
    with LoopbackLLM(shop_agent) as server:
        server.push(empty)
        agent = lambda: LiteLLMAgent("openai/test-model", api_base=server.api_base, api_key="k",  # noqa: E731
                                     cache=False, **FAST)
        runner, [outcome] = run(tmp_path, agent, observation=ObservationConfig(no_video=True))
    assert outcome.verdict["joint_success"] is True
    assert "no message" in events(runner, "tool_calls")[0]["retries"][0]["error"]


def test_stop_is_the_capital_word_and_a_weak_judge_is_asked_again(tmp_path):
    from egoeval.llm_user import says_stop

    assert says_stop("STOP") and says_stop("Thanks, that's all. STOP")
    assert not says_stop("the wine next to the bus stop sign") and not says_stop("Stop... no, wait")
    judged = []

    def model(body):
        last = text_of(body["messages"][-1])
        if "You check a simulated customer's message" in last:
            judged.append(last)
            if len(judged) == 1:
                return reply("I think it is fine.")  # not the JSON asked for
        return llm_user_model(body)

    with LoopbackLLM(model) as server:
        user = lambda: LLMUser("openai/user-model", "easy", api_base=server.api_base, api_key="k",  # noqa: E731
                               cache=CallCache(tmp_path / "c.sqlite"), **FAST)
        run(tmp_path / "log", OracleAgent, user, observation=ObservationConfig(no_video=True))
    assert len(judged) >= 2 and judged[1] != judged[0]


def test_secrets_never_reach_the_log():
    from egoeval.players import redact

    shown = redact({"api_key": "sk-1", "max_tokens": 10, "api_base": "https://me:pw@host/v1",
                    "extra": {"aws_secret_access_key": "s", "extra_headers": {"Authorization": "Bearer t"}}})
    assert shown == {"api_key": "***", "max_tokens": 10, "api_base": "https://me:***@host/v1",
                     "extra": {"aws_secret_access_key": "***", "extra_headers": {"Authorization": "***"}}}


def test_personas_change_the_user_prompt_and_show_in_logs_and_reports(tmp_path):
    from egoeval.report import build
    from egoeval.tasks.personas import names, pick

    assert {"calm-patient-clear", "angry-impatient-vague", "cooperative", "scattered", "dependent"} <= set(names())
    grid = {(p["emotion"], p["patience"], p["style"]) for p in map(lambda n: pick(n, 0), names()) if "emotion" in p}
    assert len(grid) == 8  # ECom-Bench's full emotion x patience x style grid
    assert pick("random", 3) == pick("random", 3)
    with LoopbackLLM(llm_user_model) as server:
        user = lambda: LLMUser("openai/user-model", "easy", api_base=server.api_base, api_key="k",  # noqa: E731
                               cache=False, **FAST)
        runner, [outcome] = run(tmp_path / "angry", OracleAgent, user, observation=ObservationConfig(no_video=True),
                                persona="angry-impatient-vague")
        actor = next(r for r in server.requests if "role-playing a customer" in r["messages"][0]["content"])
    assert "Your persona (angry-impatient-vague): You are irritated" in actor["messages"][0]["content"]
    start = events(runner, "episode_start")[0]
    assert start["persona"] == "angry-impatient-vague"
    model = build([str(runner.log_path)], "egobench")["models"]["oracle"]
    assert [r["mode"] for r in model["rows"]] == ["easy+angry-impatient-vague"]
    joint = 100.0 if outcome.verdict["joint_success"] else 0.0
    assert model["personas"] == {d: {v: {"episodes": 1, "Joint": joint}}
                                 for d, v in (("emotion", "angry"), ("patience", "low"), ("style", "vague"))}
