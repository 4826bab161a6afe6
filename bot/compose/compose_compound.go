package compose

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// composeCompound answers each ask of a compound question in order: the
// first line answers the first ask, the next lines each following one,
// then every part's evidence under its own heading, and the sources of
// all parts together.
func (b *Composer) composeCompound(ctx context.Context, p planner.Plan) (Answer, error) {
	var parts []Answer
	for _, part := range p.Parts {
		a, err := b.Compose(ctx, part)
		if err != nil {
			return Answer{}, err
		}
		parts = append(parts, a)
	}
	// The reply answers each ask in one line: the first part's answer is
	// the headline, the next ones open the body (Parts tells the reply to
	// show them before the reading, so its second line is the second
	// answer).
	out := Answer{Kind: parts[0].Kind, Interpretation: p.Interpretation, Parts: len(parts), Rows: []Row{}, Nearest: []Row{}}
	s := newSourcer(b.cfg.Knowledge)
	var plain []string
	for i, a := range parts {
		n := strconv.Itoa(i+1) + ") "
		if label := p.Parts[i].PartLabel; label != "" {
			n += label + ": " // one measured value of a range the message asked about
		}
		if i == 0 {
			out.Headline = n + partLine(a)
		} else {
			out.Body = append(out.Body, "**"+n+partLine(a)+"**")
		}
		if a.Kind == KindAnswer {
			out.Kind = KindAnswer
		}
		out.Rows = append(out.Rows, a.Rows...)
		out.Nearest = append(out.Nearest, a.Nearest...)
		for _, c := range a.Caveats {
			out.Caveats = addUnique(out.Caveats, c)
		}
		for _, t := range a.Terms {
			if !slices.ContainsFunc(out.Terms, func(g TermGist) bool { return g.ID == t.ID }) {
				out.Terms = append(out.Terms, t)
			}
		}
		if a.PlainWords != "" {
			plain = append(plain, a.PlainWords)
		}
		for _, f := range a.Sources.Filters {
			s.filter(f)
		}
		s.merge(a.Sources)
		for _, e := range a.Sources.Entries {
			s.entry(e.ID)
		}
	}
	for i, a := range parts {
		ev := a
		ev.Headline, ev.Caveats, ev.Terms, ev.PlainWords, ev.Sources = "", nil, nil, "", Sources{}
		text := strings.TrimSpace(EvidenceMarkdown(ev))
		if text == "" {
			continue
		}
		out.Body = append(out.Body, "**Evidence for "+strconv.Itoa(i+1)+")**\n\n"+text)
	}
	out.PlainWords = strings.Join(plain, " ")
	out.Sources = s.sources()
	return out, nil
}

// partLine is one ask's answer in a line: its headline, and for a
// headline that only names (a term) what the answer's first paragraph
// says of it.
func partLine(a Answer) string {
	h := strings.TrimSpace(a.Headline)
	if titleOnly(h) && len(a.Body) > 0 {
		first := flatten(a.Body[0])
		if i := strings.Index(first, ". "); i > 0 {
			first = first[:i+1]
		}
		return strings.TrimSuffix(h, ":") + " — " + first
	}
	return h
}
