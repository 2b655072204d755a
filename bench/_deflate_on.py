"""Run a script (``bench/_latency_services.py dashboard ...``) with permessage-deflate negotiated: the
what-if row ``deflate`` of ``bench/bench_spectator_memory.py`` (uvicorn's settings: server window 2^12,
memLevel 5). The product does not negotiate it (``venue.serve.serving``).

Usage: ``python bench/_deflate_on.py SCRIPT ARGS...``
"""

from __future__ import annotations

import runpy
import sys

import uvicorn


def main() -> None:
    script = sys.argv[1]
    sys.argv = [script, *sys.argv[2:]]
    init = uvicorn.Config.__init__

    def deflating(self, *args, **kwargs) -> None:
        kwargs["ws_per_message_deflate"] = True
        init(self, *args, **kwargs)

    uvicorn.Config.__init__ = deflating  # type: ignore[method-assign]
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
