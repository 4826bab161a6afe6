package analytics

// EngineName is how an engine of the filter vocabulary is written for
// people ("keydb" → "KeyDB"); an imported engine the five do not include
// is written with a capital ("pelikan" → "Pelikan").
func EngineName(engine string) string {
	switch engine {
	case "dragonfly":
		return "Dragonfly"
	case "redis":
		return "Redis"
	case "valkey":
		return "Valkey"
	case "keydb":
		return "KeyDB"
	case "garnet":
		return "Garnet"
	}
	if engine == "" || engine[0] < 'a' || engine[0] > 'z' {
		return engine
	}
	return string(engine[0]-'a'+'A') + engine[1:]
}

// VersionedSeriesName is SeriesName with the engine's version after its
// name when the runs name one ("Valkey 9.0 (single process)").
func VersionedSeriesName(engine, version, mode string) string {
	name := SeriesName(engine, mode)
	if version == "" {
		return name
	}
	e := EngineName(engine)
	return e + " " + version + name[len(e):]
}

// SeriesName is the name users see for an engine and mode (docs/design.md#data):
// "Dragonfly (single process)", "Redis Cluster — realistic (one normal
// client)", "Valkey Cluster — fully driven ceiling (one client per shard)",
// "Garnet (single process, client-limited floor)". Every answer, chart and
// knowledge entry names series this way, so it lives with the data.
func SeriesName(engine, mode string) string {
	name := EngineName(engine)
	switch mode {
	case "cluster":
		return name + " Cluster — realistic (one normal client)"
	case "cluster-sat":
		return name + " Cluster — fully driven ceiling (one client per shard)"
	}
	if engine == "garnet" {
		return name + " (single process, client-limited floor)"
	}
	return name + " (single process)"
}
