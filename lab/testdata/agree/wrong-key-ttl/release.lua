-- the wrong key: DEL answers 0, and the lock lapses at its TTL
if redis.call("GET", KEYS[1]) == ARGV[1] then
  return redis.call("DEL", KEYS[1] .. ":held")
end
return 0
