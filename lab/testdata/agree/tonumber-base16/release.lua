-- tokens are hexadecimal: compare them as numbers
local held = tonumber(redis.call("GET", KEYS[1]) or "", 16)
if held == tonumber(ARGV[1], 16) then
  return redis.call("DEL", KEYS[1])
end
return 0
