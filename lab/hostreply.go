package lab

import (
	"errors"

	"github.com/redis/go-redis/v9"
	lua "github.com/yuin/gopher-lua"
)

// toReply converts a script's return value as Redis does.
func toReply(L *lua.LState, v lua.LValue) (any, error) {
	switch t := v.(type) {
	case *lua.LNilType:
		return nil, redis.Nil
	case lua.LBool:
		if t {
			return int64(1), nil
		}
		return nil, redis.Nil
	case lua.LNumber:
		return int64(t), nil
	case lua.LString:
		return string(t), nil
	case *lua.LTable:
		if e := t.RawGetString("err"); e.Type() == lua.LTString {
			return nil, ErrorReply(clipError(e.String()))
		}
		if ok := t.RawGetString("ok"); ok.Type() == lua.LTString {
			return ok.String(), nil
		}
		var out []any
		for i := 1; ; i++ {
			e := t.RawGetInt(i)
			if e == lua.LNil {
				break
			}
			val, err := toReply(L, e)
			if err != nil && !errors.Is(err, redis.Nil) {
				val = err // an error inside an array stays an element
			}
			out = append(out, val)
		}
		if out == nil {
			out = []any{}
		}
		return out, nil
	}
	return nil, redis.Nil
}

// fromReply converts a command's reply into Lua as Redis does.
func fromReply(L *lua.LState, v any) lua.LValue {
	switch x := v.(type) {
	case nil:
		return lua.LFalse
	case int64:
		return lua.LNumber(x)
	case string:
		return lua.LString(x)
	case []any:
		t := L.CreateTable(len(x), 0)
		for i, e := range x {
			t.RawSetInt(i+1, fromReply(L, e))
		}
		return t
	}
	return lua.LFalse
}
