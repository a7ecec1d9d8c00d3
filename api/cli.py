"""The ``pokeraudit`` command: a thin dispatcher, one small function per subcommand.

To add a subcommand, write ``_add_<name>(subparsers)`` that declares its arguments and sets ``run`` to a
function ``(args) -> exit code``, and list it in :data:`_SUBCOMMANDS`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from api.logs import add_log_level
from api.logs import configure as configure_logs
from api.observe import add_metrics_address, log_settings, serve_metrics
from api.signals import stopped_by_signals
from ingest.behind import LogBehindStore

if TYPE_CHECKING:
    from api.bootstrap import Pipeline
    from ingest.referee import Referee


def _add_publish(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    command = subparsers.add_parser(
        "publish",
        help="put hand histories on the log of record",
        description="Read PHH hand histories (files or folders) and append their events to the log, keyed by "
        "competition. Event ids derive from competition, table, hand and sequence: publishing twice is harmless.",
    )
    command.add_argument("paths", nargs="+", metavar="PATH")
    command.add_argument("--competition", default="imported", help="the competition the hands belong to")
    command.add_argument("--repeat", type=int, default=1, help="publish the hands N times at new tables")
    command.add_argument("--quiet", action="store_true", help="no progress bar")
    command.set_defaults(run=_publish)


def _publish(args: argparse.Namespace) -> int:
    from api.operations import phh_records, publish

    with _pipeline() as pipeline:
        n = publish(pipeline, phh_records(args.paths, args.competition, args.repeat), progress=not args.quiet)
    print(f"published {n} events to {pipeline.settings.topic}")
    return 0


def _add_referee(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    command = subparsers.add_parser(
        "referee",
        help="judge the log's records and store the verdicts",
        description="Replay every record on the log through the rulebook; store accepted events and "
        "rejections with the log position in one transaction. Embedded mode: judge what is there and exit. "
        "Kafka mode: run until stopped (SIGTERM or SIGINT: the batch in hand is finished and the consumer "
        "leaves its group), or until the log has been quiet --idle-exit seconds. Stdout: one JSON object, the "
        "records judged this run; stderr: the same, labelled, and the store's totals over all runs (as status).",
    )
    command.add_argument("--idle-exit", type=float, default=None, metavar="SECONDS",
                         help="Kafka mode: stop after the log has been quiet this long")
    command.add_argument("--processes", type=int, default=1, metavar="N",
                         help="Kafka mode: N referee processes in one consumer group, sharing the partitions "
                         "(one core each; docs/BENCHMARKS.md measured two on two cores)")
    add_log_level(command)
    add_metrics_address(command)
    # the children of --processes leave the labelled summary to their parent, who prints it once
    command.add_argument("--no-summary", action="store_true", help=argparse.SUPPRESS)
    command.set_defaults(run=_referee)


def _referee(args: argparse.Namespace) -> int:
    from api.bootstrap import referee_runner
    from api.operations import referee_once
    from ingest.runners import count_retry, until_reachable

    if args.processes < 1:
        print("referee: --processes must be at least 1", file=sys.stderr)
        return 2
    if args.processes > 1:
        return _referees(args)
    configure_logs(args.log_level)
    serve_metrics(args.metrics_port, args.metrics_host)
    if not _log_reached():
        print(json.dumps({"judged": 0}))  # stopped while the broker was still away
        return 0
    with _pipeline(publish_rejections=True) as pipeline:
        settings = pipeline.settings
        if settings.kafka_bootstrap_servers is None:
            outcomes = referee_once(pipeline)
            print(json.dumps(outcomes))
            _referee_summary(pipeline, outcomes, sum(outcomes.values()))
            return 0
        log_settings("referee", settings)
        stop = threading.Event()
        try:
            with stopped_by_signals(lambda: stop.set()):
                # started while PostgreSQL or the broker is down: wait for them (each retry logged), not fail
                runner = until_reachable(
                    lambda: referee_runner(settings, _opened_referee(pipeline)),
                    stop, "opening the store and the log", count=count_retry,
                )
                judged = 0 if runner is None else runner.run(stop, idle_exit_s=args.idle_exit)
        except LogBehindStore as exc:
            print(f"referee: refusing to judge: {exc}", file=sys.stderr)
            return 3
        if runner is None:  # stopped while waiting: nothing judged, and the store may still be unreachable
            print(json.dumps({"judged": 0}))
            return 0
        print(json.dumps({"judged": judged}))
        if not args.no_summary:
            _referee_summary(pipeline, None, judged)
    return 0


def _log_reached() -> bool:
    """Kafka mode: wait until the log's topic can be opened (the broker may be down as the referee starts), each
    retry logged; False if stopped (SIGTERM, SIGINT) first. Opening the pipeline opens its log at once, and a
    broker away for its client's 30 s of bootstrapping ended the referee in a traceback."""
    from kafka import KafkaAdminClient

    from api.settings import Settings
    from ingest.runners import count_retry, until_reachable

    bootstrap = Settings().kafka_bootstrap_servers
    if bootstrap is None:
        return True

    def reach() -> bool:
        # a few seconds per attempt (the client's own default is 30 s), so a stop is seen soon
        KafkaAdminClient(bootstrap_servers=bootstrap, client_id="pokeraudit-admin", bootstrap_timeout_ms=5000).close()
        return True

    stop = threading.Event()
    with stopped_by_signals(lambda: stop.set()):
        reached = until_reachable(reach, stop, "reaching the log", count=count_retry)
    return reached is not None


def _opened_referee(pipeline: Pipeline) -> Referee:
    """The store first (kept once open), then the referee with its publishers: a retry opens only what failed."""
    pipeline.store  # noqa: B018 - opening it is the point
    return pipeline.referee


def _referee_summary(pipeline: Pipeline, outcomes: dict[str, int] | None, judged: int) -> None:
    """Two labelled lines on stderr, so stdout stays one JSON object: what this run judged (the JSON's counts),
    and what the store holds in all (``pokeraudit status``'s totals), which earlier runs contributed to."""
    from api.operations import status

    by_outcome = "" if not outcomes else " (" + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())) + ")"
    print(f"judged this run: {judged} records{by_outcome}", file=sys.stderr)
    total = status(pipeline)
    print(
        f"in the store, all runs: accepted {total['accepted']}, rejected {total['rejected']}, lag {total['lag']}",
        file=sys.stderr,
    )


def _referees(args: argparse.Namespace) -> int:
    """``--processes N``: N referees (this command without the option) as child processes of one group."""
    from api.settings import Settings

    if Settings().kafka_bootstrap_servers is None:
        print("referee: --processes needs Kafka (KAFKA_BOOTSTRAP_SERVERS); the embedded log is judged by one "
              "process", file=sys.stderr)
        return 2
    argv = [sys.executable, "-m", "api.cli", "referee", "--no-summary", "--log-level", args.log_level]
    if args.idle_exit is not None:
        argv += ["--idle-exit", str(args.idle_exit)]
    # each child serves its own metrics, on the ports after the one given
    children = [
        subprocess.Popen(argv + _metrics_argv(args, n), stdout=subprocess.PIPE, text=True)
        for n in range(args.processes)
    ]

    def stop_children() -> None:
        for child in children:
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)

    with stopped_by_signals(stop_children):
        outputs = [child.communicate()[0] for child in children]
    judged = [json.loads(out)["judged"] if child.returncode == 0 else None for child, out in zip(children, outputs, strict=True)]
    print(json.dumps({"judged": sum(n or 0 for n in judged), "by_process": judged}))
    with _pipeline() as pipeline:
        _referee_summary(pipeline, None, sum(n or 0 for n in judged))
    return max(child.returncode for child in children)


def _metrics_argv(args: argparse.Namespace, n: int) -> list[str]:
    if args.metrics_port is None:
        return []
    return ["--metrics-port", str(args.metrics_port + n), "--metrics-host", args.metrics_host]


def _add_status(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    command = subparsers.add_parser(
        "status", help="per partition: log end, tracked offset, lag; accepted and rejected counts"
    )
    command.add_argument("--json", action="store_true")
    command.set_defaults(run=_status)


def _status(args: argparse.Namespace) -> int:
    from api.operations import status
    from api.probes import Unreachable, services_reachable
    from api.settings import Settings

    try:
        services_reachable(Settings())
    except Unreachable as exc:
        # promptly, instead of after the clients' own timeouts
        if args.json:
            print(json.dumps({"error": str(exc)}))
        print(f"status: {exc}", file=sys.stderr)
        return 3
    with _pipeline() as pipeline:
        report = status(pipeline)
    if args.json:
        print(json.dumps(report))
    else:
        for p in report["partitions"]:
            behind = "  BEHIND THE STORE" if p["behind_store"] else ""
            print(f"partition {p['partition']}: log end {p['log_end_offset']}, tracked {p['tracked_offset']}, lag {p['lag']}{behind}")
        print(f"accepted {report['accepted']}, rejected {report['rejected']}, lag {report['lag']}")
        if report["degraded"]:
            print(f"degraded: the projector passed over {report['poison_events']} event(s) it could not project")
            for e in report["poison"]:
                print(f"  poison event {e['notification_id']} (stream {e['stream']} v{e['version']}): {e['error']}")
        if report["log_behind_store"]:
            print(report["log_behind_store"])
    return 4 if report["log_behind_store"] else 0


def _add_verify(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    command = subparsers.add_parser(
        "verify",
        help="recompute every stored event's hash chain and check every stream against the checkpoints",
        description="Recompute every stored stream's hash chain, check every stream against the checkpoints that "
        "anchor its head (in the store and on the log's checkpoints topic) and report every break, each with its "
        "event id, type, competition, table and hand. Exit 0 when everything verifies, 1 when anything does not.",
    )
    command.add_argument("--json", action="store_true", help="the report as JSON")
    command.set_defaults(run=_verify)


def _verify(args: argparse.Namespace) -> int:
    from api.operations import verify

    with _pipeline() as pipeline:
        report = verify(pipeline)
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
        return 0 if report.ok else 1
    checked = (f"verified {report.events} events in {report.streams} streams against {report.checkpoints}"
               f" checkpoints ({report.published} on the log)")
    if report.ok:
        print(f"{checked}: every chain holds")
        return 0
    print(f"{checked}: {len(report.breaks)} BROKEN")
    for b in report.breaks:
        print(f"  {b}")
    return 1


def _add_demo(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    command = subparsers.add_parser(
        "demo",
        help="the embedded service end to end, then the API serving it (no Kafka, no PostgreSQL)",
        description="Simulate a competition of 3 tables x 9 players and publish it, with the 2023 WSOP Event #43 "
        "final table from the shared PHH set, to the embedded log; judge it into the embedded store; project the "
        "read models; print counts, rejections with their rules, chip counts, a hand's pots and the chain check; "
        "then serve the API on localhost until interrupted.",
    )
    command.add_argument("--data-dir", default="var/demo", help="where the demo keeps its log and store")
    command.add_argument("--seed", type=int, default=7, help="the simulated competition's seed")
    command.add_argument("--host", default="127.0.0.1")
    command.add_argument("--port", type=int, default=8000, help="the API's port (a free one if it is taken)")
    command.add_argument("--no-serve", action="store_true", help="stop after the report instead of serving")
    command.set_defaults(run=_demo)


def _demo(args: argparse.Namespace) -> int:
    from pathlib import Path

    from api.demo import run_demo

    return run_demo(Path(args.data_dir), seed=args.seed, serve=not args.no_serve, host=args.host, port=args.port)


def _add_schemas(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    command = subparsers.add_parser(
        "schemas",
        help="write the JSON Schema of the envelope and of every event type",
        description="Write docs/schemas/events.schema.json (or --out): the envelope and every payload type the "
        "log accepts, at the current schema version; and docs/ACTS.md (or --acts-out): every act, who may record "
        "it, its fields and an example record. Tests check both committed files are current.",
    )
    command.add_argument("--out", default="docs/schemas/events.schema.json", help="where to write it")
    command.add_argument("--acts-out", default="docs/ACTS.md", metavar="FILE",
                         help="where to write the acts' reference (who records each, its fields, an example)")
    command.set_defaults(run=_schemas)


def schemas_document() -> str:
    from ingest.envelope import json_schemas
    from ingest.ofc_history import history_schema

    document = {**json_schemas(), "ofc_round_history": history_schema()}  # docs/OFC_FORMAT.md
    return json.dumps(document, indent=2, sort_keys=True) + "\n"


def _schemas(args: argparse.Namespace) -> int:
    from pathlib import Path

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(schemas_document(), encoding="utf-8")
    print(f"wrote {out}")
    from api.acts_doc import acts_document

    acts = Path(args.acts_out)
    acts.parent.mkdir(parents=True, exist_ok=True)
    acts.write_text(acts_document(), encoding="utf-8")
    print(f"wrote {acts}")
    return 0


@contextlib.contextmanager
def _pipeline(publish_rejections: bool = False) -> Iterator[Pipeline]:
    from api.bootstrap import bootstrap
    from api.settings import Settings

    pipeline = bootstrap(Settings(), publish_rejections=publish_rejections)
    try:
        yield pipeline
    finally:
        pipeline.close()


from api.cli_draw import add_draw  # noqa: E402  (the Secretary's draws: their own module)
from api.cli_integrity import add_integrity  # noqa: E402  (integrity statistics: their own module)
from api.cli_io import add_export, add_import  # noqa: E402  (import and export: their own module)
from api.cli_projections import add_projections  # noqa: E402  (the read models: their own module)
from api.cli_protocol import add_protocol  # noqa: E402  (the competition protocol: its own module)
from api.cli_rating import add_rating  # noqa: E402  (the season's rating list: its own module)
from api.cli_reporting import add_reporting  # noqa: E402  (the reporting views: their own module)
from api.cli_results import add_results  # noqa: E402  (the competition's end and its documents: their own module)
from api.cli_serve import add_serve  # noqa: E402  (serve and token: their own module)
from api.cli_simulate import add_simulate  # noqa: E402  (the simulator: its own module)
from api.cli_validate import add_validate  # noqa: E402  (validate: its own module, lean to start, api/console.py)

_SUBCOMMANDS: tuple[Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None], ...] = (
    add_validate,
    _add_publish,
    _add_referee,
    _add_status,
    _add_verify,
    _add_demo,
    _add_schemas,
    add_serve,
    add_simulate,
    add_projections,
    add_protocol,
    add_import,
    add_export,
    add_reporting,
    add_integrity,
    add_draw,
    add_results,
    add_rating,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pokeraudit", description="Event-sourced poker hand audit.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in _SUBCOMMANDS:
        add(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
