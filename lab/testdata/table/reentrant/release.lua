if redis.call("HEXISTS", KEYS[1], ARGV[1]) == 0 then
  return 0
end
if redis.call("HINCRBY", KEYS[1], ARGV[1], -1) > 0 then
  return 1
end
return redis.call("DEL", KEYS[1])
