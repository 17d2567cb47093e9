"""Build of the one C extension, in place: .venv/bin/python setup.py -q build_ext --inplace
(./leyou does it when the .so is missing or older than the .c file)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "games.rules.doudizhu._movegen",
            ["games/rules/doudizhu/_movegen.c"],
            extra_compile_args=["-O2"],
        )
    ],
)
