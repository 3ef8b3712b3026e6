-- bench.api's "plain" phase: one GET of the plain Django JSON view per request, sent as
-- a client without credentials sends it, so it goes through the whole middleware stack:
-- Django's floor, the same whatever the API's own path costs. (An API request with a
-- token passes the pages' middleware by, accounts/middleware.py; a token here would take
-- that saving off the floor as well, and the ratios would no longer compare with
-- earlier runs or with bench.instructions, whose plain request has no token either.)
-- The request is built once (no request() function), so wrk sends it at full speed.

dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")
