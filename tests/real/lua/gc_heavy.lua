-- GC-heavy loops: many short-lived tables, strings and closures, weak
-- tables, collectgarbage steps; results are counts, independent of timing.
local scale = tonumber(arg[1] or "1")
local keep = {}
local total = 0
for i = 1, 200000 * scale do
  local t = {i, tostring(i), {i * 2}}
  total = total + t[1] + #t[2] + t[3][1]
  if i % 1000 == 0 then keep[#keep + 1] = t end
end
print("tables", total, #keep)
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
local weak = setmetatable({}, {__mode = "k"})
for i = 1, 1000 do weak[{}] = i end
collectgarbage()
collectgarbage()
local left = 0
for _ in pairs(weak) do left = left + 1 end
print("weak keys left", left)
local s = ""
for i = 1, 3000 do s = s .. string.char(65 + i % 26) end
print("concat", #s, s:sub(-5))
local fs = {}
for i = 1, 100000 * scale do fs[i % 100 + 1] = function() return i end end
print("closures", fs[1](), fs[100]())
print("memory sane", collectgarbage("count") > 0)
