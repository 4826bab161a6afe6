package planner

import "strings"

// selfNames are the names a message may use to address the bot itself in
// text ("@oracle valkey at 4c?", typed where the platform does not turn
// the mention into its own markup: the terminal, the web page, a pasted
// Slack line). The chat adapters strip real mentions before planning.
var selfNames = map[string]bool{"oracle": true, "memdb-oracle": true, "memdb_oracle": true, "memdb": true, "bot": true, "memdboracle": true}

// withoutSelfMention removes a leading or trailing "@oracle" (any of
// selfNames, any case, with the comma or colon after it), so a message
// addressed to the bot is read as the question it holds, not as words to
// another person; a bare mention asks for help. Mentions of anyone else
// are kept: those messages are not for the bot.
func withoutSelfMention(question string) string {
	if !strings.Contains(question, "@") {
		return question
	}
	q := strings.TrimSpace(question)
	if rest, ok := strings.CutPrefix(q, "@"); ok {
		name, after, _ := strings.Cut(rest, " ")
		name = strings.TrimRight(name, ",:;!")
		if selfNames[strings.ToLower(name)] {
			q = strings.TrimLeft(strings.TrimSpace(after), ",:; ")
		}
	}
	if i := strings.LastIndex(q, " @"); i >= 0 {
		name := strings.TrimRight(q[i+2:], "?!.,:; ")
		if selfNames[strings.ToLower(name)] {
			q = strings.TrimSpace(q[:i])
		}
	}
	if q == "" {
		return "help" // a bare mention asks what the bot can do, as in the chat adapters
	}
	return q
}
