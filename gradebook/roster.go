// Package gradebook ties a class's students to the school's records and
// writes their scores in the shapes a learning management system imports:
// a roster (Roster, from -roster FILE), the teacher's scoring (Scoring,
// from -scoring FILE), and the gradebook files for Canvas and Moodle
// (Write). It reads the class's rows (class.Member) and never writes them.
package gradebook

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"locksim/class"

	gossh "golang.org/x/crypto/ssh"
)

// Student is one row of a roster: who the school says a student is.
type Student struct {
	// Line is the row's line in the roster file, 1 for the header.
	Line int
	// Name is the student's name as the school writes it ("Ada
	// Lovelace"); required.
	Name string
	// Email and Login are the student's address and user name at the
	// school (Canvas's SIS Login ID, Moodle's email or username).
	Email, Login string
	// LMS is the student's id in the LMS (Canvas's ID), SIS in the
	// school's information system (Canvas's SIS User ID, Moodle's ID
	// number).
	LMS, SIS string
	// Section is the student's section (Canvas's Section).
	Section string
	// KeyID is the class id of the student's SSH key (the first 16 bytes
	// of the SHA-256 of its wire form, in hex, as serve names a key), ""
	// for a row without one.
	KeyID string
}

// Roster is a class's students as the school lists them, in the file's
// order.
type Roster struct {
	Students []Student
}

// columns are the header names a roster may use, by the field they fill:
// a header cell is read lower case, with spaces, hyphens and underscores
// alike, so "SIS ID", "sis_id" and "sis-id" are one column.
var columns = map[string]string{
	"name": "name", "student": "name", "full name": "name",
	"email": "email", "email address": "email", "e mail": "email",
	"login": "login", "username": "login", "user name": "login", "sis login id": "login",
	"lms id": "lms", "lms": "lms", "canvas id": "lms", "id": "lms",
	"sis id": "sis", "sis": "sis", "sis user id": "sis", "id number": "sis", "idnumber": "sis",
	"section": "section",
	"ssh key": "key", "key": "key", "public key": "key", "ssh public key": "key",
	"fingerprint": "key", "ssh fingerprint": "key", "key fingerprint": "key",
}

func headerName(s string) string {
	s = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(s, "\ufeff")))
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '-' || r == '_' }), " ")
}

// ReadRoster reads a roster: a CSV file (RFC 4180; a UTF-8 byte order
// mark is allowed) whose first row names its columns (see columns: name
// is required; email, login, LMS id, SIS id, section and SSH key or
// fingerprint are not), then one row per student. Its error is one line
// naming the row it refuses: a header without a name column or with a
// column twice or one it does not know, a row without a name, a byte that
// is not UTF-8, a key that does not parse, a login, email, LMS id, SIS id
// or key that an earlier row has, or no student at all.
func ReadRoster(r io.Reader) (*Roster, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("roster: the file is empty; its first row names the columns, name required")
	}
	if err != nil {
		return nil, fmt.Errorf("roster: %w", err)
	}
	index := map[string]int{}
	for i, h := range header {
		if !utf8.ValidString(h) {
			return nil, fmt.Errorf("roster: line 1 (the header), column %d: a byte that is not UTF-8 (save the file as UTF-8)", i+1)
		}
		f, ok := columns[headerName(h)]
		switch {
		case headerName(h) == "":
			continue // an empty column, as a spreadsheet's trailing comma leaves
		case !ok && len(header) == 1 && strings.ContainsAny(h, ";\t"):
			return nil, errors.New("roster: line 1 (the header): its columns are separated by ; or a tab: save the file as CSV with commas")
		case !ok:
			return nil, fmt.Errorf("roster: line 1 (the header): unknown column %q (name, email, login, lms id, sis id, section, ssh key)", h)
		}
		if _, dup := index[f]; dup {
			return nil, fmt.Errorf("roster: line 1 (the header): column %q says %s again", h, f)
		}
		index[f] = i
	}
	if _, ok := index["name"]; !ok {
		return nil, errors.New("roster: line 1 (the header): no name column (the header names the columns: name, then any of email, login, lms id, sis id, section, ssh key)")
	}
	ro := &Roster{}
	seen := map[string]int{} // field + value → the line that had it
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("roster: %w", err)
		}
		line, _ := cr.FieldPos(0)
		for i, f := range rec {
			if !utf8.ValidString(f) {
				return nil, fmt.Errorf("roster: line %d, column %d: a byte that is not UTF-8 (save the file as UTF-8)", line, i+1)
			}
		}
		get := func(f string) string {
			if i, ok := index[f]; ok && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		if strings.Join(rec, "") == "" {
			continue // a blank row
		}
		s := Student{Line: line, Name: strings.Join(strings.Fields(get("name")), " "), Email: get("email"),
			Login: get("login"), LMS: get("lms"), SIS: get("sis"), Section: get("section")}
		if s.Name == "" {
			return nil, fmt.Errorf("roster: line %d: no name", line)
		}
		if k := get("key"); k != "" {
			id, err := keyID(k)
			if err != nil {
				return nil, fmt.Errorf("roster: line %d (%s): %v", line, s.Name, err)
			}
			s.KeyID = id
		}
		for _, u := range []struct{ what, v string }{{"login", strings.ToLower(s.Login)}, {"email", strings.ToLower(s.Email)},
			{"LMS id", s.LMS}, {"SIS id", s.SIS}, {"SSH key", s.KeyID}} {
			if u.v == "" {
				continue
			}
			if prev, ok := seen[u.what+"\x00"+u.v]; ok {
				return nil, fmt.Errorf("roster: line %d (%s): duplicate %s: line %d has it too", line, s.Name, u.what, prev)
			}
			seen[u.what+"\x00"+u.v] = line
		}
		ro.Students = append(ro.Students, s)
	}
	if len(ro.Students) == 0 {
		return nil, errors.New("roster: no student: after the header, one row per student")
	}
	return ro, nil
}

// keyID is the class id of a roster's key cell: an authorized_keys line
// ("ssh-ed25519 AAAA… comment") or the key's SHA-256 fingerprint as
// ssh-keygen -l prints it ("SHA256:…", unpadded base64).
func keyID(cell string) (string, error) {
	if b64, ok := strings.CutPrefix(cell, "SHA256:"); ok {
		sum, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(b64, "="))
		if err != nil || len(sum) != sha256.Size {
			return "", fmt.Errorf("bad key fingerprint %q: want SHA256: and 43 base64 characters, as ssh-keygen -lf KEY prints", short(cell))
		}
		return hex.EncodeToString(sum[:16]), nil
	}
	k, _, _, _, err := gossh.ParseAuthorizedKey([]byte(cell))
	if err != nil {
		return "", fmt.Errorf("bad SSH key %q: want a public key line (ssh-ed25519 AAAA…) or its SHA256: fingerprint", short(cell))
	}
	sum := sha256.Sum256(k.Marshal())
	return hex.EncodeToString(sum[:16]), nil
}

// short is a cell cut for an error line.
func short(s string) string {
	if utf8.RuneCountInString(s) > 24 {
		return string([]rune(s)[:24]) + "…"
	}
	return s
}

// Enrolled are the roster's rows as the class ties its students to them
// (class.TieAll), in the file's order. A row's Ref, which names it in the
// class store's matches by hand, is the first of its SIS id, LMS id,
// login, email or key it has, so a match outlives a restart and an
// edited file while the row keeps that id; a row with none of them is
// named by its name (and, for a second row of one name, its place among
// them).
func (ro *Roster) Enrolled() []class.Enrolled {
	out := make([]class.Enrolled, 0, len(ro.Students))
	named := map[string]int{}
	for _, s := range ro.Students {
		ref := ""
		for _, id := range []struct{ kind, v string }{{"sis", s.SIS}, {"lms", s.LMS}, {"login", strings.ToLower(s.Login)},
			{"email", strings.ToLower(s.Email)}, {"key", s.KeyID}} {
			if id.v != "" {
				ref = id.kind + ":" + id.v
				break
			}
		}
		if ref == "" {
			n := class.FoldName(s.Name)
			named[n]++
			ref = "name:" + n
			if named[n] > 1 {
				ref += "#" + strconv.Itoa(named[n])
			}
		}
		var label []string
		for _, v := range []string{s.Login, s.SIS, s.Section} {
			if v != "" {
				label = append(label, v)
			}
		}
		if len(label) == 0 && s.Email != "" {
			label = append(label, s.Email)
		}
		out = append(out, class.Enrolled{Ref: ref, Name: s.Name, Line: s.Line, KeyID: s.KeyID, Label: strings.Join(label, " · ")})
	}
	return out
}
