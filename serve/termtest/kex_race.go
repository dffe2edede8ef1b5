//go:build race

package termtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/pem"
	"os"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// Under the race detector the test clients make their handshakes with
// P-256 (the key exchange, and their keys): Go's P-256 is assembly, which
// the detector does not instrument, while x25519 and ed25519 are
// instrumented Go, and a handshake cost about twice as much CPU (a tenth
// of serve's quick tier). The server offers its defaults as ever, and a
// client that asks for them still gets them (TestKeyless dials with
// x/crypto's defaults: ML-KEM with x25519). Benchmarks, built without
// -race, keep the clients' defaults and ed25519.
var keyExchanges = []string{gossh.KeyExchangeECDHP256}

// newPrivateKey is a client key: P-256 (see keyExchanges).
func newPrivateKey() (any, error) { return ecdsa.GenerateKey(elliptic.P256(), rand.Reader) }

// WriteHostKey writes a P-256 host key to path for a test's server (see
// keyExchanges: the server signs each handshake with it, and an ed25519
// signature and its check are instrumented Go). A server with no key
// file makes its own ed25519 one, as TestHostKey checks.
func WriteHostKey(t testing.TB, path string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := gossh.MarshalPrivateKey(k, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
}
