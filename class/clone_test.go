package class

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"locksim/play"
)

var rawType = reflect.TypeOf(json.RawMessage(nil))

// fill sets every exported field reachable from v to a value that is not
// zero (empty: maps and slices made empty instead), so a field added to
// Member or Lead, or to a type in them, is filled without the test
// naming it.
func fill(v reflect.Value, n *int, empty bool) {
	*n++
	switch {
	case v.Type() == rawType:
		if !empty {
			v.SetBytes([]byte(fmt.Sprintf(`{ "n": %d }`, *n)))
		} else {
			v.SetBytes(nil) // an empty, not nil, text is no JSON
		}
		return
	case v.Type() == reflect.TypeOf(time.Time{}):
		v.Set(reflect.ValueOf(time.Date(2026, 1, 2, 3, 4, 5, *n, time.UTC)))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprint("s", *n))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(*n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n, empty)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), n, empty)
			}
		}
	case reflect.Slice:
		k := 2
		if empty {
			k = 0
		}
		v.Set(reflect.MakeSlice(v.Type(), k, k))
		for i := range k {
			fill(v.Index(i), n, empty)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		if !empty {
			key, val := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(key, n, empty)
			fill(val, n, empty)
			v.SetMapIndex(key, val)
		}
	default:
		panic(fmt.Sprintf("fill: a field of kind %s: teach fill and Clone about it", v.Kind()))
	}
}

// mutate changes every exported leaf reachable from v in place: what a
// clone shares with its original shows in the original.
func mutate(v reflect.Value) {
	switch {
	case v.Type() == reflect.TypeOf(time.Time{}):
		v.Set(reflect.ValueOf(v.Interface().(time.Time).Add(time.Hour)))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() + 1)
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Pointer:
		if !v.IsNil() {
			mutate(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				mutate(v.Field(i))
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			mutate(v.Index(i))
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			mutate(e)
			v.SetMapIndex(k, e)
		}
	}
}

// TestCloneIsJSON: Member.Clone and Lead.Clone copy as the JSON round
// trip the hub used to copy with (copyOf) does, field for field, for a
// value with every field filled (reflect: a field added later is
// filled too), one with every map and slice empty, and the zero value;
// and a clone shares nothing with its original: changing every leaf of
// the clone leaves the original as it was.
func TestCloneIsJSON(t *testing.T) {
	check := func(name string, v any, clone func(any) any) {
		t.Helper()
		want, err := copyOfAny(v)
		if err != nil {
			t.Fatal(err)
		}
		got := clone(v)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: Clone\n%+v\nJSON round trip\n%+v", name, got, want)
		}
		before, _ := json.Marshal(v)
		c := reflect.New(reflect.TypeOf(got)).Elem()
		c.Set(reflect.ValueOf(got))
		mutate(c)
		if after, _ := json.Marshal(v); string(after) != string(before) {
			t.Fatalf("%s: changing a clone changed its original:\n%s\nwas\n%s", name, after, before)
		}
		if cj, _ := json.Marshal(c.Interface()); name[len(name)-4:] == "full" && string(cj) == string(before) {
			t.Fatalf("%s: mutate changed nothing", name)
		}
	}
	for _, empty := range []bool{false, true} {
		var m Member
		var l Lead
		n := 0
		fill(reflect.ValueOf(&m).Elem(), &n, empty)
		fill(reflect.ValueOf(&l).Elem(), &n, empty)
		suffix := map[bool]string{false: "full", true: "empty"}[empty]
		// through JSON once, as the hub holds them (a lab place then
		// has its scene cache)
		var err error
		if empty { // only the lab place, for its cache; its moves empty again
			for _, pos := range []*play.Position{&m.Pos, &l.Pos} {
				lab, err := copyOf(*pos.Lab)
				if err != nil {
					t.Fatal(err)
				}
				lab.Moves, pos.Lab = []play.LabMove{}, &lab
			}
		} else {
			if m, err = copyOf(m); err != nil {
				t.Fatal(err)
			}
			if l, err = copyOf(l); err != nil {
				t.Fatal(err)
			}
		}
		check("Member "+suffix, m, func(v any) any { return v.(Member).Clone() })
		check("Lead "+suffix, l, func(v any) any { return v.(Lead).Clone() })
	}
	check("Member zero", Member{}, func(v any) any { return v.(Member).Clone() })
	check("Lead zero", Lead{}, func(v any) any { return v.(Lead).Clone() })
}

// copyOfAny is copyOf for a Member or a Lead held in an any.
func copyOfAny(v any) (any, error) {
	switch v := v.(type) {
	case Member:
		return copyOf(v)
	case Lead:
		return copyOf(v)
	}
	return nil, fmt.Errorf("copyOfAny: %T", v)
}

// copyOf is v deep-copied through its JSON, the form a Redis hub keeps:
// what the memory hub copied with before Clone.
func copyOf[T any](v T) (T, error) {
	var out T
	data, err := json.Marshal(v)
	if err != nil {
		return out, err
	}
	err = json.Unmarshal(data, &out)
	return out, err
}
