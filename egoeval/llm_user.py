"""The LLM user: a model plays the customer, as in the EgoBench paper.

Three roles per user turn, each one model call through the one model client:

- **Actor** writes the customer's next message from the task (instruction and the
  scene description: the user knows the scene, not the video), the Summarizer's record
  of progress, and the agent's last reply. It says ``STOP`` when every request is done.
- **Evaluator** checks the message on four binary criteria (role consistency,
  instruction following, resilience, contextual robustness) and, when one fails, asks the
  Actor for a rewrite with a suggestion, at most ``max_rewrites`` times.
- **Summarizer** keeps a compact record of what has been asked, answered and done.

Modes: ``easy`` (one request per message, cooperative), ``hard`` (impatient and vague;
appends one of the suite's distractor sentences for the scenario; may end the dialogue
with STOP when the agent's replies are overlong or unnatural), ``static`` (everything in
the first message). Scores are averaged over the episode's turns and reported the way
EgoBench's ``corrected_scores`` are (first drafts under ``original``).

A reply from the Evaluator or Summarizer that is not the JSON asked for is retried once
and then taken as "no judgement" (the message is kept), so a weak judge cannot stall
an episode; provider failures propagate as infrastructure errors.
"""

from __future__ import annotations

import random
import re
from typing import Any

from egoeval.agents import EpisodeContext, Usage
from egoeval.model_client import ModelClient
from egoeval.users import MODES, UserReply, distractor_pool

CRITERIA = ("role_consistency", "instruction_following", "resilience", "contextual_robustness")

MODE_STYLE = {
    "easy": "Reveal your requests one at a time, in the order of your task, one request per message. Be "
            "cooperative and clear.",
    "hard": "You are impatient and a little vague: ask one request per message in few words, and do not "
            "explain what you can see unless asked. If the agent's replies are overlong, evasive or unnatural, "
            "you may end the conversation by replying STOP.",
    "static": "Put your whole task (every request, with its conditions) into your first message.",
}

ACTOR = (
    "You are role-playing a customer talking to an AI service agent through smart glasses; the agent sees "
    "what you see. Stay in character: you are the customer, never the assistant.\n\n"
    "Your task (private; do not reveal it verbatim):\n{instruction}\n\nWhat is in front of you: {scene}\n\n"
    "Style: {style}\nRefer to things the way a person would (\"the second bottle I pointed at\"); do not name "
    "items you could not know. Give your user ID when asked. When every request of your task has been "
    "handled, reply with exactly STOP. Write only your next message to the agent."
)
EVALUATOR = (
    "You check a simulated customer's message. Customer task:\n{instruction}\nStyle required: {style}\n"
    "Progress so far: {summary}\nAgent's last reply: {agent}\nCustomer's candidate message: {message}\n\n"
    "Score each criterion 1 (met) or 0 (not met): role_consistency (speaks as the customer, not the "
    "assistant), instruction_following (asks for what the task says next, no invented requests), resilience "
    "(stays on task despite the agent's mistakes), contextual_robustness (consistent with the dialogue so far). "
    "Reply with only JSON: {{\"role_consistency\": 0|1, \"instruction_following\": 0|1, \"resilience\": 0|1, "
    "\"contextual_robustness\": 0|1, \"suggestion\": \"how to fix it, or empty\"}}"
)
SUMMARIZER = (
    "Keep a compact record of a customer-service dialogue for the customer. Previous record: {summary}\n"
    "Customer said: {user}\nAgent replied: {agent}\n"
    "Write the updated record in at most 5 short lines: requests made, answers given, actions done, what is "
    "still to ask. Reply with only the record."
)


_STOP = re.compile(r"\bSTOP\b")


def says_stop(message: str) -> bool:
    """The user ends the dialogue: the word STOP in capitals (as EgoBench's runner checks),
    not the word "stop" in a sentence ("the bus stop")."""
    return bool(_STOP.search(message))


def _json_object(text: str | None) -> dict | None:
    """The reply's JSON object, or None (the judges' reader: egoeval.verifiers.judge)."""
    from egoeval.verifiers.judge import json_object

    try:
        obj = json_object(text)
    except ValueError:
        return None
    return obj if isinstance(obj, dict) else None


def _scores(obj: dict | None) -> dict | None:
    if obj is None or not all(k in obj for k in CRITERIA):
        return None
    try:
        return {k: 1 if int(obj[k]) else 0 for k in CRITERIA}
    except (TypeError, ValueError):
        return None


class LLMUser:
    name = "litellm"

    def __init__(self, model: str, mode: str = "easy", max_rewrites: int = 3, **client: Any) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown user mode {mode!r}; choose one of {', '.join(MODES)}")
        self.model, self.mode, self.max_rewrites = model, mode, max_rewrites
        self.client = ModelClient(model, **client)
        self.steps: int | None = None  # a model user's pace is its own
        self.summary = "(nothing yet)"
        self.last_user = ""
        self.turns: list[tuple[dict, dict]] = []  # (first-draft scores, final scores) per evaluated turn
        self.pool: list[str] = []
        self.rng = random.Random(0)
        self.ctx: EpisodeContext | None = None

    async def start(self, ctx: EpisodeContext) -> UserReply:
        self.ctx = ctx
        self.rng = random.Random(ctx.seed)
        self.pool = distractor_pool(ctx.task) if self.mode == "hard" else []
        self.summary, self.turns = "(nothing yet)", []
        return await self._turn(None)

    async def respond(self, agent_message: str) -> UserReply:
        usage = Usage()
        record = await self._ask(SUMMARIZER.format(summary=self.summary, user=self.last_user, agent=agent_message),
                                 usage)
        if record:
            self.summary = record.strip()
        reply = await self._turn(agent_message)
        reply.usage.add(usage)
        return reply

    async def _ask(self, prompt: str, usage: Usage, system: str | None = None) -> str | None:
        messages = ([{"role": "system", "content": system}] if system else []) + [{"role": "user", "content": prompt}]
        done = await self.client.complete(messages, seed=self.ctx.seed if self.ctx else None)
        usage.add(done.usage)
        return done.text

    async def _turn(self, agent_message: str | None) -> UserReply:
        assert self.ctx is not None
        task, usage = self.ctx.task, Usage()
        style = MODE_STYLE[self.mode]
        system = ACTOR.format(instruction=task.instruction.strip(), scene=task.scene_description or "(not described)",
                              style=style)
        if self.ctx.persona:
            system += f"\nYour persona ({self.ctx.persona['name']}): {self.ctx.persona['prompt']}"
        prompt = (f"Record of the dialogue so far: {self.summary}\n"
                  + (f"The agent just said: {agent_message}\n" if agent_message is not None else
                     "Start the conversation.\n") + "Your next message:")
        message = (await self._ask(prompt, usage, system) or "").strip()
        first = final = None
        for attempt in range(self.max_rewrites + 1):
            if says_stop(message):
                break
            judged = await self._judge(task.instruction, style, agent_message, message, usage)
            if judged is None:
                break
            scores, suggestion = judged
            first = first or scores
            final = scores
            if all(scores.values()) or attempt == self.max_rewrites:
                break
            message = (await self._ask(f"{prompt}\nYour draft was: {message}\nA reviewer says: {suggestion}\n"
                                       "Rewrite your message accordingly. Your message:", usage, system) or message).strip()
        stop = says_stop(message)
        if self.pool and not stop:
            message = f"{message} {self.rng.choice(self.pool)}"
        self.last_user = message
        reply = UserReply(message, stop=stop, usage=usage)
        if first is not None and final is not None:
            self.turns.append((first, final))
            reply.scores = self._averages()
        return reply

    async def _judge(self, instruction: str, style: str, agent: str | None, message: str,
                     usage: Usage) -> tuple[dict, str] | None:
        prompt = EVALUATOR.format(instruction=instruction, style=style, summary=self.summary,
                                  agent=agent if agent is not None else "(none yet)", message=message)
        for attempt in range(2):  # the second asks differently, so it is not the cached first answer
            obj = _json_object(await self._ask(prompt if not attempt else prompt + "\nOnly the JSON object, please.",
                                               usage))
            scores = _scores(obj)
            if scores is not None:
                return scores, str(obj.get("suggestion") or "")
        return None

    def _averages(self) -> dict:
        n = len(self.turns)
        final = {k: round(sum(t[1][k] for t in self.turns) / n, 4) for k in CRITERIA}
        final["original"] = {k: round(sum(t[0][k] for t in self.turns) / n, 4) for k in CRITERIA}
        return final
