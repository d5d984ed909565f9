"""Per-task-file scoring context: the environment class, a pristine environment to
clone for replays, the catalog used by the fuzzy name test (SCORING.md A4), and what
the error analysis needs to know about the file.

A suite builds one context per task file (``Suite.scoring_context``); the verifiers
only read it, so they never need to know which suite or release a file belongs to.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from egoeval.tools.egobench import ScenarioEnv

from .profiles import Profile


@dataclass
class ScoringContext:
    #: unique per suite and task file (memo keys: two releases' retail1 differ)
    key: str
    scenario: str
    variant: int
    seed_name: str | None
    env_cls: type[ScenarioEnv]
    pristine: ScenarioEnv
    catalog_names: tuple[str, ...]
    fuzzy_keys: frozenset[str]
    #: the fuzzy name test is plain trimmed, lower-cased equality (no catalog lookup)
    plain_names: bool = False
    #: error analysis: tools whose arguments show what the agent recognised in the video
    query_tools: frozenset[str] = frozenset()
    #: error analysis: the restaurant a multi-restaurant file is set in (None: no check)
    expected_restaurant: str | None = None
    #: error analysis: other parameter names a GT ``key`` is looked up under
    key_aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    _matches: dict[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def build(cls, key: str, scenario: str, variant: int, seed_name: str | None, env_cls: type[ScenarioEnv],
              seed: dict, fuzzy_keys: frozenset[str], **extra: Any) -> "ScoringContext":
        pristine = env_cls.from_seed(seed)
        names = tuple(dict.fromkeys(n.lower() for n in pristine.catalog_names()))
        return cls(key, scenario, variant, seed_name, env_cls, pristine, names, fuzzy_keys, **extra)

    def params_of(self, tool: object, profile: Profile) -> tuple[str, ...] | None:
        """Parameter names of a callable member (None: no such tool); Q15 in strict."""
        names = self.env_cls.params_of(tool)
        if names is not None and profile.schema_tools_only and tool not in self.env_cls.tools:
            return None
        return names

    def fresh_env(self) -> ScenarioEnv:
        return self.pristine.clone()

    def catalog_matches(self, text: str) -> frozenset[str]:
        """M(x): catalog names containing lower(x) or contained in it (cached)."""
        hit = self._matches.get(text)
        if hit is None:
            q = text.lower()
            hit = frozenset(n for n in self.catalog_names if q in n or n in q)
            self._matches[text] = hit
        return hit
