"""The cells of the game notebooks (06-09): the home game, Ring Poker, Rococo Poker and Free Ride Poker.

Imported by ``make_notebooks.py``, which writes them; one function per notebook, returning its cells.
"""
from __future__ import annotations

from nb_cells import code, md

def ring_poker_notebook() -> list:
    """07: Ring Poker (``ricochet_math.games.ring``): arrangements, seats and order, strategies."""
    return [
        md("""
        # 07 - Ring Poker: arrangements, seats and order, drafting strategies

        Ring Poker (`shared/seeds/002`): 2 or 3 players take adjacent pairs from a ring of six piles over
        nine rounds, then build three five-card hands from 18 cards, scored slot by slot.  The rules and
        our readings are in `docs/rules.md` ("Ring Poker"); the methods in `docs/ring-poker.md`.  Jokers
        are bugs by default (the publisher's advice for its home game).
        """),
        code("""
        # The one size parameter: "tiny" (the test suite: seconds, the figures mean nothing),
        # "moderate" (the default: minutes on 2 cores) or "full" (long).
        import os
        import time

        import numpy as np
        import ricochet_math as rm

        SIZE = os.environ.get("RICOCHET_NB_SIZE", "moderate")
        assert SIZE in ("tiny", "moderate", "full"), f"RICOCHET_NB_SIZE must be tiny, moderate or full, not {SIZE!r}"
        GAMES = {"tiny": 200, "moderate": 20_000, "full": 100_000}[SIZE]
        PAIR_GAMES = {"tiny": 100, "moderate": 2_000, "full": 10_000}[SIZE]
        SEED = 2026
        """),
        md("""
        ## The arrangement solver

        The best three hands from 18 cards, exact, for two objectives: `strongest` (lexicographic) and
        `points` (expected slot points against opponents dealt from the cards not held).  The two can
        differ a lot: the strongest-first arrangement spends the jokers on the top hand.
        """),
        code("""
        cards = "As Ad Ah Ac Jk Jk Ks Qs Js Ts 2c 3c 4c 5c 7d 8d 9d Td"
        for objective in ("strongest", "points"):
            a = rm.ring.arrange(cards, objective=objective, samples=200 if SIZE == "tiny" else 1000, seed=SEED)
            print(f"{objective:9}: {a.summary()}")
        a.to_frame()
        """),
        code("""
        # time per arrangement on random holdings (one thread; a shared machine is slower)
        rng = np.random.default_rng(SEED)
        model = rm.ring.opponent_model(rm.ring.RingRules(), samples=500, seed=SEED)
        for objective in ("strongest", "points"):
            secs = [rm.ring.arrange(rng.choice(54, 18, replace=False), objective=objective, opponent=model).seconds
                    for _ in range(50 if SIZE == "tiny" else 500)]
            print(f"{objective:9}: mean {1e3 * np.mean(secs):.3f} ms, max {1e3 * np.max(secs):.3f} ms")
        """),
        md("## One game, round by round"),
        code("""
        deck = np.random.default_rng(SEED).permutation(54)
        game = rm.ring.play_game(rm.ring.RingRules(players=3), ["greedy", "lookahead", "denial"], deck=deck)
        print(game.summary())
        """),
        md("""
        ## Seat and order

        Every seat plays `greedy-fast` (the fast drafting heuristic, the simulations' default; `greedy`,
        which values the expected future pairs, costs about 100 times more).  Seat 1 chooses first in round 1; the rule rotates the first player, so with
        two players seat 1 chooses first in five rounds of nine.  The variant without rotation keeps seat
        1 first every round.  The test of equal chances is a Wald test of equal win shares.
        """),
        code("""
        rows = []
        for players in (2, 3):
            for rotate in (True, False):
                sim = rm.ring.simulate(rm.ring.RingRules(players=players, rotate=rotate), None, GAMES, SEED)
                f = sim.to_frame()
                f.insert(0, "rotate", rotate)
                f.insert(0, "players", players)
                f["equal chances p"] = sim.equal_chances().p_value
                rows.append(f)
        import pandas as pd
        seats = pd.concat(rows, ignore_index=True)
        seats
        """),
        md("## Hand categories by slot (two players, greedy-fast)"),
        code("""
        rm.ring.simulate(rm.ring.RingRules(players=2), None, GAMES, SEED).category_frame()
        """),
        md("""
        ## Strategy pairings and best responses

        Each strategy at each seat against every other strategy at the other seats, on the same deals.
        Here the fast set (`rm.ring.FAST_STRATEGIES`: random, greedy-fast, lookahead, denial); at the full
        size the issue's set with `greedy` (`rm.ring.ISSUE_STRATEGIES`: minutes on two cores).
        """),
        code("""
        for players in (2, 3):
            strategies = rm.ring.ISSUE_STRATEGIES if SIZE == "full" else rm.ring.FAST_STRATEGIES
            table = rm.ring.pairings(rm.ring.RingRules(players=players), strategies, games=PAIR_GAMES, seed=SEED)
            print(table.summary())
            display(table.best_responses())
        """),
    ]


def rococo_notebook() -> list:
    """08: Rococo Poker (ricochet_math.games.rococo): the draw solver, the strategy table, the betting policies."""
    return [
        md("""
        # 08 - Rococo Poker: the best exchange and the betting policies

        Rococo Poker (the publisher's five-card draw: ante 1, an optional blind game, one exchange of 0-3
        cards, one betting round, split pots, all-check carry-over; our reading in `docs/rules.md`) lives in
        `rm.rococo`.  This notebook solves the exchange against N opponents who also draw optimally (a
        fixed point, by counting over all 2,598,960 hands), prints the strategy table and where it differs
        from "keep the made hand", then simulates the betting policies.
        """),
        code("""
        # The one size parameter: "tiny" (the test suite: seconds once the solutions are cached on disk),
        # "moderate" (the default) or "full".  Set RICOCHET_NB_SIZE in the environment or edit this line.
        import os

        SIZE = os.environ.get("RICOCHET_NB_SIZE", "moderate")
        assert SIZE in ("tiny", "moderate", "full"), f"RICOCHET_NB_SIZE must be tiny, moderate or full, not {SIZE!r}"
        SEED = 2026
        OPPONENTS = [1] if SIZE == "tiny" else [1, 2, 3, 4, 5]
        POTS = {"tiny": 2_000, "moderate": 100_000, "full": 1_000_000}[SIZE]
        """),
        md("""
        ## One hand: the 26 keeps

        The exact final-hand distribution of every keep (by enumeration of the 47 unseen cards) and each
        keep's pot share against one opponent who draws optimally.
        """),
        code("""
        import ricochet_math as rm

        hand = "Kh Kd 7c 4s 2h"
        dist = rm.rococo.draw_distribution(hand)
        solution = rm.rococo.solve_draws(1)
        frame = dist.to_frame()
        frame.insert(2, "pot_share", solution.keep_shares(dist.hand))
        frame.sort_values("pot_share", ascending=False).head(8)
        """),
        md("""
        ## The fixed point converges

        Each step: the opponents' final-hand distribution -> the value of each final hand -> the best keep of
        every hand -> the distribution those keeps give.  `hands_changed` falls to zero; at the fixed point
        the mean pot share is exactly 1 / (N + 1), as it must be when everybody draws alike.
        """),
        code("""
        for n in OPPONENTS:
            s = rm.rococo.solve_draws(n)
            print(s.summary())
            display(s.iterations)
        """),
        md("""
        ## The strategy table, and where it beats the naive rule
        """),
        code("""
        table = rm.rococo.strategy_table(OPPONENTS)
        print(table.summary())
        display(table.versus_naive())
        table.by_shape()
        """),
        md("""
        ## Betting policies, the blind option, a best response
        """),
        code("""
        result = rm.rococo.simulate(None, ["standard", "loose"], POTS, SEED)
        print(result.describe())
        display(result.rates())
        print(rm.rococo.blind_value("standard", "standard", players=2, pots=POTS, seed=SEED).summary())
        """),
        code("""
        grid = {} if SIZE != "tiny" else {"opens": ("KK", None), "calls": ("JJ",), "blind_rates": (0.0,)}
        response = rm.rococo.best_response("standard", 2, max(POTS // 4, 1_000), SEED, **grid)
        print(response.summary())
        response.to_frame().head(10)
        """),
        code("""
        print(rm.rococo.play_pot(["blinder", "loose"], SEED).text())
        """),
    ]


# ---------------------------------------------------------------------------------------------- 09
def freeride_notebook() -> list:
    """09: Free Ride Poker (the publisher's home game): games, seats, the best response, the free ride,
    the two-player solver."""
    return [
        md("""
        # 09 - Free Ride Poker

        Free Ride Poker (the publisher's home game, 1-6 players, computer players fill a table to four):
        50 chips each, five cards each, five cards played one at a time (the fifth face down) with a refill
        after each, folds cost 1/2/3/5 chips by the cards face up, showdown losers pay 10, and a player short
        of chips rides free one last time.  Our readings where the rules are silent are in `docs/rules.md`;
        the analysis in `docs/free-ride-poker.md`.
        """),
        code("""
        # The one size parameter: "tiny" (the test suite: seconds, the figures mean nothing),
        # "moderate" (the default: a few minutes on 2 cores) or "full" (an analyst's run).
        import os

        SIZE = os.environ.get("RICOCHET_NB_SIZE", "moderate")
        assert SIZE in ("tiny", "moderate", "full"), f"RICOCHET_NB_SIZE must be tiny, moderate or full, not {SIZE!r}"
        GAMES = {"tiny": 300, "moderate": 10_000, "full": 100_000}[SIZE]
        ROUNDS = {"tiny": 3_000, "moderate": 200_000, "full": 2_000_000}[SIZE]
        SEATS = (2, 4) if SIZE == "tiny" else (2, 3, 4, 5, 6)
        SEED = 2026                  # one seed for every Monte Carlo run (common random numbers)

        import matplotlib.pyplot as plt
        import pandas as pd
        import ricochet_math as rm

        rules = rm.freeride.FreeRideRules()
        rules.to_frame()
        """),
        md("## One game, as a hand history"),
        code("""
        game = rm.freeride.play_game(None, ["computer", "bold", "hider", "cautious"], seed=SEED)
        print("\\n".join(game.history().splitlines()[:40]))
        print("...", game.rounds, "rounds; final chips", game.chips)
        """),
        md("## Game length and chip swings by table size (computer players)"),
        code("""
        table_rules = rules.with_options(min_seats=1)
        runs = {n: rm.freeride.simulate(table_rules, ["computer"] * n, GAMES, SEED) for n in SEATS}
        length = pd.DataFrame([{"seats": n, "rounds": r.length.estimate, "half_width": r.length.half_width,
                                "swing_rms": r.swing} for n, r in runs.items()])
        length
        """),
        code("""
        fig, ax = plt.subplots(figsize=(7, 3))
        for n, r in runs.items():
            d = r.length_distribution()
            ax.plot(d["rounds"], d["share"], marker=".", label=f"{n} seats")
        ax.set(xlabel="rounds in the game", ylabel="share of games", xlim=(0, 40))
        ax.legend()
        plt.show()
        """),
        md("## Seat and starting-player effects (95% intervals)"),
        code("""
        rounds = rm.freeride.simulate_rounds(["computer"] * 4, rules, rounds=ROUNDS, seed=SEED)
        print(rounds.describe())
        runs[4].to_frame()[["seat", "win", "win_low", "win_high", "starts"]] if 4 in runs else None
        """),
        md("## The best response among the strategies, against computer players"),
        code("""
        br = rm.freeride.best_response(seats=SEATS, games=GAMES // 2, seed=SEED)
        print(br.summary())
        br.to_frame().sort_values(["seats", "win"], ascending=[True, False]).groupby("seats").head(3)
        """),
        md("## The value of the free ride"),
        code("""
        fr = rm.freeride.free_ride_value(["computer"] * 4, rules, games=GAMES, seed=SEED)
        print(fr.summary())
        fr.to_frame()
        """),
        md("""
        ## Two players: the hero's best response to the blind rider

        Exact backward induction over every unseen card from three cards face up (see `docs/free-ride-poker.md`
        for what is exact and what is sampled).
        """),
        code("""
        sol = rm.freeride.solve("7s 8h Kd Qc 2s", face_up="Ad 9s 3c", opp_up="2c 7d 9h", samples=None)
        print(sol.summary())
        sol.to_frame()
        """),
    ]


# ---------------------------------------------------------------------------------------------- 06
def home_game_cells() -> list:
    """06: the home game and Ricochet Poker II, and the publisher's fairness claim."""
    return [
        md("""
        # 06 - The home game and Ricochet Poker II: is every seat fair?

        The rulebook's home game (and its table version, Ricochet Poker II) has no house: everyone antes,
        the action always goes to the lowest hand, and a player buys cards that arrive one at a time until
        her hand is no longer the lowest.  The publisher says this "makes all table positions equally fair".
        We check it by **seat** (dealing order) and by **order of play** (who holds the lowest card), and
        contrast it with casino Ricochet, where the last to act returns far more than the first.
        The rules as computed: `docs/rules.md`, "The home game and Ricochet Poker II".
        """),
        code("""
        # The one size parameter: "tiny" (the test suite: seconds, the figures mean nothing),
        # "moderate" (the default: a few minutes on 2 cores) or "full" (an analyst's run: long).
        import os

        SIZE = os.environ.get("RICOCHET_NB_SIZE", "moderate")
        assert SIZE in ("tiny", "moderate", "full"), f"RICOCHET_NB_SIZE must be tiny, moderate or full, not {SIZE!r}"
        SEED = 2026                  # one seed for every run (common random numbers)
        GAMES = {"tiny": 2_000, "moderate": 50_000, "full": 500_000}[SIZE]
        OPTIMAL_GAMES = {"tiny": 4, "moderate": 100, "full": 1_000}[SIZE]
        PLAYERS = [2, 4] if SIZE == "tiny" else list(range(2, 9))
        """),
        md("""
        ## The rulebook's example, replayed

        Four players hold K♦, J♣, 8♥ and 7♠.  The 7♠ buys three and stops after 2♥ 9♣; the 8♥ folds; the
        7♠ buys two and stops on 2♦; the J♣ buys two, gets 9♥ Q♦ and is out; the K♦ buys four and stops
        after 5♥ 8♦ 8♠.  Pots 4, 7, 9, 11, 15.  Then the solver says what the pair of twos should do.
        """),
        code("""
        import ricochet_math as rm

        rules = rm.home.HomeRules(players=4)
        first = [int(c) for c in rm.parse_cards("Kd Jc 8h 7s 2h 9c 2d 9h Qd 5h 8d 8s")]
        game = rm.home.HomeGame(rules, first + [c for c in range(52) if c not in first])
        for buy in (3, 0, 2, 2, 4):
            game.apply(buy)
        for entry in game.log:
            print(f"{entry.text}   [pot {entry.pot}]")
        position = rm.home.position(rules, ["Kd 5h 8d 8s", "", "", "2h 2d 9c 7s"], 15, dead="8h Jc 9h Qd")
        print(rm.home.solve(rules, position).summary())
        """),
        md("""
        ## By seat and by order of play

        The pot-odds strategy at every seat.  EV is in chips per game (the ante is one chip).  The Wald test
        compares the seats' mean nets using their covariance (they sum to zero in every game).
        """),
        code("""
        import pandas as pd

        rows, tests = [], []
        for n in PLAYERS:
            sim = rm.home.simulate(rm.home.HomeRules(players=n), "pot-odds", GAMES, SEED)
            order, seat = sim.by_order(), sim.by_seat()
            for i in range(n):
                rows.append({"players": n, "position": i + 1, "ev_by_order": order.ev[i], "ev_by_seat": seat.ev[i],
                             "ev_by_seat_low": seat.ev_low[i], "ev_by_seat_high": seat.ev_high[i]})
            tests.append({"players": n, "seat_p": sim.seat_test().p_value, "order_p": sim.order_test().p_value,
                          "order_gap": sim.order_test().largest_gap})
        fair = pd.DataFrame(rows)
        pd.DataFrame(tests)
        """),
        code("""
        import matplotlib.pyplot as plt

        fig, axes = plt.subplots(1, 2, figsize=(11, 3.8), sharey=True)
        for n, g in fair.groupby("players"):
            axes[0].plot(g.position, g.ev_by_order, marker="o", label=f"{n} players")
            axes[1].errorbar(g.position, g.ev_by_seat, yerr=[g.ev_by_seat - g.ev_by_seat_low,
                             g.ev_by_seat_high - g.ev_by_seat], marker="o", capsize=2, label=f"{n} players")
        axes[0].set(title="By order of play (1 = lowest card, acts first)", xlabel="position", ylabel="EV, chips")
        axes[1].set(title="By seat (dealing order)", xlabel="seat")
        for ax in axes:
            ax.axhline(0, color="k", lw=0.8)
            ax.grid(alpha=0.3)
        axes[0].legend(fontsize=7)
        plt.show()
        """),
        md("""
        ## Against casino Ricochet

        The toolkit's casino figures under perfect play, by position (`reports/perfect-play-by-position.csv`),
        as a return per one-chip ante, next to the home game's `1 + EV` by order of play and by seat.
        """),
        code("""
        from pathlib import Path

        casino_csv = Path(rm.__file__).resolve().parents[1] / "reports" / "perfect-play-by-position.csv"
        casino = pd.read_csv(casino_csv)[["players", "position", "rtp_initial"]] if casino_csv.exists() else None
        home = fair.assign(home_by_order=1 + fair.ev_by_order, home_by_seat=1 + fair.ev_by_seat)
        home = home[["players", "position", "home_by_order", "home_by_seat"]]
        home.merge(casino, on=["players", "position"], how="left") if casino is not None else home
        """),
        md("""
        ## By starting card, and the variations

        The starting card is what the order of play stands for.  Then the six- and seven-card limits (the
        seven-card game with two starting cards, as the rulebook advises).
        """),
        code("""
        sim = rm.home.simulate(rm.home.HomeRules(players=4), "pot-odds", GAMES, SEED)
        sim.by_start()[["start_card", "games", "win_rate", "ev", "ev_low", "ev_high"]]
        """),
        code("""
        variations = {"limit 5": rm.home.HomeRules(players=4), "limit 6": rm.home.HomeRules(players=4, hand_limit=6),
                      "limit 7, 2 cards": rm.home.HomeRules(players=4, hand_limit=7, start_cards=2)}
        pd.DataFrame([{"variation": name, **{f"order {i + 1}": ev for i, ev in enumerate(s.by_order().ev)},
                       "seat_p": s.seat_test().p_value, "pot": s.overall()["pot"].estimate}
                      for name, s in ((name, rm.home.simulate(r, "pot-odds", GAMES, SEED))
                                      for name, r in variations.items())])
        """),
        md("""
        ## The optimal strategy

        Exact expectimax once the hands have at most two cards of room between them, the pot-odds rule before
        (readable engine, so far fewer games).  Two players.
        """),
        code("""
        opt = rm.home.simulate_games(rm.home.HomeRules(players=2), "optimal", OPTIMAL_GAMES, SEED,
                                     batch_size=OPTIMAL_GAMES)
        print(opt.seat_test().summary())
        opt.by_order()[["order", "games", "win_rate", "ev", "ev_low", "ev_high"]]
        """),
    ]


# ---------------------------------------------------------------------------------------------- 11
def equilibrium_notebook() -> list:
    """11: Rococo Poker heads-up at equilibrium (ricochet_math.games.rococo.equilibrium, first version)."""
    return [
        md("""
        # 11 - Rococo Poker heads-up: an equilibrium of the betting round

        `rm.rococo.solve_equilibrium` lays heads-up Rococo's betting round out as a game tree for the
        equilibrium layer (`rm.equilibrium`), with a *card abstraction* (each player knows the bucket of her
        final hand, cut at the named policies' thresholds, and both players' numbers of exchanged cards) and
        an *action abstraction* (raises of 1, 3 or 10), and solves it by CFR+, one carried-pot level at a
        time (`docs/rococo-poker.md`, "Equilibrium, heads-up").  Then it measures how far the equilibrium
        and the named policies are from unexploitable.  First version: no blind game, and the exchange is
        held at the draw solver's heads-up table.
        """),
        code("""
        # The one size parameter: "tiny" (the test suite: a short table, bets 1..3, two raises, two
        # carries, 100 iterations), "moderate" (the default: the real table at the tiny abstraction) or
        # "full" (the small abstraction, with every raise size measured).
        import os
        from dataclasses import replace

        import ricochet_math as rm

        SIZE = os.environ.get("RICOCHET_NB_SIZE", "moderate")
        assert SIZE in ("tiny", "moderate", "full"), f"RICOCHET_NB_SIZE must be tiny, moderate or full, not {SIZE!r}"
        RULES = rm.rococo.RococoRules()
        if SIZE == "tiny":
            RULES = replace(RULES, max_bet=3, max_raises=2, carry_limit=2)
        ABSTRACTION = "small" if SIZE == "full" else "tiny"
        ITERATIONS = {"tiny": 100, "moderate": 1000, "full": 2000}[SIZE]
        """),
        code("""
        result = rm.rococo.solve_equilibrium(ABSTRACTION, ITERATIONS, rules=RULES, every=max(ITERATIONS // 10, 1),
                                             full_betting=SIZE == "full")
        print(result.summary())
        result.levels()
        """),
        md("""
        ## Convergence

        Each level's exploitability (NashConv: what two best responses gain together, antes) against the
        CFR+ iterations, on log axes.
        """),
        code("""
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(7, 3.5))
        for level, g in result.curves.groupby("level"):
            ax.loglog(g.iteration, g.nash_conv, marker="o", ms=3, label=f"level {level}")
        ax.set_xlabel("CFR+ iterations")
        ax.set_ylabel("NashConv (antes)")
        ax.legend(fontsize=7, ncol=2)
        plt.show()
        """),
        md("""
        ## The strategy: how often the first player opens

        A fresh pot (level 0), the first player before anyone acts, the second player having drawn three
        cards (82% of hands): the probability that she raises (any size), by her own discard count and
        bucket (placed at the lowest final hand in it).
        """),
        code("""
        s = result.to_frame()
        first = s[(s.level == 0) & (s.player == "A") & (s.moves == "") & (s.other_discards == 3)]
        opens = first[first.action != "c"].groupby(["discards", "bucket", "bucket_from"]).probability.sum()
        opens = opens.reset_index()
        fig, ax = plt.subplots(figsize=(8, 3.5))
        for d, g in opens.groupby("discards"):
            ax.plot(g.bucket_from, g.probability, marker="o", label=f"drew {d}")
        ax.set_xlabel("lowest final-hand value in the bucket (0 = worst high card, 7461 = royal flush)")
        ax.set_ylabel("P(first player raises)")
        ax.legend(fontsize=8)
        plt.show()
        """),
        md("""
        ## The named policies against the equilibrium

        `exploitability`: what a best response wins against the policy per pot, from a random seat;
        `vs_equilibrium`: the policy's value per pot against the equilibrium strategy.
        """),
        code("""
        result.policies
        """),
    ]
