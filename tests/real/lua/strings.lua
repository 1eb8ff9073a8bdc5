-- The string library: formatting, patterns, gsub with functions and
-- tables, byte/char, rep, packing, utf8.
local scale = tonumber(arg[1] or "1")
print(string.format("%5d|%-5s|%.3f|%x|%q|%g", 42, "ab", math.pi, 255, "a\nb", 1e20))
print(("hello world"):upper(), ("Hello"):lower(), ("abc"):rep(3, "-"), ("abc"):reverse())
print(string.find("the quick brown fox", "(%a+) (%a+)$"))
print(string.match("key = value", "(%w+)%s*=%s*(%w+)"))
local words = {}
for w in string.gmatch("one two  three\tfour", "%S+") do words[#words + 1] = w end
print(#words, table.concat(words, ","))
print(string.gsub("hello world", "o", "0"))
print(string.gsub("$name is $age", "%$(%w+)", {name = "lua", age = 30}))
print(string.gsub("abc", "%w", function(c) return c:byte() .. ";" end))
print(string.byte("ABC", 1, -1), string.char(72, 105))
print(string.pack("<i4", 100):byte(1, -1))
print(string.unpack("<i4 z", string.pack("<i4 z", -7, "str")))
print(utf8.char(72, 228, 8364), utf8.len("häll€"))
local parts = {}
for i = 1, 20000 * scale do parts[#parts + 1] = tostring(i % 97) end
local big = table.concat(parts, " ")
local count = select(2, big:gsub("%d+", ""))
print("big string", #big, count, big:sub(1, 20))
print(tostring(1/0), tostring(-1/0), math.type(3), math.type(3.0), 7 // 2, 7 % -3, 2^10)
print(string.format("%.14g", 0.1 + 0.2), tonumber("0x10"), tonumber("  12  "), tonumber("z", 36))
