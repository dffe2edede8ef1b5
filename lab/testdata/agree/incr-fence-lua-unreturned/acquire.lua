-- count the grants, but hand back only OK
if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
  redis.call("INCR", KEYS[1] .. ":fence")
  return 1
end
return 0
