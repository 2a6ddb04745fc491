"""The `serve` command: the local workbench in a web browser (shipcheck.serve)."""

from __future__ import annotations

from typing import Annotated

import typer

from shipcheck.cli._common import command


@command("serve")
def serve_cmd(
    ship: Annotated[str | None, typer.Argument(metavar="[SHIP]", show_default=False,
                                               help="A ship file to open (created on the first save if missing).")
                    ] = None,
    host: Annotated[str, typer.Option(metavar="H", help="Address to listen on. Anything but this machine's loopback "
                                                        "lets others on the network in (with the token).")
                    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, metavar="P", help="Port to listen on; 0 picks a free one.")
                    ] = 0,
    no_browser: Annotated[bool, typer.Option("--no-browser", help="Do not open a browser; only print the address.")
                          ] = False,
) -> None:
    """Build and study a ship in the browser: the workbench.

    Serves a page on this machine where you place tiles from the catalogue, see rule breaks, exposed
    connectors and the ship's parameters after every edit, fly exact odds and whole rounds, and save
    the ship file. The first line printed is the address to open, with a secret token; Ctrl-C stops
    the server.

    \b
    Examples:
      shipcheck serve
      shipcheck serve examples/blue-round1.toml --no-browser
    """
    from shipcheck.serve import serve

    serve(ship, host=host, port=port, open_browser=not no_browser)
