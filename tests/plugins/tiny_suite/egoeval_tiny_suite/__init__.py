"""A third-party suite in one folder and one registration (see docs/suites.md).

Two retail tasks of its own, played on the first EgoBench release's retail seed and
tools, scored the EgoBench way (a ``CallsSuite``).
"""

import json
from pathlib import Path

from egoeval.suites import get_suite
from egoeval.task import Task
from egoeval.tasks.egobench.suite import CallsSuite

HERE = Path(__file__).parent


class TinySuite(CallsSuite):
    name = "tiny"
    title = "tiny: two retail tasks from a plugin package"
    scenarios = ("retail",)
    folder = HERE
    generates_videos = False

    @property
    def _base(self):
        return get_suite("egobench")

    @property
    def profiles(self):
        return self._base.profiles

    @property
    def default_profile(self):
        return self._base.default_profile

    @property
    def environments(self):
        return self._base.environments

    fuzzy_keys = {"retail": frozenset({"product_name"})}

    def files(self):
        return ("retail1",)

    def split_file(self, stem):
        return self._base.split_file(stem)

    def raw_tasks(self, stem, ground_truth="pinned"):
        if stem != "retail1":
            raise KeyError(stem)
        return json.loads((HERE / "tasks.json").read_text(encoding="utf-8"))

    def seed_name(self, scenario, variant):
        return self._base.seed_name(scenario, variant)

    def seed(self, name):
        return self._base.seed(name)

    def schemas(self, scenario):
        return self._base.schemas(scenario)

    def load_tasks(self, scenario=None):
        return [Task(id=self.task_ref("retail1", raw, i), suite=self.name, scenario="retail", file="retail1",
                     task_id=raw["task_id"], instruction=raw["Instruction"], video="none.mp4",
                     scene_description="", ground_truth=raw["ground_truth"], seed="retail_init_data1")
                for i, raw in enumerate(self.raw_tasks("retail1"))]
