package planner

// taskVerbs ask the bot to produce something rather than to look it up.
var taskVerbs = map[string]bool{
	"write": true, "compose": true, "generate": true, "draft": true, "create": true, "make": true,
	"tell": true, "give": true, "sing": true, "draw": true, "paint": true, "craft": true, "pen": true,
}

// taskWorks are the things such a request asks for: writing, jokes,
// pictures. A chart is not one (answers draw charts).
var taskWorks = map[string]bool{
	"poem": true, "poems": true, "haiku": true, "haikus": true, "limerick": true, "limericks": true,
	"sonnet": true, "sonnets": true, "song": true, "songs": true, "lyrics": true, "verse": true, "rhyme": true,
	"story": true, "stories": true, "essay": true, "joke": true, "jokes": true, "rap": true, "pun": true,
	"puns": true, "riddle": true, "riddles": true, "tweet": true, "tweets": true, "slogan": true,
	"tagline": true, "email": true, "letter": true, "speech": true, "toast": true, "meme": true,
	"picture": true, "drawing": true, "painting": true, "logo": true, "mascot": true,
}

// taskReach is how many tokens after the verb the work may come
// ("write me a short funny poem").
const taskReach = 5

// recogniseTask declines a request to write, tell or draw something — a
// poem, a joke, an email, a picture — even when it names an engine:
// "write me a haiku about Redis" asks for no measurement, and answering it
// with Redis's throughput would answer what nobody asked. "tell me the
// story behind the 25x claim" is a question (a definite "the" between verb
// and work), not a request for fiction.
func (p *Planner) recogniseTask(question string, r *reading, _ *Plan) (Plan, bool) {
	if r.asksForMadeUpWork() {
		return outOfScopePlan(question, taskRefusal), true
	}
	return Plan{}, false
}

// asksForMadeUpWork reports a request to write, tell or draw something, or
// one that opens with the made-up work it wants ("limerick about valkey").
// The kinds (provenance, search, …) step aside for it, so the refusal comes
// whatever else the request names ("rhyme about memtier").
func (r *reading) asksForMadeUpWork() bool {
	if r.opensWithWork() {
		return true
	}
	for i, t := range r.toks {
		if t.kind != tokWord || !taskVerbs[t.text] {
			continue
		}
		for j := i + 1; j < len(r.toks) && j <= i+taskReach; j++ {
			w := r.toks[j].text
			if w == "the" || w == "this" || w == "that" {
				break
			}
			if r.toks[j].kind == tokWord && taskWorks[w] {
				return true
			}
		}
	}
	return false
}

const taskRefusal = "Poems, jokes, emails, pictures and other made-up work are not what I do: I answer only from the measured runs of Redis, Valkey, Dragonfly, KeyDB and Garnet, with the numbers and where they come from."

// verselessWorks are the works a request may name without a verb
// ("limerick about valkey pls"): made-up writing only — "a picture of
// Dragonfly's scaling" or "the story behind the claim" may ask for data.
var verselessWorks = map[string]bool{
	"poem": true, "poems": true, "haiku": true, "haikus": true, "limerick": true, "limericks": true,
	"sonnet": true, "sonnets": true, "song": true, "songs": true, "lyrics": true, "verse": true, "rhyme": true,
	"joke": true, "jokes": true, "rap": true, "pun": true, "puns": true, "riddle": true, "riddles": true,
	"meme": true, "tweet": true, "tweets": true, "slogan": true, "tagline": true,
}

// opensWithWork reports a message that opens with a made-up work and what
// it should be about: "limerick about valkey", "a haiku on dragonfly pls",
// "some jokes for the redis team".
func (r *reading) opensWithWork() bool {
	i := 0
	for i < len(r.toks) && (r.toks[i].text == "a" || r.toks[i].text == "an" || r.toks[i].text == "some" || r.toks[i].kind == tokPunct) {
		i++
	}
	if i+1 >= len(r.toks) || !verselessWorks[r.toks[i].text] {
		return false
	}
	switch r.toks[i+1].text {
	case "about", "on", "for", "of", "re", "regarding":
		return true
	}
	return false
}
