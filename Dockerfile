# syntax=docker/dockerfile:1
# TriPeaks as a container image: docs/deploy.md ("With compose") and compose.yaml beside it.
#   docker build -t tripeaks .
#   docker run -p 127.0.0.1:8000:8000 -v tripeaks:/var/lib/tripeaks tripeaks
# The build steps are container/build.sh, which `make test` also runs (without a container engine).

# Debian 12 (bookworm) in both stages: the compiled searches are built against the runtime's C library.
FROM python:3.11-bookworm AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHON=python
RUN python -m pip install --quiet "build>=1.2"
WORKDIR /src
COPY pyproject.toml setup.py MANIFEST.in README.md CHANGELOG.md LICENSE ./
COPY tripeaks tripeaks
COPY container container
# The sdist, the wheel built from it (the C searches compiled here, where gcc is), then the
# environment the runtime gets whole: the wheel and its dependencies in /opt/tripeaks.
RUN sh container/build.sh dist /src /dist \
    && sh container/build.sh install /dist /opt/tripeaks

FROM python:3.11-slim-bookworm
LABEL org.opencontainers.image.title="TriPeaks" \
      org.opencontainers.image.description="TriPeaks solitaire: an exact rules engine, a solver and a browser app" \
      org.opencontainers.image.licenses="MIT"
COPY --from=build /opt/tripeaks /opt/tripeaks
# A user of its own, never root; its home is the data directory, a volume.
RUN useradd --system --user-group --uid 10001 --home-dir /var/lib/tripeaks --create-home \
        --shell /usr/sbin/nologin tripeaks
# Configuration by TRIPEAKS_* variables (docs/deploy.md "Running it"); secrets by NAME_FILE
# (container/entrypoint.sh), never in the image. The default store is SQLite in the volume; compose.yaml
# gives PostgreSQL instead.
ENV PATH=/opt/tripeaks/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    TRIPEAKS_HOST=0.0.0.0 \
    TRIPEAKS_PORT=8000 \
    TRIPEAKS_DB=/var/lib/tripeaks/tripeaks.db \
    TRIPEAKS_NO_BROWSER=1
USER tripeaks
WORKDIR /var/lib/tripeaks
VOLUME /var/lib/tripeaks
EXPOSE 8000
# Ready while /readyz answers 200: the server answers and its database did within 2 s.
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 CMD ["tripeaks-healthcheck"]
ENTRYPOINT ["tripeaks-entrypoint"]
CMD ["serve"]
