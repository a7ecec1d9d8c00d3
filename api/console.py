"""The ``pokeraudit`` console script. ``validate`` is answered by api/cli_validate.py alone: a user who replays a
folder of hands waits for the whole process, and the rest of the CLI (services, settings, the web stack) was a
third of a second of imports it never used (issue 17). ``status`` and ``projections lag`` in an outage are
answered by api/cli_entry.py with the settings and the probes alone (issue 19). Every other command goes
through api/cli.py."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["validate"]:
        from api.cli_validate import main as validate

        return validate(args)
    from api.cli_entry import unreachable_answer

    answered = unreachable_answer(args)
    if answered is not None:
        return answered
    from api.cli import main as cli

    return cli(args)


if __name__ == "__main__":
    sys.exit(main())
