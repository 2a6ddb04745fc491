"""The `serve` command: the local workbench in a web browser (shipcheck.serve)."""

from __future__ import annotations

import click


@click.command("serve")
@click.argument("ship", metavar="[SHIP]", required=False, type=click.Path(path_type=str))
@click.option("--host", default="127.0.0.1", show_default=True, metavar="H",
              help="Address to listen on. Anything but this machine's loopback lets others on the network in "
                   "(with the token).")
@click.option("--port", "-p", type=click.IntRange(0, 65535), default=0, show_default=True, metavar="P",
              help="Port to listen on; 0 picks a free one.")
@click.option("--no-browser", is_flag=True, help="Do not open a browser; only print the address.")
def serve_cmd(ship: str | None, host: str, port: int, no_browser: bool) -> None:
    """Build and study a ship in the browser: the workbench.

    Serves a page on this machine where you place tiles from the catalogue, see rule breaks, exposed
    connectors and the ship's parameters after every edit, fly exact odds and whole rounds, and save
    the ship file. SHIP, when given, is opened (or created on the first save). The first line printed
    is the address to open, with a secret token; Ctrl-C stops the server.

    \b
    Examples:
      shipcheck serve
      shipcheck serve examples/blue-round1.toml --no-browser
    """
    from ..serve import serve

    serve(ship, host=host, port=port, open_browser=not no_browser)
