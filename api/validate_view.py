"""What ``pokeraudit validate`` prints for people: one line per hand, one line per unreadable input, a total."""

from __future__ import annotations

from ingest.phh_validate import HandReport, UnreadableReport

EXIT_OK, EXIT_ILLEGAL, EXIT_UNREADABLE = 0, 1, 2


class Tally:
    """Counts over a validate run, its closing line and its exit code."""

    def __init__(self) -> None:
        self.hands = self.legal = self.recorded = self.matching = self.unreadable = 0

    def add(self, report: HandReport | UnreadableReport) -> None:
        if isinstance(report, UnreadableReport):
            self.count(unreadable=True)
        else:
            self.count(ok=report.ok, matches=report.matches)

    def count(self, unreadable: bool = False, ok: bool = False, matches: bool | None = None) -> None:
        """One report by what the tally reads of it."""
        if unreadable:
            self.unreadable += 1
            return
        self.hands += 1
        self.legal += ok
        self.recorded += matches is not None
        self.matching += bool(matches)

    def counts(self) -> tuple[int, int, int, int, int]:
        """The counts, as a helper process sends them back (api/cli_validate.py)."""
        return self.hands, self.legal, self.recorded, self.matching, self.unreadable

    def add_counts(self, counts: tuple[int, ...]) -> None:
        """Another tally's :meth:`counts` added to this one's."""
        hands, legal, recorded, matching, unreadable = counts
        self.hands += hands
        self.legal += legal
        self.recorded += recorded
        self.matching += matching
        self.unreadable += unreadable

    def summary(self) -> str:
        unreadable = f"; {self.unreadable} unreadable input(s)" if self.unreadable else ""
        return (
            f"{self.hands} hands: {self.legal} legal, {self.hands - self.legal} refused; "
            f"finishing stacks match the record in {self.matching} of {self.recorded}{unreadable}"
        )

    def exit_code(self) -> int:
        if self.unreadable:
            return EXIT_UNREADABLE
        return EXIT_OK if self.legal == self.hands else EXIT_ILLEGAL


def summary_line(report: HandReport) -> str:
    where = f"{report.file} [{report.hand}]"
    if report.rejection is not None:
        at = f" at line {report.rejection.line}" if report.rejection.line else ""
        return f"REFUSED {where}: event {report.rejection.event_index}{at}: {report.rejection.message}"
    notes = [d.explanation for d in report.differences[:1]]
    if report.matches is False:
        notes.insert(0, "finishing stacks differ from the record")
    if not report.complete:
        notes.append("the record stops before the hand is over")
    if report.undetermined:
        notes.append("a pot is undetermined (unknown cards)")
    return f"ok {where}" + (": " + "; ".join(notes) if notes else "")


def unreadable_line(report: UnreadableReport) -> str:
    where = report.file + (f":{report.line}" if report.line is not None else "")
    hand = f" hand {report.hand}" if report.hand is not None else ""
    field = f" field {report.field!r}" if report.field else ""
    return f"pokeraudit: cannot read {where}:{hand}{field}: {report.error}"
