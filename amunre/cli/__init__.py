"""The `amunre` command line: one click group, one small module per command.

Exit codes, the same for every command:

- 0: done (for `check` and `validate`: everything passed);
- 1: the command ran and found a failure (`check`: an invariant broke; `validate`: a file
  has problems; `arena`, `compare`: one's own agent raised or answered no option, said as
  the agent's, `AgentError`), or a question was aborted;
- 2: bad input: a bad option, argument or file. Every domain error (`AmunreError`) and
  every usage error becomes one clear message on stderr starting `error: `; no traceback;
- 3: an internal error, a bug in amunre: any other exception. It is never disguised as a
  problem with the input: stderr says "internal error" and shows the traceback to report;
- 4: `amunre run`: a human seat left the table (`q`, or the end of its input), and the game
  stopped there, as stderr says (with `--log`, the answers so far are kept);
- 130 / 143: stopped by Ctrl-C / SIGTERM. Either way the command cleans up as it would on
  an error (a `--log` keeps the answers so far, marked incomplete; temporary files go).

Whatever an error message echoes (a file's text, a command-line argument) is printed
literally, its control characters escaped (`amunre.cli.common.literal`).
"""

from __future__ import annotations

import signal
import sys


def _interrupted_while_starting(signum, frame):
    """Ctrl-C while the command line's modules load (the first few tenths of a second):
    the same one line and exit code as later, not a traceback from whichever import it hit."""
    try:
        sys.stderr.write("interrupted\n")
        sys.stderr.flush()
    except (OSError, ValueError, RuntimeError, AttributeError):
        pass
    _quiet_signals()
    raise SystemExit(130)


def _quiet_signals() -> None:
    """Ignore further Ctrl-C and SIGTERM once the process is leaving because of one: another
    that arrives while Python shuts down would otherwise kill it by the signal (no exit code
    130 or 143, or a traceback from the shutdown)."""
    for name in ("SIGINT", "SIGTERM"):
        try:
            signal.signal(getattr(signal, name), signal.SIG_IGN)
        except (AttributeError, ValueError, OSError):  # no such signal here, or not the main thread
            pass


def _catch_ctrl_c_while_starting() -> bool:
    """Until the imports below are done, Ctrl-C exits 130 at once (only where Python's own
    handler is in place: a program that ignores SIGINT, or set its own, keeps it)."""
    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _interrupted_while_starting)
            return True
    except ValueError:  # imported outside the main thread: signals are not ours to set
        pass
    return False


_STARTING = _catch_ctrl_c_while_starting()

import errno  # noqa: E402 - after the Ctrl-C handler: importing takes a few tenths of a second
import os  # noqa: E402
import traceback  # noqa: E402

import click  # noqa: E402

from amunre import __version__  # noqa: E402
from amunre.cli.common import literal  # noqa: E402
from amunre.core.errors import AgentError, AmunreError  # noqa: E402

#: Exit code of an internal error (a bug): apart from 1 (a failure found) and 2 (bad input).
INTERNAL_ERROR = 3


class CleanErrors(click.Group):
    """A click group that turns domain errors into a message and exit code 2, and any other
    exception into an "internal error" report with its traceback and exit code 3."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except AmunreError as exc:
            click.echo(f"error: {literal(exc)}", err=True)
            sys.exit(1 if isinstance(exc, AgentError) else 2)
        except Terminated:
            click.echo("terminated", err=True)
            sys.exit(143)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)
        except BrokenPipeError:
            # the reader went away (`amunre variants | head -1`): stop quietly
            _silence_stdout()
            sys.exit(1)
        except OSError as exc:
            if exc.filename is not None or exc.errno not in _OUTPUT_ERRORS:
                internal_error(exc)
            # writing the output failed (`> /dev/full`): the system's problem, said in one line
            _silence_stdout()
            click.echo(f"error: cannot write the output: {exc.strerror} (expected a writable standard output)",
                       err=True)
            sys.exit(2)
        except (click.ClickException, click.Abort, click.exceptions.Exit):
            raise
        except Exception as exc:  # noqa: BLE001 - a bug: reported as one, never as bad input
            internal_error(exc)


#: What writing to a full, broken or missing standard output raises (a file of ours names its path).
_OUTPUT_ERRORS = {errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EBADF, errno.EFBIG}


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program stands so that it unwinds like Ctrl-C (every
    `finally` runs) instead of dying with its temporary files left behind."""


def _terminate(signum, frame):
    raise Terminated()


def internal_error(exc: BaseException):
    """Report a bug: what to do, then the traceback (escaped) on stderr; exit code 3."""
    click.echo("internal error: this is a bug in amunre, not a problem with your input; please report it "
               "with the command line and the traceback below", err=True)
    click.echo(literal("".join(traceback.format_exception(exc))), err=True, nl=False)
    sys.exit(INTERNAL_ERROR)


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that Python's flush at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass  # not a real file (a test's capture): nothing to flush


def _print_version(ctx, _param, value):
    if not value or ctx.resilient_parsing:
        return
    from amunre.cli.buildinfo import describe_build

    click.echo(f"amunre, version {__version__} ({describe_build()})")
    ctx.exit()


@click.group(cls=CleanErrors, invoke_without_command=True,
             context_settings={"help_option_names": ["-h", "--help"]})  # -h as every command's --help
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Show the version and the build (pure Python or compiled), and exit.")
@click.pass_context
def cli(ctx):
    """Amun-Re rules engine: play, replay, score and benchmark editions defined as data.

    Start with `amunre run` (a bot game, shown step by step) or `amunre run --players 3
    --agents human,greedy,greedy` (you play the first seat); `amunre COMMAND --help` tells more.
    """
    if ctx.invoked_subcommand is None:  # `amunre` alone: the help is what was asked for
        click.echo(ctx.get_help())
        ctx.exit(0)


def main(argv=None):
    """Console entry point: usage errors become one line and exit code 2."""
    whole_process = argv is None  # the program itself, not a caller that passes its arguments (a test)
    args = sys.argv[1:] if argv is None else list(argv)
    for i, arg in enumerate(args):
        if "\0" in arg:  # no shell passes one; a file name cannot hold one
            of = f" (the value of {literal(args[i - 1])})" if i and args[i - 1].startswith("-") else ""
            click.echo(f"error: argument {i + 1}{of}, {arg!r}, holds a NUL byte (expected text without NUL)",
                       err=True)
            sys.exit(2)
    if sys.stdout is None:  # started with stdout closed (`amunre ... >&-`)
        click.echo("error: standard output is closed (expected somewhere to write the output, e.g. > out.txt)",
                   err=True)
        sys.exit(2)
    signal.signal(signal.SIGTERM, _terminate)
    try:
        _run(args)
    except SystemExit as exc:
        if exc.code in (130, 143) and whole_process:  # leaving because of Ctrl-C or SIGTERM
            _quiet_signals()
        raise


def _run(args: list[str]) -> None:
    try:
        cli.main(args=args, prog_name="amunre", standalone_mode=False)
    except click.UsageError as exc:
        click.echo(f"error: {literal(exc.format_message())} (see '{_help_for(exc, args)} --help')", err=True)
        sys.exit(2)
    except Terminated:  # before or after a command ran (within one, CleanErrors says it)
        click.echo("terminated", err=True)
        sys.exit(143)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        click.echo(f"error: {literal(exc.format_message())}", err=True)
        sys.exit(exc.exit_code)
    except click.Abort as exc:
        if isinstance(exc.__cause__, KeyboardInterrupt):  # click's word for a Ctrl-C while it parsed
            click.echo("interrupted", err=True)
            sys.exit(130)
        click.echo("aborted", err=True)
        sys.exit(1)


def _help_for(exc: click.UsageError, args: list[str]) -> str:
    """The command whose --help an option error points to: `amunre compare` for an error in
    compare's options, even when click did not say which command it was parsing (an option
    missing its value)."""
    if exc.ctx and " " in exc.ctx.command_path:
        return f"amunre {exc.ctx.command_path.split(' ', 1)[1]}"
    first = next((arg for arg in args if not arg.startswith("-")), None)
    return f"amunre {first}" if first in cli.commands else "amunre"


def _register() -> None:
    from importlib import import_module

    for name in ("run", "replay", "score", "bench", "board", "variants_cmd", "check", "show", "validate", "diff",
                 "schema", "compare", "arena", "render", "serve"):
        try:
            module = import_module(f"amunre.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"amunre.cli.{name}":
                raise
            continue
        cli.add_command(module.command)


_register()
if _STARTING and signal.getsignal(signal.SIGINT) is _interrupted_while_starting:
    signal.signal(signal.SIGINT, signal.default_int_handler)  # from now on, each command handles Ctrl-C
