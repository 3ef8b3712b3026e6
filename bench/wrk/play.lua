-- Play: the thread's one connection plays its player's rounds, each turn roll (nothing
-- held), roll (dice 0 and 1 held), roll (the same), then score the open box worth most;
-- a finished round is followed by a new (practice) one from POST daily/{day}/rounds/.
-- Every answer is the round's state: `turn` and `roll` are read back from it, so each
-- request carries the preconditions the server expects. The first request is GET
-- rounds/{id}/ (an earlier run may have played the round on), and so is the one after
-- an answer without a state (an error other than 409: it is counted).
--
--   BENCH_DAY  today's date, for starting new rounds

dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")

local day = os.getenv("BENCH_DAY")
local state, kind, resync
local auth, json_headers

function init(args)
  auth = { ["Authorization"] = "Token " .. token }
  json_headers = { ["Authorization"] = "Token " .. token, ["Content-Type"] = "application/json" }
  state = { id = round_id }
  resync = true
end

local function best_box(options)
  local best, most = nil, -1
  for box, points in pairs(options) do
    if points > most then
      best, most = box, points
    end
  end
  return best
end

function request()
  local round = "/api/v1/rounds/" .. state.id .. "/"
  if resync then
    kind = "get"
    return wrk.format("GET", round, auth)
  end
  if state.status ~= "in_progress" then
    kind = "start"
    return wrk.format("POST", "/api/v1/daily/" .. day .. "/rounds/", auth, "")
  end
  if state.roll < 3 then
    kind = "roll"
    local hold = state.roll == 0 and "[]" or "[0,1]"
    local body = string.format('{"hold":%s,"turn":%d,"roll":%d}', hold, state.turn, state.roll)
    return wrk.format("POST", round .. "roll/", json_headers, body)
  end
  kind = "score"
  local body = string.format('{"category":"%s","turn":%d}', best_box(state.options), state.turn)
  return wrk.format("POST", round .. "score/", json_headers, body)
end

-- The round's fields from its JSON (a 409 carries it as `current`). Its first "id",
-- "turn", "roll" and "status" keys are the round's own: nothing before them nests those
-- names, and the action log after them holds only "type", "hold" and "category".
local function parse(body)
  local id = body:match('"id":%s*"([%x%-]+)"')
  local status = body:match('"status":%s*"([%a_]+)"')
  local turn = body:match('"turn":%s*(%d+)')
  local roll = body:match('"roll":%s*(%d+)')
  if not (id and status and turn and roll) then
    return nil
  end
  local options = {}
  for box, points in (body:match('"options":%s*(%b{})') or ""):gmatch('"([%w_]+)":%s*(%d+)') do
    options[box] = tonumber(points)
  end
  return { id = id, status = status, turn = tonumber(turn), roll = tonumber(roll), options = options }
end

function response(status, headers, body)
  count(kind .. " " .. status)
  local parsed = parse(body)
  resync = parsed == nil
  if parsed then
    state = parsed
  end
end
