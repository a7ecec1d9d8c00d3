"""The ``pokeraudit`` console script. ``validate`` is answered by api/cli_validate.py alone: a user who replays a
folder of hands waits for the whole process, and the rest of the CLI (services, settings, the web stack) was a
third of a second of imports it never used (issue 17). ``status`` and ``projections lag`` in an outage are
answered by api/cli_entry.py with the settings and the probes alone (issue 19). Every other command goes
through api/cli.py."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["validate"]:
        from api.cli_validate import main as validate

        code = validate(args)
        if argv is None:  # the process itself, not a caller that lives on (a test)
            _exit_now(code)
        return code
    from api.cli_entry import unreachable_answer

    answered = unreachable_answer(args)
    if answered is not None:
        return answered
    from api.cli import main as cli

    return cli(args)


def _exit_now(code: int) -> None:
    """End the process once its output is out. Python's own exit tears down every module and object the run
    built — 20–50 ms after a validate run, which a user waits for (issue 17) — for no one: validate leaves no
    file, thread or exit hook that needs it. When the output cannot be flushed (a closed pipe), this returns
    and the ordinary exit reports it as it always has."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(code)


if __name__ == "__main__":
    sys.exit(main())
