"""Schemathesis hooks for Scripts/api-fuzz (loaded through SCHEMATHESIS_HOOKS).

They keep each generated request one that ends by itself, so a run is
bounded by its request count, not by the server's hold times:

- `GET …/changes?stream=ndjson|sse` is a live stream that never ends: an
  HTTP fuzzer that reads whole bodies would only ever time out on it. The
  stream parameter, when it is one of the two streams, is dropped (the Swift tests and the browser test read
  streams); the rest of the request is sent as generated.
- Long-polls (`wait` of the changes feed, `timeout` of sync/wait) hold
  until something changes or their time is up: they are cut to at most
  one second (sync/wait, whose default is 25 s, gets 1 when none was
  generated). Their bounds are still the schema's: only the value sent
  is capped.

- A replication batch (`application/vnd.anchorage.batch`, the body of
  `sync/push`) is bytes in the node's own format (docs/sync-protocol.md,
  "The batch"), which schemathesis cannot make from a schema: random bytes
  up to 4 KiB are sent, which the node must refuse with a 4xx.

Nothing else is touched: every other parameter, header and body goes out
as schemathesis generated it.
"""

import schemathesis
from hypothesis import strategies

schemathesis.openapi.media_type("application/vnd.anchorage.batch", strategies.binary(max_size=4096))


def _cap(query, name, most, valid):
    """Lowers a valid value above `most` to `most`; leaves invalid ones (a
    negative test's) as they are, so they stay invalid."""
    value = query.get(name)
    if isinstance(value, int) and not isinstance(value, bool) and most < value and valid(value):
        query[name] = most


@schemathesis.hook
def before_call(context, case, kwargs):
    path = case.operation.path
    query = case.query
    if not isinstance(query, dict):
        return
    if path.endswith("/changes"):
        if query.get("stream") in ("ndjson", "sse"):
            del query["stream"]
        _cap(query, "wait", 1, lambda value: value <= 60)
    elif path.endswith("/sync/wait"):
        query.setdefault("timeout", 1)
        _cap(query, "timeout", 1, lambda value: True)
