//go:build !race

package termtest

import (
	"crypto/ed25519"
	"crypto/rand"
	"testing"
)

// keyExchanges are the client's key exchanges: nil, x/crypto's defaults
// (see kex_race.go).
var keyExchanges []string

// newPrivateKey is a client key: ed25519, as students' keys mostly are.
func newPrivateKey() (any, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	return priv, err
}

// WriteHostKey writes nothing: the test's server makes its own ed25519
// host key at path (see kex_race.go).
func WriteHostKey(testing.TB, string) {}
