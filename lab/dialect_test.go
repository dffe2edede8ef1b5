package lab

// redis7Cases are the rows of dialectCases for where Lua 5.1 in Redis
// 7.0.15 and gopher-lua part ways under a lock (dialect.go), each checked
// with redis-cli EVAL on redis-server 7.0.15: tonumber with a base (every
// 32-digit hexadecimal token reads as the same number), string.format's
// width and precision, table.sort with an order that is not one,
// string.dump, and error() with a table, which kills redis-server 7.0.15:
// the slow tier sends that one to a server of its own, never the one the
// other rows share.
var redis7Cases = []dialectCase{
	{src: `return tostring(tonumber('0123456789abcdef0123456789abcdef', 16))`, want: `"1.844674407371e+19"`},
	{src: `return tonumber('0123456789abcdef0123456789abcdef', 16) == tonumber('fedcba9876543210fedcba9876543210', 16)`, want: `(integer) 1`},
	{src: `return {tostring(tonumber('ff', 16)), tostring(tonumber('zz', 36)), tostring(tonumber(' -ff ', 16)), tostring(tonumber('0x10', 16)), tostring(tonumber(255, 16)), tostring(tonumber('token-A', 16)), tostring(tonumber('', 16)), tostring(tonumber('1fffffffffffff', 16)), tostring(tonumber('20000000000001', 16)), tostring(tonumber('0x', 16))}`,
		want: `1) "255" 2) "1295" 3) "1.844674407371e+19" 4) "16" 5) "597" 6) "nil" 7) "nil" 8) "9.007199254741e+15" 9) "9.007199254741e+15" 10) "nil"`},
	{src: "redis.call('SET', KEYS[1], 1e300) local a = redis.call('GET', KEYS[1]) redis.call('SET', KEYS[1], 0.1) local b = redis.call('GET', KEYS[1]) redis.call('SET', KEYS[1], 7)\n" +
		"return {a, b, redis.call('GET', KEYS[1]), 1 .. '', 0.1 .. '', tostring(2^63), 'n' .. 2^53, string.format('%s|%d|%x', 2^53, 3, 255), tostring(1e100), tostring(1/0), tostring(-1/0)}",
		want: `1) "1.0000000000000001e+300" 2) "0.10000000000000001" 3) "7" 4) "1" 5) "0.1" 6) "9.2233720368548e+18" 7) "n9.007199254741e+15" 8) "9.007199254741e+15|3|ff" 9) "1e+100" 10) "inf" 11) "-inf"`},
	{src: `local mt = {__concat = function(a, b) return type(a) .. '+' .. type(b) end} return 1 .. setmetatable({}, mt)`, want: `"number+table"`},
	{src: `return tonumber('10', 37)`, want: `(error) ERR user_script:1: bad argument #2 to 'tonumber' (base out of range) script: <sha>, on @user_script:1.`},
	{src: `return string.format('%099999d', 1)`, want: `(error) ERR user_script:1: invalid format (width or precision too long) script: <sha>, on @user_script:1.`},
	{src: `return string.format('%9999999s', 'x')`, want: `(error) ERR user_script:1: invalid format (width or precision too long) script: <sha>, on @user_script:1.`},
	{src: `return string.format('%.100f', 1)`, want: `(error) ERR user_script:1: invalid format (width or precision too long) script: <sha>, on @user_script:1.`},
	{src: `return string.format('%------5d', 1)`, want: `(error) ERR user_script:1: invalid format (repeated flags) script: <sha>, on @user_script:1.`},
	{src: `return {#string.format('%99d', 1), #string.format('%.99f', 1), string.format('%-----5d|%%|%5.2s', 1, 'abc')}`, want: `1) (integer) 99 2) (integer) 101 3) "1    |%|   ab"`},
	{src: `local t = {5, 4, 3, 2, 1, 6, 7, 8, 9, 10, 11, 12} table.sort(t, function(a, b) return true end) return t`,
		want: `(error) ERR user_script:1: invalid order function for sorting script: <sha>, on @user_script:1.`},
	{src: `local t = {3, 1, 2} table.sort(t, function(a, b) return true end) return t`, want: `1) (integer) 1 2) (integer) 2 3) (integer) 3`},
	{src: `local t = {5, 3, 9, 1, 7, 2, 8, 4, 6, 10, 3} table.sort(t, function(a, b) return a > b end) return t`,
		want: `1) (integer) 10 2) (integer) 9 3) (integer) 8 4) (integer) 7 5) (integer) 6 6) (integer) 5 7) (integer) 4 8) (integer) 3 9) (integer) 3 10) (integer) 2 11) (integer) 1`},
	{src: `local t = {'b', 'c', 'a'} table.sort(t) return t`, want: `1) "a" 2) "b" 3) "c"`},
	{src: `local t = {3, 'a', 1} table.sort(t) return t`, want: `(error) ERR attempt to compare string with number script: <sha>, on @user_script:1.`},
	{src: `table.sort({{}, {}})`, want: `(error) ERR attempt to compare two table values script: <sha>, on @user_script:1.`},
	{src: `table.sort({2, 1}, 1)`, want: `(error) ERR user_script:1: bad argument #2 to 'sort' (function expected, got number) script: <sha>, on @user_script:1.`},
	{src: `return tonumber({}, 16)`, want: `(error) ERR user_script:1: bad argument #1 to 'tonumber' (string expected, got table) script: <sha>, on @user_script:1.`},
	{src: `return string.dump(1)`, want: `(error) ERR user_script:1: bad argument #1 to 'dump' (function expected, got number) script: <sha>, on @user_script:1.`},
	{src: `return string.dump(string.len)`, want: `(error) ERR user_script:1: unable to dump given function script: <sha>, on @user_script:1.`},
	// Redis dumps a Lua function's bytecode; the lab has none to give
	{src: `return string.dump(function() end)`, labOnly: true,
		want: `(error) ERR user_script:1: unable to dump given function script: <sha>, on @user_script:1.`},
	{src: `error({err=1})`, want: `(error) 1 script: <sha>, on @user_script:1.`},
	{src: `error({})`, crashes: true,
		want: `(error) ERR ` + errorTableCrashes + ` script: <sha>, on @user_script:1.`},
	{src: `error({err={}})`, crashes: true,
		want: `(error) ERR ` + errorTableCrashes + ` script: <sha>, on @user_script:1.`},
	{src: `error(setmetatable({}, {__tostring = function() return 'x' end}))`, crashes: true,
		want: `(error) ERR ` + errorTableCrashes + ` script: <sha>, on @user_script:1.`},
}
