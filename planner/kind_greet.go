package planner

// greetingPattern is a message that is only a hello, possibly to the
// channel or the bot ("hi all", "good morning team", "hey bot!").
const greetingPattern = (`^(?:(?:hi|hello|hey|hiya|heya|howdy|yo|hallo|hola|greetings|morning|evening|afternoon|good (?:morning|afternoon|evening|day)|what'?s up|wassup|sup|hey there|hello there|hi there)\s*)+(?:(?:all|everyone|everybody|folks|team|y'all|you all|guys|people|friends|bot|oracle|memdb-oracle|there|again)\s*)*[!.?,:)\s]*$`)

// capabilityPattern asks what the bot can do.
const capabilityPattern = (`\bwhat (?:can|could|should|may) (?:i|we|one) (?:ask|query|do with)\b|\bwhat (?:can|do|could) you (?:do|answer|know|help(?: me| us)? with|tell (?:me|us) about)\b|\bwhat are you (?:for|able to do|good (?:at|for))\b|\bhow (?:do|can|should) (?:i|we) (?:use|talk to|ask) you\b|\bwhat (?:kind|kinds|sort|sorts|type|types) of (?:questions|things)\b|\bwhat questions (?:can|do|could|should)\b|\bwhat do you (?:cover|support)\b|\bwho are you\b|\bwhat are you\b|\bhow does this bot work\b|\bwhat is this bot\b|\bcapabilities\b|\bwhat can this (?:bot|thing) do\b`)

// greeting plans a hello (chatter: one line when the bot is addressed,
// silence in a thread) and a capability question (help).
func (p *Planner) greeting(r reading, _ *Plan) (Plan, bool) {
	if p.k.greeting.MatchString(r.text) {
		return Plan{Intent: IntentChatter, Question: r.question, Greeting: true, Source: "rules",
			Interpretation: "A greeting, not a question", Suggestions: suggestions()}, true
	}
	if p.k.capability.MatchString(r.text) && len(r.x.engines) == 0 && !r.x.hasKnobValue() && len(r.x.metrics) == 0 {
		return p.helpPlan(r.question, ""), true
	}
	return Plan{}, false
}
