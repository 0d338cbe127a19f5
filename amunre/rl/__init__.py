"""The rl layer of amunre (docs/architecture.md)."""
