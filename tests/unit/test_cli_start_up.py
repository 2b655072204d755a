"""``venue pair`` and ``venue tiebreaks`` start without the web stack (issue 15): run as an arbiter
runs them, in a new process, they import none of starlette, uvicorn, websockets, aiomqtt, paho,
amqtt, redis. The modules imported are read from ``python -X importtime`` (every import, one line
on stderr); the test asserts their absence, never a time (speed lives in bench/).

Expected outputs, so each run is a real one: the pairing of ../shared/data/pairing/dutch
``dutch-001002-14p-r6of6.pairs`` and the tie-breaks of ../shared/data/tiebreaks/swiss
``swiss-002001-12p-7r.tiebreaks.tsv``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

WEB_STACK = ("starlette", "uvicorn", "websockets", "aiomqtt", "paho", "amqtt", "redis")


def imported(argv: list[str]) -> tuple[subprocess.CompletedProcess, set[str]]:
    """Run ``python -X importtime -m venue ARGV``; the process and the top-level names of every
    module it imported."""
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "venue", *argv],
                          capture_output=True, text=True, timeout=120)
    names = {line.rsplit("|", 1)[1].strip().split(".")[0] for line in proc.stderr.splitlines()
             if line.startswith("import time:") and line.count("|") == 2}
    assert "venue" in names, proc.stderr[-2000:]  # -X importtime did report
    return proc, names


def test_venue_pair_pairs_without_the_web_stack(shared_data: Path) -> None:
    case = shared_data / "pairing" / "dutch" / "dutch-001002-14p-r6of6"
    proc, names = imported(["pair", str(case.with_suffix(".trf"))])
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == case.with_suffix(".pairs").read_text().split()
    assert {"services", "chess"} & names  # the pairing ran: its own modules were imported
    assert not names & set(WEB_STACK), sorted(names & set(WEB_STACK))


@pytest.mark.parametrize("argv", [["pair", "--help"], ["pair", "--berger", "6"], ["tiebreaks", "--help"]])
def test_venue_pair_and_tiebreaks_help_without_the_web_stack(argv: list[str]) -> None:
    proc, names = imported(argv)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert not names & set(WEB_STACK), sorted(names & set(WEB_STACK))


def test_venue_tiebreaks_without_the_web_stack(shared_data: Path) -> None:
    folder = shared_data / "tiebreaks" / "swiss"
    expected = (folder / "swiss-002001-12p-7r.tiebreaks.tsv").read_text().split("\n")
    specs = expected[0].split("\t")[2:]
    proc, names = imported(["tiebreaks", str(folder / "swiss-002001-12p-7r.trf"), "--system", "swiss",
                            "--tiebreaks", ",".join(specs), "--tsv"])
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split("\n")[:2] == expected[:2]
    assert not names & set(WEB_STACK), sorted(names & set(WEB_STACK))


def test_the_check_sees_the_web_stack_when_it_is_loaded() -> None:
    """The check itself: ``venue dashboard --help`` builds the parser after importing the web
    stack's entry point (``venue.serve``), so the same reading must find it there."""
    proc, names = imported(["dashboard", "--help"])
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert names & set(WEB_STACK)


def test_venue_pair_refuses_a_round_robin_trf(tmp_path, shared_data):
    """A TRF whose 092 says round robin (as `venue export` writes a Berger event's) is not paired by
    the Dutch system (FIDE C.04.3 pairs Swiss events; a round robin's rounds are the Berger tables
    of C.05 Annex 1): exit 2 and the reason (new-user report: it printed a Swiss pairing)."""
    import glob
    source = sorted(glob.glob(str(shared_data / "**" / "*.trf"), recursive=True))[0]
    text = open(source, encoding="utf-8").read()
    lines = [ln for ln in text.splitlines() if not ln.startswith("092")]
    (tmp_path / "rr.trf").write_text("092 Round robin\n" + "\n".join(lines) + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "venue", "pair", str(tmp_path / "rr.trf")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Berger tables" in done.stderr and "Round robin" in done.stderr
