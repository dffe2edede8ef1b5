package gradebook

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"locksim/class"

	gossh "golang.org/x/crypto/ssh"
)

// testKey is a fixed ed25519 key made from seed, its authorized_keys
// line, its SHA256: fingerprint, and its class id as serve computes one
// (serve/identity.go keyHash: the first 16 bytes of the SHA-256 of the
// key's wire form, in hex).
func testKey(t *testing.T, seed byte) (line, fingerprint, id string) {
	t.Helper()
	s := make([]byte, ed25519.SeedSize)
	s[0] = seed
	priv := ed25519.NewKeyFromSeed(s)
	pub, err := gossh.NewPublicKey(priv.Public())
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(pub.Marshal())
	return strings.TrimSpace(string(gossh.MarshalAuthorizedKey(pub))) + " student@laptop", gossh.FingerprintSHA256(pub), hex.EncodeToString(sum[:16])
}

func TestReadRoster(t *testing.T) {
	keyLine, fp, id := testKey(t, 1)
	_, fp2, id2 := testKey(t, 2)
	ro, err := ReadRoster(strings.NewReader("\ufeffName,E-mail,Login,LMS ID,SIS_ID,Section,SSH key,\n" +
		"Ada Lovelace,ada@example.edu,ada,101,S-1,A,\"" + keyLine + "\",\n" +
		"  Grace   Hopper ,grace@example.edu,,102,S-2,B,,\n" +
		"\n" +
		"Alan Turing,,alan,,,,\"" + fp2 + "\"\n" +
		"José Martínez,jose@example.edu,,,,,\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Student{
		{Line: 2, Name: "Ada Lovelace", Email: "ada@example.edu", Login: "ada", LMS: "101", SIS: "S-1", Section: "A", KeyID: id},
		{Line: 3, Name: "Grace Hopper", Email: "grace@example.edu", LMS: "102", SIS: "S-2", Section: "B"},
		{Line: 5, Name: "Alan Turing", Login: "alan", KeyID: id2},
		{Line: 6, Name: "José Martínez", Email: "jose@example.edu"},
	}
	if len(ro.Students) != len(want) {
		t.Fatalf("got %d students, want %d: %+v", len(ro.Students), len(want), ro.Students)
	}
	for i := range want {
		if ro.Students[i] != want[i] {
			t.Errorf("row %d:\n got %+v\nwant %+v", i, ro.Students[i], want[i])
		}
	}
	// the key's line and its fingerprint are one key
	if got, err := keyID(fp); err != nil || got != id {
		t.Errorf("keyID(%s) = %q, %v; want %q", fp, got, err, id)
	}
}

func TestReadRosterRefuses(t *testing.T) {
	keyLine, fp, _ := testKey(t, 1)
	for _, c := range []struct{ name, in, want string }{
		{"empty", "", "roster: the file is empty; its first row names the columns, name required"},
		{"no name column", "email,login\na@x,a\n", "roster: line 1 (the header): no name column"},
		{"unknown column", "name,grade\nAda,3\n", `roster: line 1 (the header): unknown column "grade"`},
		{"column twice", "name,email,E-Mail\nAda,a,b\n", `roster: line 1 (the header): column "E-Mail" says email again`},
		{"semicolons", "name;email\nAda;a@x\n", "roster: line 1 (the header): its columns are separated by ; or a tab"},
		{"no student", "name,email\n", "roster: no student"},
		{"row without a name", "name,email\nAda,a@x\n ,b@x\n", "roster: line 3: no name"},
		{"duplicate login", "name,login\nAda,ada\nBob,bob\nAda Two,ADA\n", "roster: line 4 (Ada Two): duplicate login: line 2 has it too"},
		{"duplicate email", "name,email\nAda,a@x\nBob,A@X\n", "roster: line 3 (Bob): duplicate email: line 2 has it too"},
		{"duplicate key", "name,ssh key\nAda,\"" + keyLine + "\"\nBob," + fp + "\n", "roster: line 3 (Bob): duplicate SSH key: line 2 has it too"},
		{"bad key", "name,ssh key\nAda,ssh-ed25519 AAAAnotakey\n", `roster: line 2 (Ada): bad SSH key "ssh-ed25519 AAAAnotakey"`},
		{"bad fingerprint", "name,fingerprint\nAda,SHA256:abc\n", `roster: line 2 (Ada): bad key fingerprint "SHA256:abc"`},
		{"non-UTF-8 byte", "name,email\nAda,a@x\nJos\xe9,j@x\n", "roster: line 3, column 1: a byte that is not UTF-8"},
		{"non-UTF-8 header", "n\xe4me\nAda\n", "roster: line 1 (the header), column 1: a byte that is not UTF-8"},
		{"bad quoting", "name\n\"Ada\n", "roster: parse error on line 2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ro, err := ReadRoster(strings.NewReader(c.in))
			if err == nil {
				t.Fatalf("read %+v, want the error %q", ro, c.want)
			}
			if !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q, want one line starting %q", err, c.want)
			}
		})
	}
}

func TestFold(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"José Martínez", "JOSE\u0301  martínez", true}, // NFD and NFC, case, spaces
		{"Straße", "STRASSE", true},                     // full case folding
		{"Ada Lovelace", "Ada Lovelac", false},
		{"Ada", "Ada\u200b", false}, // a zero-width space is a different name
	} {
		if got := class.FoldName(c.a) == class.FoldName(c.b); got != c.same {
			t.Errorf("FoldName(%q) == FoldName(%q) is %v, want %v", c.a, c.b, got, c.same)
		}
	}
}

// TestEnrolledRefs: a row is named in the class store's matches by hand
// by its first id (SIS, LMS, login, email, key), else by its name, a
// second row of one name by its place among them: no two rows alike.
func TestEnrolledRefs(t *testing.T) {
	line, _, id := testKey(t, 7)
	ro, err := ReadRoster(strings.NewReader("name,email,login,lms id,sis id,ssh key\n" +
		"Ada,,,,S-1,\nBea,,,L-2,,\nCal,,CAL,,,\nDee,Dee@X.edu,,,,\nEd,,,,,\"" + line + "\"\nFay,,,,,\nFAY,,,,,\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range ro.Enrolled() {
		got = append(got, r.Ref)
	}
	want := []string{"sis:S-1", "lms:L-2", "login:cal", "email:dee@x.edu", "key:" + id, "name:fay", "name:fay#2"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("refs %q, want %q", got, want)
	}
}
