"""Suites scored the EgoBench way, and the EgoBench suite itself.

:class:`CallsSuite` is what every suite of EgoBench-style tasks shares: task files of
``<scenario><N>`` whose tasks carry ground-truth calls, one seed per file, scenario
environments, verdicts from tool-call coverage and final-state hashes, an error
category for every failure, the oracle / null self-test, the facts to communicate and
the derived rubric, and the EgoBench results format (``<file>_<mode>.json``). A
subclass declares its data (files, seeds, schemas, environments, fuzzy keys, query
tools, profiles); :class:`EgoBench` is the first public release.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar

from egoeval.suites import Suite
from egoeval.task import Task
from egoeval.verifiers.context import ScoringContext
from egoeval.verifiers.profiles import EGOBENCH, STRICT, Profile

from . import (
    DATA, FILES, FUZZY_KEYS, ORDER_RESTAURANT, QUERY_TOOLS, SCENARIOS, UnknownTask, distractors, get_task,
    load_tasks, raw_tasks, seed, seed_name, split_file, tool_schemas,
)


class CallsSuite(Suite):
    """A suite scored from tool calls and final states (see the module docstring)."""

    verdict_kind = "calls"
    exports_results = True
    #: scenario -> environment class
    environments: ClassVar[dict[str, type]] = {}
    #: scenario -> keys compared by the fuzzy name test
    fuzzy_keys: ClassVar[dict[str, frozenset[str]]] = {}
    #: scenario -> tools whose arguments the error analysis reads
    query_tools: ClassVar[dict[str, frozenset[str]]] = {}
    #: scenario -> {GT key: parameter names the error analysis looks it up under}
    key_aliases: ClassVar[dict[str, dict[str, tuple[str, ...]]]] = {}
    #: scenarios whose fuzzy name test is plain equality (no catalog lookup)
    plain_name_scenarios: ClassVar[frozenset[str]] = frozenset()
    # --- data every subclass gives ------------------------------------------------
    def files(self) -> tuple[str, ...]:
        """Task file stems in suite order."""
        raise NotImplementedError

    def split_file(self, stem: str) -> tuple[str, int]:
        """``'retail10'`` -> ``('retail', 10)``; ValueError for a stem of another suite."""
        raise NotImplementedError

    def raw_tasks(self, stem: str, ground_truth: str = "pinned") -> list[dict]:
        """A task file as shipped (KeyError for an unknown one)."""
        raise NotImplementedError

    def seed_name(self, scenario: str, variant: int) -> str | None:
        raise NotImplementedError

    def seed(self, name: str | None) -> dict:
        raise NotImplementedError

    def schemas(self, scenario: str) -> list[dict]:
        raise NotImplementedError

    def expected_restaurant(self, scenario: str, variant: int) -> str | None:
        """The restaurant a multi-restaurant file is set in (error analysis), or None."""
        return None

    def task_ref(self, stem: str, raw: dict, position: int) -> str:
        return f"{self.name}/{stem}/{raw.get('task_id', position + 1)}"

    def env_class(self, scenario: str, variant: int) -> type:
        """The environment of a task file (a scenario may change class with the variant)."""
        return self.environments[scenario]

    def placeholder(self, raw: dict, position: int, mode: str) -> dict:
        """An empty trajectory the official evaluator scores as a failure (positions kept)."""
        return {self.id_member: raw.get(self.id_member, position + 1), "mode": mode, "dialogue": [],
                "tool_calls": [], "egoeval_missing": True}

    # --- Suite ----------------------------------------------------------------------
    def scenario_of(self, group: str) -> str:
        try:
            return self.split_file(group)[0]
        except ValueError:
            return group

    def tool_schemas(self, task: Task) -> list[dict]:
        return self.schemas(task.scenario)

    def new_env(self, task: Task) -> Any:
        return self.env_class(*self.split_file(task.file)).from_seed(self.seed(task.seed))

    def scoring_context(self, stem: str) -> ScoringContext:
        """The scoring context of a task file (built once)."""
        ctx = self._contexts.get(stem)
        if ctx is None:
            scenario, variant = self.split_file(stem)
            name = self.seed_name(scenario, variant)
            ctx = self._contexts[stem] = ScoringContext.build(
                f"{self.name}{self.data_tag()}/{stem}", scenario, variant, name, self.env_class(scenario, variant),
                self.seed(name), self.fuzzy_keys.get(scenario, frozenset()), plain_names=scenario in self.plain_name_scenarios,
                query_tools=self.query_tools.get(scenario, frozenset()),
                expected_restaurant=self.expected_restaurant(scenario, variant),
                key_aliases=self.key_aliases.get(scenario, {}))
        return ctx

    @cached_property
    def _contexts(self) -> dict[str, ScoringContext]:
        return {}

    def data_tag(self) -> str:
        """Names where the suite's data comes from (replays of two sources never mix)."""
        return ""

    def scoring_target(self, task_id: str, ground_truth: str = "pinned") -> tuple[str, dict]:
        """(task file whose scoring context applies, raw ground-truth record) of a task id."""
        parts = task_id.split("/")
        if len(parts) != 3 or parts[0] != self.name:
            raise KeyError(task_id)
        try:
            raws = self.raw_tasks(parts[1], ground_truth)
        except (KeyError, ValueError):
            raise KeyError(task_id) from None
        for pos, raw in enumerate(raws):
            if self.task_ref(parts[1], raw, pos) == task_id:
                return parts[1], raw
        raise KeyError(task_id)

    def oracle_calls(self, task: Task, profile: Profile) -> list[dict]:
        from egoeval.verifiers.validation import send_as_agent

        stem, raw = self.scoring_target(task.id)
        return send_as_agent(self.scoring_context(stem), raw, profile)

    def score_episode(self, task_id: str, trajectory: dict, profile: Profile, workspace: Path | None = None,
                      ground_truth: str = "pinned") -> Any:
        """One trajectory scored against exactly the task it names (no positional
        pairing); raises ``KeyError`` for an unknown task id (or ground truth)."""
        from egoeval.verifiers.egobench import id_key, score_file

        stem, gt = self.scoring_target(task_id, ground_truth)
        facts = self.expected_facts(self.get_task(task_id))
        key = id_key(profile)  # the log names the task: both sides carry the id its task id ends in
        tid = task_id.rsplit("/", 1)[1]
        tid = int(tid) if tid.isdigit() else tid
        gt, trajectory = {**gt, key: tid}, {**trajectory, key: tid}
        return score_file(stem, [trajectory], profile, [gt], self.scoring_context(stem), facts_of=lambda _: facts)

    def score_results(self, stem: str, trajectories: list, profile: Profile, ground_truth: str = "pinned") -> Any:
        """Score a results file's trajectories against the file's ground truth (paired as
        the profile says); the facts each task must communicate come from the suite's task."""
        from egoeval.verifiers.egobench import score_file

        def facts_of(tid: Any) -> list:
            return self.expected_facts(self.get_task(f"{self.name}/{stem}/{tid}"))

        return score_file(stem, trajectories, profile, self.raw_tasks(stem, ground_truth), self.scoring_context(stem),
                          facts_of=facts_of)

    def results_stem(self, path: Path) -> str | None:
        from egoeval.trajectory import results_file_stem

        named = results_file_stem(path) if self.exports_results else None
        if named is None:
            return None
        try:
            self.split_file(named[0])
        except ValueError:
            return None
        return named[0] if named[0] in self.files() else None

    def expected_facts(self, task: Task) -> list:
        from egoeval.verifiers.answers import Fact, derive_facts, reports

        facts = self._facts.get(task.id)
        if facts is None:
            overrides = self._overrides
            if task.id in overrides:
                facts = tuple(Fact(**f) for f in overrides[task.id] or [])
            elif not any(isinstance(c, dict) and reports(c.get("tool_name")) for c in task.ground_truth):
                facts = ()  # nothing to replay: no call of the ground truth reports a value
            else:
                facts = tuple(derive_facts(self.ground_truth_results(task), task.instruction))
            self._facts[task.id] = facts
        return list(facts)

    @cached_property
    def _facts(self) -> dict[str, tuple]:
        return {}

    @cached_property
    def _overrides(self) -> dict:
        from egoeval.verifiers.answers import read_overrides

        path = self.data_file("answers_overrides.json")
        return read_overrides(path) if path is not None else {}

    def ground_truth_results(self, task: Task, track_changes: bool = False) -> list[tuple[dict, Any, bool]]:
        """The task's ground truth run on its seed as a correct agent sends it (strict
        profile: arguments a tool does not take left out)."""
        from egoeval.verifiers.answers import ground_truth_results

        stem, _ = self.scoring_target(task.id)
        env = self.scoring_context(stem).fresh_env()  # a copy-on-write clone of the seeded state
        return ground_truth_results(env, self.oracle_calls(task, STRICT), track_changes)

    def rubric_items(self, task: Task) -> list:
        from egoeval.verifiers.rubric import derive_rubric

        return derive_rubric(self.expected_facts(task), self.ground_truth_results(task, track_changes=True))

    def validate(self, profile: Profile) -> Any:
        from egoeval.verifiers.validation import ValidationReport, validate_group

        report = ValidationReport(self.name, profile.name)
        for stem in self.files():
            validate_group(report, stem, self.raw_tasks(stem), self.scoring_context(stem), profile,
                           lambda t, i, stem=stem: self.task_ref(stem, t, i))
        return report


class EgoBench(CallsSuite):
    """The first public EgoBench release: 1,044 tasks in retail, kitchen, restaurant and
    order, scored exactly as its official evaluator (profile ``egobench``) or by our
    ``strict`` profile. Data: EgoBench (CC BY 4.0), see NOTICE.md."""

    name = "egobench"
    title = "EgoBench (first public release): 1,044 tasks, retail / kitchen / restaurant / order"
    scenarios = SCENARIOS
    folder = DATA.parent
    profiles = {"egobench": EGOBENCH, "strict": STRICT}
    default_profile = "egobench"
    fuzzy_keys = FUZZY_KEYS
    query_tools = QUERY_TOOLS
    plain_name_scenarios = frozenset({"kitchen"})

    @cached_property
    def environments(self) -> dict[str, type]:  # type: ignore[override]
        from egoeval.tools.egobench import ENVIRONMENTS

        return ENVIRONMENTS

    def files(self) -> tuple[str, ...]:
        return FILES

    def split_file(self, stem: str) -> tuple[str, int]:
        return split_file(stem)

    def raw_tasks(self, stem: str, ground_truth: str = "pinned") -> list[dict]:
        return raw_tasks(stem, ground_truth)

    def seed_name(self, scenario: str, variant: int) -> str | None:
        return seed_name(scenario, variant)

    def seed(self, name: str | None) -> dict:
        return seed(name)

    def schemas(self, scenario: str) -> list[dict]:
        return tool_schemas(scenario)

    def expected_restaurant(self, scenario: str, variant: int) -> str | None:
        return ORDER_RESTAURANT.get(variant) if scenario == "order" else None

    def distractors(self, task: Task) -> list[str]:
        return list(distractors().get(_distractor_pool(task)) or [])

    def load_tasks(self, scenario: str | None = None) -> list[Task]:
        return load_tasks(scenario)

    def get_task(self, task_id: str) -> Task:
        try:
            return get_task(task_id)
        except UnknownTask:
            raise KeyError(task_id) from None


def _distractor_pool(task: Task) -> str:
    """Which of EgoBench's distractor lists fits a task (wine ones for wine shelves)."""
    if task.scenario == "retail" and "wine" in task.instruction.lower():
        return "wine_sentences"
    return f"{task.scenario}_sentences"
