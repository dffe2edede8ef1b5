-- take the value and the key in one command, then check it was ours
local v = redis.call("GETDEL", KEYS[1])
if v == ARGV[1] then
  return 1
end
return 0
