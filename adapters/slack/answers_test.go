package slack

import "github.com/memdb-oracle/memdb-oracle/bot"

// Hand-built answers with realistic content (figures from session 1, as
// the bot states them), used by the rendering and transport tests.

func claimAnswer() bot.Answer {
	hit := 1.0
	return bot.Answer{
		Kind:           bot.KindClaim,
		Interpretation: "Dragonfly vs Redis Cluster, 48 cores, SET:GET 1:10 (read-heavy), 100 B values, pipeline 16, session 1",
		Headline:       "Measured here, Dragonfly is 3.4× a realistic Redis Cluster at 48 cores — not 25× — and reaches 38% of the fully driven cluster ceiling.",
		Claim: &bot.ClaimContext{
			ID:        "claim:dragonfly-25x",
			Claimant:  "Dragonfly",
			Statement: "“25x more QPS than Redis”",
			Setup:     "one multi-threaded Dragonfly process against **one single-threaded Redis process**, GET workload, AWS c6gn.16xlarge (ARM, 64 vCPU)",
			URL:       "https://www.dragonflydb.io/docs/getting-started/benchmark",
			Measured:  "Dragonfly 15.5M ops/s; Redis Cluster realistic 4.6M (3.4×); fully driven ceiling 40.6M (Dragonfly at 38%, the ceiling 2.6× ahead)",
			Verdict:   "Neither reproduced nor refuted: this dataset has no single-process Redis run, and its fair peer is a cluster using the whole machine.",
			WhyDiffer: "The vendor compares against one Redis process using one core for execution; here Redis runs as a 48-shard cluster. Hardware (ARM c6gn vs Intel c7i), versions and workload (GET-only vs 1:10) differ too.",
		},
		Table: &bot.Table{
			Columns: []string{"Series", "ops/s", "p50 ms", "p99 ms", "p99.9 ms", "Reps"},
			Rows: [][]string{
				{"Dragonfly (single process)", "15.5M", "0.883", "2.423", "3.327", "2 reps"},
				{"Redis Cluster — realistic (one normal client)", "4.6M", "83.967", "138.239", "150.527", "2 reps"},
				{"Redis Cluster — fully driven ceiling (one client per shard)", "40.6M", "0.559", "1.511", "4.639", "single run"},
			},
		},
		Rows: []bot.Row{
			{Series: "Dragonfly (single process)", RowCell: bot.RowCell{Engine: "dragonfly", Mode: "single", Session: 1, Cores: 48, Ratio: "1:10", ValueBytes: 100, Pipeline: 16, Reps: 2, OpsPerSec: 15473658.395, P50Ms: 0.883, P99Ms: 2.423, P999Ms: 3.327}, HitRate: &hit,
				RunIDs: []string{"run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep1", "run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep2"}},
			{Series: "Redis Cluster — realistic (one normal client)", RowCell: bot.RowCell{Engine: "redis", Mode: "cluster", Session: 1, Cores: 48, Ratio: "1:10", ValueBytes: 100, Pipeline: 16, Reps: 2, OpsPerSec: 4578516.24, P50Ms: 83.967, P99Ms: 138.239, P999Ms: 150.527}, HitRate: &hit,
				RunIDs: []string{"run-s1-20260901-083406-redis-cluster-48c-p16-1-10-d100-rep1", "run-s1-20260901-083406-redis-cluster-48c-p16-1-10-d100-rep2"}},
			{Series: "Redis Cluster — fully driven ceiling (one client per shard)", RowCell: bot.RowCell{Engine: "redis", Mode: "cluster-sat", Session: 1, Cores: 48, Ratio: "1:10", ValueBytes: 100, Pipeline: 16, Reps: 1, OpsPerSec: 40576639.07, P50Ms: 0.559, P99Ms: 1.511, P999Ms: 4.639}, HitRate: &hit,
				RunIDs: []string{"run-s1-20260901-083406-redis-cluster-sat-48c-p16-1-10-d100-rep1"}},
		},
		Caveats: []string{
			"Figures are medians across 2 repetitions; the fully driven ceiling is a single run.",
			"The realistic cluster is driven by one normal client; the ceiling needs one client per shard and flawless routing.",
			"Latencies are measured at the client and include queueing at this load.",
		},
		Terms: []bot.TermGist{
			{ID: "term:pipelining", Name: "Pipelining", Gist: "sending many commands before reading the replies; here 16 at a time"},
			{ID: "term:cluster-sat", Name: "Fully driven ceiling", Gist: "a Redis/Valkey cluster driven by one client per shard: the most it can do"},
		},
		PlainWords: "Dragonfly on one big machine does about three times what an ordinary application gets from a Redis Cluster on the same machine, but a cluster driven perfectly does more.",
		Sources: bot.Sources{
			Filters: []string{
				`engine == "dragonfly" && mode == "single" && cores == 48 && ratio == "1:10" && value_bytes == 100 && pipeline == 16`,
				`engine == "redis" && mode == "cluster" && cores == 48 && ratio == "1:10" && value_bytes == 100 && pipeline == 16`,
				`engine == "redis" && mode == "cluster-sat" && cores == 48 && ratio == "1:10" && value_bytes == 100 && pipeline == 16`,
			},
			RunIDs: []string{
				"run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep1",
				"run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep2",
				"run-s1-20260901-083406-redis-cluster-48c-p16-1-10-d100-rep1",
				"run-s1-20260901-083406-redis-cluster-48c-p16-1-10-d100-rep2",
				"run-s1-20260901-083406-redis-cluster-sat-48c-p16-1-10-d100-rep1",
			},
			Entries: []bot.SourceEntry{
				{ID: "claim:dragonfly-25x", Title: "Dragonfly — \"25x more QPS than Redis\"", URL: "https://www.dragonflydb.io/docs/getting-started/benchmark"},
				{ID: "finding:headline-48c", Title: "48-core headline (session 1)", URL: "https://github.com/memdb-oracle/benchmarks"},
			},
		},
	}
}

func noDataAnswer() bot.Answer {
	hit := 1.0
	return bot.Answer{
		Kind:           bot.KindNoData,
		Interpretation: "Redis, single process, 8 cores, pipeline 64, SET:GET 1:10 (default), 100 B values (default), session 1",
		Headline:       "Never measured, on more than one count:",
		Body: []string{
			"- Redis as a single process: Redis was only run as a cluster (one shard per core), since one Redis process executes commands on one core\n- pipeline 64: only pipelines 1 and 16 were measured",
			"Nothing is interpolated or extrapolated between measured combinations.",
			"The nearest measured rows (what differs from the question is named in each row):",
		},
		Table: &bot.Table{
			Columns: []string{"Series", "Differs in", "ops/s", "p50 ms", "p99 ms", "p99.9 ms", "Reps"},
			Rows: [][]string{
				{"Redis Cluster — realistic (one normal client)", "mode cluster, not single; pipeline 16, not 64", "5.0M", "18.431", "35.199", "40.831", "2 reps"},
				{"Redis Cluster — fully driven ceiling (one client per shard)", "mode cluster-sat, not single; pipeline 16, not 64", "9.2M", "0.419", "0.775", "0.895", "single run"},
			},
		},
		Caveats: []string{"The fully driven ceiling (cluster-sat) is a single run; the realistic cluster's figures are medians across 2 repetitions."},
		Nearest: []bot.Row{
			{Series: "Redis Cluster — realistic (one normal client)", RowCell: bot.RowCell{Engine: "redis", Mode: "cluster", Session: 1, Cores: 8, Ratio: "1:10", ValueBytes: 100, Pipeline: 16, Reps: 2, OpsPerSec: 5027713.545, P50Ms: 18.431, P99Ms: 35.199, P999Ms: 40.831}, HitRate: &hit,
				Differs: []string{"mode cluster, not single", "pipeline 16, not 64"},
				RunIDs:  []string{"run-s1-20260901-083406-redis-cluster-8c-p16-1-10-d100-rep1", "run-s1-20260901-083406-redis-cluster-8c-p16-1-10-d100-rep2"}},
			{Series: "Redis Cluster — fully driven ceiling (one client per shard)", RowCell: bot.RowCell{Engine: "redis", Mode: "cluster-sat", Session: 1, Cores: 8, Ratio: "1:10", ValueBytes: 100, Pipeline: 16, Reps: 1, OpsPerSec: 9191907.87, P50Ms: 0.419, P99Ms: 0.775, P999Ms: 0.895}, HitRate: &hit,
				Differs: []string{"mode cluster-sat, not single", "pipeline 16, not 64"},
				RunIDs:  []string{"run-s1-20260901-083406-redis-cluster-sat-8c-p16-1-10-d100-rep1"}},
		},
		Sources: bot.Sources{
			Filters: []string{`engine == "redis" && cores == 8 && ratio == "1:10" && value_bytes == 100 && pipeline == 16`},
			RunIDs: []string{
				"run-s1-20260901-083406-redis-cluster-8c-p16-1-10-d100-rep1",
				"run-s1-20260901-083406-redis-cluster-8c-p16-1-10-d100-rep2",
				"run-s1-20260901-083406-redis-cluster-sat-8c-p16-1-10-d100-rep1",
			},
			Entries: []bot.SourceEntry{
				{ID: "finding:redis-single-threaded-and-cluster", Title: "Why Redis is tested as a cluster", URL: "https://redis.io/docs/latest/operate/oss_and_stack/management/optimization/benchmarks/"},
			},
		},
	}
}

func helpAnswer() bot.Answer {
	return bot.Answer{
		Kind:      bot.KindHelp,
		Ephemeral: true,
		Headline:  "I answer questions about Redis, Valkey, Dragonfly, KeyDB and Garnet from 478 measured benchmark runs — and nothing else.",
		Body: []string{
			"Every number comes from measured runs (the median across repetitions), with its conditions, the filter and the run IDs. Vendor claims are shown as context next to the measurements. Combinations that were never measured are named as such, with the nearest measured rows.",
			"Ask in a thread to follow up: *what about valkey?* or *and the p99?* keep the earlier conditions.",
		},
		Examples: []string{
			"Is Dragonfly 25x faster than Redis?",
			"How does Dragonfly scale compared with Redis?",
			"What's Garnet's peak throughput?",
			"Dragonfly at 8 cores",
			"What is pipelining?",
		},
		Sources: bot.Sources{Filters: []string{}, RunIDs: []string{}, Entries: []bot.SourceEntry{}},
	}
}
