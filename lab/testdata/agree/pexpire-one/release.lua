-- let our own lock lapse a millisecond from now rather than delete it
if redis.call("GET", KEYS[1]) == ARGV[1] then
  return redis.call("PEXPIRE", KEYS[1], 1)
end
return 0
