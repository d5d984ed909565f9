"""Builds ``tasks.json`` of the artifact suite: 12 creation tasks, 3 per scenario.

Each task is grounded in a demo clip (the items pointed at) and the EgoBench seed data
(prices), asks for one file, and carries: its criteria; a reference solution (the
office and media tool calls a correct agent makes); and deliberately broken solutions,
each with the criteria it must fail, and only those. Four shapes of task are used:
a budget **workbook** with a real formula, a **slide with the video frame** where the
item is pointed at (32 pt title), a **document** with required sections, and a
**comparison slide** with a table.

Strings ``$pointK`` stand for a second at which the hand clearly points at the K-th
pointed item (resolved from the clip's annotations when the suite is loaded).
Run ``python -m egoeval.tasks.artifacts.build``; a test checks the shipped file equals
this builder's output.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from egoeval.tasks.demo import raw_tasks
from egoeval.tasks.demo.build import price

HERE = Path(__file__).parent


def order_price(restaurant: str, dish: str) -> float:
    from egoeval.suites import get_suite

    return get_suite("egobench").scoring_context("order1").fresh_env().restaurants[restaurant].catalog[dish.lower()]["price"]


def call(name: str, **params: Any) -> dict:
    return {"tool_name": name, "parameters": params}


def clip_of(demo_id: int) -> tuple[dict, list[str]]:
    raw = next(t for t in raw_tasks() if t["task_id"] == demo_id)
    labels = raw["clip"]["labels"]
    return raw, [labels[i] for i in raw["clip"]["points"]]


def workbook(name: str, items: list[tuple[str, float]], total_label: str = "Total") -> tuple[list, dict, list]:
    """Calls, criteria and broken variants of a budget workbook with a SUM formula."""
    calls = [call("create_workbook", file_name=name, sheet="Budget"),
             call("set_column_width", file_name=name, column="A", width=30),
             call("set_cell", file_name=name, cell="A1", value="Item"), call("set_cell", file_name=name, cell="B1", value="Amount")]
    for row, (item, amount) in enumerate(items, 2):
        calls += [call("set_cell", file_name=name, cell=f"A{row}", value=item),
                  call("set_cell", file_name=name, cell=f"B{row}", value=amount)]
    last = len(items) + 1
    total_row = last + 1
    calls += [call("set_cell", file_name=name, cell=f"A{total_row}", value=total_label),
              call("set_cell", file_name=name, cell=f"B{total_row}", value=f"=SUM(B2:B{last})")]
    total = round(sum(a for _, a in items), 2)
    criteria = [{"id": "file", "type": "file_exists"},
                {"id": "total-formula", "type": "formula", "sheet": "Budget", "cell": f"B{total_row}", "value": total}]
    criteria += [{"id": f"item-{n + 1}", "type": "text_present", "text": item} for n, (item, _) in enumerate(items)]
    literal = copy.deepcopy(calls)
    literal[-1]["parameters"]["value"] = total
    wrong = copy.deepcopy(calls)
    wrong[-1]["parameters"]["value"] = f"=SUM(B2:B{last - 1})" if last > 2 else "=B2*2"
    narrow = copy.deepcopy(calls)
    narrow[1]["parameters"]["width"] = 2  # names cut off by the price column: on screen, they are not there
    broken = [{"name": "literal-total", "calls": literal, "fails": ["total-formula"]},
              {"name": "wrong-range", "calls": wrong, "fails": ["total-formula"]},
              {"name": "names-cut-off", "calls": narrow, "fails": [f"item-{n + 1}" for n in range(len(items))]}]
    return calls, {"file": name, "criteria": criteria}, broken


def frame_slide(name: str, title: str, caption: str) -> tuple[list, dict, list]:
    """A slide with a 32 pt title and the frame where the item is pointed at."""
    title_call = call("add_text", file_name=name, slide=1, text=title, left=36, top=20, width=648, height=60,
                      font_size=32, bold=True)
    body = call("add_text", file_name=name, slide=1, text=caption, left=400, top=120, width=290, height=200, font_size=18)
    picture = call("add_picture", file_name=name, slide=1, image="frame.png", left=36, top=120, width=340)
    calls = [call("save_frame", second="$point0", file_name="frame.png"), call("create_presentation", file_name=name),
             call("add_slide", file_name=name), title_call, picture, body]
    criteria = [{"id": "file", "type": "file_exists"}, {"id": "one-slide", "type": "page_count", "equals": 1},
                {"id": "title-32pt", "type": "font_size", "text": title, "equals": 32},
                {"id": "frame", "type": "picture", "reference": "$point0", "max_distance": 8},
                {"id": "caption", "type": "text_present", "text": caption},
                {"id": "no-overlap", "type": "no_overlap"}, {"id": "on-slide", "type": "nothing_off_page"}]

    def variant(index: int, **changes: Any) -> list:
        out = copy.deepcopy(calls)
        out[index]["parameters"].update(changes)
        return out

    broken = [{"name": "small-title", "calls": variant(3, font_size=24), "fails": ["title-32pt"]},
              {"name": "no-picture", "calls": calls[:4] + calls[5:], "fails": ["frame"]},
              {"name": "overlap", "calls": variant(5, left=200), "fails": ["no-overlap"]},
              {"name": "off-slide", "calls": variant(5, left=760), "fails": ["caption", "on-slide"]}]
    return calls, {"file": name, "criteria": criteria}, broken


def document(name: str, sections: list[tuple[str, str]]) -> tuple[list, dict, list]:
    """A document with required sections (headings in order, each with a paragraph)."""
    calls = [call("create_document", file_name=name)]
    for heading, text in sections:
        calls += [call("add_heading", file_name=name, text=heading, level=1),
                  call("add_paragraph", file_name=name, text=text)]
    criteria = [{"id": "file", "type": "file_exists"},
                {"id": "sections", "type": "heading_sequence", "sequence": [h for h, _ in sections],
                 "levels": [1] * len(sections)},
                {"id": "detail", "type": "text_present", "text": sections[1][1]},
                {"id": "concise", "type": "word_count", "max": 120}]
    swapped = [calls[0], *calls[3:5], *calls[1:3], *calls[5:]]
    missing = calls[:-2]
    wordy = copy.deepcopy(calls)
    wordy[-1]["parameters"]["text"] += " " + " ".join(["Thank you for your order."] * 25)
    broken = [{"name": "sections-swapped", "calls": swapped, "fails": ["sections"]},
              {"name": "section-missing", "calls": missing, "fails": ["sections"]},
              {"name": "too-long", "calls": wordy, "fails": ["concise"]}]
    return calls, {"file": name, "criteria": criteria}, broken


def comparison(name: str, title: str, rows: list[list[str]]) -> tuple[list, dict, list]:
    """A slide comparing two things in a table, under a 32 pt title."""
    calls = [call("create_presentation", file_name=name), call("add_slide", file_name=name),
             call("add_text", file_name=name, slide=1, text=title, left=36, top=20, width=648, height=60, font_size=32),
             call("add_table", file_name=name, slide=1, rows=rows, left=36, top=120, width=648, height=150)]
    criteria = [{"id": "file", "type": "file_exists"}, {"id": "title-32pt", "type": "font_size", "text": title, "equals": 32},
                {"id": "first", "type": "text_present", "text": rows[1][0]},
                {"id": "second", "type": "text_present", "text": rows[2][0]},
                {"id": "no-overlap", "type": "no_overlap"}, {"id": "on-slide", "type": "nothing_off_page"}]
    low = copy.deepcopy(calls)
    low[3]["parameters"]["top"] = 30
    small = copy.deepcopy(calls)
    small[2]["parameters"]["font_size"] = 20
    broken = [{"name": "table-over-title", "calls": low, "fails": ["no-overlap"]},
              {"name": "small-title", "calls": small, "fails": ["title-32pt"]}]
    return calls, {"file": name, "criteria": criteria}, broken


def task(n: int, scenario: str, demo_id: int, instruction: str, made: tuple[list, dict, list]) -> dict:
    calls, criteria, broken = made
    raw, _ = clip_of(demo_id)
    return {"task_id": n, "scenario": scenario, "demo_task": demo_id, "Instruction": instruction,
            "scene_description": raw.get("scene_description", ""), "criteria": criteria, "reference": calls,
            "broken": broken}


def build() -> list[dict]:
    _, wines = clip_of(1)
    _, shelf2 = clip_of(2)
    _, ingredients = clip_of(4)
    _, dishes = clip_of(7)
    _, greek = clip_of(11)
    _, annie = clip_of(12)
    money = lambda scenario, names: [(n, price(scenario, n)) for n in names]  # noqa: E731
    return [
        task(1, "retail", 1, "Make a budget workbook budget.xlsx of the wines I pointed at, with their prices and "
             "their total as a formula.", workbook("budget.xlsx", money("retail", wines))),
        task(2, "retail", 2, "Make a slide wine.pptx about the first wine I pointed at: its name as a 32 pt title, "
             "the video frame where I point at it, and its price as a caption.",
             frame_slide("wine.pptx", shelf2[0], f"Price: {price('retail', shelf2[0])}")),
        task(3, "retail", 1, "Make a slide compare.pptx comparing the two wines I pointed at, in a table under a "
             "32 pt title.", comparison("compare.pptx", "Wine comparison",
                                         [["Wine", "Price"], *[[w, str(price("retail", w))] for w in wines]])),
        task(4, "kitchen", 4, "Make a recipe slide recipe.pptx for the first ingredient I pointed at: its name as a "
             "32 pt title, the frame where I point at it, and the step as a caption.",
             frame_slide("recipe.pptx", ingredients[0], "Step 1: rinse and pat dry")),
        task(5, "kitchen", 4, "Make a shopping list workbook shopping.xlsx of the ingredients I pointed at, 250 g "
             "each, with the total grams as a formula.",
             workbook("shopping.xlsx", [(i, 250) for i in ingredients], "Total grams")),
        task(6, "kitchen", 5, "Write a recipe note recipe.docx with the sections Ingredients, Steps and Serving.",
             document("recipe.docx", [("Ingredients", "Cod fillet, lemon, salt."),
                                       ("Steps", "Season the cod and bake it for 12 minutes."),
                                       ("Serving", "Serve with lemon wedges.")])),
        task(7, "restaurant", 7, "Write a receipt receipt.docx for the dishes I pointed at, with the sections Order, "
             "Items and Total.",
             document("receipt.docx", [("Order", "Table 4, user demo_diner_01."),
                                       ("Items", ", ".join(f"{d} x1" for d in dishes)),
                                       ("Total", f"{sum(price('restaurant', d) for d in dishes)}")])),
        task(8, "restaurant", 7, "Make a bill workbook bill.xlsx of the dishes I pointed at with their prices and the "
             "total as a formula.", workbook("bill.xlsx", money("restaurant", dishes))),
        task(9, "restaurant", 8, "Make a slide dish.pptx about the first dish I pointed at: its name as a 32 pt title, "
             "the frame where I point at it, and its price as a caption.",
             frame_slide("dish.pptx", clip_of(8)[1][0], f"Price: {price('restaurant', clip_of(8)[1][0])}")),
        task(10, "order", 11, "Make a slide compare.pptx comparing the dishes I pointed at on the Greek menu with "
             "the ones on the Italian menu, in a table under a 32 pt title.",
             comparison("compare.pptx", "Two restaurants",
                        [["Dish", "Restaurant"], [greek[0], "Mediterranean Greek Restaurant"],
                         [annie[0], "Annie Italian Restaurant"]])),
        task(11, "order", 11, "Write an order confirmation order.docx with the sections Restaurant, Dishes and "
             "Delivery.", document("order.docx", [("Restaurant", "Mediterranean Greek Restaurant"),
                                                  ("Dishes", ", ".join(greek)),
                                                  ("Delivery", "Deliver to the front desk at 7 pm.")])),
        task(12, "order", 12, "Make a cost workbook cost.xlsx of the dishes I pointed at with their prices and the "
             "total as a formula.",
             workbook("cost.xlsx", [(d, order_price("Annie Italian Restaurant", d)) for d in annie])),
    ]


if __name__ == "__main__":
    (HERE / "tasks.json").write_text(json.dumps(build(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {HERE / 'tasks.json'}")
