package discord

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// Hand-built answers with the dataset's real figures (session 1, 48 cores,
// SET:GET 1:10, 100-byte values, pipeline 16).

func claimAnswer() bot.Answer {
	df := []string{
		"run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep1",
		"run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep2",
	}
	rc := []string{
		"run-s1-20260901-083406-redis-cluster-48c-p16-1-10-d100-rep1",
		"run-s1-20260901-083406-redis-cluster-48c-p16-1-10-d100-rep2",
	}
	sat := []string{"run-s1-20260901-083406-redis-cluster-sat-48c-p16-1-10-d100-rep1"}
	row := func(series, engine, mode string, reps int, ops, p50, p99, p999 float64, ids []string) bot.Row {
		return bot.Row{Series: series, RowCell: bot.RowCell{Engine: engine, Mode: mode, Session: 1, Cores: 48, Ratio: "1:10",
			ValueBytes: 100, Pipeline: 16, Reps: reps, OpsPerSec: ops, P50Ms: p50, P99Ms: p99, P999Ms: p999}, RunIDs: ids}
	}
	return bot.Answer{
		Kind:           bot.KindClaim,
		Interpretation: "Dragonfly vs Redis Cluster, 48 cores, SET:GET 1:10 (read-heavy), 100 B values, pipeline 16, session 1",
		Headline:       "Measured here, Dragonfly did 3.4× a realistic Redis Cluster, not 25×, and 0.38× the fully driven ceiling (medians across repetitions).",
		Body: []string{
			"Dragonfly (single process) did **15.5M ops/s**; Redis Cluster — realistic (one normal client) did **4.6M ops/s**; " +
				"Redis Cluster — fully driven ceiling (one client per shard) did **40.6M ops/s** (single run).",
		},
		Table: &bot.Table{
			Columns: []string{"Series", "Reps", "ops/s (median)", "p50 ms", "p99 ms"},
			Rows: [][]string{
				{"Dragonfly (single process)", "2", "15,473,658", "0.883", "2.423"},
				{"Redis Cluster — realistic", "2", "4,578,516", "83.967", "138.239"},
				{"Redis Cluster — ceiling", "1", "40,576,639", "0.559", "1.511"},
			},
		},
		Rows: []bot.Row{
			row("Dragonfly (single process)", "dragonfly", "single", 2, 15473658.395, 0.883, 2.423, 3.327, df),
			row("Redis Cluster — realistic (one normal client)", "redis", "cluster", 2, 4578516.24, 83.967, 138.239, 150.527, rc),
			row("Redis Cluster — fully driven ceiling (one client per shard)", "redis", "cluster-sat", 1, 40576639.07, 0.559, 1.511, 4.639, sat),
		},
		Claim: &bot.ClaimContext{
			ID: "claim:dragonfly-25x", Claimant: "Dragonfly", Statement: `"25x more QPS than Redis"`,
			Setup:     "one multi-threaded Dragonfly process against one single-threaded Redis process on an ARM c6gn.16xlarge (64 vCPU), GET-only",
			URL:       "https://www.dragonflydb.io/docs/getting-started/benchmark",
			Measured:  "3.4× a realistic Redis Cluster; 0.38× the fully driven ceiling",
			Verdict:   "Neither reproduced nor refuted: this dataset has no single-process Redis run, which is what the claim compares against.",
			WhyDiffer: "The vendor compares against one Redis process (one core doing the work); here the peer is a 48-shard cluster using the whole machine. Different hardware (ARM c6gn vs Intel c7i), versions and workload (GET-only vs 1:10).",
		},
		Caveats: []string{
			"Latency is measured at the client (memtier), so it includes the client's own queueing.",
			"The ceiling is a single run with one memtier per shard; an ordinary application sees the realistic figure.",
		},
		Terms:      []bot.TermGist{{ID: "term:pipelining", Name: "Pipelining", Gist: "sending several commands before reading the replies, so one round trip carries many operations"}},
		PlainWords: "With one ordinary client, Dragonfly served about 3.4 times as many requests as a Redis cluster on the same 48 cores.",
		Sources: bot.Sources{
			Filters: []string{`(engine == "dragonfly" || engine == "redis") && cores == 48 && ratio == "1:10" && value_bytes == 100 && pipeline == 16`},
			RunIDs:  append(append(append([]string{}, df...), rc...), sat...),
			Entries: []bot.SourceEntry{
				{ID: "claim:dragonfly-25x", Title: "Dragonfly — \"25x more QPS than Redis\"", URL: "https://www.dragonflydb.io/docs/getting-started/benchmark"},
				{ID: "finding:headline-48c", Title: "48-core headline (session 1)"},
			},
		},
	}
}

func noDataAnswer() bot.Answer {
	ids := func(p string) []string {
		return []string{
			"run-s1-20260901-083406-dragonfly-single-48c-" + p + "-1-10-d100-rep1",
			"run-s1-20260901-083406-dragonfly-single-48c-" + p + "-1-10-d100-rep2",
		}
	}
	nearest := []bot.Row{
		{Series: "Dragonfly (single process)", RowCell: bot.RowCell{Engine: "dragonfly", Mode: "single", Session: 1, Cores: 48, Ratio: "1:10",
			ValueBytes: 100, Pipeline: 16, Reps: 2, OpsPerSec: 15473658.395, P50Ms: 0.883, P99Ms: 2.423, P999Ms: 3.327},
			Differs: []string{"pipeline"}, RunIDs: ids("p16")},
		{Series: "Dragonfly (single process)", RowCell: bot.RowCell{Engine: "dragonfly", Mode: "single", Session: 1, Cores: 48, Ratio: "1:10",
			ValueBytes: 100, Pipeline: 1, Reps: 2, OpsPerSec: 2768592.25, P50Ms: 0.343, P99Ms: 0.547, P999Ms: 0.707},
			Differs: []string{"pipeline"}, RunIDs: ids("p1")},
	}
	return bot.Answer{
		Kind:           bot.KindNoData,
		Interpretation: "Dragonfly, 48 cores, SET:GET 1:10, 100 B values, pipeline 32",
		Headline:       "Pipeline 32 was never measured: the runs use pipeline 1 and 16 only, so there is no number for 32 and none is estimated.",
		Body:           []string{"The nearest measured rows change only the pipeline depth:"},
		Table: &bot.Table{
			Columns: []string{"Series", "Pipeline", "Reps", "ops/s (median)", "p99 ms", "Differs"},
			Rows: [][]string{
				{"Dragonfly (single process)", "16", "2", "15,473,658", "2.423", "pipeline"},
				{"Dragonfly (single process)", "1", "2", "2,768,592", "0.547", "pipeline"},
			},
		},
		Rows:    []bot.Row{},
		Nearest: nearest,
		Sources: bot.Sources{
			Filters: []string{`engine == "dragonfly" && cores == 48 && ratio == "1:10" && value_bytes == 100 && pipeline in [1, 16]`},
			RunIDs:  append(ids("p16"), ids("p1")...),
			Entries: []bot.SourceEntry{{ID: "scope:absent", Title: "Combinations that do not exist"}},
		},
	}
}

func helpAnswer() bot.Answer {
	return bot.Answer{
		Kind:      bot.KindHelp,
		Headline:  "I answer questions about Redis, Valkey, Dragonfly, KeyDB and Garnet only from 478 measured benchmark runs, with the run IDs behind every number.",
		Body:      []string{"Mention me in a channel and I answer in a thread; ask follow-ups there. `/oracle question:` works anywhere, and I answer direct messages."},
		Ephemeral: true,
		Examples: []string{
			"How does Dragonfly scale from 4 to 48 cores?",
			"Dragonfly vs Redis Cluster at 48 cores",
			"Is Dragonfly really 25x faster than Redis?",
			"What is pipelining?",
		},
		Rows:    []bot.Row{},
		Nearest: []bot.Row{},
	}
}

// pngCharts draws every chart as the same small real PNG.
type pngCharts struct{}

func (pngCharts) Render(bot.Chart) ([]byte, error) { return testPNG(), nil }

func testPNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 3))
	img.Set(1, 1, color.RGBA{R: 200, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// brokenCharts fails to draw.
type brokenCharts struct{}

func (brokenCharts) Render(bot.Chart) ([]byte, error) { return nil, errors.New("no font") }

// assertChartAttached checks a message request uploads the chart as
// files[0] named chart.png, describes it with alt text, and shows it as
// the first embed's image.
func assertChartAttached(t testing.TB, r *request, alt string) {
	t.Helper()
	if len(r.Files) != 1 {
		t.Fatalf("%s %s: %d files, want the chart", r.Method, r.Path, len(r.Files))
	}
	f := r.Files[0]
	if f.Field != "files[0]" || f.Name != chartFile || f.ContentType != "image/png" || !bytes.Equal(f.Data, testPNG()) {
		t.Errorf("chart part %q %q %q (%d bytes), want files[0] chart.png image/png", f.Field, f.Name, f.ContentType, len(f.Data))
	}
	atts, _ := r.JSON["attachments"].([]any)
	if len(atts) != 1 {
		t.Fatalf("attachments %v, want one", r.JSON["attachments"])
	}
	att := atts[0].(map[string]any)
	if att["id"] != float64(0) || att["filename"] != chartFile || att["description"] != alt {
		t.Errorf("attachment %v, want id 0, chart.png, alt text %q", att, alt)
	}
	embeds := embedsOf(t, r)
	img, _ := embeds[0]["image"].(map[string]any)
	if img["url"] != "attachment://chart.png" {
		t.Errorf("first embed image %v, want attachment://chart.png", embeds[0]["image"])
	}
}
