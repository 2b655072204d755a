"""The ``venue`` command line: dispatch and clear errors (exit code 2, one line, no traceback).

Source of the expectations: the project's brief for the CLI (README.md "Running it at a venue":
"exits with code 2 and one line on stderr") and docs/CONTRIBUTING.md ("Bad input gets a clear error").
"""

from __future__ import annotations

import socket
import subprocess
import sys
import types

import pytest

from venue.cli import main


def closed_port() -> int:
    """A port nothing listens on (bound then released; never 1883)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    err = capsys.readouterr().err
    return code, err


def test_missing_round_file(capsys, tmp_path):
    code, err = run(capsys, "serve", "--mqtt", "mqtt://127.0.0.1:1", "--store", "memory://",
                    "--tournament", "t", "--round", str(tmp_path / "nope.pgn"))
    assert code == 2 and "file not found" in err and "Traceback" not in err


def test_unreadable_round_file(capsys, tmp_path):
    bad = tmp_path / "round.pgn"
    bad.write_text("this is not a PGN file")
    code, err = run(capsys, "serve", "--mqtt", "mqtt://127.0.0.1:1", "--store", "memory://",
                    "--tournament", "t", "--round", str(bad))
    assert code == 2 and str(bad) in err


def test_unreachable_broker(capsys):
    port = closed_port()
    code, err = run(capsys, "gateway", "--mqtt", f"mqtt://127.0.0.1:{port}", "--store", "memory://",
                    "--tournament", "t")
    assert code == 2 and f"cannot reach the MQTT broker at 127.0.0.1:{port}" in err


@pytest.mark.parametrize("url", ["http://127.0.0.1:1883", "127.0.0.1:1883", "mqtt://h:notaport"])
def test_bad_mqtt_url(capsys, url):
    code, err = run(capsys, "simulate", "--mqtt", url, "--tournament", "t", "--pgn", __file__)
    assert code == 2 and "MQTT URL" in err


@pytest.mark.parametrize("url", ["nowhere", "ftp://x/y"])
def test_bad_store_url(capsys, url):
    code, err = run(capsys, "dashboard", "--store", url, "--tournament", "t")
    assert code == 2 and "--store" in err


def test_unreachable_store(capsys):
    code, err = run(capsys, "dashboard", "--store", f"redis://127.0.0.1:{closed_port()}/0",
                    "--tournament", "t")
    assert code == 2 and "cannot reach the event log store" in err


def test_busy_port(capsys):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        code, err = run(capsys, "dashboard", "--store", "memory://", "--tournament", "t",
                        "--port", str(port))
    assert code == 2 and f"cannot serve the dashboard on 127.0.0.1:{port}" in err


def test_usage_errors_exit_2(capsys):
    assert main([]) == 2
    assert main(["demo", "--speed", "-1"]) == 2
    assert main(["demo", "--port", "70000"]) == 2
    assert main(["nonsense"]) == 2
    assert main(["--help"]) == 0


@pytest.mark.parametrize("name", ["pair", "tiebreaks"])
def test_pair_and_tiebreaks_get_the_rest_of_argv(monkeypatch, name):
    seen = []
    stub = types.ModuleType(f"venue.{name}")
    stub.main = lambda argv: seen.append(argv) or 3
    monkeypatch.setitem(sys.modules, f"venue.{name}", stub)
    assert main([name, "--x", "file.trf"]) == 3
    assert seen == [["--x", "file.trf"]]


def test_python_dash_m_venue_prints_no_traceback():
    proc = subprocess.run([sys.executable, "-m", "venue", "dashboard", "--store", "bad",
                           "--tournament", "t"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and proc.stderr.startswith("venue: error:")


# docs/protocol.md "Simulators": `venue simulate --mqtt URL --tournament SLUG --pgn FILE [--speed X]
# [--kind move|position] [--fault ...]`; faults `illegal`, `duplicate`, `out_of_order`, `malformed`,
# `disconnect`, `rotated`.
SIMULATE = ["simulate", "--mqtt", "mqtt://127.0.0.1:1", "--tournament", "t", "--pgn", "round.pgn"]


def test_simulate_takes_the_documented_faults(monkeypatch):
    from venue import serve

    seen = {}

    async def fake_run_simulate(mqtt, tournament, pgn, speed, kind, faults=frozenset(), credentials=None,
                                confirm_wait_s=None):
        seen.update(mqtt=mqtt, tournament=tournament, pgn=pgn, speed=speed, kind=kind, faults=faults)
        return 0

    monkeypatch.setattr(serve, "run_simulate", fake_run_simulate)
    argv = SIMULATE + ["--fault", "illegal", "--fault", "duplicate", "--fault", "out_of_order",
                       "--fault", "malformed", "--fault", "disconnect", "--fault", "rotated"]
    assert main(argv) == 0
    assert seen["faults"] == frozenset({"illegal", "duplicate", "out_of_order", "malformed",
                                        "disconnect", "rotated"})
    seen.clear()
    assert main(SIMULATE) == 0
    assert seen["faults"] == frozenset()


def test_simulate_refuses_an_unknown_fault(capsys):
    code, err = run(capsys, *SIMULATE, "--fault", "fire")
    assert code == 2 and "--fault" in err and "malformed" in err


def test_simulate_fault_choices_are_the_simulators():
    from devices.station import FAULTS
    from venue.cli import SIMULATOR_FAULTS

    assert set(SIMULATOR_FAULTS) == FAULTS


def test_demo_result_lines_name_black_first_in_checkers():
    """docs/checkers.md: our result codes put White's score first, PDN puts the first player's
    (Black's) first; the demo's line follows PDN for checkers. London 1992 game 18 (the demo's
    board 3, game 2; venue/data/tinsley_chinook_1992_matches.pdn: Black "MF Tinsley", White
    "Chinook", Result "1-0") was won by Black when White's flag fell: venue code "0-1"."""
    from venue.demo_run import result_line

    g = {"board": "3", "white": "Chinook", "black": "MF Tinsley", "result": "0-1",
         "termination": "time_forfeit", "variant": "checkers", "match": {"game_no": 2}}
    assert result_line(g) == "board 3 game 2  MF Tinsley - Chinook  1-0 (time forfeit)"
    g.update(result="1/2-1/2", termination="recorded")
    assert result_line(g).endswith("1/2-1/2 (as the game's record gives it)")
    chess = {"board": "2", "white": "Firouzja, Alireza", "black": "Nakamura, Hikaru", "result": "0-1",
             "termination": "resignation", "variant": "chess"}
    assert result_line(chess) == "board 2  Firouzja, Alireza - Nakamura, Hikaru  0-1 (resignation)"


def test_a_dashboard_on_an_empty_log_says_so(tmp_path):
    """A new user pointed ``venue dashboard`` at another database than the gateway's and got an
    empty hall with no word why (new-user report; docs/CONTRIBUTING.md "Bad input gets a clear
    error"): an empty log is named on the console, with what to check."""
    store = f"sqlite:///{tmp_path / 'empty.sqlite'}"
    proc = subprocess.Popen([sys.executable, "-m", "venue", "dashboard", "--store", store,
                             "--tournament", "nobody-writes-here", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if line.startswith("Ctrl-C"):
                break
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    text = "".join(lines)
    assert "is empty" in text and "nobody-writes-here" in text and "same store" in text, text


def test_the_no_logins_note_says_note_once():
    # a new user's `venue serve --tournament candidates-2024` printed "note        note: no tournament
    # file given ..." (the word twice, notes/fresh-user.md #13): serve's label is the one "note", and
    # `venue dashboard` writes its own ("venue dashboard: note: ...")
    from venue.serve import no_logins_note

    text = no_logins_note("candidates-2024")
    assert text.startswith("no tournament file given (--tournament candidates-2024)") and "note" not in text
