"""The HTTP API: routes, the reply models, the view that shapes a game into its reply, errors."""
