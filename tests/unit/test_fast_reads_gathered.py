"""The hot reads gathered (api/fast_reads.py ``Gathered``; issue 17): reads asked while a batch is being read are
read together next, in one hop to a reader thread; a read asked while a batch is in flight is never answered from
that batch (what answers it is read after it was asked); each read gets its own answer or its own error."""

from __future__ import annotations

import asyncio
import threading

import pytest

from api.fast_reads import Gathered

pytestmark = pytest.mark.unit


class Store:
    """A value that moves, read by the batches; each batch waits for ``release`` when ``hold`` is set."""

    def __init__(self) -> None:
        self.value = 0
        self.batches: list[list[str]] = []
        self.hold = False
        self.started = threading.Event()
        self.release = threading.Event()

    def work(self, items: list[str]) -> list[bytes | Exception]:
        read = self.value  # what the batch reads: the store as it is when the batch begins
        self.batches.append(list(items))
        self.started.set()
        if self.hold:
            self.release.wait(5)
        out: list[bytes | Exception] = []
        for item in items:
            out.append(KeyError(item) if item.startswith("missing") else f"{item}@{read}".encode())
        return out


def test_reads_asked_together_are_read_together_each_with_its_own_answer_or_error() -> None:
    store = Store()
    gathered = Gathered(store.work, most=128)

    async def run() -> list[bytes | BaseException]:
        return await asyncio.gather(*(gathered.ask(item) for item in ("a", "b", "missing", "a")),
                                    return_exceptions=True)

    answers = asyncio.run(run())
    assert answers[0] == b"a@0" and answers[1] == b"b@0" and answers[3] == b"a@0"
    assert isinstance(answers[2], KeyError)
    # the first read alone, at once (nothing was in flight); the three asked meanwhile together
    assert store.batches == [["a"], ["b", "missing", "a"]]
    assert (gathered.batches, gathered.items) == (2, 4)


def test_a_read_asked_while_a_batch_is_in_flight_is_read_by_the_next_batch() -> None:
    store = Store()
    store.hold = True
    gathered = Gathered(store.work, most=128)

    async def run() -> tuple[bytes, bytes, bytes]:
        first = asyncio.ensure_future(gathered.ask("first"))
        await asyncio.get_running_loop().run_in_executor(None, store.started.wait, 5)
        # the first batch has read the store; it moves, then two more reads are asked while that batch is held
        store.value = 1
        later = [asyncio.ensure_future(gathered.ask(item)) for item in ("second", "third")]
        await asyncio.sleep(0.05)
        assert not first.done() and not any(f.done() for f in later)
        store.release.set()
        return await first, await later[0], await later[1]

    assert asyncio.run(run()) == (b"first@0", b"second@1", b"third@1")
    assert store.batches == [["first"], ["second", "third"]]


def test_at_most_most_a_batch_and_a_failed_batch_fails_each_of_its_reads() -> None:
    store = Store()
    gathered = Gathered(store.work, most=2)

    async def run() -> list[bytes]:
        return list(await asyncio.gather(*(gathered.ask(str(n)) for n in range(5))))

    assert asyncio.run(run()) == [b"0@0", b"1@0", b"2@0", b"3@0", b"4@0"]
    assert [len(b) for b in store.batches] == [1, 2, 2]

    def broken(items: list[str]) -> list[bytes | Exception]:
        raise ConnectionError("the database is gone")

    failing = Gathered(broken, most=8)

    async def fail() -> list[bytes | BaseException]:
        return await asyncio.gather(*(failing.ask(item) for item in ("x", "y")), return_exceptions=True)

    assert [type(e) for e in asyncio.run(fail())] == [ConnectionError, ConnectionError]
    # and the next read after a failed batch is read again (nothing left busy)
    assert isinstance(asyncio.run(fail())[0], ConnectionError)


def test_a_new_event_loop_reads_afresh() -> None:
    store = Store()
    gathered = Gathered(store.work, most=8)
    assert asyncio.run(gathered.ask("a")) == b"a@0"
    store.value = 3
    assert asyncio.run(gathered.ask("a")) == b"a@3"
    assert store.batches == [["a"], ["a"]]


def test_two_event_loops_at_once_each_read_their_own() -> None:
    """A batch held on one loop (thread), with a read waiting behind it there, neither holds nor takes the reads of
    another loop, and both of its own are answered once it is let go."""
    store = Store()
    store.hold = True
    gathered = Gathered(store.work, most=8)
    queued = threading.Event()
    first: list[tuple[bytes, ...]] = []

    async def held_and_queued() -> tuple[bytes, ...]:
        held = asyncio.ensure_future(gathered.ask("held"))
        await asyncio.sleep(0.05)
        waiting = asyncio.ensure_future(gathered.ask("queued"))
        await asyncio.sleep(0.05)
        queued.set()
        return tuple(await asyncio.wait_for(asyncio.gather(held, waiting), 5))

    thread = threading.Thread(target=lambda: first.append(asyncio.run(held_and_queued())))
    thread.start()
    assert store.started.wait(5) and queued.wait(5)
    store.hold = False

    async def other() -> bytes:
        return await asyncio.wait_for(gathered.ask("other"), 5)

    assert asyncio.run(other()) == b"other@0"
    store.release.set()
    thread.join(10)
    assert first == [(b"held@0", b"queued@0")]
    assert store.batches == [["held"], ["other"], ["queued"]]
