"""`amunre serve`: tables of people and bots in the browser (docs/serve.md). The web stack
(Starlette, uvicorn) is imported by `amunre.serve.app` and the modules it imports
(`amunre.serve.server`, `amunre.serve.requests`) only, so the limits below are read by the
command line without it."""

#: The most work a bot may do per decision unless --max-bot-playouts says otherwise, in games
#: played out by greedy (`amunre.agents.playouts_per_decision`): `mcts:iterations=1000`, about
#: eight times its default: some 5 s of CPU for a decision early in a classic2003 game (the
#: longest playouts) where the default takes 0.6 s (2-core development machine, pure Python).
MAX_BOT_PLAYOUTS = 1000
#: The most tables a server keeps by default (`--max-stored-tables`): each is in memory, on the
#: disk, and replayed when the server starts.
MAX_STORED_TABLES = 1000
