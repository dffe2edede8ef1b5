package scenes

import (
	"fmt"
	"slices"

	"locksim/content"
)

// A quiz scene (Kind Quiz) sends no command: it asks about situations read
// from its course text and grades the answers against the key written
// there. The player shows one situation at a time, then the score.

// Class is what a lock is for: saving work, or keeping data right. The
// values are the quiz's choices, in the order of its choices section.
type Class int

const (
	Efficiency  Class = iota // a second holder only wastes work
	Correctness              // a second holder does harm
)

func (c Class) String() string { return [...]string{"efficiency", "correctness"}[c] }

// quizTools are the tools a situation's key may name: one SET NX PX,
// fencing tokens from a consensus system, or the database's own
// transactions and constraints.
var quizTools = []string{"setnx", "fencing", "database"}

// Situation is one question of a quiz and its key.
type Situation struct {
	Name, Text, Assumption string
	Class                  Class
	Tool                   string // one of quizTools; sections tool-<Tool> and short-<Tool> name it
	Why                    string
}

// Situations reads a quiz's Situations from its text: sections name-N,
// situation-N, assume-N, class-N, tool-N and why-N, for N from 1 on.
func Situations(t content.Text) ([]Situation, error) {
	var out []Situation
	for n := int64(1); t.Has("situation-" + itoa(n)); n++ {
		k := itoa(n)
		for _, part := range []string{"name", "assume", "class", "tool", "why"} {
			if !t.Has(part + "-" + k) {
				return nil, fmt.Errorf("situation %d has no %s-%d section", n, part, n)
			}
		}
		s := Situation{Name: t.Get("name-" + k), Text: t.Get("situation-" + k), Assumption: t.Get("assume-" + k),
			Tool: t.Get("tool-" + k), Why: t.Get("why-" + k)}
		switch t.Get("class-" + k) {
		case Efficiency.String():
		case Correctness.String():
			s.Class = Correctness
		default:
			return nil, fmt.Errorf("situation %d: class %q is neither efficiency nor correctness", n, t.Get("class-"+k))
		}
		if !slices.Contains(quizTools, s.Tool) || !t.Has("tool-"+s.Tool) || !t.Has("short-"+s.Tool) {
			return nil, fmt.Errorf("situation %d: tool %q is not one of %v, each named by tool-<tool> and short-<tool>", n, s.Tool, quizTools)
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no situation-1 section")
	}
	return out, nil
}

// Grade counts the answers given (answers[i] is the Class chosen for
// situation i, -1 for none) and those that match the key.
func Grade(items []Situation, answers []int) (right, answered int) {
	for i, a := range answers {
		if a < 0 || i >= len(items) {
			continue
		}
		answered++
		if Class(a) == items[i].Class {
			right++
		}
	}
	return right, answered
}
