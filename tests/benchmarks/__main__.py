"""`make bench`: run every `bench_*.py` module's `main()` in turn (or those named)."""
import importlib
import pkgutil
import sys
from pathlib import Path

here = str(Path(__file__).parent)
names = sys.argv[1:] or sorted(m.name for m in pkgutil.iter_modules([here])
                               if m.name.startswith("bench_"))
for name in names:
    print(f"\n== {name}", flush=True)
    importlib.import_module(f"tests.benchmarks.{name}").main()
