"""The planning layer of amunre (docs/architecture.md)."""
