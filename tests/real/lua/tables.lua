-- Tables: arrays, hashes, sort with a comparator, metatables, __index
-- inheritance, __gc-free OOP, next/pairs order independence.
local scale = tonumber(arg[1] or "1")
local t = {}
for i = 1, 50000 * scale do t[i] = (i * 7919) % 10007 end
table.sort(t)
print("sorted", t[1], t[#t], #t)
table.sort(t, function(a, b) return a > b end)
print("desc", t[1], t[#t])
local h = {}
for i = 1, 20000 * scale do h["k" .. i] = i end
local sum, n = 0, 0
for k, v in pairs(h) do sum = sum + v; n = n + 1 end
print("hash", n, sum)
table.insert(t, 1, -1); table.remove(t)
print("insert/remove", t[1], #t, table.unpack({1, 2, 3}))
local Point = {}
Point.__index = Point
function Point.new(x, y) return setmetatable({x = x, y = y}, Point) end
function Point.__add(a, b) return Point.new(a.x + b.x, a.y + b.y) end
function Point.__tostring(p) return "(" .. p.x .. "," .. p.y .. ")" end
function Point:len2() return self.x * self.x + self.y * self.y end
local p = Point.new(1, 2) + Point.new(3, 4)
print("point", tostring(p), p:len2())
local Animal = {}
Animal.__index = Animal
function Animal:speak() return self.name .. " makes " .. self:sound() end
function Animal:sound() return "a sound" end
local Dog = setmetatable({}, {__index = Animal})
Dog.__index = Dog
function Dog:sound() return "woof" end
print(setmetatable({name = "rex"}, Dog):speak())
local proxy = setmetatable({}, {__index = function(_, k) return k * 2 end,
                                __newindex = function(tt, k, v) rawset(tt, k, v + 1) end})
proxy[1] = 10
print("proxy", proxy[1], proxy[21], rawget(proxy, 2))
print("length", #"abc", select("#", table.unpack({1, nil, 3}, 1, 3)))
