return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", 1)
