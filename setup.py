"""Build of the C extensions, in place: .venv/bin/python setup.py -q build_ext --inplace
(./leyou does it when a .so is missing or older than its .c file)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "games.rules.doudizhu._movegen",
            ["games/rules/doudizhu/_movegen.c"],
            extra_compile_args=["-O2"],
        ),
        Extension(
            "games.rules.mahjong._mjsim",
            ["games/rules/mahjong/_mjsim.c"],
            extra_compile_args=["-O2"],
        ),
    ],
)
