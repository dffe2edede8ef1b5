local v = redis.call("GET", KEYS[1])
if v == ARGV[1] then
  return redis.call("PEXPIRE", KEYS[1], ARGV[2])
elseif not v then
  return -1 -- the lock lapsed: say so, and recreate nothing
end
return 0
