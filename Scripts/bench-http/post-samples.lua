-- wrk script for Scripts/bench (suites http and sealed): every request posts
-- samples with fresh uuids to /v1/samples (or a multi-store node's
-- /v1/stores/<id>/samples, with $ANCHORAGE_WRK_TOKEN), as a phone, a watch or
-- a backfill would. The shape comes from the environment (the defaults are the
-- bench's first row: 10 step counts a post, consecutive minutes):
--   ANCHORAGE_WRK_SAMPLES  samples a post (1 or 10; default 10)
--   ANCHORAGE_WRK_TYPE     steps: step counts over a minute, no metadata;
--                          heart: heart rate at an instant, with the motion
--                          context in its metadata, as the watch writes it
--   ANCHORAGE_WRK_DATES    consecutive: a minute apart, each thread its own
--                          timeline; second: a second apart (a watch in a
--                          workout); spread: anywhere in five years (a backfill)
-- done() prints one line the bench reads:
--   ANCHORAGE_WRK <requests> <duration µs> <non-2xx> <socket errors> <p50 µs> <p99 µs> <samples a post>

local threads = {}

function setup(thread)
    table.insert(threads, thread)
    thread:set("id", #threads)
end

local counter = 0
local perPost = tonumber(os.getenv("ANCHORAGE_WRK_SAMPLES") or "") or 10
local sampleType = os.getenv("ANCHORAGE_WRK_TYPE") or "steps"
local dates = os.getenv("ANCHORAGE_WRK_DATES") or "consecutive"

-- Each thread's uuids: 48 random bits of its own, then a count; one
-- string.format a sample, so that the load generator's own work (which
-- shares this machine's cores with the node) stays small.
local prefixHigh, prefixLow = 0, 0
local made = 0

function init(args)
    -- A seed of its own per thread: wrk's threads are separate Lua states.
    math.randomseed(os.time() * 1000 + (id or 0) * 7919)
    prefixHigh = math.random(0, 0xFFFFFFFF)
    prefixLow = math.random(0, 0xFFFF)
end

local function uuid()
    made = made + 1
    return string.format("%08X-%04X-4000-8000-%012X", prefixHigh, prefixLow, made)
end

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
-- A store of a multi-store node needs its token (suite sealed).
local token = os.getenv("ANCHORAGE_WRK_TOKEN")
if token and token ~= "" then wrk.headers["Authorization"] = "Bearer " .. token end

local fiveYears = 5 * 365 * 86400
local base = 1717200000

-- The start of the request's i-th sample, in seconds since 1970.
local function startOf(i)
    if dates == "spread" then
        return base - math.random(0, fiveYears)
    elseif dates == "second" then
        return base + (id or 0) * 100000000 + counter * perPost + i
    else
        return base + (id or 0) * 100000000 + (counter * perPost + i) * 60
    end
end

local function iso(seconds)
    return os.date("!%Y-%m-%dT%H:%M:%SZ", seconds)
end

local function sample(i)
    local start = startOf(i)
    if sampleType == "heart" then
        return string.format(
            '{"kind":"quantitySample","uuid":"%s","type":"HKQuantityTypeIdentifierHeartRate",' ..
            '"startDate":"%s","endDate":"%s","quantity":{"unit":"count/min","value":%d},' ..
            '"metadata":{"HKMetadataKeyHeartRateMotionContext":{"integer":%d}}}',
            uuid(), iso(start), iso(start), math.random(55, 175), math.random(0, 2))
    end
    return string.format(
        '{"kind":"quantitySample","uuid":"%s","type":"HKQuantityTypeIdentifierStepCount",' ..
        '"startDate":"%s","endDate":"%s","quantity":{"unit":"count","value":%d}}',
        uuid(), iso(start), iso(start + 60), i)
end

function request()
    counter = counter + 1
    local parts = {}
    for i = 1, perPost do parts[i] = sample(i) end
    return wrk.format(nil, nil, nil, "[" .. table.concat(parts, ",") .. "]")
end

function done(summary, latency, requests)
    local errors = summary.errors
    io.write(string.format("ANCHORAGE_WRK %d %d %d %d %d %d %d\n",
        summary.requests, summary.duration, errors.status,
        errors.connect + errors.read + errors.write + errors.timeout,
        latency:percentile(50), latency:percentile(99), perPost))
end
