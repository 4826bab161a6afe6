package planner

// whyMissing explains, where the sources say why, a gap the coverage
// revealed (FACTS.md §1.2, §4). Coverage decides that something is
// missing; this only adds the reason to the sentence.
func whyMissing(engine, mode, knob string, value any) string {
	switch knob {
	case "cores":
		if n, ok := value.(int); ok && engine == "keydb" && n > 16 {
			return "KeyDB 6.3.4 refuses to start with more than 16 server threads"
		}
	case "value_bytes":
		if engine == "keydb" || engine == "garnet" {
			return "session 2 used only 100-byte values"
		}
	case "pipeline":
		if mode == "cluster-sat" {
			return "the fully driven ceiling was run only at pipeline 16"
		}
	case "ratio":
		if r, ok := value.(string); ok && (r == "mget10" || r == "mset10") && (mode == "cluster" || mode == "cluster-sat") {
			return "multi-key commands across hash slots fail on a cluster with a CROSSSLOT error"
		}
		if mode == "cluster-sat" {
			return "the fully driven ceiling was run only for SET:GET 1:10 and 1:1 at 100 B, and 1:10 at 1 KB"
		}
	case "mode":
		m, _ := value.(string)
		switch {
		case m == "single" && (engine == "redis" || engine == "valkey"):
			return "Redis and Valkey execute commands on one thread, so the benchmark ran them as clusters with one shard per core"
		case m != "single" && engine == "dragonfly":
			return "a multi-machine Dragonfly Cluster was not measured"
		case m != "single" && (engine == "garnet" || engine == "keydb"):
			return "only single-node runs exist; its cluster mode was not tested"
		}
	case "failover":
		switch engine {
		case "garnet":
			return "Garnet does not speak Redis Sentinel; its HA is its own cluster-mode replication"
		case "keydb":
			return "KeyDB was not tested in the failover lab"
		}
	case "memory":
		if engine == "garnet" {
			return "Garnet exposes no used_memory counter"
		}
	}
	return ""
}
