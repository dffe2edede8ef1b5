package lab

import (
	"strings"
	"testing"
	"time"
)

// TestLint: each kind of dead code the search cannot see gets one note on
// its line, and code that reads right gets none.
func TestLint(t *testing.T) {
	cad := "if redis.call('GET', KEYS[1]) == ARGV[1] then\n  return redis.call('DEL', KEYS[1])\nend\nreturn 0\n"
	for _, c := range []struct {
		name    string
		release string
		want    []string // each a note's line prefix and a word of its text; none: no note
	}{
		{"compare-and-delete", cad, nil},
		{"v == nil after GET", "local v = redis.call('GET', KEYS[1])\nif v == nil or v == ARGV[1] then\n  return redis.call('DEL', KEYS[1])\nend\nreturn 0\n",
			[]string{"release.lua:2: v == nil never holds"}},
		{"a reply ~= nil", "if redis.call('GET', KEYS[1]) ~= nil then return 1 end\nreturn 0\n",
			[]string{"release.lua:1: redis.call('GET', …) ~= nil always holds"}},
		{"nil on the left", "local v = redis.call('GET', KEYS[1])\nif nil == v then return 0 end\nreturn 1\n",
			[]string{"release.lua:2: v == nil never holds"}},
		{"not v reads right", "local v = redis.call('GET', KEYS[1])\nif not v then return 0 end\nreturn 1\n", nil},
		{"tonumber against ARGV", "if tonumber(redis.call('GET', KEYS[1])) == ARGV[1] then\n  return redis.call('DEL', KEYS[1])\nend\nreturn 0\n",
			[]string{"release.lua:1: tonumber(redis.call('GET', …)) == ARGV[1] never holds: it compares a number with a string"}},
		{"GET against tonumber", "local v = redis.call('GET', KEYS[1])\nif v == tonumber(ARGV[1]) then\n  return redis.call('DEL', KEYS[1])\nend\nreturn 0\n",
			[]string{"release.lua:2: v == tonumber(ARGV[1]) never holds"}},
		{"both sides numbers", "if tonumber(redis.call('GET', KEYS[1])) == tonumber(ARGV[1]) then return redis.call('DEL', KEYS[1]) end\nreturn 0\n", nil},
		{"a counter against a number", "local n = redis.call('INCR', KEYS[1])\nif n == 1 then return 1 end\nreturn 0\n", nil},
		{"a counter against ARGV", "local n = redis.call('INCR', KEYS[1])\nif n ~= ARGV[1] then return 1 end\nreturn 0\n",
			[]string{"release.lua:2: n ~= ARGV[1] always holds"}},
		{"reassigned, type unknown", "local v = redis.call('GET', KEYS[1])\nif v then v = tonumber(v) end\nif v == ARGV[1] then return 1 end\nreturn 0\n", nil},
		{"a syntax error is the search's", "if v == then return 1 end\n", nil},
		{"error with an empty table", "if redis.call('GET', KEYS[1]) ~= ARGV[1] then\n  error({})\nend\nreturn redis.call('DEL', KEYS[1])\n",
			[]string{"release.lua:2: error({…}) raises a table with no err string: this crashes redis-server 7.0.15: return redis.error_reply(...)"}},
		{"error with a table for err", "error({err = {}})\n", []string{"release.lua:1: error({…}) raises"}},
		{"error with a __tostring table", "error(setmetatable({}, {__tostring = function() return 'no' end}))\n", []string{"release.lua:1: error(setmetatable({…}, …)) raises"}},
		{"error with an err string is a reply", "error({err = 'NOTMINE the lock is not yours'})\n", nil},
		{"error with a string", "error('not mine')\n", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := Starter()
			l.Release = Part{Name: PartRelease, Lang: Lua, Src: c.release}
			notes := Lint(&l)
			if len(notes) != len(c.want) {
				t.Fatalf("got %d notes, want %d: %v", len(notes), len(c.want), notes)
			}
			for i, w := range c.want {
				if !strings.HasPrefix(notes[i].String(), w) {
					t.Errorf("note %d: %q, want it to start %q", i, notes[i], w)
				}
			}
		})
	}
}

// TestLintWatchdog: a watchdog period with no extend is a setting that
// does nothing; with an extend, or with no watchdog, there is no note.
func TestLintWatchdog(t *testing.T) {
	l := Starter()
	l.Extend = Part{Name: PartExtend}
	l.Policy.Watchdog = 10 * time.Second
	notes := Lint(&l)
	if len(notes) != 1 || notes[0].File != "lab.json" || !strings.Contains(notes[0].Text, "no extend") || !strings.Contains(notes[0].Text, "10s") {
		t.Fatalf("a watchdog with no extend should get one note on lab.json: %v", notes)
	}
	l.Extend = Part{Name: PartExtend, Lang: Lua, Src: "if redis.call('GET', KEYS[1]) == ARGV[1] then\n  return redis.call('PEXPIRE', KEYS[1], ARGV[2])\nend\nreturn 0\n"}
	if notes := Lint(&l); len(notes) != 0 {
		t.Errorf("a watchdog with an extend should get no note: %v", notes)
	}
	l.Extend, l.Policy.Watchdog = Part{Name: PartExtend}, 0
	if notes := Lint(&l); len(notes) != 0 {
		t.Errorf("no watchdog, no extend: no note, got %v", notes)
	}
}

// TestLintLevels: the levels' own locks, as shipped, carry no note but
// where a level's flaw is one (none today): a note on a shipped level
// would tell the learner the answer before the search does.
func TestLintLevels(t *testing.T) {
	for _, lv := range Levels() {
		if notes := Lint(&lv.Lock); len(notes) != 0 {
			t.Errorf("level %s: %v", lv.ID, notes)
		}
	}
}
