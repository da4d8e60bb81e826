"""The lab's report as one HTML page: the figures drawn with matplotlib, embedded as PNG, and the tables.

Matplotlib draws static pictures in the process itself: the page needs no script and no network to be read,
in any browser or none, and the figures can be dropped into a note as they are.
"""

from __future__ import annotations

import base64
import html
import io
import math
from collections import Counter
from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")  # no display: pictures into memory

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from spbc.lab.stats import Share  # noqa: E402
from spbc.lab.summary import Difference, Summary  # noqa: E402
from spbc.lab.tally import EVENTS  # noqa: E402
from spbc.lab.text import change_text, effect_text, header, mean_text, p_text, share_text, test_name, \
    top_cards  # noqa: E402

COLOURS = ("#1f5fa8", "#d0702a")


def _png(figure: Figure) -> str:
    """The figure as base64 PNG, drawn once: its margins are set beforehand (_margins), as a tight layout or a
    tight bounding box would measure every tick label in a drawing of its own (most of a report's cost)."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=96)
    plt.close(figure)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _margins(figure: Figure, left: float = 0.75, names: Sequence[str] = (), top: float = 0.4,
             bottom: float = 0.55, wspace: float = 0.25, hspace: float = 0.2) -> None:
    """Margins in inches, the left one widened for tick labels written at 7 points (card names)."""
    width, height = figure.get_size_inches()
    left += max((len(name) for name in names), default=0) * 7 * 0.55 / 72
    figure.subplots_adjust(left=left / width, right=1 - 0.15 / width, top=1 - top / height,
                           bottom=bottom / height, wspace=wspace, hspace=hspace)


def _errors(shares: Sequence[Share]) -> tuple[list[float], list[list[float]]]:
    values = [100 * s.value for s in shares]
    # Wilson's interval holds the share, but at 0% or 100% rounding may put it a hair outside
    low = [max(0.0, 100 * (s.value - s.interval[0])) for s in shares]
    high = [max(0.0, 100 * (s.interval[1] - s.value)) for s in shares]
    return values, [low, high]


def positions_figure(summaries: list[Summary]) -> str:
    """Each seat's win share as a point with its interval, zoomed in on the even share: a difference of a
    point or two, which matters, would vanish on bars drawn from zero."""
    figure, axes = plt.subplots(figsize=(6.4, 3.4))
    count = len(summaries[0].positions)
    even = 100 / count
    spread = 0.3 / len(summaries)
    ends = [even]
    for k, s in enumerate(summaries):
        values, errors = _errors(s.positions)
        xs = [p + (k - (len(summaries) - 1) / 2) * spread for p in range(count)]
        axes.errorbar(xs, values, yerr=errors, fmt="o", capsize=4, color=COLOURS[k], label=s.ruleset)
        ends += [v - e for v, e in zip(values, errors[0])] + [v + e for v, e in zip(values, errors[1])]
    axes.axhline(even, color="black", linestyle="--", linewidth=1, label="even share")
    margin = max(1.0, (max(ends) - min(ends)) * 0.15)
    axes.set_ylim(max(0.0, min(ends) - margin), min(100.0, max(ends) + margin))
    axes.set_xlim(-0.5, count - 0.5)
    axes.set_xticks(range(count), [f"seat {p + 1}" for p in range(count)])
    axes.set_ylabel("games won (%)")
    axes.set_title("Win share by seat position, 95% intervals")
    axes.legend(fontsize=8)
    _margins(figure)
    return _png(figure)


def _histogram(axes: Axes, summaries: list[Summary], counts: Sequence[Counter[int]], label: str,
               bins: int = 40) -> None:
    low = min(min(c) for c in counts if c)
    high = max(max(c) for c in counts if c)
    step = max(1, math.ceil((high - low + 1) / bins))
    for k, (s, c) in enumerate(zip(summaries, counts)):
        total = sum(c.values())
        edges = list(range(low, high + step + 1, step))
        heights = [sum(c.get(v, 0) for v in range(e, e + step)) / total * 100 for e in edges[:-1]]
        axes.stairs(heights, edges, color=COLOURS[k], linewidth=1.5, label=s.ruleset,
                    fill=len(summaries) == 1, alpha=0.8 if len(summaries) == 1 else 1.0)
    axes.set_xlabel(label)
    axes.set_ylabel("games (%)")
    if len(summaries) > 1:
        axes.legend(fontsize=8)


def distributions_figure(summaries: list[Summary]) -> str:
    figure, grid = plt.subplots(2, 2, figsize=(10, 6.4))
    _histogram(grid[0][0], summaries, [s.round_counts for s in summaries], "rounds per game")
    _histogram(grid[0][1], summaries, [s.move_counts for s in summaries], "moves per game")
    _histogram(grid[1][0], summaries, [s.score_counts for s in summaries], "final points (every seat)")
    _histogram(grid[1][1], summaries, [s.margin_counts for s in summaries], "winner's margin (points)")
    grid[0][0].set_title("Game length")
    grid[1][0].set_title("Final points and the winner's margin")
    _margins(figure, hspace=0.45)
    return _png(figure)


def differences_figure(differences: Sequence[Difference], first: str, second: str) -> str:
    """The headline differences, one row each: the estimate with its 95% interval on the row's own scale (its
    unit: points, rounds, moves, percentage points), centred on no difference, so that an interval that
    crosses the dashed line shows at once; the significant ones (after Holm's correction) drawn in orange."""
    figure, panels = plt.subplots(len(differences), 1, figsize=(10, 0.5 * len(differences) + 0.9), squeeze=False)
    for axes, d in zip(panels[:, 0], differences):
        k = 100 if d.share else 1
        estimate, low, high = k * d.estimate, k * d.low, k * d.high
        axes.axvline(0, color="black", linestyle="--", linewidth=1)
        if not math.isnan(low):
            axes.errorbar([estimate], [0], xerr=[[estimate - low], [high - estimate]], fmt="o", capsize=4,
                          color=COLOURS[1] if d.significant else COLOURS[0])
        reach = max((abs(v) for v in (low, high, estimate) if not math.isnan(v)), default=0.0) * 1.2
        axes.set_xlim(-(reach or 1.0), reach or 1.0)
        axes.set_ylim(-1, 1)
        axes.set_yticks([0], [d.what + (" (pp)" if d.share else "")], fontsize=8)
        axes.tick_params(axis="x", labelsize=7)
        axes.xaxis.set_major_locator(MaxNLocator(7, symmetric=True))
        axes.text(1.02, 0.5, f"{change_text(d)}, Holm p {p_text(d.adjusted)}", transform=axes.transAxes,
                  fontsize=8, va="center")
    panels[0][0].set_title(f"{second} minus {first}: each difference with its 95% interval, on its own scale",
                           fontsize=9)
    width, height = figure.get_size_inches()
    left = 0.25 + max(len(d.what) + 5 for d in differences) * 8 * 0.5 / 72
    figure.subplots_adjust(left=left / width, right=1 - 3.6 / width, top=1 - 0.35 / height, bottom=0.3 / height,
                           hspace=0.9)
    return _png(figure)


def _bars(axes: Axes, ys: Sequence[float], values: Sequence[float], height: float, colour: str, label: str) -> None:
    """Horizontal bars from 0 as one collection: one artist to draw, not one rectangle each."""
    boxes = [[(0.0, y - height / 2), (v, y - height / 2), (v, y + height / 2), (0.0, y + height / 2)]
             for y, v in zip(ys, values)]
    axes.add_collection(PolyCollection(boxes, facecolors=colour, edgecolors="none", label=label))


def card_rates_figure(summaries: list[Summary]) -> str:
    cards = summaries[0].cards
    figure, panels = plt.subplots(1, len(EVENTS), figsize=(12, 0.2 * len(cards) + 1.4), sharey=True)
    height = 0.8 / len(summaries)
    for e, (event, axes) in enumerate(zip(EVENTS, panels)):
        widest = 0.0
        for k, s in enumerate(summaries):
            theirs = {card.id: card for card in s.cards}
            values = [theirs[c.id].rates[e].mean if c.id in theirs else 0.0 for c in cards]
            ys = [i + (k - (len(summaries) - 1) / 2) * height for i in range(len(cards))]
            _bars(axes, ys, values, height, COLOURS[k], s.ruleset)
            widest = max(widest, *values)
        axes.set_xlim(0.0, widest * 1.05 or 1.0)
        axes.set_title(f"{event} per game", y=1.0, pad=6)  # placed, not measured against the tick labels
        if e:
            axes.yaxis.set_visible(False)  # the first panel's card names stand for every panel
    panels[0].set_ylim(len(cards) - 0.5, -0.5)  # the first card on top
    panels[0].set_yticks(range(len(cards)), [c.name for c in cards], fontsize=7)
    panels[-1].legend(fontsize=8, loc="lower right")
    _margins(figure, 0.2, [c.name for c in cards], bottom=0.3, wspace=0.08)
    return _png(figure)


def card_effects_figure(summary: Summary) -> str:
    """For the cards owned most often, owners less non-owners as rich in the same round (spbc.lab.wealth): the
    adjusted difference with its 95% interval (orange when it excludes 0), the raw one as a grey ring; win
    share in percentage points, final points."""
    cards = top_cards(summary)
    figure, panels = plt.subplots(1, 2, figsize=(10, 0.24 * len(cards) + 1.3), sharey=True)
    ys = list(range(len(cards)))
    for axes, wins, label in ((panels[0], True, "win share (pp)"), (panels[1], False, "final points")):
        k = 100 if wins else 1
        effects = [c.effect.wins if wins else c.effect.points for c in cards]
        for y, e in zip(ys, effects):
            axes.errorbar([k * e.estimate], [y], xerr=[[k * (e.estimate - e.low)], [k * (e.high - e.estimate)]],
                          fmt="o", markersize=4, capsize=3, elinewidth=1,
                          color=COLOURS[1] if e.significant else COLOURS[0])
        axes.scatter([k * e.raw for e in effects], ys, s=22, facecolors="none", edgecolors="#888888",
                     label="raw (owners less all non-owners)", zorder=3)
        axes.axvline(0, color="black", linestyle="--", linewidth=1)
        axes.set_xlabel(f"owners less non-owners as rich, {label}, 95% intervals", fontsize=8)
        axes.tick_params(axis="x", labelsize=7)
        axes.grid(axis="y", color="#eeeeee")
    panels[0].set_yticks(ys, [c.name for c in cards], fontsize=7)
    panels[0].set_ylim(len(cards) - 0.5, -0.5)
    panels[0].legend(fontsize=7, loc="lower left")
    panels[0].set_title(f"{summary.ruleset}: {len(cards)} cards owned most often, adjusted for wealth "
                        "(an association, not a cause)", fontsize=9, loc="left")
    _margins(figure, 0.2, [c.name for c in cards], top=0.35, bottom=0.5, wspace=0.06)
    return _png(figure)


def _effects_part(s: Summary) -> list[str]:
    cards = top_cards(s)
    rows = [[c.name, str(c.effect.owners), str(c.effect.matched), f"{100 * c.effect.wins.raw:+.1f}",
             effect_text(c.effect.wins, True), f"{c.effect.points.raw:+.1f}", effect_text(c.effect.points, False)]
            for c in cards]
    return [f"<img alt='per-card effects adjusted for wealth' "
            f"src='data:image/png;base64,{card_effects_figure(s)}'>",
            _table(["card", "owners", "matched", "win share, raw (pp)", "adjusted [95%]", "points, raw",
                    "adjusted [95%]"], rows)]


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    cells = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>"


_STYLE = """
body { font-family: sans-serif; margin: 2em auto; max-width: 1250px; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
td, th { padding: 2px 8px; border-bottom: 1px solid #eee; text-align: right; }
td:first-child, th:first-child { text-align: left; }
img { max-width: 100%; } .note { color: #555; font-size: 0.9em; } .sig { font-weight: bold; }
"""


def _changes(names: list[str], differences: list[Difference]) -> list[str]:
    """The head of a comparison's page: the significant differences, each with its change and test."""
    parts: list[str] = []
    significant = [d for d in differences if d.significant]
    parts.append(f"<h2>What changed: {len(significant)} significant differences</h2>"
                 f"<p class='note'>Of {len(differences)} figures tested, those whose difference is significant "
                 "after Holm's correction for the number of tests (p &lt; 0.05).</p>")
    if significant:
        parts.append(_table(["figure", names[0], names[1], f"{names[1]} minus {names[0]} [95% interval] (relative)",
                             "test", "p (corrected)"],
                            [[d.what, d.first, d.second, change_text(d), test_name(d), p_text(d.adjusted)]
                             for d in significant]))
    else:
        parts.append("<p>None: every difference between the two runs is within what chance gives at this "
                     "number of games.</p>")
    if any(d.paired for d in differences):
        parts.append("<p class='note'>Both rulesets played the same games (seeds and seats): the win shares and "
                     "means are compared game by game (exact McNemar test for a win share, paired t test for a "
                     "mean); the per-card figures, counted over whole runs, as independent samples (unpaired), "
                     "which misses smaller differences.</p>")
    return parts


EFFECTS_NOTE = (
    "<p class='note'>A seat owns a card when it bought it or played it from its hand. Seats that own a dear card "
    "win more often partly because they were rich enough to buy it, so each owner is compared with seats that, in "
    "the same round and with as many rubles (bins of 4) when they were to move, did not own the card: the "
    "difference in final points and in win share, averaged over the owners, with its 95% interval (grey ring: the "
    "raw difference, owners less every non-owner). This is an association, not a cause: the seats are matched on "
    "the round and their rubles alone, not on their points, the board or their other cards; a card the owners "
    "did well with is not shown to make them win. Orange: the interval leaves out zero; it takes the cells as "
    "independent though a non-owner counts at each of its turns, so it is, if anything, too narrow. 'matched': "
    "owners with seats to compare in their cell.</p>")


def render(summaries: list[Summary], differences: list[Difference] | None, speed: str,
           notes: Sequence[str] = ()) -> str:
    """The page: what was played (and ``notes`` on it: why a run sized by precision stopped, what its games
    could detect), the figures and the tables behind them."""
    names = [s.ruleset for s in summaries]
    title = "Balance of " + " against ".join(names)
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
             f"<style>{_STYLE}</style></head><body><h1>{html.escape(title)}</h1>"]
    parts += [f"<p>{html.escape(header(s))}</p>" for s in summaries]
    parts.append(f"<p class='note'>{html.escape(speed)}</p>")
    parts += ["<p>" + "<br>".join(html.escape(line.strip()) for line in note.splitlines()) + "</p>" for note in notes]
    if differences is not None:
        parts += _changes(names, differences)
    parts.append("<h2>Win share by seat position</h2>")
    parts.append(f"<img alt='win share by seat position' src='data:image/png;base64,{positions_figure(summaries)}'>")
    rows = [[f"seat {p + 1}", *(share_text(s.positions[p]) for s in summaries)]
            for p in range(len(summaries[0].positions))]
    rows.append(["chi-square against an even share",
                 *(f"{s.even_chi2:.2f}, p = {p_text(s.even_p)}" for s in summaries)])
    for i, (level, _) in enumerate(summaries[0].levels):
        rows.append([f"level {level}", *(share_text(s.levels[i][1]) for s in summaries)])
    parts.append(_table(["", *names], rows))
    parts.append("<h2>Game length, final points, the winner's margin</h2>")
    if differences is None:
        parts.append(f"<img alt='distributions' src='data:image/png;base64,{distributions_figure(summaries)}'>")
    else:  # two near-identical runs' histograms overlaid show nothing: their differences, each on its scale
        headline = differences[:2 * len(summaries[0].positions) + 4]
        parts.append(f"<img alt='differences' src='data:image/png;base64,"
                     f"{differences_figure(headline, names[0], names[1])}'>")
    rows = [["rounds", *(mean_text(s.rounds, 2) for s in summaries)],
            ["moves", *(mean_text(s.moves) for s in summaries)],
            ["final points", *(mean_text(s.score) for s in summaries)],
            ["winner's margin", *(mean_text(s.margin) for s in summaries)]]
    parts.append(_table(["mean, 95% interval", *names], rows))
    parts.append("<h2>Cards: how often each is bought, taken, played and displaced</h2>")
    parts.append(f"<img alt='card events' src='data:image/png;base64,{card_rates_figure(summaries)}'>")
    parts.append("<h2>Cards: owners against non-owners as rich in the same round (an association, not a "
                 "cause)</h2>" + EFFECTS_NOTE)
    for s in summaries:
        parts += _effects_part(s)
    for s in summaries:
        parts.append(f"<h2>Per card figures: {html.escape(s.ruleset)}</h2>")
        parts.append(_table(
            ["card", *(f"{e} / game" for e in EVENTS), "owned by", "owners win", "non-owners win",
             "win share adjusted for wealth (pp)", "points adjusted for wealth"],
            [[c.name, *(f"{r.mean:.3f}" for r in c.rates), f"{100 * c.owned.value:.1f}%", share_text(c.owners),
              share_text(c.others), effect_text(c.effect.wins, True), effect_text(c.effect.points, False)]
             for c in s.cards]))
    if differences is not None:
        parts.append("<h2>Every figure compared</h2>")
        parts.append(_table(["figure", names[0], names[1], "difference [95% interval] (relative)", "test", "p",
                             "p (corrected)"],
                            [[d.what, d.first, d.second, change_text(d), test_name(d), p_text(d.p), p_text(d.adjusted)]
                             for d in differences]))
    parts.append("</body></html>\n")
    return "".join(parts)
