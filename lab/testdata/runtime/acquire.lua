-- a typo: no such command
return redis.call("SETX", KEYS[1], ARGV[1])
