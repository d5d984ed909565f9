"""How far a rubric judge agrees with human labels: raw agreement and Cohen's kappa.

Both sides are JSONL files with one record per episode: ``{"episode": ID, "items": ...}``
where ``items`` is either the rubric judge's list (``{"id", "met"}`` objects, as
``egoeval judge`` writes them) or an object ``{item id: true|false}`` (quick to write by
hand). Only the (episode, item) pairs labelled on both sides are compared.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any


def cohen_kappa(a: list[bool], b: list[bool]) -> float | None:
    """Cohen's kappa of two raters' binary labels; None where it is undefined (both raters
    gave one and the same label throughout, so chance agreement is 1)."""
    if len(a) != len(b):
        raise ValueError("the two raters labelled different numbers of items")
    n = len(a)
    if not n:
        return None
    observed = sum(x == y for x, y in zip(a, b)) / n
    pa, pb = sum(a) / n, sum(b) / n
    chance = pa * pb + (1 - pa) * (1 - pb)
    if chance == 1:
        return None
    return (observed - chance) / (1 - chance)


def _labels(record: dict) -> dict[str, bool]:
    items = record.get("items")
    if isinstance(items, dict):
        return {str(k): bool(v) for k, v in items.items() if isinstance(v, bool)}
    if isinstance(items, list):
        return {str(i["id"]): bool(i["met"]) for i in items if isinstance(i, dict) and "id" in i
                and isinstance(i.get("met"), bool)}
    return {}


def read_labels(path: str | Path) -> dict[str, dict[str, bool]]:
    """episode -> item id -> label, from a JSONL file (a record with an error or without
    labels contributes nothing). Raises ValueError naming a line that is not JSON."""
    out: dict[str, dict[str, bool]] = {}
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            raise ValueError(f"{path}: line {n} is not JSON") from None
        if isinstance(record, dict) and record.get("episode") is not None and not record.get("error"):
            if str(record["episode"]) in out:
                raise ValueError(f"{path}: line {n}: episode {record['episode']!r} is labelled twice")
            out[str(record["episode"])] = _labels(record)
    return out


def agreement(judge: dict[str, dict[str, bool]], human: dict[str, dict[str, bool]]) -> dict[str, Any]:
    """Agreement, kappa and the confusion counts overall and per item id."""
    pairs: list[tuple[str, bool, bool]] = [(item, j, human[ep][item]) for ep, labels in sorted(judge.items())
                                           if ep in human for item, j in sorted(labels.items()) if item in human[ep]]

    def summary(ps: list[tuple[str, bool, bool]]) -> dict[str, Any]:
        a, b = [p[1] for p in ps], [p[2] for p in ps]
        kappa = cohen_kappa(a, b)
        return {"pairs": len(ps), "agreement": round(sum(x == y for x, y in zip(a, b)) / len(ps), 4) if ps else None,
                "kappa": None if kappa is None else round(kappa, 4),
                "judge_met_human_met": sum(x and y for x, y in zip(a, b)),
                "judge_met_human_unmet": sum(x and not y for x, y in zip(a, b)),
                "judge_unmet_human_met": sum(y and not x for x, y in zip(a, b)),
                "judge_unmet_human_unmet": sum(not x and not y for x, y in zip(a, b))}

    by_item: dict[str, list] = defaultdict(list)
    for p in pairs:
        by_item[p[0]].append(p)
    return {"episodes": len({ep for ep in judge if ep in human}), **summary(pairs),
            "per_item": {item: summary(ps) for item, ps in sorted(by_item.items())}}
