"""The one thing pyproject.toml cannot say yet: the optional C extensions (the solver and the
traditional best score)."""

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

FALLBACKS = {
    "tripeaks.solver._search": "tripeaks.solver.search.COMPILED is False and the solver falls back on its "
    "Python search (about 100 times slower).",
    "tripeaks.solver._streak": "tripeaks.solver.streak.COMPILED is False and the traditional best score is "
    "searched in Python (about 150 times slower).",
    "tripeaks.solver._strategy": "tripeaks.solver.explain.COMPILED is False and a deal's difficulty grade plays "
    "its 200 plays in Python (about 3 ms a deal instead of a tenth of that).",
}
"""What each optional extension's absence means, said when its build fails."""


class BuildSearch(build_ext):
    """Build the solver's C extension with the compiler's own optimisation flag, and say plainly
    when it could not be built: the package still installs, and the solver searches in Python."""

    def build_extensions(self) -> None:
        flag = "/O2" if self.compiler.compiler_type == "msvc" else "-O3"
        for extension in self.extensions:
            extension.extra_compile_args = [flag]
        super().build_extensions()

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:  # any compiler failure: fall back, loudly
            print(
                f"\n{'*' * 72}\ntripeaks: the compiled {ext.name} ({ext.sources[0]}) could not "
                f"be built:\n  {error}\nInstalled without it: {FALLBACKS.get(ext.name, '')}\n"
                f"{'*' * 72}\n",
                file=sys.stderr,
            )


setup(
    ext_modules=[
        # Optional: without a C compiler the package installs and tripeaks.solver.search searches in Python.
        Extension("tripeaks.solver._search", sources=["tripeaks/solver/_search.c"], optional=True),
        # Optional too: without it tripeaks.solver.streak finds the traditional best score in Python.
        Extension("tripeaks.solver._streak", sources=["tripeaks/solver/_streak.c"], optional=True),
        # Optional too: without it a deal's difficulty grade plays its plays in Python.
        Extension(
            "tripeaks.solver._strategy", sources=["tripeaks/solver/_strategy.c"], optional=True
        ),
    ],
    cmdclass={"build_ext": BuildSearch},
)
