"""The one thing pyproject.toml cannot say yet: the optional C extensions (the solver and the
traditional best score)."""

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

_PORTABLE = (
    "tripeaks.solver.COMPILED is False: the solver's seam (tripeaks/solver/kernel.py) chooses its "
    "portable Python kernel (tripeaks/solver/portable.py) for every search, whichever extension "
    "is missing: whether a deal can be won and its best win about 100 times slower, the "
    "traditional best score about 150 times, a difficulty grade's 200 plays about 3 ms a deal "
    "instead of a tenth of that."
)
FALLBACKS = {
    "tripeaks.solver._search": _PORTABLE,
    "tripeaks.solver._streak": _PORTABLE,
    "tripeaks.solver._strategy": _PORTABLE,
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
        # Optional, all three: without any of them the package installs and the solver's seam
        # (tripeaks/solver/kernel.py) chooses the portable Python kernel for every search.
        Extension("tripeaks.solver._search", sources=["tripeaks/solver/_search.c"], optional=True),
        Extension("tripeaks.solver._streak", sources=["tripeaks/solver/_streak.c"], optional=True),
        Extension(
            "tripeaks.solver._strategy", sources=["tripeaks/solver/_strategy.c"], optional=True
        ),
    ],
    cmdclass={"build_ext": BuildSearch},
)
