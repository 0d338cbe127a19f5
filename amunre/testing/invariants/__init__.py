"""The invariants `GameChecker` (`amunre.testing.checker`) checks, one family a module, each a
set of plain functions taking the checker (the [names] are the package docstring's):

- `events`: what the events and the modules show, as the game runs ([<event>], the ledgers of
  [gold-events] and [gold-player], [transition], [province-count], [scoring-count], what
  [contract] asks once a round), and the checkpoint [views] replays from;
- `state`: conservation and structure of the state, at every step (`check_state`);
- `views`: [views], what a seat is shown and handed does not depend on what it may not know;
- `answers`: the pending request and the answers to it ([options], [illegal-answer],
  [round-trip], and the replay of [simultaneous]);
- `keys`: the type-exact keys by which the checks compare answers, options and contexts;
- `checking`: `Checker`, what the families may use of the checker (a Protocol, so that they
  need not import the checker, which imports them).
"""
