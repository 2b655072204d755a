#!/usr/bin/env python3
"""Make Mosquitto's password file and ACL for a venue: one login per device, each kept to its board.

DESIGN.md, "Device protocol": a device may only write under its own board and has its own
credentials. For every tournament and hall board this writes two users:

- ``board-{t}-{b}`` (the electronic board): writes ``venue/{t}/boards/{b}/`` ``move``, ``position``,
  ``clock``, ``result``, ``status``; reads its ``feedback``. ``clock`` too because a board and its
  clock may share one connection and login (a DGT clock wired through its board; devices/station.py);
- ``clock-{t}-{b}`` (a clock with a connection of its own): writes ``clock``, ``result``, ``status``;
  reads its ``feedback``;

and per tournament the login of its gateway process:

- ``gateway-{t}`` (one gateway process for the whole tournament: deploy/SCALE-OUT.md): reads
  ``venue/{t}/#`` and writes that tournament's boards' ``feedback`` and its own probe topic
  ``venue/{t}/gateway/gateway-{t}/probe`` (gateway/probe.py: a message to itself through the broker,
  every few seconds, so that it knows when the broker delivers it nothing); or, when the tournament's hall
  is split across gateway processes by board range (``venue gateway --boards SPEC``),
- ``gateway-{t}-boards-{SPEC}`` per shard declared with ``--gateway-shards {t}:SPEC`` (and then
  no ``gateway-{t}``): reads ``venue/{t}/boards/{b}/+`` and writes ``venue/{t}/boards/{b}/feedback``
  of its boards ``{b}`` only (and reads and writes its probe topic), one pair of lines per board (the broker walks them in order for each
  message, so a shard's last board costs it most: bench/bench_shard_acl.py). That is all a shard
  reads or writes on the broker (gateway/service.py subscribes a shard to its boards' device topics
  and nothing else; it learns the other boards from the event log). Each shard needs a login of its
  own because the broker makes the login the client id: two shards on one login would take each
  other's session.

Nobody else can connect (``allow_anonymous false`` in deploy/mosquitto/mosquitto.conf), and since
the broker makes every login its own client id (``use_username_as_clientid true``), a login can only
ever take over its own session: a device can never take a gateway's, nor one shard another's.

Usage::

    deploy/make-mosquitto-passwords.py --out-dir /etc/mosquitto/venue \\
        --tournament olympiad-open:1-380 --tournament olympiad-women:1-380 \\
        --gateway-shards olympiad-open:1-190 --gateway-shards olympiad-open:191-380

(``olympiad-open`` split over two gateway shards, ``olympiad-women`` one gateway). A tournament's
shards must not overlap, must lie within its boards and must cover all of them (a board in no shard
would be read by no gateway: its moves never recorded), and a shard's SPEC is what its
``venue gateway --boards`` is given, so a board name in it cannot contain ``-`` (read as a range).

Writes, in ``--out-dir``:

- ``passwd``: the ``password_file`` (mode 0640, group ``--group``: Mosquitto reads it *after*
  dropping root, so give ``--group mosquitto`` on a broker host). Hashes are Mosquitto 2's ``$7$`` format
  (PBKDF2-HMAC-SHA512, 12-byte salt, 101 iterations, the mosquitto_passwd default), made here so
  the script needs no Mosquitto install; ``mosquitto_passwd`` reads and writes the same file.
- ``acl``: the ``acl_file`` (mode 0640, group ``--group``), explicit topics per user.
- ``credentials.json``: the plain passwords for provisioning devices and the gateways (mode 0600;
  keep it off the broker host if you can). Shape: ``{"gateways": [{"tournament", "username",
  "password"[, "boards"]}, ...], "devices": [{"tournament", "board", "device", "username",
  "password"}, ...]}``; a shard's login has ``"boards"``, its SPEC (``venue gateway --boards``).
  (Files written before per-tournament gateway logins had one ``"gateway"`` object; its password is
  not reused, since no ``gateway`` user exists any more.)

Running again keeps the passwords of users already in ``credentials.json`` (devices stay
provisioned) unless ``--rotate``. After a change, reload Mosquitto: ``systemctl reload mosquitto``
(SIGHUP rereads both files). Passwords are 24 random URL-safe characters (~143 bits), so the
iteration count is not what protects them.

Errors: a bad ``SLUG:BOARDS``, ``--group`` or ``--gateway-shards`` (not a ``--tournament``'s slug,
boards outside the tournament, two shards sharing a board, boards left in no shard) exits with
status 2 and a message naming the argument.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import grp
import json
import os
import re
import secrets
import sys
from pathlib import Path
from typing import NamedTuple

SLUG = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,127}")  # as services/eventlog/_rows.py
BOARD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")
ITERATIONS = 101
WRITES = {  # DESIGN.md device protocol: who publishes which topic under venue/{t}/boards/{b}/
    "board": ("move", "position", "clock", "result", "status"),  # clock: board and clock on one link
    "clock": ("clock", "result", "status"),
}


def mosquitto_hash(password: str, salt: bytes | None = None, iterations: int = ITERATIONS) -> str:
    """A Mosquitto 2 password hash: ``$7$ITER$base64(salt)$base64(PBKDF2-HMAC-SHA512, 64 bytes)``."""
    salt = salt if salt is not None else secrets.token_bytes(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations, 64)
    return f"$7${iterations}${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def parse_boards(spec: str) -> list[str]:
    """``"1-3,7,A1"`` -> ``["1", "2", "3", "7", "A1"]``; ValueError on anything else."""
    boards: list[str] = []
    for part in spec.split(","):
        part = part.strip()
        if m := re.fullmatch(r"(\d+)-(\d+)", part):
            lo, hi = int(m[1]), int(m[2])
            if lo > hi:
                raise ValueError(f"board range {part!r} runs backwards")
            boards += [str(b) for b in range(lo, hi + 1)]
        elif BOARD.fullmatch(part):
            boards.append(part)
        else:
            raise ValueError(f"bad board {part!r}: use numbers, ranges like 1-380, or names")
    return list(dict.fromkeys(boards))


def parse_tournament(arg: str) -> tuple[str, list[str]]:
    """``"SLUG:BOARDS"`` -> (slug, boards); ArgumentTypeError naming the problem."""
    slug, sep, spec = arg.partition(":")
    if not sep or not SLUG.fullmatch(slug):
        raise argparse.ArgumentTypeError(
            f"{arg!r}: expected SLUG:BOARDS, e.g. olympiad-open:1-380 (slug of letters, digits, _.-)")
    try:
        return slug, parse_boards(spec)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{arg!r}: {exc}") from exc


class Shard(NamedTuple):
    """One ``--gateway-shards SLUG:SPEC``: the argument as given (``arg``, for messages), the
    tournament's ``slug``, the ``spec`` as ``venue gateway --boards`` is given it (spaces removed)
    and its ``boards`` (labels, in the order given)."""

    arg: str
    slug: str
    spec: str
    boards: list[str]


def parse_shard(arg: str) -> Shard:
    """``"SLUG:SPEC"`` -> Shard; ArgumentTypeError naming the problem (as ``--tournament``, and a
    board name with ``-``, which ``venue gateway --boards`` would read as a range)."""
    slug, boards = parse_tournament(arg)
    spec = "".join(arg.partition(":")[2].split())
    for part in spec.split(","):
        if "-" in part and not re.fullmatch(r"\d+-\d+", part):
            raise argparse.ArgumentTypeError(
                f"{arg!r}: board {part!r} cannot be in a shard: venue gateway --boards reads '-' as a range")
    return Shard(arg, slug, spec, boards)


def brief(boards: list[str], most: int = 5) -> str:
    """Boards for a message: ``["7"]`` -> ``"board 7 is"``, ``["381", ..., "400"]`` ->
    ``"boards 381, 382, 383, 384, 385 and 15 more are"``."""
    if len(boards) == 1:
        return f"board {boards[0]} is"
    more = f" and {len(boards) - most} more" if len(boards) > most else ""
    return f"boards {', '.join(boards[:most])}{more} are"


def check_shards(tournaments: list[tuple[str, list[str]]], shards: list[Shard]) -> None:
    """Raise ValueError naming the ``--gateway-shards`` argument at fault when a shard's slug is no
    ``--tournament``'s, a shard has boards its tournament lacks, two shards of a tournament share a
    board, or a tournament with shards has boards in none of them (nobody would read those:
    deploy/SCALE-OUT.md, "a board in none is not recorded at all")."""
    boards_of = dict(tournaments)
    owner: dict[tuple[str, str], str] = {}
    for shard in shards:
        if shard.slug not in boards_of:
            raise ValueError(f"--gateway-shards {shard.arg!r}: no --tournament {shard.slug}:BOARDS given")
        known = set(boards_of[shard.slug])
        if outside := [b for b in shard.boards if b not in known]:
            raise ValueError(f"--gateway-shards {shard.arg!r}: {brief(outside)} not in "
                             f"--tournament {shard.slug}'s boards")
        if shared := [b for b in shard.boards if (shard.slug, b) in owner]:
            raise ValueError(f"--gateway-shards {shard.arg!r}: {brief(shared)} also in "
                             f"--gateway-shards {owner[shard.slug, shared[0]]!r} (each board needs exactly "
                             f"one gateway)")
        owner.update({(shard.slug, b): shard.arg for b in shard.boards})
    for slug in dict.fromkeys(s.slug for s in shards):
        if left := [b for b in boards_of[slug] if (slug, b) not in owner]:
            raise ValueError(f"--gateway-shards of {slug}: {brief(left)} in no shard, so no "
                             f"gateway would read them")


def probe_topic(slug: str, user: str) -> str:
    """A gateway login's probe topic, ``venue/{slug}/gateway/{user}/probe`` (gateway/probe.py: the
    gateway publishes to it and hears it back through the broker, or knows it is deaf). Only that
    login may read and write it; no device may."""
    return f"venue/{slug}/gateway/{user}/probe"


def gateway_user(slug: str) -> str:
    """The login (and so the client id) of ``slug``'s gateway: ``gateway-{slug}``."""
    return f"gateway-{slug}"


def shard_user(shard: Shard) -> str:
    """The login (and so the client id) of a gateway shard: ``gateway-{slug}-boards-{SPEC}``."""
    return f"gateway-{shard.slug}-boards-{shard.spec}"


def acl_text(tournaments: list[tuple[str, list[str]]], shards: list[Shard] = ()) -> str:
    """The acl_file: each tournament's gateway's rights (or each of its shards'), then each
    device's explicit topics."""
    lines = [
        "# Generated by deploy/make-mosquitto-passwords.py; do not edit by hand.",
        "# Anything not granted here is denied.",
    ]
    sharded = {s.slug for s in shards}
    for slug, _ in tournaments:
        if slug not in sharded:
            lines += ["", f"user {gateway_user(slug)}", f"topic read venue/{slug}/#",
                      f"topic write venue/{slug}/boards/+/feedback",
                      f"topic write {probe_topic(slug, gateway_user(slug))}"]
    for shard in shards:
        # One read line per board (its five device kinds and its feedback, which the shard writes
        # itself), not one per kind: the broker checks a delivered message against the list in order.
        lines += ["", f"user {shard_user(shard)}"]
        for b in shard.boards:
            lines += [f"topic read venue/{shard.slug}/boards/{b}/+",
                      f"topic write venue/{shard.slug}/boards/{b}/feedback"]
        # its probe last: the broker checks a board's message against the list in order, and the
        # probe comes once every few seconds
        lines.append(f"topic readwrite {probe_topic(shard.slug, shard_user(shard))}")
    for slug, boards in tournaments:
        for b in boards:
            base = f"venue/{slug}/boards/{b}"
            for device, kinds in WRITES.items():
                lines += ["", f"user {device}-{slug}-{b}"]
                lines += [f"topic write {base}/{kind}" for kind in kinds]
                lines.append(f"topic read {base}/feedback")
    return "\n".join(lines) + "\n"


def write_file(path: Path, text: str, mode: int, gid: int | None = None) -> None:
    """Write ``text`` atomically (temp file + rename) with ``mode`` and group ``gid``, so Mosquitto
    never reads half a file. Raises OSError (e.g. PermissionError when chgrp is not allowed)."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.chmod(tmp, mode)
    if gid is not None:
        os.chown(tmp, -1, gid)
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out-dir", type=Path, required=True, help="where passwd, acl, credentials.json go")
    parser.add_argument("--tournament", type=parse_tournament, action="append", required=True,
                        metavar="SLUG:BOARDS", help="e.g. olympiad-open:1-380 (repeatable)")
    parser.add_argument("--gateway-shards", type=parse_shard, action="append", default=[],
                        metavar="SLUG:BOARDS", help="one gateway shard's boards, e.g. olympiad-open:1-190 "
                        "(repeatable; a tournament's shards replace its gateway login)")
    parser.add_argument("--rotate", action="store_true", help="new passwords for everyone")
    parser.add_argument("--group", help="group of passwd and acl, e.g. mosquitto (needs root)")
    args = parser.parse_args(argv)
    gid = None
    if args.group:
        try:
            gid = grp.getgrnam(args.group).gr_gid
        except KeyError:
            parser.error(f"--group {args.group!r}: no such group")
    try:
        check_shards(args.tournament, args.gateway_shards)
    except ValueError as exc:
        parser.error(str(exc))

    out: Path = args.out_dir
    out.mkdir(parents=True, exist_ok=True)
    creds_path = out / "credentials.json"
    known: dict[str, str] = {}
    if creds_path.exists() and not args.rotate:
        old = json.loads(creds_path.read_text())
        known.update({g["username"]: g["password"] for g in old.get("gateways", [])})
        known.update({d["username"]: d["password"] for d in old["devices"]})

    def password(user: str) -> str:
        return known.get(user) or secrets.token_urlsafe(18)

    sharded = {s.slug for s in args.gateway_shards}
    gateways = [{"tournament": slug, "username": gateway_user(slug),
                 "password": password(gateway_user(slug))} for slug, _ in args.tournament
                if slug not in sharded]
    gateways += [{"tournament": s.slug, "username": shard_user(s), "password": password(shard_user(s)),
                  "boards": s.spec} for s in args.gateway_shards]
    devices = [
        {"tournament": slug, "board": b, "device": device, "username": f"{device}-{slug}-{b}",
         "password": password(f"{device}-{slug}-{b}")}
        for slug, boards in args.tournament for b in boards for device in WRITES
    ]
    users = [*gateways, *devices]
    write_file(out / "passwd",
               "".join(f"{u['username']}:{mosquitto_hash(u['password'])}\n" for u in users), 0o640, gid)
    write_file(out / "acl", acl_text(args.tournament, args.gateway_shards), 0o640, gid)
    write_file(creds_path, json.dumps({"gateways": gateways, "devices": devices}, indent=1) + "\n",
               0o600)
    print(f"{len(users)} users ({len(devices)} devices + {len(gateways)} gateways) written to {out}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
