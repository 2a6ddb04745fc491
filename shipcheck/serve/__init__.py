"""The local workbench: ``shipcheck serve`` builds and studies a ship in a web browser.

A Starlette application (:mod:`.app`) served by uvicorn on 127.0.0.1, with a page written as plain
ES modules, SVG and CSS (``static/``, no build step, nothing fetched from the internet). The page
and scripts use one JSON API (:mod:`.api`, documented in docs/workbench.md); every answer comes
from the library's public functions, exactly as the command line gives them.

Security (docs/workbench.md): a secret token in the address printed on the first line of stdout,
required on every request (query ``token=`` or ``Authorization: Bearer``); requests from another
site refused; files read and written only in the start folder or the file named (no ``..``, no
symbolic links); request bodies and simulation sizes bounded. Ctrl-C or SIGTERM stops the server,
cancels any running job and leaves no process behind (jobs run in threads of the server).

Nothing in the core imports this package; it imports the library only.
"""

from __future__ import annotations

import os
import socket
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["create_app", "serve", "url_of"]


def create_app(*args: Any, **kwargs: Any) -> Any:
    """:func:`shipcheck.serve.app.create_app` (imported on first use)."""
    from shipcheck.serve.app import create_app as make

    return make(*args, **kwargs)


def url_of(host: str, port: int, token: str) -> str:
    """The address to open: a wildcard host is reached through the loopback address."""
    shown = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/?token={token}"


def _bind(host: str, port: int) -> socket.socket:
    from shipcheck.errors import InputError

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise InputError(f"cannot use this host ({exc.strerror})", key="--host", value=host,
                         expected="an address of this machine, e.g. 127.0.0.1") from None
    family, _, _, _, addr = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(addr)
    except OSError as exc:
        sock.close()
        raise InputError(f"cannot listen there ({exc.strerror or exc})", key="--port", value=port,
                         expected="a free port, or 0 to pick one") from None
    sock.listen(128)
    sock.set_inheritable(False)
    return sock


@contextmanager
def _held_signals() -> Iterator[list[int]]:
    """SIGINT and SIGTERM recorded (not acted on) while the server is being made; the server's own
    handlers read the list and stop at once."""
    import signal

    got: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield got
        return
    old = {s: signal.signal(s, lambda n, _f: got.append(n)) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield got
    finally:
        for s, h in old.items():
            signal.signal(s, h)


#: seconds a stopped server waits for work still running in its threads before it exits anyway
STRAGGLE = 2.0


def _no_straggler() -> None:
    """Once stopped: wait briefly for jobs to end, then exit at once if work is still running in
    the server's threads (a request that cannot be interrupted, such as a long placement ranking),
    its child processes killed first. Stopping is what was asked, within seconds, whatever runs."""
    import multiprocessing
    import time

    if threading.current_thread() is not threading.main_thread():
        return  # served from a thread (a test): the caller owns the process

    def running() -> list[threading.Thread]:
        me = threading.current_thread()
        return [t for t in threading.enumerate()
                if t is not me and t.is_alive() and (not t.daemon or t.name.startswith("shipcheck-job"))]

    deadline = time.monotonic() + STRAGGLE
    while running() and time.monotonic() < deadline:
        time.sleep(0.05)
    if running():
        for child in multiprocessing.active_children():
            child.kill()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


def serve(ship: str | Path | None = None, *, host: str = "127.0.0.1", port: int = 0, open_browser: bool = True,
          folder: str | Path | None = None) -> None:
    """Serve the workbench for ``folder`` (default: the current one) until Ctrl-C or SIGTERM.

    The first line on stdout is the address to open, with the token. ``ship``, when given, is opened
    (or, when it does not exist yet, is where the new ship will be saved); a ship file that cannot
    be read is an :class:`~shipcheck.errors.InputError` before anything is served.
    """
    import secrets

    import uvicorn

    from shipcheck.serve.app import create_app as make
    from shipcheck.serve.jobs import Job
    from shipcheck.serve.oddsjobs import Pool
    from shipcheck.serve.workspace import Workspace

    ws = Workspace.start(folder or Path.cwd(), ship)
    if ws.named is not None and ws.named.exists():
        from shipcheck.serve.api import load

        load(ws, str(ws.named), key="SHIP")  # a file that cannot be read: exit 2 now, with its errors
    token = secrets.token_urlsafe(32)
    sock = _bind(host, port)
    import threading

    from shipcheck import engine

    # load (or compile) the round engine in the background while the page opens
    threading.Thread(target=engine.ready, name="shipcheck-engine", daemon=True).start()
    if open_browser and sys.platform.startswith("linux") and not (os.environ.get("DISPLAY")
                                                               or os.environ.get("WAYLAND_DISPLAY")):
        # without a graphical session, webbrowser would start a text browser in this terminal
        sys.stderr.write("no graphical session here: open the address below in a browser yourself\n")
        open_browser = False
    with _held_signals() as early:  # a Ctrl-C or SIGTERM from here on stops the server cleanly
        url = url_of(host, sock.getsockname()[1], token)
        sys.stdout.write(url + "\n")
        sys.stdout.flush()
        note = f"shipcheck workbench for {ws.root}" + (f", ship {ws.display(ws.named)}" if ws.named else "")
        sys.stderr.write(f"{note}\nopen the address above in a browser; Ctrl-C stops the server\n")
        if host not in ("127.0.0.1", "localhost", "::1"):
            sys.stderr.write(f"warning: listening on {host}: anyone who can reach this machine and has the token can "
                             "read and write ship files in this folder\n")
        sys.stderr.flush()

        class Server(uvicorn.Server):
            def handle_exit(self, sig: int, frame: Any) -> None:
                Job.cancel_all()  # running jobs stop at their next progress report
                pool.close()  # exact odds: their workers killed now
                super().handle_exit(sig, frame)

            @contextmanager
            def capture_signals(self) -> Iterator[None]:
                # uvicorn's, without raising the signal again once stopped: stopping is what was asked
                import signal

                if threading.current_thread() is not threading.main_thread():
                    yield
                    return
                old = {s: signal.signal(s, self.handle_exit) for s in (signal.SIGINT, signal.SIGTERM)}
                if early:  # a signal came while the server was being made
                    self.handle_exit(early[0], None)
                try:
                    yield
                finally:
                    for s, h in old.items():
                        signal.signal(s, h)

        pool = Pool()
        config = uvicorn.Config(make(ws, token, host=host, pool=pool), log_level="warning", access_log=False, lifespan="off",
                                timeout_graceful_shutdown=1, ws="none")
        server = Server(config)
        if open_browser:
            def opener() -> None:
                import time
                import webbrowser

                while not server.started and not server.should_exit:
                    time.sleep(0.05)
                if server.started:
                    webbrowser.open(url)

            threading.Thread(target=opener, name="shipcheck-open-browser", daemon=True).start()
        try:
            server.run(sockets=[sock])
        finally:
            Job.cancel_all()
            pool.close()
            sock.close()
    sys.stderr.write("shipcheck: workbench stopped\n")
    _no_straggler()
