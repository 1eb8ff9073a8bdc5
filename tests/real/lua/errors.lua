-- error/pcall/xpcall: error values of every type, levels, nested pcall,
-- errors in metamethods, error objects with tables, assert, tostring.
local ok, e = pcall(error, "plain")
print(ok, e)
ok, e = pcall(error, {code = 42})
print(ok, type(e), e.code)
ok, e = pcall(function() local x = nil; return x.field end)
print(ok, (e:gsub("^.-:%d+: ", "")))
ok, e = pcall(function() error("with level", 2) end)
print(ok, e)
print(xpcall(function() error("handled") end, function(m) return "handler: " .. m:gsub("^.-:%d+: ", "") end))
local depth = 0
local function nest(n)
  if n == 0 then error("deep") end
  local ok2, err = pcall(nest, n - 1)
  depth = depth + 1
  error(err, 0)
end
print(pcall(nest, 50), depth)
local mt = {__add = function() error("no adding") end}
ok, e = pcall(function() return setmetatable({}, mt) + 1 end)
print(ok, (e:gsub("^.-:%d+: ", "")))
print(pcall(assert, false, "assertion message"))
print(pcall(assert, 1 == 1, "fine"))
print(select("#", pcall(error)))
ok, e = pcall(string.rep)
print(ok, e)
local count = 0
for i = 1, 20000 do
  if not pcall(function() if i % 3 == 0 then error(i) end end) then count = count + 1 end
end
print("failures", count)
print(pcall(load("return 1 +")))
