"""The engines' random generator in Python: one definition for the twin and for every choice made outside
an engine (computer players, tests), so that all of them draw the numbers the compiled engine draws.

The generator's state is a one-element list ``x`` (the C engine's ``uint64_t*``), advanced in place. The
twin prints ``rng_next`` and ``rng_below`` as they are written here (:func:`python_source`); their C
translation is written once, with the same docstring (:func:`generator_doc`), in the contract's
spbc/contract/engine_api.pxd, which the compiled engines and every other .pyx of spbc cimport.

>>> x = [0]
>>> hex(rng_next(x)), rng_below(x, 6)
('0xe220a8397b1dcdaf', 2)
"""

from __future__ import annotations

import inspect

#: Every state and output of the generator is a 64-bit unsigned number.
MASK64 = 0xFFFFFFFFFFFFFFFF


def rng_next(x: list[int]) -> int:
    """SplitMix64 (Steele, Lea and Flood 2014): the state x advances by 0x9E3779B97F4A7C15 and is
    mixed into the output; rng_below(x, n) maps the top 32 bits onto 0..n-1 by multiplication.
    The same numbers come out of the compiled engine and its twin on every machine."""
    x[0] = (x[0] + 0x9E3779B97F4A7C15) & MASK64
    z = x[0]
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def rng_below(x: list[int], n: int) -> int:
    return ((rng_next(x) >> 32) * n) >> 32


def generator_doc(indent: str = "    ") -> str:
    """The docstring of rng_next with its continuation lines indented by ``indent``, as both engines
    print it."""
    return f"\n{indent}".join(inspect.cleandoc(rng_next.__doc__ or "").splitlines())


def python_source() -> str:
    """rng_next and rng_below as the twin prints them: their source here, signatures without annotations
    (the twin carries none)."""
    functions = []
    for function in (rng_next, rng_below):
        lines = inspect.getsource(function).rstrip("\n").split("\n")
        lines[0] = f"def {function.__name__}({', '.join(inspect.signature(function).parameters)}):"
        functions.append("\n".join(lines))
    return "\n\n\n".join(functions)
