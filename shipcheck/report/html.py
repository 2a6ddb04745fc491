"""The report page: one self-contained HTML file (figures inlined as data URIs, no script, no network),
laid out for a phone first and for a wide screen when there is room."""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol

from shipcheck.report.figures import DIRS, Table, pct, round_name
from shipcheck.report.ships import Comparison, ShipReport


class Document(Protocol):
    """What the page (and the report's folder, :mod:`.output`) reads of a report: a
    :class:`shipcheck.report.Report`, whose methods write with these modules."""

    @property
    def ships(self) -> tuple[ShipReport, ...]: ...
    @property
    def round(self) -> str: ...
    @property
    def edition(self) -> str: ...
    @property
    def notes(self) -> tuple[str, ...]: ...
    @property
    def settings(self) -> dict[str, Any]: ...
    @property
    def comparison(self) -> Comparison | None: ...
    @property
    def title(self) -> str: ...
    def figures(self, *, phone: bool = False) -> dict[str, Any]: ...
    def figure_names(self) -> list[str]: ...
    def html(self, images: dict[str, str] | None = None, phone: dict[str, str] | None = None) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...
    def _prefixed(self) -> list[tuple[str, ShipReport]]: ...


CSS = """
:root { --ink:#1f2430; --muted:#6b7280; --line:#e5e7eb; --bg:#f7f8fa; --card:#fff; --bad:#d7263d;
        --good:#2a9d8f; --accent:#3b5bdb; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--ink);
       font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
header { background: #1f2430; color: #fff; padding: 20px 16px 18px; }
header h1 { margin: 0; font-size: 1.6rem; line-height: 1.2; overflow-wrap: anywhere; }
header p { margin: 4px 0 0; color: #c7cbd4; font-size: .9rem; }
main { max-width: 1120px; margin: 0 auto; padding: 8px 12px 40px; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 14px 14px 10px;
          margin: 14px 0; }
h2 { margin: 0 0 6px; font-size: 1.2rem; }
h3 { margin: 12px 0 4px; font-size: 1rem; }
p.lead { margin: 0 0 10px; color: var(--muted); font-size: .92rem; }
figure { margin: 8px 0; min-width: 0; }
figure img { display: block; width: 100%; max-width: 720px; height: auto; margin: 0 auto; }
figcaption { color: var(--muted); font-size: .85rem; margin-top: 2px; }
.grid { display: grid; grid-template-columns: 1fr; gap: 6px 18px; }
.pair { display: grid; grid-template-columns: 1fr; gap: 6px 18px; }
.pair > div { min-width: 0; }
@media (min-width: 700px) { .grid { grid-template-columns: 1fr 1fr; } }
@media (min-width: 900px) { .pair { grid-template-columns: 1fr 1fr; } }
.glance { display: grid; grid-template-columns: repeat(auto-fill, minmax(140px, 1fr)); gap: 10px; }
.stat { border: 1px solid var(--line); border-radius: 10px; padding: 8px 10px; background: #fbfbfc; }
.stat b { display: block; font-size: 1.35rem; line-height: 1.3; }
.stat span { color: var(--muted); font-size: .8rem; }
.stat.bad b { color: var(--bad); }
.stat.good b { color: var(--good); }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; margin: 6px 0 10px;
          /* a shadow on the side with more table to see; white covers it at the table's own ends */
          background: linear-gradient(to right, #fff 30%, rgba(255,255,255,0)) left center / 36px 100% no-repeat local,
                      linear-gradient(to left, #fff 30%, rgba(255,255,255,0)) right center / 36px 100% no-repeat local,
                      radial-gradient(farthest-side at 0 50%, rgba(31,36,48,.28), rgba(31,36,48,0)) left center / 14px 100% no-repeat scroll,
                      radial-gradient(farthest-side at 100% 50%, rgba(31,36,48,.28), rgba(31,36,48,0)) right center / 14px 100% no-repeat scroll; }
.swipe { display: none; color: var(--accent); font-size: .8rem; margin: 4px 0 0; }
@media (max-width: 700px) { .swipe { display: block; } }
table { border-collapse: collapse; font-size: .85rem; min-width: 100%; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: rgba(31,36,48,.05); font-weight: 600; white-space: nowrap; }
td.num, th.num { text-align: right; white-space: nowrap; }
td.wrap { min-width: 14em; }
.note { color: var(--muted); font-size: .82rem; margin: 2px 0; }
.gap { margin: 12px 0 4px; padding-left: 10px; border-left: 3px solid var(--accent); }
.tag { display: inline-block; border-radius: 6px; padding: 0 6px; font-weight: 600; font-size: .8rem; }
.tag.bad { background: #fde2e5; color: var(--bad); }
.tag.good { background: #dcf3ef; color: #1d6f65; }
code { background: #f1f3f6; border-radius: 4px; padding: 1px 4px; font-size: .85em; overflow-wrap: anywhere; }
footer { color: var(--muted); font-size: .8rem; text-align: center; padding: 0 12px 24px; }
"""


def data_uri(data: bytes, mime: str) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def _e(x: Any) -> str:
    return html.escape(str(x), quote=True)


PHONE_MEDIA = "(max-width: 560px)"  # screens that get the phone's figures


class Images(dict):  # type: ignore[type-arg]
    """Figure key -> ``src`` of the wide figure, with ``phone`` holding the phone's figures."""

    phone: dict[str, str]


def _figure(images: dict[str, str], key: str, alt: str, caption: str = "") -> str:
    cap = f"<figcaption>{_e(caption)}</figcaption>" if caption else ""
    img = f'<img src="{images[key]}" alt="{_e(alt)}" data-figure="{_e(key)}">'
    phone = getattr(images, "phone", {}).get(key)
    if phone is not None:
        img = f'<picture><source media="{PHONE_MEDIA}" srcset="{phone}">{img}</picture>'
    return f"<figure>{img}{cap}</figure>"


PHONE_TABLE = 330  # CSS pixels a table has on a 390-pixel phone


def _text_px(text: str, size: float = 13.6) -> float:
    """A rough width of text in CSS pixels (average glyph 0.55 em)."""
    return len(text) * size * 0.55


def wide_table(columns: Sequence[str], rows: Sequence[Sequence[Any]], numeric: Sequence[int] = ()) -> bool:
    """Whether a table is wider than a phone shows, by its narrowest layout: a header does not wrap,
    nor a number; a long cell (over 40 characters) keeps 14 em; other cells wrap at their spaces."""
    total = 0.0
    for k, head in enumerate(columns):
        widest = _text_px(head) * 1.05  # bold
        for r in rows:
            if k >= len(r):
                continue
            cell = str(r[k])
            if k in numeric:
                widest = max(widest, _text_px(cell))
            elif len(cell) > 40:
                widest = max(widest, 14 * 13.6)
            else:
                widest = max(widest, max((_text_px(w) for w in cell.split()), default=0.0))
        total += widest + 17  # padding and border
    return total > PHONE_TABLE


SWIPE = '<p class="swipe">↔ the table is wider than the screen: swipe it sideways for every column</p>'


def _scroll(table: str, wide: bool) -> str:
    return (SWIPE if wide else "") + f'<div class="scroll">{table}</div>'


def _table(t: Table, *, title: bool = True) -> str:
    head = "".join(f'<th class="num">{_e(c)}</th>' if k in t.numeric else f"<th>{_e(c)}</th>"
                   for k, c in enumerate(t.columns))
    rows = []
    for r in t.rows:
        cells = []
        for k, v in enumerate(r):
            cls = ' class="num"' if k in t.numeric else (' class="wrap"' if len(str(v)) > 40 else "")
            cells.append(f"<td{cls}>{_e(v)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    body = "".join(rows) if rows else f'<tr><td colspan="{len(t.columns)}">none</td></tr>'
    notes = "".join(f'<p class="note">{_e(n)}</p>' for n in t.notes)
    h = f"<h3>{_e(t.title)}</h3>" if title else ""
    table = f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    return f"{h}{_scroll(table, wide_table(t.columns, t.rows, t.numeric))}{notes}"


def _stat(value: str, label: str, tone: str = "") -> str:
    cls = f"stat {tone}".strip()
    return f'<div class="{cls}"><b>{_e(value)}</b><span>{_e(label)}</span></div>'


def _glance(s: ShipReport) -> str:
    c = s.check
    m = s.meteors
    parts = [_stat("legal" if c.legal else "ILLEGAL", "construction", "good" if c.legal else "bad")]
    if s.round is not None:
        r = s.round
        parts += [
            _stat(f"{r.credits.mean:.1f}", "credits per round, on average"),
            _stat(pct(r.p_finish), "finishes the round", "good" if r.p_finish >= 0.95 else "bad" if r.p_finish < 0.8
                  else ""),
            _stat(f"{r.lost.mean:.1f}", "components lost per round"),
        ]
    parts += [
        _stat(str(c.exposed_connectors), "exposed connectors"),
        _stat(pct(m.p_survive), f"survive a meteor swarm of {round_name(m.round)}",
              "good" if m.p_survive == 1 else "bad" if m.p_survive < 0.9 else ""),
    ]
    if s.fix is not None and s.fix.lost is not None:
        parts.append(_stat(str(s.fix.lost), "lost at the inspection", "bad"))
    return '<div class="glance">' + "".join(parts) + "</div>"


def _columns(blocks: list[str]) -> str:
    if len(blocks) == 1:
        return blocks[0]
    return '<div class="pair">' + "".join(f"<div>{b}</div>" for b in blocks) + "</div>"


def page(rep: Document, images: dict[str, str] | None = None, phone: dict[str, str] | None = None) -> str:
    """The whole page as a string: ``images`` the wide figures' sources, ``phone`` the phone's
    (shown on screens up to 560 pixels wide); each drawn when omitted."""
    from shipcheck._version import __version__

    if images is None:
        images = inline_images(rep.figures())
    if phone is None:
        phone = inline_images(rep.figures(phone=True))
    images = Images(images)
    images.phone = phone
    pref = rep._prefixed()
    two = len(pref) > 1
    out: list[str] = []
    names = " vs ".join(s.name for s in rep.ships)
    classes = ", ".join(sorted({f"class {s.ship.board.name}" for s in rep.ships}))
    out.append(f"<header><h1>{_e(names)}</h1><p>{_e(classes)} · {_e(round_name(rep.round))} · "
               f"{_e(rep.edition)} cards · shipcheck {__version__}</p></header><main>")

    # at a glance
    out.append('<section id="glance"><h2>At a glance</h2>')
    out.append(_columns([(f"<h3>{_e(s.name)}</h3>" if two else "") + _glance(s)
                         + (f'<p class="gap">{_e(s.round.gap.sentence)}</p>' if s.round is not None
                            and s.round.gap is not None else "") for _, s in pref]))
    if rep.comparison is not None:
        c = rep.comparison
        a, b = rep.ships[0].name, rep.ships[1].name
        tone = "good" if c.credits_ci[0] > 0 else "bad" if c.credits_ci[1] < 0 else ""
        out.append(f'<p><b>{_e(b)}</b> against <b>{_e(a)}</b>, on the same {c.runs:,} decks and dice: '
                   f'<span class="tag {tone}">{c.credits:+.2f} credits</span> per round (95% interval '
                   f"{c.credits_ci[0]:+.2f} to {c.credits_ci[1]:+.2f}), {c.lost:+.2f} components lost "
                   f"({c.lost_ci[0]:+.2f} to {c.lost_ci[1]:+.2f}).</p>")
    out.append("</section>")

    # what to change
    if any(s.advice is not None for s in rep.ships):
        out.append('<section id="changes"><h2>What to change</h2><p class="lead">Single legal changes of the ship '
                   "and of how it flies, ranked by the credits they add. Green: it earns more for sure (its 95% "
                   "interval is above zero); red: it costs credits.</p>")
        out.append(_columns([(f"<h3>{_e(s.name)}</h3>" if two else "") + _advice(images, p, s) for p, s in pref]))
        out.append("</section>")

    # the ship
    out.append('<section id="ship"><h2>The ship</h2><p class="lead">Tiles as built: connectors as pipes, '
               "barrels, exhausts, shielded sides; red rings are exposed connectors, red outlines rule "
               "breaks.</p>")
    blocks = []
    for p, s in pref:
        b = _figure(images, f"{p}ship", f"drawing of {s.name}")
        tables = s.tables()
        if s.check.violations:
            b += _table(replace(tables["check"], notes=tuple(n for n in tables["check"].notes if n not in rep.notes)))
        else:
            b += f'<h3>Construction check</h3><p><span class="tag good">legal</span> no rule broken; ' \
                 f'{s.check.exposed_connectors} exposed connector(s)</p>'
            # provisional notes are listed once, at the end of the page
            b += "".join(f'<p class="note">{_e(n)}</p>' for n in s.check.notes if n not in rep.notes)
        if "fix" in tables:
            b += _table(tables["fix"])
        blocks.append(b)
    out.append(_columns(blocks))
    out.append("</section>")

    # the round
    if all(s.round is not None for s in rep.ships):
        out.append(f'<section id="round"><h2>The round</h2><p class="lead">{rep.settings.get("runs", 0):,} rounds '
                   f"of {_e(round_name(rep.round))} flown against the field, {_e(_deck_words(rep.settings))}, by the "
                   "default decisions (batteries kept for defence, rewards taken, the most valuable goods).</p>")
        gaps = [(s.name, s.round.gap) for _, s in pref if s.round is not None and s.round.gap is not None]
        for name, gap in gaps:
            out.append(f'<p class="gap">{f"<b>{_e(name)}</b>: " if two else ""}{_e(gap.sentence)}</p>')
        for key in ("sources", "credits", "losses", "cards", "field"):
            if any(f"{p}{key}" in images for p, _ in pref):
                out.append(_columns([_figure(images, f"{p}{key}", f"{s.name}: {key}") for p, s in pref
                                     if f"{p}{key}" in images]))
        out.append(_columns([(f"<h3>{_e(s.name)}</h3>" if two else "") + _table(s.tables()["round"], title=not two)
                             for _, s in pref]))
        out.append("</section>")

    # meteors
    m0 = rep.ships[0].meteors
    out.append(f'<section id="meteors"><h2>Meteor swarms of {_e(round_name(rep.round))}</h2><p class="lead">The chance '
               "each square is lost when a meteor swarm of this round comes, counting the meteors from one "
               "side at a time, then whole swarms; exact, with the default defence (shields and cannons "
               f"whenever a charge allows). Swarm cards are weighted by their chance of being in the deck of "
               f"{_e(round_name(m0.round))}.</p>")
    if two:
        out.append(_columns([_figure(images, f"{p}heat-all", f"{s.name}: whole swarms", s.name) for p, s in pref]))
        for d in DIRS:
            out.append(_columns([_figure(images, f"{p}heat-{d}", f"{s.name}: meteors from the {d}")
                                 for p, s in pref]))
    else:
        out.append(_figure(images, "heat-all", "heat map: whole swarms"))
        out.append('<div class="grid">' + "".join(_figure(images, f"heat-{d}", f"heat map: meteors from the {d}")
                                                  for d in DIRS) + "</div>")
    out.append(_columns([(f"<h3>{_e(s.name)}</h3>" if two else "") + _table(s.tables()["swarms"], title=not two)
                         for _, s in pref]))
    out.append("</section>")

    # parameters
    out.append('<section id="parameters"><h2>Parameters</h2>')
    out.append(_columns([(f"<h3>{_e(s.name)}</h3>" if two else "") + _table(s.tables()["stats"], title=False)
                         for _, s in pref]))
    out.append("</section>")

    # notes
    out.append('<section id="notes"><h2>How these figures were made</h2>')
    for n in rep.notes:
        out.append(f'<p class="note">{_e(n)}</p>')
    out.append('<p class="note">Flights follow the default policy: defend whenever the rules allow and a '
               "battery charge is left; free cannons before charged ones; after a split keep the piece with "
               "the most humans.</p>")
    settings = ", ".join(f"{k} {v}" for k, v in rep.settings.items())
    out.append(f'<p class="note">Settings: {_e(settings)}.</p></section>')
    out.append("</main><footer>Made by shipcheck; every figure also sits beside this page as PNG and SVG."
               "</footer>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{_e(rep.title)}</title><style>{CSS}</style></head><body>" + "".join(out) + "</body></html>\n")


def _deck_words(settings: dict[str, Any]) -> str:
    deck = settings.get("deck", "drawn")
    if deck == "drawn":
        return "each with a deck drawn as the rules build it"
    return "each with the deck " + ", ".join(deck) + " in that order"


def _effect_cell(e: Any) -> str:
    """Credits per round with the interval, coloured by the verdict; a sure loss reads as a cost."""
    lo, hi = e.credits_ci
    tone = {"gain": "good", "loss": "bad"}.get(e.verdict, "")
    value = f"costs {-e.credits:.2f}" if e.verdict == "loss" else f"{e.credits:+.2f}"
    return (f'<td class="num"><span class="tag {tone}">{value}</span><br><small>{lo:+.2f} to {hi:+.2f}</small>'
            f"</td>")


def _details(e: Any, extra: str = "") -> str:
    """What else a change does, small under its words: components lost, the chance to finish."""
    return (f"<br><small>{e.lost:+.2f} components lost · chance to finish {e.finish * 100:+.0f} points{extra}"
            "</small>")


EFFECTS_HEAD = '<thead><tr><th>{}</th><th class="num">credits a round</th></tr></thead>'


def _effects_table(effects: Any, first: str = "change") -> str:
    rows = [f"<tr><td>{_e(e.variant.text)}{_details(e)}</td>{_effect_cell(e)}</tr>" for e in effects]
    # two columns, the words wrapping: the table fits a phone
    return _scroll(f"<table>{EFFECTS_HEAD.format(_e(first))}<tbody>{''.join(rows)}</tbody></table>", False)


def _advice(images: dict[str, str], prefix: str, s: ShipReport) -> str:
    adv = s.advice
    if adv is None:
        return ""
    measured = adv.measured
    if not measured and not adv.additions:
        return "<p>No legal single change found to try.</p>"
    best = adv.best
    how = (f"Every change flies the very {adv.runs:,} rounds the ship flew (the same decks and dice, seed {adv.seed}): "
           "its effect is the mean of the run-by-run differences, the change minus the ship as built, with its "
           f"95% interval. {adv.screened} legal changes were first screened on {adv.screen_runs:,} rounds of a stream "
           "of their own; the most promising were measured again, and those are shown.")
    if best is not None:
        out = (f'<p><b>Best change:</b> {_e(best.variant.text)}: <span class="tag good">{best.credits:+.2f} '
               f"credits</span> per round ({best.credits_ci[0]:+.2f} to {best.credits_ci[1]:+.2f})"
               + (", for the next build" if best.variant.group == "build" else ", in flight") + ".</p>")
    else:
        out = (f"<p><b>No single change earns more.</b> None of the {adv.screened} legal changes tried raises the "
               "credits for sure (its 95% interval above zero): the ship as built holds its own. The changes "
               "below are the ones that cost least, shown as what they cost.</p>")
    out += f'<p class="note">{_e(how)}</p>'
    if f"{prefix}changes" in images:
        out += _figure(images, f"{prefix}changes", f"{s.name}: effects of changes")
    build = adv.build
    out += "<h3>Next time you build</h3>"
    out += ('<p class="note">A welded ship cannot be changed: rotations, moves, removals, additions and swaps are '
            "advice for the next time you build this ship.</p>")
    if build:
        out += _effects_table(build)
    else:
        out += "<p>No change of the ship made a difference in any round.</p>"
    if adv.additions:
        out += "<h3>Tiles from the pile</h3>"
        placed = [a for a in adv.additions if a.effect is not None]
        if placed:
            out += (f'<p class="note">The {len(adv.additions)} kinds of tile found most often in the pile, each at '
                    "the free square where it does most: the placement advisor's best squares for every catalogue "
                    "tile of the kind, flown as above.</p>")
            rows = []
            for a in adv.additions:
                if a.effect is None:
                    rows.append(f"<tr><td>{_e(a.pile.name)}<br><small>{a.pile.count} in the pile: {_e(a.reason)}"
                                "</small></td><td></td></tr>")
                else:
                    e = a.effect
                    rows.append(f"<tr><td>{_e(e.variant.text)}{_details(e, f' · {a.pile.count} in the pile')}</td>"
                                f"{_effect_cell(e)}</tr>")
            out += _scroll(f"<table>{EFFECTS_HEAD.format('tile and its best square')}<tbody>{''.join(rows)}"
                           "</tbody></table>", False)
        else:
            reasons = list(dict.fromkeys(a.reason for a in adv.additions))
            kinds = f"none of the {len(adv.additions)} kinds of tile found most often in the pile"
            out += (f"<p>No tile from the pile can be added ({kinds}): {_e(reasons[0])}.</p>" if len(reasons) == 1
                    else f"<p>No tile from the pile can be added ({kinds}):</p><ul>"
                    + "".join(f"<li>{_e(a.pile.name)}: {_e(a.reason)}</li>" for a in adv.additions) + "</ul>")
    if adv.flight:
        out += "<h3>In flight</h3>"
        out += '<p class="note">The same ship flown by other decisions (the policies of shipcheck simulate).</p>'
        out += _effects_table(adv.flight, "policy")
    if adv.idle:
        out += f'<p class="note">{len(adv.idle)} change(s) made no difference in any round.</p>'
    return out


def inline_images(figures: dict[str, Any]) -> dict[str, str]:
    """Each figure as an SVG data URI (crisp on any screen)."""
    from shipcheck.report.encode import render

    return {k: data_uri(render(fig, "svg"), "image/svg+xml") for k, fig in figures.items()}


def notebook(rep: Document) -> str:
    """A report in a notebook cell (``Report._repr_html_``): per ship its drawing, the figures at a
    glance and the best changes; ``rep.figures()`` and ``rep.write(folder)`` give the rest."""
    from shipcheck.report.encode import render
    from shipcheck.report.plots import ship_figure

    box = "display:inline-block;vertical-align:top;margin:0 18px 8px 0;max-width:520px"
    out = [f"<div><b>{_e(rep.title)}</b>"]
    if rep.comparison is not None:
        c = rep.comparison
        out.append(f"<p>{_e(rep.ships[1].name)} against {_e(rep.ships[0].name)} on the same {c.runs:,} decks and dice: "
                   f"{c.credits:+.2f} credits ({c.credits_ci[0]:+.2f} to {c.credits_ci[1]:+.2f})</p>")
    for s in rep.ships:
        svg = render(ship_figure(s.view), "svg").decode("utf-8")
        svg = svg[svg.index("<svg"):]
        facts = [("construction", "legal" if s.check.legal else "ILLEGAL"),
                 ("exposed connectors", str(s.check.exposed_connectors))]
        if s.round is not None:
            r = s.round
            facts += [("credits per round", f"{r.credits.mean:.2f} ({r.credits.ci[0]:.2f} to {r.credits.ci[1]:.2f})"),
                      ("finishes the round", pct(r.p_finish)), ("components lost", f"{r.lost.mean:.2f}")]
        rows = "".join(f"<tr><td>{_e(k)}</td><td>{_e(v)}</td></tr>" for k, v in facts)
        changes = ""
        if s.advice is not None:
            best = s.advice.measured[:3]
            items = "".join(f"<li>{_e(e.variant.text)}: {e.credits:+.2f} ({e.credits_ci[0]:+.2f} to "
                            f"{e.credits_ci[1]:+.2f})</li>" for e in best)
            head = "best changes" if s.advice.best is not None else "no single change earns more; the least costly"
            changes = f"<p><b>{_e(head)}</b></p><ul>{items}</ul>" if items else ""
        out.append(f'<div style="{box}"><div style="max-width:420px">{svg}</div></div>'
                   f'<div style="{box}"><table>{rows}</table>{changes}</div>')
    out.append("<p><small>rep.figures() draws every figure; rep.write(folder) writes the page, the figures and "
               "report.json.</small></p></div>")
    return "".join(out)
