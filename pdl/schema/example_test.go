package schema_test

import (
	"context"
	"fmt"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/pdl/schema"
)

func ExampleParse() {
	s, err := schema.Parse([]byte("[{ name: string, age: integer { min: 0 } }] { len_max: 3 }"))
	if err != nil {
		panic(err)
	}
	fmt.Println(s)
	fmt.Println(s.Type, s.Max.Int, s.Elem.Fields[1].Name, s.Elem.Fields[1].Schema.Min.Int)

	_, err = schema.Parse([]byte("{ name: str,\n  age: int { min: 5, max: 2 } }"))
	fmt.Println(err)
	// Output:
	// [{ name: str, age: int { min: 0 } }] { max: 3 }
	// array 3 age 0
	// pdl:2:12: `min` (5) is greater than `max` (2).
}

func ExampleSchema_Extract() {
	s, err := schema.Parse([]byte("{ name: str, age: int { min: 0, max: 150 } }"))
	if err != nil {
		panic(err)
	}
	v, err := s.Extract(`Sure! Here is the JSON: {"name": "Bae", "age": 28}`)
	fmt.Printf("%v %v\n", v, err)

	_, err = s.Extract(`{"name": "Bae"}`)
	fmt.Println(err)
	_, err = s.Extract(`{"name": "Bae", "age": 200}`)
	fmt.Println(err)
	// Output:
	// map[age:28 name:Bae] <nil>
	// Your output is missing a field: age. Make sure that your output contains 2 keys: name, age
	// Field `age` of your output is too big. Make sure that the field is at most 150.
}

func ExampleSchema_Ask() {
	s, err := schema.Parse([]byte("yesno"))
	if err != nil {
		panic(err)
	}
	answers := []string{"Maybe yes, maybe no.", "Yes."}
	model := func(_ context.Context, msgs []promptfmt.Message) (string, error) {
		answer := answers[0]
		answers = answers[1:]
		return answer, nil
	}
	msgs := []promptfmt.Message{promptfmt.NewMessage("user", "Is the sky blue?")}
	res, err := s.Ask(context.Background(), msgs, model, schema.Tries(3), schema.Default(false))
	if err != nil {
		panic(err)
	}
	for _, m := range res.Messages {
		fmt.Printf("%s: %s\n", m.Role, m.Text())
	}
	fmt.Println(schema.Render(s, res.Value), res.Tries, res.Defaulted)
	// Output:
	// user: Is the sky blue?
	// assistant: Maybe yes, maybe no.
	// user: Just say yes or no.
	// assistant: Yes.
	// yes 2 false
}

func ExampleRender() {
	s, _ := schema.Parse([]byte("{ score: float, tags: [str] }"))
	v, _ := s.Extract(`{"tags": ["a", "b"], "score": 1.0}`)
	fmt.Println(schema.Render(s, v))
	// Output:
	// {
	//   "score": 1.0,
	//   "tags": [
	//     "a",
	//     "b"
	//   ]
	// }
}
