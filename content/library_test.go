package content

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// libraries are the lock libraries the course names. A section that names
// one must name the version its sentences were checked against at least
// once (for example "redsync v4.18.1", "node-redlock (v4.2 and v5)").
var libraries = []string{"redis-py", "redsync", "bsm/redislock", "node-redlock", "redlock-rb", "Redisson", "BullMQ", "go-redis"}

// versioned matches a library's name followed, in the same sentence, by a
// version number.
func versioned(name string) *regexp.Regexp {
	return regexp.MustCompile(regexp.QuoteMeta(name) + `[^.;]*?\b(v\d+|\d+\.\d+)`)
}

// TestLibraryLinesNameTheirVersion: every section that says what a named
// library does names the version it is true of; references only link.
func TestLibraryLinesNameTheirVersion(t *testing.T) {
	t.Parallel()
	// compiled once: every section of every scene is matched against them
	named, withVersion := map[string]*regexp.Regexp{}, map[string]*regexp.Regexp{}
	for _, lib := range libraries {
		named[lib] = regexp.MustCompile(`(^|[^\w/-])` + regexp.QuoteMeta(lib) + `\b`)
		withVersion[lib] = versioned(lib)
	}
	for id, txt := range allTexts(t) {
		for section, body := range txt {
			if section == "references" {
				continue
			}
			for _, lib := range libraries {
				// the regexp, dear under -race, only where the name is
				// in the text at all
				if strings.Contains(body, lib) && named[lib].MatchString(body) && !withVersion[lib].MatchString(body) {
					t.Errorf("%s/%s names %s without a version: %q", id, section, lib, body)
				}
			}
		}
	}
}

// TestLibraryFacts: what each library sends and does, as its source at the
// named version shows, stays said; the claims found false stay gone.
func TestLibraryFacts(t *testing.T) {
	texts := allTexts(t)
	for _, c := range []struct{ id, section, want string }{
		// go-redis sends EX for whole seconds: redsync's default 8 s expiry
		{"race", "library", "SET key token EX 8 NX"},
		// node-redlock and redlock-rb: EXISTS, then SET PX with no NX
		{"race", "library", "checks EXISTS and then sends SET key token PX ttl with no NX"},
		{"race", "library", "HINCRBY"},
		{"crash-gap", "library", "after checking EXISTS"},
		// the token is one argument away
		{"options", "library", "Lock.acquire(token=...)"},
		{"options", "library", "WithValue"},
		// fencing tokens from a library
		{"fencing", "library", "RFencedLock (since 3.19.0)"},
		{"fencing", "library", "Options.FenceKey"},
		// redsync's extend: 0 for a missing key, and a key re-created
		{"extend", "library", "answers 0 for a missing key"},
		{"extend", "library", "WithSetNXOnExtend"},
		{"extend", "library", "compares the token and then sends SET PX"},
		{"extend", "library", "refuses on the client side once its own recorded expiry has passed"},
		// go-redis's SET … IFEQ: no PX for expiration 0, and SetIFEQGet's
		// old value on a mismatch (sim's TestFormsAgainstAServerThatHasThem
		// runs both on Redis 8.6 and Valkey 9.1)
		{"extend", "library", "expiration 0 sends no PX: the TTL is dropped"},
		{"extend", "library", "SetIFEQGet's doc comment says nil on a mismatch"},
		{"extend", "recap", "without PX it drops the TTL"},
		// validity left at zero
		{"redlock", "library", "v5 hands it back anyway"},
		{"redlock", "library", "redlock-rb accepts a validity of exactly 0"},
		{"redlock", "library", "ContextTimeoutEnabled"},
		{"redlock", "library", "deprecated since 3.25.0"},
		// BullMQ's lock is a key; the score is EchoMQ's
		{"claim-lease", "library", "SET <job>:lock token PX lockDuration"},
		{"claim-lease", "library", "EchoMQ keeps the lease as a score"},
		// where tokens are taught: seeded here, random bytes in a library
		{"race", "intro", "seeded by -seed"},
		{"race", "intro", "16 to 20 random bytes from a cryptographic source"},
		{"race", "library", "16 random bytes"},
		{"release", "library", "seeded source"},
		// the per-node timeout is named as one
		{"redlock", "start", "a per-node timeout of {timeout}"},
		// antirez's side, stated, not only linked
		{"redlock", "recap", "slew clocks"},
		{"redlock", "recap", "reads its clock again after the last SET"},
		{"redlock", "recap", "a random token that the resource checks and sets"},
		// the lesson that shows it names it
		{"gc-pause", "intro", "the lock is advisory"},
		// situation 8 says the service can check tokens
		{"choose", "assume-8", "can be changed to check a token"},
	} {
		if got := texts[c.id].Get(c.section); !strings.Contains(got, c.want) {
			t.Errorf("%s/%s lacks %q: %q", c.id, c.section, c.want, got)
		}
	}
	gone := regexp.MustCompile(`(?i)every (redis )?lock library acquires|(^|[.:] )(redis )?lock libraries hand out no fencing token|` +
		`no (redis )?lock library hands out|always sends NX and PX|Libraries do not let you drop|` +
		`send SET NX PX to every node|due in one ms|completed \{lock\} with attempts \{fence\}, but`)
	// a line gone holds one of these words, in any case: the regexp
	// (dear under -race, over every section) reads only a section that
	// has one
	keys := []string{"lock library acquires", "lock libraries hand out no fencing token", "lock library hands out", "always sends nx and px",
		"libraries do not let you drop", "send set nx px to every node", "due in one ms", "completed {lock} with attempts {fence}, but"}
	for id, txt := range texts {
		for section, body := range txt {
			lower := strings.ToLower(body)
			if !slices.ContainsFunc(keys, func(k string) bool { return strings.Contains(lower, k) }) {
				continue
			}
			if m := gone.FindString(body); m != "" {
				t.Errorf("%s/%s still says %q", id, section, m)
			}
		}
	}
}

// allTexts loads every embedded text, the shared sentences included.
func allTexts(t *testing.T) map[string]Text {
	t.Helper()
	entries, err := files.ReadDir("text")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Text{}
	for _, e := range entries {
		id := strings.TrimSuffix(e.Name(), ".txt")
		if sharedFile(e.Name()) && id != Shared {
			continue // more of the shared sentences, loaded as Shared
		}
		txt, err := Load(id)
		if err != nil {
			t.Fatal(err)
		}
		out[id] = txt
	}
	return out
}
