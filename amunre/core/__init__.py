"""The core layer of amunre (docs/architecture.md)."""
