-- Closures, upvalues shared between closures, varargs, recursion, tail calls.
local scale = tonumber(arg[1] or "1")
local function counter()
  local n = 0
  return function() n = n + 1; return n end, function() return n end
end
local inc, get = counter()
for _ = 1, 1000 * scale do inc() end
print("counter", get())

local function compose(...)
  local fs = table.pack(...)
  return function(x)
    for i = fs.n, 1, -1 do x = fs[i](x) end
    return x
  end
end
local f = compose(function(x) return x * 2 end, function(x) return x + 3 end)
print("compose", f(5), f(-3))

local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
print("fib", fib(20 + math.min(scale, 5)))

local function loop(n, acc) if n == 0 then return acc end return loop(n - 1, acc + n) end
print("tail", loop(100000 * scale, 0))

local adders = {}
for i = 1, 10 do adders[i] = function(x) return x + i end end
local s = 0
for i = 1, 10 do s = s + adders[i](i) end
print("adders", s)
print("select", select("#", 1, nil, 3), select(2, "a", "b", "c"))
