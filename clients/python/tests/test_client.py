#!/usr/bin/env python3
"""The generated Python client (clients/python/anchorage_client) against a
live node: `anchorage serve` on a free loopback port, over a fresh store,
with a token file that gives an owner token. Through the generated client
only: typed saves, the change feed pulled by anchor in pages, resumed from a
kept anchor by a new client (as after a restart), followed with a long-poll
that a save from another thread ends, a day's statistics checked against
what was saved, a delete that shows in the feed, and the node's errors as
typed `Error`s. The README's Python snippet runs as it is. The class ends
with `anchorage audit verify` on the store.

    python3 clients/python/tests/test_client.py [-v]

The node is `$ANCHORAGE`, or .build/debug/anchorage (`swift build --product
anchorage`); Scripts/python-client-test runs this file. Every wait is
bounded. Under Scripts/test the node records its answers
(ANCHORAGE_TEST_RESPONSES, inherited), which Scripts/check-responses then
checks against docs/openapi.json.
"""

import contextlib
import io
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import uuid

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "clients" / "python"))

import httpx  # noqa: E402  (a dependency of the generated client)

from anchorage_client import AuthenticatedClient, Client  # noqa: E402
from anchorage_client.api.feed import changes  # noqa: E402
from anchorage_client.api.samples import delete_sample, save_samples  # noqa: E402
from anchorage_client.api.statistics import statistics  # noqa: E402
from anchorage_client.models import (  # noqa: E402
    CategorySample,
    ChangePage,
    Error,
    ErrorCodeType0 as ErrorCode,
    Quantity,
    QuantitySample,
    SaveSamplesResponse201,
    Source,
    SourceRevision,
    Statistics,
    Workout,
)

WAIT = 30  # seconds: the bound of every wait (the node's start, a request, a stop)
OWNER = "owner-token-for-the-python-client-test"
BINARY = pathlib.Path(os.environ.get("ANCHORAGE") or ROOT / ".build" / "debug" / "anchorage")
WATCH = SourceRevision(source=Source(name="Watch", bundle_identifier="com.example.watch"))


def run(arguments):
    result = subprocess.run(
        [str(argument) for argument in arguments],
        capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )
    if result.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, arguments))} exited {result.returncode}: {result.stdout}{result.stderr}")
    return result.stdout


def quantity_sample(type_name, start, end, value, unit):
    return QuantitySample(
        kind="quantitySample", uuid=uuid.uuid4(), type_=f"HKQuantityTypeIdentifier{type_name}",
        start_date=start, end_date=end, quantity=Quantity(value=value, unit=unit), source_revision=WATCH,
    )


class LiveNodeTests(unittest.TestCase):
    """One node for the class; each test reads and writes types of its own,
    so that the feeds it pulls (filtered by type) hold only its objects."""

    @classmethod
    def setUpClass(cls):
        if not os.access(BINARY, os.X_OK):
            raise unittest.SkipTest(f"{BINARY} is missing: run swift build --product anchorage")
        cls.work = pathlib.Path(tempfile.mkdtemp(prefix="anchorage-python-client-"))
        cls.store = cls.work / "store"
        tokens = cls.work / "tokens.json"
        tokens.write_text(json.dumps({"tokens": [{"token": OWNER, "owner": True}]}))
        cls.log_path = cls.work / "serve.log"
        cls.log = open(cls.log_path, "w")
        cls.process = subprocess.Popen(
            [str(BINARY), "serve", "--store", str(cls.store), "--port", "0", "--tokens", str(tokens)],
            stdin=subprocess.DEVNULL, stdout=cls.log, stderr=subprocess.STDOUT,
        )
        cls.url = None
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline and cls.process.poll() is None:
            port = re.search(r"on http://127\.0\.0\.1:(\d+)", cls.log_path.read_text())
            if port:
                cls.url = f"http://127.0.0.1:{port.group(1)}"
                break
            time.sleep(0.05)
        if cls.url is None:
            text = cls.log_path.read_text()
            cls.stop_node()
            shutil.rmtree(cls.work, ignore_errors=True)
            raise AssertionError(f"the node did not start within {WAIT} s: {text}")

    @classmethod
    def stop_node(cls):
        if cls.process.poll() is None:
            cls.process.send_signal(signal.SIGTERM)
            try:
                cls.process.wait(WAIT)
            except subprocess.TimeoutExpired:
                cls.process.kill()
                cls.process.wait(WAIT)
        cls.log.close()

    @classmethod
    def tearDownClass(cls):
        """Stops the node by its pid, then `anchorage audit verify` on the
        store it wrote: the hash chain intact, the indices and views in
        agreement with the log."""
        cls.stop_node()
        try:
            output = run([BINARY, "audit", "verify", "--store", cls.store])
            if "intact" not in output or "agree" not in output:
                raise AssertionError(f"audit verify: {output}")
        finally:
            shutil.rmtree(cls.work, ignore_errors=True)

    def client(self, timeout=WAIT):
        """A new client, as a process that starts afresh makes one."""
        return AuthenticatedClient(base_url=self.url, token=OWNER, timeout=httpx.Timeout(timeout))

    def save(self, client, samples):
        answer = save_samples.sync(client=client, body=samples)
        self.assertIsInstance(answer, SaveSamplesResponse201, answer)
        self.assertEqual(answer.saved, len(samples))
        self.assertEqual(answer.uuids, [sample.uuid for sample in samples])
        return answer

    def page(self, client, **query):
        page = changes.sync(client=client, **query)
        self.assertIsInstance(page, ChangePage, page)
        return page

    def head(self, client, types):
        """The anchor after every change of `types` so far."""
        anchor = None
        for _ in range(1000):
            page = self.page(client, types=types, since=anchor)
            anchor = page.new_anchor
            if not page.has_more:
                return anchor
        self.fail("the feed did not end within 1,000 pages")

    # ---- the README's snippet ----------------------------------------

    def test_readme_snippet_runs_as_it_is(self):
        """README.md's Python block (Quick start), run as it is; only its
        tokenless client becomes an owner's, since this node has tokens."""
        readme = (ROOT / "README.md").read_text()
        blocks = [block for block in re.findall(r"^```python\n(.*?)^```$", readme, re.S | re.M)
                  if "anchorage_client" in block]
        self.assertEqual(len(blocks), 1, "README.md has one Python block that uses anchorage_client")
        tokenless = 'Client(base_url="http://127.0.0.1:8080")'
        self.assertIn(tokenless, blocks[0])
        snippet = blocks[0].replace(tokenless, f"AuthenticatedClient(base_url={self.url!r}, token={OWNER!r})")
        scope = {"AuthenticatedClient": AuthenticatedClient}
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(snippet, "README.md (Python)", "exec"), scope)
        scope["node"].get_httpx_client().close()
        saved = scope["saved"]
        self.assertIsInstance(saved, SaveSamplesResponse201)
        lines = printed.getvalue().splitlines()
        # A whole number reads back as a Python int (JSON's 120), a float otherwise.
        self.assertIn(f"{saved.uuids[0]} 2024-06-01T08:00:00Z 120 count", lines)
        with self.client() as client:
            self.assertEqual(scope["anchor"], self.head(client, "stepCount"))

    # ---- saving, pulling by anchor, resuming -------------------------

    def test_save_then_pull_by_anchor_in_pages_then_resume_with_a_new_client(self):
        client = self.client()
        beats = [
            quantity_sample("HeartRate", f"2025-01-02T10:0{minute}:00Z", f"2025-01-02T10:0{minute}:00Z",
                            60.5 + minute, "count/min")
            for minute in range(5)
        ]
        sleep = CategorySample(
            kind="categorySample", uuid=uuid.uuid4(), type_="HKCategoryTypeIdentifierSleepAnalysis",
            start_date="2025-01-01T23:00:00Z", end_date="2025-01-02T06:30:00.25Z", value=3, source_revision=WATCH,
        )
        run_ = Workout(
            kind="workout", uuid=uuid.uuid4(), type_="HKWorkoutTypeIdentifier", workout_activity_type=37,
            start_date="2025-01-02T07:00:00Z", end_date="2025-01-02T07:30:00Z",
            total_distance=Quantity(value=5.2, unit="km"), source_revision=WATCH,
        )
        self.save(client, beats + [sleep, run_])

        # Pages of two: 2, 2, then 1 without more.
        pulled, anchor, sizes = [], None, []
        while True:
            page = self.page(client, types="heartRate", since=anchor, limit=2)
            sizes.append((len(page.added), page.has_more))
            pulled += page.added
            self.assertIsInstance(page.new_anchor, str)
            anchor = page.new_anchor
            if not page.has_more:
                break
        self.assertEqual(sizes, [(2, True), (2, True), (1, False)])
        self.assertEqual([sample.uuid for sample in pulled], [sample.uuid for sample in beats])
        for sample, saved in zip(pulled, beats):
            self.assertIsInstance(sample, QuantitySample)
            self.assertIsInstance(sample.quantity.value, float)  # 60.5 …: JSON's whole numbers read as ints
            self.assertEqual(sample.quantity.value, saved.quantity.value)
            self.assertEqual(sample.quantity.unit, "count/min")
            self.assertEqual(sample.start_date, saved.start_date)
            self.assertEqual(sample.source_revision.source.bundle_identifier, "com.example.watch")

        # Each kind comes back as its own class.
        (sleep_back,) = self.page(client, types="sleepAnalysis").added
        self.assertIsInstance(sleep_back, CategorySample)
        self.assertEqual((sleep_back.uuid, sleep_back.value), (sleep.uuid, 3))
        self.assertEqual(sleep_back.end_date, "2025-01-02T06:30:00.25Z")
        (run_back,) = self.page(client, types="workout").added
        self.assertIsInstance(run_back, Workout)
        self.assertEqual(run_back.workout_activity_type, 37)
        self.assertEqual(run_back.duration, 1800)
        self.assertEqual((run_back.total_distance.value, run_back.total_distance.unit), (5.2, "km"))

        # As after a restart: a new client, the kept anchor.
        client.get_httpx_client().close()
        later = [quantity_sample("HeartRate", "2025-01-02T11:00:00Z", "2025-01-02T11:00:00Z", 88, "count/min"),
                 quantity_sample("HeartRate", "2025-01-02T11:01:00Z", "2025-01-02T11:01:00Z", 91, "count/min")]
        with self.client() as restarted:
            self.save(restarted, later)
            page = self.page(restarted, types="heartRate", since=anchor)
            self.assertEqual([sample.uuid for sample in page.added], [sample.uuid for sample in later])
            self.assertEqual([sample.quantity.value for sample in page.added], [88.0, 91.0])
            self.assertFalse(page.has_more)
            self.assertEqual(page.deleted, [])
            caught_up = self.page(restarted, types="heartRate", since=page.new_anchor)
            self.assertEqual((caught_up.added, caught_up.deleted, caught_up.has_more), ([], [], False))

    # ---- following ---------------------------------------------------

    def test_follow_with_a_long_poll_that_a_save_ends(self):
        with self.client(timeout=WAIT + 30) as client:
            anchor = self.head(client, "bodyMass")
            # Nothing new: the long-poll answers an empty page when its wait ends.
            quiet = self.page(client, types="bodyMass", since=anchor, wait=1)
            self.assertEqual((quiet.added, quiet.has_more), ([], False))
            anchor = quiet.new_anchor

            weight = quantity_sample("BodyMass", "2025-02-03T07:00:00Z", "2025-02-03T07:00:00Z", 71.25, "kg")
            failures = []

            def save_from_another_thread():
                try:
                    with self.client() as other:
                        time.sleep(0.5)  # not an outcome: the page is the same if the save comes first
                        answer = save_samples.sync(client=other, body=[weight])
                        if not isinstance(answer, SaveSamplesResponse201):
                            failures.append(answer)
                except Exception as error:  # noqa: BLE001  (reported by the test's thread)
                    failures.append(error)

            saver = threading.Thread(target=save_from_another_thread)
            started = time.monotonic()
            saver.start()
            try:
                page = self.page(client, types="bodyMass", since=anchor, wait=WAIT)
            finally:
                saver.join(WAIT)
            self.assertEqual(failures, [])
            self.assertLess(time.monotonic() - started, WAIT, "the long-poll waited out its wait")
            self.assertEqual([sample.uuid for sample in page.added], [weight.uuid])
            self.assertEqual(page.added[0].quantity.value, 71.25)
            self.assertNotEqual(page.new_anchor, anchor)

    # ---- statistics --------------------------------------------------

    def test_statistics_sum_over_a_day_equals_what_was_saved(self):
        distances = [1.5, 2.25, 0.75]
        with self.client() as client:
            self.save(client, [
                quantity_sample("DistanceWalkingRunning", f"2024-03-05T0{hour}:00:00Z", f"2024-03-05T0{hour}:30:00Z",
                                value, "km")
                for hour, value in enumerate(distances, start=6)
            ] + [
                # The next day: outside the bucket asked for.
                quantity_sample("DistanceWalkingRunning", "2024-03-06T06:00:00Z", "2024-03-06T06:30:00Z", 9, "km"),
            ])
            answer = statistics.sync(
                client=client, type_="distanceWalkingRunning", options="sum", interval="1d",
                from_="2024-03-05", to="2024-03-05", unit="km",
            )
            self.assertIsInstance(answer, Statistics, answer)
            self.assertEqual(answer.unit, "km")
            (day,) = answer.statistics
            self.assertEqual(day.start_date.isoformat(), "2024-03-05T00:00:00+00:00")
            self.assertEqual(day.end_date.isoformat(), "2024-03-06T00:00:00+00:00")
            self.assertAlmostEqual(day.sum_, sum(distances), places=9)

            two_days = statistics.sync(
                client=client, type_="distanceWalkingRunning", from_="2024-03-05", to="2024-03-06", unit="m",
            )
            self.assertIsInstance(two_days, Statistics, two_days)
            self.assertEqual([round(bucket.sum_, 6) for bucket in two_days.statistics], [4500, 9000])

    # ---- deleting ----------------------------------------------------

    def test_a_delete_shows_in_the_feed(self):
        with self.client() as client:
            kept = quantity_sample("FlightsClimbed", "2025-03-01T09:00:00Z", "2025-03-01T09:05:00Z", 3, "count")
            gone = quantity_sample("FlightsClimbed", "2025-03-01T10:00:00Z", "2025-03-01T10:05:00Z", 4, "count")
            self.save(client, [kept, gone])
            anchor = self.head(client, "flightsClimbed")

            response = delete_sample.sync_detailed(gone.uuid, client=client)
            self.assertEqual(response.status_code, 204, response.content)

            page = self.page(client, types="flightsClimbed", since=anchor)
            self.assertEqual(page.added, [])
            self.assertEqual([deleted.uuid for deleted in page.deleted], [gone.uuid])
            everything = self.page(client, types="flightsClimbed")
            self.assertEqual([sample.uuid for sample in everything.added], [kept.uuid])

            again = delete_sample.sync_detailed(gone.uuid, client=client)
            self.assertEqual(again.status_code, 404, again.content)
            self.assertIsInstance(again.parsed, Error)
            self.assertEqual(again.parsed.code, ErrorCode.NOTFOUND)

    # ---- errors ------------------------------------------------------

    def test_errors_are_typed(self):
        with self.client() as client:
            response = changes.sync_detailed(client=client, types="stepCount", since="not-an-anchor")
            self.assertEqual(response.status_code, 400)
            self.assertIsInstance(response.parsed, Error)
            self.assertEqual(response.parsed.code, ErrorCode.ANCHORNOTVALID)
            self.assertEqual(response.parsed.code, "anchorNotValid")
            self.assertTrue(response.parsed.message)

        with AuthenticatedClient(base_url=self.url, token="not-a-token-of-this-node") as stranger:
            refused = changes.sync_detailed(client=stranger, types="stepCount")
            self.assertEqual(refused.status_code, 401)
            self.assertEqual(refused.parsed.code, ErrorCode.UNAUTHENTICATED)

        with Client(base_url=self.url) as anonymous:
            refused = save_samples.sync_detailed(client=anonymous, body=[
                quantity_sample("StepCount", "2025-04-01T08:00:00Z", "2025-04-01T08:10:00Z", 10, "count")])
            self.assertEqual(refused.status_code, 401)
            self.assertIsInstance(refused.parsed, Error)


if __name__ == "__main__":
    unittest.main()
