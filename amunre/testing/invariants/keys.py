"""Type-exact keys of answers, options and a request's context: how the checks compare two of them."""

from __future__ import annotations

import json

from amunre.core.decisions import to_json_value


def answer_key(value) -> str:
    """Type-exact identity of an answer as the log records it (True != 1 != 1.0)."""
    return json.dumps(to_json_value(value), sort_keys=True)


def answers_key(values) -> str:
    """Type-exact identity of a list of answers: one encoding of them all (equal exactly when
    every `answer_key` of them is)."""
    return json.dumps([to_json_value(value) for value in values], sort_keys=True)


def options_key(request) -> list[str]:
    """A request's options, type-exact, for comparing two requests."""
    return [answer_key(o) for o in request.options]


def context_key(request) -> str:
    """A request's context, for comparing two requests."""
    return json.dumps(dict(request.context), sort_keys=True, default=repr)
