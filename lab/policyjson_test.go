package lab

import (
	"slices"
	"strings"
	"testing"
)

// TestPolicyErrorsInTheFilesWords: a bad lab.json is told by its field and
// what the field takes, or where the JSON stops, never in the decoder's
// words for Go types (policyJSON, int64, a struct field).
func TestPolicyErrorsInTheFilesWords(t *testing.T) {
	for _, c := range []struct{ json, want string }{
		{`{"ttl_ms": "30s"}`, "lab.json: ttl_ms must be a whole number, not a string"},
		{`{"bound": {"clients": "2"}}`, "lab.json: bound.clients must be a whole number, not a string"},
		{`{"faults": "crash"}`, "lab.json: faults must be a list of fault names (known: pause-half, pause-past, crash, lost-reply, clock-jump, restart), not a string"},
		{`{"properties": [1]}`, "lab.json: properties must be a list of property names (known: mutual-exclusion, resource-safety, no-foreign-release, deadlock-freedom, no-lease-wasted), not a number"},
		{`{"ttl": 1}`, `lab.json: unknown field "ttl" (known: ttl_ms, retries, retry_delay_ms, work_ms, watchdog_ms, retry_release, faults, bound (clients, faults, depth, max_schedules), properties)`},
		{`{"retries": true}`, "lab.json: retries must be a whole number, not true or false"},
		{`{"retry_release": "yes"}`, "lab.json: retry_release must be true or false, not a string"},
		{`{"retry_release": 1}`, "lab.json: retry_release must be true or false, not a number"},
		{`{"ttl_ms": 1.5}`, "lab.json: ttl_ms must be a whole number, not the number 1.5"},
		{`[]`, `lab.json: must be an object of fields ({"ttl_ms": 30000, ...}), not a list`},
		{``, "lab.json: empty or cut short: give an object, {} for the default policy"},
		{"{\n\"ttl_ms\": 30000,\n}", "lab.json: not valid JSON at line 3: invalid character '}' looking for beginning of object key string"},
	} {
		_, err := ParsePolicy([]byte(c.json))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.json, err, c.want)
		}
		if err != nil && (strings.Contains(err.Error(), "Go ") || strings.Contains(err.Error(), "policyJSON") || strings.Contains(err.Error(), "int64")) {
			t.Errorf("%s: %v names Go's types", c.json, err)
		}
	}
}

// TestRetryReleaseRoundTrips: retry_release and the opt-in
// no-lease-wasted survive lab.json as MarshalJSON writes it (a story code
// carries the policy so), and retry_release is left out when off, so a
// lab.json written before it reads the same.
func TestRetryReleaseRoundTrips(t *testing.T) {
	p := DefaultPolicy()
	p.RetryRelease = true
	p.Properties = append(p.Properties, NoLeaseWasted)
	data, err := p.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	q, err := ParsePolicy(data)
	if err != nil {
		t.Fatal(err)
	}
	if !q.RetryRelease || !slices.Contains(q.Properties, NoLeaseWasted) {
		t.Errorf("read back %+v from %s", q, data)
	}
	off, err := DefaultPolicy().MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(off), "retry_release") || strings.Contains(string(off), string(NoLeaseWasted)) {
		t.Errorf("the default policy writes %s", off)
	}
}
