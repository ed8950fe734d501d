"""Events: tournaments (round-robin, Swiss, knockout) and a standing ladder per kind.

- `pairing`: who plays whom, pure functions of the standings (Berger tables, Swiss by a
  maximum-weight matching, a knockout bracket seeded by rating);
- `standings`: scores, the rulings' tiebreaks and a round-robin's crosstable;
- `links`: what a change to a game of an event writes with it (its tournament's due check, a
  ladder game's ranks), given to the game store with the outbox's events;
- `service`: creating, joining, leaving, starting and cancelling an event, and the workers'
  advancement of it, each step one guarded transaction;
- `ladders`: joining a ladder and challenging up it.
"""
