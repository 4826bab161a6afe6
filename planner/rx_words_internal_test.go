package planner

import (
	"reflect"
	"regexp"
	"regexp/syntax"
	"testing"
)

// A word set finds what the regexp finds, through every method the
// grammar calls: on made-up patterns of each shape it takes, on every
// pattern of the grammar it takes, over texts that put the words against
// digits, underscores, capitals, other scripts and each other.
func TestWordSetsFindWhatTheRegexpFinds(t *testing.T) {
	exprs := []string{
		`\bcores?\b|\bcore counts?\b|\bcpus?\b`,
		`\b(redis|valkey|red)\b`,
		`\b(?:a|ab)\b`, `ab|a`, `a|ab`, `\bpipelin\w*|\bbatching\b`, `\b(dragon\s*fly|df|key[\s-]db)\b`, `a\s*b|a\s*bc`, `\bovertak\w*|x\w*`, `\bx\b|x`, `\bp(?:99|50)`, `\bé\b|é`, `ab?c\b`, `\b[12]x|2`,
		`\b(?:best latency|best p\w+|least)\b`, `\bout-?pac\w+`, `\bany (?:\w+ )?runs?\b`, `\b(?:doubl\w+|twice)\b`,
	}
	g := newGrammar()
	pats := allPatterns(g)
	for _, p := range pats {
		p.parse()
		if p.words != nil {
			exprs = append(exprs, p.expr)
		}
	}
	if len(exprs) < 40 {
		t.Fatalf("only %d patterns take a word set", len(exprs))
	}
	texts := []string{"", "a", "ab", "abc", "a ab ab_ aab", "x_x x", "Cores cores core_ 2cores cores2 core counts cpus",
		"redis valkey redisvalkey red redd red-is", "p99 p50p99 xp99 p990", "é xé é_ éé", "1x 2x 12x x2", "ac abc abbc", "pipelining pipelin_ed pipelinés xpipeline batching overtakes", "x x1 xé abé ab_c", "dragon  fly dragonfly dragon\tflyx key db key-db keydb a  bc ab abc",
		"best p99 best p best_p9 best pé best latency least any runs any long runs any runs run anyruns doubles doubl twice outpaced out-pace outpac xy xay"}
	for i, q := range sample(corpusQuestions(t)) {
		if i%8 == 0 {
			texts = append(texts, g.correctTypos(g.normalize(q)), q)
		}
	}
	for _, expr := range exprs {
		plain := regexp.MustCompile(expr)
		r := newRx(expr)
		r.parse()
		if r.words == nil {
			parsed, _ := syntax.Parse(expr, syntax.Perl)
			t.Errorf("%s takes no word set (%v)", expr, parsed.Simplify().Op)
			continue
		}
		for _, s := range texts {
			for _, c := range []struct {
				name      string
				got, want any
			}{
				{"MatchString", r.MatchString(s), plain.MatchString(s)},
				{"FindAllStringSubmatchIndex", r.FindAllStringSubmatchIndex(s, -1), plain.FindAllStringSubmatchIndex(s, -1)},
				{"FindAllStringIndex 2", r.FindAllStringIndex(s, 2), plain.FindAllStringIndex(s, 2)},
				{"FindStringSubmatch", r.FindStringSubmatch(s), plain.FindStringSubmatch(s)},
				{"FindStringIndex", r.FindStringIndex(s), plain.FindStringIndex(s)},
				{"FindAllString", r.FindAllString(s, -1), plain.FindAllString(s, -1)},
			} {
				if !reflect.DeepEqual(c.got, c.want) {
					t.Errorf("%s %s on %q: %v, the regexp %v", expr, c.name, s, c.got, c.want)
				}
			}
		}
	}
}
