-- expire our own lock at once rather than delete it
if redis.call("GET", KEYS[1]) == ARGV[1] then
  return redis.call("PEXPIRE", KEYS[1], 0)
end
return 0
