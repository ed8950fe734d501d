"""`make bench`: run every `bench_*.py` module's `main()` in turn, or those named.
The bot ladders (`bench_ladders`, hours of bot-vs-bot games) run only when named: `make ladders`."""

import importlib
import pkgutil
import sys
from pathlib import Path

here = str(Path(__file__).parent)
names = sys.argv[1:] or sorted(
    m.name
    for m in pkgutil.iter_modules([here])
    if m.name.startswith("bench_") and m.name != "bench_ladders"
)
sys.argv = sys.argv[:1]  # each benchmark reads its own options from the command line
for name in names:
    print(f"\n== {name}", flush=True)
    importlib.import_module(f"tests.benchmarks.{name}").main()
