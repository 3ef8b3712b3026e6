-- Shared by the bench.api wrk scripts (get.lua, plain.lua and play.lua load it with
-- dofile): one player per wrk thread, and one machine-readable summary line.
--
-- bench.api runs wrk with as many threads as connections, so each thread drives exactly
-- one connection and its Lua state is that connection's state (wrk does not say which
-- connection a response() belongs to).
--
--   BENCH_PLAYERS  file with one "token round_id" line per player; thread i plays line i
--   BENCH_PORTS    optional "8765,8766": thread i talks to the i-th port in turn (several
--                  server processes on one host; wrk's URL names the first)

local players = {}
local threads = {}
local addrs = {}

function setup(thread)
  if #players == 0 then
    for line in io.lines(os.getenv("BENCH_PLAYERS")) do
      local token, round_id = line:match("^(%S+)%s+(%S+)$")
      players[#players + 1] = { token = token, round_id = round_id }
    end
    for port in (os.getenv("BENCH_PORTS") or ""):gmatch("%d+") do
      addrs[#addrs + 1] = wrk.lookup("127.0.0.1", port)[1]
    end
  end
  local index = #threads + 1
  if #addrs > 0 then
    thread.addr = addrs[(index - 1) % #addrs + 1]
  end
  local player = players[(index - 1) % #players + 1]
  thread:set("token", player.token)
  thread:set("round_id", player.round_id)
  threads[index] = thread
end

-- Per thread: answers counted by "kind status", e.g. "roll 200".
counts = {}

function count(key)
  counts[key] = (counts[key] or 0) + 1
end

local function json(value)
  if type(value) == "table" then
    local items = {}
    for key, item in pairs(value) do
      items[#items + 1] = string.format("%q:%s", tostring(key), json(item))
    end
    return "{" .. table.concat(items, ",") .. "}"
  end
  if value ~= value then
    return "null" -- NaN: the mean of no requests
  end
  return tostring(value)
end

-- wrk's own latency distribution (microseconds), its totals and errors, and the answers
-- each thread counted.
function done(summary, latency, requests)
  local answers = {}
  for _, thread in ipairs(threads) do
    for key, n in pairs(thread:get("counts") or {}) do
      answers[key] = (answers[key] or 0) + n
    end
  end
  local result = {
    requests = summary.requests,
    duration_us = summary.duration,
    errors = summary.errors,
    latency_us = {
      mean = latency.mean,
      p50 = latency:percentile(50),
      p90 = latency:percentile(90),
      p99 = latency:percentile(99),
      max = latency.max,
    },
    answers = answers,
  }
  io.write("BENCH-RESULT ", json(result), "\n")
end
