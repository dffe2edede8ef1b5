if redis.call("GET", KEYS[1]) == false then
  return redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2])
end
return nil
