"""The four games' fuzz corpus (issue 30): every public function of ``rm.home``, ``rm.ring``, ``rm.rococo``
and ``rm.freeride`` called with each of its arguments replaced, one at a time, by values outside its
documented range; plus the issue's own cases.  Every one must be refused with one RicochetError line.

A base call is a small valid call (source text for :mod:`tests.fuzz.guard`); ``{}`` marks the
argument that is replaced.  ``BAD`` lists what replaces it, per kind of argument.
"""
from __future__ import annotations

#: values no argument of that kind may take (each documented range excludes them)
BAD = {
    "count": ["-1", "0", "10**30", "1.5", "float('nan')", "'junk'", "True", "[]"],
    "count0": ["-1", "10**30", "1.5", "float('nan')", "'junk'", "True", "[]"],   # 0 allowed
    "seed": ["-1", "2**129", "1.5", "'junk'", "True"],
    "fraction": ["-0.5", "1.5", "float('nan')", "float('inf')", "'junk'"],
    "cards": ["'Zz 9q'", "[52, 53]", "[-1, 3]", "[0, 0]", "[[1, 2], 3]"],
    "ring_cards": ["'Zz 9q'", "[54, 55]", "[-1, 3]", "[0, 0]", "[[1, 2], 3]"],   # 52 and 53: the jokers
    "rules": ["'junk'", "5", "rm.RuleSet", "rm.load_rules('publisher')"],
    "home_rules": ["None", "'junk'", "5", "rm.ring.RingRules()"],
    "name": ["'no-such'", "5", "''"],
    "names": ["['no-such']", "[]", "'no-such'", "5", "[None]"],
    "opens": ["['no-such']", "[]", "'no-such'", "5", "[5]"],   # None is an opening threshold: never open
    "path": ["tmp / 'a-file.txt'", "'/proc/x'", "5"],
}

H = "rm.home.HomeRules()"
H2 = "rm.home.HomeRules(players=2)"
POS = f"rm.home.position({H2}, ['Kd 5h 8d 8s', '2h 2d 9c 7s'], 15)"
RING = "rm.ring.RingRules()"
RC = "rm.rococo.RococoRules()"
FR = "rm.freeride.FreeRideRules()"
SOLVE = "rm.freeride.solve('7s 8h Kd Qc 2s', face_up='Ad 9s 3c', opp_up='2c 7d 9h', {})"

#: (base call with one ``{}``, kind of the replaced argument, keyword or "" for positional)
BASES = [
    # ---- rm.home
    ("rm.home.HomeRules(players={})", "count", ""),
    ("rm.home.HomeRules(start_cards={})", "count", ""),
    ("rm.home.HomeRules(hand_limit={})", "count", ""),
    ("rm.home.HomeRules(variant={})", "name", ""),
    ("rm.home.HomeRules(stuck={})", "name", ""),
    ("rm.home.HomeRules(jokers={})", "name", ""),
    (f"rm.home.simulate({{}}, 'pot-odds', 100, seed=1)", "rules", ""),
    (f"rm.home.simulate({H}, {{}}, 100, seed=1)", "names", ""),
    (f"rm.home.simulate({H}, 'pot-odds', {{}}, seed=1)", "count", ""),
    (f"rm.home.simulate({H}, 'pot-odds', 100, seed={{}})", "seed", ""),
    (f"rm.home.simulate({H}, 'pot-odds', 100, seed=1, batch_size={{}})", "count", ""),
    (f"rm.home.simulate({H}, 'pot-odds', 100, seed=1, workers={{}})", "count", ""),
    (f"rm.home.simulate_games({H2}, 'optimal', {{}}, seed=1)", "count", ""),
    (f"rm.home.play_game({H}, 'pot-odds', 1, deck={{}})", "cards", ""),
    (f"rm.home.play_game({{}}, 'pot-odds', 1)", "rules", ""),
    (f"rm.home.play_game({H}, {{}}, 1)", "names", ""),
    (f"rm.home.play_game({H}, 'pot-odds', {{}})", "seed", ""),
    (f"rm.home.play_game({H}, 'pot-odds', 1, rng_seed={{}})", "seed", ""),
    (f"rm.home.position({H2}, {{}}, 15)", "cards", ""),
    (f"rm.home.position({H2}, ['Kd 5h 8d 8s', '2h 2d 9c 7s'], {{}})", "count0", ""),
    (f"rm.home.position({H2}, ['Kd 5h 8d 8s', '2h 2d 9c 7s'], 15, dead={{}})", "cards", ""),
    (f"rm.home.solve({H2}, {POS}, depth={{}})", "count", ""),
    (f"rm.home.solve({H2}, {POS}, budget={{}})", "count", ""),
    (f"rm.home.solve({{}}, {POS})", "home_rules", ""),
    (f"rm.home.solve({H2}, {{}})", "names", ""),
    (f"rm.home.solve({H2}, rm.home.Position(((12,), (0,)), 3, {{}}))", "count0", ""),
    (f"rm.home.solve_exact({H2}, rm.home.Position(((12,), (0,)), 3, {{}}))", "count0", ""),
    (f"rm.home.solve({H2}, rm.home.Position({{}}, 3, 2**52 - 1 - 4097))", "cards", ""),
    (f"rm.home.solve({H2}, rm.home.Position(((12,), (0,)), {{}}, 2**52 - 1 - 4097))", "count0", ""),
    (f"rm.home.solve_exact({H2}, {POS}, max_positions={{}})", "count", ""),
    (f"rm.home.ExactSolver({H2}, capacity={{}})", "count", ""),
    (f"rm.home.ExactSolver({H2}, dead={{}})", "count0", ""),
    (f"rm.home.ExactSolver({H2}, max_capacity={{}})", "count", ""),
    (f"rm.home.game_positions({H}, {{}}, 1)", "count", ""),
    (f"rm.home.game_positions({H}, 2, {{}})", "seed", ""),
    (f"rm.home.game_positions({H}, 2, 1, max_room={{}})", "count", ""),
    (f"rm.home.count_positions({H2}, {{}}, '2h 2d 9c 7s', 15)", "cards", ""),
    (f"rm.home.count_positions({H2}, 'Kd 5h 8d 8s', '2h 2d 9c 7s', {{}})", "count0", ""),  # the solver's pots: >= 0
    (f"rm.home.estimate_positions({H2}, 'Kd 5h 8d 8s', '2h 2d 9c 7s', samples={{}})", "count0", ""),  # 0: every stratum enumerated
    (f"rm.home.estimate_positions({H2}, 'Kd 5h 8d 8s', '2h 2d 9c 7s', seed={{}})", "seed", ""),
    (f"rm.home.estimate_positions({H2}, 'Kd 5h 8d 8s', '2h 2d 9c 7s', exact_below={{}})", "count0", ""),
    (f"rm.home.knuth_tree({H2}, 'Kd 5h 8d 8s', '2h 2d 9c 7s', probes={{}})", "count", ""),
    (f"rm.home.deal_error({H2}, 'Kd 5h 8d 8s', '2h 2d 9c 7s', draws={{}})", "count", ""),
    (f"rm.home.deal_error({H2}, 'Kd 5h 8d 8s', '2h 2d 9c 7s', exact_room={{}})", "count0", ""),  # 0: pot-odds everywhere
    (f"rm.home.deal_error({H2}, {{}}, '2h 2d 9c 7s')", "cards", ""),
    (f"rm.home.shortcut_error({H2}, [{POS}], budget={{}})", "count", ""),
    (f"rm.home.shortcut_error({H2}, [{POS}], depths={{}})", "names", ""),
    ("rm.home.build_report({}, size='tiny')", "path", ""),
    ("rm.home.build_report(tmp / 'r', size={})", "name", ""),
    # ---- rm.ring
    ("rm.ring.RingRules(players={})", "count", ""),
    ("rm.ring.RingRules(joker={})", "name", ""),
    (f"rm.ring.simulate({{}}, None, 20, seed=1)", "rules", ""),
    (f"rm.ring.simulate({RING}, {{}}, 20, seed=1)", "names", ""),
    (f"rm.ring.simulate({RING}, None, {{}}, seed=1)", "count", ""),
    (f"rm.ring.simulate({RING}, None, 20, seed={{}})", "seed", ""),
    (f"rm.ring.simulate({RING}, None, 20, seed=1, objective={{}})", "name", ""),
    (f"rm.ring.simulate({RING}, None, 20, seed=1, batch_size={{}})", "count", ""),
    (f"rm.ring.simulate({RING}, None, 20, seed=1, workers={{}})", "count", ""),
    (f"rm.ring.play_game({RING}, ['random', 'random'], 1, deck={{}})", "ring_cards", ""),
    (f"rm.ring.play_game({RING}, {{}}, 1)", "names", ""),
    (f"rm.ring.play_game({RING}, ['random', 'random'], {{}})", "seed", ""),
    (f"rm.ring.play_game({RING}, ['random', 'random'], 1, objective={{}})", "name", ""),
    ("rm.ring.arrange({})", "ring_cards", ""),
    ("rm.ring.arrange(list(range(18)), objective={})", "name", ""),
    ("rm.ring.arrange(list(range(18)), hands={})", "count", ""),
    ("rm.ring.arrange(list(range(18)), objective='points', samples={})", "count", ""),
    ("rm.ring.arrange(list(range(18)), objective='points', seed={})", "seed", ""),
    ("rm.ring.arrange(list(range(18)), objective='points', opponent={})", "name", ""),
    ("rm.ring.opponent_model(samples={})", "count", ""),
    ("rm.ring.opponent_model(seed={})", "seed", ""),
    ("rm.ring.opponent_model(dead={})", "ring_cards", ""),
    (f"rm.ring.pairings({RING}, ('random', 'denial'), {{}}, seed=1)", "count", ""),
    (f"rm.ring.pairings({RING}, {{}}, 10, seed=1)", "names", ""),
    ("rm.ring.build_report({}, games=10, timing_holdings=1)", "path", ""),
    ("rm.ring.build_report(tmp / 'r', games={}, timing_holdings=1)", "count", ""),
    ("rm.ring.build_report(tmp / 'r', games=10, timing_holdings={})", "count", ""),
    # ---- rm.rococo
    ("rm.rococo.RococoRules(players={})", "count", ""),
    ("rm.rococo.RococoRules(ante={})", "count", ""),
    ("rm.rococo.RococoRules(max_bet={})", "count", ""),
    ("rm.rococo.RococoRules(max_raises={})", "count0", ""),  # 0: call or fold only
    ("rm.rococo.RococoRules(carry_limit={})", "count0", ""),  # 0: every all-check game shown down
    ("rm.rococo.BettingPolicy(blind_rate={})", "fraction", ""),
    ("rm.rococo.BettingPolicy(blind_amount={})", "count", ""),
    ("rm.rococo.BettingPolicy(open={})", "name", ""),
    ("rm.rococo.draw_distribution({})", "cards", ""),
    ("rm.rococo.solve_draws({})", "count", ""),
    ("rm.rococo.share_by_value(np.ones(7462), {})", "count", ""),
    ("rm.rococo.share_by_value({}, 1)", "cards", ""),
    ("rm.rococo.keep_text('Kh Kd 7c 4s 2h', {})", "count", ""),
    ("rm.rococo.keep_text({}, 3)", "cards", ""),
    ("rm.rococo.naive_keep({}, 100)", "cards", ""),
    ("rm.rococo.naive_keep('Kh Kd 7c 4s 2h', {})", "count", ""),
    ("rm.rococo.strategy_table({})", "count", ""),  # numbers of opponents (one or a list)
    ("rm.rococo.play_pot({}, 1)", "names", ""),
    ("rm.rococo.play_pot(['standard', 'standard'], {})", "seed", ""),
    ("rm.rococo.play_pot(['standard', 'standard'], 1, rules={})", "rules", ""),
    ("rm.rococo.simulate(None, {}, 100, 1)", "names", ""),
    ("rm.rococo.simulate(None, ['standard', 'loose'], {}, 1)", "count", ""),
    ("rm.rococo.simulate(None, ['standard', 'loose'], 100, {})", "seed", ""),
    ("rm.rococo.simulate(None, ['standard', 'loose'], 100, 1, batch_size={})", "count", ""),
    ("rm.rococo.simulate(None, ['standard', 'loose'], 100, 1, workers={})", "count", ""),
    ("rm.rococo.simulate({}, ['standard', 'loose'], 100, 1)", "rules", ""),
    ("rm.rococo.play_game(None, {}, 1)", "names", ""),
    ("rm.rococo.play_game(None, ['standard', 'loose'], {})", "seed", ""),
    ("rm.rococo.blind_value({}, 'standard', pots=100, seed=1)", "name", ""),
    ("rm.rococo.blind_value('standard', 'standard', players={}, pots=100, seed=1)", "count", ""),
    ("rm.rococo.blind_value('standard', 'standard', pots={}, seed=1)", "count", ""),
    ("rm.rococo.blind_value('standard', 'standard', pots=100, seed=1, rate={})", "fraction", ""),
    ("rm.rococo.blind_value('standard', 'standard', pots=100, seed=1, amount={})", "count", ""),
    ("rm.rococo.best_response({}, pots=100, seed=1)", "name", ""),
    ("rm.rococo.best_response('standard', players={}, pots=100, seed=1)", "count", ""),
    ("rm.rococo.best_response('standard', pots={}, seed=1)", "count", ""),
    ("rm.rococo.best_response('standard', pots=100, seed=1, opens={})", "opens", ""),
    ("rm.rococo.best_response('standard', pots=100, seed=1, blind_rates={})", "names", ""),
    ("rm.rococo.removal_check(hands={}, deals=100)", "count", ""),
    ("rm.rococo.removal_check(hands=2, deals={})", "count", ""),
    ("rm.rococo.removal_check(hands=2, deals=100, opponents={})", "count", ""),
    ("rm.rococo.removal_check(hands=2, deals=100, seed={})", "seed", ""),
    ("rm.rococo.build_report({}, size='tiny')", "path", ""),
    ("rm.rococo.build_report(tmp / 'r', size={})", "name", ""),
    ("rm.rococo.build_report(tmp / 'r', size='tiny', seed={})", "seed", ""),
    # ---- rm.freeride
    ("rm.freeride.FreeRideRules(start_chips={})", "count", ""),
    ("rm.freeride.FreeRideRules(showdown_loss={})", "count", ""),
    ("rm.freeride.FreeRideRules(fold_costs={})", "names", ""),
    ("rm.freeride.FreeRideRules(opening={})", "name", ""),
    ("rm.freeride.FreeRideRules(odd_chips={})", "name", ""),
    ("rm.freeride.FreeRideRules(min_seats={})", "count", ""),
    ("rm.freeride.FreeRideRules(max_rounds={})", "count", ""),
    ("rm.freeride.play_game(None, {}, 1)", "names", ""),
    ("rm.freeride.play_game(None, ['computer'] * 4, {})", "seed", ""),
    ("rm.freeride.play_game({}, ['computer'] * 4, 1)", "rules", ""),
    ("rm.freeride.play_game(None, ['computer'] * 4, 1, decks={})", "names", ""),
    ("rm.freeride.play_game(None, ['computer'] * 4, 1, chips={})", "names", ""),
    ("rm.freeride.simulate(None, {}, 20, 1)", "names", ""),
    ("rm.freeride.simulate(None, ['computer'] * 4, {}, 1)", "count", ""),
    ("rm.freeride.simulate(None, ['computer'] * 4, 20, {})", "seed", ""),
    ("rm.freeride.simulate(None, ['computer'] * 4, 20, 1, batch_size={})", "count", ""),
    ("rm.freeride.simulate(None, ['computer'] * 4, 20, 1, workers={})", "count", ""),
    ("rm.freeride.simulate({}, ['computer'] * 4, 20, 1)", "rules", ""),
    ("rm.freeride.simulate_rounds(['computer'] * 4, rounds={}, seed=1)", "count", ""),
    ("rm.freeride.simulate_rounds(['computer'] * 4, rounds=20, seed={})", "seed", ""),
    ("rm.freeride.best_response(('always', 'computer'), {}, games=20, seed=1)", "names", ""),
    ("rm.freeride.best_response({}, (2,), games=20, seed=1)", "names", ""),
    ("rm.freeride.best_response(('always', 'computer'), (2,), games={}, seed=1)", "count", ""),
    ("rm.freeride.best_response(('always', 'computer'), (2,), games=20, seed=1, field={})", "name", ""),
    ("rm.freeride.free_ride_value({}, games=20, seed=1)", "names", ""),
    ("rm.freeride.free_ride_value(['computer'] * 4, games={}, seed=1)", "count", ""),
    (SOLVE.replace("{}", "samples={}"), "count", ""),
    (SOLVE.replace("{}", "exact_from={}"), "count", ""),
    (SOLVE.replace("{}", "hero_chips={}"), "count0", ""),
    (SOLVE.replace("{}", "opp_chips={}"), "count0", ""),
    (SOLVE.replace("{}", "opp_played={}"), "count", ""),
    (SOLVE.replace("{}", "seed={}"), "seed", ""),
    (SOLVE.replace("{}", "deck={}"), "cards", ""),
    (SOLVE.replace("{}", "rules={}"), "rules", ""),
    ("rm.freeride.solve({}, face_up='Ad 9s 3c', opp_up='2c 7d 9h')", "cards", ""),
    ("rm.freeride.solve('7s 8h Kd Qc 2s', face_up={}, opp_up='2c 7d 9h')", "cards", ""),
    ("rm.freeride.build_report({}, games=10, rounds=10)", "path", ""),
    ("rm.freeride.build_report(tmp / 'r', games={}, rounds=10)", "count", ""),
    ("rm.freeride.build_report(tmp / 'r', games=10, rounds={})", "count", ""),
    ("rm.freeride.build_report(tmp / 'r', games=10, rounds=10, seats={})", "names", ""),
]

#: the issue's own cases (and the casino library's), each to be refused
ISSUE = [
    "rm.advise('publisher', state=rm.FaceUpTable((52, 53, 54, 55, 56), ((60, 61),), (None,)))",
    "rm.advise('publisher', state=rm.FaceUpTable((-1, -2, -3, -4, -5), ((-6, -7),), (None,)))",
    "rm.freeride.solve('7s 8h Kd Qc 2s', face_up='Ad 9s', opp_up='2c 7d', samples=-5)",
    "rm.freeride.solve('7s 8h Kd Qc 2s', face_up='Ad 9s', opp_up='2c 7d', exact_from=-1)",
    "rm.freeride.solve('7s 8h Kd Qc 2s', face_up='Ad 9s', opp_up='2c 7d', samples=None)",
    "rm.freeride.solve('7s 8h Kd Qc 2s', face_up='Ad', opp_up='2c', samples=None)",
    "rm.ring.arrange(list(range(18)), objective='points', "
    "opponent=rm.ring.OpponentModel(np.zeros((0, 3), np.int64), 2, 'x'))",
    "rm.freeride.play_game(None, ['computer'] * 4, 1, decks=[])",
    "rm.home.simulate(rm.ring.RingRules(), 'pot-odds', 100, seed=1)",
    "rm.games.rococo.engine.play_dealt(rm.rococo.RococoRules(), np.zeros(1, np.int64), np.zeros(1), np.zeros(1), "
    "np.full(52, 60), 0.5, 0)",
    "rm.home.ExactSolver(rm.home.HomeRules(players=2), capacity=2**40)",
    "rm.solo_analysis(classes=[500])",
    "rm.bench(repeat=0)",
    "rm.deal_deck(2, rng=5)",
    "rm.load_rules('publisher' * 1000)",
    "rm.home.solve(rm.home.HomeRules(players=2), rm.home.Position(((12,), (0,)), 3, -5))",
    "rm.home.solve_exact(rm.home.HomeRules(players=2), rm.home.Position(((12,), (0,)), 3, -5))",
    # a run whose length the arguments set is bounded up front: 7.9e9 pairs of extra cards to enumerate
    "rm.home.count_positions(rm.home.HomeRules(players=2), '7s', 'Kd', 2)",
    "rm.home.estimate_positions(rm.home.HomeRules(players=2), '7s', 'Kd', 2, exact_below=10**9)",
    # issue 35, wrongly accepted: every game's strategy spec with an empty, trailing or repeated part ...
    "rm.home.simulate(rm.home.HomeRules(), 'pot-odds:', 100, seed=1)",
    "rm.home.simulate(rm.home.HomeRules(), ['pot-odds', 'optimal:', 'one', 'limit'], 100, seed=1)",
    "rm.home.simulate(rm.home.HomeRules(), 'pot-odds:1:2', 100, seed=1)",
    "rm.home.simulate(rm.home.HomeRules(), 'pot-odds:١', 100, seed=1)",
    "rm.home.play_game(rm.home.HomeRules(), 'min-lift:', 1)",
    "rm.simulate(rounds=10, seed=1, strategy='beats:', progress=False)",
    "rm.simulate(rounds=10, seed=1, strategy='beats:A9:', progress=False)",
    "rm.freeride.simulate(None, ['t:x,x,88,'] * 4, 20, 1)",
    "rm.freeride.simulate(None, ['t:x,,88,TT'] * 4, 20, 1)",
    "rm.freeride.simulate(None, ['t:x,x,88,TT:hide:hide'] * 4, 20, 1)",
    "rm.freeride.simulate(None, ['computer:'] * 4, 20, 1)",
    "rm.ring.simulate(rm.ring.RingRules(), [True, True], 10, seed=1)",
    "rm.rococo.simulate(None, [['standard'], ['loose']], 100, 1)",
    # ... the evaluator's entry points given what is not a hand value or cards ...
    "rm.describe(True)", "rm.describe(np.array([1, 2]))", "rm.describe(float('nan'))", "rm.describe('As Ks Qs Js Ts')",
    "rm.category_name(np.array(5))", "rm.pattern_of(np.float64(4.0))", "rm.format_cards(np.array(5))",
    "rm.format_cards([True, 3])", "rm.parse_cards(np.zeros((2, 2), int))", "rm.parse_cards({51, 50})",
    "rm.pattern_value(['KKQ'])", "rm.hand_value(np.array(5))",
    # ... numbers in other scripts' digits and values too long to quote
    "rm.engine.deal.parse_players('٣')", "rm.engine.deal.parse_players('2,,4')",
    "rm.home.simulate(rm.home.HomeRules(), 'A' * 100_000, 100, seed=1)",
    "rm.arguments.check_whole(10**5000, 'rounds', high=10)",
]


def cases() -> list[str]:
    """Every bad call: each base with each bad value of its kind, then the issue's cases."""
    out = [base.replace("{}", value) for base, kind, _ in BASES for value in BAD[kind]]
    return out + ISSUE
