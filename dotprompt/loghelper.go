package dotprompt

// log is Handlebars' {{log x}} with the engine's signature (one value,
// given as a string): the engine's writes it to the process's standard
// logger, which a template, perhaps a stranger's, should not reach (once
// for each pass of a loop); this keeps it for Render's warnings and
// charges it to MaxBytes.
func (b *budget) log(message string) any {
	b.charge(int64(len(message)))
	b.logs = append(b.logs, message)
	return ""
}
