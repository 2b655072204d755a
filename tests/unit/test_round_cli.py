"""``venue round pair|swap|publish|start|show`` on a store another process writes (venue/round.py):
the entries appended, what is printed, and the refusals with their exit code 1.

The tournament: events/us-championship-2013.toml (24 players, FIDE Dutch Swiss: 12 boards in round 1)
and events/norway-chess-2023.toml (10 players, Berger tables: 5 boards).
"""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import pytest

from services.eventlog import open_log
from services.arbiter_office.tournament_log import tournament_registered_data
from services.regulations.tournament_file import load_tournament
from venue.cli import main as venue

EVENTS = Path(__file__).resolve().parents[2] / "events"


def _store(tmp_path: Path, preset: str) -> tuple[str, str]:
    url, slug = f"sqlite:///{tmp_path / 'log.sqlite'}", f"t-{uuid.uuid4().hex[:8]}"
    t = load_tournament((EVENTS / preset).read_text(), preset)

    async def register() -> None:
        log = open_log(url, slug)
        await log.append("tournament_registered", tournament_registered_data(t))
        await log.close()

    asyncio.run(register())
    return url, slug


def _types(url: str, slug: str) -> list[str]:
    async def read() -> list[str]:
        log = open_log(url, slug)
        try:
            return [e.type for e in await log.read()]
        finally:
            await log.close()

    return asyncio.run(read())


def _last(url: str, slug: str) -> dict:
    async def read() -> dict:
        log = open_log(url, slug)
        try:
            return (await log.read())[-1].data
        finally:
            await log.close()

    return asyncio.run(read())


def test_pair_publish_start(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    url, slug = _store(tmp_path, "us-championship-2013.toml")
    where = ["--store", url, "--tournament", slug]
    assert venue(["round", "pair", "1", *where]) == 0
    out = capsys.readouterr().out
    assert "round 1, version 1: draft, not published; 12 boards (swiss-dutch)" in out
    assert venue(["round", "start", "1", *where]) == 1
    assert "it was never published" in capsys.readouterr().err
    assert venue(["round", "publish", "1", *where, "--version", "1"]) == 0
    assert "round 1, version 1: published" in capsys.readouterr().out
    assert venue(["round", "start", "1", *where, "--at", "now"]) == 0
    assert capsys.readouterr().out.startswith("venue round start: round 1 started (12 games)")
    assert _types(url, slug) == ["tournament_registered", "pairing_drafted", "pairing_published", "round_started"]
    assert _last(url, slug)["by"] == "organiser"  # who started it, as pairing_drafted names the CLI's writer


def test_a_stale_version_is_refused_and_nothing_appended(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    url, slug = _store(tmp_path, "us-championship-2013.toml")
    where = ["--store", url, "--tournament", slug]
    assert venue(["round", "pair", "1", *where]) == 0
    assert venue(["round", "swap", "1", "1", "2", "--reason", "players' request", "--override", *where]) == 0
    capsys.readouterr()
    assert venue(["round", "publish", "1", *where, "--version", "1"]) == 1
    assert "round 1's draft is at version 2 (by organiser), not 1" in capsys.readouterr().err
    assert _types(url, slug)[-1] == "pairing_swapped"


def test_show_of_a_round_without_a_draft_fails_and_names_the_drafts(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture) -> None:
    """A new user's finding: ``venue round show 7`` printed "no draft" and exited 0."""
    url, slug = _store(tmp_path, "us-championship-2013.toml")
    where = ["--store", url, "--tournament", slug]
    assert venue(["round", "show", "1", *where]) == 1
    assert "round 1 has no draft; rounds with a draft: none yet (venue round pair N)" in capsys.readouterr().err
    assert venue(["round", "pair", "1", *where]) == 0
    capsys.readouterr()
    assert venue(["round", "show", "7", *where]) == 1
    assert "round 7 has no draft; rounds with a draft: 1" in capsys.readouterr().err
    assert venue(["round", "show", "1", *where]) == 0
    assert "round 1, version 1: draft, not published" in capsys.readouterr().out


def test_a_swap_without_a_reason_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    url, slug = _store(tmp_path, "us-championship-2013.toml")
    assert venue(["round", "swap", "1", "1", "2", "--store", url, "--tournament", slug]) == 2
    assert "--reason" in capsys.readouterr().err


def test_start_refused_while_a_game_of_the_round_before_has_no_result(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture) -> None:
    """Berger tables (norway-chess-2023): round 2 is drafted and published while round 1 is played;
    it does not start until every game of round 1 has a result, and the refusal names them."""
    url, slug = _store(tmp_path, "norway-chess-2023.toml")
    where = ["--store", url, "--tournament", slug]
    for step in (["pair", "1"], ["publish", "1"], ["start", "1"], ["pair", "2"], ["publish", "2"]):
        assert venue(["round", *step, *where]) == 0, step
    capsys.readouterr()
    assert venue(["round", "start", "2", *where]) == 1
    err = capsys.readouterr().err
    assert "round 2 cannot start: 5 game(s) of an earlier round have no result: round 1 board 1:" in err


def test_an_unknown_tournament_is_named(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """A misspelt slug names the tournaments the store holds (issue 27 item 6); a store that is not
    there is not created."""
    url, slug = _store(tmp_path, "us-championship-2013.toml")
    assert venue(["round", "show", "1", "--store", url, "--tournament", slug[:-1]]) == 2
    assert f"the store holds no log named {slug[:-1]!r}; it holds: {slug}; did you mean {slug!r}?" in \
        capsys.readouterr().err
    missing = tmp_path / "missing.sqlite"
    assert venue(["players", "list", "--store", f"sqlite:///{missing}", "--tournament", slug]) == 2
    assert "the file does not exist (check --store)" in capsys.readouterr().err and not missing.exists()


def test_players_import_then_pair(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """``venue players import`` of a CSV (two players beside the file's 24), then round 1 paired:
    13 boards; a malformed file is refused with its file and line and registers nothing."""
    url, slug = _store(tmp_path, "us-championship-2013.toml")
    where = ["--store", url, "--tournament", slug]
    good, bad = tmp_path / "late.csv", tmp_path / "bad.csv"
    good.write_text("Name,Rating,Title,FIDE ID,Fed\nTop Player,2850,GM,1503014,NOR\nLow Player,1000,,,\n")
    bad.write_text("Name,Rating\nSomeone,2x00\n")
    assert venue(["players", "import", str(bad), *where]) == 1
    assert f"{bad}:2: rating: '2x00' is not a rating" in capsys.readouterr().err
    assert _types(url, slug) == ["tournament_registered"]
    assert venue(["players", "import", str(good), *where]) == 0
    out = capsys.readouterr().out
    assert "2 player(s) registered" in out and "   1  GM  Top Player" in out
    assert venue(["round", "pair", "1", *where]) == 0
    assert "13 boards (swiss-dutch)" in capsys.readouterr().out
    assert venue(["players", "add", "Too Late", *where]) == 1
    assert "start numbers are fixed (round 1 is drafted)" in capsys.readouterr().err


def test_a_start_in_the_past_is_refused_and_nothing_written(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    # FIDE Laws 6.7.1: the default time counts from the start, so a start long past ("2020-01-01", a new
    # user's typo of the year) would have every player not yet seen lose at once; refused with one line
    # (the console's start_round too: test_console_rounds_api.py)
    url, slug = _store(tmp_path, "us-championship-2013.toml")
    where = ["--store", url, "--tournament", slug]
    assert venue(["round", "pair", "1", *where]) == 0 and venue(["round", "publish", "1", *where]) == 0
    before = _types(url, slug)
    capsys.readouterr()
    assert venue(["round", "start", "1", "--at", "2020-01-01T10:00:00+00:00", *where]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "min in the past" in err[0] and "6.7.1" in err[0]
    assert _types(url, slug) == before
    assert venue(["round", "start", "1", *where]) == 0
    assert _types(url, slug) == [*before, "round_started"]


def test_players_bad_input_says_which(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    # README: a missing file exits 2 with one line; an option's bad value is named as the option (a new
    # user's `--rating 4000` read "the command line:2: rating ..."); nothing registered either way
    url, slug = _store(tmp_path, "us-championship-2013.toml")
    where = ["--store", url, "--tournament", slug]
    missing = tmp_path / "nofile.csv"
    assert venue(["players", "import", str(missing), *where]) == 2
    assert capsys.readouterr().err.strip() == (f"venue players import: error: {missing}: cannot read it: "
                                               "No such file or directory")
    # docs/tournament-log.md: "the first fault refuses the whole file with its name and line": a file
    # Excel saved as "CSV (Windows)" (Windows-1252 "ü", the byte 0xFC) at its line and column
    latin1 = tmp_path / "latin1.csv"
    latin1.write_bytes('Name,Rating\n"Müller, Hans",2000\n'.encode("cp1252"))
    assert venue(["players", "import", str(latin1), *where]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"venue players import: refused, nothing registered: {latin1}:2:3: byte 0xFC is not "
                          "UTF-8 text: save the file as UTF-8 (Excel: \"CSV UTF-8\"") and err.count("\n") == 1
    assert venue(["players", "add", "Someone", "--rating", "4000", *where]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("venue players add: refused, nothing registered: rating: '4000'") and "command line" not in err
    assert _types(url, slug) == ["tournament_registered"]


@pytest.mark.parametrize("number", ["0", "-1"])
def test_a_round_number_below_1_is_refused_naming_the_option_and_nothing_written(
        tmp_path: Path, capsys: pytest.CaptureFixture, number: str) -> None:
    # README: "`--round N` pairs and starts round N" and a usage error "exits with code 2 and one line
    # on stderr"; rounds are numbered from 1 (docs/pairing.md, TRF). A new user's `--round 0` started
    # round 1, `--round -1` read "file not found: -1"; `venue round ... N` takes the same numbers.
    preset = "us-championship-2013.toml"
    slug = load_tournament((EVENTS / preset).read_text(), preset).slug
    url = f"sqlite:///{tmp_path / 'log.sqlite'}"

    async def register() -> None:
        log = open_log(url, slug)
        await log.append("tournament_registered", tournament_registered_data(load_tournament(
            (EVENTS / preset).read_text(), preset)))
        await log.close()

    asyncio.run(register())
    for command in ("serve", "gateway"):
        # the broker is never asked: the round number is refused first (port 1: nothing listens there)
        assert venue([command, "--mqtt", "mqtt://127.0.0.1:1", "--store", url, "--tournament", str(EVENTS / preset),
                      "--round", number, "--round-start", "now"]) == 2
        assert capsys.readouterr().err == f"venue: error: --round: {number} is not a round number: rounds are numbered from 1\n"
    for action in ("pair", "publish", "start", "show"):
        assert venue(["round", action, number, "--store", url, "--tournament", slug]) == 2
        assert capsys.readouterr().err == (f"venue round: error: N: {number} is not a round number: rounds are "
                                           "numbered from 1\n")
    assert _types(url, slug) == ["tournament_registered"]


def test_a_start_past_the_calendar_is_refused_and_nothing_written(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    # docs/arbiter.md: a start_ms past 9999-12-31 is refused as a bad field (the round's date cannot be
    # written: services.arbiter_office.round_from_file.LAST_START_MS); `--at` is the same start
    url, slug = _store(tmp_path, "us-championship-2013.toml")
    where = ["--store", url, "--tournament", slug]
    assert venue(["round", "pair", "1", *where]) == 0
    assert venue(["round", "publish", "1", *where]) == 0
    before = _types(url, slug)
    capsys.readouterr()
    assert venue(["round", "start", "1", "--at", "9999-12-31T23:00:00-05:00", *where]) == 1
    assert capsys.readouterr().err == ("venue round start: refused: --at: '9999-12-31T23:00:00-05:00' is outside "
                                       "1970-01-01 to 9999-12-31\n")
    assert _types(url, slug) == before
