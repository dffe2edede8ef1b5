package lab

import (
	"context"
	"net"
	"reflect"
	"testing"

	"github.com/redis/go-redis/v9"
	lua "github.com/yuin/gopher-lua"

	"locksim/sim/simtest"
)

// TestRestoreAgreesWithReplay: restoring saved state at every branch must
// find exactly what replaying every prefix from an empty server finds.
// The quick tier compares two levels, the slow tier the others.
func TestRestoreAgreesWithReplay(t *testing.T) {
	for _, lv := range Levels() {
		if !simtest.InTier(lv.ID == "get-then-del" || lv.ID == "setnx-expire") {
			continue
		}
		lock := lv.Lock
		lock.Policy.Properties = DefaultProperties()
		lock.Policy.Faults = AllFaults()
		lock.Policy.Bound.Faults = 1
		lock.Policy.Bound.Depth = 8
		a, err := Check(context.Background(), &lock, Options{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Check(context.Background(), &lock, Options{Replay: true})
		if err != nil {
			t.Fatal(err)
		}
		a.Elapsed, b.Elapsed = 0, 0
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: restoring and replaying disagree:\n%s\n%s", lv.ID, a.Summary(), b.Summary())
		}
	}
}

// benchSearch searches the GET-then-DEL lock with every fault in scope at
// the default bound (2 clients, 2 faults, depth 12): run with -cpu 1 for
// one core. It reports schedules per second.
func benchSearch(b *testing.B, o Options) {
	l, err := Load("testdata/getdel")
	if err != nil {
		b.Fatal(err)
	}
	l.Policy = DefaultPolicy()
	explored := 0
	for b.Loop() {
		rep, err := Check(context.Background(), l, o)
		if err != nil {
			b.Fatal(err)
		}
		explored += rep.Explored
	}
	b.ReportMetric(float64(explored)/b.Elapsed().Seconds(), "schedules/s")
}

func BenchmarkSearchRestore(b *testing.B) { benchSearch(b, Options{}) }
func BenchmarkSearchReplay(b *testing.B)  { benchSearch(b, Options{Replay: true}) }

// BenchmarkEval is one run of a compare-and-delete script in the host.
func BenchmarkEval(b *testing.B) {
	srv, err := NewServer()
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	h := NewHost(srv, DefaultBudget())
	defer h.Close()
	s, err := Compile(Part{Name: PartRelease, Lang: Lua, Src: releaseCAD})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := h.Eval(context.Background(), s, []string{LockKey}, []string{"t", "30000"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvalGoRedis is the same script sent by a go-redis client to
// the same embedded server, through a pipe of its own (the server listens
// on no port): miniredis's own EVAL, which builds a Lua state per call. The host's path (BenchmarkEval) is what the search
// uses.
func BenchmarkEvalGoRedis(b *testing.B) {
	srv, err := NewServer()
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	c := redis.NewClient(&redis.Options{
		Addr:            "lab:0", // never dialed: Dialer reaches the server
		Dialer:          func(context.Context, string, string) (net.Conn, error) { return srv.mr.Dial() },
		Protocol:        2,
		DisableIdentity: true,
	})
	defer c.Close()
	ctx := context.Background()
	for b.Loop() {
		if err := c.Eval(ctx, releaseCAD, []string{LockKey}, "t", "30000").Err(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSaveRestore is one save and one restore of a server holding
// the lock key, a fence counter and the resource's hash.
func BenchmarkSaveRestore(b *testing.B) {
	srv, err := NewServer()
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	_, _ = srv.Do("SET", LockKey, "token-A", "PX", "30000")
	_, _ = srv.Do("INCR", LockKey+":fence")
	_, _ = srv.Do("HSET", "resource:state", "value", "A's work", "writer", "A")
	for b.Loop() {
		st, err := srv.Save()
		if err != nil {
			b.Fatal(err)
		}
		srv.Restore(st)
	}
}

// loop33k is a legal script that spends two thirds of the budget: a
// 33 000-iteration loop.
const loop33k = "local n = 0\nfor i = 1, 33000 do n = n + i % 7 end\nreturn n"

// BenchmarkBudgetCost runs loop33k in the host, under the budget, and in
// a plain gopher-lua state with no budget at all: the difference is what
// the budget's accounting costs a legal script.
func BenchmarkBudgetCost(b *testing.B) {
	b.Run("budgeted", func(b *testing.B) {
		srv, err := NewServer()
		if err != nil {
			b.Fatal(err)
		}
		defer srv.Close()
		h := NewHost(srv, DefaultBudget())
		defer h.Close()
		s, err := Compile(Part{Name: PartAcquire, Lang: Lua, Src: loop33k})
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := h.Eval(context.Background(), s, nil, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("unbudgeted", func(b *testing.B) {
		L := lua.NewState()
		defer L.Close()
		fn, err := L.LoadString(loop33k)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			L.Push(fn)
			if err := L.PCall(0, 1, nil); err != nil {
				b.Fatal(err)
			}
			L.Pop(1)
		}
	})
}
