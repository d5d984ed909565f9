"""Scoring profiles.

``egobench`` reproduces the official evaluator of the pinned EgoBench fork, quirks
included (SCORING.md Part A and the quirk list of Part C). ``strict`` is egoeval's own
profile: each switch below fixes one quirk, named by its Part C number. The two are
never mixed silently: every verdict records the profile that produced it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Profile:
    name: str
    #: Q1 pair trajectories with GT tasks by task_id instead of by position
    pair_by_task_id: bool = False
    #: Q2 replay with live semantics: an argument the tool does not take fails the call
    replay_live_semantics: bool = False
    #: Q3 read call arguments from ``arguments`` when ``parameters`` is absent
    accept_arguments_key: bool = False
    #: Q4 maximum bipartite matching of calls (and of list elements) instead of first-fit
    maximum_matching: bool = False
    #: Q5 names must denote the same catalog entry (or be equal, lower-cased and trimmed)
    strict_names: bool = False
    #: Q6 compare ``category`` case-insensitively (the environment lower-cases it)
    case_insensitive_category: bool = False
    #: Q8 a call that cannot be compared is an unmatched call, not a (0, 0, 0) task
    comparison_error_unmatched: bool = False
    #: Q9 order read tools create a store for an unknown restaurant name
    reads_create_stores: bool = True
    #: Q10 round floats to this many decimals before hashing (None: keep float noise)
    hash_round_digits: int | None = None
    #: Q11 drop users whose cart/order/list/menu is empty before hashing
    drop_empty_entries: bool = False
    #: Q12 compare kitchen menus as sets (sorted before hashing)
    menus_as_sets: bool = False
    #: Q13 drop GT calls to tools that do not exist
    drop_missing_tool_gt_calls: bool = False
    #: Q14 exclude tasks whose GT user_id contradicts the instruction's "User ID"
    exclude_user_id_mismatch: bool = False
    #: Q15 only documented tools are callable (no internal helpers)
    schema_tools_only: bool = False
    #: Q16 fold the ``unknown`` error category into ``over_operation_error``
    fold_unknown: bool = False
    #: Q17 MicroAcc across files as the pooled call ratio (not a task-weighted mean)
    pooled_micro: bool = False
    #: Q18 the order restaurant-name check of the error analysis ignores case
    case_insensitive_restaurant: bool = False
    #: newest evaluator: pair by ``scenario_id`` (a later duplicate replaces an earlier one)
    pair_by_scenario_id: bool = False
    #: newest evaluator: merge and sort lists of objects before matching and replay
    merge_lists: bool = False
    #: newest evaluator: inside lists, names compare trimmed and lower-cased (no catalog test)
    exact_lists: bool = False
    #: newest evaluator: a GT call without a tool name is counted and never matched
    #: (the first release's evaluator fails the whole comparison)
    unnamed_gt_calls_unmatched: bool = False
    #: newest evaluator: the 2026 error analysis (docs/egobench2/scoring.md Part E)
    newest_error_analysis: bool = False
    #: newest evaluator: overall figures average complete results files only
    complete_files_only: bool = False

    def deviations(self) -> list[str]:
        """Names of the switches that differ from the faithful profile."""
        base = EGOBENCH
        return [f.name for f in fields(self) if f.name != "name" and getattr(self, f.name) != getattr(base, f.name)]


EGOBENCH = Profile("egobench")
STRICT = Profile(
    "strict",
    pair_by_task_id=True, replay_live_semantics=True, accept_arguments_key=True, maximum_matching=True,
    strict_names=True, case_insensitive_category=True, comparison_error_unmatched=True,
    reads_create_stores=False, hash_round_digits=10, drop_empty_entries=True, menus_as_sets=True,
    drop_missing_tool_gt_calls=True, exclude_user_id_mismatch=True, schema_tools_only=True,
    fold_unknown=True, pooled_micro=True, case_insensitive_restaurant=True,
)
#: the newest official evaluator (docs/egobench2/scoring.md), for the 2026 release
NEWEST = Profile(
    "official-newest", pair_by_scenario_id=True, reads_create_stores=False, merge_lists=True, exact_lists=True,
    unnamed_gt_calls_unmatched=True, newest_error_analysis=True, complete_files_only=True,
)
STRICT_NEWEST = Profile(
    "strict", pair_by_scenario_id=True, merge_lists=True, exact_lists=True, unnamed_gt_calls_unmatched=True,
    newest_error_analysis=True, complete_files_only=True, replay_live_semantics=True, accept_arguments_key=True, maximum_matching=True,
    strict_names=True, case_insensitive_category=True, comparison_error_unmatched=True, reads_create_stores=False,
    hash_round_digits=10, drop_empty_entries=True, menus_as_sets=True, drop_missing_tool_gt_calls=True,
    exclude_user_id_mismatch=True, schema_tools_only=True, fold_unknown=True, pooled_micro=True,
    case_insensitive_restaurant=True,
)
