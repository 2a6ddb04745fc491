"""The rules page of the documentation, written from the rule registry so the two cannot drift.

``python -m shipcheck.check.ruledoc > docs/rules.md`` writes it; a test checks that the committed page is
what this module writes today.
"""

from __future__ import annotations

from shipcheck.check.rules import RULES, Rule, check
from shipcheck.render import render_ship_text
from shipcheck.shipfile import parse_ship


def _marks(text: str) -> tuple[str, list[str]]:
    """A rule example drawn with its offending squares marked, and what `check` says of it."""
    ship = parse_ship(text, file="<example>")
    report = check(ship)
    marks: dict[int, str] = {}
    for v in report.violations:
        for i in v.cells:
            marks.setdefault(i, v.code)
    b = ship.board
    lines = [f"{v.code} {v.rule.name}: {' '.join(b.cell_text(i) for i in v.cells)}: {v.message}"
             for v in report.violations]
    return render_ship_text(ship, marks=marks), lines


def rule_section(rule: Rule) -> str:
    out = [f"## {rule.code} {rule.name}", ""]
    out.append(f"**{rule.severity}**"
               + ("; `shipcheck fix` mends it by removing components" if rule.fixable and rule.severity == "error"
                  else "; `shipcheck fix` does not remove components for it"))
    out += ["", rule.summary, "", f"**Why.** {rule.why}", ""]
    if rule.source:
        out += [f"**Source.** {rule.source}", ""]
    for which, text in (("Bad", rule.bad), ("Good", rule.good)):
        drawing, found = _marks(text)
        out += [f"{which} ship:", "", "```toml", text.strip(), "```", "", "```text", drawing, "```", ""]
        if found:
            out += ["`shipcheck check` reports:", ""] + [f"- {line}" for line in found] + [""]
        else:
            out += ["`shipcheck check` reports nothing.", ""]
    return "\n".join(out)


def rules_markdown() -> str:
    """The whole rules page."""
    head = [
        "# The construction rules",
        "",
        "<!-- Written by `python -m shipcheck.check.ruledoc > docs/rules.md` from the rule registry; do not edit. -->",
        "",
        "Every rule has a stable code, a kebab-case name and a severity. Codes are never reused. An",
        "**error** makes the ship illegal (`shipcheck check` exits 1); a **warning** is reported but the",
        "ship stays legal. `shipcheck rules` lists them and `shipcheck rules CODE` explains one in the",
        "terminal; `--select` and `--ignore` (or the `select` and `ignore` settings, see [ci.md](ci.md))",
        "choose which ones a run reports.",
        "",
        "Squares are written `(column,row)` by the labels printed on the board edges. The drawings mark",
        "each offending square with the code it breaks; the legend of the drawings is in",
        "[ship-format.md](ship-format.md#drawings).",
        "",
        "| code | name | severity | what |",
        "|---|---|---|---|",
    ]
    head += [f"| [{r.code}](#{r.code.lower()}-{r.name}) | {r.name} | {r.severity} | {r.summary} |" for r in RULES.values()]
    head.append("")
    return "\n".join(head) + "\n" + "\n".join(rule_section(r) for r in RULES.values())


if __name__ == "__main__":  # pragma: no cover
    import sys

    sys.stdout.write(rules_markdown())
