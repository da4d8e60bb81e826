"""The lab's report as text for the terminal: one column of figures per ruleset, the significant differences."""

from __future__ import annotations

import math
from collections.abc import Sequence

from spbc.lab.stats import Mean, Share
from spbc.lab.summary import CardFigures, Difference, Summary
from spbc.lab.tally import EVENTS
from spbc.lab.wealth import Effect


def share_text(s: Share) -> str:
    low, high = s.interval
    if math.isnan(low):
        return "-"
    return f"{100 * s.value:5.1f}% [{100 * low:4.1f}, {100 * high:4.1f}]"


def mean_text(m: Mean, digits: int = 1) -> str:
    low, high = m.interval
    if math.isnan(m.mean):
        return "-"
    if math.isnan(low):
        return f"{m.mean:.{digits}f}"
    return f"{m.mean:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def p_text(p: float) -> str:
    return "-" if math.isnan(p) else "<0.0001" if p < 0.0001 else f"{p:.4f}"


def header(summary: Summary) -> str:
    done = f"{summary.games} games" + ("" if summary.games == summary.planned
                                      else f" (interrupted: {summary.games} of {summary.planned})")
    return f"{summary.ruleset}: {done}, seats {','.join(summary.seats)} rotated, on the {summary.mode}"


def render(summaries: list[Summary], differences: list[Difference] | None = None) -> str:
    """The whole report; with two summaries, their figures side by side and the differences."""
    lines = [header(s) for s in summaries]
    width = 28

    def row(label: str, cells: list[str]) -> None:
        lines.append(f"  {label:<{width}}" + "".join(f"{cell:<30}" for cell in cells).rstrip())

    def title(text: str) -> None:
        lines.append("")
        lines.append(text)
        if len(summaries) > 1:
            row("", [s.ruleset for s in summaries])

    title("Win share by seat position (95% interval); seat 1 starts the game")
    for p in range(len(summaries[0].positions)):
        row(f"seat {p + 1}", [share_text(s.positions[p]) for s in summaries])
    row("even share", [f"{100 / len(s.positions):5.1f}%" for s in summaries])
    row("chi-square against even", [f"{s.even_chi2:.2f}, p = {p_text(s.even_p)}"
                                    + (" (significant)" if s.even_p < 0.05 else "") for s in summaries])
    if summaries[0].levels:
        title("Win share by level")
        for i, (level, _) in enumerate(summaries[0].levels):
            row(level, [share_text(s.levels[i][1]) for s in summaries])

    title("Game length, points (mean, 95% interval)")
    row("rounds", [mean_text(s.rounds, 2) for s in summaries])
    row("moves", [mean_text(s.moves) for s in summaries])
    row("final points (every seat)", [mean_text(s.score) for s in summaries])
    for p in range(len(summaries[0].scores)):
        row(f"final points, seat {p + 1}", [mean_text(s.scores[p]) for s in summaries])
    row("winner's margin", [mean_text(s.margin) for s in summaries])

    lines.append("")
    lines.append("Per card: times per game bought, taken into hand, played from hand, displaced; share of seats "
                 "that owned it; win share of owners against non-owners (95% intervals; raw, not adjusted for wealth)")
    for k, s in enumerate(summaries):
        if len(summaries) > 1:
            lines.append(f"  {s.ruleset}")
        width = name_width(s.cards)
        lines.append(f"  {'card':<{width}}{'bought':>7}{'taken':>7}{'played':>7}{'displ.':>7}{'owned':>7}   "
                     f"{'owners win':<25}{'non-owners win':<25}")
        for card in s.cards:
            rates = "".join(f"{r.mean:7.3f}" for r in card.rates)
            lines.append(f"  {card.name:<{width}}{rates}{100 * card.owned.value:6.1f}%   "
                         f"{share_text(card.owners):<25}{share_text(card.others):<25}".rstrip())
    assert len(EVENTS) == 4  # the columns above
    lines += effect_lines(summaries)

    if differences is not None:
        lines += difference_lines(summaries, differences)
    return "\n".join(lines) + "\n"


def name_width(cards: Sequence[CardFigures]) -> int:
    """The card column's width: the longest name and a space, at least 32 (no name is cut)."""
    return max([32, *(len(c.name) + 1 for c in cards)])


#: Cards shown in the chart of adjusted effects: those owned in the most seat-games.
TOP_CARDS = 20


def top_cards(summary: Summary, count: int = TOP_CARDS) -> list[CardFigures]:
    """The cards owned in the most seat-games (with an adjusted effect), sorted by the adjusted difference in win
    share, largest first."""
    found = [c for c in summary.cards if not math.isnan(c.effect.wins.estimate)]
    found = sorted(found, key=lambda c: (-c.effect.owners, c.id))[:count]
    return sorted(found, key=lambda c: (-c.effect.wins.estimate, c.id))


def effect_text(e: Effect, share: bool) -> str:
    """An adjusted difference, "+9.4 [+5.1, +13.7]", a share's in percentage points."""
    if math.isnan(e.estimate):
        return "-"
    k = 100 if share else 1
    return f"{k * e.estimate:+.1f} [{k * e.low:+.1f}, {k * e.high:+.1f}]"


def effect_lines(summaries: list[Summary]) -> list[str]:
    """The cards owned most often, owners against non-owners as rich in the same round (spbc.lab.wealth)."""
    lines = ["", f"Per card, the {TOP_CARDS} cards owned most often: owners less non-owners, raw and adjusted for "
             "wealth (matched on the round and the seat's rubles when it was to move), 95% intervals; an "
             "association, not a cause"]
    for s in summaries:
        if len(summaries) > 1:
            lines.append(f"  {s.ruleset}")
        width = name_width(s.cards)
        lines.append(f"  {'card':<{width}}{'owners':>8}{'matched':>8}   {'win share (pp): raw, adjusted':<36}"
                     "final points: raw, adjusted")
        for c in top_cards(s):
            e = c.effect
            lines.append(f"  {c.name:<{width}}{e.owners:>8}{e.matched:>8}   "
                         f"{100 * e.wins.raw:+6.1f}  {effect_text(e.wins, True):<28}"
                         f"{e.points.raw:+6.1f}  {effect_text(e.points, False)}".rstrip())
    return lines


def change_text(d: Difference) -> str:
    """The difference with its 95% interval and relative change, "-1.2 [-1.9, -0.5] (-2.3%)", to two significant
    digits of the interval's half width; a share's in percentage points."""
    if math.isnan(d.estimate):
        return "-"
    k, unit = (100, " pp") if d.share else (1, "")
    half = k * (d.high - d.low) / 2
    places = min(4, max(0, 1 - math.floor(math.log10(half)))) if half > 0 and not math.isnan(half) else 2
    interval = "" if math.isnan(d.low) else f" [{k * d.low:+.{places}f}, {k * d.high:+.{places}f}]"
    relative = "" if math.isnan(d.relative) else f" ({100 * d.relative:+.1f}%)"
    return f"{k * d.estimate:+.{places}f}{unit}{interval}{relative}"


def test_name(d: Difference) -> str:
    if d.paired:
        return "paired, exact McNemar" if d.share else "paired t"
    return "unpaired"


def difference_lines(summaries: list[Summary], differences: list[Difference]) -> list[str]:
    """The headline differences (all of them) and the significant ones, each with its change and test."""
    first, second = summaries[0].ruleset, summaries[1].ruleset
    paired = [d for d in differences if d.paired]
    lines = ["", f"Differences, {second} minus {first}: estimate [95% interval] (relative change), p, Holm p"]
    if paired:
        lines.append(f"  paired game by game on the same seeds ({min(s.games for s in summaries)} pairs): "
                     "exact McNemar test for win shares, paired t test for means; per-card figures unpaired")
    for d in differences[:len(summaries[0].positions) * 2 + 4]:
        lines.append(f"  {d.what:<26} {d.first:>7} -> {d.second:<7} {change_text(d):<34} "
                     f"p = {p_text(d.p):<7} Holm p = {p_text(d.adjusted):<7} {test_name(d)}".rstrip())
    significant = [d for d in differences if d.significant]
    lines.append("")
    lines.append(f"Significant differences, {first} against {second} "
                 f"(Holm-corrected p < 0.05 over {len(differences)} tests): {len(significant)}")
    for d in significant:
        lines.append(f"  {d.what:<50} {d.first:>9} -> {d.second:<9} {change_text(d):<34} "
                     f"p = {p_text(d.adjusted)} ({test_name(d)})".rstrip())
    return lines
