"""The simulation report: `report.json`, one PNG per plot, and `report.html`, a single
self-contained page with the plots embedded as base64 data URIs (matplotlib, Agg)."""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from munchkin.words.standings import options_text

Data = dict[str, Any]
TOP = 25
"""Rows of the most played cards and most fought monsters in plots and tables."""


def write_report(data: Data, out: Path) -> dict[str, Path]:
    """Write the JSON, the PNGs and the HTML page into `out`; return their paths by name."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {"json": out / "report.json", "html": out / "report.html"}
    paths["json"].write_text(json.dumps(data, indent=1) + "\n")
    images = {}
    for name, (title, draw) in PLOTS.items():
        png = _render(draw, data)
        paths[name] = out / f"{name}.png"
        paths[name].write_bytes(png)
        images[name] = (title, png)
    paths["html"].write_text(_page(data, images))
    return paths


def _render(draw: Callable[[Figure, Data], None], data: Data) -> bytes:
    fig = plt.figure(figsize=(8, 4.5), dpi=100)
    try:
        draw(fig, data)
        fig.tight_layout()
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png")
        return buffer.getvalue()
    finally:
        plt.close(fig)


# -- plots ---------------------------------------------------------------------------------


def _rate_bars(ax: Axes, labels: Sequence[str], rates: Sequence[Data], title: str) -> None:
    """Win rates with their Wilson 95% intervals as error bars."""
    values = [r["rate"] for r in rates]
    below = [r["rate"] - r["ci95"][0] for r in rates]
    above = [r["ci95"][1] - r["rate"] for r in rates]
    ax.bar(labels, values, yerr=[below, above], capsize=4, color="#4c72b0")
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (Wilson 95% CI)")
    ax.set_title(title)


def _win_rates(fig: Figure, data: Data) -> None:
    by_seat, by_bot = fig.subplots(1, 2)
    seats = data["win_rate_by_seat"]
    _rate_bars(by_seat, [f"seat {r['seat']}" for r in seats], seats, "by seat")
    by_seat.axhline(1 / len(seats), color="grey", linestyle=":", label="1 / players")
    by_seat.legend()
    bots = data["win_rate_by_bot"]
    _rate_bars(by_bot, list(bots), list(bots.values()), "by bot")


def _lengths(fig: Figure, data: Data) -> None:
    for ax, key in zip(fig.subplots(1, 2), ("turns", "decisions"), strict=True):
        ax.hist(data["length"][key]["values"], bins=30, color="#55a868")
        ax.set_xlabel(key)
        ax.set_ylabel("games")
        ax.set_title(f"game length in {key} (median {data['length'][key]['median']:g})")


def _levels(fig: Figure, data: Data) -> None:
    ax = fig.subplots()
    for kind, curve in data["level_curves"].items():
        ax.plot(range(1, len(curve) + 1), curve, label=kind)
    ax.set_xlabel("turn (every player's turns counted)")
    ax.set_ylabel("mean level at the turn's start")
    ax.set_title("level curves, games still going")
    ax.legend()


def _cards(fig: Figure, data: Data) -> None:
    rows = _most(data["cards"], "plays")
    ax = fig.subplots()
    names = [r["name"] for r in rows]
    _rate_bars(ax, names, [r["players"] for r in rows], f"win rate of the players who played it (top {TOP})")
    ax.tick_params(axis="x", labelrotation=90, labelsize=6)


def _monsters(fig: Figure, data: Data) -> None:
    rows = _most(data["monsters"], "fought")
    ax = fig.subplots()
    names = [r["name"] for r in rows]
    bottom = [0] * len(rows)
    for figure in ("killed", "escaped", "caught"):
        heights = [r[figure] for r in rows]
        ax.bar(names, heights, bottom=bottom, label=figure)
        bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
    ax.plot(names, [r["kills"] for r in rows], "kx", label="characters killed")
    ax.set_title(f"monsters, most fought first (top {TOP})")
    ax.tick_params(axis="x", labelrotation=90, labelsize=6)
    ax.legend()


def _hirelings_steeds(fig: Figure, data: Data) -> None:
    ax = fig.subplots()
    counts = data["hirelings_steeds"]
    ax.barh([name.replace("_", " ") for name in counts], list(counts.values()), color="#8172b2")
    ax.invert_yaxis()
    ax.set_xlabel(f"total over {data['games']} games")
    ax.set_title("hirelings and steeds")


PLOTS: dict[str, tuple[str, Callable[[Figure, Data], None]]] = {
    "win_rates": ("Win rates", _win_rates),
    "game_length": ("Game length", _lengths),
    "level_curves": ("Level curves", _levels),
    "cards": ("Cards played", _cards),
    "monsters": ("Monsters", _monsters),
    "hirelings_steeds": ("Hirelings and steeds", _hirelings_steeds),
}


def _most(table: dict[str, Data], key: str) -> list[Data]:
    """The `TOP` rows with the largest `key`, ties by card id, leaving out zeros."""
    rows = sorted(table.items(), key=lambda item: (-item[1][key], item[0]))
    return [{"id": card, **row} for card, row in rows[:TOP] if row[key]]


# -- the page ------------------------------------------------------------------------------

SHARED_WINS_NOTE = (
    "A game won by several players together (B2: they reached the win level in the same fight; "
    "{n} games here) counts as a win for each of them, so the rates by seat may add up to more than 1."
)

STYLE = (
    "body{font-family:sans-serif;max-width:60em;margin:auto;padding:1em}"
    "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 6px}"
    "td.n{text-align:right}img{max-width:100%}"
)


def _table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>"
        + "".join(
            f"<td class=n>{_fmt(v)}</td>" if isinstance(v, int | float) else f"<td>{html.escape(str(v))}</td>"
            for v in row
        )
        + "</tr>"
        for row in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def _fmt(value: float) -> str:
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def _ci(r: Data) -> str:
    return f"{r['rate']:.3f} [{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]"


def _sections(data: Data) -> dict[str, str]:
    """The tables under each plot."""
    lengths = data["length"]
    return {
        "win_rates": _table(
            ["who", "wins", "games", "win rate [95% CI]"],
            [[f"seat {r['seat']}", r["wins"], r["games"], _ci(r)] for r in data["win_rate_by_seat"]]
            + [[kind, r["wins"], r["games"], _ci(r)] for kind, r in data["win_rate_by_bot"].items()],
        )
        + f"<p>{html.escape(SHARED_WINS_NOTE.format(n=data['shared_wins']))}</p>",
        "game_length": _table(
            ["", "mean", "median", "min", "max"],
            [[key, *(lengths[key][s] for s in ("mean", "median", "min", "max"))] for key in lengths],
        ),
        "cards": _table(
            ["card", "type", "plays", "players who played it", "their win rate [95% CI]"],
            [
                [r["name"], r["type"], r["plays"], r["players"]["games"], _ci(r["players"])]
                for r in _most(data["cards"], "plays")
            ],
        ),
        "monsters": _table(
            ["monster", "fought", "killed", "escaped", "caught", "characters killed"],
            [
                [r["name"], r["fought"], r["killed"], r["escaped"], r["caught"], r["kills"]]
                for r in _most(data["monsters"], "fought")
            ],
        ),
        "hirelings_steeds": _table(
            ["", "total"], [[name.replace("_", " "), n] for name, n in data["hirelings_steeds"].items()]
        ),
    }


def _page(data: Data, images: dict[str, tuple[str, bytes]]) -> str:
    config = data["config"]
    intro = (
        f"{data['games']} games ({data['finished']} finished, {data['shared_wins']} of them won by "
        f"several players together), {config['players']} players, bots {', '.join(config['bots'])}, "
        f"sets {', '.join(config['sets'])}, seed {config['seed']}, {options_text(config['options'])}."
    )
    tables = _sections(data)
    parts = [f"<h1>Munchkin simulation</h1><p>{html.escape(intro)}</p>"]
    for name, (title, png) in images.items():
        uri = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
        parts.append(f'<h2>{html.escape(title)}</h2><img alt="{name}" src="{uri}">{tables.get(name, "")}')
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>Munchkin simulation</title><style>{STYLE}</style></head>"
        f"<body>{''.join(parts)}</body></html>\n"
    )
