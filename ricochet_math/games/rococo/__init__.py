"""Rococo Poker: five-card draw with an ante, a blind option, one exchange of 0-3 cards, one betting
round and split pots (the publisher's rules: ``shared/seeds/003_266d472255d5a8cb.txt``; our reading in
``docs/rules.md``, section "Rococo Poker")."""
