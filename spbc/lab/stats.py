"""The statistics of the lab, in plain Python: intervals for shares and means, and tests with their p-values.

Every figure is computed from whole-number counts (spbc.lab.tally), so a report is the same number for number
however the games were spread over processes. Large-sample methods throughout (a lab run has thousands of
games): Wilson's interval for a share, the normal approximation for a mean and for differences, Pearson's
chi-square for an even share, and Holm's step-down correction when many differences are tested at once.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

#: The two-sided 95% quantile of the normal distribution.
Z95 = 1.959963984540054
#: The level below which a (corrected) p-value counts as significant.
ALPHA = 0.05


@dataclass(frozen=True)
class Share:
    """k of n, with its 95% Wilson interval."""

    k: int
    n: int

    @property
    def value(self) -> float:
        return self.k / self.n if self.n else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.k, self.n)


@dataclass(frozen=True)
class Mean:
    """The mean of n values with their variance, and its 95% interval."""

    n: int
    mean: float
    variance: float  # of one value (n - 1 in the denominator)

    @property
    def interval(self) -> tuple[float, float]:
        half = Z95 * math.sqrt(self.variance / self.n) if self.n > 1 else math.nan
        return self.mean - half, self.mean + half


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a share k/n (nan, nan for n = 0)."""
    if n <= 0:
        return math.nan, math.nan
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # it holds p in exact arithmetic; at p = 0 or 1 rounding may leave p a hair outside, so hold it
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def mean_of(counts: Counter[int]) -> Mean:
    """The mean and variance of values given as value -> how often."""
    n = sum(counts.values())
    if n == 0:
        return Mean(0, math.nan, math.nan)
    total = sum(value * times for value, times in counts.items())
    squares = sum(value * value * times for value, times in counts.items())
    return _mean(n, total, squares)


def _mean(n: int, total: int, squares: int) -> Mean:
    mean = total / n
    variance = (squares - total * total / n) / (n - 1) if n > 1 else math.nan
    return Mean(n, mean, max(variance, 0.0))


def mean_of_sums(n: int, total: int, squares: int) -> Mean:
    """The mean and variance of n values given by their sum and the sum of their squares."""
    return _mean(n, total, squares) if n else Mean(0, math.nan, math.nan)


def normal_two_sided(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z."""
    return math.erfc(abs(z) / math.sqrt(2))


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with df degrees of freedom (df a whole number, closed forms)."""
    if df < 1:
        raise ValueError(f"a chi-square test needs at least 1 degree of freedom, not {df}")
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    total = math.erfc(math.sqrt(half))
    for i in range(1, (df - 1) // 2 + 1):
        total += math.exp((i - 0.5) * math.log(half) - half - math.lgamma(i + 0.5))
    return min(1.0, total)


def even_share_test(wins: Sequence[int]) -> tuple[float, float]:
    """Pearson's chi-square statistic and p-value for wins spread evenly over the positions."""
    total = sum(wins)
    if total == 0 or len(wins) < 2:
        return 0.0, 1.0
    expected = total / len(wins)
    statistic = sum((w - expected) ** 2 / expected for w in wins)
    return statistic, chi2_sf(statistic, len(wins) - 1)


def share_difference(a: Share, b: Share) -> float:
    """The p-value of the two-sided test that two shares are equal (pooled normal approximation)."""
    if a.n == 0 or b.n == 0:
        return math.nan
    pooled = (a.k + b.k) / (a.n + b.n)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / a.n + 1 / b.n))
    if spread == 0:
        return 1.0
    return normal_two_sided((a.value - b.value) / spread)


def mean_difference(a: Mean, b: Mean) -> float:
    """The p-value of the two-sided test that two means are equal (Welch's statistic, read as normal)."""
    if a.n < 2 or b.n < 2:
        return math.nan
    spread = math.sqrt(a.variance / a.n + b.variance / b.n)
    if spread == 0:
        return 1.0 if a.mean == b.mean else 0.0
    return normal_two_sided((a.mean - b.mean) / spread)


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (the family-wise error held at the level for all of them at
    once); a nan p-value (a test that could not be made) stays nan and does not count."""
    order = sorted((p, i) for i, p in enumerate(pvalues) if not math.isnan(p))
    adjusted = [math.nan] * len(pvalues)
    running = 0.0
    for rank, (p, i) in enumerate(order):
        running = max(running, min(1.0, (len(order) - rank) * p))
        adjusted[i] = running
    return adjusted
