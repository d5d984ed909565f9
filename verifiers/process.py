"""Process check: which ground-truth calls the agent made (SCORING.md A3, A4).

Both sides' parameters are first reduced to the names the tool's implementation takes
(signature filtering); then each GT call, in order, takes the first unused agent call
with the same tool name and equal parameters. Parameter equality has EgoBench's rules:
numeric coercion across types, unordered lists, and a catalog-based fuzzy test for
names. Anything that goes wrong while comparing raises :class:`ComparisonError`; under
the ``egobench`` profile that turns the whole task into (0, 0, 0) (quirk Q8).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .calls import identifier, parameters
from .context import ScoringContext
from .merging import merge_lists
from .profiles import Profile


class ComparisonError(Exception):
    """The reference evaluator would have raised while comparing this task."""


@dataclass
class Comparable:
    """A call reduced to what matching looks at."""

    tool: Any
    params: Any
    index: int  # position among the side's calls


def prepare(call: Any, index: int, ctx: ScoringContext, profile: Profile, gt: bool = False) -> Comparable:
    """Identifier and signature-filtered parameters of one call (A3), lists merged where
    the profile says so (newest evaluator). A GT call without a name is kept, never to be
    matched, where the profile says so; anywhere else it fails the comparison."""
    if not isinstance(call, dict):
        raise ComparisonError(f"call {index + 1} is not an object")
    tool = identifier(call)
    params = parameters(call, profile.accept_arguments_key)
    if not isinstance(tool, str):
        if not (gt and profile.unnamed_gt_calls_unmatched):
            raise ComparisonError(f"call {index + 1} has no tool identifier")
        return Comparable(tool, merge_lists(params) if profile.merge_lists else params, index)
    names = ctx.params_of(tool, profile)
    if names is not None and isinstance(params, dict):
        params = {k: v for k, v in params.items() if k in names}
    return Comparable(tool, merge_lists(params) if profile.merge_lists else params, index)


class Comparator:
    """Parameter equality for one scenario under one profile."""

    def __init__(self, ctx: ScoringContext, profile: Profile) -> None:
        self.ctx = ctx
        self.profile = profile
        self.fuzzy_keys = ctx.fuzzy_keys

    def equal(self, g: Any, a: Any, key: str | None = None) -> bool:
        if type(g) is not type(a):
            if isinstance(g, (str, int, float)) and isinstance(a, (str, int, float)):
                try:
                    return float(g) == float(a)
                except ValueError:
                    return False
            return False
        if isinstance(g, list):
            if len(g) != len(a):
                return False
            same = self.exact if self.profile.exact_lists else self.equal
            pairs = assign(g, a, lambda x, y: same(x, y, key), self.profile.maximum_matching)
            return None not in pairs
        if isinstance(g, dict):
            if g.keys() != a.keys():
                return False
            for k, gv in g.items():
                if k in self.fuzzy_keys and isinstance(gv, str):
                    if not self.names_match(gv, a[k]):
                        return False
                elif not self.equal(gv, a[k], k):
                    return False
            return True
        if isinstance(g, str):
            if key in self.fuzzy_keys or (key == "category" and self.profile.case_insensitive_category):
                return g.strip().lower() == a.strip().lower()
            return g == a
        return g == a

    def exact(self, g: Any, a: Any, key: str | None = None) -> bool:
        """Equality inside lists under the newest evaluator (its "exact mode"): numbers
        coerce as everywhere, names are equal trimmed and lower-cased, no catalog test."""
        if type(g) is not type(a):
            return self.equal(g, a, key)  # numeric coercion, or unequal
        if isinstance(g, list):
            if len(g) != len(a):
                return False
            return None not in assign(g, a, lambda x, y: self.exact(x, y, key), self.profile.maximum_matching)
        if isinstance(g, dict):
            return g.keys() == a.keys() and all(self.exact(v, a[k], k) for k, v in g.items())
        if isinstance(g, str) and (key in self.fuzzy_keys
                                   or (key == "category" and self.profile.case_insensitive_category)):
            return g.strip().lower() == a.strip().lower()
        return g == a

    def names_match(self, g: str, a: Any) -> bool:
        """The fuzzy name test for a GT string under a fuzzy key."""
        if self.ctx.plain_names or self.profile.strict_names:
            if not isinstance(a, str):
                if self.profile.strict_names:
                    return False
                raise ComparisonError(f"non-string value {a!r} for a name")
            if g.strip().lower() == a.strip().lower():
                return True
            if self.ctx.plain_names:
                return False
            # strict: both names must denote exactly one and the same catalog entry
            mg, ma = self._entry(g), self._entry(a)
            return mg is not None and mg == ma
        if not isinstance(a, str):
            if not a:
                return False
            raise ComparisonError(f"non-string value {a!r} for a name")
        mg, ma = self.ctx.catalog_matches(g), self.ctx.catalog_matches(a)
        if mg and ma:
            return not mg.isdisjoint(ma)
        return bool(g) and bool(a) and (g.lower() in a.lower() or a.lower() in g.lower())

    def _entry(self, text: str) -> str | None:
        """The catalog entry a name denotes in the strict profile: exact name first."""
        t = text.strip().lower()
        if t in self.ctx.catalog_names:
            return t
        matches = self.ctx.catalog_matches(text)
        return next(iter(matches)) if len(matches) == 1 else None


def assign(gts: list, agents: list, eq: Callable[[Any, Any], bool], maximum: bool) -> list[int | None]:
    """Pair GT items with agent items; returns each GT item's partner index (or None).

    First-fit (reference): each GT item, in order, takes the first unused equal agent
    item. Maximum (strict, Q4): a maximum bipartite matching (augmenting paths).
    """
    if not maximum:
        used = [False] * len(agents)
        partners: list[int | None] = []
        for g in gts:
            for j, a in enumerate(agents):
                if not used[j] and eq(g, a):
                    used[j] = True
                    partners.append(j)
                    break
            else:
                partners.append(None)
        return partners
    edges = [[j for j, a in enumerate(agents) if eq(g, a)] for g in gts]
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in edges[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    for i in range(len(gts)):
        augment(i, set())
    partners = [None] * len(gts)
    for j, i in owner.items():
        partners[i] = j
    return partners


@dataclass
class ProcessResult:
    matched: int
    gt_calls: int
    agent_calls: int
    error: str | None = None  # why the comparison failed (the task scores 0/0/0)
    missing: list[int] | None = None  # indexes of unmatched GT calls


def check_calls(gt_calls: list, agent_calls: list, ctx: ScoringContext, profile: Profile) -> ProcessResult:
    """Match GT calls against agent calls (A4)."""
    cmp = Comparator(ctx, profile)
    try:
        gts = [prepare(c, i, ctx, profile, gt=True) for i, c in enumerate(gt_calls)]
        agents = []
        for i, c in enumerate(agent_calls):
            try:
                agents.append(prepare(c, i, ctx, profile))
            except ComparisonError:
                if not profile.comparison_error_unmatched:
                    raise

        def eq(g: Comparable, a: Comparable) -> bool:
            if g.tool != a.tool:
                return False
            try:
                return cmp.equal(g.params, a.params)
            except (ComparisonError, OverflowError, RecursionError):
                if profile.comparison_error_unmatched:
                    return False
                raise

        partners = assign(gts, agents, eq, profile.maximum_matching)
        missing = [g.index for g, p in zip(gts, partners) if p is None]
        return ProcessResult(len(gts) - len(missing), len(gt_calls), len(agent_calls), missing=missing)
    except (ComparisonError, TypeError, ValueError, AttributeError, OverflowError, RecursionError) as exc:
        return ProcessResult(0, 0, 0, error=f"comparison failed: {exc}")
