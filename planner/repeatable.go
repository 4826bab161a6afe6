package planner

// Repeatable says whether Plan gives an equal plan for the same question,
// previous plan and runs every time: true for the rules alone, false when
// a language model may be asked (its replies vary, and a failed call falls
// back to the rules). Callers cache plans, or what they compose from them,
// only when it is true.
func (p *Planner) Repeatable() bool { return p.opts.Completer == nil }
