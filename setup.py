"""The one part of the build pyproject.toml cannot state without an experimental table: the
advanced Partition bot's endgame search in C (api/bots/_partition_endgame.c), built by
`pip install -e .` (make .venv/.installed rebuilds it when the file changes)."""
from setuptools import Extension, setup

setup(ext_modules=[Extension("api.bots._partition_endgame", ["api/bots/_partition_endgame.c"],
                             extra_compile_args=["-O2"])])
