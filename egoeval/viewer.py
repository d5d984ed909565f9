"""``egoeval view LOG_DIR``: a static HTML viewer to see why an episode failed.

It writes a folder that works straight from the file system (no server, no network):
``index.html`` lists every episode, with filters (model, scenario, mode, success,
communicated answers, error category), a search box and pages of 200 rows, from a JSON
index embedded in the page, so 10,000 episodes open in well under a second. Each
episode has its own page: the frames the agent saw (re-sampled from the video when it
is on this machine, else their timestamps), the dialogue (with its speech, when the user
or agent spoke), every tool call with its result, the communicated answers, the rubric
judge's items when the run was judged, the ground-truth calls marked matched or
missing, the final-state diff and the error category.
``--serve`` serves the folder on 127.0.0.1 only.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

PAGE_STYLE = (
    "body{font-family:sans-serif;margin:1.5em;max-width:1200px}table{border-collapse:collapse;width:100%}"
    "td,th{border-bottom:1px solid #ddd;padding:3px 6px;text-align:left;font-size:14px}"
    ".ok{color:#0a7d28}.fail{color:#b3261e}.missing{background:#fde7e4}.matched{background:#e6f4ea}"
    ".msg{margin:.4em 0;padding:.4em .6em;border-radius:6px}.user{background:#eef3fd}.agent{background:#f4f4f4}"
    "pre{white-space:pre-wrap;font-size:12px;margin:0}.call{border-left:3px solid #999;margin:.5em 0;padding-left:.6em}"
    "select,input{margin-right:.6em}"
)

INDEX_SCRIPT = """
const DATA = JSON.parse(document.getElementById('episodes').textContent);
const PAGE = 200;
let page = 0;
function options(id, key) {
  const sel = document.getElementById(id);
  [...new Set(DATA.map(e => e[key]))].filter(v => v !== '').sort().forEach(v => {
    const o = document.createElement('option'); o.value = v; o.textContent = v; sel.appendChild(o);
  });
  sel.addEventListener('change', () => { page = 0; draw(); });
}
function filtered() {
  const f = k => document.getElementById(k).value;
  const q = document.getElementById('search').value.toLowerCase();
  return DATA.filter(e => (!f('model') || e.model === f('model')) && (!f('scenario') || e.scenario === f('scenario'))
    && (!f('mode') || e.mode === f('mode')) && (!f('category') || e.category === f('category'))
    && (!f('answers') || e.answers === f('answers'))
    && (!f('outcome') || (f('outcome') === 'success') === e.joint)
    && (!q || e.task.toLowerCase().includes(q) || e.text.includes(q)));
}
function draw() {
  const rows = filtered();
  const body = document.getElementById('rows');
  body.textContent = '';
  rows.slice(page * PAGE, (page + 1) * PAGE).forEach(e => {
    const tr = document.createElement('tr');
    tr.className = 'episode';
    const cells = [e.model, e.task, e.scenario, e.mode, e.epoch, e.joint ? 'success' : 'failure', e.answers, e.category,
                   e.reason];
    cells.forEach((c, i) => {
      const td = document.createElement('td');
      if (i === 1) { const a = document.createElement('a'); a.href = e.page; a.textContent = c; td.appendChild(a); }
      else { td.textContent = c; }
      if (i === 5) td.className = e.joint ? 'ok' : 'fail';
      tr.appendChild(td);
    });
    body.appendChild(tr);
  });
  document.getElementById('count').textContent = rows.length + ' episodes' +
    (rows.length > PAGE ? ' (page ' + (page + 1) + ' of ' + Math.ceil(rows.length / PAGE) + ')' : '');
}
['model:model', 'scenario:scenario', 'mode:mode', 'category:category', 'answers:answers'].forEach(
  p => options(...p.split(':')));
document.getElementById('outcome').addEventListener('change', () => { page = 0; draw(); });
document.getElementById('search').addEventListener('input', () => { page = 0; draw(); });
document.getElementById('next').addEventListener('click', () => { if ((page + 1) * PAGE < filtered().length) { page++; draw(); } });
document.getElementById('prev').addEventListener('click', () => { if (page > 0) { page--; draw(); } });
draw();
"""


def _e(value: Any) -> str:
    return html.escape(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False))


def _episodes(log: Path) -> tuple[dict, list[dict]]:
    """Episodes of a log with their events, verdict and end (the latest attempt of each)."""
    from egoeval.trajectory import iter_events

    header: dict = {}
    episodes: dict[str, dict] = {}
    for ev in iter_events(log):
        if ev.get("event") == "header":
            header = header or ev
            continue
        eid = ev.get("episode")
        if ev.get("event") == "episode_start":
            episodes.pop(eid, None)
            episodes[eid] = {"start": ev, "events": [], "verdict": None, "end": None}
        elif eid in episodes:
            ep = episodes[eid]
            ep["events"].append(ev)
            if ev.get("event") == "verdict":
                ep["verdict"] = ev
            elif ev.get("event") == "episode_end":
                ep["end"] = ev
    return header, [e for e in episodes.values() if e["end"] is not None]


def _frames_html(obs: dict | None, task_id: str, folder: Path, name: str) -> str:
    if not obs:
        return "<p>No observation recorded.</p>"
    if obs.get("kind") == "none":
        return f"<p>{_e(obs.get('reason', 'no video'))}</p>"
    manifest = obs.get("manifest") or {}
    stamps = ", ".join(f"{t:.2f} s" for t in manifest.get("timestamps", []))
    picture = ""
    try:
        from egoeval.media.contact import contact_sheet
        from egoeval.media.encode import encode_image
        from egoeval.media.frames import sample_frames
        from egoeval.suites import get_task
        from egoeval.videos import resolve_video

        video = resolve_video(get_task(task_id))
        if manifest.get("indices"):
            frames = sample_frames(video, indices=manifest["indices"], max_side=240, cache=True)
            (folder / f"{name}-frames.jpg").write_bytes(encode_image(contact_sheet(frames.frames, cell_width=240)))
            picture = f"<img class='frames' alt='frames the agent saw' src='{name}-frames.jpg'>"
    except Exception:  # noqa: BLE001 - the video is not on this machine: timestamps only
        picture = "<p>(the video is not available here; frames not shown)</p>"
    return f"<p>{_e(obs.get('video'))}: {len(manifest.get('indices', []))} frames at {stamps}</p>{picture}"


def _gt_html(task_id: str, verdict: dict | None) -> str:
    try:
        from egoeval.suites import get_task

        gt = get_task(task_id).ground_truth
    except KeyError:
        return ""
    missing = set((verdict or {}).get("missing_gt_calls") or [])
    rows = "".join(f"<tr class='{'missing' if i in missing else 'matched'}'><td>{i + 1}</td><td>"
                   f"{'missing' if i in missing else 'matched'}</td><td><pre>{_e(c)}</pre></td></tr>"
                   for i, c in enumerate(gt))
    v = verdict or {}
    extra = max(0, (v.get("agent_calls") or 0) - (v.get("matched_calls") or 0))
    counts = (f"<p class='counts'>agent calls {v.get('agent_calls', 0)}, matched {v.get('matched_calls', 0)} of "
              f"{v.get('gt_calls', len(gt))} ground-truth calls, <span class='{'fail' if extra else 'ok'}'>extra "
              f"{extra}</span></p>") if verdict else ""
    return f"<h2>Ground truth</h2>{counts}<table class='gt'>{rows}</table>"


def _artifact_html(ep: dict, verdict: dict, workspace: Path, folder: Path, name: str) -> str:
    """The criteria with their evidence, and the rendered pages of the file the agent made."""
    import shutil

    rows = "".join(f"<tr class='{'matched' if c['passed'] else 'missing'}'><td>{_e(c['id'])}</td><td>"
                   f"{'pass' if c['passed'] else 'FAIL'}</td><td>{_e(c['evidence'])}</td></tr>"
                   for c in verdict.get("criteria", []))
    parts = [f"<h2>The file: {_e(verdict.get('file'))}</h2><p>self-verification: "
             f"{_e(verdict.get('self_verification'))}</p><table class='criteria'>{rows}</table>"]
    target = workspace / str(verdict.get("file", ""))
    if target.is_file():
        try:
            from egoeval.renderers.render import render

            for n, page in enumerate(render(target, dpi=48).pages, 1):
                image = f"{name}-page{n}.png"
                shutil.copyfile(page, folder / image)
                parts.append(f"<img class='artifact' alt='page {n}' src='{image}'>")
        except Exception as exc:  # noqa: BLE001 - a file that cannot be rendered is shown as such
            parts.append(f"<p>could not render the file: {_e(str(exc))}</p>")
    else:
        parts.append("<p>(the file is not in the run's workspace)</p>")
    return "".join(parts)


def _audio_html(audio: Any, log_dir: Path | None, folder: Path, name: str) -> str:
    """A player for a spoken message (the file copied beside the page) and what became of it."""
    import shutil

    if not isinstance(audio, dict):
        return ""
    parts = []
    source = (log_dir / str(audio.get("file"))).resolve() if log_dir is not None and audio.get("file") else None
    if source is not None and source.is_relative_to(log_dir.resolve()) and source.is_file():  # never outside the run
        copy = f"{name}-{source.name}"
        shutil.copyfile(source, folder / copy)
        parts.append(f"<audio controls preload='none' src='{_e(copy)}'></audio>")
    if audio.get("transcribed_by"):
        parts.append(f"<small>heard as transcribed by {_e(audio['transcribed_by'])}</small>")
    if audio.get("error"):
        parts.append(f"<small class='fail'>{_e(audio['error'])}</small>")
    return "<br>" + " ".join(parts) if parts else ""


def _answers_state(verdict: dict) -> str:
    """'stated' / 'missing' for an episode whose task asks for a value, else ''."""
    answers = verdict.get("answers")
    if not isinstance(answers, dict) or not answers.get("expected"):
        return ""
    return "stated" if answers.get("passed") else "missing"


def _answers_html(answers: Any) -> str:
    if not isinstance(answers, dict) or not answers.get("expected"):
        return ""
    missing = "; ".join(f"{m.get('value')} ({m.get('label')})" for m in answers.get("missing") or [])
    return (f"<p id='answers' class='{'ok' if answers.get('passed') else 'fail'}'>communicated answers: "
            f"{answers.get('stated')}/{answers.get('expected')} stated{'; missing ' + _e(missing) if missing else ''}"
            f"</p>")


def _rubric_html(record: Any) -> str:
    """The rubric judge's items for this episode, met or not, with their history."""
    if not isinstance(record, dict):
        return ""
    if record.get("error"):
        return f"<h2>Rubric judge</h2><p class='fail'>{_e(record['error'])}</p>"
    items = [i for i in record.get("items") or [] if isinstance(i, dict)] if isinstance(record.get("items"), list) else []

    def history(item: dict) -> str:
        steps = item.get("history") if isinstance(item.get("history"), list) else []
        return ", ".join(f"window {h.get('window')}: {h.get('status')}" for h in steps if isinstance(h, dict))

    rows = "".join(f"<tr class='{'matched' if i.get('met') is True else 'missing'}'><td>{_e(i.get('id'))}</td>"
                   f"<td>{'met' if i.get('met') is True else 'unmet'}</td><td>{_e(i.get('text'))}</td>"
                   f"<td>{_e(history(i))}</td></tr>" for i in items)
    return (f"<h2>Rubric judge</h2><p id='rubric'>{_e(record.get('judge_model'))}, windows of {_e(record.get('w'))} "
            f"turns overlapping by {_e(record.get('delta'))}: {_e(record.get('met'))}/{_e(record.get('total'))} met"
            f"</p><table class='gt'>{rows}</table>")


def _episode_page(ep: dict, folder: Path, name: str, workspace: Path | None = None,
                  log_dir: Path | None = None, rubric: dict | None = None) -> str:
    start, end, verdict = ep["start"], ep["end"], ep["verdict"] or {}
    task = start["task"]
    obs = next((e for e in ep["events"] if e.get("event") == "observation"), None)
    parts = [f"<p><a href='../index.html'>all episodes</a></p><h1>{_e(task)} (epoch {start.get('epoch', 1)})</h1>",
             f"<p class='{'ok' if verdict.get('joint_success') else 'fail'}' id='outcome'>"
             f"{'success' if verdict.get('joint_success') else 'failure'}; error category "
             f"{_e(verdict.get('error_category'))}; ended by {_e(end.get('reason'))}"
             f"{(': ' + _e(end.get('error'))) if end.get('error') else ''}</p>", _answers_html(verdict.get("answers")),
             "<h2>What the agent saw</h2>", _frames_html(obs, task, folder, name), "<h2>Dialogue and tool calls</h2>"]
    for ev in ep["events"]:
        if ev.get("event") == "message":
            parts.append(f"<div class='msg {_e(ev.get('role'))}'><b>{_e(ev.get('role'))}</b> "
                         f"(turn {ev.get('turn')}): {_e(ev.get('content'))}"
                         f"{_audio_html(ev.get('audio'), log_dir, folder, name)}</div>")
        elif ev.get("event") == "tool_calls":
            for call, result in zip(ev.get("calls") or [], ev.get("results") or [{}] * len(ev.get("calls") or [])):
                content = result.get("content") if isinstance(result, dict) else result
                parts.append(f"<div class='call'><pre>{_e(call)}</pre><pre>&rarr; {_e(content)}</pre></div>")
    if task.startswith("artifacts/") and workspace is not None:
        parts.append(_artifact_html(ep, verdict, workspace, folder, name))
    parts.append(_rubric_html(rubric))
    parts.append(_gt_html(task, verdict))
    diff = verdict.get("diff") or []
    parts.append("<h2>Final state against the ground truth</h2>" + (
        "<ul class='diff'>" + "".join(f"<li>{_e(d)}</li>" for d in diff) + "</ul>" if diff else
        "<p class='diff'>No difference.</p>"))
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{_e(task)}</title>"
            f"<style>{PAGE_STYLE}</style></head><body>{''.join(parts)}</body></html>\n")


def build_viewer(logs: list[str | Path], out: str | Path) -> Path:
    """Write the viewer for ``logs`` (files or log dirs) into ``out``; returns index.html."""
    from egoeval.players import log_file
    from egoeval.trajectory import episode_workspace, safe_name
    from egoeval.verifiers.rubric import read_judgements

    out = Path(out)
    (out / "episodes").mkdir(parents=True, exist_ok=True)
    index: list[dict] = []
    names: set[str] = set()
    for log in map(log_file, logs):
        header, episodes = _episodes(log)
        model = ((header.get("config") or {}).get("agent")) or log.parent.name
        judged = read_judgements(log)
        for ep in episodes:
            start, verdict = ep["start"], ep["verdict"] or {}
            name = safe_name(f"{model}-{start['episode']}")
            if name in names:  # two logs of one model: keep both pages
                name = f"{name}-{sum(n.startswith(name) for n in names) + 1}"
            names.add(name)
            workspace = episode_workspace(log.parent, start["episode"])
            (out / "episodes" / f"{name}.html").write_text(
                _episode_page(ep, out / "episodes", name, workspace, log.parent, judged.get(start["episode"])),
                encoding="utf-8")
            text = " ".join(str(e.get("content", "")) for e in ep["events"] if e.get("event") == "message").lower()
            task = start["task"]
            index.append({"model": model, "task": task, "scenario": task.split("/")[1] if "/" in task else "",
                          "mode": start.get("mode", ""), "epoch": start.get("epoch", 1),
                          "joint": bool(verdict.get("joint_success")), "answers": _answers_state(verdict),
                          "category": verdict.get("error_category") or ("infra_error" if not verdict else ""),
                          "reason": ep["end"].get("reason") or "", "page": f"episodes/{name}.html",
                          "text": text[:2000]})
    select = lambda i, label: f"<label>{label} <select id='{i}'><option value=''>all</option></select></label>"  # noqa: E731
    page = (f"<!doctype html><html><head><meta charset='utf-8'><title>egoeval episodes</title>"
            f"<style>{PAGE_STYLE}</style></head><body><h1>egoeval episodes</h1><p>"
            + select("model", "model") + select("scenario", "scenario") + select("mode", "mode")
            + select("category", "error category") + select("answers", "communicated answers")
            + "<label>outcome <select id='outcome'><option value=''>all</option><option value='success'>success"
              "</option><option value='failure'>failure</option></select></label>"
              "<input id='search' placeholder='search tasks and dialogue'></p>"
              "<p><span id='count'></span> <button id='prev'>previous</button> <button id='next'>next</button></p>"
              "<table><thead><tr><th>model</th><th>task</th><th>scenario</th><th>mode</th><th>epoch</th>"
              "<th>outcome</th><th>answers</th><th>error category</th><th>ended by</th></tr></thead><tbody id='rows'></tbody></table>"
            + "<script type='application/json' id='episodes'>"
            + json.dumps(index, ensure_ascii=False, sort_keys=True).replace("</", "<\\/") + "</script>"
            + f"<script>{INDEX_SCRIPT}</script></body></html>\n")
    (out / "index.html").write_text(page, encoding="utf-8")
    return out / "index.html"


def serve(folder: str | Path, port: int = 8000) -> None:
    """Serve the viewer on 127.0.0.1 only (never on other interfaces)."""
    import functools
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(folder))
    with ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        print(f"serving {folder} on http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C to stop)")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
