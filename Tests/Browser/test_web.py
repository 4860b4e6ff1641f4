#!/usr/bin/env python3
"""The node's web page in a real browser (headless Chromium, driven by
selenium): signs in with a token and with the one-time link `serve` prints,
checks that the charts draw the numbers the API answers, that the live feed
shows a save made meanwhile, that a token without a grant for heart rate
sees nothing of it, that every page response carries the
Content-Security-Policy and the console stays free of violations and errors,
and ends with `anchorage audit verify` on the store.

    Tests/Browser/test_web.py --binary .build/debug/anchorage [--screenshots DIR]

Scripts/browser-test runs it with the built binary. Every wait is bounded.
"""
import argparse
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
import zipfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
WAIT = 30
OWNER = "owner-token-for-the-browser-test"
APP = "dashboard-token-for-the-browser-test"
APP_BUNDLE = "com.example.dashboard"
RANGE = ("2025-09-10", "2025-09-17")
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
# Heart rates no other number on the page resembles: the app's view must
# hold none of them.
HEART_RATES = [143.21, 151.79, 147.63, 139.87]


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


# ---- the node ----------------------------------------------------------


class Node:
    """`anchorage serve` on a free loopback port, over a store holding the
    routes fixture; killed by its pid at the end."""

    def __init__(self, binary, work):
        self.binary = binary
        self.store = work / "store"
        self.log_path = work / "serve.log"
        tokens = work / "tokens.json"
        tokens.write_text(json.dumps({"tokens": [
            {"token": OWNER, "owner": True},
            {"token": APP, "principal": {"name": "Dashboard", "bundleIdentifier": APP_BUNDLE},
             "read": ["stepCount", "activeEnergyBurned", "sleepAnalysis", "workout", "workoutRoute"],
             "share": ["stepCount"]},
        ]}))
        export = work / "export.zip"
        fixture = ROOT / "Fixtures" / "apple-health" / "export-v14-routes"
        with zipfile.ZipFile(export, "w") as archive:
            for path in sorted(fixture.rglob("*")):
                if path.is_file():
                    archive.write(path, path.relative_to(fixture))
        run([binary, "import", str(export), "--store", str(self.store)])
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [binary, "serve", "--store", str(self.store), "--port", "0", "--tokens", str(tokens)],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + WAIT
        self.port = self.code = None
        while time.monotonic() < deadline and self.process.poll() is None:
            text = self.log_path.read_text()
            port = re.search(r"on http://127\.0\.0\.1:(\d+)", text)
            code = re.search(r"#sign-in=([A-Za-z0-9_-]+)", text)
            if port and code:
                self.port, self.code = int(port.group(1)), code.group(1)
                break
            time.sleep(0.05)
        if self.port is None:
            self.stop()
            raise Failure(f"the node did not start within {WAIT} s: {self.log_path.read_text()}")
        self.url = f"http://127.0.0.1:{self.port}"

    def stop(self):
        stop(self.process)
        self.log.close()

    def call(self, method, path, token=OWNER, body=None):
        """The API's answer: (status, headers, parsed JSON or text)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=WAIT) as response:
                status, headers, raw = response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            status, headers, raw = error.code, error.headers, error.read()
        text = raw.decode()
        if "json" in (headers.get("Content-Type") or ""):
            return status, headers, json.loads(text)
        return status, headers, text

    def save(self, samples):
        status, _, answer = self.call("POST", "/v1/samples", body=samples)
        check(status == 201, f"saving samples answered {status}: {answer}")


def run(arguments, timeout=120):
    result = subprocess.run(arguments, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    if result.returncode != 0:
        raise Failure(f"{' '.join(map(str, arguments))} exited {result.returncode}: {result.stdout}{result.stderr}")
    return result.stdout


def source(name, bundle):
    return {"source": {"name": name, "bundleIdentifier": bundle}}


def quantity(type_name, start, end, value, unit, bundle="com.example.watch", name="Watch", sample_id=None):
    return {"kind": "quantitySample", "uuid": sample_id or str(uuid.uuid4()).upper(),
            "type": f"HKQuantityTypeIdentifier{type_name}", "startDate": start, "endDate": end,
            "quantity": {"value": value, "unit": unit}, "sourceRevision": source(name, bundle)}


def known_samples():
    """Steps over five days from two sources (overlapping once), heart rate,
    active energy, a night's sleep and a workout; the sleep's and the
    workout's uuids."""
    samples = []
    for offset, day in enumerate(["2025-09-12", "2025-09-13", "2025-09-14", "2025-09-15", "2025-09-16"]):
        samples.append(quantity("StepCount", f"{day}T08:00:00Z", f"{day}T09:00:00Z", 1200 + 350 * offset, "count"))
        samples.append(quantity("StepCount", f"{day}T17:00:00Z", f"{day}T17:30:00Z", 800 + 40 * offset, "count",
                                bundle="com.example.phone", name="Phone"))
        samples.append(quantity("ActiveEnergyBurned", f"{day}T08:00:00Z", f"{day}T09:00:00Z", 210.5 + 12 * offset,
                                "kcal"))
        if offset < len(HEART_RATES):
            for minute, delta in ((10, 0), (40, 6.5)):
                instant = f"{day}T08:{minute:02d}:00Z"
                samples.append(quantity("HeartRate", instant, instant, HEART_RATES[offset] + delta, "count/min"))
    # The phone and the watch both counted this walk: merged, it counts once.
    samples.append(quantity("StepCount", "2025-09-14T08:30:00Z", "2025-09-14T09:00:00Z", 600, "count",
                            bundle="com.example.phone", name="Phone"))
    sleep = str(uuid.uuid4()).upper()
    samples.append({"kind": "categorySample", "uuid": sleep, "type": "HKCategoryTypeIdentifierSleepAnalysis",
                    "startDate": "2025-09-15T22:30:00Z", "endDate": "2025-09-16T06:15:00Z", "value": 3,
                    "sourceRevision": source("Watch", "com.example.watch")})
    workout = str(uuid.uuid4()).upper()
    samples.append({"kind": "workout", "uuid": workout, "type": "HKWorkoutTypeIdentifier",
                    "startDate": "2025-09-13T07:00:00Z", "endDate": "2025-09-13T07:40:00Z",
                    "workoutActivityType": 13, "totalEnergyBurned": {"value": 320, "unit": "kcal"},
                    "sourceRevision": source("Watch", "com.example.watch")})
    return samples, sleep, workout


# ---- the browser ---------------------------------------------------------


def browser():
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,800", "--lang=en-US", "--no-first-run"):
        options.add_argument(argument)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium:
        options.binary_location = chromium
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(WAIT)
    driver.set_script_timeout(WAIT)
    # Screenshots of exactly 1280×800 CSS pixels.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
    return driver


def wait_for(driver, condition, what):
    try:
        return WebDriverWait(driver, WAIT, poll_frequency=0.1).until(lambda d: condition(d))
    except Exception as error:
        raise Failure(f"waited {WAIT} s for {what}: {type(error).__name__}") from None


def ready(driver, value):
    wait_for(driver, lambda d: d.execute_script("return document.body.dataset.ready") == value,
             f"the page to be '{value}'")


def console_problems(driver, allowed=None):
    """Console entries that are errors or warnings: CSP violations, script
    errors, and every failed request — the page asks nothing it knows would
    be refused, so a clean session leaves none. `allowed` matches the ones a
    step provokes on purpose (a sign-in link used twice)."""
    problems = []
    for entry in driver.get_log("browser"):
        message = entry.get("message", "")
        if allowed and re.search(allowed, message):
            continue
        if "Content Security Policy" in message or "Refused to" in message or entry.get("level") in ("SEVERE",
                                                                                                        "WARNING"):
            problems.append(message)
    return problems


def expect_controls(driver, screen):
    """The range is enabled on the screens it changes; the source selector
    on the activity screen only."""
    ranged = screen in ("activity", "sleep", "workouts", "sources")
    for control, enabled in (("from", ranged), ("to", ranged), ("source", screen == "activity")):
        element = driver.find_element(By.ID, control)
        check(element.is_enabled() == enabled,
              f"{screen}: #{control} is {'enabled' if element.is_enabled() else 'disabled'}")


def chart_text_sizes(driver):
    """The size, in screen pixels, of the text of every chart shown."""
    return driver.execute_script("""
        return [...document.querySelectorAll('svg.chart text')]
            .filter((text) => text.getClientRects().length)
            .map((text) => text.getScreenCTM().a * parseFloat(getComputedStyle(text).fontSize));""")


def expect_chart_text(driver, where):
    sizes = chart_text_sizes(driver)
    check(sizes, f"{where}: no chart text is shown")
    check(max(sizes) - min(sizes) < 0.5 and 10.5 <= min(sizes) <= 13.5,
          f"{where}: chart text from {min(sizes):.1f} to {max(sizes):.1f} px, not one readable size")


def screenshot(driver, directory, name):
    if directory:
        driver.save_screenshot(str(pathlib.Path(directory) / f"{name}.png"))


def open_screen(driver, name):
    driver.find_element(By.CSS_SELECTOR, f'.tabs button[data-screen="{name}"]').click()
    wait_for(driver, lambda d: d.execute_script("return document.body.dataset.screen") == name, f"the {name} screen")


def sign_in_with_token(driver, node, token):
    driver.get(f"{node.url}/?from={RANGE[0]}&to={RANGE[1]}")
    ready(driver, "sign-in")
    driver.find_element(By.ID, "token-input").send_keys(token)
    driver.find_element(By.CSS_SELECTOR, "#sign-in-form button[type=submit]").click()
    ready(driver, "true")


def drawn_values(driver, type_name):
    """What the chart of `type_name` draws: its time zone and unit, and
    each mark's bucket start and value."""
    chart = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'svg[data-type="{type_name}"]'),
                     f"the {type_name} chart")[0]
    marks = {mark.get_attribute("data-start"): float(mark.get_attribute("data-value"))
             for mark in chart.find_elements(By.CSS_SELECTOR, "[data-value]")}
    return chart.get_attribute("data-tz"), chart.get_attribute("data-unit"), marks


def expect_charts_equal_api(driver, node, sources=""):
    specs = [("stepCount", "sum", "sum", "count"), ("activeEnergyBurned", "sum", "sum", "kcal"),
             ("heartRate", "average,min,max", "average", "count/min")]
    for type_name, options, key, unit in specs:
        time_zone, drawn_unit, marks = drawn_values(driver, type_name)
        query = (f"/v1/statistics?type={type_name}&options={options}&interval=1d&from={RANGE[0]}&to={RANGE[1]}"
                 f"&tz={urllib.parse.quote(time_zone)}&unit={urllib.parse.quote(unit)}")
        if sources:
            query += f"&sources={sources}"
        status, _, answer = node.call("GET", query)
        check(status == 200, f"statistics of {type_name}: {status} {answer}")
        expected = {bucket["startDate"]: bucket[key] for bucket in answer["statistics"] if key in bucket}
        check(expected, f"the API has no {type_name} in the range: the test's data did not arrive")
        check(drawn_unit == answer["unit"], f"{type_name}: the chart says {drawn_unit}, the API {answer['unit']}")
        check(set(marks) == set(expected), f"{type_name}: drawn days {sorted(marks)} != the API's {sorted(expected)}")
        for start, value in expected.items():
            check(abs(marks[start] - value) <= 1e-9 * max(1, abs(value)),
                  f"{type_name} {start}: drawn {marks[start]}, the API says {value}")


def owner_session(driver, node, shots, sleep_id, workout_id):
    sign_in_with_token(driver, node, OWNER)
    check("owner" in driver.find_element(By.ID, "who").text, "the owner's token is shown as the owner's")
    expect_charts_equal_api(driver, node)
    expect_controls(driver, "activity")
    activity_sizes = chart_text_sizes(driver)
    screenshot(driver, shots, "activity")

    # One source at a time, through the API's source filter.
    Select(driver.find_element(By.ID, "source")).select_by_value("com.example.phone")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, 'svg[data-type="stepCount"]') and
             len(d.find_elements(By.CSS_SELECTOR, 'svg[data-type="stepCount"] [data-value]')) == 5 and
             not d.find_elements(By.CSS_SELECTOR, 'svg[data-type="heartRate"]'),
             "the charts of the phone's samples only")
    steps = drawn_values(driver, "stepCount")[2]
    status, _, answer = node.call(
        "GET", f"/v1/statistics?type=stepCount&interval=1d&from={RANGE[0]}&to={RANGE[1]}"
        f"&tz={urllib.parse.quote(drawn_values(driver, 'stepCount')[0])}&sources=com.example.phone")
    check(steps == {b["startDate"]: b["sum"] for b in answer["statistics"] if "sum" in b},
          f"the phone's steps drawn {steps} differ from the API's {answer}")
    Select(driver.find_element(By.ID, "source")).select_by_value("")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, 'svg[data-type="heartRate"]'), "the merged charts")

    open_screen(driver, "sleep")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#panel-sleep tr[data-uuid="{sleep_id}"]'),
             "the night's sleep sample")
    hours = [float(v.get_attribute("data-value"))
             for v in driver.find_elements(By.CSS_SELECTOR, '#panel-sleep [data-value]')]
    check(hours == [7.75], f"the sleep chart draws {hours}, not the 7.75 hours saved")
    expect_controls(driver, "sleep")
    # The full-width chart's text is the size of the cards' charts'.
    sleep_sizes = chart_text_sizes(driver)
    check(sleep_sizes and activity_sizes and abs(max(sleep_sizes + activity_sizes) - min(sleep_sizes + activity_sizes)) < 0.5,
          f"chart text: cards {activity_sizes[:1]} px, the sleep chart {sleep_sizes[:1]} px")
    expect_chart_text(driver, "the sleep screen")
    # Drawn again at a new width, still the same size.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 900, "height": 800, "deviceScaleFactor": 1, "mobile": False})
    wait_for(driver, lambda d: d.execute_script(
        "const c = document.querySelector('#panel-sleep svg.chart');"
        "return c && Math.abs(c.viewBox.baseVal.width - c.parentNode.clientWidth) < 2"), "the sleep chart redrawn")
    expect_chart_text(driver, "the sleep screen at 900 px")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
    wait_for(driver, lambda d: d.execute_script(
        "const c = document.querySelector('#panel-sleep svg.chart');"
        "return c && Math.abs(c.viewBox.baseVal.width - c.parentNode.clientWidth) < 2"), "the sleep chart redrawn")
    screenshot(driver, shots, "sleep")

    open_screen(driver, "workouts")
    status, _, answer = node.call("GET", f"/v1/samples?type=workout&start={RANGE[0]}&end=2025-09-18")
    with_route = None
    for workout in answer["samples"]:
        route_status, _, collection = node.call("GET", f"/v1/workouts/{workout['uuid']}/routes")
        if route_status == 200 and collection["features"]:
            with_route = (workout["uuid"], sum(len(f["geometry"]["coordinates"]) for f in collection["features"]))
    check(with_route, "the imported export holds a workout with a route in the range")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'tr[data-uuid="{workout_id}"]'),
             "the saved workout in the list")
    driver.find_element(By.CSS_SELECTOR, f'tr[data-uuid="{with_route[0]}"]').click()
    line = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#panel-route polyline"), "the route")[0]
    check(int(line.get_attribute("data-points")) == with_route[1], "the route draws every location of the API's")
    expect_controls(driver, "workouts")
    screenshot(driver, shots, "workouts")

    # The owner's order: the phone first, then the watch (PUT /v1/source-priority).
    status, _, answer = node.call("PUT", "/v1/source-priority",
                                  body={"type": "stepCount", "sources": ["com.example.phone", "com.example.watch"]})
    check(status == 200, f"setting the source priority answered {status}: {answer}")
    open_screen(driver, "sources")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#panel-sources tr[data-bundle="com.example.phone"]'),
             "the sources")
    ranked = [row.get_attribute("data-bundle") for row in driver.find_elements(
        By.CSS_SELECTOR, '#panel-sources table[data-type="stepCount"] tr[data-rank]')
        if row.get_attribute("data-rank")]
    check(ranked == answer["priority"], f"the sources screen shows the owner's order {answer['priority']}: {ranked}")
    expect_controls(driver, "sources")
    screenshot(driver, shots, "sources")

    open_screen(driver, "peers")
    wait_for(driver, lambda d: "no peer" in d.find_element(By.ID, "panel-peers").text, "the peers")
    expect_controls(driver, "peers")
    screenshot(driver, shots, "peers")

    open_screen(driver, "feed")
    wait_for(driver, lambda d: d.find_element(By.ID, "panel-feed").get_attribute("data-phase") == "live",
             "the live feed")
    check(not driver.find_elements(By.CSS_SELECTOR, "#panel-feed li"),
          "the live feed starts at the store's head (since=now), not with a replay of the log")
    fresh = str(uuid.uuid4()).upper()
    node.save([quantity("StepCount", "2025-09-17T10:00:00Z", "2025-09-17T10:05:00Z", 432, "count", sample_id=fresh)])
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#panel-feed li[data-uuid="{fresh}"]'),
             "the save made meanwhile in the live feed")
    expect_controls(driver, "feed")
    screenshot(driver, shots, "feed")

    open_screen(driver, "access")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#panel-access tbody tr"), "the access log")
    check("GET /v1/statistics" in driver.find_element(By.ID, "panel-access").text, "the page's reads are logged")
    expect_controls(driver, "access")
    screenshot(driver, shots, "access-log")

    problems = console_problems(driver)
    check(not problems, f"the console of the owner's session: {problems}")


def link_session(driver, node, shots):
    driver.execute_script("sessionStorage.clear()")
    link = f"{node.url}/?from={RANGE[0]}&to={RANGE[1]}#sign-in={node.code}"
    driver.get("about:blank")
    driver.get(link)
    ready(driver, "true")
    check("signed in as owner" in driver.find_element(By.ID, "who").text, "the link signs in as the owner")
    check(driver.execute_script("return location.hash") == "", "the code leaves the address bar")
    expect_charts_equal_api(driver, node)
    problems = console_problems(driver)
    check(not problems, f"the console of the link's session: {problems}")
    # The session can sign out; the link does not work twice.
    driver.find_element(By.ID, "sign-out").click()
    ready(driver, "sign-in")
    driver.get("about:blank")
    driver.get(link)
    ready(driver, "sign-in")
    message = driver.find_element(By.ID, "sign-in-message").text
    check("used already" in message, f"a used link is refused: {message!r}")
    screenshot(driver, shots, "sign-in")
    # The one request refused on purpose: the used link's exchange.
    problems = console_problems(driver, allowed=r"/v1/sign-in .*status of 401")
    check(not problems, f"the console after the used link: {problems}")


def app_session(driver, node, shots):
    driver.execute_script("sessionStorage.clear()")
    sign_in_with_token(driver, node, APP)
    check("app" in driver.find_element(By.ID, "who").text, "the app's token is shown as an app's")
    drawn_values(driver, "stepCount")
    heart = driver.find_element(By.ID, "panel-heart")
    wait_for(driver, lambda d: "not shared" in heart.text, "the heart-rate panel to say 'not shared'")
    check(not heart.find_elements(By.CSS_SELECTOR, "[data-value]"), "no heart rate is drawn for the app")
    screenshot(driver, shots, "activity-app-token")

    open_screen(driver, "feed")
    wait_for(driver, lambda d: d.find_element(By.ID, "panel-feed").get_attribute("data-phase") == "live",
             "the app's live feed")
    hidden, shown = str(uuid.uuid4()).upper(), str(uuid.uuid4()).upper()
    node.save([quantity("HeartRate", "2025-09-17T11:00:00Z", "2025-09-17T11:00:00Z", 149.37, "count/min",
                        sample_id=hidden)])
    node.save([quantity("StepCount", "2025-09-17T11:00:00Z", "2025-09-17T11:05:00Z", 77, "count", sample_id=shown)])
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#panel-feed li[data-uuid="{shown}"]'),
             "the step the app may read in its feed")
    check(not driver.find_elements(By.CSS_SELECTOR, f'[data-uuid="{hidden}"]'), "the app's feed shows no heart rate")

    for screen, panel in (("peers", "panel-peers"), ("access", "panel-access")):
        open_screen(driver, screen)
        wait_for(driver, lambda d: "Not shared" in d.find_element(By.ID, panel).text, f"{screen}: not shared")
    source = driver.page_source
    for rate in HEART_RATES + [149.37]:
        for text in (f"{rate:.2f}", f"{rate:.1f}", f"{rate + 6.5:.1f}"):
            check(text not in source, f"the app's page holds {text}, a heart rate")
    check("HeartRate" not in source, "the app's page names no heart-rate sample")
    problems = console_problems(driver)
    check(not problems, f"the console of the app's session: {problems}")


def multi_store_session(driver, binary, work, shots):
    """A multi-store node: no sign-in link; the page signs in with a store's
    id and a token of it, and calls /v1/stores/{store}/...; the store's
    peers are the administrator's, so its owner sees them as not shared."""
    root = work / "stores"
    run([binary, "stores", "create", "alice", "--stores", str(root)])
    token = run([binary, "tokens", "issue", "--stores", str(root), "--store", "alice", "--owner"]).strip()
    log_path = work / "serve-stores.log"
    process, port = serve(binary, ["--stores", str(root)], log_path)
    try:
        check("#sign-in=" not in log_path.read_text(), "a multi-store node prints no sign-in code")
        driver.get("about:blank")
        driver.get(f"http://127.0.0.1:{port}/")
        ready(driver, "sign-in")
        check(driver.find_element(By.ID, "store-input").is_displayed(), "the page asks for the store")
        driver.find_element(By.ID, "store-input").send_keys("alice")
        driver.find_element(By.ID, "token-input").send_keys(token)
        driver.find_element(By.CSS_SELECTOR, "#sign-in-form button[type=submit]").click()
        ready(driver, "true")
        check("store alice" in driver.find_element(By.ID, "who").text, "the page names the store")
        wait_for(driver, lambda d: "No data" in d.find_element(By.ID, "panel-steps").text, "alice's empty steps")
        open_screen(driver, "peers")
        wait_for(driver, lambda d: "Not shared" in d.find_element(By.ID, "panel-peers").text, "alice's peers")
        problems = console_problems(driver)
        check(not problems, f"the console of the multi-store session: {problems}")
    finally:
        stop(process)


def serve(binary, arguments, log_path):
    """`anchorage serve` with `arguments` on a free loopback port: the
    process and its port."""
    with open(log_path, "w") as log:
        process = subprocess.Popen([binary, "serve", "--port", "0"] + arguments,
                                   stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + WAIT
    port = None
    while port is None and time.monotonic() < deadline and process.poll() is None:
        found = re.search(r"on http://127\.0\.0\.1:(\d+)", log_path.read_text())
        port = found and int(found.group(1))
        time.sleep(0.05)
    if port is None:
        stop(process)
        raise Failure(f"anchorage serve {' '.join(arguments)} did not start: {log_path.read_text()}")
    return process, port


def stop(process):
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(WAIT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(WAIT)


def demo_session(driver, binary, work, shots):
    """`anchorage demo`'s store on a node without tokens (loopback): the page
    enters as the owner with no sign-in, and every panel has something to
    show — steps, active energy, heart rate, sleep, workouts with a route,
    sources, the live feed, peers, the access log — with a clean console."""
    store = work / "demo"
    run([binary, "demo", "--store", str(store), "--days", "14"], timeout=300)
    process, port = serve(binary, ["--store", str(store)], work / "serve-demo.log")
    try:
        driver.execute_script("sessionStorage.clear()")
        driver.get("about:blank")
        driver.get(f"http://127.0.0.1:{port}/")
        ready(driver, "true")
        check("takes no tokens" in driver.find_element(By.ID, "who").text, "the tokenless node's page enters as owner")
        for type_name in ("stepCount", "activeEnergyBurned", "heartRate"):
            _, _, marks = drawn_values(driver, type_name)
            check(len(marks) >= 10, f"the demo's {type_name} chart draws {len(marks)} days, not its 14")
        expect_chart_text(driver, "the demo's activity screen")
        open_screen(driver, "sleep")
        wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#panel-sleep tr[data-uuid]")) >= 10,
                 "the demo's nights")
        open_screen(driver, "workouts")
        rows = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#panel-workouts tr[data-uuid]"),
                        "the demo's runs")
        rows[0].click()
        line = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#panel-route polyline"),
                        "the run's route")[0]
        check(int(line.get_attribute("data-points")) > 100, "the demo's run has a route of many locations")
        open_screen(driver, "sources")
        wait_for(driver, lambda d: d.find_elements(
            By.CSS_SELECTOR, '#panel-sources table[data-type="activeEnergyBurned"] tr[data-bundle]'),
            "the demo's active energy sources")
        open_screen(driver, "feed")
        wait_for(driver, lambda d: d.find_element(By.ID, "panel-feed").get_attribute("data-phase") == "live",
                 "the demo's live feed")
        open_screen(driver, "peers")
        wait_for(driver, lambda d: "no peer" in d.find_element(By.ID, "panel-peers").text, "the demo's peers")
        open_screen(driver, "access")
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#panel-access tbody tr"), "the access log")
        open_screen(driver, "activity")
        screenshot(driver, shots, "demo")
        problems = console_problems(driver)
        check(not problems, f"the console of the demo's session: {problems}")
    finally:
        stop(process)
    output = run([binary, "audit", "verify", "--store", str(store)])
    check("intact" in output and "agree" in output, f"audit verify of the demo: {output}")


def expect_headers(node):
    status, _, facts = node.call("GET", "/web/node.json", token=None)
    check(status == 200 and facts == {"kind": "single", "tokens": True}, f"GET /web/node.json: {status} {facts}")
    for path, kind in (("/", "text/html"), ("/web/app.js", "text/javascript"), ("/web/app.css", "text/css"),
                       ("/web/node.json", "application/json")):
        status, headers, _ = node.call("GET", path, token=None)
        check(status == 200, f"GET {path}: {status}")
        check(headers.get("Content-Security-Policy") == CSP, f"GET {path}: CSP {headers.get('Content-Security-Policy')}")
        check(headers.get("Content-Type", "").startswith(kind), f"GET {path}: {headers.get('Content-Type')}")
        check(headers.get("X-Content-Type-Options") == "nosniff", f"GET {path}: nosniff")
        check(headers.get("Referrer-Policy") == "no-referrer", f"GET {path}: Referrer-Policy")
        check(headers.get("ETag"), f"GET {path}: an ETag")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True, help="the built anchorage binary")
    parser.add_argument("--screenshots", help="a directory to save a PNG of each screen in")
    options = parser.parse_args()
    if options.screenshots:
        os.makedirs(options.screenshots, exist_ok=True)
    work = pathlib.Path(tempfile.mkdtemp(prefix="anchorage-browser-"))
    node = driver = None
    try:
        node = Node(options.binary, work)
        samples, sleep_id, workout_id = known_samples()
        node.save(samples)
        expect_headers(node)
        driver = browser()
        owner_session(driver, node, options.screenshots, sleep_id, workout_id)
        link_session(driver, node, options.screenshots)
        app_session(driver, node, options.screenshots)
        multi_store_session(driver, options.binary, work, options.screenshots)
        demo_session(driver, options.binary, work, options.screenshots)
        driver.quit()
        driver = None
        node.stop()
        output = run([options.binary, "audit", "verify", "--store", str(node.store)])
        check("intact" in output and "agree" in output, f"audit verify: {output}")
        print("browser-test: passed (charts equal the API, live feed, hidden heart rate, CSP, clean console, demo, audit)")
        return 0
    except Failure as failure:
        print(f"browser-test: FAILED: {failure}", file=sys.stderr)
        if driver:
            try:
                text = driver.execute_script("return document.body.innerText")
                print(f"browser-test: the page said:\n{text[:3000]}", file=sys.stderr)
                print(f"browser-test: the console: {driver.get_log('browser')}", file=sys.stderr)
            except Exception:
                pass
        if node:
            print(f"browser-test: the node's output:\n{node.log_path.read_text()[-4000:]}", file=sys.stderr)
        return 1
    finally:
        if driver:
            driver.quit()
        if node:
            node.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
