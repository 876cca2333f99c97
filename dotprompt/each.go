package dotprompt

import (
	"reflect"
	"strings"
	_ "unsafe" // for go:linkname

	"github.com/mbleigh/raymond"
)

// each is Handlebars' {{#each}} as the engine (raymond) has it, with one
// difference: the engine adds each pass's text to a string (result +=
// ...), which copies all that came before at every pass, so a list of
// n items of k bytes takes n²k/2 bytes of copying (8,000 items of a
// kilobyte, 16 s; ten times as many, half an hour); this builds once,
// and charges each pass's text to the rendering's MaxBytes. Lists and
// arrays pass by index, maps in the engine's order (Go's, not the
// file's), structs by exported field; @index, @key, @first and @last are
// set as the engine sets them; an empty or false value renders {{else}}.
func (b *budget) each(context any, options *raymond.Options) any {
	if !raymond.IsTrue(context) {
		return options.Inverse()
	}
	var out strings.Builder
	val := reflect.ValueOf(context)
	switch val.Kind() {
	case reflect.Array, reflect.Slice:
		b.passList(&out, options, val)
	case reflect.Map:
		keys := val.MapKeys()
		for i, k := range keys {
			key := k.Interface()
			b.pass(&out, options, len(keys), i, val.MapIndex(k).Interface(), key, key)
		}
	case reflect.Struct:
		var fields []int
		for i := 0; i < val.NumField(); i++ {
			if val.Type().Field(i).PkgPath == "" {
				fields = append(fields, i)
			}
		}
		for i, f := range fields {
			key := val.Type().Field(f).Name
			b.pass(&out, options, len(fields), i, val.Field(f).Interface(), key, key)
		}
	}
	return out.String()
}

// passList renders options' block once for each item of list, as the
// engine's loops over a list do (no @key; the index is the second block
// parameter).
func (b *budget) passList(out *strings.Builder, options *raymond.Options, list reflect.Value) {
	for i := 0; i < list.Len(); i++ {
		b.pass(out, options, list.Len(), i, list.Index(i).Interface(), nil, i)
	}
}

// pass renders options' block into out for the i-th of n items: its
// context ctx, @key key and the key blockKey of {{... as |x k|}}, with
// @index, @first and @last as the engine sets them; the pass counts
// against MaxSteps, its text against MaxBytes.
func (b *budget) pass(out *strings.Builder, options *raymond.Options, n, i int, ctx, key, blockKey any) {
	b.step()
	data := options.NewDataFrame()
	data.Set("index", i)
	data.Set("key", key)
	data.Set("first", i == 0)
	data.Set("last", i == n-1)
	text := evalBlock(options, ctx, data, blockKey)
	b.charge(int64(len(text)))
	out.WriteString(text)
}

// evalBlock is the engine's, which each needs to give a pass its
// iteration key ({{#each xs as |x i|}}) and which the engine does not
// export.
//
//go:linkname evalBlock github.com/mbleigh/raymond.(*Options).evalBlock
func evalBlock(options *raymond.Options, ctx any, data *raymond.DataFrame, key any) string

// section is what the engine does with a block that names no helper
// ({{#items}}...{{/items}}, handed here by checkGrammar's edit): a list
// renders the block once for each item (with @index, @first, @last, and
// the index as the second block parameter), another true value renders
// it once with that value as the context, a false one renders {{else}}.
// The engine adds each pass to a string (n²/2 copies for n items); this
// builds once, and charges each pass to MaxBytes.
func (b *budget) section(context any, options *raymond.Options) any {
	if !raymond.IsTrue(context) {
		return options.Inverse()
	}
	val := reflect.ValueOf(context)
	if k := val.Kind(); k != reflect.Array && k != reflect.Slice {
		text := evalBlock(options, context, nil, nil)
		b.charge(int64(len(text)))
		return text
	}
	var out strings.Builder
	b.passList(&out, options, val)
	return out.String()
}

// print is what the engine prints for a value alone ({{items}}, handed
// here by checkGrammar's edit): its own string of it, but a list's items
// one after the other, which the engine adds to a string one at a time.
// What it prints is charged to MaxBytes.
func (b *budget) print(value any) raymond.SafeString {
	var out strings.Builder
	var add func(v reflect.Value)
	add = func(v reflect.Value) {
		ival, ok := printableValue(v)
		if val := reflect.ValueOf(ival); ok && (val.Kind() == reflect.Array || val.Kind() == reflect.Slice) {
			for i := 0; i < val.Len(); i++ {
				add(val.Index(i))
			}
			return
		}
		text := strValue(v) // the engine's, which panics as it does
		b.charge(int64(len(text)))
		out.WriteString(text)
	}
	add(reflect.ValueOf(value))
	return raymond.SafeString(out.String())
}

// printableValue and strValue are the engine's, which print needs to
// print as it does, and which it does not export.
//
//go:linkname printableValue github.com/mbleigh/raymond.printableValue
func printableValue(v reflect.Value) (any, bool)

//go:linkname strValue github.com/mbleigh/raymond.strValue
func strValue(v reflect.Value) string
