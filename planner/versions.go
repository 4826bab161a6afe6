package planner

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// Versions are data: the versions of an engine measured are the ones its
// runs name (an import's version column) and, for runs that name none,
// the version its knowledge entry records. A version the asker states is
// read against them: a match narrows the answer to that version's runs;
// a version never measured is refused by name, with the versions that
// were, and never answered with another version's figures.

// engineVersion is the version the knowledge base records for an engine's
// runs that name none ("" when it records none).
func (p *Planner) engineVersion(engine string) string {
	if ek, ok := p.kb.(engineKnowledge); ok && p.kb != nil {
		for _, e := range ek.Engines() {
			if e.Key == engine {
				return e.Version
			}
		}
	}
	return ""
}

// seriesVersion is the version a series' runs were measured at: their
// own, or the knowledge base's for runs that name none.
func (p *Planner) seriesVersion(c analytics.SeriesCoverage) string {
	if c.Version != "" {
		return c.Version
	}
	return p.engineVersion(c.Engine)
}

// measuredVersions lists an engine's measured versions, in coverage order.
func (p *Planner) measuredVersions(cov []analytics.SeriesCoverage, engine string) []string {
	var out []string
	for _, c := range cov {
		if c.Engine == engine {
			if v := p.seriesVersion(c); v != "" {
				out = appendUnique(out, v)
			}
		}
	}
	return out
}

// versionMatches reports whether a version the asker named is the
// measured one or a prefix of it by whole components ("Redis 8" and "8.2"
// match 8.2.8, "8.1" does not).
func versionMatches(asked, measured string) bool {
	a := strings.TrimPrefix(strings.TrimSuffix(strings.ToLower(asked), ".x"), "v")
	m := strings.TrimPrefix(strings.ToLower(measured), "v")
	return a == m || strings.HasPrefix(m, a+".") || strings.HasPrefix(m, a+"-")
}

// keepAskedVersions narrows the resolved series of each engine the asker
// gave a version for to the series measured at it, and returns, for each
// version never measured, the line that refuses it.
func (p *Planner) keepAskedVersions(r *resolved, asked []version) []string {
	if len(asked) == 0 {
		return nil
	}
	byEngine := map[string][]string{}
	for _, v := range asked {
		byEngine[v.engine] = append(byEngine[v.engine], v.number)
	}
	var missing []string
	for _, v := range asked {
		measured := p.measuredVersions(r.cov, v.engine)
		if len(measured) == 0 && len(seriesOf(r.cov, v.engine, 0)) > 0 {
			missing = appendUnique(missing, fmt.Sprintf("%s %s cannot be told apart — the runs of %s name no version", engineName(v.engine), v.number, engineName(v.engine)))
			continue
		}
		if len(measured) == 0 || slices.ContainsFunc(measured, func(m string) bool { return versionMatches(v.number, m) }) {
			continue
		}
		missing = appendUnique(missing, fmt.Sprintf("%s %s was never measured — the runs here are %s", engineName(v.engine), v.number, versionList(v.engine, measured)))
	}
	if len(missing) > 0 {
		return missing
	}
	r.ok = slices.DeleteFunc(r.ok, func(s series) bool {
		numbers, named := byEngine[s.engine()]
		return named && !slices.ContainsFunc(numbers, func(n string) bool { return versionMatches(n, p.seriesVersion(s.cov)) })
	})
	return nil
}

// versionList writes an engine's measured versions: "Redis 8.2.8",
// "Valkey 8.1.9 and 9.0".
func versionList(engine string, versions []string) string {
	if len(versions) == 1 {
		return engineName(engine) + " " + versions[0]
	}
	return engineName(engine) + " " + strings.Join(versions[:len(versions)-1], ", ") + " and " + versions[len(versions)-1]
}

// versioned reports whether the runs of an engine name more than one
// version (counting runs that name none as one), so its filters and labels
// must say which.
func versioned(cov []analytics.SeriesCoverage, engine string) bool {
	var seen []string
	for _, c := range cov {
		if c.Engine == engine {
			seen = appendUnique(seen, c.Version)
		}
	}
	return len(seen) > 1
}

// versionClause is a series' version condition, when its engine's runs
// name several.
func versionClause(s series, cov []analytics.SeriesCoverage) (string, bool) {
	if !versioned(cov, s.engine()) {
		return "", false
	}
	return `version == ` + strconv.Quote(s.cov.Version), true
}

// versionNotes says, for a table measured outside the runs (memory,
// failover) or a claim, when a version the asker named is not the one the
// runs used.
func (p *Planner) versionNotes(vs []version) []string {
	var out []string
	for _, v := range vs {
		tested := p.engineVersion(v.engine)
		if tested == "" || versionMatches(v.number, tested) {
			continue
		}
		out = append(out, fmt.Sprintf("%s %s is not the version tested: the runs used %s %s.", engineName(v.engine), v.number, engineName(v.engine), tested))
	}
	return out
}

// versionsCompared reports two versions of one engine named together.
func versionsCompared(vs []version) bool {
	for i, a := range vs {
		for _, b := range vs[i+1:] {
			if a.engine == b.engine && a.number != b.number {
				return true
			}
		}
	}
	return false
}
