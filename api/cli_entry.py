"""``status`` and ``projections lag`` asked while a service is down answer from here (the console script,
api/console.py, asks first), before the whole command line is imported.

Building the full parser imports every subcommand's modules — the rules engine, the importers, Kafka's client —
about 2 CPU-seconds, which a loaded machine stretched to 13–24 s of wall time: the very commands an operator runs
in an outage were the slow ones. Here only the settings and the probes are imported (well under half a
CPU-second); when the services answer, or for any other command, the full command line takes over
(:func:`api.cli.main`), which says the same thing the same way should a service go away in between.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

#: the options of the two commands this entry can answer; anything else goes to the full command line
_THEIR_OPTIONS = {"--json"}


def unreachable_answer(args: Sequence[str]) -> int | None:
    """Exit code 3 with the unreachable service named (as the full commands say it), when ``args`` are
    ``status`` or ``projections lag`` (with at most ``--json``) and a service they need does not answer; else
    None: the full command line answers."""
    if args[:1] == ["status"] and set(args[1:]) <= _THEIR_OPTIONS:
        command, options = "status", set(args[1:])
    elif args[:2] == ["projections", "lag"] and set(args[2:]) <= _THEIR_OPTIONS:
        command, options = "projections lag", set(args[2:])
    else:
        return None
    from api.probes import Unreachable, services_reachable, store_reachable
    from api.settings import Settings

    settings = Settings()
    try:
        # status reads the log's end offsets and the store; projections lag only the store
        if command == "status":
            services_reachable(settings)
        else:
            store_reachable(settings)
    except Unreachable as exc:
        if "--json" in options:
            print(json.dumps({"error": str(exc)}))
        print(f"{command}: {exc}", file=sys.stderr)
        return 3
    return None
