package sim

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// The one-command forms of compare-and-delete and compare-and-set a server
// may lack, by the name a setting and a refusal give them.
const (
	OneDelex   = "DELEX … IFEQ"  // Redis 8.4 (db.c delexCommand); Valkey 9.1 has no DELEX
	OneDelexD  = "DELEX … IFDEQ" // Redis 8.4 only: Valkey's DELEX has no digest forms
	OneDelifeq = "DELIFEQ"       // Valkey 9.0 (t_string.c delifeqCommand)
	OneDigest  = "DIGEST"        // Redis 8.4 (t_string.c digestCommand)
	OneSetIfeq = "SET … IFEQ"    // Redis 8.4, Valkey 8.1 (t_string.c setGenericCommand)
	OneSetIfdq = "SET … IFDEQ"   // Redis 8.4
	OneSetIfne = "SET … IFNE"    // Redis 8.4 (set.json's history); Valkey's SET has IFEQ only
)

// OneCommandForms lists every form Forms looks for, in a fixed order.
func OneCommandForms() []string {
	return []string{OneDelex, OneDelexD, OneDelifeq, OneDigest, OneSetIfeq, OneSetIfdq, OneSetIfne}
}

// since names the first releases with each form, as a refusal says it,
// from the servers' own command files (src/commands/*.json of Redis 8.6.3
// and Valkey 9.1.2: set.json's IFEQ since 8.1.0 in Valkey and 8.4.0 in
// Redis, delifeq.json 9.0.0 in Valkey only, delex.json and digest.json and
// SET's IFNE and IFDEQ 8.4.0 in Redis only); the slow tier's
// TestRefusalsNameTheReleasesOfTheCommandFiles reads them again.
func since(form string) string {
	switch form {
	case OneDelifeq:
		return "Valkey 9.0 or later"
	case OneSetIfeq:
		return "Redis 8.4 or later, or Valkey 8.1 or later"
	}
	return "Redis 8.4 or later"
}

// FormSupport is what a server has of the one-command forms.
type FormSupport struct {
	// Server is the server's name and version from INFO ("Redis 7.0.15",
	// "Valkey 9.0.0"), "the embedded server", or "this server" when INFO
	// would not say.
	Server string
	Has    map[string]bool // by form, every form of OneCommandForms
}

// Refusal is the one line that turns down a setting needing form on this
// server, "" when the server has it: "DELIFEQ needs Valkey 9.0 or later;
// this server is Redis 7.0.15".
func (f FormSupport) Refusal(form string) string {
	if f.Has[form] {
		return ""
	}
	return fmt.Sprintf("%s needs %s; this server is %s", form, since(form), f.Server)
}

// FormSupport is what Forms found when the live backend opened (see
// OpenLive), so a setting can be checked without a command; the embedded
// server has every form.
func (b *Backend) FormSupport() FormSupport {
	if b.mr != nil {
		f, _ := b.Forms(context.Background()) // the embedded server: no command is sent
		return f
	}
	if b.forms.Has == nil {
		return FormSupport{Server: "this server", Has: map[string]bool{}}
	}
	return b.forms
}

// Forms finds which one-command forms the server has. The embedded server
// (locksim's patched miniredis) has them all. On a live server the
// commands are asked of COMMAND INFO DELEX DELIFEQ DIGEST (nil for a
// command the server lacks), and SET's and DELEX's options are tried on
// the run's own key under its prefix, where a syntax error means the
// server lacks the option: SET … IFEQ and SET … IFDEQ on the missing key
// (they never create one), SET … IFNE with a TTL (it makes the key), DELEX … IFDEQ on a key holding "1" with a digest
// it cannot match. It deletes that key. Errors are one line: a refused
// COMMAND names the ACL, any other error than the syntax error the server.
func (b *Backend) Forms(ctx context.Context) (FormSupport, error) {
	f := FormSupport{Server: "the embedded server", Has: map[string]bool{}}
	if b.mr != nil {
		for _, form := range OneCommandForms() {
			f.Has[form] = true
		}
		return f, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 3*b.Timeout+2*time.Second)
	defer cancel()
	c := b.admin
	f.Server = "this server"
	for _, form := range OneCommandForms() {
		f.Has[form] = false
	}
	if info, err := c.Info(ctx, "server").Result(); err == nil {
		if name, version, ok := serverVersion(info); ok {
			f.Server = name + " " + version
		}
	} else if !isNoPerm(err) {
		return f, b.explain(err)
	}

	cmds, err := c.Do(ctx, "COMMAND", "INFO", "DELEX", "DELIFEQ", "DIGEST").Slice()
	if isNoPerm(err) {
		// a user the ACL keeps from COMMAND INFO: the forms are taken as
		// missing, and the refusal says why
		f.Server += " (its ACL refuses COMMAND INFO, so locksim cannot tell)"
		return f, nil
	}
	if err != nil {
		return f, fmt.Errorf("COMMAND INFO, which tells which forms the server has: %w", b.explain(err))
	}
	if len(cmds) != 3 {
		return f, fmt.Errorf("COMMAND INFO DELEX DELIFEQ DIGEST answered %d entries, not 3", len(cmds))
	}
	delex := cmds[0] != nil
	f.Has[OneDelex], f.Has[OneDelifeq], f.Has[OneDigest] = delex, cmds[1] != nil, cmds[2] != nil

	k := b.Key("forms")
	defer c.Del(context.WithoutCancel(ctx), k)
	// an option the server does not know is a syntax error; one it knows
	// answers nil on the missing key
	try := func(args ...any) (bool, error) {
		err := c.Do(ctx, args...).Err()
		switch {
		case err == nil, errors.Is(err, redis.Nil):
			return true, nil
		case strings.HasPrefix(err.Error(), "ERR syntax error"):
			return false, nil
		}
		return false, fmt.Errorf("%s, tried to learn whether the server has %s: %w", args[0], args[len(args)-2], b.explain(err))
	}
	if f.Has[OneSetIfeq], err = try("SET", k, "1", "IFEQ", "locksim"); err != nil {
		return f, err
	}
	if f.Has[OneSetIfdq], err = try("SET", k, "1", "IFDEQ", "0000000000000000"); err != nil {
		return f, err
	}
	// IFNE makes the missing key: a TTL keeps a probe cut short from
	// leaving it for long (the deferred DEL removes it)
	if f.Has[OneSetIfne], err = try("SET", k, "1", "PX", 60000, "IFNE", "locksim"); err != nil {
		return f, err
	}
	if delex {
		// Redis looks the key up before it reads the condition, so the
		// probe needs a key; Valkey's DELEX has no IFDEQ
		if err := c.Set(ctx, k, "1", time.Minute).Err(); err != nil {
			return f, b.explain(err)
		}
		err := c.Do(ctx, "DELEX", k, "IFDEQ", "0000000000000000").Err()
		f.Has[OneDelexD] = err == nil
		if err != nil && !strings.HasPrefix(err.Error(), "ERR") {
			return f, fmt.Errorf("DELEX, tried to learn whether the server has IFDEQ: %w", b.explain(err))
		}
	}
	return f, nil
}
