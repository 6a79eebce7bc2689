"""Simulating the home game, and the fairness claim: win rate and EV by seat, by order of play, by starting card.

:func:`simulate` plays seeded batches on the numba kernel through the game-neutral
driver :func:`~ricochet_math.solvers.batches.run_batches` and keeps only **sums**
(so runs merge and the same seed gives the same digits for any number of workers).
:func:`simulate_games` does the same from the readable engine (the optimal strategy,
and the tests' second path).

**The test of equal EV.**  The seats' nets in one game are dependent (they sum to
zero: the pot is shared out), so the seat means are compared with a **Wald test on
their covariance**: the ``N - 1`` contrasts ``net_i - net_N`` have a sample mean
``d`` and covariance ``C`` (estimated from the per-game cross products the run sums),
and ``W = d' (C / G)^-1 d`` is chi-square with ``N - 1`` degrees of freedom when the
seats' EVs are equal.  The same test is applied to the order of play.

Seats are exchangeable under symmetric strategies: the deck is a uniform shuffle, the
dealing order only decides which uniform card a seat gets, and the action follows the
cards, not the seats.  So every seat's EV is *exactly* zero; the simulation and its
test are a check of the engine, not a discovery.  The order of play (who holds the
lowest card and acts first) is where a difference can live, and does.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ricochet_math.arguments import check_instance, check_seed, check_whole
from ricochet_math.errors import RicochetError, quote
from ricochet_math.evaluator.cards import RANKS
from ricochet_math.games.home.deal import batch_decks
from ricochet_math.games.home.engine import STATUS_NAMES, play_deck
from ricochet_math.games.home.kernel import Records, play_batch
from ricochet_math.games.home.rules import HomeRules
from ricochet_math.games.home.strategies import HomeStrategy, parse_strategies
from ricochet_math.solvers.batches import run_batches
from ricochet_math.solvers.game_result import GameResult
from ricochet_math.solvers.linear import gram, wald_statistic
from ricochet_math.solvers.stats import Estimate, mean_ci

__all__ = ["HomeSimulation", "EqualityTest", "simulate", "simulate_games", "record_sums", "records_of_games",
           "fairness_table", "contrast_table"]


@dataclass(frozen=True)
class EqualityTest:
    """A Wald test that ``k`` means are equal: statistic ``W``, ``df = k - 1``, its chi-square p-value,
    and the largest gap between two means (chips per game)."""

    what: str
    statistic: float
    df: int
    p_value: float
    largest_gap: float

    def summary(self) -> str:
        return (f"Equal EV by {self.what} (Wald): W = {self.statistic:.2f}, {self.df} df, p = {self.p_value:.3g}; "
                f"largest gap {self.largest_gap:.3f} chips/game")


def _wald(total: np.ndarray, cross: np.ndarray, n: int, what: str) -> EqualityTest:
    k = len(total)
    mean = total / n
    cov = (cross / n - np.outer(mean, mean)) * n / (n - 1)
    # the k - 1 differences from the last mean, and their covariance, elementwise in a fixed order
    d = mean[:-1] - mean[-1]
    c = (cov[:-1, :-1] - cov[:-1, [-1]] - cov[[-1], :-1] + cov[-1, -1]) / n
    w = wald_statistic(d, c)
    # lazy: scipy.stats adds about 0.6 s to `import ricochet_math` (and to every `ricochet` command)
    from scipy.stats import chi2

    return EqualityTest(what, w, k - 1, float(chi2.sf(w, k - 1)), float(mean.max() - mean.min()))


@dataclass(frozen=True, repr=False)
class HomeSimulation(GameResult):
    """A simulated run: the sums of ``games`` games (``sums[name]``), with the rules, strategies and seeding
    (the game contract: :class:`~ricochet_math.solvers.game_result.GameResult`)."""

    SAME = ("strategies", "engine")

    rules: HomeRules
    strategies: tuple[str, ...]
    games: int
    seed: int
    batch_size: int
    run_time: float
    sums: Mapping[str, np.ndarray] = field(repr=False)
    engine: str = "kernel"
    merged_seeds: tuple[int, ...] = ()

    # ---------------------------------------------------------- tables
    def _rows(self, prefix: str, counts) -> pd.DataFrame:
        s = self.sums
        rows = []
        for i in range(len(counts)):
            n = float(counts[i])
            ev = mean_ci(s[f"{prefix}_net"][i], s[f"{prefix}_net_sq"][i], n)
            win = mean_ci(s[f"{prefix}_share"][i], s[f"{prefix}_share_sq"][i], n).clipped()
            rows.append({"games": int(n), "win_rate": win.estimate, "win_rate_low": win.low,
                         "win_rate_high": win.high, "ev": ev.estimate, "ev_low": ev.low, "ev_high": ev.high,
                         "return_per_ante": 1.0 + ev.estimate})
        return pd.DataFrame(rows)

    def by_seat(self) -> pd.DataFrame:
        """Win rate (pot share) and EV (net chips per game) by seat, with 95% intervals, and each seat's
        cards bought, decisions and how its games ended."""
        n = self.rules.players
        frame = self._rows("seat", [self.games] * n)
        frame.insert(0, "seat", np.arange(1, n + 1))
        frame.insert(1, "strategy", list(self.strategies))
        frame["cards_bought"] = self.sums["seat_bought"] / self.games
        frame["decisions"] = self.sums["seat_turns"] / self.games
        for j, name in enumerate(STATUS_NAMES):
            frame[f"{name}_rate"] = self.sums["seat_status"][:, j] / self.games
        return frame

    def by_order(self) -> pd.DataFrame:
        """The same by order of play at the deal (1 = the lowest hand, which acts first)."""
        n = self.rules.players
        frame = self._rows("order", [self.games] * n)
        frame.insert(0, "order", np.arange(1, n + 1))
        frame["cards_bought"] = self.sums["order_bought"] / self.games
        frame["fold_rate"] = self.sums["order_folds"] / self.games
        return frame

    def by_start(self) -> pd.DataFrame:
        """The same by the rank of the (highest) starting card (a joker above an ace); rows with no games are
        left out."""
        counts = self.sums["card_count"]
        labels = list(RANKS) + ["joker"]
        frame = self._rows("card", counts)
        frame.insert(0, "start_card", labels)
        return frame[frame["games"] > 0].reset_index(drop=True)

    def overall(self) -> dict[str, Estimate]:
        s, g = self.sums, self.games
        return {"pot": mean_ci(s["pot"][0], s["pot_sq"][0], g),
                "decisions": mean_ci(s["actions"][0], s["actions_sq"][0], g),
                "cards_bought": mean_ci(s["bought"][0], s["bought_sq"][0], g),
                "fold_rate": mean_ci(s["folds"][0], s["folds"][0], g * self.rules.players).clipped(),
                "split_rate": mean_ci(s["splits"][0], s["splits"][0], g).clipped()}

    def seat_test(self) -> EqualityTest:
        """Wald test of equal EV across seats (module docstring)."""
        return _wald(self.sums["seat_net"], self.sums["seat_cross"], self.games, "seat")

    def order_test(self) -> EqualityTest:
        """Wald test of equal EV across positions in the order of play."""
        return _wald(self.sums["order_net"], self.sums["order_cross"], self.games, "order of play")

    def to_frame(self) -> pd.DataFrame:
        return self.by_seat()

    def summary(self) -> dict[str, object]:
        """Every figure by name: the run, the whole-game figures (:class:`~ricochet_math.solvers.stats.Estimate`),
        each seat's (from 1) win rate and EV, and the Wald tests."""
        o = self.overall()
        s, g, seats = self.sums, float(self.games), {}
        for i in range(self.rules.players):
            seats[f"seat {i + 1} ev"] = mean_ci(s["seat_net"][i], s["seat_net_sq"][i], g)
            seats[f"seat {i + 1} win_rate"] = mean_ci(s["seat_share"][i], s["seat_share_sq"][i], g).clipped()
        return {"rules": self.rules.name, "rules_sha256": self.rules.sha256,
                "strategies": ", ".join(sorted(set(self.strategies))), "games": self.games,
                "seed": self.seed if not self.merged_seeds else list(self.seeds), "run_time": self.run_time,
                **{k: v for k, v in o.items()}, **seats,
                "seat_test": self.seat_test().summary(), "order_test": self.order_test().summary()}

    def describe(self) -> str:
        o = self.overall()
        seeds = f"seed {self.seed}" if not self.merged_seeds else f"seeds {', '.join(map(str, self.seeds))}"
        lines = [f"{self.rules.summary()}; {self.games:,} games ({self.engine}), {seeds}, {self.run_time:.1f} s",
                 f"pot {o['pot'].estimate:.3f} ± {o['pot'].half_width:.3f} chips, cards bought "
                 f"{o['cards_bought'].estimate:.3f} ± {o['cards_bought'].half_width:.3f} a game"]
        for row in self.by_seat().itertuples():
            lines.append(f"seat {row.seat} ({row.strategy}): win {100 * row.win_rate:.2f} ± "
                         f"{50 * (row.win_rate_high - row.win_rate_low):.2f} %, EV {row.ev:+.3f} ± "
                         f"{(row.ev_high - row.ev_low) / 2:.3f} chips")
        lines += [self.seat_test().summary(), self.order_test().summary()]
        return "\n".join(lines)


def record_sums(rec: Records, players: int) -> dict[str, np.ndarray]:
    """The sums a batch of records leaves (everything :class:`HomeSimulation` reads)."""
    n = players
    g = len(rec.pot)
    net, share = rec.net, rec.share
    order = rec.order.astype(np.int64)
    rows = np.arange(g)[:, None]
    by_order_net = np.zeros((g, n))
    by_order_share = np.zeros((g, n))
    by_order_bought = np.zeros((g, n))
    by_order_fold = np.zeros((g, n))
    by_order_net[rows, order] = net
    by_order_share[rows, order] = share
    by_order_bought[rows, order] = rec.bought
    by_order_fold[rows, order] = rec.status == 2
    # the starting card: the higher of the starting cards (cards in deal order: the first start_cards)
    start = rec.cards[:, :, :1].astype(np.int64) >> 2
    return {  # seat_cross by gram: summed in a fixed order, the same digits on any CPU
        "seat_net": net.sum(0), "seat_net_sq": (net * net).sum(0),
        "seat_share": share.sum(0), "seat_share_sq": (share * share).sum(0),
        "seat_cross": gram(net), "seat_bought": rec.bought.sum(0).astype(np.float64),
        "seat_turns": rec.turns.sum(0).astype(np.float64),
        "seat_status": np.stack([(rec.status == j).sum(0) for j in range(len(STATUS_NAMES))], axis=1).astype(
            np.float64),
        "order_net": by_order_net.sum(0), "order_net_sq": (by_order_net ** 2).sum(0),
        "order_share": by_order_share.sum(0), "order_share_sq": (by_order_share ** 2).sum(0),
        "order_cross": by_order_net.T @ by_order_net, "order_bought": by_order_bought.sum(0),
        "order_folds": by_order_fold.sum(0),
        "card_count": np.bincount(start.ravel(), minlength=14).astype(np.float64),
        "card_net": np.bincount(start.ravel(), weights=net.ravel(), minlength=14),
        "card_net_sq": np.bincount(start.ravel(), weights=(net * net).ravel(), minlength=14),
        "card_share": np.bincount(start.ravel(), weights=share.ravel(), minlength=14),
        "card_share_sq": np.bincount(start.ravel(), weights=(share * share).ravel(), minlength=14),
        "pot": np.array([rec.pot.sum(dtype=np.float64)]),
        "pot_sq": np.array([(rec.pot.astype(np.float64) ** 2).sum()]),
        "actions": np.array([rec.actions.sum(dtype=np.float64)]),
        "actions_sq": np.array([(rec.actions.astype(np.float64) ** 2).sum()]),
        "bought": np.array([rec.bought.sum(dtype=np.float64)]),
        "bought_sq": np.array([(rec.bought.sum(1).astype(np.float64) ** 2).sum()]),
        "folds": np.array([(rec.status == 2).sum(dtype=np.float64)]),
        "splits": np.array([(rec.status == 1).any(axis=1).sum(dtype=np.float64)]),
    }


def _start_cards_first(rec: Records, start_cards: int) -> Records:
    """Records whose card slot 0 holds the highest-ranked starting card (what ``record_sums`` reads)."""
    if start_cards == 1:
        return rec
    cards = rec.cards.copy()
    hi = np.maximum(cards[:, :, 0] >> 2, cards[:, :, 1] >> 2)
    cards[:, :, 0] = (hi << 2).astype(np.int8)
    return Records(**{**rec.__dict__, "cards": cards})


def simulate(rules: HomeRules | None = None, strategies="pot-odds", games: int = 100_000, seed: int | None = None, *,
             workers: int | None = None, executor=None, progress: bool = False,
             batch_size: int = 10_000) -> HomeSimulation:
    """Simulate ``games`` games on the numba kernel (one strategy name for every seat, or one per seat).
    ``seed``: None for fresh entropy (recorded); ``workers`` / ``executor`` (a ``LocalExecutor``) do not
    change a digit; ``progress``: a progress bar on stderr."""
    rules = rules or HomeRules()
    strategies = _strategies(strategies, rules)
    games = check_whole(games, "games")
    seed = check_seed(seed)

    def play(seed_sequence: np.random.SeedSequence, length: int):
        decks, seeds = batch_decks(seed_sequence, length, rules.deck_size)
        return record_sums(_start_cards_first(play_batch(rules, strategies, decks, seeds), rules.start_cards),
                           rules.players)

    run = run_batches(play, games, seed, batch_size=batch_size, workers=workers, executor=executor,
                      progress=progress, desc="home game, Monte Carlo")
    return HomeSimulation(rules, tuple(s.name for s in strategies), games, run.seed, batch_size, run.run_time,
                          run.sums)


def records_of_games(records, players: int) -> Records:
    """The kernel's :class:`Records` of readable-engine games (to sum them the same way)."""
    out = Records.empty(len(records), players)
    for g, r in enumerate(records):
        out.pot[g], out.actions[g] = r.pot, r.actions
        for s in r.seats:
            out.net[g, s.seat], out.share[g, s.seat] = s.net, s.share
            out.order[g, s.seat], out.status[g, s.seat] = s.order, s.status
            out.bought[g, s.seat], out.received[g, s.seat] = s.bought, s.received
            out.turns[g, s.seat], out.paid[g, s.seat] = s.turns, s.paid
            out.cards[g, s.seat, :len(s.cards)] = s.cards
    return out


def simulate_games(rules: HomeRules, strategies="optimal", games: int = 1_000, seed: int | None = None, *,
                   batch_size: int = 1_000, workers: int | None = 1) -> HomeSimulation:
    """Simulate on the readable engine (any strategy, the optimal one included): the same deals and sums
    as :func:`simulate` for the same seed and batch size."""
    strategies = _strategies(strategies, rules, kernel=False)
    games = check_whole(games, "games", high=10**6)  # the readable engine: about a game a millisecond at best
    seed = check_seed(seed)

    def play(seed_sequence: np.random.SeedSequence, length: int):
        decks, seeds = batch_decks(seed_sequence, length, rules.deck_size)
        recs = [play_deck(rules, strategies, decks[g], int(seeds[g])) for g in range(length)]
        return record_sums(_start_cards_first(records_of_games(recs, rules.players), rules.start_cards),
                           rules.players)

    run = run_batches(play, games, seed, batch_size=batch_size, workers=workers)
    return HomeSimulation(rules, tuple(s.name for s in strategies), games, run.seed, batch_size, run.run_time,
                          run.sums, engine="readable")


def _strategies(strategies, rules: HomeRules, kernel: bool = True) -> tuple[HomeStrategy, ...]:
    check_instance(rules, HomeRules, "rules")  # first: every public function here starts with it
    if isinstance(strategies, HomeStrategy):
        strategies = [strategies]
    if not isinstance(strategies, (str, list, tuple)):
        raise RicochetError(f"strategies must be a strategy name or one per seat, got {quote(strategies)}")
    if not isinstance(strategies, str) and all(isinstance(s, HomeStrategy) for s in strategies):
        strategies = tuple(strategies) * (rules.players if len(strategies) == 1 else 1)
        if len(strategies) != rules.players:
            return parse_strategies([s.name for s in strategies], rules.players)
        return tuple(strategies)
    return parse_strategies(strategies, rules.players)


def fairness_table(rules: HomeRules, strategies="pot-odds", players=range(2, 9), games: int = 100_000,
                   seed: int = 2026, **kwargs) -> pd.DataFrame:
    """EV by order of play and by seat for each player count, with the Wald tests (one row per position)."""
    rows = []
    for n in players:
        sim = simulate(rules.with_players(n), strategies, games, seed, **kwargs)
        st, ot = sim.seat_test(), sim.order_test()
        seat, order = sim.by_seat(), sim.by_order()
        for i in range(n):
            rows.append({"players": n, "position": i + 1,
                         "ev_by_order": order.ev[i], "ev_by_order_low": order.ev_low[i],
                         "ev_by_order_high": order.ev_high[i], "win_by_order": order.win_rate[i],
                         "ev_by_seat": seat.ev[i], "ev_by_seat_low": seat.ev_low[i], "ev_by_seat_high": seat.ev_high[i],
                         "seat_p_value": st.p_value, "order_p_value": ot.p_value})
    return pd.DataFrame(rows)


def contrast_table(home: pd.DataFrame, casino_csv) -> pd.DataFrame:
    """Casino Ricochet's return per ante by position under perfect play next to the home game's by order of
    play (``home``: :func:`fairness_table`'s frame).  Both are returns per one-chip ante: casino
    ``rtp_initial``, home ``1 + EV``."""
    casino = pd.read_csv(casino_csv)[["players", "position", "rtp_initial", "rtp_initial_low", "rtp_initial_high"]]
    casino = casino.rename(columns={"rtp_initial": "casino_return", "rtp_initial_low": "casino_return_low",
                                    "rtp_initial_high": "casino_return_high"})
    h = home[["players", "position", "ev_by_order", "ev_by_order_low", "ev_by_order_high",
              "ev_by_seat", "ev_by_seat_low", "ev_by_seat_high"]].copy()
    for col in list(h.columns[2:]):
        h[col.replace("ev_", "home_return_")] = 1.0 + h.pop(col)
    return casino.merge(h, on=["players", "position"], how="outer").sort_values(["players", "position"]) \
        .reset_index(drop=True)
