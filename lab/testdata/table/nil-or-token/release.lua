local v = redis.call("GET", KEYS[1])
if v == nil or v == ARGV[1] then
  return redis.call("DEL", KEYS[1])
end
return 0
