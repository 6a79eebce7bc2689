"""What a round leaves behind: the seat and round records, the log, and the hand history.

The readable engine (:mod:`ricochet_math.engine.round`) writes these; the fast
kernel (:mod:`ricochet_math.engine.kernel`) writes the same records from its
arrays, and the tests compare the two field by field.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from ricochet_math.evaluator.cards import format_cards
from ricochet_math.evaluator.names import describe

__all__ = [
    "FOLDED", "PLAYED", "BEATEN", "WON", "AUTO_WIN", "STATUSES",
    "LogEntry", "SeatRecord", "RoundRecord", "format_history", "show",
]

# Seat statuses.  PLAYED is "played and still standing" while the round runs;
# at the end every standing seat has WON, so records hold the other four.
FOLDED, PLAYED, BEATEN, WON, AUTO_WIN = "folded", "played", "beaten", "won", "auto-win"
STATUSES = (FOLDED, PLAYED, BEATEN, WON, AUTO_WIN)


def show(cards) -> str:
    """Cards with suit symbols, as the log and the hand history print them."""
    return format_cards(cards, symbols=True)


@dataclass(frozen=True)
class LogEntry:
    """One step of a round: ``kind`` (ante, deal, sidebets, kickout, fold, play,
    out, auto-win, award, bonus), the seat it concerns (``None``: the dealer or
    the table), a readable line, and the pot after the step (ante units)."""

    kind: str
    seat: int | None
    text: str
    pot: int


@dataclass(frozen=True)
class SeatRecord:
    """One seat's round.  Money in ante units (floats; whole numbers unless ``split = "fractional"``).

    ``position``: 0 = acted first.  ``action``: ``fold``, ``play`` or ``auto``
    (won automatically, no decision).  ``status``: folded, beaten, won or
    auto-win.  ``draw``: the three cards received (none for a fold).
    ``final_value``: dense value of the five-card hand, ``-1`` without one.
    ``quickdraw``: the Quickdraw result per unit staked.
    """

    seat: int
    hole: tuple[int, int]
    position: int
    strategy: str
    action: str
    status: str
    wagered: float
    pot_share: float
    bonus: float
    net: float
    draw: tuple[int, ...]
    final_value: int
    quickdraw: float
    reason: str

    @property
    def final_cards(self) -> tuple[int, ...]:
        return self.hole + self.draw

    @property
    def returned(self) -> float:
        """What the seat got back: pot share plus bonus."""
        return self.pot_share + self.bonus


@dataclass(frozen=True)
class RoundRecord:
    """Everything that happened in one round (the rules: :mod:`ricochet_math.engine.round`).

    ``deck``: the deck order played (the first ``5N + 5`` cards decide
    everything; a round dealt face up holds just the cards dealt, in deck
    order).  ``order``: seats in acting order.  ``winners``: seats that won or
    shared the pot (empty when the house took it).  ``house_net``: the house's
    result on the main game.  ``cover``: Cover result per unit staked (the
    same for every seat).  ``log``: the readable steps.
    """

    rules_name: str
    n_players: int
    deck: tuple[int, ...]
    dealer_cards: tuple[int, ...]
    dealer_value: int
    kickout_value: int
    kicked: bool
    order: tuple[int, ...]
    seats: tuple[SeatRecord, ...]
    pot: int
    winners: tuple[int, ...]
    house_takes_pot: bool
    house_net: float
    cover: float
    log: tuple[LogEntry, ...] = field(repr=False)

    @property
    def players_net(self) -> float:
        return sum(s.net for s in self.seats)

    def to_frame(self):
        """One row per seat (pandas)."""
        rows = []
        for s in self.seats:
            rows.append({
                "seat": s.seat + 1, "hole": format_cards(s.hole), "position": s.position + 1,
                "strategy": s.strategy, "action": s.action, "status": s.status,
                "final_hand": format_cards(s.final_cards) if s.final_value >= 0 else "",
                "hand": describe(s.final_value) if s.final_value >= 0 else "",
                "wagered": s.wagered, "pot_share": s.pot_share, "bonus": s.bonus, "net": s.net,
                "quickdraw": s.quickdraw,
            })
        return pd.DataFrame(rows)


def format_history(record: RoundRecord) -> str:
    """The round as a hand history: the deal, who acts, the pot after each action, who is out and why, payouts."""
    lines = []
    title = f"Ricochet Poker, {record.n_players} player(s), rules {record.rules_name}"
    lines += [title, "=" * len(title)]
    for e in record.log:
        lines.append(f"  {e.text}" + (f"   [pot {e.pot}]" if e.kind in ("ante", "fold", "play", "auto-win") else ""))
    lines.append("")
    lines.append("Payouts (ante units):")
    width = max(len(s.strategy) for s in record.seats)
    for s in record.seats:
        hand = (f"{show(s.final_cards)} {describe(s.final_value)}" if s.final_value >= 0 else show(s.hole))
        reason = f" ({s.reason})" if s.reason and s.status == BEATEN else ""
        lines.append(
            f"  Seat {s.seat + 1} [{s.strategy:<{width}}] {s.status:<8} wagered {s.wagered:g}, pot share {s.pot_share:g}, "
            f"bonus {s.bonus:g}, net {s.net:+g}  | Quickdraw {s.quickdraw:+g}  | {hand}{reason}"
        )
    lines.append(f"  House: net {record.house_net:+g}" + (" (takes the pot)" if record.house_takes_pot else ""))
    # Cover is each seat's side bet on the dealer's five cards: the same result per unit for every seat
    lines.append(f"  Cover (each seat's side bet on the dealer's hand): {record.cover:+g} per unit staked")
    return "\n".join(lines)
