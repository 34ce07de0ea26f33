"""The browser app: a FastAPI server over the engine and the store, and the page it serves."""
