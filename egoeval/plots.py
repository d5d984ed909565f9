"""Figures for reports (matplotlib, drawn off-screen to PNG bytes).

- success by scenario and mode, per model (grouped bars);
- error categories as stacked bars, per model;
- input tokens against joint success (EgoBench Fig. 5 style), one point per model;
- pass@k and pass^k curves over k, per model (runs with several epochs).

PNGs carry no time or version metadata, so the same report gives the same bytes.
"""

from __future__ import annotations

import io
from typing import Any


def _figure(width: float = 6.4, height: float = 3.6):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"font.size": 9, "svg.hashsalt": "egoeval"})
    return plt, plt.figure(figsize=(width, height), dpi=100)


def _png(plt: Any, fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png", metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


def success_by_scenario(report: dict) -> bytes:
    plt, fig = _figure()
    ax = fig.add_subplot()
    groups = sorted({(r["scenario"], r["mode"]) for m in report["models"].values() for r in m["rows"]})
    models = list(report["models"])
    width = 0.8 / max(1, len(models))
    for i, model in enumerate(models):
        rows = {(r["scenario"], r["mode"]): r["Joint"] for r in report["models"][model]["rows"]}
        ax.bar([g + i * width for g in range(len(groups))], [rows.get(g, 0.0) for g in groups], width, label=model)
    ax.set_xticks([g + width * (len(models) - 1) / 2 for g in range(len(groups))])
    ax.set_xticklabels([f"{s}\n{m}" for s, m in groups])
    ax.set_ylabel("joint success (%)")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=8)
    return _png(plt, fig)


def error_categories(report: dict) -> bytes:
    plt, fig = _figure()
    ax = fig.add_subplot()
    models = list(report["models"])
    cats = sorted({c for m in report["models"].values() for c in m["error_categories"] if c != "correct"})
    bottom = [0.0] * len(models)
    for cat in cats:
        values = [report["models"][m]["error_categories"].get(cat, 0) for m in models]
        ax.bar(models, values, bottom=bottom, label=cat)
        bottom = [b + v for b, v in zip(bottom, values)]
    ax.set_ylabel("failed episodes")
    if cats:
        ax.legend(fontsize=8)
    return _png(plt, fig)


def tokens_vs_success(report: dict) -> bytes:
    plt, fig = _figure(5.0, 3.6)
    ax = fig.add_subplot()
    for model, m in report["models"].items():
        x, y = m["efficiency"]["input_tokens"], m["overall"].get("Joint", 0.0)
        ax.scatter([x], [y])
        ax.annotate(model, (x, y), fontsize=8, xytext=(4, 4), textcoords="offset points")
    ax.set_xlabel("input tokens per episode")
    ax.set_ylabel("joint success (%)")
    ax.set_ylim(0, 100)
    return _png(plt, fig)


def pass_curves(report: dict) -> bytes | None:
    with_epochs = {m: v["epochs"] for m, v in report["models"].items() if v["epochs"]}
    if not with_epochs:
        return None
    plt, fig = _figure(5.0, 3.6)
    ax = fig.add_subplot()
    for model, ep in with_epochs.items():
        ks = sorted(int(k) for k in ep["pass@k"])
        ax.plot(ks, [100 * ep["pass@k"][str(k)] for k in ks], marker="o", label=f"{model} pass@k")
        ax.plot(ks, [100 * ep["pass^k"][str(k)] for k in ks], marker="s", linestyle="--", label=f"{model} pass^k")
    ax.set_xlabel("k")
    ax.set_ylabel("%")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=8)
    return _png(plt, fig)


def all_figures(report: dict) -> list[tuple[str, bytes]]:
    figures = [("Joint success by scenario and mode", success_by_scenario(report)),
               ("Error categories of failed episodes", error_categories(report)),
               ("Input tokens against joint success", tokens_vs_success(report))]
    curves = pass_curves(report)
    if curves is not None:
        figures.append(("pass@k and pass^k", curves))
    return figures
