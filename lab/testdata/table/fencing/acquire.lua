-- the grant and its fencing token in one script
if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
  return redis.call("INCR", KEYS[1] .. ":fence")
end
return 0
