"""HTTP hardening around the app: host guard, rate limits, compression, logs, metrics, the wire."""
