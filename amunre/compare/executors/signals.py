"""Ctrl-C's and SIGTERM's Python handlers, replaced for a block and put back after it: what
the local pool's held signals (`processes._signals_held`) and the command line's first stop
only (`amunre.cli.progress`) both stand on."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any

#: A Python signal handler: called with the signal's number and the frame it interrupted.
Handler = Callable[[int, Any], Any]


@contextlib.contextmanager
def handlers_replaced(wrap: Callable[[int, Handler], Handler]) -> Iterator[None]:
    """For the block, SIGINT's and SIGTERM's handlers are `wrap(signum, handler)` of what they
    were; at the end they are put back. Only in the main thread (the only one Python signals
    in, and may set handlers from) and for a signal with a Python handler (callable): one that
    is ignored or left to the system stays as it is."""
    replaced: dict[int, Handler] = {}
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGINT, signal.SIGTERM):
            handler = signal.getsignal(signum)
            if callable(handler):
                replaced[signum] = handler
                signal.signal(signum, wrap(signum, handler))
    try:
        yield
    finally:
        for signum, handler in replaced.items():
            signal.signal(signum, handler)
