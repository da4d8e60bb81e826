"""Paired tests for two rulesets played on the same seeds: game i of each run is dealt from the same seed with
the same seats, so the two runs are compared game by game, not as independent samples.

A figure's difference is the mean over the pairs of (second's value - first's value) in one game. For a
win share (0 or 1 a game) the test is McNemar's, exact: of the games in which exactly one of the two runs
had the seat win (the discordant pairs), a binomial test that either way is as likely. For a mean it is the
paired t test on the per-game differences. Both come with the difference's 95% interval (Student's t on the
per-game differences) and its change relative to the first run's figure. Every sum is of whole numbers, so
the figures do not depend on the order in which the games were played.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


#: Up to this many discordant pairs McNemar's binomial tail is summed in whole numbers; past it (a sum that
#: grows as the square of the pairs) it is the incomplete beta function, to about 1e-12.
EXACT_SUM = 2000


@dataclass(frozen=True)
class Paired:
    """n pairs of per-game values, by their whole-number sums: the first run's values (its mean is the base of
    the relative change), and the differences (second - first) with the sum of their squares; for a share,
    ``discordant`` is (games only the first won, games only the second won), else None."""

    n: int
    first_total: int
    total: int  # sum of the differences
    squares: int  # sum of the differences squared
    discordant: tuple[int, int] | None = None
    scale: int = 1  # each value is a sum of ``scale`` values (every seat's points): the figures divide by it

    @property
    def estimate(self) -> float:
        return self.total / self.n / self.scale if self.n else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        if self.n < 2:
            return math.nan, math.nan
        half = t_quantile(0.975, self.n - 1) * math.sqrt(self._variance() / self.n) / self.scale
        return self.estimate - half, self.estimate + half

    @property
    def relative(self) -> float:
        """The difference as a share of the first run's figure (nan when that is 0)."""
        return self.total / self.first_total if self.first_total else math.nan

    @property
    def p(self) -> float:
        if self.discordant is not None:
            return mcnemar_exact(*self.discordant)
        return paired_t(self.n, self.total, self.squares)

    def _variance(self) -> float:
        return max(0.0, (self.squares - self.total * self.total / self.n) / (self.n - 1))


def mcnemar_exact(only_first: int, only_second: int) -> float:
    """The two-sided p-value of McNemar's exact test: P(a binomial(b + c, 1/2) is as far from its middle).

    >>> mcnemar_exact(1, 9)  # 2 * (1 + 10) / 1024
    0.021484375
    """
    m, low = only_first + only_second, min(only_first, only_second)
    if m == 0 or 2 * low == m:
        return 1.0
    if m <= EXACT_SUM:  # whole numbers: exact
        return min(1.0, 2 * sum(math.comb(m, k) for k in range(low + 1)) / (1 << m))
    return min(1.0, 2 * _beta_regularized(0.5, m - low, low + 1))  # P(X <= low) = I_1/2(m - low, low + 1)


def paired_t(n: int, total: int, squares: int) -> float:
    """The two-sided p-value of the paired t test, from the n differences' sum and sum of squares."""
    if n < 2:
        return math.nan
    variance = (squares - total * total / n) / (n - 1)
    if variance <= 0:
        return 1.0 if total == 0 else 0.0
    return t_two_sided(total / n / math.sqrt(variance / n), n - 1)


def t_two_sided(t: float, df: int) -> float:
    """P(|T| >= |t|) for T Student's t with df degrees of freedom: I_{df / (df + t^2)}(df / 2, 1 / 2)."""
    return _beta_regularized(df / (df + t * t), df / 2, 0.5)


def t_quantile(q: float, df: int) -> float:
    """The t with P(T <= t) = q, for q in (0.5, 1), by bisection on :func:`t_two_sided`."""
    target, low, high = 2 * (1 - q), 0.0, 1.0
    while t_two_sided(high, df) > target:
        high *= 2
    for _ in range(200):
        middle = (low + high) / 2
        if t_two_sided(middle, df) > target:
            low = middle
        else:
            high = middle
        if high - low < 1e-12:
            break
    return (low + high) / 2


def _beta_regularized(x: float, a: float, b: float) -> float:
    """I_x(a, b), the regularized incomplete beta function (a continued fraction, Lentz's method)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x))
    if x > (a + 1) / (a + b + 2):
        return 1.0 - front * _beta_fraction(1 - x, b, a) / b
    return front * _beta_fraction(x, a, b) / a


def _beta_fraction(x: float, a: float, b: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 10000):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return result
