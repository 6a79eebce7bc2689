"""The home game and Ricochet Poker II (rulebook: first and last sections): rules, engine, kernel,
strategies, expectimax solver, fairness analysis and report.  See docs/home-game.md."""
