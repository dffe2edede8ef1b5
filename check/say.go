package check

import (
	"strconv"
	"strings"
	"sync"

	"locksim/content"
)

// sentences are the checker's lines in the course text
// (content/text/check.txt), loaded once: the text is embedded and never
// changes while the program runs. Were it missing, each line would read
// "[no text: …]", which the tests catch. Loaded on first use, not at start,
// and without the shared sentences, which no line of the checker reads
// (laid under it, they were a fiftieth of a -plain start).
var sentences = sync.OnceValue(func() content.Text {
	t, _ := content.LoadOwn("check")
	return t
})

// sentence is one line on what f means for h: the model's own line when
// it has one for f, else its -na, -bad or -ok line.
func sentence(h History, f Finding) string {
	if f.Result == Unknown {
		return sentences().Get("unknown")
	}
	vars := map[string]string{"n": strconv.Itoa(f.Refused)}
	if f.At >= 0 {
		vars["op"], vars["at"], vars["actor"] = f.Op.Who(), stamp(f.Op.Call), f.Op.Actor
		vars["holder"] = h.holderBefore(f.At)
	}
	if f.Model.line != nil {
		if name := f.Model.line(h, f); name != "" {
			return fill(name, vars)
		}
	}
	switch f.Result {
	case NotApplicable:
		return sentences().Get(f.Model.text + "-na")
	case NotLinearizable:
		return fill(f.Model.text+"-bad", vars)
	}
	return sentences().Get(f.Model.text + "-ok")
}

// holderBefore is the client that held op at's lock in the client's mutex
// just before it: the latest other client granted it that had not let go.
func (h History) holderBefore(at int) string {
	target := h.Ops[at]
	holder := ""
	for _, op := range h.Ops[:at] {
		switch {
		case op.Kind == Acquire && op.Outcome == Granted && !op.Part && op.Lock == target.Lock:
			holder = op.Actor
		case op.Ends && op.Actor == holder && (op.Lock == target.Lock || op.Kind == Crash):
			holder = ""
		}
	}
	return holder
}

// fill is content.Text.Fill for the checker's few slots, without building
// a replacer each time: the trials say a sentence for every broken trial.
func fill(name string, vars map[string]string) string {
	src := sentences().Get(name)
	var b strings.Builder
	for {
		i := strings.IndexByte(src, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(src[i:], '}')
		if j < 0 {
			break
		}
		v, ok := vars[src[i+1:i+j]]
		if !ok {
			v = src[i : i+j+1] // a slot with no value shows, as Fill leaves it
		}
		b.WriteString(src[:i])
		b.WriteString(v)
		src = src[i+j+1:]
	}
	b.WriteString(src)
	return b.String()
}
