package web

import (
	"html/template"
	"strconv"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// answerView is one answer laid out for the page from its two layers
// (bot.Split decides them for every surface): the reply first, then the
// evidence behind a disclosure. This is the only place that maps a
// bot.Answer onto the page.
type answerView struct {
	Question string
	Kind     string
	// Reply are the reply layer's lines; the first answers the question.
	Reply []template.HTML
	// Choices are ready-made questions (help, clarify), asked by a click.
	Choices []string
	Chart   *chartView
	// Evidence is empty for answers with nothing behind them (help, errors).
	Evidence evidenceView
	// Details says what the evidence holds ("Details, 6 filters and 10 run
	// IDs"), the disclosure's label.
	Details string
	Failed  bool // rate limited or an internal error
	// Feedback is the answer's 👍/👎 form (nil: none).
	Feedback *feedbackView
}

type chartView struct {
	Src   string
	Title string
	Alt   string
}

type evidenceView struct {
	// Headline and Reading are the answer's full headline and how it was
	// read, when the reply shortened them.
	Headline   template.HTML
	Reading    template.HTML
	Claim      *claimView
	Body       []template.HTML
	Table      *tableView
	Rows       []rowView // measured cells with their run IDs
	Nearest    []rowView // for never-measured combinations
	Caveats    []template.HTML
	Terms      []bot.TermGist
	PlainWords template.HTML
	Filters    []filterLink
	RunIDs     []string
	Entries    []bot.SourceEntry
}

type claimView struct {
	Label, Statement, Setup, URL string
	Measured, Verdict, WhyDiffer template.HTML
}

type tableView struct {
	Columns []string
	Rows    [][]string
}

type rowView struct {
	Series     string
	Conditions string
	Median     string
	Differs    string
	RunIDs     []string
}

type filterLink struct {
	Text, Href string
}

// Empty reports whether there is no evidence to show.
func (e evidenceView) Empty() bool {
	return e.Headline == "" && e.Reading == "" && e.Claim == nil && len(e.Body) == 0 && e.Table == nil && len(e.Rows) == 0 &&
		len(e.Nearest) == 0 && len(e.Caveats) == 0 && len(e.Terms) == 0 && e.PlainWords == "" &&
		len(e.Filters) == 0 && len(e.RunIDs) == 0 && len(e.Entries) == 0
}

// offered are the questions an answer's buttons ask: a clarify's
// readings when it has them, else (help, a question not understood) the
// examples that really work.
func offered(a bot.Answer) []string {
	if len(a.Choices) > 0 {
		return a.Choices
	}
	return a.Examples
}

// viewAnswer lays an answer out: the reply's lines, then its evidence.
func (s *Site) viewAnswer(question string, answer bot.Answer) answerView {
	l := s.links()
	layers := bot.Split(answer)
	v := answerView{Question: question, Kind: string(answer.Kind), Choices: offered(answer),
		Failed: answer.Kind == bot.KindRateLimited || answer.Kind == bot.KindError}
	for _, line := range layers.Reply.Lines {
		v.Reply = append(v.Reply, l.line(line))
	}
	v.Details = layers.Reply.Details
	if v.Details == "" {
		v.Details = "Details"
	}
	a := layers.Evidence
	e := &v.Evidence
	if a.Headline != "" {
		e.Headline = l.inline(a.Headline)
	}
	if a.Interpretation != "" {
		e.Reading = l.inline("Read as: " + a.Interpretation)
	}
	if c := a.Claim; c != nil {
		e.Claim = &claimView{Label: c.StatementLabel(), Statement: c.Statement, Setup: c.Setup, URL: c.URL,
			Measured: l.inline(c.Measured), Verdict: l.inline(c.Verdict), WhyDiffer: l.inline(c.WhyDiffer)}
	}
	for _, p := range a.Body {
		e.Body = append(e.Body, l.block(p))
	}
	if a.Table != nil && len(a.Table.Rows) > 0 {
		e.Table = &tableView{Columns: a.Table.Columns, Rows: a.Table.Rows}
	}
	for _, r := range a.Rows {
		e.Rows = append(e.Rows, viewRow(r))
	}
	for _, r := range a.Nearest {
		e.Nearest = append(e.Nearest, viewRow(r))
	}
	for _, c := range a.Caveats {
		e.Caveats = append(e.Caveats, l.inline(c))
	}
	e.Terms = a.Terms
	if a.PlainWords != "" {
		e.PlainWords = l.inline(a.PlainWords)
	}
	for _, f := range a.Sources.Filters {
		e.Filters = append(e.Filters, filterLink{Text: f, Href: l.Filter(f)})
	}
	e.RunIDs = a.Sources.RunIDs
	e.Entries = a.Sources.Entries
	v.Chart = s.viewChart(a.Chart)
	return v
}

// viewChart links the chart's image, drawn when the browser asks for it;
// without a renderer the answer goes without (its numbers are in the table).
func (s *Site) viewChart(c *bot.Chart) *chartView {
	if c == nil || s.opts.RenderChart == nil {
		return nil
	}
	key := s.charts.add(*c)
	if key == "" {
		return nil
	}
	alt := c.AltText
	if alt == "" {
		alt = c.Title
	}
	return &chartView{Src: s.links().Chart(key), Title: c.Title, Alt: alt}
}

func viewRow(r bot.Row) rowView {
	v := rowView{Series: r.Series, RunIDs: r.RunIDs, Conditions: conditions(r.Session, r.Cores, r.Ratio, r.ValueBytes, r.Pipeline)}
	if r.OpsPerSec > 0 {
		v.Median = medianText(r.OpsPerSec, r.Floor, r.Reps)
	}
	for i, d := range r.Differs {
		if i > 0 {
			v.Differs += ", "
		}
		v.Differs += d
	}
	return v
}

// conditions names a cell's knobs in the words answers use.
func conditions(session, cores int, ratio string, valueBytes, pipeline int) string {
	return "session " + strconv.Itoa(session) + ", " + strconv.Itoa(cores) + " cores, " + ratioText(ratio) +
		", " + strconv.Itoa(valueBytes) + " B values, pipeline " + strconv.Itoa(pipeline)
}

func ratioText(r string) string {
	switch r {
	case "1:10", "1:1":
		return "SET:GET " + r
	}
	return r
}
