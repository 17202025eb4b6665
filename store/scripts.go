package store

import (
	"context"
	"sync"

	"github.com/redis/go-redis/v9"
)

// The Redis side of every mutation: one Lua script each, run with
// Script.Run (EVALSHA, falling back to EVAL after a SCRIPT FLUSH or a
// restart). Each script mirrors the Go decision in rules.go and keeps one
// order:
//
//  1. a stored answer for the request id is returned as is;
//  2. now is read (TIME, or ARGV[1] when a test injects the clock);
//  3. everything is validated and decided, and a failure returns before
//     anything is written;
//  4. only then the writes, none of which can fail on valid input (Redis
//     refuses an out-of-memory script at its first write, so a reservation
//     is written whole or not at all).
//
// Every key a script touches is passed in KEYS and carries the server's
// hash tag, so in Cluster a script runs on one slot. Answers are the JSON
// outcome of rules.go; limits come in ARGV so Go stays their only source.

// prelude is shared by all scripts.
const prelude = `
-- Redis < 5 needs this to write after TIME; later versions always
-- replicate a script's effects and ignore it.
if redis.replicate_commands then redis.replicate_commands() end
local function now_ms()
  if ARGV[1] ~= '' then return tonumber(ARGV[1]) end
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function fmt(x) return string.format('%.0f', x) end
local function seq_of(id) return tonumber(string.match(id, '%-w?(%d+)[a-z0-9]*$')) or 0 end
local function by_start(a, b)
  if a.start ~= b.start then return a.start < b.start end
  return seq_of(a.id) < seq_of(b.id)
end
local function answer(op, t) t.op = op; return cjson.encode(t) end
local function ok(op, json) return '{"op":"' .. op .. '","ok":' .. json .. '}' end
-- A request id's key holds its stored answer, or a fence
-- '{"fence":"<attempt>,<attempt>"}' that a caller who lost an attempt's
-- reply wrote once it found no answer (fenceLua): a fenced attempt that
-- arrives late must not apply; any other attempt goes on as if nothing
-- had been stored, and its answer replaces the fence.
local function stored(req, rid, attempt)
  if rid == '' then return nil end
  local v = redis.call('GET', req)
  if v and string.sub(v, 1, 10) == '{"fence":"' then
    if attempt and attempt ~= '' and string.find(v, attempt, 1, true) then
      return '{"err":"not_applied"}'
    end
    return nil
  end
  return v
end
local function remember(req, rid, res, ttl)
  if rid ~= '' then redis.call('SET', req, res, 'EX', ttl) end
end
-- The end index (KEYS ends) scores "<id>|<start>|<gpus>" by end, so the
-- live reservations come from one ZRANGEBYSCORE without decoding any JSON.
local function member(id, start, gpus)
  return id .. '|' .. fmt(start) .. '|' .. table.concat(gpus, ',')
end
local function load_live(ends, now)
  local raw = redis.call('ZRANGEBYSCORE', ends, '(' .. fmt(now), '+inf', 'WITHSCORES')
  local live = {}
  for i = 1, #raw, 2 do
    local id, start, gs = string.match(raw[i], '^([^|]+)|(%d+)|([%d,]+)$')
    if id then
      local gpus = {}
      for g in string.gmatch(gs, '%d+') do gpus[#gpus + 1] = tonumber(g) end
      live[#live + 1] = {id = id, start = tonumber(start), ['end'] = tonumber(raw[i + 1]), gpus = gpus}
    end
  end
  return live
end
-- the stored JSON of the holders, in order, as a JSON array's insides
local function holders_json(resv, holders)
  if #holders == 0 then return '' end
  local ids = {}
  for i, h in ipairs(holders) do ids[i] = h.id end
  local raws = redis.call('HMGET', resv, unpack(ids))
  local out = {}
  for i = 1, #ids do if raws[i] then out[#out + 1] = raws[i] end end
  return table.concat(out, ',')
end
-- busyDuring
local function busy_during(live, s, e, skip)
  local busy, holders = {}, {}
  for _, r in ipairs(live) do
    if r.id ~= skip and r.start < e and r['end'] > s then
      holders[#holders + 1] = r
      for _, g in ipairs(r.gpus) do busy[g] = true end
    end
  end
  return busy, holders
end
-- pickGPUs
local function pick(gpus, count, n, busy)
  if #gpus > 0 then
    for _, g in ipairs(gpus) do if busy[g] then return nil end end
    return gpus
  end
  local free = {}
  local g = 0
  while g < n and #free < count do
    if not busy[g] then free[#free + 1] = g end
    g = g + 1
  end
  if #free == count then return free end
  return nil
end
-- sharesGPU
local function shares(r, gpus)
  for _, g in ipairs(r.gpus) do
    for _, h in ipairs(gpus) do if g == h then return true end end
  end
  return false
end
local function keep_sharing(holders, gpus)
  local out = {}
  for _, h in ipairs(holders) do if shares(h, gpus) then out[#out + 1] = h end end
  return out
end
-- The per-GPU time index (KEYS gidx): for each GPU a reservation holds,
-- member "<gpu>|<id>|<start>" scored gpu * 2^42 + end (ms; exact in a
-- double until the year 2109). The live reservations on one GPU never
-- overlap, so, ordered by end, they are ordered by start too: the ones that
-- matter for a window are a range read from where the window starts, and a
-- check costs the reservations it meets, not all of them.
local GB = 4398046511104
local function gmember(g, id, start) return g .. '|' .. id .. '|' .. fmt(start) end
local function gindex(gidx, id, start, e, gpus)
  for _, g in ipairs(gpus) do redis.call('ZADD', gidx, fmt(g * GB + e), gmember(g, id, start)) end
end
local function gunindex(gidx, id, start, gpus)
  for _, g in ipairs(gpus) do redis.call('ZREM', gidx, gmember(g, id, start)) end
end
-- A store written before the index existed gets it from the end index,
-- once: the live reservations (the ended ones never matter to it).
local function ensure_gidx(gidx, ends, now)
  if redis.call('EXISTS', gidx) == 1 then return end
  for _, r in ipairs(load_live(ends, now)) do gindex(gidx, r.id, r.start, r['end'], r.gpus) end
end
-- A cursor over GPU g's reservations that end after t, earliest first,
-- read a page at a time; pages grow, since a cursor that needs a second
-- page is usually walking a busy stretch.
local function gcursor(gidx, g, t)
  return {key = gidx, lo = '(' .. fmt(g * GB + t), hi = '(' .. fmt((g + 1) * GB), base = g * GB, raw = {}, i = 1, n = 0,
    done = false, page = 4}
end
-- examined counts the index entries the cursors read: what a decision
-- cost, answered with a conflict so a test can hold it to the overlapping
-- bookings rather than all of them.
local examined = 0
-- gload makes the cursor's reservation readable; false when there is none.
local function gload(c)
  if c.i <= c.n then return true end
  if c.done then return false end
  local raw = redis.call('ZRANGEBYSCORE', c.key, c.lo, c.hi, 'WITHSCORES', 'LIMIT', 0, c.page)
  c.raw, c.i, c.n = raw, 1, #raw / 2
  examined = examined + c.n
  if c.n < c.page then c.done = true end
  if c.n > 0 then c.lo = '(' .. raw[#raw] end
  if c.page < 512 then c.page = c.page * 4 end
  return c.n > 0
end
-- gend is the end of the cursor's reservation (from the score alone), or nil.
local function gend(c)
  if not gload(c) then return nil end
  return tonumber(c.raw[2 * c.i]) - c.base
end
-- gpeek returns the start and end of the cursor's reservation, or nil;
-- no table per entry, so a long walk makes little garbage.
local function gpeek(c)
  if not gload(c) then return nil end
  return tonumber(string.match(c.raw[2 * c.i - 1], '|(%d+)$')), tonumber(c.raw[2 * c.i]) - c.base
end
local function gnext(c) c.i = c.i + 1 end
-- the cursor's reservation as a holder
local function gholder(c)
  local hs, he = gpeek(c)
  return {id = string.match(c.raw[2 * c.i - 1], '^%d+|([^|]+)|'), start = hs, ['end'] = he}
end
-- gfree is, for a GPU busy at the candidate (its cursor's reservation
-- starts before the candidate + dur), the least start from which it could
-- be free for dur: the end of the first reservation from the cursor's on
-- that is followed by room for more than dur (the next one ends more than
-- dur later), read from the scores alone. At every start before it the GPU
-- is busy: either the cursor's reservation holds it, or the next one
-- starts before that start + dur. The cursor is left on the first
-- reservation ending after the bound.
local function gfree(c, dur)
  local e = gend(c)
  gnext(c)
  local e2 = gend(c)
  while e2 and e2 - e <= dur do
    e = e2
    gnext(c)
    e2 = gend(c)
  end
  return e
end
local function audit(key, cap, now, action, server, id, actor, detail)
  redis.call('XADD', key, 'MAXLEN', '~', cap, '*', 'at', fmt(now), 'action', action,
    'server', server, 'id', id, 'actor', actor, 'detail', detail)
end
`

// reserveScript mirrors decideReserve. It builds its JSON by hand (Go
// passes the owner and note already JSON-encoded): cjson is the costliest
// part of a script, and reserve is the hot path.
//
// KEYS: resv, ends, seq, audit, req, gidx.
// ARGV: now, rid, server, server_gpus, count, gpus ("1,3" or ""), owner,
// start (0 = now), duration, max (0 = none), note (JSON, or ""), grace,
// horizon, cleanup_after, req_ttl_s, audit_cap, max_span, owner (JSON),
// sweep (every how many reservations a sweep runs), attempt (see stored),
// the id's suffix (rules.go, newIDSuffix).
// Times in ms.
const reserveLua = prelude + `
local rid = ARGV[2]
local prev = stored(KEYS[5], rid, ARGV[20])
if prev then return prev end
local now = now_ms()
local server, owner, note, owner_json = ARGV[3], ARGV[7], ARGV[11], ARGV[18]
local n, count = tonumber(ARGV[4]), tonumber(ARGV[5])
local start, dur, max = tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10])
local grace, horizon_d, cleanup = tonumber(ARGV[12]), tonumber(ARGV[13]), tonumber(ARGV[14])
local cap, span, sweep = tonumber(ARGV[16]), tonumber(ARGV[17]), tonumber(ARGV[19])
local suffix = ARGV[21] or ''
if not string.match(suffix, '^[a-z]?[a-z0-9]?[a-z0-9]?[a-z0-9]?$') or (suffix ~= '' and not string.match(suffix, '^[a-z]')) then
  return answer('reserve', {err = 'invalid', code = 'args'})
end
local function bad() return answer('reserve', {err = 'invalid', code = 'args'}) end
if not (n and count and start and dur and max and grace and horizon_d and cleanup and cap and span and owner_json and sweep) then return bad() end
if sweep < 1 then return bad() end
if n < 1 or owner == '' or dur < 1 or max < 0 or (max > 0 and dur > max) or dur > span or start < 0 then return bad() end
if string.sub(owner_json, 1, 1) ~= '"' or (note ~= '' and string.sub(note, 1, 1) ~= '"') then return bad() end
local gpus, seen = {}, {}
for g in string.gmatch(ARGV[6], '[^,]+') do
  local v = tonumber(g)
  if not v or v < 0 or v >= n or v ~= math.floor(v) or seen[v] then return bad() end
  seen[v] = true
  gpus[#gpus + 1] = v
end
table.sort(gpus)
if #gpus > 0 then
  if count ~= 0 and count ~= #gpus then return bad() end
  count = #gpus
elseif count < 1 or count > n then
  return bad()
end

if start == 0 then start = now end
if start < now - grace then
  return answer('reserve', {err = 'invalid', code = 'past_start', a = now - start})
end
local horizon = now + horizon_d
if start > horizon then
  return answer('reserve', {err = 'invalid', code = 'beyond_horizon', a = start - now})
end
local e = start + dur
ensure_gidx(KEYS[6], KEYS[2], now)
-- The GPUs that matter: the ones asked for, or all of them. A reservation
-- on one of them overlaps [start, e) iff it ends after max(start, now) (so
-- it is live too) and starts before e.
local rel = gpus
if #gpus == 0 then
  rel = {}
  for g = 0, n - 1 do rel[#rel + 1] = g end
end
local t0 = math.max(start, now)
-- busy[g] is read on demand: pick stops at the first free GPUs it needs,
-- so a reservation that fits reads only the GPUs it looks at.
local busy = setmetatable({}, {__index = function(t, g)
  local hs = gpeek(gcursor(KEYS[6], g, t0))
  local v = (hs ~= nil and hs < e)
  rawset(t, g, v)
  return v
end})
local got = pick(gpus, count, n, busy)
if not got then
  local curs = {}
  for _, g in ipairs(rel) do curs[#curs + 1] = gcursor(KEYS[6], g, t0) end
  -- the holders: every reservation on a GPU that matters and in the window
  local holders, seen = {}, {}
  for _, g in ipairs(rel) do
    local c = gcursor(KEYS[6], g, t0)
    local hs = gpeek(c)
    while hs and hs < e do
      local h = gholder(c)
      if not seen[h.id] then
        seen[h.id] = true
        holders[#holders + 1] = h
      end
      gnext(c)
      hs = gpeek(c)
    end
  end
  table.sort(holders, by_start)
  local out = '{"op":"reserve","err":"conflict","holders":[' .. holders_json(KEYS[1], holders) .. ']'
  -- The earliest start that fits. The free set only grows when a
  -- reservation ends, so the candidates are the ends after the start, in
  -- order; a GPU is free for [c, c + dur) iff the first of its
  -- reservations ending after c starts at c + dur or later. A candidate
  -- that does not fit is followed by the least start at which enough busy
  -- GPUs could have come free (gfree; for explicit GPUs all of them, for a
  -- count the need-th earliest), and every candidate before it is
  -- skipped: the walk costs the runs of back-to-back bookings it crosses,
  -- read from the scores, not a decision per booking.
  local c = start
  local first = true
  local busy_until = {}
  while true do
    local b = {}
    for k, cur in ipairs(curs) do
      if busy_until[k] and c < busy_until[k] then
        b[rel[k]] = true
      else
        local he = gend(cur)
        while he and he <= c do gnext(cur); he = gend(cur) end
        if he then
          local hs = gpeek(cur)
          if hs < c + dur then b[rel[k]] = true end
        end
      end
    end
    if not first then
      if c > horizon then break end
      local g2 = pick(gpus, count, n, b)
      if g2 then
        out = out .. ',"earliest":' .. fmt(c) .. ',"earliest_gpus":[' .. table.concat(g2, ',') .. ']'
        break
      end
    end
    first = false
    local bounds = {}
    for k, cur in ipairs(curs) do
      if b[rel[k]] then
        if not (busy_until[k] and c < busy_until[k]) then busy_until[k] = gfree(cur, dur) end
        bounds[#bounds + 1] = busy_until[k]
      end
    end
    if #bounds == 0 then break end
    table.sort(bounds)
    local need = #bounds
    if #gpus == 0 then need = count - (#rel - #bounds) end
    if need < 1 or need > #bounds then break end
    c = bounds[need]
  end
  return out .. ',"examined":' .. fmt(examined) .. '}'
end

-- decided: write
local seq = redis.call('INCR', KEYS[3])
local id = server .. '-' .. fmt(seq) .. suffix
local gl = table.concat(got, ',')
local js = '{"id":"' .. id .. '","server":"' .. server .. '","gpus":[' .. gl .. '],"owner":' .. owner_json ..
  ',"start":' .. fmt(start) .. ',"end":' .. fmt(e)
if note ~= '' then js = js .. ',"note":' .. note end
js = js .. ',"created":' .. fmt(now) .. '}'
redis.call('HSET', KEYS[1], id, js)
redis.call('ZADD', KEYS[2], fmt(e), member(id, start, got))
gindex(KEYS[6], id, start, e, got)
if seq % sweep == 0 then
  local old = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', fmt(now - cleanup), 'LIMIT', 0, 1000)
  for _, m in ipairs(old) do
    local oid, ostart, ogs = string.match(m, '^([^|]+)|(%d+)|([%d,]*)$')
    redis.call('HDEL', KEYS[1], oid)
    redis.call('ZREM', KEYS[2], m)
    if oid then
      local og = {}
      for g in string.gmatch(ogs, '%d+') do og[#og + 1] = tonumber(g) end
      gunindex(KEYS[6], oid, tonumber(ostart), og)
    end
  end
end
audit(KEYS[4], cap, now, 'reserve', server, id, owner, 'gpus ' .. gl .. ' from ' .. fmt(start) .. ' to ' .. fmt(e))
local res = ok('reserve', js)
remember(KEYS[5], rid, res, ARGV[15])
return res
`

// releaseScript mirrors decideRelease.
//
// KEYS: resv, ends, audit, req, gidx.
// ARGV: now, rid, id, actor, force ("1"/"0"), server, req_ttl_s, audit_cap,
// attempt.
const releaseLua = prelude + `
local rid = ARGV[2]
local prev = stored(KEYS[4], rid, ARGV[9])
if prev then return prev end
local now = now_ms()
local id, actor, force, server = ARGV[3], ARGV[4], ARGV[5] == '1', ARGV[6]
local raw = redis.call('HGET', KEYS[1], id)
if not raw then return answer('release', {err = 'not_found'}) end
local r = cjson.decode(raw)
if r.owner ~= actor and not force then return answer('release', {err = 'not_owner'}) end
if r['end'] <= now then return answer('release', {err = 'ended'}) end

r.released_by = actor
local detail
ensure_gidx(KEYS[5], KEYS[2], now)
if now <= r.start then
  redis.call('HDEL', KEYS[1], id)
  redis.call('ZREM', KEYS[2], member(id, r.start, r.gpus))
  gunindex(KEYS[5], id, r.start, r.gpus)
  detail = 'cancelled before its start'
else
  r['end'] = now
  redis.call('HSET', KEYS[1], id, cjson.encode(r))
  redis.call('ZADD', KEYS[2], fmt(now), member(id, r.start, r.gpus))
  gindex(KEYS[5], id, r.start, now, r.gpus)
  detail = 'ended at ' .. fmt(now)
end
if r.owner ~= actor then detail = detail .. ' (forced)' end
audit(KEYS[3], tonumber(ARGV[8]), now, 'release', server, id, actor, detail)
local res = ok('release', cjson.encode(r))
remember(KEYS[4], rid, res, ARGV[7])
return res
`

// extendScript mirrors decideExtend.
//
// KEYS: resv, ends, audit, req, gidx.
// ARGV: now, rid, id, actor, force, by, max (0 = none), max_span, server,
// req_ttl_s, audit_cap, attempt.
const extendLua = prelude + `
local rid = ARGV[2]
local prev = stored(KEYS[4], rid, ARGV[12])
if prev then return prev end
local now = now_ms()
local id, actor, force, server = ARGV[3], ARGV[4], ARGV[5] == '1', ARGV[9]
local by, max, span = tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])
if not (by and max and span) or by == 0 or max < 0 then
  return answer('extend', {err = 'invalid', code = 'args'})
end
local raw = redis.call('HGET', KEYS[1], id)
if not raw then return answer('extend', {err = 'not_found'}) end
local r = cjson.decode(raw)
if r.owner ~= actor and not force then return answer('extend', {err = 'not_owner'}) end
if r['end'] <= now then return answer('extend', {err = 'ended'}) end
local new_end = r['end'] + by
local least = math.max(r.start, now)
if by < 0 and new_end <= least then
  return answer('extend', {err = 'invalid', code = 'shorten_past', a = new_end, b = least})
end
local len = new_end - r.start
if by > 0 and max > 0 and len > max then
  return answer('extend', {err = 'invalid', code = 'extend_too_long', a = len, b = max})
end
if by > 0 and len > span then
  return answer('extend', {err = 'invalid', code = 'extend_too_long', a = len, b = span})
end
ensure_gidx(KEYS[5], KEYS[2], now)
-- the others on its GPUs that end after max(start, now) and start before
-- the new end (a shortened one gives back its own time: nobody to look for)
local holders, seen = {}, {}
for _, g in ipairs(by > 0 and r.gpus or {}) do
  local c = gcursor(KEYS[5], g, math.max(r.start, now))
  local hs = gpeek(c)
  while hs and hs < new_end do
    local h = gholder(c)
    if h.id ~= id and not seen[h.id] then
      seen[h.id] = true
      holders[#holders + 1] = h
    end
    gnext(c)
    hs = gpeek(c)
  end
end
if #holders > 0 then
  table.sort(holders, by_start)
  return '{"op":"extend","err":"conflict","holders":[' .. holders_json(KEYS[1], holders) .. ']}'
end

r['end'] = new_end
local js = cjson.encode(r)
redis.call('HSET', KEYS[1], id, js)
redis.call('ZADD', KEYS[2], fmt(new_end), member(id, r.start, r.gpus))
gindex(KEYS[5], id, r.start, new_end, r.gpus)
local detail = 'end moved to ' .. fmt(new_end)
if r.owner ~= actor then detail = detail .. ' (forced)' end
audit(KEYS[3], tonumber(ARGV[11]), now, 'extend', server, id, actor, detail)
local res = ok('extend', js)
remember(KEYS[4], rid, res, ARGV[10])
return res
`

// announceScript: KEYS resv, audit; ARGV now, id, channel, ts, server, audit_cap.
const announceLua = prelude + `
local now = now_ms()
local id = ARGV[2]
local raw = redis.call('HGET', KEYS[1], id)
if not raw then return answer('announce', {err = 'not_found'}) end
local r = cjson.decode(raw)
r.channel, r.message_ts = ARGV[3], ARGV[4]
if ARGV[3] == '' then r.channel = nil end
if ARGV[4] == '' then r.message_ts = nil end
redis.call('HSET', KEYS[1], id, cjson.encode(r))
audit(KEYS[2], tonumber(ARGV[6]), now, 'announce', ARGV[5], id, '', 'channel ' .. ARGV[3] .. ' ts ' .. ARGV[4])
return ok('announce', 'true')
`

// remindScript: KEYS resv, audit; ARGV now, id, server, audit_cap.
const remindLua = prelude + `
local now = now_ms()
local id = ARGV[2]
local raw = redis.call('HGET', KEYS[1], id)
if not raw then return answer('remind', {err = 'not_found'}) end
local r = cjson.decode(raw)
if r.reminded then return ok('remind', 'false') end
r.reminded = true
redis.call('HSET', KEYS[1], id, cjson.encode(r))
audit(KEYS[2], tonumber(ARGV[4]), now, 'remind', ARGV[3], id, '', '')
return ok('remind', 'true')
`

// waitScript: KEYS wait, seq, audit, req;
// ARGV now, rid, server, count, owner, for, req_ttl_s, audit_cap, attempt.
const waitLua = prelude + `
local rid = ARGV[2]
local prev = stored(KEYS[4], rid, ARGV[9])
if prev then return prev end
local now = now_ms()
local server, owner = ARGV[3], ARGV[5]
local count, dur = tonumber(ARGV[4]), tonumber(ARGV[6])
if not (count and dur) or count < 1 or dur < 1 or owner == '' then
  return answer('wait', {err = 'invalid', code = 'args'})
end

local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local w = cjson.decode(all[i + 1])
  if w.expires <= now then redis.call('HDEL', KEYS[1], all[i]) end
end
local id = server .. '-w' .. fmt(redis.call('INCR', KEYS[2]))
local w = {id = id, server = server, count = count, owner = owner, since = now, expires = now + dur}
local js = cjson.encode(w)
redis.call('HSET', KEYS[1], id, js)
audit(KEYS[3], tonumber(ARGV[8]), now, 'wait', server, id, owner,
  'count ' .. fmt(count) .. ' until ' .. fmt(w.expires))
local res = ok('wait', js)
remember(KEYS[4], rid, res, ARGV[7])
return res
`

// unwaitScript: KEYS wait, audit; ARGV now, id, server, audit_cap.
const unwaitLua = prelude + `
local now = now_ms()
local raw = redis.call('HGET', KEYS[1], ARGV[2])
if not raw then return ok('unwait', 'false') end
local w = cjson.decode(raw)
redis.call('HDEL', KEYS[1], ARGV[2])
audit(KEYS[2], tonumber(ARGV[4]), now, 'unwait', ARGV[3], ARGV[2], w.owner, '')
return ok('unwait', 'true')
`

// listScript reads the live reservations at the store's now.
// KEYS resv, ends; ARGV now. Answer: now, then the records' JSON.
const listLua = prelude + `
local now = now_ms()
local live = load_live(KEYS[2], now)
local out = {fmt(now)}
for i = 1, #live, 500 do
  local chunk = {}
  for j = i, math.min(i + 499, #live) do chunk[#chunk + 1] = live[j].id end
  local raws = redis.call('HMGET', KEYS[1], unpack(chunk))
  for j = 1, #chunk do
    if raws[j] then out[#out + 1] = raws[j] end
  end
end
return out
`

// waitersScript reads the waiters with the store's now.
// KEYS wait; ARGV now. Answer: now, then the waiters' JSON.
const waitersLua = prelude + `
local now = now_ms()
local out = {fmt(now)}
for _, v in ipairs(redis.call('HVALS', KEYS[1])) do out[#out + 1] = v end
return out
`

// samplesScript mirrors Embedded.RecordSamples (validateBatch,
// sampleWeight, gpuHour.add, liveGPURec.next). Sums are integer ms
// (HINCRBY), exactly as the embedded store keeps them.
//
// KEYS: live (hash), use (the hash of the hour containing at).
// ARGV: now, at, first_weight, max_weight, hour (start, ms), retention,
// busy_util, agent, err, then one GPUSample JSON per GPU. Times in ms.
//
// The live hash: "last" (the last batch's at), "n" (batches recorded),
// "agent", "err", and per GPU
// "g:<index>" = "<first at>|<busy at>|<at>|<sample JSON>". The hour hash:
// "o:<gpu>" observed, "b:<gpu>" busy, "u:<gpu>" util% × ms, "m:<gpu>"
// MiB × ms, "p:<gpu>:<user>" the user's ms. It expires retention after
// the hour ends (by the store's now); an hour already past that is not
// written.
const samplesLua = prelude + `
local function bad() return answer('samples', {err = 'invalid', code = 'args'}) end
local now = now_ms()
local at, first_w, max_w = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local hour, ret, busy_util = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local agent, errmsg = ARGV[8], ARGV[9]
local max_ahead = tonumber(ARGV[10])
if not (at and first_w and max_w and hour and ret and busy_util) then return bad() end
if at < 1 or first_w < 1 or max_w < 1 or hour > at or at - hour >= 3600000 or hour % 3600000 ~= 0 then return bad() end
local function int_in(v, lo, hi) return type(v) == 'number' and v == math.floor(v) and v >= lo and v <= hi end
local gpus, seen = {}, {}
for i = 11, #ARGV do
  local okd, g = pcall(cjson.decode, ARGV[i])
  if not okd or type(g) ~= 'table' then return bad() end
  if not int_in(g.index, 0, 1023) or seen[g.index] or not int_in(g.util, -1, 100) or not int_in(g.mem_used, -1, 16777216) then
    return bad()
  end
  seen[g.index] = true
  local users = g.users
  if users == nil then users = {} end
  if type(users) ~= 'table' or #users > 32 then return bad() end
  for _, u in ipairs(users) do
    if type(u) ~= 'string' or u == '' or #u > 64 then return bad() end
  end
  gpus[#gpus + 1] = {index = g.index, util = g.util, mem = g.mem_used, users = users, raw = ARGV[i]}
end
if errmsg ~= '' and #gpus > 0 then return bad() end
if at > now + max_ahead then
  return answer('samples', {err = 'invalid', code = 'clock_ahead', a = at - now})
end

local last = tonumber(redis.call('HGET', KEYS[1], 'last'))
local w = first_w
if last then
  if at <= last then return ok('samples', 'false') end
  w = math.min(at - last, max_w)
end
local prev = {}
if #gpus > 0 then
  local fields = {}
  for i, g in ipairs(gpus) do fields[i] = 'g:' .. fmt(g.index) end
  prev = redis.call('HMGET', KEYS[1], unpack(fields))
end

-- decided: write
redis.call('HINCRBY', KEYS[1], 'n', 1)
local set = {'last', fmt(at), 'agent', agent, 'err', errmsg}
local ttl = hour + 3600000 + ret - now
local wrote = false
for i, g in ipairs(gpus) do
  local busy = g.util >= busy_util or #g.users > 0
  local first, busy_at = at, 0
  if prev[i] then
    local f, b = string.match(prev[i], '^(%d+)|(%d+)|')
    if f then first, busy_at = tonumber(f), tonumber(b) end
  end
  if busy then busy_at = at end
  set[#set + 1] = 'g:' .. fmt(g.index)
  set[#set + 1] = fmt(first) .. '|' .. fmt(busy_at) .. '|' .. fmt(at) .. '|' .. g.raw
  if ttl > 0 then
    local gi = fmt(g.index)
    if g.util >= 0 then
      redis.call('HINCRBY', KEYS[2], 'o:' .. gi, fmt(w))
      if busy then redis.call('HINCRBY', KEYS[2], 'b:' .. gi, fmt(w)) end
      redis.call('HINCRBY', KEYS[2], 'u:' .. gi, fmt(g.util * w))
      if g.mem >= 0 then redis.call('HINCRBY', KEYS[2], 'm:' .. gi, fmt(g.mem * w)) end
      wrote = true
    end
    for _, u in ipairs(g.users) do
      redis.call('HINCRBY', KEYS[2], 'p:' .. gi .. ':' .. u, fmt(w))
      wrote = true
    end
  end
end
redis.call('HSET', KEYS[1], unpack(set))
if wrote then redis.call('PEXPIRE', KEYS[2], fmt(ttl)) end
return ok('samples', 'true')
`

// usageScript reads hour hashes in one round trip: a read script, since
// the package keeps no pipelines at all (a test checks), and every hour
// key of a server is in its slot.
// KEYS: the hour hashes; ARGV: now. Answer: now, then each key's HGETALL.
const usageLua = prelude + `
local out = {fmt(now_ms())}
for i = 1, #KEYS do out[#out + 1] = redis.call('HGETALL', KEYS[i]) end
return out
`

// claimScript mirrors claimable: the value is "held:<until>:<holder>" or
// "done:<until>", and the deadline in it is compared with the store's now,
// so a test's injected clock decides exactly as on the embedded store. The
// key's PX (lease + grace) only keeps Redis tidy.
// KEYS: claim; ARGV: now, holder, lease, grace. Times in ms.
const claimLua = prelude + `
local now = now_ms()
local holder, lease, grace = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
if not (lease and grace) or lease < 1 or grace < 0 or holder == '' then
  return answer('claim', {err = 'invalid', code = 'args'})
end
local v = redis.call('GET', KEYS[1])
if v then
  local kind, until_ms, who = string.match(v, '^(%a+):(%d+):?(.*)$')
  until_ms = tonumber(until_ms)
  if until_ms and until_ms > now then
    if kind == 'done' then return ok('claim', 'false') end
    if kind == 'held' and who ~= holder then return ok('claim', 'false') end
  end
end
redis.call('SET', KEYS[1], 'held:' .. fmt(now + lease) .. ':' .. holder, 'PX', fmt(lease + grace))
return ok('claim', 'true')
`

// doneScript: KEYS claim; ARGV now, retention (ms).
const doneLua = prelude + `
local now = now_ms()
local ret = tonumber(ARGV[2])
if not ret or ret < 1 then return answer('done', {err = 'invalid', code = 'args'}) end
redis.call('SET', KEYS[1], 'done:' .. fmt(now + ret), 'PX', fmt(ret))
return ok('done', 'true')
`

var (
	samplesScript = newLuaScript(samplesLua)
	usageScript   = newLuaScript(usageLua)
	claimScript   = newLuaScript(claimLua)
	doneScript    = newLuaScript(doneLua)
)

// fenceLua settles a mutation whose reply was lost (Redis.resolve): if the
// request id has an answer, that answer is what happened and is returned;
// otherwise the attempt is fenced, so that it cannot apply if it still
// arrives, and "" says it did not apply.
//
// KEYS: req. ARGV: attempt, req_ttl_s.
const fenceLua = `
local v = redis.call('GET', KEYS[1])
local fence = '{"fence":"'
if v and string.sub(v, 1, 10) ~= fence then return v end
local f = fence .. ARGV[1] .. '"}'
if v and #v < 2000 then f = string.sub(v, 1, -3) .. ',' .. ARGV[1] .. '"}' end
redis.call('SET', KEYS[1], f, 'EX', ARGV[2])
return ''
`

var (
	fenceScript    = newLuaScript(fenceLua)
	reserveScript  = newLuaScript(reserveLua)
	releaseScript  = newLuaScript(releaseLua)
	extendScript   = newLuaScript(extendLua)
	announceScript = newLuaScript(announceLua)
	remindScript   = newLuaScript(remindLua)
	waitScript     = newLuaScript(waitLua)
	unwaitScript   = newLuaScript(unwaitLua)
	listScript     = newLuaScript(listLua)
	waitersScript  = newLuaScript(waitersLua)
)

// luaScript is one of the scripts above. Its redis.Script, and with it
// the SHA-1 that EVALSHA names it by, is built on first use: hashing the
// scripts at package init cost every process (gpuplan plan, which never
// opens Redis, included) about 0.2 ms at start-up.
type luaScript struct {
	src  string
	once sync.Once
	s    *redis.Script
}

func newLuaScript(src string) *luaScript { return &luaScript{src: src} }

// Run is redis.Script.Run: EVALSHA, then EVAL when Redis answers NOSCRIPT.
func (l *luaScript) Run(ctx context.Context, c redis.Scripter, keys []string, args ...any) *redis.Cmd {
	l.once.Do(func() { l.s = redis.NewScript(l.src) })
	return l.s.Run(ctx, c, keys, args...)
}
