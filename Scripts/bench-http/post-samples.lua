-- wrk script for Scripts/bench (suite http): every request posts 10 step
-- samples with fresh uuids to /v1/samples (or a multi-store node's
-- /v1/stores/<id>/samples, with $ANCHORAGE_WRK_TOKEN), as a phone syncing would; done()
-- prints one line the bench reads:
--   ANCHORAGE_WRK <requests> <duration µs> <non-2xx> <socket errors> <p50 µs> <p99 µs>

local threads = {}

function setup(thread)
    table.insert(threads, thread)
    thread:set("id", #threads)
end

local counter = 0

function init(args)
    -- A seed of its own per thread: wrk's threads are separate Lua states.
    math.randomseed(os.time() * 1000 + (id or 0) * 7919)
end

local function uuid()
    return (string.gsub("xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx", "[xy]", function(c)
        local v = (c == "x") and math.random(0, 15) or math.random(8, 11)
        return string.format("%X", v)
    end))
end

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
-- A store of a multi-store node needs its token (suite sealed).
local token = os.getenv("ANCHORAGE_WRK_TOKEN")
if token and token ~= "" then wrk.headers["Authorization"] = "Bearer " .. token end

function request()
    counter = counter + 1
    local parts = {}
    for i = 1, 10 do
        local start = 1717200000 + ((id or 0) * 100000000) + (counter * 10 + i) * 60
        parts[i] = string.format(
            '{"kind":"quantitySample","uuid":"%s","type":"HKQuantityTypeIdentifierStepCount",' ..
            '"startDate":"%s","endDate":"%s","quantity":{"unit":"count","value":%d}}',
            uuid(), os.date("!%Y-%m-%dT%H:%M:%SZ", start), os.date("!%Y-%m-%dT%H:%M:%SZ", start + 60), i)
    end
    return wrk.format(nil, nil, nil, "[" .. table.concat(parts, ",") .. "]")
end

function done(summary, latency, requests)
    local errors = summary.errors
    io.write(string.format("ANCHORAGE_WRK %d %d %d %d %d %d\n",
        summary.requests, summary.duration, errors.status,
        errors.connect + errors.read + errors.write + errors.timeout,
        latency:percentile(50), latency:percentile(99)))
end
