"""Tables people can publish: ``egoeval report LOG_OR_RESULTS... --format md|json|csv|latex``.

Inputs are egoeval logs (or log dirs) and EgoBench results files (or folders of them),
one "model" each (the log's agent; for results files, their folder's name). Every
episode is scored with the same scorer as ``egoeval score``, so the numbers agree, then
grouped by model x suite x scenario x mode with the EgoBench Table 2 columns (Micro,
Tool, Result, Joint; the official aggregation under the ``egobench`` profile), efficiency
(tokens, cost, turns, tool calls, latency), error categories, and over epochs pass@k,
pass^k and avg@k with task-clustered bootstrap intervals. Infrastructure errors are
counted apart and left out of every agent metric. The same inputs give the same bytes.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from egoeval.metrics import file_summary, overall_summary

FORMATS = ("md", "json", "csv", "latex", "html")
METRICS = (("Micro", "micro_acc"), ("Tool", "tool_success_rate"), ("Result", "result_success_rate"),
           ("Joint", "joint_success_rate"))


@dataclass
class Record:
    """One scored episode."""

    model: str
    suite: str
    scenario: str
    file: str
    mode: str
    task: str
    epoch: int
    verdict: Any
    counters: dict = field(default_factory=dict)
    rubric: dict | None = None  # the rubric judge's record, when the run was judged (egoeval judge)
    latencies: list[float] = field(default_factory=list)  # the agent's uncached step latencies, seconds


def _model_of(header: dict, path: Path) -> str:
    config = header.get("config") or {}
    agent = config.get("agent")
    return agent or path.parent.name or path.stem


def collect(paths: list[str], profile: str | None, artifacts: list[dict] | None = None,
            used: dict[str, Any] | None = None, suite: str | None = None,
            include_partial: bool = False) -> tuple[list[Record], dict[str, int]]:
    """Scored episodes of every input, and infrastructure errors per model. Each task is
    scored by its suite under the profile called ``profile`` (None: the suite's default);
    the profiles used are added to ``used`` (suite name -> profile). Artifact-suite
    episodes are judged on their kept files and appended to ``artifacts`` (with their model).
    ``suite`` names the suite of results files; an incomplete results file is left out
    where the profile counts complete files only, unless ``include_partial``."""
    from egoeval.scoring import suite_profile, expand_inputs, results_suite, unscorable
    from egoeval.suites import suite_of
    from egoeval.trajectory import episode_workspace, read_log, read_results_file, results_file_stem

    used = {} if used is None else used
    records: list[Record] = []
    infra: Counter = Counter()
    for path in expand_inputs(paths):
        if path.suffix == ".jsonl":
            from egoeval.verifiers.rubric import read_judgements

            header, episodes = read_log(path)
            model = _model_of(header, path)
            judged = read_judgements(path)
            for ep in episodes:
                if ep.finished and ep.end_reason == "infra_error":
                    infra[model] += 1
                if unscorable(ep):
                    continue
                try:
                    owner = suite_of(ep.task)
                    prof = used.setdefault(owner.name, suite_profile(owner, profile))
                    scored = owner.score_episode(ep.task, ep.as_trajectory(), prof,
                                                 episode_workspace(path.parent, ep.episode))
                except KeyError:
                    continue
                if owner.verdict_kind != "calls":
                    if artifacts is not None:
                        artifacts.append({"model": model, "mode": ep.mode, "episode": ep.episode, **scored})
                    continue
                suite, group = ep.task.split("/")[:2]
                counters = dict(ep.counters)
                if isinstance(ep.corrected_scores, dict):
                    counters["user_scores"] = {k: v for k, v in ep.corrected_scores.items() if isinstance(v, (int, float))}
                mode = f"{ep.mode}+{ep.persona}" if ep.persona else ep.mode  # persona splits show as modes
                for v in scored.verdicts:
                    records.append(Record(model, suite, owner.scenario_of(v.scenario), group, mode, ep.task, ep.epoch,
                                          v, counters, judged.get(ep.episode), ep.step_latencies))
        else:
            if results_file_stem(path) is None:
                continue
            owner, stem = results_suite(path, suite)
            mode = results_file_stem(path)[1]
            prof = used.setdefault(owner.name, suite_profile(owner, profile))
            model = path.parent.name or "results"
            trajectories = read_results_file(path)
            scored = owner.score_results(stem, trajectories, prof)
            if prof.complete_files_only and (scored.invalid or not scored.verdicts) and not include_partial:
                continue
            by_id = {str(t.get(owner.id_member)): t for t in trajectories if isinstance(t, dict)}
            for v in scored.verdicts:
                traj = by_id.get(str(v.task_id), {})
                counters = {k: traj[k] for k in ("input_tokens", "output_tokens", "rounds_count", "tool_calls_count")
                            if isinstance(traj.get(k), (int, float))}
                if isinstance(traj.get("corrected_scores"), dict):
                    counters["user_scores"] = {k: v for k, v in traj["corrected_scores"].items()
                                               if isinstance(v, (int, float))}
                records.append(Record(model, owner.name, owner.scenario_of(stem), stem, mode,
                                      f"{owner.name}/{stem}/{v.task_id}", 1, v, counters))
    return records, dict(infra)


def _summary(records: list[Record], pooled_micro: bool) -> dict:
    files: dict[str, list] = defaultdict(list)
    for r in records:
        files[f"{r.file}:{r.mode}:{r.epoch}"].append(r.verdict)
    return overall_summary({k: file_summary(v) for k, v in sorted(files.items())}, [r.verdict for r in records],
                           pooled_micro)


def _efficiency(records: list[Record]) -> dict:
    def mean(key: str) -> float:
        values = [r.counters[key] for r in records if isinstance(r.counters.get(key), (int, float))]
        return round(sum(values) / len(values), 4) if values else 0.0

    calls, turns = mean("tool_calls_count"), mean("rounds_count")
    out = {"input_tokens": mean("input_tokens"), "output_tokens": mean("output_tokens"), "cost": mean("cost"),
           "turns": turns, "tool_calls": calls, "tool_calls_per_turn": round(calls / turns, 4) if turns else 0.0,
           "latency_s": mean("wall_s")}
    steps = sorted(x for r in records for x in r.latencies)
    if steps:  # the model's answer time per agent step (cache hits left out)
        out["step_latency_s"] = {f"p{q}": round(steps[min(len(steps) - 1, int(q / 100 * len(steps)))], 4)
                                 for q in (50, 90, 99)}
    return out


def _fidelity(records: list[Record]) -> dict:
    """The simulated user's mean self-scores over the episodes that have them."""
    scored = [r.counters["user_scores"] for r in records if r.counters.get("user_scores")]
    keys = sorted({k for s in scored for k in s})
    return {k: round(sum(s.get(k, 0) for s in scored) / len(scored), 4) for k in keys} if scored else {}


def _examples(records: list[Record], per_category: int = 3) -> dict[str, list[str]]:
    out: dict[str, list[str]] = defaultdict(list)
    for r in sorted(records, key=lambda r: (r.task, r.mode, r.epoch)):
        cat = r.verdict.error_category
        if cat and cat != "correct" and not r.verdict.excluded and len(out[cat]) < per_category:
            out[cat].append(f"{r.task} ({r.mode}, epoch {r.epoch})")
    return dict(sorted(out.items()))


def _persona_splits(records: list[Record]) -> dict[str, dict[str, dict]]:
    """Joint success by persona dimension (ECom-Bench's emotion, patience and style grid;
    VitaBench's behaviour types), over the episodes whose user had that persona."""
    from egoeval.tasks.personas import personas

    table = {p["name"]: p for p in personas()}
    groups: dict[str, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        persona = table.get(r.mode.split("+", 1)[1]) if "+" in r.mode else None
        if persona is None or r.verdict.excluded:
            continue
        for dim in ("emotion", "patience", "style"):
            if dim in persona:
                groups[dim][persona[dim]].append(bool(r.verdict.joint_success))
        if persona.get("source") == "VitaBench":
            groups["behaviour"][persona["name"]].append(bool(r.verdict.joint_success))
    return {dim: {value: {"episodes": len(v), "Joint": round(100 * sum(v) / len(v), 2)}
                  for value, v in sorted(values.items())} for dim, values in sorted(groups.items())}


def _rubric_summary(records: list[Record]) -> dict:
    """The rubric judge over the judged episodes (empty when none was judged)."""
    from egoeval.verifiers.rubric import summarise

    judged = [r.rubric for r in records if r.rubric]
    return summarise(judged) if judged else {}


def _artifact_summary(verdicts: list[dict]) -> dict:
    passed = sum(bool(v.get("joint_success")) for v in verdicts)
    return {"tasks": len(verdicts), "passed": passed, "pass_rate": round(100 * passed / len(verdicts), 2),
            "self_verification": dict(sorted(Counter(v.get("self_verification") for v in verdicts).items())),
            "failure_categories": dict(sorted(Counter(v.get("error_category") for v in verdicts
                                                      if not v.get("joint_success")).items()))}


def build(paths: list[str], profile: str | None = None, suite: str | None = None,
          include_partial: bool = False) -> dict:
    """The report as plain data (what every format prints); each suite scores under the
    profile called ``profile`` (None: its default); ``suite`` and ``include_partial`` as
    for :func:`collect`."""
    from egoeval.epochs import suite_metrics

    artifacts: list[dict] = []
    used: dict[str, Any] = {}
    records, infra = collect(paths, profile, artifacts, used, suite, include_partial)
    pooled = bool(used) and all(p.pooled_micro for p in used.values())
    models = sorted({r.model for r in records} | set(infra) | {a["model"] for a in artifacts})
    names = sorted({p.name for p in used.values()})
    report: dict[str, Any] = {"profile": ", ".join(names) or (profile or "default"), "models": {}}
    for model in models:
        mine = [r for r in records if r.model == model]
        groups: dict[tuple, list[Record]] = defaultdict(list)
        for r in mine:
            groups[(r.suite, r.scenario, r.mode)].append(r)
        rows = [{"suite": s, "scenario": sc, "mode": m, **_row(_summary(rs, pooled))}
                for (s, sc, m), rs in sorted(groups.items())]
        overall = _summary(mine, pooled) if mine else {}
        attempts: dict[str, list[bool]] = defaultdict(list)
        for r in sorted(mine, key=lambda r: (r.task, r.mode, r.epoch)):
            if not r.verdict.excluded:  # as in every other metric
                attempts[f"{r.task}:{r.mode}"].append(bool(r.verdict.joint_success))
        epochs = suite_metrics(attempts) if attempts and min(len(v) for v in attempts.values()) > 1 else {}
        intervals = _intervals(mine)
        report["models"][model] = {
            "rows": rows, "overall": _row(overall) if overall else {},
            "joint_ci95": intervals.get("Joint", [0.0, 0.0]), "ci95": intervals,
            "error_categories": overall.get("error_category_counts", {}) if overall else {},
            "error_rates": {k: (round(v, 4) if isinstance(v, float) else v)
                            for k, v in overall.get("error_rates", {}).items()} if overall else {},
            "error_examples": _examples(mine), "user_fidelity": _fidelity(mine), "personas": _persona_splits(mine),
            "rubric": _rubric_summary(mine),
            "error_categories_by_scenario": {
                sc: dict(sorted(Counter(r.verdict.error_category for r in mine if r.scenario == sc
                                        and r.verdict.error_category and not r.verdict.excluded).items()))
                for sc in sorted({r.scenario for r in mine})},
            "artifacts": _artifact_summary([a for a in artifacts if a["model"] == model])
            if any(a["model"] == model for a in artifacts) else {},
            "efficiency": _efficiency(mine), "infra_errors": infra.get(model, 0),
            "epochs": {name: {str(k): round(v, 4) for k, v in values.items()} for name, values in epochs.items()},
        }
    return report


def _intervals(records: list[Record]) -> dict[str, list[float]]:
    """95 % bootstrap intervals (task x mode clusters resampled, their epochs together, as
    for ``joint_ci95``) for Tool, Result, Joint, pooled Micro and, over the tasks that ask
    for a value, Answers."""
    from egoeval.epochs import ratio_ci

    by_task: dict[str, list[Any]] = defaultdict(list)
    for r in records:
        if not r.verdict.excluded:
            by_task[f"{r.task}:{r.mode}"].append(r.verdict)
    if not by_task:
        return {}
    parts = {"Tool": lambda vs: (sum(v.tool_success for v in vs), len(vs)),
             "Result": lambda vs: (sum(v.result_success for v in vs), len(vs)),
             "Joint": lambda vs: (sum(v.joint_success for v in vs), len(vs)),
             "Micro (pooled)": lambda vs: (sum(v.matched_calls for v in vs), sum(v.gt_calls for v in vs))}
    out = {name: [round(x, 4) for x in ratio_ci({t: part(vs) for t, vs in by_task.items()})]
           for name, part in parts.items()}
    asked = {t: [v for v in vs if v.answers and v.answers.get("expected")] for t, vs in by_task.items()}
    asked = {t: (sum(bool(v.answers["passed"]) for v in vs), len(vs)) for t, vs in asked.items() if vs}
    if asked:
        out["Answers"] = [round(x, 4) for x in ratio_ci(asked)]
    return out


def _row(summary: dict) -> dict:
    """One table row. ``Answers`` (communicated answers, over the tasks that ask for a
    reported value) stands beside the Table 2 columns, never folded into them."""
    asked = summary.get("answers_tasks", 0)
    return {"tasks": summary.get("tasks", 0), **{name: round(100 * summary.get(key, 0.0), 2) for name, key in METRICS},
            "joint_success": summary.get("joint_success", 0),
            "Answers": round(100 * summary.get("answers_rate", 0.0), 2) if asked else None, "answers_tasks": asked}


def render(report: dict, fmt: str) -> str:
    if fmt == "html":
        return _html(report)
    if fmt == "json":
        return json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    table = [(model, row) for model, m in report["models"].items()
             for row in m["rows"] + ([{"suite": "all", "scenario": "all", "mode": "all", **m["overall"]}]
                                     if m["overall"] else [])]
    head = ["model", "suite", "scenario", "mode", "tasks", *[n for n, _ in METRICS], "Answers"]
    cells = [[model, r["suite"], r["scenario"], r["mode"], str(r["tasks"]), *[f"{r[n]:.2f}" for n, _ in METRICS],
              "-" if r.get("Answers") is None else f"{r['Answers']:.2f}"] for model, r in table]
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(head)
        writer.writerows(cells)
        return out.getvalue()
    if fmt == "latex":
        lines = [r"\begin{tabular}{llll" + "r" * (len(head) - 4) + "}", r"\toprule",
                 " & ".join(head) + r" \\", r"\midrule"]
        lines += [" & ".join(c.replace("_", r"\_").replace("&", r"\&") for c in row) + r" \\" for row in cells]
        return "\n".join(lines + [r"\bottomrule", r"\end{tabular}"]) + "\n"
    lines = [f"Profile: {report['profile']}. Answers: communicated-answer checks passed, % of the tasks that ask "
             f"for a reported value (apart from Joint).", "", "| " + " | ".join(head) + " |",
             "|" + "|".join("---" if i < 4 else "---:" for i in range(len(head))) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in cells]
    for model, m in report["models"].items():
        eff = m["efficiency"]
        if not m["rows"]:
            lines += ["", f"**{model}**: infrastructure errors: {m['infra_errors']}"]
        else:
            lines += ["", f"**{model}**: 95% CI " + ", ".join(f"{k} {100 * lo:.1f}–{100 * hi:.1f}"
                                                              for k, (lo, hi) in (m.get("ci95") or {}).items()) + " %; "
                  f"{eff['input_tokens']:.0f} input / {eff['output_tokens']:.0f} output tokens, {eff['turns']:.2f} turns, "
                      f"{eff['tool_calls']:.2f} tool calls per episode; infrastructure errors: {m['infra_errors']}"]
            if eff.get("step_latency_s"):
                lines.append("agent step latency: " + ", ".join(f"{k} {v:.2f} s" for k, v in eff["step_latency_s"].items()))
        if m["error_categories"]:
            lines.append("error categories: " + ", ".join(f"{k} {v}" for k, v in m["error_categories"].items()))
        rates = m.get("error_rates") or {}
        if rates:
            d = rates.get("denominators", {})
            lines.append(f"error cascade: syntax {100 * rates['syntax_error_rate']:.1f}% of {d.get('total')}, "
                         f"multimodal {100 * rates['multimodal_error_rate']:.1f}% of {d.get('syntax_correct')}, "
                         f"logic {100 * rates['logic_reasoning_error_rate']:.1f}% of {d.get('no_hallucination')}, "
                         f"memory {100 * rates['memory_common_sense_error_rate']:.1f}% of {d.get('no_logic_error')}, "
                         f"over-operation {100 * rates['over_operation_error_rate']:.1f}% of {d.get('tool_correct')}")
        for scenario, counts in (m.get("error_categories_by_scenario") or {}).items():
            failed = {k: v for k, v in counts.items() if k != "correct"}
            if failed:
                lines.append(f"{scenario}: " + ", ".join(f"{k} {v}" for k, v in failed.items()))
        for cat, examples in (m.get("error_examples") or {}).items():
            lines.append(f"e.g. {cat}: " + "; ".join(examples))
        if m.get("rubric"):
            r = m["rubric"]
            lines.append(f"rubric judge ({', '.join(r['judge_models'])}): {r['passed']}/{r['episodes']} episodes met "
                         f"every item ({r['pass_rate']:.1f}%), mean fraction met {r['mean_fraction']:.2f}"
                         + (f"; {r['errors']} not judged (judge errors)" if r["errors"] else ""))
        for dim, values in (m.get("personas") or {}).items():
            lines.append(f"joint by persona {dim}: " + ", ".join(f"{k} {v['Joint']:.1f}% ({v['episodes']})"
                                                                 for k, v in values.items()))
        if m.get("user_fidelity"):
            lines.append("simulated-user fidelity: " + ", ".join(f"{k} {v:.2f}" for k, v in m["user_fidelity"].items()))
        if m.get("artifacts"):
            a = m["artifacts"]
            lines.append(f"artifact tasks: {a['passed']}/{a['tasks']} passed; self-verification "
                         + ", ".join(f"{k} {v}" for k, v in a["self_verification"].items())
                         + ("; failures " + ", ".join(f"{k} {v}" for k, v in a["failure_categories"].items())
                            if a["failure_categories"] else ""))
        if m["epochs"]:
            for name, values in m["epochs"].items():
                lines.append(f"{name}: " + ", ".join(f"k={k} {100 * v:.1f}%" for k, v in values.items()))
    return "\n".join(lines) + "\n"


def _html(report: dict) -> str:
    """One self-contained page: the tables and the figures (embedded PNGs)."""
    import base64
    import html
    import re

    from egoeval.plots import all_figures

    rows = render(report, "csv").strip().split("\n")
    head, body = rows[0].split(","), [r.split(",") for r in rows[1:]]
    table = "<table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) + "</tr>" + "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in body) + "</table>"
    bold = re.compile(r"[*][*](.+?)[*][*]")  # the Markdown notes' model names
    notes = "".join("<p>" + bold.sub(r"<b>\1</b>", html.escape(line)) + "</p>"
                    for line in render(report, "md").split("\n\n", 1)[1:][0].split("\n")
                    if line and not line.startswith("|")) if len(report["models"]) else ""
    figures = "".join(f"<figure><img alt='{html.escape(t)}' src='data:image/png;base64,"
                      f"{base64.b64encode(png).decode()}'><figcaption>{html.escape(t)}</figcaption></figure>"
                      for t, png in all_figures(report)) if report["models"] else ""
    style = ("body{font-family:sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse}"
             "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}td:nth-child(-n+4),th:nth-child(-n+4)"
             "{text-align:left}figure{display:inline-block;margin:1em}")
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>egoeval report</title><style>{style}</style>"
            f"</head><body><h1>egoeval report</h1><p>Profile: {html.escape(report['profile'])}</p>{table}{notes}"
            f"{figures}</body></html>\n")
