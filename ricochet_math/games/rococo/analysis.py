"""Rococo Poker analyses by simulation: policies played against each other, the value of the blind option,
a best-response search among the policies, and the cost of the draw solver's independence model.

Every simulation runs through :func:`ricochet_math.solvers.batches.run_batches` (seeded batches added
in order: the same seed and size give the same digits for any number of workers).  The unit is a
**pot** (a game and the all-check games carried into it, :mod:`~ricochet_math.games.rococo.kernel`); figures are each seat's
mean net result per pot in units of the ante, with 95% intervals.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from ricochet_math.arguments import check_finite, check_instance, check_seed, check_whole
from ricochet_math.errors import StrategyError, quote
from ricochet_math.solvers.batches import MAX_BATCH, MAX_GAMES, MAX_WORKERS, run_batches
from ricochet_math.solvers.game_result import GameResult
from ricochet_math.solvers.stats import Estimate, mean_ci
from ricochet_math.games.rococo.betting import BettingPolicy, policy
from ricochet_math.games.rococo.kernel import SUM_FIELDS, batch_player
from ricochet_math.games.rococo.rules import MAX_PLAYERS, RococoRules

__all__ = ["RococoResult", "simulate", "blind_value", "BlindValue", "best_response", "BestResponse",
           "BestResponseConfirmation", "CONFIRM_SEED_OFFSET", "removal_check"]

#: a best response picked on seed s is played again on seed s + CONFIRM_SEED_OFFSET, which the selection never
#: used (as the Ring analysis does)
CONFIRM_SEED_OFFSET = 1000


@dataclass(frozen=True, repr=False)
class RococoResult(GameResult):
    """Each seat's mean net per pot (``net[s]``, an :class:`Estimate`), the game counters and the raw
    ``sums`` of the kernel's batches (the game contract: :class:`~ricochet_math.solvers.game_result.GameResult`;
    the unit is a pot)."""

    COUNT = "pots"
    SAME = ("strategies",)

    rules: RococoRules
    policies: tuple
    pots: int
    seed: int
    batch_size: int
    run_time: float
    sums: Mapping[str, np.ndarray] = field(repr=False)
    merged_seeds: tuple[int, ...] = ()

    @property
    def strategies(self) -> tuple[str, ...]:
        """The policies' names, one per seat."""
        return tuple(p.name for p in self.policies)

    @property
    def net(self) -> tuple[Estimate, ...]:
        """Each seat's mean net result per pot (antes), with its 95% interval."""
        s = self.sums
        return tuple(mean_ci(float(s["net"][i]), float(s["net_sq"][i]), self.pots) for i in range(len(self.policies)))

    @property
    def counts(self) -> dict[str, int]:
        """The kernel's counters by name (:data:`~.kernel.SUM_FIELDS`)."""
        return {k: int(v) for k, v in zip(SUM_FIELDS, self.sums["counts"])}

    def to_frame(self) -> pd.DataFrame:
        """One row per seat (from 1): the policy and the mean net per pot with its 95% interval."""
        return pd.DataFrame({
            "seat": range(1, len(self.net) + 1),
            "policy": [p.name for p in self.policies],
            "net_per_pot": [e.estimate for e in self.net],
            "net_per_pot_low": [e.low for e in self.net],
            "net_per_pot_high": [e.high for e in self.net],
        })

    def rates(self) -> pd.DataFrame:
        """Games per pot and the share of games that carried, were blind, were shown down."""
        c, g = self.counts, self.counts["games"]
        rows = [("games per pot", c["games"] / self.pots), ("carried games", c["carries"] / g),
                ("blind games", c["blinds"] / g), ("pots won at showdown", c["showdowns"] / self.pots),
                ("pots won by folds", c["fold_wins"] / self.pots),
                ("forced showdowns (carry limit)", c["forced"] / self.pots)]
        return pd.DataFrame(rows, columns=["figure", "value"])

    def summary(self) -> dict[str, object]:
        """Every figure by name: the run, each seat's (from 1) net per pot
        (:class:`~ricochet_math.solvers.stats.Estimate`), then the rates of :meth:`rates`."""
        out: dict[str, object] = {"rules": self.rules.describe(), "rules_sha256": self.rules.sha256,
                                  "strategies": list(self.strategies), "pots": self.pots,
                                  "seed": self.seed if not self.merged_seeds else list(self.seeds),
                                  "batch_size": self.batch_size, "run_time": self.run_time}
        for s, e in enumerate(self.net):
            out[f"seat {s + 1} net_per_pot"] = e
        out.update(dict(self.rates().itertuples(index=False)))
        return out

    def describe(self) -> str:
        seeds = f"seed {self.seed}" if not self.merged_seeds else f"seeds {', '.join(map(str, self.seeds))}"
        lines = [f"Rococo Poker, {self.rules.players} players, {self.pots:,} pots ({seeds}, "
                 f"batch {self.batch_size:,}), {self.run_time:.1f} s"]
        for s, (p, e) in enumerate(zip(self.policies, self.net)):
            lines.append(f"  seat {s + 1} {p.name:>10}: {e.estimate:+.4f} ± {e.half_width:.4f} per pot")
        return "\n".join(lines)


def _policies(policies) -> tuple:
    """One policy per seat, 2 to 6 of them (names or BettingPolicy), checked before any pot is played."""
    if isinstance(policies, (str, bytes)) or not hasattr(policies, "__iter__"):
        raise StrategyError(f"policies must be a list of one policy per seat, got {quote(policies)}")
    ps = tuple(policy(p) for p in policies)
    if not 2 <= len(ps) <= MAX_PLAYERS:
        raise StrategyError(f"a Rococo table seats 2 to {MAX_PLAYERS} players, got {len(ps)} policies")
    return ps


def simulate(rules: RococoRules | None = None, strategies=("standard", "standard"), pots: int = 100_000,
             seed: int | None = None, *, workers: int | None = None, executor=None, progress: bool = False,
             batch_size: int = 20_000) -> RococoResult:
    """Play ``pots`` pots (a pot: games until one is won) with one policy per seat (names or
    :class:`BettingPolicy`); the rules' player count follows the policies.  ``seed``: None for fresh
    entropy (recorded); ``workers`` / ``executor`` (a ``LocalExecutor``) do not change a digit."""
    ps = _policies(strategies)
    rules = check_instance(rules, RococoRules, "rules", allow_none=True) or RococoRules(players=len(ps))
    if rules.players != len(ps):
        rules = replace(rules, players=len(ps))
    pots = check_whole(pots, "pots", high=MAX_GAMES)
    # run_batches checks these too, but only after batch_player has loaded the draw solutions (seconds)
    seed = check_seed(seed)
    check_whole(batch_size, "batch_size", high=MAX_BATCH)
    if workers is not None:
        check_whole(workers, "workers", high=MAX_WORKERS)
    run = run_batches(batch_player(rules, ps), pots, seed, batch_size=batch_size, workers=workers, executor=executor,
                      progress=progress, unit="pots", desc="Rococo Poker, Monte Carlo")
    return RococoResult(rules, ps, pots, run.seed, run.batch_size, run.run_time, run.sums)


@dataclass(frozen=True)
class BlindValue:
    """Seat 0's mean net per pot with and without declaring blind games (the others unchanged)."""

    with_blind: RococoResult
    without: RococoResult

    @property
    def value(self) -> Estimate:
        a, b = self.with_blind.net[0], self.without.net[0]
        se = float(np.hypot(a.std_error, b.std_error))  # independent-run bound
        d = a.estimate - b.estimate
        return Estimate(d, se, d - 1.96 * se, d + 1.96 * se)

    def to_frame(self) -> pd.DataFrame:
        v = self.value
        return pd.DataFrame([{"with_blind": self.with_blind.net[0].estimate, "without": self.without.net[0].estimate,
                              "value": v.estimate, "value_low": v.low, "value_high": v.high}])

    def summary(self) -> str:
        v = self.value
        return (f"value of the blind option to seat 1 ({self.with_blind.policies[0].name}): "
                f"{v.estimate:+.4f} ± {v.half_width:.4f} per pot")


def blind_value(me="standard", others="standard", players: int = 2, pots: int = 100_000, seed: int | None = 2026,
                *, rate: float = 1.0, amount: int = 1, rules: RococoRules | None = None) -> BlindValue:
    """Seat 0 playing ``me`` with ``blind_rate = rate`` (blind of ``amount``) against it with no blind."""
    base = policy(me)
    players = check_whole(players, "players", low=2, high=MAX_PLAYERS)
    opp = [policy(others)] * (players - 1)
    check_finite(rate, "rate (the blind rate)", low=0.0, high=1.0)
    check_whole(amount, "amount (the blind)", high=10**6)
    rules = check_instance(rules, RococoRules, "rules", allow_none=True) or RococoRules(players=players)
    a = simulate(rules, [base.with_(name=base.name + "+blind", blind_rate=rate, blind_amount=amount)] + opp, pots,
                 seed)
    b = simulate(rules, [base.with_(blind_rate=0.0)] + opp, pots, seed)
    return BlindValue(a, b)


@dataclass(frozen=True)
class BestResponse:
    """Every candidate policy for seat 0 against fixed opponents, best first (all on one seed: the first
    is the luckiest as well as the best; :meth:`confirm` plays the first two again on a fresh seed)."""

    table: pd.DataFrame
    opponents: str
    pots: int
    seed: int
    rules: RococoRules | None = None

    @property
    def best(self) -> pd.Series:
        return self.table.iloc[0]

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()

    def summary(self) -> str:
        b = self.best
        return (f"best response to {self.opponents} among {len(self.table)} policies: open {b.open}, call {b.call}, "
                f"blind rate {b.blind_rate:g}: {b.net_per_pot:+.4f} per pot")

    def confirm(self, pots: int | None = None, seed: int | None = None) -> BestResponseConfirmation:
        """The selected policy and the runner-up played again for ``pots`` pots (default: the selection's) on
        ``seed`` (default: the selection's seed + :data:`CONFIRM_SEED_OFFSET`; the selection's own seed is
        refused), each on the same fresh deals as far as the play allows."""
        pots = self.pots if pots is None else check_whole(pots, "pots", high=MAX_GAMES)
        seed = self.seed + CONFIRM_SEED_OFFSET if seed is None else check_seed(seed, allow_none=False)
        if seed == self.seed:
            raise StrategyError(f"the confirmation needs a seed the selection did not use, got its own seed {seed}")
        if len(self.table) < 2:
            raise StrategyError("a confirmation compares the selected policy with the runner-up: the grid has one")
        rules = self.rules or RococoRules()
        opp = [policy(self.opponents)] * (rules.players - 1)
        fresh = []
        for _, row in self.table.head(2).iterrows():
            cand = _grid_policy(row["open"], row["call"], float(row["blind_rate"]))
            fresh.append(simulate(rules, [cand] + opp, pots, seed).net[0])
        return BestResponseConfirmation(self, pots, seed, fresh[0], fresh[1])


def _grid_policy(open_, call, blind_rate: float) -> BettingPolicy:
    """A candidate of :func:`best_response`'s grid from its table row (the table writes a missing open as 'None')."""
    open_ = None if open_ is None or open_ == "None" else open_
    return BettingPolicy(f"open {open_} call {call} blind {blind_rate:g}", open=open_, call=call, blind_rate=blind_rate)


@dataclass(frozen=True)
class BestResponseConfirmation:
    """The selected policy and the runner-up of a :class:`BestResponse`, played again on a fresh seed: each one's
    net per pot (antes, 95% interval) and the lead of the selected one, whose interval treats the two runs as
    independent (they share deals, so the true interval is narrower: a conservative bound)."""

    selection: BestResponse
    pots: int
    seed: int
    best: Estimate
    runner_up: Estimate

    @property
    def lead(self) -> Estimate:
        se = float(np.hypot(self.best.std_error, self.runner_up.std_error))  # independent-run bound
        d = self.best.estimate - self.runner_up.estimate
        return Estimate(d, se, d - 1.96 * se, d + 1.96 * se)

    @staticmethod
    def _name(row) -> str:
        return f"open {row['open']} / call {row['call']} / blind {float(row['blind_rate']):g}"

    @property
    def verdict(self) -> str:
        """'confirmed', 'reversed', or 'no detectable difference (± x)' where the lead's interval holds 0."""
        lead = self.lead
        if lead.low <= 0.0 <= lead.high:
            return f"no detectable difference (± {(lead.high - lead.low) / 2:.4f})"
        return "confirmed" if lead.estimate > 0 else "reversed"

    def to_frame(self) -> pd.DataFrame:
        """One row: the selected policy and the runner-up, their selection figures, their fresh net per pot and
        the lead, each with its 95% interval, and the verdict."""
        t = self.selection.table
        a, b, lead = self.best, self.runner_up, self.lead
        return pd.DataFrame([{
            "against": self.selection.opponents, "selected": self._name(t.iloc[0]), "runner_up": self._name(t.iloc[1]),
            "selection_net_per_pot": float(t.iloc[0]["net_per_pot"]),
            "selection_runner_up_net_per_pot": float(t.iloc[1]["net_per_pot"]),
            "net_per_pot": a.estimate, "net_per_pot_low": a.low, "net_per_pot_high": a.high,
            "runner_up_net_per_pot": b.estimate, "runner_up_net_per_pot_low": b.low,
            "runner_up_net_per_pot_high": b.high, "lead": lead.estimate, "lead_low": lead.low, "lead_high": lead.high,
            "pots": self.pots, "seed": self.seed, "verdict": self.verdict}])

    def summary(self) -> str:
        lead = self.lead
        return (f"best response to {self.selection.opponents}, confirmed on seed {self.seed} ({self.pots:,} pots): "
                f"{self._name(self.selection.table.iloc[0])}: {self.best.estimate:+.4f} per pot against the runner-up's "
                f"{self.runner_up.estimate:+.4f}; lead {lead.estimate:+.4f} ± {(lead.high - lead.low) / 2:.4f}: "
                f"{self.verdict}")


def best_response(others="standard", players: int = 2, pots: int = 40_000, seed: int | None = 2026, *,
                  opens=("99", "KK", "two pair", "three of a kind", None), calls=("77", "JJ", "AA", "two pair"),
                  blind_rates=(0.0, 1.0), rules: RococoRules | None = None) -> BestResponse:
    """Search the grid of threshold policies for seat 0 against ``players - 1`` copies of ``others``
    (common seed for every candidate: the same deals as far as the play allows)."""
    players = check_whole(players, "players", low=2, high=MAX_PLAYERS)
    opp = [policy(others)] * (players - 1)
    rules = check_instance(rules, RococoRules, "rules", allow_none=True) or RococoRules(players=players)
    for what, values in (("opens", opens), ("calls", calls), ("blind_rates", blind_rates)):
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__") or not len(values):
            raise StrategyError(f"{what} must be a non-empty list, got {quote(values)}")
    for r in blind_rates:
        check_finite(r, "a blind rate", low=0.0, high=1.0)
    rows = []
    for o in opens:
        for c in calls:
            for r in blind_rates:
                cand = BettingPolicy(f"open {o} call {c} blind {r:g}", open=o, call=c, blind_rate=r)
                res = simulate(rules, [cand] + opp, pots, seed)
                e = res.net[0]
                rows.append((str(o), str(c), r, e.estimate, e.low, e.high))
    table = pd.DataFrame(rows, columns=["open", "call", "blind_rate", "net_per_pot", "net_per_pot_low",
                                        "net_per_pot_high"])
    table = table.sort_values("net_per_pot", ascending=False, kind="stable").reset_index(drop=True)
    return BestResponse(table, policy(others).name, pots, seed if seed is not None else -1, rules)


def removal_check(hands: int = 20, deals: int = 20_000, opponents: int = 1, seed: int = 2026) -> pd.DataFrame:
    """The independence model against real deals: for ``hands`` random hands, the pot share of the best
    keep computed by the solver (opponents' hands independent of ours) and simulated with the opponents
    dealt from the 47 cards we do not hold, drawing by the same optimal table from the same deck; and the
    same for the second-best keep, on the same deals, to see whether card removal reverses the choice
    (``second_minus_best``: simulated share of the second keep minus the best's, with its standard error)."""
    from ricochet_math.games.rococo.draw import KEEPS, five_card_hands
    from ricochet_math.games.rococo.removal import simulate_share, simulate_share_difference

    hands = check_whole(hands, "hands", high=10**5)
    deals = check_whole(deals, "deals", high=10**8)
    opponents = check_whole(opponents, "opponents", high=5)
    seed = check_seed(seed, allow_none=False)
    from ricochet_math.games.rococo.solver import solve_draws

    sol = solve_draws(opponents)
    hand_cards, _ = five_card_hands()
    rng = np.random.default_rng(seed)
    rows = []
    for h in rng.integers(0, len(hand_cards), hands):
        cards = hand_cards[h].astype(np.int64)
        shares = sol.keep_shares(cards)
        k = int(sol.hand_keep[h])
        order = np.argsort(-shares, kind="stable")
        k2 = int(order[1] if order[0] == k else order[0])  # the best keep other than the solver's
        deal_seed = int(rng.integers(2**63))
        mean, se = simulate_share(cards, KEEPS[k], sol.hand_keep, opponents, deals, deal_seed)
        diff, diff_se = simulate_share_difference(cards, KEEPS[k2], KEEPS[k], sol.hand_keep, opponents, deals,
                                                  deal_seed)
        rows.append((int(h), float(shares[k]), mean, se, mean - float(shares[k]),
                     float(shares[k2] - shares[k]), diff, diff_se))
    return pd.DataFrame(rows, columns=["hand_number", "model_share", "dealt_share", "dealt_se", "difference",
                                       "model_second_minus_best", "second_minus_best", "second_minus_best_se"])
