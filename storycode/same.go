package storycode

import (
	"encoding/json"
	"reflect"
	"strings"
	"unicode/utf8"

	"locksim/play"
)

// samePosition reports whether a and b read alike as JSON (jsonOf), as
// Encode asks of a position and the one its record reads back as. A
// position in a trial or a lab story carries JSON of its own, and is
// compared as JSON; any other is compared field by field as encoding/json
// would write it (sameAsJSON), which spares a start that prints a story
// code the first json.Marshal of a Position: building its encoders was a
// tenth of -plain -scene race. A value sameAsJSON does not judge is
// compared as JSON after all; TestSamePositionAsJSON holds the two alike.
func samePosition(a, b play.Position) bool {
	if a.Trial == nil && a.Lab == nil && b.Trial == nil && b.Lab == nil {
		if same, sure := sameAsJSON(reflect.ValueOf(normalized(a)), reflect.ValueOf(normalized(b))); sure {
			return same
		}
	}
	return jsonOf(a) == jsonOf(b)
}

// normalized is p as jsonOf writes it: an empty list written as none.
func normalized(p play.Position) play.Position {
	if q := p.Quiz; q != nil && len(q.Answers) == 0 {
		p.Quiz = &play.QuizPlace{At: q.At, Shown: q.Shown}
	}
	if r := p.Race; r != nil && len(r.Shots) == 0 {
		p.Race = &play.RaceRecord{}
	}
	return p
}

// jsonOf is p as JSON, an empty list written as none: what a reader of
// the position sees.
func jsonOf(p play.Position) string {
	b, _ := json.Marshal(normalized(p))
	return string(b)
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[interface{ MarshalText() ([]byte, error) }]() // encoding.TextMarshaler
)

// sameAsJSON reports whether a and b, of one type, encode alike with
// encoding/json: exported fields by their tags ("-" left out, omitempty
// leaving out an empty value), a nil list or map apart from an empty one,
// a nil pointer apart from one to a zero value. sure is false for what it
// does not judge: a value that marshals itself, an embedded field, a
// float, an interface, an array, bytes, a map not keyed by strings, a
// string that is not UTF-8 (JSON writes each bad byte alike), an option
// other than omitempty and string.
func sameAsJSON(a, b reflect.Value) (same, sure bool) {
	t := a.Type()
	if t.Implements(marshalerType) || t.Implements(textMarshalerType) ||
		reflect.PointerTo(t).Implements(marshalerType) || reflect.PointerTo(t).Implements(textMarshalerType) {
		return false, false
	}
	switch t.Kind() {
	case reflect.Bool:
		return a.Bool() == b.Bool(), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int(), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint(), true
	case reflect.String:
		if !utf8.ValidString(a.String()) || !utf8.ValidString(b.String()) {
			return false, false
		}
		return a.String() == b.String(), true
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil(), true
		}
		return sameAsJSON(a.Elem(), b.Elem())
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return false, false
		}
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false, true
		}
		for i := range a.Len() {
			if same, sure := sameAsJSON(a.Index(i), b.Index(i)); !same || !sure {
				return same, sure
			}
		}
		return true, true
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return false, false
		}
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false, true
		}
		for it := a.MapRange(); it.Next(); {
			if !utf8.ValidString(it.Key().String()) {
				return false, false
			}
			bv := b.MapIndex(it.Key())
			if !bv.IsValid() {
				return false, true
			}
			if same, sure := sameAsJSON(it.Value(), bv); !same || !sure {
				return same, sure
			}
		}
		return true, true
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Anonymous {
				return false, false
			}
			tag := f.Tag.Get("json")
			if !f.IsExported() || tag == "-" {
				continue
			}
			omit := false
			if _, opts, ok := strings.Cut(tag, ","); ok {
				for o := range strings.SplitSeq(opts, ",") {
					switch o {
					case "omitempty":
						omit = true
					case "string":
					default:
						return false, false
					}
				}
			}
			av, bv := a.Field(i), b.Field(i)
			if omit {
				if ae, be := emptyJSON(av), emptyJSON(bv); ae || be {
					if ae != be {
						return false, true
					}
					continue
				}
			}
			if same, sure := sameAsJSON(av, bv); !same || !sure {
				return same, sure
			}
		}
		return true, true
	}
	return false, false
}

// emptyJSON is encoding/json's empty value, which omitempty leaves out.
func emptyJSON(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}
