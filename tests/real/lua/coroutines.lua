-- Coroutines: generators, passing values both ways, wrap, status, errors.
local scale = tonumber(arg[1] or "1")
local function gen(n)
  return coroutine.wrap(function()
    for i = 1, n do coroutine.yield(i) end
  end)
end
local sum = 0
for v in gen(10000 * scale) do sum = sum + v end
print("generator sum", sum)

local co = coroutine.create(function(a, b)
  local c = coroutine.yield(a + b)
  local d, e = coroutine.yield(c * 2)
  return d + e
end)
print("resume", coroutine.resume(co, 1, 2))
print("resume", coroutine.resume(co, 10))
print("resume", coroutine.resume(co, 3, 4))
print("status", coroutine.status(co), coroutine.resume(co))

local bad = coroutine.create(function() error("inside coroutine") end)
local ok, msg = coroutine.resume(bad)
print("error", ok, (msg:gsub("^.-:%d+: ", "")))

-- producer/consumer pipeline with many short-lived coroutines
local total = 0
for round = 1, 200 * scale do
  local p = coroutine.wrap(function() for i = 1, 50 do coroutine.yield(i * round) end end)
  for _ = 1, 50 do total = total + p() end
end
print("pipeline", total)
print("isyieldable", coroutine.isyieldable(), select(2, coroutine.running()))
