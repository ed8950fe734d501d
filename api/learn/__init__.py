"""Learning the games: puzzles proved by the solvers (`provers`: who wins a position; `puzzles`:
mining, the line, the check, the attempt; `ratings`: Glicko-2 for puzzles and players; `daily`:
the puzzle of the day) and lessons for newcomers (`lessons`). The puzzles' Redis keys live in
`api.store.puzzles`; the worker jobs in `worker.learn`; the command line in `cli`.
"""
