"""The tournament file: presets load, and a broken file is refused with the field and line at fault."""

from pathlib import Path

import pytest

from services.regulations.fields import TournamentFileError, duration_ms
from services.regulations.tournament_file import load_tournament

EVENTS = Path(__file__).resolve().parents[2] / "events"
PRESETS = sorted(EVENTS.glob("*.toml"))


def load(name: str):
    p = EVENTS / name
    return load_tournament(p.read_text(), str(p))


def test_every_preset_loads():
    assert len(PRESETS) == 8  # the 2017 11-Man National has two: Master, and Major and Minor (X.B)
    for p in PRESETS:
        t = load_tournament(p.read_text(), str(p))
        assert t.rounds and t.players and t.time_controls


def test_us2023_preset_says_what_the_regulations_say():
    t = load("us-championship-2023.toml")
    # "shall both be 12-player tournaments paired as a Round Robin"
    assert len(t.players) == 12 and t.system == "round-robin"
    # Rule 4: "90 minutes for the first 40 moves followed by 30 minutes ... 30 seconds ... from move one"
    assert t.time_controls["classical"] == "40/5400+30:1800+30"
    # Rule 2: "Player may not mutually agree to a draw."
    assert t.regulations.draw_offers.policy == "never"
    # Rule 1: "more than 30 (thirty) minutes late ... shall forfeit"; "$500"
    assert t.regulations.default_time_for("classical") == 30 * 60_000
    assert t.regulations.fine_not_at_board.amount == 500
    # Rule 6: "1. Direct Encounter, 2. Most Blacks, 3. Koya System, 4. Sonneborn Berger, 5. Won Games"
    assert t.regulations.tiebreaks == ("DE", "BPG", "KS", "SB", "WON")
    assert t.regulations.prizes.withhold_after_forfeit


def test_norway_presets():
    blitz = load("norway-chess-2023-blitz.toml")
    # "The time control is 3 minutes + 2 seconds increment"; "Default time is 3 minutes."
    assert blitz.time_controls["blitz"] == "180+2"
    assert blitz.regulations.default_time_for("blitz") == 3 * 60_000
    classical = load("norway-chess-2023.toml")
    # "Default time is 15 minutes."
    assert classical.regulations.default_time_for("classical") == 15 * 60_000
    # "not allowed to agree to a draw until at least 30 moves have been made by each player.
    #  This rule does not apply to Blitz and Armageddon games."
    d = classical.regulations.draw_offers
    assert (d.policy, d.min_moves, d.exempt_kinds) == ("not_before_move", 30, {"blitz", "armageddon"})
    assert classical.regulations.armageddon_after_draw
    assert classical.regulations.prizes.amounts[0] == 750000
    assert classical.regulations.tiebreaks_classical_only


def test_us2013_presets():
    swiss = load("us-championship-2013.toml")
    # "a 24-player tournament paired using the FIDE Dutch Swiss System"
    assert swiss.system == "swiss-dutch" and len(swiss.players) == 24
    women = load("us-womens-championship-2013.toml")
    # "a 10-player tournament paired using the FIDE Round Robin System"
    assert women.system == "round-robin" and len(women.players) == 10
    # "mutually agree to a draw in less than 30 moves"
    assert women.regulations.draw_offers.min_moves == 30


def test_checkers_preset():
    t = load("checkers-11-man-national-2017.toml")
    assert t.game == "checkers" and len(t.players) == 11
    # X.A.i: the Master division "is open-ended without rigid round-ending time": no round ends.
    assert all(r.end_ms is None for r in t.rounds)


def checkers_with_round_ends() -> str:
    """The checkers preset with its placeholder round ends uncommented (a Major/Minor division file)."""
    text = (EVENTS / "checkers-11-man-national-2017.toml").read_text()
    return text.replace("# end = ", "end = ")


def test_round_end_for_the_late_start_rule():
    # X.B.e counts from "a round time ... scheduled to end": the file's [[rounds]] end, same zone rules as start.
    t = load_tournament(checkers_with_round_ends(), "checkers.toml")
    assert len(t.rounds) == 11
    for r in t.rounds:
        assert r.end_ms - r.start_ms == 4 * 3_600_000  # the placeholders: 09:00-13:00, 13:00-17:00, 17:00-21:00


BROKEN_END = [
    # (mutation of round 1's end, the problem named)
    ('end = "2017-07-10T13:00:00"', "needs a UTC offset"),
    ('end = "2017-07-10T08:00:00-05:00"', "must be after the start"),
    ('end = "2017-07-10T09:00:00-05:00"', "must be after the start"),
    ('end = "at one"', "not a date and time"),
    ('end = 13', "must be a date and time"),
]


@pytest.mark.parametrize("new,problem", BROKEN_END)
def test_bad_round_end_names_field_and_line(new, problem):
    old = 'end = "2017-07-10T13:00:00-05:00"'
    text = checkers_with_round_ends()
    assert old in text
    broken = text.replace(old, new, 1)
    line = broken.splitlines().index(next(ln for ln in broken.splitlines() if ln.startswith(new))) + 1
    with pytest.raises(TournamentFileError) as err:
        load_tournament(broken, "checkers.toml")
    assert err.value.field == "rounds[0].end" and err.value.line == line
    assert str(err.value).startswith(f"checkers.toml:{line}: rounds[0].end: ") and problem in str(err.value)


BROKEN = [
    # (mutation of the US 2023 preset, field named, the line it is on)
    ('policy = "never"', 'policy = "sometimes"', "regulations.draw_offers.policy"),
    ('classical = "30m"', 'classical = "thirty"', "regulations.default_time.classical"),
    ('rounds = 11', 'rounds = "eleven"', "tournament.rounds"),
    ('slug = "us-championship-2023"', 'slug = "US Champ"', "tournament.slug"),
    ('start = "2023-10-05T13:00:00-05:00"', 'start = "2023-10-05T13:00:00"', "rounds[0].start"),
    ('order = ["DE", "BPG", "KS", "SB", "WON"]', 'order = "DE"', "regulations.tiebreaks.order"),
    ('classical = "40/5400+30:1800+30"', 'classical = "40/90min"', "time_controls.classical"),
    ('order = ["DE", "BPG", "KS", "SB", "WON"]', 'order = ["DE", "XYZ"]', "regulations.tiebreaks.order"),
]


@pytest.mark.parametrize("old,new,field", BROKEN)
def test_broken_file_names_field_and_line(old, new, field):
    text = (EVENTS / "us-championship-2023.toml").read_text()
    assert old in text
    broken = text.replace(old, new, 1)
    expected_line = broken.splitlines().index(next(ln for ln in broken.splitlines() if new in ln)) + 1
    with pytest.raises(TournamentFileError) as err:
        load_tournament(broken, "us.toml")
    assert err.value.field == field
    assert err.value.line == expected_line
    assert f"us.toml:{expected_line}: {field}" in str(err.value)


def test_toml_syntax_error_names_the_line():
    text = (EVENTS / "us-championship-2023.toml").read_text().replace('rounds = 11', 'rounds = = 11', 1)
    line = text.splitlines().index("rounds = = 11") + 1
    with pytest.raises(TournamentFileError) as err:
        load_tournament(text, "us.toml")
    assert err.value.line == line


def test_missing_required_field_and_plain_password_refused():
    with pytest.raises(TournamentFileError, match="tournament.name: is missing"):
        load_tournament('[tournament]\nslug = "x"\nsystem = "round-robin"\nrounds = 1\n'
                        '[time_controls]\nclassical = "5400"\n')
    text = (EVENTS / "us-championship-2023.toml").read_text().replace(
        'password_env = "VENUE_ARBITER_CHIEF_PASSWORD"', 'password = "hunter2"')
    with pytest.raises(TournamentFileError, match="plain passwords are not accepted"):
        load_tournament(text)


def test_durations():
    assert duration_ms("30m") == 1_800_000
    assert duration_ms("1h30m") == 5_400_000
    assert duration_ms("2s") == 2000 and duration_ms(0) == 0 and duration_ms("0") == 0
    with pytest.raises(ValueError):
        duration_ms("soon")


def test_time_control_specs_become_clocks():
    from services.regulations.controls import control_from_spec
    t = load("norway-chess-2023.toml")
    # "white has 10 minutes and black has 7 minutes with an increment for both players of 1 second
    #  per move, starting from move 41."
    arm = control_from_spec(t.time_controls["armageddon"])
    assert arm.starting_ms("white") == 600_000 and arm.starting_ms("black") == 420_000
    assert arm.added_on_press("white", 40)[0] == 0 and arm.added_on_press("white", 41)[0] == 1000
    us = control_from_spec(load("us-championship-2023.toml").time_controls["classical"])
    # "30 minutes for the rest of the game" added after move 40; "30 seconds ... from move one"
    assert us.added_on_press("white", 1) == (30_000, 0)
    assert us.added_on_press("white", 40) == (30_000, 1_800_000)
    ck = control_from_spec(load("checkers-11-man-national-2017.toml").time_controls["classical"])
    assert ck.carries_over and ck.starting_ms("black") == 90 * 60_000


@pytest.mark.parametrize("spec,problem", [
    ('"0+0"', "the first period has no time"),
    ('"0"', "the first period has no time"),
    ('"40/0+30:1800+30"', "the first period has no time"),
    ('{ white = "0s", black = "90m" }', "white's first period has no time"),
    ('{ white = "90m", black = 0, match_clock = true }', "black's first period has no time"),
])
def test_a_control_without_time_is_refused_with_field_and_line(spec, problem):
    """A control whose first period gives no time would lose every game on time at ply 0 (the demo
    played "0-1 (resignation)" games at ply 0 on ``classical = "0+0"``): refused by the loader."""
    text = (EVENTS / "checkers-11-man-national-2017.toml").read_text()
    old = 'classical = { white = "90m", black = "90m", match_clock = true, alternative = "4800+10" }'
    assert old in text
    broken = text.replace(old, f"classical = {spec}", 1)
    line = broken.splitlines().index(f"classical = {spec}") + 1
    with pytest.raises(TournamentFileError) as err:
        load_tournament(broken, "ck.toml")
    assert err.value.field == "time_controls.classical" and err.value.line == line
    assert str(err.value).startswith(f"ck.toml:{line}: time_controls.classical: ")
    assert problem in str(err.value)


@pytest.mark.parametrize("edit, field", [
    # a new user's finding: the misspelt key was ignored and US 2023 rule 2's draw ban silently dropped
    (lambda t: t.replace('policy = "never"', 'polcy = "never"'), "regulations.draw_offers.polcy"),
    (lambda t: t.replace('name = "Player 01"', 'name = "Player 01"\nratng = 2700', 1), "players[0].ratng"),
    (lambda t: t.replace('rounds = 11', 'rounds = 11\nsytem = "swiss-dutch"', 1), "tournament.sytem"),
    (lambda t: t.replace('[regulations.fines]', '[regulations.fines]\nmaount = 500', 1), "regulations.fines.maount"),
])
def test_a_misspelt_setting_anywhere_is_refused_with_its_line(edit, field):
    text = edit((EVENTS / "us-championship-2023.toml").read_text())
    with pytest.raises(TournamentFileError) as err:
        load_tournament(text, "us.toml")
    assert err.value.field == field and "unknown setting" in str(err.value)
    assert err.value.line == next(i for i, line in enumerate(text.splitlines(), 1)
                                  if line.strip().startswith(field.rsplit(".", 1)[-1].split("]")[-1] + " ="))


def test_the_rules_table_takes_every_quotable_setting():
    # model.RULE_KEYS names the settings whose rule a file may quote (docs/tournament-file.md);
    # [regulations.rules] (file_schema.Rules) takes exactly those.
    from services.regulations.file_schema import Rules
    from services.regulations.model import RULE_KEYS

    assert Rules.__struct_fields__ == RULE_KEYS


@pytest.mark.parametrize("edit, field, problem", [
    # an unknown table is named by its header's line
    (lambda t: t.replace("[tournament]\n", "[tourney]\nname = \"x\"\n[tournament]\n", 1), "tourney",
     "unknown section"),
    # an item of a list inside a table: the list's key and line, the item counted from 1
    (lambda t: t.replace('order = ["DE", "BPG", "KS", "SB", "WON"]', 'order = ["DE", 5]'),
     "regulations.tiebreaks.order", "item 2: must be text, not 5"),
    (lambda t: t.replace('rule = "Rule 2: \\"Player may', 'rule = " "\n# "Rule 2: \\"Player may'),
     "regulations.draw_offers.rule",
     "a quoted rule must not be empty"),
    (lambda t: t.replace("start_no = 2\n", "start_no = 1\n", 1), "players[1].start_no",
     "starting rank 1 is used twice"),
])
def test_a_broken_setting_names_its_own_line(edit, field, problem):
    original = (EVENTS / "us-championship-2023.toml").read_text()
    text = edit(original)
    with pytest.raises(TournamentFileError) as err:
        load_tournament(text, "us.toml")
    # the line named is the one the edit changed
    line = next(i for i, (a, b) in enumerate(zip(text.splitlines(), original.splitlines()), 1) if a != b)
    assert (err.value.field, err.value.line) == (field, line) and problem in err.value.problem


def test_a_round_scheduled_before_the_one_before_is_refused():
    """A new user's finding: a file whose round 2 starts before round 1 was accepted. The US 2023
    preset's schedule (rounds on 5 and 6 October 2023) with round 2 moved to 4 October."""
    p = EVENTS / "us-championship-2023.toml"
    old = 'start = "2023-10-06T13:00:00-05:00"'
    text = p.read_text()
    assert text.count(old) == 1
    broken = text.replace(old, 'start = "2023-10-04T13:00:00-05:00"')
    line = broken.splitlines().index('start = "2023-10-04T13:00:00-05:00"') + 1
    with pytest.raises(TournamentFileError) as err:
        load_tournament(broken, "us2023.toml")
    assert err.value.field == "rounds[1].start" and err.value.line == line
    assert str(err.value) == (f"us2023.toml:{line}: rounds[1].start: round 2 starts (2023-10-04T13:00:00-05:00) "
                              "before round 1 (2023-10-05T13:00:00-05:00): rounds are played in their order")


@pytest.mark.parametrize("old,new,field,problem", [
    # a repeated board number is refused so ("boards[3].number: board 3 is not a new positive number"); a
    # device on two boards likewise: its MQTT client is one board's (docs/tournament-file.md "[[boards]]")
    ('clock_device = "clock-2"', 'clock_device = "clock-1"', "boards[1].clock_device",
     "'clock-1' is board 1's clock_device already: a device feeds one board"),
    ('board_device = "board-3"', 'board_device = "board-1"', "boards[2].board_device",
     "'board-1' is board 1's board_device already: a device feeds one board"),
    ('board_device = "board-3"', 'board_device = "clock-2"', "boards[2].board_device",
     "'clock-2' is board 2's clock_device already: a device feeds one board"),
])
def test_a_device_on_two_boards_is_refused_naming_field_and_line(old, new, field, problem):
    text = (EVENTS / "checkers-11-man-national-2017-major-minor.toml").read_text()
    assert old in text
    broken = text.replace(old, new, 1)
    line = text.splitlines().index(old) + 1  # the line changed (the replacement keeps the lines)
    with pytest.raises(TournamentFileError) as err:
        load_tournament(broken, "t.toml")
    assert (err.value.field, err.value.line) == (field, line)
    assert str(err.value).startswith(f"t.toml:{line}: {field}: {problem}")


def test_a_board_with_its_clock_built_in_may_name_one_device_for_both():
    # one device publishing both a board's moves and its clock (docs/tournament-file.md "[[boards]]")
    text = (EVENTS / "checkers-11-man-national-2017-major-minor.toml").read_text()
    t = load_tournament(text.replace('clock_device = "clock-1"', 'clock_device = "board-1"', 1), "t.toml")
    assert (t.boards[0].board_device, t.boards[0].clock_device) == ("board-1", "board-1")
