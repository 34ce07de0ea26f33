#!/bin/sh
# The container image's entrypoint: `tripeaks` with its arguments (the image's command: serve).
#
# Each variable below may instead be given as NAME_FILE, the path of a file holding its value (a
# compose or Kubernetes secret under /run/secrets): the secret stays out of the image, out of the
# container's definition (`docker inspect`) and out of the process list. PGPASSWORD is libpq's:
# the password of a TRIPEAKS_DB URL written without one.
set -eu
for name in TRIPEAKS_DB TRIPEAKS_DAILY_SECRET TRIPEAKS_METRICS_TOKEN PGPASSWORD; do
    eval "file=\${${name}_FILE:-}"
    if [ -n "$file" ]; then
        value=$(cat "$file")  # the file's trailing newline is not part of the secret
        export "$name=$value"
        unset "${name}_FILE"
    fi
done
exec "$(dirname "$0")/tripeaks" "$@"
