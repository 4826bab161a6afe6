package compose

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// positionText answers a place in a ranking ("the second fastest", "second
// worst") or its first n ("top 3"): line 1 is the item asked for, with the
// one above it for context; the ranking counts every series measured, the
// fully driven ceilings too, and says so when one is among those named.
func positionText(rows []Row, metric string, p planner.Plan) (headline, plain string) {
	ranked := rankRows(rows, metric, p.Order)
	varying := varyingKnobs(rows)
	mw := metricWords(metric)
	lower := p.Order == planner.OrderAsc || p.Order == "" && lowerIsBetter(metric)
	dir := "highest"
	if lower {
		dir = "lowest"
	}
	ceilingNote := func(shown []Row) string {
		for _, r := range shown {
			if r.Mode == "cluster-sat" {
				return " The ranking counts every series measured, the fully driven cluster ceilings too."
			}
		}
		return ""
	}
	if p.Limit > 0 {
		n := min(p.Limit, len(ranked))
		items := make([]string, n)
		for i, r := range ranked[:n] {
			items[i] = fmt.Sprintf("%d. %s — %s", i+1, rowLabel(r, varying), figure(r, metric))
		}
		head := fmt.Sprintf("The %d series with the %s %s: %s.", n, dir, mw, strings.Join(items, "; "))
		if p.Limit > len(ranked) {
			head = fmt.Sprintf("Only %d series were measured under these conditions, ranked by %s: %s.", len(ranked), mw, strings.Join(items, "; "))
		}
		return head + ceilingNote(ranked[:n]), ""
	}
	n := p.Position
	if n > len(ranked) {
		all := make([]string, len(ranked))
		for i, r := range ranked {
			all[i] = fmt.Sprintf("%d. %s — %s", i+1, rowLabel(r, varying), figure(r, metric))
		}
		return fmt.Sprintf("There is no %s: only %d series were measured under these conditions (%s).", ordinalWord(n), len(ranked), strings.Join(all, "; ")), ""
	}
	r, above := ranked[n-1], ranked[n-2]
	head := fmt.Sprintf("%s has the %s %s %s: %s, after %s (%s).", rowLabel(r, varying), ordinalWord(n), dir, mw, figure(r, metric), rowLabel(above, varying), figure(above, metric))
	return head + ceilingNote(ranked[:n]), ""
}

// ordinalWord spells a place: "second", "third", "11th".
func ordinalWord(n int) string {
	words := []string{"", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"}
	if n > 0 && n < len(words) {
		return words[n]
	}
	return strconv.Itoa(n) + "th"
}
