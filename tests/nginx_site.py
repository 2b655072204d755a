"""A private nginx running the shipped deploy/nginx/nginx.conf, for the tests and benches.

Only the directives the file marks ``[site]`` are rewritten: ``user`` (this user), ``pid`` and the
logs (into a directory of the caller's), ``listen`` (a port of 127.0.0.1), a bench's spectators per
address when it asks, and ``include`` of the upstream file, which is deploy/nginx/venue-upstream.conf with its two nodes (127.0.0.1:8001 and
:8002) replaced by the caller's; nginx's temporary files go to that directory too (an unprivileged
nginx cannot write Debian's /var/lib/nginx). So what is tested is what ships.

``tests/`` is on ``sys.path`` under pytest; bench scripts add it.
"""

from __future__ import annotations

import getpass
import re
import shutil
from pathlib import Path

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"
NGINX_CONF = DEPLOY / "nginx" / "nginx.conf"
UPSTREAM_CONF = DEPLOY / "nginx" / "venue-upstream.conf"
SHIPPED_NODES = ("8001", "8002")  # the ports venue-upstream.conf names


def nginx_binary() -> str:
    """Debian's nginx (``./run tests`` installs it when missing); AssertionError when absent."""
    found = shutil.which("nginx") or "/usr/sbin/nginx"
    assert Path(found).exists(), "nginx is not installed (./run tests installs it; apt-get install nginx)"
    return found


def site_config(port: int, directory: Path, nodes: list[int], access_log: bool = True,
                per_address: int | None = None) -> list[str]:
    """Write ``nginx.conf`` and ``venue-upstream.conf`` into ``directory`` for a private nginx on
    127.0.0.1:``port`` in front of ``nodes`` (two ports of 127.0.0.1, in the shipped file's order);
    returns the argv that runs it in the foreground, its errors in ``directory/error.log``.
    ``access_log``: one line per request in ``directory/access.log`` (off: as shipped);
    ``per_address``: the spectators one client address may connect (a bench's thousand come from
    one; None: as shipped).
    AssertionError when the shipped files lack a [site] directive or name other nodes."""
    text = UPSTREAM_CONF.read_text()
    assert sorted(set(re.findall(r"127\.0\.0\.1:(\d+)", text))) == list(SHIPPED_NODES), UPSTREAM_CONF
    assert len(nodes) == len(SHIPPED_NODES), nodes
    for old, new in zip(SHIPPED_NODES, nodes):
        text = re.sub(rf"127\.0\.0\.1:{old}\b", f"127.0.0.1:{new}", text)
    (directory / "venue-upstream.conf").write_text(text)
    overrides = {
        "user": f"user {getpass.getuser()};",
        "pid": f"pid {directory / 'nginx.pid'};",
        "error_log": f"error_log {directory / 'error.log'} info;",
        "access_log": f"access_log {directory / 'access.log'};" if access_log else "access_log off;",
        "include": f"include {directory / 'venue-upstream.conf'};",
        "listen": f"listen 127.0.0.1:{port};",
    }
    if per_address is not None:
        overrides["limit_conn"] = f"limit_conn venue_conn_per_address {per_address};"
    temp = [f"    {kind}_temp_path {directory / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")]
    seen, lines = set(), []
    for line in NGINX_CONF.read_text().splitlines():
        words = line.split()
        key = words[0] if words and not words[0].startswith("#") else None
        if key in overrides:
            assert key not in seen, f"{key} appears twice in {NGINX_CONF}"
            seen.add(key)
            line = re.match(r"\s*", line)[0] + overrides[key]
        lines.append(line)
        if line.strip() == "http {":
            lines += temp
    assert seen == set(overrides), f"{NGINX_CONF} lacks {set(overrides) - seen}"
    conf = directory / "nginx.conf"
    conf.write_text("\n".join(lines) + "\n")
    return [nginx_binary(), "-p", str(directory), "-c", str(conf), "-e", str(directory / "error.log"),
            "-g", "daemon off;"]
