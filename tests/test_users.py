"""The scripted user: what it says, in which mode, and when it stops."""

import asyncio

import pytest

from egoeval.agents import EpisodeContext
from egoeval.suites import get_task
from egoeval.users import ScriptedUser, distractor_pool, task_steps, user_id


def talk(user, task, replies, seed=7, max_turns=10):
    """The user's messages when the agent answers with ``replies`` (then 'OK.')."""
    async def go():
        said = [(await user.start(EpisodeContext(task, 1, seed, user.mode, max_user_turns=max_turns))).content]
        for r in list(replies) + ["OK."] * 20:
            reply = await user.respond(r)
            said.append(reply.content)
            if reply.stop:
                return said
        return said
    return asyncio.run(go())


@pytest.mark.parametrize("task_id,expected", [
    ("egobench/retail1/1", "alice_wong_456"),
    ("egobench/kitchen4/3", "cook_006"),
    ("demo/order/10", "demo_eater_01"),
])
def test_user_id_from_the_instruction(task_id, expected):
    assert user_id(get_task(task_id)) == expected


def test_steps_come_from_the_analysis_in_the_first_person():
    steps = task_steps(get_task("egobench/retail1/1"))
    assert steps[0] == "Confirm the price of the third wine bottle I am pointing at."
    assert len(steps) == 5 and steps[-1].startswith("Calculate the total calorie content")


def test_steps_from_an_instruction_drop_the_id_and_speak_as_the_user():
    steps = task_steps(get_task("demo/retail/2"))
    assert steps[0] == "I am a budget-conscious shopper."
    assert steps[1] == "Please tell me the price of the first bottle I pointed at."
    assert all("User ID" not in s and " you " not in f" {s} " for s in steps)


def test_easy_reveals_one_step_per_message_then_stops():
    task = get_task("egobench/retail1/1")
    said = talk(ScriptedUser("easy"), task, [])
    assert said[0].startswith("My user ID is alice_wong_456. Confirm the price")
    assert said[1:-1] == task_steps(task)[1:] and said[-1] == "STOP"


def test_static_says_everything_at_once():
    task = get_task("egobench/retail1/1")
    said = talk(ScriptedUser("static"), task, [])
    assert len(said) == 2 and all(s in said[0] for s in task_steps(task)) and said[1] == "STOP"


def test_hard_appends_seeded_distractors():
    task = get_task("egobench/retail1/1")
    pool = distractor_pool(task)
    assert len(pool) == 50
    first = talk(ScriptedUser("hard"), task, [], seed=1)
    again = talk(ScriptedUser("hard"), task, [], seed=1)
    other = talk(ScriptedUser("hard"), task, [], seed=2)
    assert first == again and first != other
    assert all(any(m.endswith(d) for d in pool) for m in first[:-1])


def test_answers_the_user_id_question_without_losing_a_step():
    task = get_task("egobench/kitchen1/1")
    plain = talk(ScriptedUser("easy"), task, [])
    asked = talk(ScriptedUser("easy"), task, ["Could you tell me your user ID, please?"])
    assert asked[1] == f"My user ID is {user_id(task)}." and asked[2:] == plain[1:]


def test_more_steps_than_turns_fit_in_the_last_message():
    task = get_task("egobench/kitchen4/3")
    steps = task_steps(task)
    assert len(steps) > 3
    said = talk(ScriptedUser("easy"), task, [], max_turns=3)
    assert len(said) == 4 and said[-1] == "STOP" and said[2] == " ".join(steps[2:])
