package bot_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics/analyticstest"
	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
)

func newDataset(t *testing.T) *bot.Dataset {
	t.Helper()
	st := analyticstest.OpenStore(t)
	kb, err := knowledge.Load(t.Context(), st)
	if err != nil {
		t.Fatal(err)
	}
	return bot.NewDataset(st, kb)
}

func TestDatasetRun(t *testing.T) {
	d := newDataset(t)

	t.Run("a run comes with its cell, every repetition, its session and its capture-file line", func(t *testing.T) {
		const id = "run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep2"
		det, err := d.Run(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if det.Run.ID != id || det.Cell.Reps != 2 || len(det.Reps) != 2 || det.Reps[0].Rep != 1 || det.Reps[1].ID != id {
			t.Errorf("cell %+v, reps %d", det.Cell.CellKey, len(det.Reps))
		}
		if det.Cell.OpsPerSec != (det.Reps[0].OpsPerSec+det.Reps[1].OpsPerSec)/2 {
			t.Errorf("cell median %v is not the mean of its two repetitions", det.Cell.OpsPerSec)
		}
		if det.Session.Number != 1 || det.Engine.Key != "dragonfly" || len(det.Setup) < 2 {
			t.Errorf("session %d, engine %q, %d setup notes", det.Session.Number, det.Engine.Key, len(det.Setup))
		}
		src := det.Source
		if src.File != "runs-aws.csv" || src.Line < 2 || !src.LineExact || !strings.Contains(src.Upstream, "/results/runs-aws.csv") {
			t.Errorf("source %+v", src)
		}
		if len(src.Fields) != len(src.Header) || src.Header[0] != "run_id" || src.Fields[0] != det.Run.RunID || src.Fields[18] != "2" {
			t.Errorf("the line read back is not the run's: %v", src.Fields)
		}
	})

	t.Run("a session-2 run says its copy's line numbers may differ upstream", func(t *testing.T) {
		det, err := d.Run(t.Context(), "run-s2-20260909-194337-keydb-single-16c-p16-1-10-d100-rep1")
		if err != nil {
			t.Fatal(err)
		}
		if det.Source.LineExact || det.Source.Fields[2] != "keydb" {
			t.Errorf("source %+v", det.Source)
		}
	})

	t.Run("an unknown run is ErrUnknownRun", func(t *testing.T) {
		if _, err := d.Run(t.Context(), "run-s9-x"); !errors.Is(err, bot.ErrUnknownRun) {
			t.Errorf("err %v", err)
		}
	})
}

func TestDatasetFilter(t *testing.T) {
	d := newDataset(t)
	t.Run("a filter returns its cells and every run behind them", func(t *testing.T) {
		res, err := d.Filter(t.Context(), `engine == "dragonfly" && cores == 48 && ratio == "1:10" && value_bytes == 100`)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, c := range res.Cells {
			n += c.Reps
		}
		if len(res.Cells) == 0 || len(res.Runs) != n {
			t.Errorf("%d cells, %d runs, want one run per repetition (%d)", len(res.Cells), len(res.Runs), n)
		}
	})
	t.Run("a page reads only its runs and counts every match", func(t *testing.T) {
		all, err := d.Filter(t.Context(), "true")
		if err != nil {
			t.Fatal(err)
		}
		page, err := d.FilterPage(t.Context(), "true", 50, 50, 10)
		if err != nil {
			t.Fatal(err)
		}
		if page.TotalRuns != len(all.Runs) || page.TotalCells != len(all.Cells) || len(page.Cells) != 10 || len(page.Runs) != 50 {
			t.Fatalf("page: %d of %d runs, %d of %d cells", len(page.Runs), page.TotalRuns, len(page.Cells), page.TotalCells)
		}
		for i, r := range page.Runs {
			if r.ID != all.Runs[50+i].ID {
				t.Fatalf("run %d of the page is %s, want %s", i, r.ID, all.Runs[50+i].ID)
			}
		}
		last, err := d.FilterPage(t.Context(), "true", len(all.Runs)-3, 50, 0)
		if err != nil || len(last.Runs) != 3 || len(last.Cells) != 0 {
			t.Errorf("the last page: %d runs, %d cells, %v", len(last.Runs), len(last.Cells), err)
		}
	})
	t.Run("a refused filter is a FilterProblem pointing at the token", func(t *testing.T) {
		_, err := d.Filter(t.Context(), `cores == 48 && core == 4`)
		var fp *bot.FilterProblem
		if !errors.As(err, &fp) || fp.Column != 16 || !strings.Contains(fp.Msg, `"cores"`) {
			t.Errorf("err %v (%+v)", err, fp)
		}
	})
}

func TestDatasetOverview(t *testing.T) {
	o := newDataset(t).Overview()
	runs := 0
	for _, c := range o.Coverage {
		runs += c.Reps
	}
	if len(o.Coverage) != 254 || runs != 478 || len(o.Sessions) != 2 || len(o.Engines) != 5 || len(o.Terms) == 0 ||
		len(o.Claims) == 0 || len(o.Memory.Rows) == 0 || len(o.FailoverSweep.Groups) == 0 || len(o.FailoverEngines.Groups) == 0 {
		t.Errorf("overview: %d cells, %d runs, %d sessions, %d engines, %d terms, %d claims", len(o.Coverage), runs,
			len(o.Sessions), len(o.Engines), len(o.Terms), len(o.Claims))
	}
}

// TestCoverageByEngineCountsWhatWasMeasured checks the summary against the
// measured runs themselves: every run counted once under its engine, the
// engines named as the knowledge base names them, in its order.
func TestCoverageByEngineCountsWhatWasMeasured(t *testing.T) {
	d := newDataset(t)
	cov := d.CoverageByEngine()
	runs := analyticstest.OpenStore(t).Runs()
	perEngine := map[string]int{}
	for _, r := range runs {
		perEngine[r.Engine]++
	}
	if len(cov) != len(perEngine) {
		t.Fatalf("%d engines summarised, the runs have %d", len(cov), len(perEngine))
	}
	var names []string
	total := 0
	for _, e := range cov {
		names = append(names, e.Name)
		total += e.Runs
		if len(e.Sessions) == 0 || len(e.Cores) == 0 || len(e.Pipelines) == 0 || !slices.IsSorted(e.Cores) {
			t.Errorf("%s: sessions %v, cores %v, pipelines %v", e.Name, e.Sessions, e.Cores, e.Pipelines)
		}
	}
	if total != len(runs) {
		t.Errorf("%d runs summarised, %d measured", total, len(runs))
	}
	if want := []string{"Dragonfly", "Redis", "Valkey", "KeyDB", "Garnet"}; !slices.Equal(names, want) {
		t.Errorf("engines %v, want %v", names, want)
	}
	for _, e := range cov {
		if e.Name == "Garnet" && !slices.Equal(e.Sessions, []int{2}) {
			t.Errorf("Garnet measured in sessions %v, want session 2 only", e.Sessions)
		}
	}
}
