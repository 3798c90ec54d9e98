"""What the report's figure scripts (figure1.py, figure_mutation.py) share: reading the spec
JSON given on the command line, a headless matplotlib with deterministic SVG output, and saving
one figure as SVG + PNG."""
from __future__ import annotations

import json
import os


def open_spec(argv: list[str]):
    """argv = [SPEC_JSON, OUT_DIR]. Returns (spec dict, out_dir, matplotlib.pyplot) with the Agg
    backend and a fixed SVG hash salt (the same input gives the same SVG)."""
    spec_file, out_dir = argv[0], argv[1]
    with open(spec_file, encoding="utf-8") as fh:
        spec = json.load(fh)
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "lockin"  # deterministic SVG ids
    import matplotlib.pyplot as plt

    return spec, out_dir, plt


def save(fig, plt, out_dir: str, stem: str, tight: bool = False) -> tuple[str, str]:
    """Writes OUT_DIR/<stem>.svg (no date) and .png (150 dpi), closes the figure and returns both
    paths. tight: crop to what is drawn, so a title or legend wider than the axes is not cut."""
    os.makedirs(out_dir, exist_ok=True)
    svg, png = os.path.join(out_dir, f"{stem}.svg"), os.path.join(out_dir, f"{stem}.png")
    extra = {"bbox_inches": "tight", "pad_inches": 0.15} if tight else {}
    fig.savefig(svg, format="svg", metadata={"Date": None}, **extra)
    fig.savefig(png, format="png", dpi=150, **extra)
    plt.close(fig)
    return svg, png
