from datetime import UTC, datetime

from eventsourcing.application import Application

from domain.chained import first_broken_link_in
from domain.rejections import Rejection, RejectionKind, RejectionLog, rejection_log_id

AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def test_a_competitions_rejections_are_kept_in_order_with_their_rule_and_chained() -> None:
    log = RejectionLog.open("open-2026", AT)
    log.reject(
        Rejection(RejectionKind.ILLEGAL, "seat 4 raised to 1,300; the minimum raise is to 1,400", "bfsp 4.9.6"),
        AT,
        {"offset": 17},
    )
    log.reject(Rejection(RejectionKind.MALFORMED, "not JSON", field=""), AT, {"offset": 18})
    app: Application = Application()
    app.save(log)
    stored = list(app.repository.event_store.get(rejection_log_id("open-2026")))
    assert [type(e).__name__ for e in stored] == ["Opened", "RecordRejected", "RecordRejected"]
    assert stored[1].payload["rule"] == "bfsp 4.9.6" and stored[1].meta == {"offset": 17}
    assert first_broken_link_in(stored) is None
    again = app.repository.get(log.id)
    assert isinstance(again, RejectionLog) and again.count == 2


def test_a_rejection_says_its_rule_in_the_message() -> None:
    r = Rejection(RejectionKind.ILLEGAL, "seat 2 checked facing a bet of 200", "tda-2022 45")
    assert r.message == "seat 2 checked facing a bet of 200 (tda-2022 45)"
