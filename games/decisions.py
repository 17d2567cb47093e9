"""Bot decisions in parallel and time-boxed: the clock's pool (issue #16 §3).

The clock hands every due seat to :meth:`DecisionPool.submit` at once. A bot's or 托管 seat's
decision runs in one of a few worker processes (``games.bot_worker.decide``: the engine only,
state in, action out — the search is CPU-bound Python and the C move generator holds the GIL,
so threads would not run two searches at once); a few apply threads then apply each result
through the table service (``tables.due_seat_apply``) as soon as it comes back. A decision
still running ``BOT_DECISION_BUDGET_SECONDS`` after it was handed over is abandoned and the
game's cheap ``bot_fallback_action`` is applied instead, so no table waits for a bot longer
than its think time plus the budget (plus the apply's own database work).

Ahead of the clock: the sweep hands over the seats whose clock runs out within ``lead`` (by
default the budget), so the bot decides during its think time; a result back early is held
(``_release``) and applied when the clock has run out, never before, and the budget counts
from the clock. The apply writes from the rows the clock read with the seat when the table's
``seq`` has not moved since (``tables.due_seat_apply``): one locked SELECT and the move's writes.

Exactly once: a seat is in the pool at most once at a time (``_busy``); whichever of the
result and the budget's timer claims a decision first applies it, the other is dropped; and
under the table lock ``due_seat_apply`` refuses a decision whose hand has moved since it was
read (a late or duplicated result, another clock process's move, the player acting himself).

A decision that finishes within the budget is ``ruleset.bot_action`` on the stored state, as
deterministic from the hand's seed as the serial clock's; only a fallback (recorded as by
``bot-fb`` / ``auto-fb``) depends on the machine's load.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
import time
from collections import Counter, deque
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connections
from django.utils import timezone

from games import bot_worker
from games.engine import registry
from games.services import tables

logger = logging.getLogger("leyou.decisions")

Key = tuple[int, int]  # (table id, seat index)
_COALESCE = 0.01  # seconds: moves applied this close together wake the clock once
_MOVED_RETRIES = 5  # an all-at-once phase: decided again at most this often within one turn


@dataclass(eq=False)
class _Job:
    due: tables.DueSeat
    hard: float = 0.0  # time.monotonic() past which the fallback is applied
    due_at: float = 0.0  # time.monotonic() of the seat's turn clock: not applied before it
    action: dict[str, Any] | None = None
    capped: bool = False  # a search stopped at its wall-clock cap (the move says ``cap``)
    cpu: float | None = None  # the decision's CPU seconds in its worker (None: not decided)
    fallback: bool = False
    future: Future[Any] | None = field(default=None, repr=False)
    handed: float = field(default_factory=time.monotonic)  # when the clock handed it over
    back: float = 0.0  # when its result (or the budget's timer) queued it to be applied
    # wall clock (time.time()) of its way through the pool: handed over, given to the executor,
    # started and ended in the worker, its result back in this process (0.0: not reached)
    stamps: list[float] = field(default_factory=lambda: [time.time(), 0.0, 0.0, 0.0, 0.0])

    @property
    def key(self) -> Key:
        return (self.due.table_id, self.due.seat_index)


@dataclass(frozen=True, slots=True)
class ApplyTiming:
    """One job through the pool, for ``bench/bot_latency.py`` (seconds)."""

    outcome: str  # a count of ``DecisionPool.stats``: decided, capped, fallback, step, stale …
    deciding: float  # handed over → its result (or the budget's timer) queued it
    queued: float  # → an apply thread took it
    applying: float  # → its transaction committed (or it was dropped)
    decision_cpu: float | None  # CPU of the decision in its worker (None: none came back)
    late: float | None  # committed this long after the seat's turn clock (None: no clock read)
    # the decision's way, ``time.time()`` (0.0: not reached): handed over, given to the
    # worker processes, started and ended in a worker, its result back in this process
    stamps: tuple[float, ...] = ()
    ahead: float | None = None  # handed over this long before the seat's turn clock (< 0: after)


class _ReadyQueue:
    """Decided jobs waiting for an apply thread, first come first served, one table at a time:
    a thread never takes a job whose table another apply thread is writing (it would only wait
    on that table's row lock while other tables' moves wait for a thread)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._jobs: deque[_Job] = deque()
        self._tables: set[int] = set()
        self._closed = False

    def put(self, job: _Job) -> None:
        with self._cond:
            self._jobs.append(job)
            self._cond.notify()

    def take(self) -> _Job | None:
        """The oldest job whose table is free (None once closed)."""
        with self._cond:
            while not self._closed:
                for i, job in enumerate(self._jobs):
                    if job.due.table_id not in self._tables:
                        del self._jobs[i]
                        self._tables.add(job.due.table_id)
                        return job
                self._cond.wait()
            return None

    def done(self, job: _Job) -> None:
        with self._cond:
            self._tables.discard(job.due.table_id)
            self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()


class DecisionPool:
    """Worker processes for bot decisions, threads that apply them, and the budget's timer."""

    def __init__(
        self,
        *,
        workers: int,
        budget: float,
        apply_threads: int,
        test_delay: dict[str, float] | None = None,
        lead: float | None = None,
        nice: int = 0,
    ) -> None:
        self.workers = max(1, workers)
        self.nice = nice  # the worker processes' priority, lowered by this (bot_worker.worker_init)
        self.budget = budget
        # how long before its turn clock a seat is taken and decided (the bot thinks during its
        # think time); its move is applied at the clock, not before. Default: the budget, so a
        # decision within the budget is ready when the clock runs out (the settings' is longer,
        # ``BOT_DECISION_LEAD_SECONDS``: the clock's loop can be late to hand a seat over).
        self.lead = budget if lead is None else lead
        self.test_delay = dict(test_delay or {})
        self.stats: Counter[str] = Counter()  # decided, fallback, stale, step, failed
        self.timings: list[ApplyTiming] | None = None  # bench/bot_latency.py sets a list
        self._lock = threading.Condition()
        self._busy: set[Key] = set()  # deciding or waiting to be applied
        self._deciding: dict[Key, _Job] = {}
        self._holding: list[_Job] = []  # decided (or nothing to decide) before their clock
        self._applying = _ReadyQueue()
        self._changed = threading.Event()
        self._stopping = False
        self._procs = self._executor()
        self._threads = [
            threading.Thread(target=self._apply_loop, name=f"leyou-bot-apply-{i}", daemon=True)
            for i in range(max(1, apply_threads))
        ]
        self._threads.append(
            threading.Thread(target=self._timer_loop, name="leyou-bot-budget", daemon=True)
        )
        for thread in self._threads:
            thread.start()

    @classmethod
    def from_settings(cls) -> DecisionPool | None:
        """The pool the settings ask for; None with ``BOT_DECISION_WORKERS`` 0 (serial)."""
        conf = settings.LEYOU
        if not conf["BOT_DECISION_WORKERS"]:
            return None
        return cls(
            workers=conf["BOT_DECISION_WORKERS"],
            budget=conf["BOT_DECISION_BUDGET_SECONDS"],
            apply_threads=conf["BOT_APPLY_THREADS"],
            test_delay=conf["BOT_DECISION_TEST_DELAY"],
            nice=conf["BOT_DECISION_NICE"],
            lead=conf["BOT_DECISION_LEAD_SECONDS"],
        )

    def _executor(self) -> ProcessPoolExecutor:
        # spawn: the clock and the server have threads (and open connections) a fork would copy
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=bot_worker.worker_init,
            initargs=(self.nice,),
        )

    def warm(self, timeout: float = 60.0) -> None:
        """Start every worker process now (they start on demand), so no decision waits for one."""
        futures = [self._procs.submit(bot_worker.warm) for _ in range(self.workers)]
        for future in futures:
            future.result(timeout=timeout)

    # -- the clock's side -------------------------------------------------------------------

    def submit(self, due: tables.DueSeat) -> bool:
        """Take a seat due now or within ``lead`` unless it is already in the pool; its move is
        applied later, not before its turn clock (``due.deadline``) runs out."""
        job = _Job(due)
        with self._lock:
            if self._stopping or job.key in self._busy:
                return False
            self._busy.add(job.key)
        now = time.monotonic()
        job.due_at = now
        if due.deadline is not None:
            ahead = due.deadline.timestamp() - time.time()
            if ahead > 0:  # + 1 ms: applied after the clock ran out, never a hair before
                job.due_at += min(self.lead, ahead) + 0.001
        if due.kind == "timeout" or due.state is None or due.engine_seat is None:
            self._release(job)  # nothing to decide off the lock (a missed turn's 托管 step)
            return True
        job.hard = job.due_at + self.budget  # the budget runs from the clock, not the read
        self._decide(job)
        return True

    def _release(self, job: _Job) -> None:
        """Queue the job to be applied now, or at its turn clock if that is still to come."""
        if job.due_at <= time.monotonic():
            self._applying.put(job)
            return
        with self._lock:
            self._holding.append(job)
            self._lock.notify_all()  # the timer wakes at its clock

    def _decide(self, job: _Job) -> None:
        """Hand the job's decision to a worker process, with the budget's timer on it."""
        due = job.due
        args = (
            due.game,
            due.state,
            due.engine_seat,
            time.time() + (job.hard - time.monotonic()),
            float(self.test_delay.get(due.game, 0.0)),
        )
        with self._lock:
            self._deciding[job.key] = job
            self._lock.notify_all()  # the timer may be idle, or this job may come due soonest
        try:
            job.future = self._procs.submit(bot_worker.decide_stamped, *args)
        except BrokenProcessPool:  # a worker died (e.g. killed): start a new pool
            logger.error("bot decision pool broken; starting a new one")
            self._procs = self._executor()
            job.future = self._procs.submit(bot_worker.decide_stamped, *args)
        job.stamps[1] = time.time()
        job.future.add_done_callback(lambda future, job=job: self._decided(job, future))

    def busy(self) -> set[Key]:
        """The seats being decided or applied."""
        with self._lock:
            return set(self._busy)

    def wait_changed(self, timeout: float) -> None:
        """Sleep at most ``timeout``, less if a move was applied (it may have set a deadline);
        the moves applied close together wake the clock once: within a few ms, or, since the
        sweep takes seats ``lead`` before their clock, within a quarter of it (at most 50 ms;
        at hundreds of moves a second a sweep per move was a large part of the clock's CPU)."""
        start = time.monotonic()
        if self._changed.wait(timeout):
            coalesce = max(_COALESCE, min(0.05, self.lead / 4))
            time.sleep(max(0.0, min(coalesce, timeout - (time.monotonic() - start))))
            self._changed.clear()

    def stop(self) -> None:
        """Stop the threads and the worker processes (what is in flight is dropped)."""
        with self._lock:
            self._stopping = True
            self._lock.notify_all()
        self._applying.close()
        for thread in self._threads:
            thread.join(timeout=10)
        self._procs.shutdown(wait=True, cancel_futures=True)

    # -- the pool's side --------------------------------------------------------------------

    def _decided(self, job: _Job, future: Future[Any]) -> None:
        with self._lock:
            if self._deciding.get(job.key) is not job:
                return  # the budget ran out first: its fallback was applied instead
            del self._deciding[job.key]
        result = None
        if not future.cancelled():
            if future.exception() is not None:
                logger.error("bot decision failed: %r", future.exception())
            else:
                result, job.stamps[2], job.stamps[3] = future.result()
        job.stamps[4] = time.time()
        if result is not None:
            job.action, job.capped, job.cpu = result
        job.fallback = result is None
        job.back = time.monotonic()
        self._release(job)

    def _timer_loop(self) -> None:
        with self._lock:
            while not self._stopping:
                now = time.monotonic()
                for key, job in list(self._deciding.items()):
                    if job.hard <= now:
                        del self._deciding[key]
                        if job.future is not None:
                            job.future.cancel()  # not started yet: no worker spends time on it
                        job.fallback = True
                        job.back = now
                        self._applying.put(job)  # hard is past due_at: no need to hold it
                held = [job for job in self._holding if job.due_at <= now]
                if held:
                    self._holding = [job for job in self._holding if job.due_at > now]
                    for job in held:
                        self._applying.put(job)
                soonest = min(
                    [job.hard for job in self._deciding.values()]
                    + [job.due_at for job in self._holding],
                    default=None,
                )
                self._lock.wait(None if soonest is None else max(0.0, soonest - now))

    def _apply_loop(self) -> None:
        try:
            while True:
                job = self._applying.take()
                if job is None:
                    return
                outcome = "failed"
                start = time.monotonic()
                try:
                    close_old_connections()
                    outcome = self._apply(job)
                except Exception:
                    logger.exception(
                        "clock: seat %s of table %s failed", job.due.seat_index, job.due.table_id
                    )
                finally:
                    with self._lock:
                        self.stats[outcome] += 1
                        if self.timings is not None:
                            self.timings.append(self._timing(job, outcome, start))
                        if outcome != "moved":  # "moved": being decided again, still busy
                            self._busy.discard(job.key)
                    self._applying.done(job)
                    self._changed.set()
        finally:
            connections.close_all()  # this thread's connections (a test database is dropped)

    @staticmethod
    def _timing(job: _Job, outcome: str, start: float) -> ApplyTiming:
        deadline = job.due.deadline
        return ApplyTiming(
            outcome=outcome,
            deciding=(job.back or start) - job.handed,
            queued=start - max(job.back or start, job.due_at),
            applying=time.monotonic() - start,
            decision_cpu=job.cpu,
            late=None if deadline is None else time.time() - deadline.timestamp(),
            stamps=tuple(job.stamps),
            ahead=None if deadline is None else deadline.timestamp() - job.stamps[0],
        )

    def _apply(self, job: _Job) -> str:
        """Apply the job's move; return what happened (a count of ``stats``)."""
        due = job.due
        for _ in range(_MOVED_RETRIES):
            if due.state is None or due.engine_seat is None or due.kind == "timeout":
                tables.due_seat_act(table_id=due.table_id, seat_index=due.seat_index)
                return "step"
            action, how = job.action, "cap" if job.capped else ""
            if action is None:
                ruleset = registry.get(due.game)
                state = ruleset.state_from_json(due.state)
                if due.engine_seat not in ruleset.to_act(state):
                    # not this seat's turn in the state read (its decision failed on it): the
                    # serial step re-reads under the lock and clears the clock or plays
                    tables.due_seat_act(table_id=due.table_id, seat_index=due.seat_index)
                    return "step"
                action, how = ruleset.bot_fallback_action(state, due.engine_seat), "fb"
            outcome = tables.due_seat_apply(due=due, action=action, how=how)
            if outcome == tables.DueApplied.APPLIED:
                return {"": "decided", "cap": "capped", "fb": "fallback"}[how]
            if outcome == tables.DueApplied.STALE:
                return "stale"
            # MOVED: another seat of an all-at-once phase answered first. Decide again on the
            # new state within what is left of this seat's budget; past it, the fallback now.
            fresh = tables.due_seats_read(now=timezone.now(), only=job.key)
            if not fresh:
                return "stale"
            job = _Job(fresh[0], hard=job.hard)
            due = job.due
            with self._lock:
                self.stats["redecided"] += 1
            if due.kind != "timeout" and time.monotonic() < job.hard:
                self._decide(job)
                return "moved"
        return "stale"
