"""The one part of the build pyproject.toml cannot state without an experimental table: the
advanced Partition bot's endgame search in C (api/bots/_partition_endgame.c), built by
`pip install -e .` (make .venv/.installed rebuilds it when the file changes)."""
import platform

from setuptools import Extension, setup

# the search counts hexes in bit masks: on x86-64 one POPCNT instruction (every x86-64 processor
# since 2008) rather than a library call
FLAGS = ["-O2"] + (["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else [])

setup(ext_modules=[Extension("api.bots._partition_endgame", ["api/bots/_partition_endgame.c"],
                             extra_compile_args=FLAGS)])
