"""Figure 2 (beyond the paper): the frozen suites' mutation scores, task by condition.

Usage: python figure_mutation.py CELLS_JSON OUT_DIR
CELLS_JSON: {"title": str, "conditions": [{"id": str, "name": str}], "tasks": [str],
             "cells": [{"task": str, "condition": id, "valid": bool | null, "killed": int,
                        "total": int, "falsePass": bool}]}
Writes OUT_DIR/figure2-mutation.svg and .png (matplotlib, Agg backend) and prints one JSON line:
{"svg": path, "png": path, "cells": n}.

One row per condition, one column per task. A valid suite's cell is coloured by its mutation
score (killed / non-equivalent mutants, 0 = pale, 1 = dark) and labelled killed/total; a suite
invalid on gold is grey and labelled "inv"; a missing suite is blank. A red frame marks a false
pass (the run's own tests passed, the reference disagreed): the picture shows whether the suites
behind false passes are weak, or reject the right answer.
"""
from __future__ import annotations

import json
import sys

from figures import open_spec, save


def main() -> None:
    spec, out_dir, plt = open_spec(sys.argv[1:])
    from matplotlib.patches import Patch, Rectangle

    conds, tasks, cells = spec["conditions"], spec["tasks"], spec["cells"]
    col = {t: i for i, t in enumerate(tasks)}
    row = {c["id"]: i for i, c in enumerate(conds)}
    cmap = plt.get_cmap("Blues")
    width = max(6.0, 0.42 * len(tasks) + 2.2)
    fig, ax = plt.subplots(figsize=(width, 0.62 * len(conds) + 1.9))
    for c in cells:
        if c["task"] not in col or c["condition"] not in row:
            continue
        x, y = col[c["task"]], row[c["condition"]]
        if c["valid"] is False:
            face, text, ink = "#bdbdbd", "inv", "black"
        elif c["total"] > 0:
            score = c["killed"] / c["total"]
            face, text = cmap(0.15 + 0.8 * score), f"{c['killed']}/{c['total']}"
            ink = "white" if score > 0.6 else "black"
        else:
            face, text, ink = "white", "–", "black"
        ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor=face, edgecolor="white", linewidth=1))
        ax.text(x, y, text, ha="center", va="center", fontsize=6.5, color=ink)
        if c.get("falsePass"):
            ax.add_patch(Rectangle((x - 0.44, y - 0.44), 0.88, 0.88, fill=False, edgecolor="tab:red", linewidth=1.6))
    ax.set_xlim(-0.5, len(tasks) - 0.5)
    ax.set_ylim(len(conds) - 0.5, -0.5)
    ax.set_xticks(range(len(tasks)))
    ax.set_xticklabels(tasks, rotation=90, fontsize=7)
    ax.set_yticks(range(len(conds)))
    ax.set_yticklabels([c["name"] for c in conds], fontsize=8)
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)
    handles = [
        Patch(facecolor=cmap(0.95), label="valid suite: all mutants killed"),
        Patch(facecolor=cmap(0.15), label="valid suite: none killed"),
        Patch(facecolor="#bdbdbd", label="inv: suite fails gold"),
        Patch(facecolor="white", edgecolor="tab:red", linewidth=1.6, label="false pass"),
    ]
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.28 if len(tasks) > 8 else -0.2), ncol=4 if len(tasks) > 8 else 2, fontsize=7, frameon=False)
    ax.set_title(spec.get("title", "Figure 2"), fontsize=10)
    fig.tight_layout()
    svg, png = save(fig, plt, out_dir, "figure2-mutation", tight=True)
    print(json.dumps({"svg": svg, "png": png, "cells": len(cells)}))


if __name__ == "__main__":
    main()
