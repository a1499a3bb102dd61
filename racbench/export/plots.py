"""The card's figures: PNGs beside README.md, embedded in it, byte-reproducible.

`difficulty.png`: rows by number of objects, sequence length and optimal plan length,
one bar per split (a generalization split shows as the test bars moving right);
`answers.png`: true/false and option-letter counts per split (bool and mc configs).

Same data, same bytes (on the same matplotlib): figures are drawn on matplotlib's Agg
canvas without pyplot (no global state, no display), in matplotlib's default style
whatever the user's matplotlibrc, and saved without the Software stamp; PNG carries no
date of its own. Every word on a figure comes from templates/card/plots.j2.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from racbench.export.glance import DIFFICULTY, NO_PLAN, Glance
from racbench.export.interrupts import interrupts_held
from racbench.text import sayer

DIFFICULTY_PNG = "difficulty.png"
ANSWERS_PNG = "answers.png"
PLOTS = (DIFFICULTY_PNG, ANSWERS_PNG)
DPI = 80
LEGEND_AT = "upper center"  # matplotlib's name of where the legend goes
_say = sayer("card", ("plots.j2",))


def write_plots(folder: Path, glances: list[Glance]) -> list[str]:
    """Draw the figures the data calls for into `folder`; their file names."""
    with interrupts_held():  # Ctrl-C inside matplotlib's first import breaks it
        import matplotlib.style
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

    written = []
    with matplotlib.style.context("default"):
        for name, panels in ((DIFFICULTY_PNG, _difficulty_panels(glances)),
                             (ANSWERS_PNG, _answer_panels(glances))):
            if not panels:
                continue
            fig = Figure(figsize=(4.2 * len(panels), 3.2), dpi=DPI, layout="constrained")
            FigureCanvasAgg(fig)
            for ax, (title, per_split) in zip(fig.subplots(1, len(panels), squeeze=False)[0],
                                              panels):
                _bars(ax, title, per_split)
            tmp = Path(folder) / f".{name}.tmp"
            fig.savefig(tmp, format="png", metadata={"Software": None})
            tmp.replace(Path(folder) / name)
            written.append(name)
    return written


def _merge(per_config: list[dict[str, Counter]]) -> dict[str, Counter]:
    out: dict[str, Counter] = {}
    for per_split in per_config:
        for split, counts in per_split.items():
            out.setdefault(split, Counter()).update(counts)
    return out


def _difficulty_panels(glances: list[Glance]) -> list[tuple[str, dict]]:
    panels = []
    for column in DIFFICULTY:
        merged = _merge([g.columns[column] for g in glances if column in g.columns])
        if merged:
            panels.append((_say("difficulty_title", column=column), merged))
    return panels


def _answer_panels(glances: list[Glance]) -> list[tuple[str, dict]]:
    panels = []
    for kind in ("bool", "mc"):
        merged = _merge([g.answers for g in glances if g.row_kind == kind])
        if merged:
            panels.append((_say("answers_title", kind=kind), merged))
    return panels


def _bars(ax, title: str, per_split: dict[str, Counter]) -> None:
    """Each value's share of a split's rows, a bar per split side by side (splits of
    different sizes compare), values in order, null (no plan) last."""
    values = sorted({v for c in per_split.values() for v in c},
                    key=lambda v: (v == NO_PLAN, v if v != NO_PLAN else 0, str(v)))
    width = 0.8 / len(per_split)
    top = 0.0
    for i, (split, counts) in enumerate(per_split.items()):
        total = sum(counts.values()) or 1
        shares = [100 * counts.get(v, 0) / total for v in values]
        top = max(top, *shares)
        ax.bar([x + (i - (len(per_split) - 1) / 2) * width for x in range(len(values))],
               shares, width=width, label=split)
    step = max(1, -(-len(values) // 16))  # at most 16 tick labels
    ax.set_xticks(range(0, len(values), step),
                  [_say("null_label") if v == NO_PLAN else str(v) for v in values][::step])
    ax.set_ylim(0, top * 1.3 or 1)  # room for the legend above the bars
    ax.set_title(title, fontsize=10)
    ax.set_ylabel(_say("rows_label"))
    ax.legend(fontsize=7, ncols=len(per_split), loc=LEGEND_AT, frameon=False)
