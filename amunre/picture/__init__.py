"""Pictures of the game: a board picture (SVG) of any position, and a replay viewer (HTML).

- `amunre.picture.steps`: what a picture shows, read from a game state (`Snapshot`), and a
  logged game replayed decision by decision (`log_steps`: the position after each decision,
  with the play-by-play lines that led to it);
- `amunre.picture.svg`: the board as the board data places the provinces, drawn as SVG by
  the project itself (no library, no network), every text from a file XML-escaped;
- `amunre.picture.viewer`: one self-contained HTML file stepping through a logged game.

Everything is read from the variant's declarations (its words, its board, the rule modules'
`table_markers`): no particular rule is named here.
"""

from amunre.picture.steps import Snapshot, Step, log_steps, position_snapshot
from amunre.picture.svg import BoardPicture
from amunre.picture.viewer import viewer_html

__all__ = ["BoardPicture", "Snapshot", "Step", "log_steps", "position_snapshot", "viewer_html"]
