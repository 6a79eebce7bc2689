"""Layer 6: game design: side bets, the kickout finder and paytable tuning."""
