"""Issue 36: a designed rule set's header states its verdict, and every seed a design writes is an exact
integer (the record, the ``--csv`` table, the workbook), including the records committed before the fix,
whose float seeds are re-derived from the master seed.

Truths: :func:`~ricochet_math.design.rule_set.role_seed` (the confirmation's seed is the first 64 bits of
``SeedSequence(seed, spawn_key=(CONFIRM, N))``) and the exact seed the method text of each row names.
"""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pandas as pd
import pytest

from ricochet_math.cli.app import main
from ricochet_math.design.design_record import confirmation_seed, rederive_seeds
from ricochet_math.design.rule_set import CONFIRM, design_rule_set, role_seed
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.storage import exact_seed_columns, frame_records

GRID = ("KK", "AAQ", "TTxx", "AAxx", "222")
DESIGN = Path(__file__).resolve().parents[2] / "reports" / "design"


@pytest.fixture(scope="module")
def missed():
    """A band no design reaches (RTP 130%): infeasible and not confirmed."""
    return design_rule_set(load_rules(), (1.30, 1.31), reading="pot-odds-final", vary="kickout", players=(1, 2),
                           grid=GRID, search_precision=2.0, confirm_precision=2.0, others=(), seed=1)


def test_toml_header_states_a_missed_design(missed, tmp_path):
    text = missed.write_toml(tmp_path / "d.toml").read_text()
    head = [l for l in text.splitlines() if l.startswith("#")]
    verdict = next(l for l in head if l.startswith("# Verdict:"))
    assert "NOT in the band" in verdict and f"{missed.miss * 100:.3f} points" in verdict
    assert "not confirmed" in verdict
    assert "(not met: see the header)" in head[0] and "not met" in load_rules(tmp_path / "d.toml").description


def test_verdict_of_a_met_design_and_of_an_unconverged_one(missed):
    import dataclasses

    met = dataclasses.replace(missed, choice=dataclasses.replace(missed.choice, miss=0.0),
                              table=missed.table.assign(in_band=True))
    assert met.verdict().startswith("feasible and confirmed")
    assert "not met" not in met.to_toml()
    stuck = dataclasses.replace(met, converged=False, stop_reason="not converged: the re-solves ran out")
    assert stuck.verdict().endswith("the search did NOT converge") and "not met" in stuck.to_toml()


def test_seeds_round_trip_as_integers(missed, tmp_path, capsys):
    exact = role_seed(1, CONFIRM, 2)
    assert exact > 2 ** 53  # a float could not hold it
    assert list(missed.table["seed"]) == [None, exact]
    missed.write_toml(tmp_path / "d.toml")
    record = json.loads((tmp_path / "d.design.json").read_text())
    assert [r["seed"] for r in record["table"]] == [None, exact]
    # the CSV as `ricochet design --csv` writes it: the digits, read back exactly
    text = exact_seed_columns(missed.table).to_csv(index=False)
    rows = list(csv.DictReader(text.splitlines()))
    assert [r["seed"] for r in rows] == ["", str(exact)]
    (tmp_path / "t.csv").write_text(text)
    assert int(pd.read_csv(tmp_path / "t.csv", dtype={"seed": "string"})["seed"].iloc[1]) == exact
    assert frame_records(missed.table)[1]["seed"] == exact
    # the JSON format of the command line
    assert main(["design", "--band", "130", "131", "--reading", "pot-odds-final", "--vary", "kickout",
                 "--players", "2", "--grid", "KK AAQ", "--search-precision", "2", "--confirm-precision", "2",
                 "--others", "", "--quiet", "--seed", "1", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["seed"] == exact


def test_workbook_keeps_a_64_bit_seed_digit_for_digit(tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    from ricochet_math.reports.workbook import write_workbook

    exact = role_seed(2026, CONFIRM, 7)
    frame = pd.DataFrame({"players": [1, 7], "seed": pd.Series([None, exact], dtype=object), "rtp": [0.96, 0.97]})
    write_workbook(tmp_path / "w.xlsx", {"t": frame}, {"t": "t"}, "title", "not recorded")
    sheet = openpyxl.load_workbook(tmp_path / "w.xlsx")["t"]
    assert sheet["B3"].value == str(exact) and sheet["C3"].value == 0.97


def test_a_float_seed_that_lost_digits_is_never_written():
    with pytest.raises(RuntimeError, match="lost digits"):
        exact_seed_columns(pd.DataFrame({"seed": [None, float(role_seed(2026, CONFIRM, 7))]}))
    whole = exact_seed_columns(pd.DataFrame({"seed": [None, 210.0]}))  # below 2**53 a float is exact
    assert whole["seed"].tolist() == [None, 210]


def test_committed_design_seeds_are_exact_and_derived():
    """Every committed record and table holds its confirmation seeds as integers, each the derivation from
    the record's master seed (they were rewritten by ``make_answers.py --rederive-seeds``)."""
    records = sorted(DESIGN.glob("*.design.json"))
    assert records
    for path in records:
        record = json.loads(path.read_text())
        for row in record["table"]:
            if row["rounds"]:
                assert isinstance(row["seed"], int)
                assert row["seed"] == confirmation_seed(record["seed"], row["players"])
                assert f"seed {row['seed']}" in row["method"]
        with path.with_suffix("").with_suffix(".csv").open() as f:
            for row in csv.DictReader(f):
                assert row["seed"] == "" or row["seed"] == str(confirmation_seed(record["seed"], int(row["players"])))


def test_rederive_checks_the_stored_digits_before_writing(tmp_path):
    src = DESIGN / "perfect-flat.design.json"
    old = src.read_text()
    seed2 = confirmation_seed(2026, 2)
    # the file as it was committed: pandas' float text of the seed
    path = tmp_path / "x.design.json"
    path.write_text(old.replace(f'"seed": {seed2},', '"seed": 8.17574079e+17,'))
    assert "8.17574079e+17 -> 817574078950589720" in "\n".join(rederive_seeds(path, write=True))
    assert path.read_text() == old  # every other byte kept
    # a stored seed the derivation does not give: refused, nothing written
    bad = old.replace(f'"seed": {seed2},', '"seed": 8.17574078e+17,')
    path.write_text(bad)
    with pytest.raises(RuntimeError, match="not the derivation"):
        rederive_seeds(path, write=True)
    assert path.read_text() == bad
    # the CSV: pandas' 16-digit float text, rewritten to the digits
    table = (DESIGN / "perfect-flat.csv").read_text()
    path.write_text(old)
    (tmp_path / "x.csv").write_text(table.replace(f",{seed2},", ",8.175740789505897e+17,"))
    rederive_seeds(path, tmp_path / "x.csv", write=True)
    assert (tmp_path / "x.csv").read_text() == table


def test_the_record_gives_the_same_verdict_as_the_design(missed, tmp_path):
    from ricochet_math.design.design_record import add_verdict_header, record_verdict

    missed.write_toml(tmp_path / "v.toml")
    record = json.loads((tmp_path / "v.design.json").read_text())
    assert record_verdict(record) == (missed.verdict(), False)
    assert add_verdict_header(tmp_path / "v.design.json") is None  # a new file has its verdict already


def test_committed_designs_state_their_verdict():
    """Every committed designed rule set's header carries its record's verdict (added by make_answers.py
    --verdict-headers to the files written before issue 36), its description says 'not met' exactly when the
    design is not, and the record still names the file as it is."""
    from ricochet_math.design.design_record import NOT_MET, record_verdict

    for path in sorted(DESIGN.glob("*.design.json")):
        record = json.loads(path.read_text())
        toml = DESIGN / record["rules_file"]
        text, met = record_verdict(record)
        assert f"# Verdict: {text}." in toml.read_text().splitlines()[:3]
        rules = load_rules(toml)
        assert (NOT_MET in rules.description) == (not met)
        assert rules.sha256 == record["designed_sha256"]
