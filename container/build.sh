#!/bin/sh
# The container image's build steps (Dockerfile), kept here so that `make test` runs the same steps
# on a machine without a container engine, into a temporary folder:
#
#   container/build.sh dist SOURCE OUT     the sdist and the wheel (built from the sdist) into OUT
#   container/build.sh install OUT PREFIX  a virtual environment at PREFIX with the wheel in OUT,
#                                          its dependencies, and the image's entrypoint and health check
#
# PYTHON names the interpreter (default python3); `dist` needs the `build` package in it.
set -eu
PYTHON=${PYTHON:-python3}
here=$(cd "$(dirname "$0")" && pwd)

case "${1:-}" in
dist)
    # Wheel from the sdist (build's default): a file the sdist lacks fails here.
    "$PYTHON" -m build --outdir "$3" "$2"
    ;;
install)
    set -- "$2" "$3" "$(ls "$2"/tripeaks-*.whl)"
    # A checkout on the path (its tripeaks.egg-info) would pass for the package installed already.
    unset PYTHONPATH
    # No pip of its own in the environment: the interpreter's pip fills it (pip --python).
    "$PYTHON" -m venv --without-pip "$2"
    "$PYTHON" -m pip --python "$2/bin/python" install --quiet --disable-pip-version-check "$3"
    install -m 755 "$here/entrypoint.sh" "$2/bin/tripeaks-entrypoint"
    install -m 755 "$here/healthcheck.py" "$2/bin/tripeaks-healthcheck"
    ;;
*)
    echo "usage: $0 dist SOURCE OUT | install OUT PREFIX" >&2
    exit 2
    ;;
esac
