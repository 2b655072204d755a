#!/usr/bin/env python3
"""Make Mosquitto's password file and ACL for a venue: one login per device, each kept to its board.

DESIGN.md, "Device protocol": a device may only write under its own board and has its own
credentials. For every tournament and hall board this writes two users:

- ``board-{t}-{b}`` (the electronic board): writes ``venue/{t}/boards/{b}/`` ``move``, ``position``,
  ``clock``, ``result``, ``status``; reads its ``feedback``. ``clock`` too because a board and its
  clock may share one connection and login (a DGT clock wired through its board; devices/station.py);
- ``clock-{t}-{b}`` (a clock with a connection of its own): writes ``clock``, ``result``, ``status``;
  reads its ``feedback``;

and per tournament one ``gateway-{t}`` user that reads ``venue/{t}/#`` and writes that
tournament's boards' ``feedback`` (one gateway process per tournament: deploy/SCALE-OUT.md).
Nobody else can connect (``allow_anonymous false`` in deploy/mosquitto/mosquitto.conf), and since
the broker makes every login its own client id (``use_username_as_clientid true``), a login can only
ever take over its own session: a device can never take the gateway's.

Usage::

    deploy/make-mosquitto-passwords.py --out-dir /etc/mosquitto/venue \\
        --tournament olympiad-open:1-380 --tournament olympiad-women:1-380

Writes, in ``--out-dir``:

- ``passwd``: the ``password_file`` (mode 0640, group ``--group``: Mosquitto reads it *after*
  dropping root, so give ``--group mosquitto`` on a broker host). Hashes are Mosquitto 2's ``$7$`` format
  (PBKDF2-HMAC-SHA512, 12-byte salt, 101 iterations, the mosquitto_passwd default), made here so
  the script needs no Mosquitto install; ``mosquitto_passwd`` reads and writes the same file.
- ``acl``: the ``acl_file`` (mode 0640, group ``--group``), explicit topics per user.
- ``credentials.json``: the plain passwords for provisioning devices and the gateways (mode 0600;
  keep it off the broker host if you can). Shape: ``{"gateways": [{"tournament", "username",
  "password"}, ...], "devices": [{"tournament", "board", "device", "username", "password"}, ...]}``.
  (Files written before per-tournament gateway logins had one ``"gateway"`` object; its password is
  not reused, since no ``gateway`` user exists any more.)

Running again keeps the passwords of users already in ``credentials.json`` (devices stay
provisioned) unless ``--rotate``. After a change, reload Mosquitto: ``systemctl reload mosquitto``
(SIGHUP rereads both files). Passwords are 24 random URL-safe characters (~143 bits), so the
iteration count is not what protects them.

Errors: a bad ``SLUG:BOARDS`` or ``--group`` exits with status 2 and a message naming it.
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


def gateway_user(slug: str) -> str:
    """The login (and so the client id) of ``slug``'s gateway: ``gateway-{slug}``."""
    return f"gateway-{slug}"


def acl_text(tournaments: list[tuple[str, list[str]]]) -> str:
    """The acl_file: each tournament's gateway's rights, then each device's explicit topics."""
    lines = [
        "# Generated by deploy/make-mosquitto-passwords.py; do not edit by hand.",
        "# Anything not granted here is denied.",
    ]
    for slug, _ in tournaments:
        lines += ["", f"user {gateway_user(slug)}", f"topic read venue/{slug}/#",
                  f"topic write venue/{slug}/boards/+/feedback"]
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
    parser.add_argument("--rotate", action="store_true", help="new passwords for everyone")
    parser.add_argument("--group", help="group of passwd and acl, e.g. mosquitto (needs root)")
    args = parser.parse_args(argv)
    gid = None
    if args.group:
        try:
            gid = grp.getgrnam(args.group).gr_gid
        except KeyError:
            parser.error(f"--group {args.group!r}: no such group")

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

    gateways = [{"tournament": slug, "username": gateway_user(slug),
                 "password": password(gateway_user(slug))} for slug, _ in args.tournament]
    devices = [
        {"tournament": slug, "board": b, "device": device, "username": f"{device}-{slug}-{b}",
         "password": password(f"{device}-{slug}-{b}")}
        for slug, boards in args.tournament for b in boards for device in WRITES
    ]
    users = [*gateways, *devices]
    write_file(out / "passwd",
               "".join(f"{u['username']}:{mosquitto_hash(u['password'])}\n" for u in users), 0o640, gid)
    write_file(out / "acl", acl_text(args.tournament), 0o640, gid)
    write_file(creds_path, json.dumps({"gateways": gateways, "devices": devices}, indent=1) + "\n",
               0o600)
    print(f"{len(users)} users ({len(devices)} devices + {len(gateways)} gateways) written to {out}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
