-- The tree part of tests/real/lua/gc_heavy.lua, on its own: table
-- creation, recursion and table reads. Used to count instructions of a
-- Lua build under valgrind (deterministic where timings are not); see
-- BENCHMARKS.md.
local scale = tonumber(arg[1] or "1")
local function tree(d)
  if d == 0 then return {} end
  return {tree(d - 1), tree(d - 1)}
end
local function check(t)
  if not t[1] then return 1 end
  return 1 + check(t[1]) + check(t[2])
end
local nodes = 0
for _ = 1, 10 * scale do nodes = nodes + check(tree(14)) end
print("trees", nodes)
