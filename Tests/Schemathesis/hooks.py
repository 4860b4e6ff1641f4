"""Schemathesis hooks for Scripts/api-fuzz (loaded through SCHEMATHESIS_HOOKS).

They keep each generated request one that ends by itself, so a run is
bounded by its request count, not by the server's hold times:

- `GET …/changes?stream=ndjson|sse` and `GET /v1/store-updates?stream=…`
  are live streams that never end: an HTTP fuzzer that reads whole bodies
  would only ever time out on them. The stream parameter, when it is one of
  the two streams, is dropped (the Swift tests and the browser test read
  streams); the rest of the request is sent as generated.
- Long-polls (`wait` of the feeds, `timeout` of sync/wait,
  `waitMilliseconds` of sync/pull) hold until something changes or their
  time is up: they are cut to at most one second (sync/wait, whose default
  is 25 s, gets 1 when none was generated). Their bounds are still the
  schema's: only the value sent is capped.

- A replication batch (`application/vnd.anchorage.batch`, the body of
  `sync/push`) is bytes in the node's own format (docs/sync-protocol.md,
  "The batch"), which schemathesis cannot make from a schema: random bytes
  up to 4 KiB are sent, which the node must refuse with a 4xx.

- The replication protocol's positions, incarnations, epochs and counters
  are unsigned 64-bit integers (the document says so in their
  descriptions, with `minimum: 0`). Their bound, 2^64 − 1, is not written
  as `maximum`: swift-openapi-generator (OpenAPIKit) reads an integer
  schema's bounds as Swift `Int` and refuses the document. So in a request
  generated as valid (positive_data_acceptance holds the node to accept
  it), a value above 2^64 − 1 is lowered to 2^64 − 1; in one generated as
  invalid it stays as it is.

Nothing else is touched: every other parameter, header and body goes out
as schemathesis generated it.
"""

import schemathesis
from hypothesis import strategies

schemathesis.openapi.media_type("application/vnd.anchorage.batch", strategies.binary(max_size=4096))

UINT64_MAX = 2**64 - 1


def _cap(query, name, most, valid):
    """Lowers a valid value above `most` to `most`; leaves invalid ones (a
    negative test's) as they are, so they stay invalid."""
    value = query.get(name)
    if isinstance(value, int) and not isinstance(value, bool) and most < value and valid(value):
        query[name] = most


def _is_whole(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _positive(case):
    """Whether schemathesis generated the case as valid for the schema."""
    meta = getattr(case, "meta", None)
    generation = getattr(meta, "generation", None)
    mode = getattr(generation, "mode", None)
    return mode is not None and mode.is_positive


def _clamp_unsigned(container, names):
    """Lowers each of `names` in `container` above 2^64 − 1 to it."""
    if not isinstance(container, dict):
        return
    for name in names:
        value = container.get(name)
        if _is_whole(value) and UINT64_MAX < value:
            container[name] = UINT64_MAX


def _clamp_vector(body):
    """Lowers a version vector's counters above 2^64 − 1 to it."""
    vector = body.get("versionVector") if isinstance(body, dict) else None
    if isinstance(vector, dict):
        _clamp_unsigned(vector, list(vector))


@schemathesis.hook
def before_call(context, case, kwargs):
    path = case.operation.path
    query = case.query
    body = case.body
    if _positive(case):
        if path.endswith("/sync/wait") and isinstance(query, dict):
            _clamp_unsigned(query, ["after", "epoch"])
        elif path.endswith("/sync/identity"):
            _clamp_unsigned(body, ["incarnation", "head", "checkpoint", "epoch"])
            _clamp_vector(body)
        elif path.endswith("/sync/pull"):
            _clamp_unsigned(body, ["incarnation", "since", "epoch"])
            _clamp_vector(body)
    if path.endswith("/sync/pull") and isinstance(body, dict):
        _cap(body, "waitMilliseconds", 1000, lambda value: True)
    if not isinstance(query, dict):
        return
    if path.endswith("/changes") or path == "/v1/store-updates":
        if query.get("stream") in ("ndjson", "sse"):
            del query["stream"]
        _cap(query, "wait", 1, lambda value: value <= 60)
    elif path.endswith("/sync/wait"):
        query.setdefault("timeout", 1)
        _cap(query, "timeout", 1, lambda value: True)
