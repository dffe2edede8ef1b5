return redis.call("SET", KEYS[1], ARGV[1], "XX", "PX", ARGV[2]) and 1 or 0
