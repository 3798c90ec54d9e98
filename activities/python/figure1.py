"""Figure 1: internal scores (plan semantic ratio, test coverage) against reference agreement.

Usage: python figure1.py POINTS_JSON OUT_DIR
POINTS_JSON: {"title": str, "conditions": [{"id": str, "name": str}],
              "points": [{"condition": id, "task": str, "plan": float 0..1,
                          "test": float 0..1, "agree": bool}]}
Writes OUT_DIR/figure1.svg and OUT_DIR/figure1.png (matplotlib, Agg backend) and prints one
JSON line: {"svg": path, "png": path, "points": n}.

Each panel shows one internal score per run (y, percent) for each condition (x, with a small
deterministic jitter by task order); filled circles agree with the reference, crosses do not.
The dashed line marks the paper's 90% threshold. Condition names wrap onto two lines and the
legend sits below both panels, outside the axes, so neither overlaps a label or a point.
"""
from __future__ import annotations

import json
import sys
import textwrap

from figures import open_spec, save


def main() -> None:
    spec, out_dir, plt = open_spec(sys.argv[1:])

    conds = spec["conditions"]
    points = spec["points"]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.2), sharey=True)
    for ax, (key, label) in zip(axes, [("plan", "Plan semantic ratio (%)"), ("test", "Test coverage (%)")]):
        for ci, cond in enumerate(conds):
            pts = [p for p in points if p["condition"] == cond["id"]]
            n = max(len(pts), 1)
            for i, p in enumerate(pts):
                x = ci + (i - (n - 1) / 2) * (0.5 / n)
                y = 100.0 * p[key]
                if p["agree"]:
                    ax.scatter([x], [y], marker="o", color="tab:green", s=28, zorder=3)
                else:
                    ax.scatter([x], [y], marker="x", color="tab:red", s=28, zorder=3)
        ax.axhline(90, linestyle="--", color="grey", linewidth=0.8)
        ax.set_xticks(range(len(conds)))
        # Condition names on two lines ("PlanAudit-Guided / Revision"): four one-line names overlap.
        ax.set_xticklabels([textwrap.fill(c["name"], 16) for c in conds], fontsize=8)
        ax.set_ylim(-5, 105)
        ax.set_ylabel(label)
        ax.grid(axis="y", alpha=0.3)
    from matplotlib.lines import Line2D

    handles = [
        Line2D([], [], marker="o", color="tab:green", linestyle="", label="agrees with reference"),
        Line2D([], [], marker="x", color="tab:red", linestyle="", label="no reference agreement"),
    ]
    axes[1].tick_params(labelleft=True)
    # The legend below both panels, outside the axes, so it never covers a point.
    fig.legend(handles=handles, loc="lower center", ncol=2, fontsize=8, frameon=False)
    fig.suptitle(spec.get("title", "Figure 1"), fontsize=10)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    svg, png = save(fig, plt, out_dir, "figure1")
    print(json.dumps({"svg": svg, "png": png, "points": len(points)}))


if __name__ == "__main__":
    main()
