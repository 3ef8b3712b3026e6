-- One GET of the URL given to wrk per request, authenticated as the thread's player:
-- bench.api's "drf" phase (GET accounts/me/) and its warm-up.
-- The request is built once (no request() function), so wrk sends it at full speed.

dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")

function init(args)
  wrk.headers["Authorization"] = "Token " .. token
end
