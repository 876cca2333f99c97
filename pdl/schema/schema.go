package schema

import (
	"strconv"
	"strings"
)

// Type is the kind of value a Schema describes.
type Type uint8

// The schema types. There is no null type: upstream has one internally, but
// no keyword writes it, and it shows only as the type of a JSON null in
// messages ("not `null`").
const (
	TypeString   Type = iota + 1 // str, string
	TypeInt                      // int, integer
	TypeFloat                    // float, number
	TypeBool                     // bool, boolean
	TypeYesNo                    // yesno
	TypeCode                     // code
	TypeTaskList                 // tasklist
	TypeArray                    // [] or [T]
	TypeObject                   // { key: T, ... }
)

// String returns the name upstream's messages use for the type: "string",
// "integer", "float", "boolean", "yes or no", "code", "markdown task
// list", "array" or "object".
func (t Type) String() string {
	switch t {
	case TypeString:
		return "string"
	case TypeInt:
		return "integer"
	case TypeFloat:
		return "float"
	case TypeBool:
		return "boolean"
	case TypeYesNo:
		return "yes or no"
	case TypeCode:
		return "code"
	case TypeTaskList:
		return "markdown task list"
	case TypeArray:
		return "array"
	case TypeObject:
		return "object"
	}
	return "Type(" + strconv.Itoa(int(t)) + ")"
}

// keyword is the canonical keyword of a scalar type, "" for the others.
func (t Type) keyword() string {
	switch t {
	case TypeString:
		return "str"
	case TypeInt:
		return "int"
	case TypeFloat:
		return "float"
	case TypeBool:
		return "bool"
	case TypeYesNo:
		return "yesno"
	case TypeCode:
		return "code"
	case TypeTaskList:
		return "tasklist"
	}
	return ""
}

// constrained reports whether the type can have a min or max, and whether
// the bounds are counts that cannot be negative.
func (t Type) constrained() (ok, count bool) {
	switch t {
	case TypeInt, TypeFloat:
		return true, false
	case TypeString, TypeArray, TypeCode, TypeTaskList:
		return true, true
	}
	return false, false
}

// Schema is a parsed schema: a type, optional bounds, and for objects and
// arrays the schemas inside. Parse returns schemas that satisfy every rule
// of the package documentation; a Schema built by hand must follow the same
// rules (Extract reports one that does not).
type Schema struct {
	Type Type
	// Min and Max are the constraint's bounds, nil when absent. See the
	// package documentation for what they bound per type. Only int, float,
	// str, code, tasklist and array schemas have them.
	Min, Max *Bound
	// Fields are an object's fields in the order they were written.
	Fields []Field
	// Elem is an array's element schema; nil for [], whose elements are
	// not checked.
	Elem *Schema
}

// Field is one field of an object schema.
type Field struct {
	Name   string
	Schema *Schema
}

// Bound is one end of a constraint. A float schema's bound is Float; every
// other type's bound is the integer Int (and Float is 0).
type Bound struct {
	Int   int64
	Float float64
}

// IntBound returns a bound for a schema of any type but float.
func IntBound(n int64) *Bound { return &Bound{Int: n} }

// FloatBound returns a bound for a float schema.
func FloatBound(f float64) *Bound { return &Bound{Float: f} }

// Equal reports whether s and t describe the same schema: same types,
// bounds, fields (names and order) and element schemas.
func (s *Schema) Equal(t *Schema) bool {
	if s == nil || t == nil {
		return s == t
	}
	if s.Type != t.Type || !equalBound(s.Min, t.Min) || !equalBound(s.Max, t.Max) ||
		len(s.Fields) != len(t.Fields) || !s.Elem.Equal(t.Elem) {
		return false
	}
	for i := range s.Fields {
		if s.Fields[i].Name != t.Fields[i].Name || !s.Fields[i].Schema.Equal(t.Fields[i].Schema) {
			return false
		}
	}
	return true
}

func equalBound(a, b *Bound) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// String returns the schema in canonical form; Parse reads the String of
// every schema it returns back to an equal schema. The form: keywords str, int, float, bool, yesno, code and tasklist;
// objects as "{ name: str, age: int }" ("{}" when empty); arrays as "[T]"
// or "[]"; a constraint as " { min: 1, max: 5 }" after its type. A field
// name that is not an identifier is quoted with ", or with ' when it holds
// a double quote (a name holding both cannot be written: Parse never
// returns one).
func (s *Schema) String() string {
	var b strings.Builder
	s.write(&b)
	return b.String()
}

func (s *Schema) write(b *strings.Builder) {
	if s == nil {
		b.WriteString("[]")
		return
	}
	switch s.Type {
	case TypeArray:
		b.WriteByte('[')
		if s.Elem != nil {
			s.Elem.write(b)
		}
		b.WriteByte(']')
	case TypeObject:
		if len(s.Fields) == 0 {
			b.WriteString("{}")
			break
		}
		b.WriteString("{ ")
		for i, f := range s.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			writeKey(b, f.Name)
			b.WriteString(": ")
			f.Schema.write(b)
		}
		b.WriteString(" }")
	default:
		if k := s.Type.keyword(); k != "" {
			b.WriteString(k)
		} else {
			b.WriteString(s.Type.String())
		}
	}
	if s.Min == nil && s.Max == nil {
		return
	}
	b.WriteString(" { ")
	if s.Min != nil {
		b.WriteString("min: ")
		s.writeBound(b, s.Min)
		if s.Max != nil {
			b.WriteString(", ")
		}
	}
	if s.Max != nil {
		b.WriteString("max: ")
		s.writeBound(b, s.Max)
	}
	b.WriteString(" }")
}

func (s *Schema) writeBound(b *strings.Builder, n *Bound) {
	if s.Type == TypeFloat {
		// 'f' never writes an exponent, so the text is a number token.
		b.WriteString(strconv.FormatFloat(n.Float, 'f', -1, 64))
		return
	}
	b.WriteString(strconv.FormatInt(n.Int, 10))
}

func writeKey(b *strings.Builder, k string) {
	if isIdent(k) {
		b.WriteString(k)
		return
	}
	q := byte('"')
	if strings.IndexByte(k, '"') >= 0 {
		q = '\''
	}
	b.WriteByte(q)
	b.WriteString(k)
	b.WriteByte(q)
}

// isIdent reports whether k is a non-empty run of identifier bytes.
func isIdent(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		if !identByte(k[i]) {
			return false
		}
	}
	return true
}

func identByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '-'
}
