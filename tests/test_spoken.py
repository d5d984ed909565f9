"""The spoken user: real espeak-ng speech to an audio-capable agent on a loopback server,
and an agent's spoken reply transcribed by the real offline Whisper model."""

import asyncio
import base64
import io
import wave

from llm_server import LoopbackLLM, reply

from egoeval.cli import main
from egoeval.litellm_agent import LiteLLMAgent
from egoeval.media.asr import transcribe
from egoeval.media.tts import speak
from egoeval.model_client import CallCache
from egoeval.observation import ObservationConfig
from egoeval.runner import RunConfig, Runner
from egoeval.suites import load_tasks
from egoeval.trajectory import iter_events, read_log
from egoeval.users import ScriptedUser

ADD = {"user_id": "demo_shopper_01", "product_name": "Mouton Cadet", "qty": 2, "category": "wine", "price": 208,
       "tax_rate": 0.14, "discount": 0.9}
FAST = {"backoff": 0.01, "max_backoff": 0.5, "timeout": 10.0}


def run(tmp_path, responder, audio_input=True, **config):
    with LoopbackLLM(responder) as server:
        agent = lambda: LiteLLMAgent("openai/omni", api_base=server.api_base, api_key="k",  # noqa: E731
                                     cache=CallCache(tmp_path / "calls.sqlite"), audio_input=audio_input, **FAST)
        cfg = RunConfig(observation=ObservationConfig(no_video=True), **config)
        runner = Runner(cfg, load_tasks("demo", pattern="demo/retail/1"), agent, lambda: ScriptedUser("easy"),
                        tmp_path / "log")
        [outcome] = asyncio.run(runner.run())
    return runner, outcome, server.requests


def audio_parts(body: dict) -> list[dict]:
    return [p for m in body["messages"] if m["role"] == "user" and isinstance(m["content"], list)
            for p in m["content"] if p.get("type") == "input_audio"]


def shop(body: dict) -> dict:
    if not any(m["role"] == "assistant" for m in body["messages"]):
        return reply(None, [("add_to_cart", ADD)])
    return reply("I added two bottles of Mouton Cadet to your cart.")


def test_the_user_speaks_to_an_agent_that_hears(tmp_path):
    runner, outcome, requests = run(tmp_path, shop, spoken_user="espeak-ng")
    assert outcome.verdict["joint_success"] is True
    [first] = audio_parts(requests[0])
    assert first["input_audio"]["format"] == "wav"
    wav = base64.b64decode(first["input_audio"]["data"])
    with wave.open(io.BytesIO(wav)) as w:
        assert w.getnframes() / w.getframerate() > 1.0  # real speech, seconds of it
    text_part = [p for p in requests[0]["messages"][1]["content"] if p.get("type") == "text"][0]["text"]
    users = [e for e in iter_events(runner.log_path) if e["event"] == "message" and e["role"] == "user"]
    assert text_part == users[0]["content"]  # the words and their sound go together
    (tmp_path / "said.wav").write_bytes(wav)
    heard = transcribe(tmp_path / "said.wav", cache=False).text.lower()
    assert len(set(heard.split()) & set(users[0]["content"].lower().split())) >= 3  # Whisper hears the message
    delivered = users[:-1]  # the last, STOP, ends the episode and never reaches the agent
    spoken = [u for u in users if u.get("audio")]
    assert spoken == delivered and all((runner.log_dir / u["audio"]["file"]).is_file() for u in spoken)
    assert spoken[0]["audio"]["backend"] == "espeak-ng" and spoken[0]["audio"]["duration"] > 1.0
    # later user turns carry their own audio too: the last request holds every user turn before it
    assert len(delivered) >= 2 and len(audio_parts(requests[-1])) == len(delivered)


def test_an_agent_that_cannot_hear_gets_text_only(tmp_path):
    runner, outcome, requests = run(tmp_path, shop, audio_input=False, spoken_user="espeak-ng")
    assert outcome.verdict["joint_success"] is True
    assert not any(audio_parts(b) for b in requests)
    assert not (runner.log_dir / "audio").exists()


def test_a_voice_that_cannot_speak_sends_text_and_says_why(tmp_path):
    runner, outcome, requests = run(tmp_path, shop, spoken_user="espeak-ng", spoken_voice="xx-no-such-voice")
    assert outcome.verdict["joint_success"] is True and not audio_parts(requests[0])
    first = [e for e in iter_events(runner.log_path) if e["event"] == "message"][0]
    assert "text-to-speech failed" in first["audio"]["error"] and "voice does not exist" in first["audio"]["error"]


def test_an_agent_that_answers_in_speech_is_transcribed_for_the_user(tmp_path):
    speech = speak("I added two bottles to your cart. The total is 374 dollars.", tmp_path / "agent.wav")
    data = base64.b64encode(speech.path.read_bytes()).decode()

    def omni(body: dict) -> dict:
        if not any(m["role"] == "assistant" for m in body["messages"]):
            return reply(None, [("add_to_cart", ADD)])
        answer = reply(None)
        answer["choices"][0]["message"]["audio"] = {"id": "audio_1", "data": data, "expires_at": 0,
                                                    "transcript": "I added two bottles to your cart."}
        return answer

    runner, outcome, _ = run(tmp_path, omni)
    assert outcome.verdict["joint_success"] is True
    agent = [e for e in iter_events(runner.log_path) if e["event"] == "message" and e["role"] == "agent"][0]
    assert "374" in agent["content"] and "added" in agent["content"].lower()  # Whisper's words, not the provider's
    assert agent["audio"]["transcribed_by"] == "faster-whisper tiny.en"
    assert agent["audio"]["provider_transcript"] == "I added two bottles to your cart."
    assert (runner.log_dir / agent["audio"]["file"]).read_bytes()[:4] == b"RIFF"
    [episode] = read_log(runner.log_path)[1]
    assert episode.dialogue[1]["audio"]["file"] == agent["audio"]["file"]
    from egoeval.viewer import build_viewer

    build_viewer([runner.log_dir], tmp_path / "view")
    [page] = (tmp_path / "view" / "episodes").glob("*.html")
    html = page.read_text()
    assert "<audio controls" in html and "faster-whisper tiny.en" in html
    assert any(f.suffix == ".wav" for f in page.parent.iterdir())


def test_undecodable_agent_audio_is_recorded_not_fatal(tmp_path):
    bogus = base64.b64encode(b"RIFF-not-really-a-wave-file").decode()

    def broken(body: dict) -> dict:
        answer = reply("Your cart is ready.")
        answer["choices"][0]["message"]["audio"] = {"id": "a", "data": bogus, "expires_at": 0, "transcript": ""}
        return answer

    runner, outcome, _ = run(tmp_path, broken)
    assert outcome.reason in ("user_stop", "turn_limit")
    agent = [e for e in iter_events(runner.log_path) if e["event"] == "message" and e["role"] == "agent"][0]
    assert agent["content"] == "Your cart is ready." and "could not be transcribed" in agent["audio"]["error"]


def test_cli_refuses_a_speech_backend_that_is_not_here(tmp_path, capsys):
    code = main(["run", "--spoken-user", "no-such-tts", "--quiet", "--log-dir", str(tmp_path / "a")])
    assert code == 2 and "unknown text-to-speech backend" in capsys.readouterr().err


def test_the_viewer_copies_audio_only_from_inside_the_run(tmp_path):
    from egoeval.viewer import _audio_html

    run_dir, out = tmp_path / "run", tmp_path / "view"
    (run_dir / "audio").mkdir(parents=True)
    out.mkdir()
    (run_dir / "audio" / "user-0.wav").write_bytes(b"RIFF")
    (tmp_path / "secret.txt").write_text("not for publishing")
    assert "<audio" in _audio_html({"file": "audio/user-0.wav"}, run_dir, out, "ep")
    assert "<audio" not in _audio_html({"file": "../secret.txt"}, run_dir, out, "ep")
    assert "<audio" not in _audio_html({"file": str(tmp_path / "secret.txt")}, run_dir, out, "ep")
    assert [f.name for f in out.iterdir()] == ["ep-user-0.wav"]
