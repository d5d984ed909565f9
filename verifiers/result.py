"""Result check: replay GT and agent calls on fresh environments and compare final
states by hash (SCORING.md A5, A6), with a field-level diff that says why they differ."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from egoeval.tools.canonical import Frozen, normalise, sha256_hex, snapshot_text, thaw
from egoeval.tools.egobench import ScenarioEnv

from .calls import identifier, parameters
from .context import ScoringContext
from .merging import merge_lists
from .profiles import Profile


class ReplayError(Exception):
    """The replay machinery itself failed (a call element that is not an object)."""


def replay(env: ScenarioEnv, calls: list, ctx: ScoringContext, profile: Profile, live: bool = False) -> ScenarioEnv:
    """Execute ``calls`` in order; failing calls are skipped, partial changes stay.

    Parameters are filtered by the tool's signature as the reference scorer does,
    unless ``live`` (strict profile, agent side): then an unexpected argument fails the
    call, as it did when the agent made it.
    """
    for n, call in enumerate(calls, 1):
        if not isinstance(call, dict):
            raise ReplayError(f"call {n} is not an object")
        tool = identifier(call)
        names = ctx.params_of(tool, profile)
        if names is None:
            continue  # no such tool: the reference skips it
        params = parameters(call, profile.accept_arguments_key)
        if isinstance(params, dict) and not live:
            params = {k: v for k, v in params.items() if k in names}
        try:
            env.invoke(tool, merge_lists(params) if profile.merge_lists else params)
        except Exception:  # a failing call (or a value merging cannot add) changes nothing more; the replay goes on
            pass
    return env


def snapshot_for(env: ScenarioEnv, profile: Profile, freeze: bool = False) -> dict:
    """The snapshot that is hashed under ``profile`` (Q11, Q12 applied)."""
    snap = env.snapshot(freeze, profile.hash_round_digits)
    if profile.menus_as_sets and "user_menus" in snap:
        snap["user_menus"] = {u: sorted(thaw(m), key=str) for u, m in thaw(snap["user_menus"]).items()}
    if profile.drop_empty_entries:
        snap = _drop_empty_users(snap)
    return snap


def _drop_empty_users(snap: dict) -> dict:
    per_user = ("user_carts", "user_orders", "user_shopping_lists", "user_menus")
    out: dict = {}
    for k, v in snap.items():
        if k in per_user:
            out[k] = {u: lines for u, lines in thaw(v).items() if thaw(lines)}
        elif k == "restaurants":
            out[k] = {name: _drop_empty_users(store) for name, store in v.items()}
        else:
            out[k] = v
    return out


@dataclass
class FinalState:
    env: ScenarioEnv
    hash: str

    def snapshot(self, profile: Profile) -> dict:
        """Normalised snapshot for diffs; untouched catalogs stay Frozen (cheap)."""
        return normalise(snapshot_for(self.env, profile, freeze=True), profile.hash_round_digits)


@dataclass
class ResultCheck:
    success: bool
    gt_hash: str | None
    agent_hash: str | None
    diff: list[str]
    error: str | None = None


def check_result(gt_calls: list, agent_calls: list, ctx: ScoringContext, profile: Profile) -> ResultCheck:
    """Replay both call lists and compare the final state hashes."""
    try:
        gt_state = final_state(gt_calls, ctx, profile)
        agent_state = final_state(agent_calls, ctx, profile, live=profile.replay_live_semantics)
    except (ReplayError, TypeError, ValueError) as exc:
        return ResultCheck(False, None, None, [], error=f"replay failed: {exc}")
    if gt_state.hash == agent_state.hash:
        return ResultCheck(True, gt_state.hash, agent_state.hash, [])
    diff = state_diff(gt_state.snapshot(profile), agent_state.snapshot(profile))
    return ResultCheck(False, gt_state.hash, agent_state.hash, diff)


_memo: dict[tuple, FinalState] = {}


def final_state(calls: list, ctx: ScoringContext, profile: Profile, live: bool = False) -> FinalState:
    """Replay ``calls`` on a fresh environment and hash the result.

    Replays are deterministic, so results are memoised by the exact call list: the
    ground truth of a task is replayed once however many agents are scored against it,
    and an agent that makes the same calls (an oracle, a null agent) costs nothing.
    Raises ReplayError (a call that is not an object) or TypeError (a state that the
    reference could not serialise either, e.g. mixed-type user keys).
    """
    try:
        key: tuple | None = (ctx.key, profile, live, json.dumps(calls, ensure_ascii=False))
    except (TypeError, ValueError):
        key = None
    hit = _memo.get(key) if key else None
    if hit is None:
        hit = _replay_and_hash(calls, ctx, profile, live)
        if key:
            if len(_memo) >= 8192:
                _memo.clear()
            _memo[key] = hit
    return hit


def _replay_and_hash(calls: list, ctx: ScoringContext, profile: Profile, live: bool) -> FinalState:
    env = ctx.fresh_env()
    env.apply_profile(profile)
    replay(env, calls, ctx, profile, live)
    digits = profile.hash_round_digits
    return FinalState(env, sha256_hex(snapshot_text(snapshot_for(env, profile, freeze=True), digits)))


# --- explaining a difference ------------------------------------------------------------

_LINE_NAME = ("product_name", "dish_name", "ingredient_name")


def state_diff(expected: dict, actual: dict, limit: int = 50) -> list[str]:
    """Readable differences between the expected (GT) and the agent's final state.

    Lines of carts, orders and lists are compared by item name, so the output reads
    "cart of user alice: souda red wine quantity 2, expected 1" rather than list indexes.
    """
    out: list[str] = []
    _diff(expected, actual, [], out)
    if len(out) > limit:
        out = out[:limit] + [f"... and {len(out) - limit} more differences"]
    return out


_SECTION = {
    "user_carts": "cart of user", "user_orders": "order of user", "user_shopping_lists": "shopping list of user",
    "user_menus": "menu of user", "catalog": "catalog entry", "set_meals": "set meal", "ingredients": "ingredient",
    "recipes": "recipe", "restaurants": "restaurant",
}


def _where(path: list) -> str:
    parts: list[str] = []
    i = 0
    while i < len(path):
        p = path[i]
        if p in _SECTION and i + 1 < len(path):
            parts.append(f"{_SECTION[p]} {path[i + 1]}")
            i += 2
        else:
            parts.append(str(p))
            i += 1
    return ", ".join(parts) if parts else "state"


def _keyed(lines: list) -> dict | None:
    """Index a list of line objects by their item name, if it has one."""
    if not all(isinstance(x, dict) for x in lines):
        return None
    for name in _LINE_NAME:
        if all(name in x for x in lines):
            keys = [x[name] for x in lines]
            if len(set(map(repr, keys))) == len(keys):
                return {k: x for k, x in zip(keys, lines)}
    return None


def _diff(exp: Any, act: Any, path: list, out: list[str]) -> None:
    if isinstance(exp, Frozen) or isinstance(act, Frozen):
        if isinstance(exp, Frozen) and isinstance(act, Frozen) and exp.text == act.text:
            return
        exp, act = _plain(exp), _plain(act)
    if exp == act and type(exp) is type(act):
        return
    if isinstance(exp, dict) and isinstance(act, dict):
        for k in exp:
            if k not in act:
                out.append(f"{_where(path)}: missing {k!r}")
            else:
                _diff(exp[k], act[k], path + [k], out)
        for k in act:
            if k not in exp:
                out.append(f"{_where(path)}: unexpected {k!r}")
        return
    if isinstance(exp, list) and isinstance(act, list):
        ke, ka = _keyed(exp), _keyed(act)
        if ke is not None and ka is not None:
            for name, line in ke.items():
                if name not in ka:
                    out.append(f"{_where(path)}: missing {name!r} (expected {_describe(line)})")
                else:
                    for f, v in line.items():
                        if ka[name].get(f) != v or type(ka[name].get(f)) is not type(v):
                            out.append(f"{_where(path)}: {name!r} {f} {ka[name].get(f)!r}, expected {v!r}")
            for name, line in ka.items():
                if name not in ke:
                    out.append(f"{_where(path)}: unexpected {name!r} ({_describe(line)})")
            return
        if sorted(map(repr, exp)) == sorted(map(repr, act)):
            out.append(f"{_where(path)}: same items in another order: {act!r}, expected {exp!r}")
            return
    out.append(f"{_where(path)}: {act!r}, expected {exp!r}")


def _plain(value: Any) -> Any:
    return json.loads(value.text) if isinstance(value, Frozen) else value


def _describe(line: dict) -> str:
    return ", ".join(f"{k} {v!r}" for k, v in line.items() if k not in _LINE_NAME)
