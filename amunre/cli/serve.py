"""`amunre serve`: play variants in the browser, people and bots at one table, each person
from their own private page (`amunre.serve`; docs/serve.md)."""

from __future__ import annotations

import errno
import os
import socket
from pathlib import Path

import click

from amunre.cli.common import WholeNumber, literal
from amunre.core.errors import AmunreError
from amunre.serve import MAX_BOT_PLAYOUTS, MAX_STORED_TABLES


def default_data() -> Path:
    """Where tables are kept unless --data says otherwise (under `$XDG_DATA_HOME`, else
    ~/.local/share)."""
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "amunre" / "tables"


def web_stack():
    """uvicorn, or a clear error naming the extra that installs the web stack."""
    try:
        import starlette  # noqa: F401
        import uvicorn
        import websockets  # noqa: F401
    except ImportError as exc:
        raise AmunreError(f"amunre serve needs the web extra ({exc.name} is not installed): "
                          "pip install 'amunre[serve]'") from None
    return uvicorn


def _bound(host: str, port: int) -> socket.socket:
    """A listening socket, or a clear error (the port taken, a host that is no address here)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise AmunreError(f"--host {literal(host)!r}: not an address of this machine ({exc})") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        hint = " (another program may use it: try --port)" if exc.errno == errno.EADDRINUSE else ""
        raise AmunreError(f"cannot listen on {literal(host)} port {port}: {exc.strerror or exc}{hint}") from None
    sock.listen(128)
    return sock


@click.command("serve")
@click.argument("folders", metavar="[VARIANT_FOLDER]...", nargs=-1,
                type=click.Path(exists=True, file_okay=False, dir_okay=True, path_type=Path))
@click.option("--host", default="127.0.0.1", show_default=True, metavar="HOST",
              help="The address to listen on: 127.0.0.1 is this machine only; 0.0.0.0 every network it is on "
                   "(then name the address the others use with --allowed-host).")
@click.option("--allowed-host", "allowed", multiple=True, metavar="NAME",
              help="A name or address the browsers may reach this server by, besides --host (and, for a loopback "
                   "or 0.0.0.0 --host, localhost, 127.0.0.1 and [::1]): the machine's address on the LAN, a "
                   "reverse proxy's public name. NAME alone: at --port, or with no port (80, 443 behind a "
                   "proxy); NAME:PORT: at that port only. Repeatable. A request naming the server otherwise "
                   "(a page of another site reaching "
                   "it by DNS rebinding) is refused.")
@click.option("--port", default=8000, show_default=True, type=WholeNumber(0, 65535), metavar="PORT",
              help="The port to listen on (0: any free port).")
@click.option("--data", type=click.Path(file_okay=False, path_type=Path), default=None, metavar="DIR",
              help="The folder that keeps the tables [default: ~/.local/share/amunre/tables, or under "
                   "$XDG_DATA_HOME].")
@click.option("--max-tables", default=100, show_default=True, type=WholeNumber(1, 100_000), metavar="N",
              help="The most tables played at once (finished ones do not count): a lobby anyone on the network "
                   "reaches cannot fill the machine with bots.")
@click.option("--max-bot-playouts", default=MAX_BOT_PLAYOUTS, show_default=True, type=WholeNumber(0, 100_000_000),
              metavar="N", help="The most games a bot may play out to answer one decision, counted as greedy "
                                "playouts (mcts: its iterations; a planner rollout counts 8): a table whose bot asks "
                                "more is refused, so that no table's bots hold the machine for hours.")
@click.option("--max-stored-tables", "max_stored", default=MAX_STORED_TABLES, show_default=True,
              type=WholeNumber(1, 1_000_000), metavar="N",
              help="The most tables kept, played or over: opening one more forgets the oldest finished, closed or "
                   "stopped one, else the one nobody has answered at for longest if that is over an hour (a game "
                   "being played is never forgotten; with none to forget, the lobby is refused).")
@click.option("--no-chat", "no_chat", is_flag=True,
              help="No chat at the tables: the pages show none, and the server takes no message.")
def command(folders, host, port, allowed, data, max_tables, max_bot_playouts, max_stored, no_chat):
    """Play in the browser: open tables of any variant (the shipped ones, and every variant
    file in each VARIANT_FOLDER), with people and bots, each person at their own private
    link. Every answer is on the disk before it is acknowledged: stop the server (even
    kill it) and start it again on the same --data folder, and every table goes on."""
    uvicorn = web_stack()
    from amunre.loader.files import SEARCH_PATH
    from amunre.serve.app import build_app
    from amunre.serve.hosts import EVERY_ADDRESS, HostError, allowed_hosts

    if folders:  # searched before AMUNRE_PATH and the shipped variants, as AMUNRE_PATH folders are
        entries = [str(folder.resolve()) for folder in folders]
        os.environ[SEARCH_PATH] = os.pathsep.join(entries + [e for e in os.environ.get(SEARCH_PATH, "").split(
            os.pathsep) if e])
    data = data or default_data()
    try:
        allowed_hosts(host, port, allowed)  # (a name that is none refused before anything is opened)
    except HostError as exc:
        raise AmunreError(str(exc)) from None
    sock = _bound(host, port)
    bound_port = sock.getsockname()[1]
    hosts = allowed_hosts(host, bound_port, allowed)  # (at the port taken: --port 0 takes any)
    # (the data folder checked and locked before anything is said)
    app = build_app(data, max_tables, max_bot_playouts, hosts, max_stored, chat=not no_chat)
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"amunre serve: open http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown}:{bound_port}/ "
               f"(tables kept in {literal(str(data))}; Ctrl-C stops)", err=True)
    if host in EVERY_ADDRESS and not allowed:
        click.echo("amunre serve: the other machines must be told this machine's address, and the server too: "
                   "start it with --allowed-host ADDRESS (the address they open), else it refuses them "
                   "(docs/serve.md)", err=True)
    run_server(uvicorn, app, sock)


def run_server(uvicorn, app, sock: socket.socket) -> None:
    """Serve `app` on the listening socket until stopped (Ctrl-C, SIGTERM). No access log:
    nothing secret is in a request line, but a person's page views are nobody's business."""
    from amunre.serve.connections import GuardedH11, most_connections

    GuardedH11.most = most_connections()  # (connections bounded, and none held without a request)
    uvicorn.Server(server_config(uvicorn, app)).run(sockets=[sock])


def server_config(uvicorn, app):
    """uvicorn's configuration of `amunre serve` (the tests serve with it too)."""
    from amunre.serve.connections import GuardedH11

    return uvicorn.Config(app, log_level="warning", access_log=False, ws_max_size=64 * 1024,
                          ws="websockets-sansio" if _has_sansio() else "websockets", http=GuardedH11)


def _has_sansio() -> bool:
    try:
        from uvicorn.protocols.websockets import websockets_sansio_impl  # noqa: F401
    except ImportError:
        return False
    return True
