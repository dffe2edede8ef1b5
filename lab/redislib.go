package lab

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"math"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// Redis 7's messages for what a script's redis.call gets wrong, as its
// script engine (script_lua.c) words them: the server's own words for an
// unknown command or a wrong count of arguments are not what a script
// sees.
const (
	msgNoArgs        = "ERR Please specify at least one argument for this redis lib call"
	msgBadArg        = "ERR Lua redis lib command arguments must be strings or integers"
	msgUnknownCmd    = "ERR Unknown Redis command called from script"
	msgWrongArity    = "ERR Wrong number of args calling Redis command from script"
	msgNoGlobal      = "Script attempted to access nonexistent global variable '%s'"
	msgSha1hexArgs   = "ERR wrong number of arguments"
	scriptChunkName  = "user_script"
	redisVersion     = "7.0.15"
	redisVersionNum  = 0x07000f
	unprovidedFormat = "the lab does not provide %s; Redis 7 does"
)

// scriptReplyError is how Redis 7 words a command's error reply inside a
// script: an unknown command and a wrong count of arguments in the
// script engine's words, anything else as the server sent it.
func scriptReplyError(msg string) string {
	switch {
	case strings.HasPrefix(msg, "ERR unknown command"):
		return msgUnknownCmd
	case strings.HasPrefix(msg, "ERR wrong number of arguments for"):
		return msgWrongArity
	}
	return msg
}

// raiseReply raises an error reply as Redis 7's redis.call does: a table
// {err = msg}, which ends the script with msg as its error (in the
// envelope of ScriptError.Reply), with no position in the message.
func raiseReply(L *lua.LState, msg string) {
	t := L.CreateTable(0, 1)
	t.RawSetString("err", lua.LString(msg))
	L.Error(t, 0)
}

// openRedisLib adds to r what Redis 7's redis table has besides call and
// pcall: error_reply, status_reply, sha1hex, log and its levels, the
// version, setresp (RESP2 only: the lab's replies are RESP2); and to g,
// the bit library and the libraries the lab leaves out (cjson, cmsgpack,
// struct) as tables whose functions say so.
func openRedisLib(h *Host, L *lua.LState, g, r *lua.LTable) {
	r.RawSetString("error_reply", L.NewFunction(func(L *lua.LState) int {
		// as Redis 7: a leading '-' dropped; a message of one word is
		// the text of an ERR, more than one word starts with its code
		msg := strings.TrimPrefix(L.CheckString(1), "-")
		h.charge(L, len(msg)+4) // the reply's copy, "ERR " in front
		if !strings.Contains(msg, " ") {
			msg = "ERR " + msg
		}
		t := L.CreateTable(0, 1)
		t.RawSetString("err", lua.LString(msg))
		L.Push(t)
		return 1
	}))
	r.RawSetString("status_reply", L.NewFunction(func(L *lua.LState) int {
		t := L.CreateTable(0, 1)
		t.RawSetString("ok", lua.LString(L.CheckString(1)))
		L.Push(t)
		return 1
	}))
	r.RawSetString("sha1hex", L.NewFunction(func(L *lua.LState) int {
		if L.GetTop() != 1 {
			raiseReply(L, msgSha1hexArgs)
		}
		s := ""
		if v := L.Get(1); lua.LVCanConvToString(v) {
			s = lua.LVAsString(v)
		}
		sum := sha1.Sum([]byte(s))
		L.Push(lua.LString(hex.EncodeToString(sum[:])))
		return 1
	}))
	r.RawSetString("log", L.NewFunction(func(*lua.LState) int { return 0 }))
	for k, v := range map[string]int{"LOG_DEBUG": 0, "LOG_VERBOSE": 1, "LOG_NOTICE": 2, "LOG_WARNING": 3} {
		r.RawSetString(k, lua.LNumber(v))
	}
	r.RawSetString("REDIS_VERSION", lua.LString(redisVersion))
	r.RawSetString("REDIS_VERSION_NUM", lua.LNumber(redisVersionNum))
	r.RawSetString("setresp", L.NewFunction(func(L *lua.LState) int {
		if n := L.CheckInt(1); n != 2 {
			raiseReply(L, "ERR the lab's scripts speak RESP2 only")
		}
		return 0
	}))
	g.RawSetString("bit", openBit(L))
	for lib, fns := range map[string][]string{
		"cjson":    {"encode", "decode", "encode_keep_buffer", "encode_max_depth", "decode_max_depth", "encode_number_precision", "encode_sparse_array", "encode_invalid_numbers", "decode_invalid_numbers", "decode_array_with_array_mt"},
		"cmsgpack": {"pack", "unpack", "unpack_one", "unpack_limit"},
		"struct":   {"pack", "unpack", "size"},
	} {
		t := L.CreateTable(0, len(fns))
		msg := fmt.Sprintf(unprovidedFormat, lib)
		raise := L.NewFunction(func(L *lua.LState) int {
			L.RaiseError("%s", msg)
			return 0
		})
		for _, f := range fns {
			t.RawSetString(f, raise)
		}
		g.RawSetString(lib, t)
	}
}

// openBit is LuaBitOp 1.0.2's bit library, which Redis 7 bundles:
// numbers taken modulo 2^32 (a fraction rounded to even) and results as
// signed 32-bit integers.
func openBit(L *lua.LState) *lua.LTable {
	arg := func(L *lua.LState, n int) uint32 {
		f := float64(L.CheckNumber(n))
		return uint32(int64(math.RoundToEven(math.Mod(f, 1<<32))))
	}
	ret := func(L *lua.LState, v uint32) int {
		L.Push(lua.LNumber(int32(v)))
		return 1
	}
	fold := func(op func(a, b uint32) uint32) lua.LGFunction {
		return func(L *lua.LState) int {
			v := arg(L, 1)
			for i := 2; i <= L.GetTop(); i++ {
				v = op(v, arg(L, i))
			}
			return ret(L, v)
		}
	}
	shift := func(op func(v uint32, n uint) uint32) lua.LGFunction {
		return func(L *lua.LState) int {
			return ret(L, op(arg(L, 1), uint(arg(L, 2)&31)))
		}
	}
	t := L.CreateTable(0, 12)
	for name, f := range map[string]lua.LGFunction{
		"tobit":   func(L *lua.LState) int { return ret(L, arg(L, 1)) },
		"bnot":    func(L *lua.LState) int { return ret(L, ^arg(L, 1)) },
		"band":    fold(func(a, b uint32) uint32 { return a & b }),
		"bor":     fold(func(a, b uint32) uint32 { return a | b }),
		"bxor":    fold(func(a, b uint32) uint32 { return a ^ b }),
		"lshift":  shift(func(v uint32, n uint) uint32 { return v << n }),
		"rshift":  shift(func(v uint32, n uint) uint32 { return v >> n }),
		"arshift": shift(func(v uint32, n uint) uint32 { return uint32(int32(v) >> n) }),
		"rol":     shift(func(v uint32, n uint) uint32 { return v<<n | v>>(32-n) }),
		"ror":     shift(func(v uint32, n uint) uint32 { return v>>n | v<<(32-n) }),
		"bswap": func(L *lua.LState) int {
			v := arg(L, 1)
			return ret(L, v>>24|v>>8&0xff00|v<<8&0xff0000|v<<24)
		},
		"tohex": func(L *lua.LState) int {
			v, n := arg(L, 1), 8
			if L.GetTop() >= 2 {
				n = int(int32(arg(L, 2)))
			}
			digits := "0123456789abcdef"
			if n < 0 {
				n, digits = -n, "0123456789ABCDEF"
			}
			n = min(n, 8)
			b := make([]byte, n)
			for i := n - 1; i >= 0; i-- {
				b[i] = digits[v&15]
				v >>= 4
			}
			L.Push(lua.LString(b))
			return 1
		},
	} {
		t.RawSetString(name, L.NewFunction(f))
	}
	return t
}
