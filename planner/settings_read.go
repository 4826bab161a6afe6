package planner

import (
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The settings stage reads what people paste or type as settings — the
// dataset's own column names (`cores_used=16`, `data_bytes: 1024`), tool
// command lines (memtier's `-t 32 -c 50 --ratio=1:1`, docker's
// `--cpuset-cpus=0-7`) and config-file lines (`io-threads 4`) — before the
// rules read the question. A setting that is a measured dimension is
// rewritten into the words the rules read ("16 cores"); one that was never
// varied, or is a client setting, is taken out of the text and kept as a
// settingRead the plan names back (Plan.Unread), so it is never read as
// something else (memtier's `-t 32` is client threads, never 32 cores).
// The vocabulary is data (data/settings.txt), not code.

//go:embed data/settings.txt
var settingsTable string

// settingStatus says what a field is in the measured runs.
type settingStatus string

const (
	statusDim        settingStatus = "dim"        // a measured dimension: rewritten for the rules
	statusMetric     settingStatus = "metric"     // a measured metric: rewritten to its name
	statusFixed      settingStatus = "fixed"      // recorded, never varied as a setting of its own
	statusUnmeasured settingStatus = "unmeasured" // a server setting no run changed
	statusTool       settingStatus = "tool"       // a load-tool flag with no bearing on a cell
)

// fieldSpec is one dataset column the stage reads.
type fieldSpec struct {
	name   string
	status settingStatus
	phrase string // for dim and metric: "{v} cores", "p99"; for fixed: what it is, in words
}

// settingsVocabulary is data/settings.txt parsed.
type settingsVocabulary struct {
	fields map[string]fieldSpec // column name → spec
	flags  map[string]string    // "--ratio" → field (or "mode=cluster", or an unmeasured setting)
	conf   map[string]string    // "io-threads" → field or unmeasured setting
	tools  map[string]bool
	// toolValues are the tool flags followed by a value ("-s host").
	toolValues map[string]bool
	// ports are the tool flags whose value is a port: read as the tool's
	// only when the value is one.
	ports map[string]bool
	// programs are the names pasted command lines start with.
	programs map[string]bool
	// plainConf are the config keys without a '-', '_', '=' or ':'.
	plainConf []string
	// asRun are the values of an unmeasured setting that every run had
	// ("maxmemory-policy noeviction"), by setting.
	asRun map[string]map[string]bool
	// owners are the flags only one engine's server takes, by spelling:
	// "--proactor_threads=16" is Dragonfly at 16 cores.
	owners map[string]string
}

var sharedSettings = sync.OnceValue(func() *settingsVocabulary {
	v, err := parseSettings(settingsTable)
	if err != nil {
		panic(err) // the embedded table is checked by TestSettingsTable
	}
	return v
})

func parseSettings(text string) (*settingsVocabulary, error) {
	v := &settingsVocabulary{fields: map[string]fieldSpec{}, flags: map[string]string{}, conf: map[string]string{}, asRun: map[string]map[string]bool{}, owners: map[string]string{}, tools: map[string]bool{}, toolValues: map[string]bool{}, ports: map[string]bool{}, programs: map[string]bool{}}
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		bad := func() error { return fmt.Errorf("settings table line %d: %q", n+1, line) }
		switch f[0] {
		case "field":
			if len(f) < 4 {
				return nil, bad()
			}
			st := settingStatus(f[2])
			if st != statusDim && st != statusMetric && st != statusFixed {
				return nil, bad()
			}
			v.fields[f[1]] = fieldSpec{name: f[1], status: st, phrase: strings.Join(f[3:], " ")}
		case "flag":
			if len(f) < 3 {
				return nil, bad()
			}
			for _, s := range f[1 : len(f)-1] {
				// "taskset:-c": a flag of one program only, where
				// another's same spelling means something else.
				v.flags[strings.Replace(s, ":-", " -", 1)] = f[len(f)-1]
			}
		case "conf":
			if len(f) != 3 {
				return nil, bad()
			}
			v.conf[f[1]] = f[2]
			if !strings.ContainsAny(f[1], "-=:_") {
				v.plainConf = append(v.plainConf, f[1])
			}
		case "owner":
			if len(f) < 3 {
				return nil, bad()
			}
			for _, s := range f[1 : len(f)-1] {
				v.owners[s] = f[len(f)-1]
			}
		case "asrun":
			if len(f) < 3 {
				return nil, bad()
			}
			if v.asRun[f[1]] == nil {
				v.asRun[f[1]] = map[string]bool{}
			}
			for _, s := range f[2:] {
				v.asRun[f[1]][s] = true
			}
		case "program":
			for _, s := range f[1:] {
				v.programs[s] = true
			}
		case "tool":
			for _, s := range f[1:] {
				name, port := strings.CutSuffix(s, "=port")
				name, takes := strings.CutSuffix(name, "=")
				v.tools[name] = true
				v.toolValues[name] = takes || port
				v.ports[name] = port
			}
		default:
			return nil, bad()
		}
	}
	return v, nil
}

// settingRead is one setting the stage read in the question.
type settingRead struct {
	text   string // as typed: "-t 32", "cores_used=16", "io-threads 4"
	field  string // the dataset column (or unmeasured setting) it sets
	status settingStatus
	value  string
	// what the setting is, in words, for a fixed one ("client threads").
	what string
}

// settingsRead is the stage's result: the text for the rules and what it
// took out or rewrote.
type settingsRead struct {
	text  string
	reads []settingRead
}

// unread lists the settings the plan must name back: fixed ones (client
// load, I/O threads, key space) that no answer here can vary.
func (s settingsRead) unread() []settingRead {
	var out []settingRead
	for _, r := range s.reads {
		if r.status == statusFixed {
			out = append(out, r)
		}
	}
	return out
}

// settingsGate is true when a question may hold a pasted setting: a flag,
// a key=value or key: value, a dataset column name (all contain '-', '=',
// ':' or '_'), or a config key written as one word ("appendonly").
func settingsGate(q string) bool {
	if strings.ContainsAny(q, "-=:_") {
		return true
	}
	lq := strings.ToLower(q)
	if strings.Contains(lq, ".conf") || strings.Contains(lq, "config file") {
		return true // a pasted config file's lines ("hz 100")
	}
	for _, k := range sharedSettings().plainConf {
		if strings.Contains(lq, k) {
			return true
		}
	}
	ws := strings.Fields(lq)
	for i := 0; i+1 < len(ws); i++ {
		if copulas[ws[i+1]] && sharedSettings().fields[ws[i]].name != "" {
			return true
		}
	}
	return false
}

// programPrepositions introduce a pasted command line ("under taskset …").
var programPrepositions = map[string]bool{"under": true, "with": true, "via": true, "using": true, "through": true, "in": true, "inside": true}

// listWords join the items of a list ("1 and 24 cores").
var listWords = map[string]bool{"and": true, "or": true, "&": true, "y": true, "et": true, "und": true}

// copulas join a setting to its value in prose: "pipeline is 1", "cores
// are 24", "the pipeline is of 16" (Spanish and French word order).
var copulas = map[string]bool{"is": true, "are": true, "was": true, "were": true, "equals": true, "of": true}

// readSettings rewrites the settings written as columns, flags and config
// lines; a question without any comes back unchanged.
func readSettings(q string) settingsRead {
	if !settingsGate(q) {
		if !numbersGate(q) {
			return settingsRead{text: q}
		}
		return settingsRead{text: strings.Join(numbersAsWritten(strings.Fields(q)), " ")}
	}
	v := sharedSettings()
	q = pastedQuery(q, v)
	// A pasted setting often comes in code marks or quotes: `io-threads 4`.
	words := numbersAsWritten(strings.Fields(strings.NewReplacer("`", " ", "“", " ", "”", " ").Replace(q)))
	out := make([]string, 0, len(words))
	var reads []settingRead
	program := "" // the program whose command line the words are in
	lq := strings.ToLower(q)
	confContext := strings.Contains(lq, ".conf") || strings.Contains(lq, "config file") // a pasted config file's lines
	for i := 0; i < len(words); i++ {
		w := words[i]
		core, trail := splitTrailing(w)
		if c, ok := strings.CutSuffix(core, ":"); ok && strings.ContainsAny(c, "=:") {
			core, trail = c, ":"+trail // "cores_used=16: kb_per_sec"
		}
		lw := strings.ToLower(core)
		if v.programs[strings.Trim(lw, "`'\"$")] {
			program = strings.Trim(lw, "`'\"$")
		}
		// key=value, key: value, key = value, key value, --flag=value, --flag value
		key, val, joined := splitKeyValue(lw)
		consumed := 0
		hedge := "" // a loose word before the value ("about 24")
		valTrail := trail
		if !joined {
			key = strings.TrimRight(lw, ":=")
			spaced := i+1 < len(words) && (words[i+1] == "=" || words[i+1] == ":")
			// "pipeline is 1", "cores are 24", "pipeline is of 1": a
			// column's name, a copula, a number.
			said := v.fields[key].name != "" && i+2 < len(words) && copulas[strings.ToLower(words[i+1])]
			pasted := confContext && unknownConfKey(key, v) && i+1 < len(words) && confValue(strings.TrimRight(words[i+1], ",;?!.)"))
			// "--lock_on_hashtags, mget10": a comma ends the flag; the
			// next word is not its value.
			takes := (key != lw || spaced || said || v.takesValue(key) || pasted) && !strings.ContainsAny(trail, ",;")
			if takes && i+1 < len(words) {
				j := i + 1
				if (words[j] == "=" || words[j] == ":") && j+1 < len(words) {
					j++
				}
				if said {
					for j < len(words)-1 && copulas[strings.ToLower(words[j])] {
						j++
					}
					if !isNumber(strings.TrimRight(words[j], ",;?!.)")) {
						out = append(out, w)
						continue
					}
				}
				if k := hedgeBefore(words[j:]); k > 0 && j+k < len(words) && isNumber(strings.TrimRight(words[j+k], ",;?!.)")) {
					// "--proactor_threads somewhere around 24": the value is
					// the number; the hedge is said in line 1 (hedgedNumbers).
					hedge = strings.Join(words[j:j+k], " ")
					j += k
				}
				if n := strings.ToLower(words[j]); !isFlag(n) {
					val, valTrail = splitTrailing(words[j])
					consumed = j - i
				}
			}
		}
		val = strings.Trim(val, `'"`)
		if _, ok := v.flags[program+" "+key]; ok && isFlag(key) {
			key = program + " " + key
		}
		rewrite, r, ok := v.read(key, val, consumed > 0 || joined)
		if !ok && confContext && consumed > 0 && unknownConfKey(key, v) && (confValue(val) || val == "" || strings.HasPrefix(val, "/")) {
			// "activedefrag yes", "hz 100", "server-thread-affinity true"
			// in a pasted config file: a setting no run changed.
			r, ok = settingRead{field: key, status: statusFixed, value: val, what: unvariedServerSetting}, true
		}
		if !ok {
			out = append(out, w)
			continue
		}
		if !r.takesValue() {
			consumed = 0
			valTrail = trail
		}
		r.text = strings.Join(words[i:i+consumed+1], " ")
		r.text = strings.TrimRight(r.text, ",;.")
		reads = append(reads, r)
		if hedge != "" && rewrite != "" && r.value != "" {
			rewrite = strings.Replace(rewrite, r.value, hedge+" "+r.value, 1)
		}
		if eng := v.owners[strings.TrimPrefix(key, program+" ")]; eng != "" && rewrite != "" && !strings.Contains(lq, eng) {
			rewrite = eng + " " + rewrite // the flag's own server is the engine asked about
		}
		if rewrite != "" && valTrail == "" && isNumber(r.value) && strings.HasSuffix(rewrite, r.value) && i+consumed+1 < len(words) &&
			(i+consumed+2 < len(words) && listWords[strings.ToLower(words[i+consumed+1])] || runsMeasure.MatchString(strings.ToLower(words[i+consumed+1]))) {
			// "pipeline 1, and 24 cores", "--pipeline=16 ops/s?": the value
			// ends its own setting, not a list of the next one's nor a
			// figure of the measure after it.
			out = append(out, rewrite+",")
		} else if rewrite != "" {
			out = append(out, rewrite+valTrail)
		} else if valTrail != "" {
			out = append(out, strings.TrimSpace(valTrail))
		}
		i += consumed
	}
	if len(reads) == 0 {
		return settingsRead{text: strings.Join(words, " ")}
	}
	// With a flag read, the program's name is the paste's ("memtier …"),
	// not a question about the load tool.
	kept := out[:0]
	for _, w := range out {
		if !v.programs[strings.ToLower(strings.Trim(w, "`'\"$"))] {
			kept = append(kept, w)
			continue
		}
		// "under taskset -c 0-7" is "on 8 cores", not "under 8 cores".
		if n := len(kept); n > 0 && programPrepositions[strings.ToLower(kept[n-1])] {
			kept = kept[:n-1]
		}
	}
	return settingsRead{text: strings.Join(kept, " "), reads: reads}
}

// pastedQuery writes a query typed over the runs' own columns — SQL
// ("select p99_ms from runs where engine = 'dragonfly' and …") or pandas
// ("df[(df.engine=='redis') & (df.cores_used==16)].p99_ms.median()") — as
// the column settings it states, when it asks for a measured column: a
// listing ("select * from runs …") or a bare filter expression is for the
// runs command, and the rules say so.
func pastedQuery(q string, v *settingsVocabulary) string {
	lq := strings.ToLower(q)
	if !strings.Contains(lq, "select ") && !strings.Contains(lq, "df.") && !strings.Contains(lq, "df[") && !strings.Contains(lq, "groupby") && !strings.Contains(lq, "(") && !strings.Contains(lq, " ~ ") {
		return q
	}
	r := strings.NewReplacer("==", " = ", "&&", " and ", "&", " and ", "df.", "", "df[", " ", "[", " ", "]", " ", "(", " ", ")", " ", "'", "", "\"", "")
	out := r.Replace(q)
	words := strings.Fields(out)
	kept := make([]string, 0, len(words)+2) // not words[:0]: a method adds a word
	columns, measures := 0, 0
	for i := 0; i < len(words); i++ {
		w := strings.ToLower(words[i])
		switch {
		case w == "select":
			continue
		case w == "from" && i+1 < len(words) && strings.EqualFold(strings.TrimRight(words[i+1], ",;"), "runs"):
			i++ // "from runs"
			continue
		case w == "where":
			continue
		case w == "~" && i+1 < len(words) && v.fields[strings.Trim(strings.ToLower(words[i+1]), ",;.")].name != "":
			words[i] = "by" // "p50_ms ~ cores_used", a model formula: p50 by cores
		}
		bare := strings.Trim(w, ",;.")
		base, method, _ := strings.Cut(bare, ".") // "p99_ms.median", "groupby.ops_per_sec"
		if m, ok := frameMethods[base]; ok && method != "" {
			// "groupby('pipeline').ops_per_sec.median()" → "by pipeline ops_per_sec"
			base, method = method, ""
			if m != "" {
				kept = append(kept, m)
			}
		}
		if v.fields[base].name != "" {
			columns++
			if v.fields[base].status == statusMetric {
				measures++
			}
			words[i] = base // the column, without the method called on it
			if m := frameMethods[strings.TrimSuffix(method, ".")]; m != "" {
				kept = append(kept, m) // "ops_per_sec.max()" → "highest ops_per_sec"
			}
		} else if m, ok := frameMethods[bare]; ok {
			if m != "" {
				kept = append(kept, m) // "std(ops_per_sec)", "groupby pipeline"
			}
			continue
		}
		kept = append(kept, words[i])
	}
	if columns == 0 || measures == 0 && !strings.Contains(lq, "distinct") {
		return q
	}
	if slices.ContainsFunc(kept, func(w string) bool { return w == "highest" || w == "lowest" }) {
		// A max() or min() is over every row the filter keeps: each run.
		kept = append(kept, "across all runs")
	}
	return strings.Join(kept, " ")
}

// hedgeBefore is how many of words open with a hedge said before a
// number ("about", "somewhere around"), or 0.
func hedgeBefore(words []string) int {
	pre, _ := hedgePhrases()
	best := 0
	for _, ph := range pre {
		if len(ph) > best && len(ph) <= len(words) && slices.EqualFunc(ph, words[:len(ph)], func(a, b string) bool { return a == strings.ToLower(b) }) {
			best = len(ph)
		}
	}
	return best
}

// frameMethods are the aggregates a dataframe or SQL query is written with,
// as the words the reader reads them by ("" where the median every answer
// gives already says it).
var frameMethods = map[string]string{
	"max": "highest", "idxmax": "highest", "nlargest": "highest", "min": "lowest", "idxmin": "lowest", "nsmallest": "lowest",
	"std": "spread of", "stddev": "spread of", "stdev": "spread of", "var": "spread of", "variance": "spread of",
	"groupby": "by", "median": "", "mean": "", "avg": "",
}

// numbersGate is true when a question may hold a number written in a way
// the rules do not read: an exponent, a decimal comma, a scale word.
func numbersGate(q string) bool {
	for i := 0; i+1 < len(q); i++ {
		c, n := q[i], q[i+1]
		if c >= '0' && c <= '9' && (n == 'e' || n == 'E' || n == ',' || n == ' ') {
			return true
		}
	}
	return false
}

// scaleWords are the words for a million (and more) in the languages
// people ask in, and Indian English's lakh and crore.
var scaleWords = map[string]string{
	"mio": "1e6", "mio.": "1e6", "mill": "1e6", "mill.": "1e6", "millionen": "1e6", "millones": "1e6", "millón": "1e6",
	"milhões": "1e6", "milhoes": "1e6", "millions": "1e6", "milioni": "1e6", "miljoen": "1e6", "lakh": "1e5", "lakhs": "1e5",
	"crore": "1e7", "crores": "1e7", "mrd": "1e9", "mrd.": "1e9", "milliarden": "1e9", "billion": "1e9",
}

// numbersAsWritten rewrites numbers the way the rules read them: "1.5e7"
// → "15000000", "15,5M" → "15.5M" (a decimal comma; "1,000" keeps its
// thousands), "1,5 Mio" → "1500000".
func numbersAsWritten(words []string) []string {
	out := make([]string, 0, len(words))
	for i := 0; i < len(words); i++ {
		w := words[i]
		core, trail := splitTrailing(w)
		num, unit := leadingNumber(core)
		if num == "" {
			out = append(out, w)
			continue
		}
		if c := strings.IndexByte(num, ','); c >= 0 && strings.Count(num, ",") == 1 && len(num)-c-1 <= 2 {
			num = num[:c] + "." + num[c+1:] // a decimal comma
		}
		if e := strings.IndexAny(unit, "eE"); e == 0 && len(unit) > 1 && unit[1] >= '0' && unit[1] <= '9' {
			j := 1
			for j < len(unit) && unit[j] >= '0' && unit[j] <= '9' {
				j++
			}
			if f, err := strconv.ParseFloat(num+unit[:j], 64); err == nil {
				num, unit = strconv.FormatFloat(f, 'f', -1, 64), unit[j:]
			}
		}
		scale := ""
		if unit == "" && i+1 < len(words) {
			nextCore, nextTrail := splitTrailing(words[i+1])
			if sc, ok := scaleWords[strings.ToLower(nextCore)]; ok {
				scale, trail = sc, nextTrail
				i++
			}
		} else if sc, ok := scaleWords[strings.ToLower(unit)]; ok {
			scale, unit = sc, ""
		}
		if scale != "" {
			f, err1 := strconv.ParseFloat(strings.ReplaceAll(num, ",", ""), 64)
			m, err2 := strconv.ParseFloat(scale, 64)
			if err1 == nil && err2 == nil {
				num = strconv.FormatFloat(f*m, 'f', -1, 64)
			}
		}
		out = append(out, num+unit+trail)
	}
	return out
}

// leadingNumber splits "15,5M" into "15,5" and "M".
func leadingNumber(w string) (num, rest string) {
	i := 0
	for i < len(w) && (w[i] >= '0' && w[i] <= '9' || (w[i] == '.' || w[i] == ',') && i > 0 && i+1 < len(w) && w[i+1] >= '0' && w[i+1] <= '9') {
		i++
	}
	return w[:i], w[i:]
}

// takesValue reports whether a key is followed by its value when written
// apart ("--pipeline 16", "io-threads 4", "cores_used 16").
func (v *settingsVocabulary) takesValue(key string) bool {
	if isFlag(key) {
		f := v.flags[key]
		unknown := f == "" && !v.tools[key] && strings.HasPrefix(key, "--")
		return f != "" && !strings.Contains(f, "=") || v.toolValues[key] || unknown
	}
	if v.conf[key] != "" {
		return true
	}
	// A column name that is also an English word ("engine", "mode",
	// "pipeline") is read only as key=value or key: value; the dataset's
	// own spelling ("cores_used 16") may stand apart from its value.
	st := v.fields[key].status
	return strings.Contains(key, "_") && (st == statusDim || st == statusFixed)
}

// takesValue reports whether the setting read consumed a value after its
// name (a metric column or a tool flag alone does not).
func (r settingRead) takesValue() bool {
	return r.value != ""
}

// read maps one key (and its value, if any) to the rules' words.
func (v *settingsVocabulary) read(key, val string, hasValue bool) (string, settingRead, bool) {
	if v.tools[key] {
		takes := v.toolValues[key] && hasValue
		if v.ports[key] && (!takes || !isPort(val)) {
			return "", settingRead{}, false // "-p 1" is how people write a pipeline depth; the rules read it
		}
		return "", settingRead{field: key, status: statusTool, value: valueIf(takes, val)}, true
	}
	field := ""
	_, bare, _ := strings.Cut(key, " ") // "taskset -c": the flag of one program
	switch {
	case isFlag(key) || isFlag(bare):
		field = v.flags[key]
		if field == "" && strings.HasPrefix(key, "--") && len(key) > 3 {
			// "--snapshot_cron=\"\"", "--tiered_prefix=/mnt/df": a server
			// flag no run here varied, named back.
			return "", settingRead{field: key, status: statusFixed, value: valueIf(hasValue && (confValue(val) || strings.HasPrefix(val, "/")), val), what: unvariedServerSetting}, true
		}
		if field == "" {
			return "", settingRead{}, false
		}
	case v.conf[key] != "":
		if !hasValue || !confValue(val) {
			return "", settingRead{}, false
		}
		field = v.conf[key]
	case v.fields[key].name != "":
		field = key
	default:
		return "", settingRead{}, false
	}
	if strings.Contains(field, "=") { // a flag that sets a value by itself (--cluster-mode)
		k, fv, _ := strings.Cut(field, "=")
		spec := v.fields[k]
		return expandPhrase(spec.phrase, fv), settingRead{field: k, status: statusDim}, true
	}
	spec, ok := v.fields[field]
	if !ok {
		// An unmeasured server setting (persistence, eviction, tls…): the
		// rules know the word; "appendonly no" is what every run had.
		if !hasValue || !confValue(val) && !v.asRunValue(field, val) {
			return "", settingRead{}, false
		}
		if v.asRunValue(field, val) {
			return "", settingRead{field: field, status: statusUnmeasured, value: val}, true
		}
		return field, settingRead{field: field, status: statusUnmeasured, value: val}, true
	}
	switch spec.status {
	case statusMetric:
		if hasValue && isNumber(val) {
			return "", settingRead{}, false // "p99_ms 3" is a threshold the rules read
		}
		return spec.phrase, settingRead{field: field, status: statusMetric}, true
	case statusFixed:
		if !hasValue || !confValue(val) {
			return "", settingRead{}, false
		}
		return "", settingRead{field: field, status: statusFixed, value: val, what: spec.phrase}, true
	}
	if !hasValue || val == "" {
		return "", settingRead{}, false
	}
	phrase := expandPhrase(spec.phrase, val)
	if phrase == "" {
		return "", settingRead{}, false
	}
	return phrase, settingRead{field: field, status: statusDim, value: val}, true
}

// unvariedServerSetting is how a server flag or config line the runs never
// varied is named back.
const unvariedServerSetting = "a server setting no run here varied"

// unknownConfKey is a word that can be a config file's key the vocabulary
// does not know: letters, digits, '-' and '_', and no word the reader
// knows otherwise ("shards on" is not a config line).
func unknownConfKey(key string, v *settingsVocabulary) bool {
	if key == "" || v.fields[key].name != "" || v.conf[key] != "" || sharedKnownWords()[key] || isNumber(key) {
		return false
	}
	return strings.Trim(key, "abcdefghijklmnopqrstuvwxyz0123456789-_") == "" && key[0] >= 'a' && key[0] <= 'z'
}

// isPort is a value only a port number takes (above the depths, sizes and
// counts a setting here could have).
func isPort(v string) bool {
	n, err := strconv.Atoi(v)
	return err == nil && n > 1024 && n < 65536
}

// confValue is a value a config line or a column could hold: a number, a
// switch, a list or a policy name ("allkeys-lru"), never a function word
// ("test_time for redis?").
func confValue(v string) bool {
	if v == "" {
		return false
	}
	if strings.ContainsAny(v, "0123456789") {
		return true
	}
	switch strings.ToLower(v) {
	case "yes", "no", "on", "off", "true", "false", "everysec", "always", `""`, "''":
		return true
	}
	return strings.Contains(v, "-") && strings.Trim(v, "abcdefghijklmnopqrstuvwxyz-") == "" && len(v) > 2
}

func valueIf(ok bool, v string) string {
	if ok {
		return v
	}
	return ""
}

// expandPhrase fills a phrase template; "" when the value does not fit.
func expandPhrase(phrase, val string) string {
	switch {
	case strings.Contains(phrase, "{mode}"):
		switch strings.ToLower(val) {
		case "single", "standalone":
			return "single process"
		case "cluster":
			return "realistic cluster"
		case "cluster-sat", "cluster_sat", "sat":
			return "cluster ceiling"
		}
		return ""
	case strings.Contains(phrase, "{cpus}"):
		n, ok := cpuCount(val)
		if !ok {
			return ""
		}
		return strings.ReplaceAll(phrase, "{cpus}", strconv.Itoa(n))
	}
	if !valueFits(phrase, val) {
		return ""
	}
	if strings.HasPrefix(phrase, "SET:GET") && !strings.Contains(val, ":") {
		return val // "ratio=mget10" is the multi-key workload, not a mix
	}
	return strings.ReplaceAll(phrase, "{v}", val)
}

// valueFits checks a value against what its phrase reads: a count for
// cores, sizes, depths and sessions, a mix for a ratio, a name otherwise.
func valueFits(phrase, val string) bool {
	switch {
	case strings.HasPrefix(phrase, "SET:GET"):
		return strings.Contains(val, ":") || strings.HasPrefix(val, "mget") || strings.HasPrefix(val, "mset")
	case phrase == "{v}":
		return val != "" && strings.Trim(val, "abcdefghijklmnopqrstuvwxyz0123456789.-") == ""
	}
	_, err := strconv.Atoi(val)
	return err == nil
}

// cpuCount counts a CPU list as docker and taskset write it: "0-7",
// "0,2,4", "0-3,8-11".
func cpuCount(list string) (int, bool) {
	n := 0
	for _, part := range strings.Split(list, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return 0, false
		}
		if !isRange {
			n++
			continue
		}
		b, err := strconv.Atoi(hi)
		if err != nil || b < a {
			return 0, false
		}
		n += b - a + 1
	}
	return n, n > 0
}

// asRunValue reports a value of an unmeasured setting that every run had:
// off ("appendonly no") or one the table lists ("noeviction").
func (v *settingsVocabulary) asRunValue(field, val string) bool {
	val = strings.ToLower(strings.Trim(val, `'"`))
	switch val {
	case "no", "off", "0", "", "false", "disabled", "none":
		return true
	}
	return v.asRun[field][val]
}

func isFlag(w string) bool {
	return len(w) > 1 && w[0] == '-' && (w[1] == '-' || w[1] >= 'a' && w[1] <= 'z') && !isNumber(w)
}

func isNumber(w string) bool {
	_, err := strconv.ParseFloat(w, 64)
	return err == nil
}

// splitKeyValue splits "key=value" and "key:value" (not "1:10", which is a
// ratio, nor a URL).
func splitKeyValue(w string) (key, val string, ok bool) {
	i := strings.IndexAny(w, "=:")
	if i <= 0 || i == len(w)-1 {
		return "", "", false
	}
	key, val = w[:i], w[i+1:]
	if isNumber(key) || strings.HasPrefix(val, "/") {
		return "", "", false
	}
	return key, val, true
}

// splitTrailing parts a word from the punctuation that ends a clause.
func splitTrailing(w string) (string, string) {
	core := strings.TrimRight(w, ",;?!.)")
	if core == "" {
		return w, ""
	}
	return core, w[len(core):]
}
