return redis.call("PEXPIRE", KEYS[1], 1)
