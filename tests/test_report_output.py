"""The report's figures draw their data, its folder never loses a user's file, and its files repeat."""

from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

import pytest
from matplotlib.figure import Figure
from shipbuild import PILOT, ship, tile

import shipcheck
from shipcheck.cards import Attack, Card
from shipcheck.check.rules import check
from shipcheck.errors import InputError
from shipcheck.report import plots
from shipcheck.report.figures import meteor_data, pct, ship_data
from shipcheck.report.output import MANIFEST, file_names, inline_images, read_manifest, render

SMALL = ship(PILOT + tile((7, 6), "cannon", "0030") + tile((7, 8), "engine", "3000")
             + tile((8, 7), "shield", "0003") + tile((6, 7), "battery", "0303", cells=2), extra='name = "Tiny"\n')


def texts(fig: Figure) -> list[str]:
    return [t.get_text() for ax in fig.axes for t in ax.texts]


def test_ship_figure_shows_every_tile_and_rule_break() -> None:
    bad = ship(PILOT + tile((6, 7), "cannon", "0030", rot=90))
    fig = plots.ship_figure(ship_data(bad, check(bad)))
    shown = texts(fig)
    assert shown.count("pilot") == 1 and shown.count("cannon") == 1
    assert "C1 K1 S1" in shown and "C1 K1" in shown
    assert fig.axes[0].get_title(loc="left") == "class I ship"


def test_heat_figure_prints_the_probability_of_every_tile() -> None:
    swarm = Card("2007", "I-99", 1, 99, "meteor_swarm", meteors=(Attack("small", "front"), Attack("large", "left")))
    m = meteor_data(ship(PILOT), round=1, cards=[(swarm, F(1))])
    view = ship_data(ship(PILOT), check(ship(PILOT)))
    for d, p in (("front", F(1, 6)), ("right", F(0)), ("all", F(11, 36))):
        shown = texts(plots.heat_figure(m, view, d))
        assert pct(p) in shown


def test_rendering_repeats_byte_for_byte() -> None:
    view = ship_data(SMALL, check(SMALL))
    png, svg = (render(plots.ship_figure(view), fmt) for fmt in ("png", "svg"))
    assert render(plots.ship_figure(view), "png") == png and render(plots.ship_figure(view), "svg") == svg
    assert png.startswith(b"\x89PNG")
    assert b"<svg" in svg[:400]


@pytest.fixture(scope="module")
def small_report() -> shipcheck.Report:
    return shipcheck.report(SMALL, opponents=[], runs=60, seed=1, recommendations=False)


def test_write_and_rewrite(tmp_path: Path, small_report: shipcheck.Report) -> None:
    out = tmp_path / "r"
    written = small_report.write(out)
    names = {p.name for p in written}
    assert {"index.html", "report.json", "ship.png", "ship.svg", "heat-all.png", "heat-front.svg"} <= names
    assert [p.name for p in written] == file_names(small_report)  # the names, known without drawing
    assert set(read_manifest(out)) == names
    before = {p.name: p.read_bytes() for p in written}
    (out / "my-notes.txt").write_text("mine")
    again = small_report.write(out)  # our own, unchanged files may be replaced
    assert {p.name: p.read_bytes() for p in again} == before
    assert (out / "my-notes.txt").read_text() == "mine"
    doc = json.loads((out / "report.json").read_text())
    assert doc["ships"][0]["name"] == "Tiny" and doc["round"] == 1


def test_a_file_it_did_not_write_is_never_overwritten(tmp_path: Path, small_report: shipcheck.Report) -> None:
    out = tmp_path / "r"
    out.mkdir()
    (out / "index.html").write_text("the user's page")
    with pytest.raises(InputError, match="did not write"):
        small_report.write(out)
    assert (out / "index.html").read_text() == "the user's page"
    assert sorted(p.name for p in out.iterdir()) == ["index.html"]  # nothing else written either


def test_a_refusal_comes_before_any_figure_is_drawn(tmp_path: Path) -> None:
    rep = shipcheck.report(SMALL, opponents=[], runs=10, seed=1, recommendations=False)
    (tmp_path / "heat-all.png").write_text("the user's picture")
    with pytest.raises(InputError, match="heat-all.png"):
        rep.write(tmp_path)
    assert "_drawn_files" not in vars(rep)  # the names were known without drawing
    assert rep.figure_names() == list(rep.figures())


def test_a_file_changed_since_is_the_users(tmp_path: Path, small_report: shipcheck.Report) -> None:
    out = tmp_path / "r"
    small_report.write(out)
    (out / "ship.svg").write_text("edited by hand")
    with pytest.raises(InputError, match="ship.svg"):
        small_report.write(out)
    assert (out / "ship.svg").read_text() == "edited by hand"


def test_stale_files_of_its_own_are_removed(tmp_path: Path, small_report: shipcheck.Report) -> None:
    out = tmp_path / "r"
    out.mkdir()
    (out / "a-ship.png").write_bytes(b"old")
    (out / MANIFEST).write_text(json.dumps({"written_by": "shipcheck report",
                                            "files": {"a-ship.png": __import__("hashlib").sha256(b"old").hexdigest()}}))
    small_report.write(out)
    assert not (out / "a-ship.png").exists()


def test_an_out_path_that_is_a_file(tmp_path: Path, small_report: shipcheck.Report) -> None:
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(InputError):
        small_report.write(f)


def test_a_symlink_in_the_way_is_never_followed(tmp_path: Path, small_report: shipcheck.Report) -> None:
    out = tmp_path / "r"
    small_report.write(out)
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me")
    (out / "index.html").unlink()
    (out / "index.html").symlink_to(precious)
    with pytest.raises(InputError, match="index.html"):
        small_report.write(out)
    assert precious.read_text() == "keep me"
    assert (out / "index.html").is_symlink()


def test_a_manifest_it_did_not_write_stops_the_report(tmp_path: Path, small_report: shipcheck.Report) -> None:
    out = tmp_path / "r"
    out.mkdir()
    (out / MANIFEST).write_text('{"files": {}}')
    with pytest.raises(InputError, match="did not write"):
        small_report.write(out)
    assert sorted(p.name for p in out.iterdir()) == [MANIFEST]


def test_no_temporary_files_are_left_behind(tmp_path: Path, small_report: shipcheck.Report) -> None:
    out = tmp_path / "r"
    small_report.write(out)
    small_report.write(out)
    assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]


# -- two ships compared share each figure's scales ------------------------------------------------
@pytest.fixture(scope="module")
def compared() -> shipcheck.Report:
    # the small ship against a bigger class I ship: different losses, credits and heat
    return shipcheck.report(SMALL, ROOT / "examples" / "class-I-scout.toml", runs=100, seed=2, recommendations=False)


ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def compared_figures(compared: shipcheck.Report) -> dict[bool, dict[str, Figure]]:
    """The compared report's figures, wide (``False``) and for a phone (``True``), drawn once: the
    scales' test reads them and the page shows them."""
    return {phone: compared.figures(phone=phone) for phone in (False, True)}


def _heat_norm(fig: Figure):  # type: ignore[no-untyped-def]
    return fig.axes[1]._colorbar.mappable.norm  # the colour bar's mapping: chance -> colour


@pytest.mark.parametrize("phone", [False, True])
def test_two_ships_share_colours_and_axes(compared: shipcheck.Report, compared_figures: dict[bool, dict[str, Figure]],
                                         phone: bool) -> None:
    figs = compared_figures[phone]
    a_ship, b_ship = compared.ships
    # the same chance is the same colour: one colour scale over both ships' maps
    tops = [float(m.max) for s in compared.ships for m in s.meteors.maps]
    for d in ("front", "right", "rear", "left", "all"):
        na, nb = _heat_norm(figs[f"a-heat-{d}"]), _heat_norm(figs[f"b-heat-{d}"])
        assert (na.vmin, na.vmax) == (nb.vmin, nb.vmax) == (0.0, max(max(tops), 0.05))
    # histograms on the same axes, so they compare by eye
    for key, attr in (("credits", "credits"), ("losses", "lost")):
        ax_a, ax_b = figs[f"a-{key}"].axes[0], figs[f"b-{key}"].axes[0]
        assert ax_a.get_xlim() == ax_b.get_xlim() and ax_a.get_ylim() == ax_b.get_ylim()
        values = [v for s in compared.ships for v in getattr(s.round, attr).values]
        lo, hi = ax_a.get_xlim()
        assert lo < min(values) and max(values) < hi
        top = max(sh for s in compared.ships for sh in getattr(s.round, attr).shares) * 100
        assert ax_a.get_ylim()[1] >= top
    # card by card: the same card types in the same order, on the same scale
    ca, cb = figs["a-cards"].axes[0], figs["b-cards"].axes[0]
    def names(ax):  # type: ignore[no-untyped-def]
        return [t.get_text().split("\n")[0] for t in ax.get_yticklabels()]  # a phone adds "gives up" under a name

    assert names(ca) == names(cb) and names(ca)
    assert ca.get_xlim() == cb.get_xlim()
    assert len(ca.get_yticks()) == len(cb.get_yticks())
    assert figs["a-field"].axes[0].get_xlim() == figs["b-field"].axes[0].get_xlim()
    assert figs["a-sources"].axes[0].get_xlim() == figs["b-sources"].axes[0].get_xlim()
    assert a_ship.round is not None and b_ship.round is not None


def test_one_ship_keeps_its_own_scale(small_report: shipcheck.Report) -> None:
    rep = small_report
    fig = rep.figures()["heat-all"]
    assert _heat_norm(fig).vmax == max(max(float(m.max) for m in rep.ships[0].meteors.maps), 0.05)


def test_the_page_and_the_json_name_the_biggest_gap_to_the_field(
        compared: shipcheck.Report, compared_figures: dict[bool, dict[str, Figure]]) -> None:
    doc = compared.to_dict()
    page = compared.html(inline_images(compared_figures[False]), inline_images(compared_figures[True]))
    for s, d in zip(compared.ships, doc["ships"], strict=True):
        gap = s.round.gap
        assert gap is not None and d["field_gap"]["sentence"] == gap.sentence
        assert d["field_gap"]["opponent"] in {p.name for p in s.round.players if not p.ship}
        assert __import__("html").escape(gap.sentence) in page
        # the JSON's parts add up to the mean credits, for the ship and each opponent
        parts = d["round"]["credits"]["by_source"]
        assert sum(parts.values()) == pytest.approx(d["round"]["credits"]["mean"])


def test_a_name_in_a_script_the_font_lacks_draws_without_a_warning() -> None:
    import warnings

    from shipcheck.report.encode import render

    fig = Figure()
    fig.text(0.5, 0.5, "Schiff ✈ 日本")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a glyph warning per character reached the user's terminal
        assert render(fig, "png").startswith(b"\x89PNG") and b"<svg" in render(fig, "svg")
