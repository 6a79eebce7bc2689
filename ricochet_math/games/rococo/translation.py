"""How an abstract Rococo strategy reads a raise size its tree does not have (action translation).

The abstract tree offers a few raise sizes (``{1, 3, 10}``); the table allows every size 1 to 10.  Facing
an off-tree raise of ``x`` chips between two abstract sizes ``A < x < B``, the strategy must act as if the
raise had been one of them.

* :data:`NEAREST`: the nearest abstract size, ties to the smaller (2 as 1, 5 as 3, 7 as 10): what
  :func:`~ricochet_math.games.rococo.betting_game.translate_history` does.  Deterministic, hence
  exploitable by a raise just past a midpoint.
* :data:`PSEUDO_HARMONIC`: the randomised pseudo-harmonic mapping of Ganzfried and Sandholm (2013,
  "Action translation in extensive-form games with large action spaces", IJCAI): with the sizes as
  fractions of the pot ``a = A / P``, ``b = B / P``, ``y = x / P``, read ``x`` as ``A`` with probability
  ``f(y) = (b - y)(1 + a) / ((b - a)(1 + y))`` and as ``B`` otherwise.  ``f(a) = 1``, ``f(b) = 0``, and it
  is monotone; it is the mapping their axioms single out as the least exploitable in simple games.  ``P``
  here is the pot once the raiser has called (the carried chips and both stakes at the larger one): the
  pot the raise is a fraction of.

A size below the smallest abstract size or above the largest is read as that size (cannot happen at the
named abstractions: 1 and 10 are the table's limits and abstract sizes).
"""
from __future__ import annotations

from dataclasses import dataclass

from ricochet_math.errors import RicochetError

__all__ = ["Translation", "NEAREST", "PSEUDO_HARMONIC", "TRANSLATIONS", "translation", "pseudo_harmonic"]


def pseudo_harmonic(a: float, b: float, y: float) -> float:
    """Ganzfried and Sandholm's probability of reading ``y`` as ``a`` (pot fractions, ``a <= y <= b``)."""
    if not a <= y <= b or a == b:
        raise RicochetError(f"pseudo-harmonic mapping needs a <= y <= b and a < b, got {a}, {y}, {b}")
    return (b - y) * (1 + a) / ((b - a) * (1 + y))


@dataclass(frozen=True)
class Translation:
    """A reading of raise sizes: ``read(x, sizes, pot)`` gives ``((size, probability), ...)``, the abstract
    sizes ``x`` chips is read as, for a raiser whose call would make the pot ``pot`` chips."""

    name: str

    def read(self, x: int, sizes: tuple[int, ...], pot: float) -> tuple[tuple[int, float], ...]:
        if x in sizes:
            return ((x, 1.0),)
        below = [s for s in sizes if s < x]
        above = [s for s in sizes if s > x]
        if not below or not above:
            return ((below[-1] if below else above[0], 1.0),)
        lo, hi = below[-1], above[0]
        if self.name == "nearest":
            return ((min((lo, hi), key=lambda s: (abs(s - x), s)), 1.0),)
        f = pseudo_harmonic(lo / pot, hi / pot, x / pot)
        return ((lo, f), (hi, 1.0 - f))


NEAREST = Translation("nearest")
PSEUDO_HARMONIC = Translation("pseudo-harmonic")
#: the translations by name (``ricochet rococo equilibrium --translation NAME``)
TRANSLATIONS = {t.name: t for t in (NEAREST, PSEUDO_HARMONIC)}


def translation(spec) -> Translation:
    """A translation by name (``nearest``, ``pseudo-harmonic``) or the :class:`Translation` itself."""
    if isinstance(spec, Translation) and spec.name in TRANSLATIONS:
        return spec
    if isinstance(spec, str) and spec in TRANSLATIONS:
        return TRANSLATIONS[spec]
    raise RicochetError(f"unknown raise translation {spec!r:.40}; choose one of {', '.join(TRANSLATIONS)}")


def translated_profile(abstract, sigma, full, reading: Translation = NEAREST, level: int = 0):
    """The abstract tree's profile ``sigma`` played in ``full`` (a :class:`~ricochet_math.games.rococo.betting_game.BettingTree` with
    more raise sizes, the same cards) at ``level`` of the carried-pot recursion (its carried chips enter
    the pot a raise is a fraction of) with the other player's off-tree raises read through ``reading``.

    With a randomised reading the player's behaviour in ``full`` is a mixture over the readings of the
    raises she has faced; by Kuhn's theorem it is the behaviour strategy whose action probability at an
    information set is the mixture's, each reading weighted by its probability times her own earlier
    actions' probabilities under it (her realisation weight).  An information set no reading reaches
    with positive weight gets the first reading's strategy.  With :data:`NEAREST` it is
    :func:`~ricochet_math.games.rococo.equilibrium.translate_profile`.  (The range-against-range best
    response of :mod:`~ricochet_math.games.rococo.range_response` carries the readings as a hidden state instead: a second path.)"""
    import itertools

    import numpy as np

    sizes = abstract.game.sizes
    at, ft = abstract.tree, full.tree
    game = full.game
    carried = 2.0 * level * game.rules.ante
    out = np.zeros(ft.num_entries)
    for i, key in enumerate(ft.keys):
        head, tail = key.split("|")
        moves = tuple(m for m in tail.split(".") if m)
        me = len(moves) % 2
        options = []  # per move: ((abstract move, probability), ...)
        for j, m in enumerate(moves):
            if j % 2 != me and m.startswith("r"):
                pot = carried + 2 * max(game.stakes(moves[:j]))
                options.append(tuple((f"r{s}", w) for s, w in reading.read(int(m[1:]), sizes, pot) if w > 0))
            elif j % 2 == me and m.startswith("r") and int(m[1:]) not in sizes:
                # her own off-tree raise: a set she never reaches; read by the nearest size, weight 0
                options.append(((f"r{NEAREST.read(int(m[1:]), sizes, 0.0)[0][0]}", 0.0),))
            else:
                options.append(((m, 1.0),))
        acc, total, first = None, 0.0, None
        for choice in itertools.product(*options):
            amoves = tuple(c[0] for c in choice)
            w = float(np.prod([c[1] for c in choice]))
            for j in range(me, len(amoves), 2):  # her own earlier moves under this reading
                if w == 0:
                    break
                jj = at.index[f"{head}|{'.'.join(amoves[:j])}"]
                w *= sigma[at.offset[jj] + at.actions[jj].index(amoves[j])]
            jj = at.index.get(f"{head}|{'.'.join(amoves)}")
            if jj is None:
                raise RicochetError(f"the abstract strategy has no information set for {key!r}")
            strat = dict(zip(at.actions[jj], sigma[at.offset[jj]:at.offset[jj + 1]]))
            row = np.array([strat.get(a, 0.0) for a in ft.actions[i]])
            if first is None:
                first = row
            acc = w * row if acc is None else acc + w * row
            total += w
        out[ft.offset[i]:ft.offset[i + 1]] = acc / total if total > 0 else first
    return out
