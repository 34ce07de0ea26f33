"""The one thing pyproject.toml cannot say yet: the solver's optional C extension."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        # Optional: without a C compiler the package installs and tripeaks.solver searches in Python.
        Extension(
            "tripeaks._search",
            sources=["tripeaks/_search.c"],
            extra_compile_args=["-O3"],
            optional=True,
        )
    ]
)
