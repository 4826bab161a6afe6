package knowledge

import (
	"encoding/json"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// dataCopy returns the embedded data as a writable in-memory file system.
func dataCopy(tb testing.TB) fstest.MapFS {
	tb.Helper()
	sub, err := fs.Sub(embedded, "data")
	if err != nil {
		tb.Fatal(err)
	}
	out := fstest.MapFS{}
	err = fs.WalkDir(sub, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(sub, path)
		out[path] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// edit decodes one JSON file of fsys as a list of objects, lets change
// alter the object with the given id, and writes the file back.
func edit(tb testing.TB, fsys fstest.MapFS, file, id string, change func(e map[string]any)) {
	tb.Helper()
	var list []map[string]any
	if err := json.Unmarshal(fsys[file].Data, &list); err != nil {
		tb.Fatal(err)
	}
	found := false
	for _, e := range list {
		if e["id"] == id {
			change(e)
			found = true
		}
	}
	if !found {
		tb.Fatalf("%s has no entry %s", file, id)
	}
	b, err := json.Marshal(list)
	if err != nil {
		tb.Fatal(err)
	}
	fsys[file] = &fstest.MapFile{Data: b}
}

// measure returns the named measure object of an entry being edited.
func measure(tb testing.TB, e map[string]any, name string) map[string]any {
	tb.Helper()
	for _, m := range e["measures"].([]any) {
		if mm := m.(map[string]any); mm["name"] == name {
			return mm
		}
	}
	tb.Fatalf("%s has no measure %s", e["id"], name)
	return nil
}

func figure(tb testing.TB, e map[string]any, name string) map[string]any {
	tb.Helper()
	for _, f := range e["figures"].([]any) {
		if ff := f.(map[string]any); ff["name"] == name {
			return ff
		}
	}
	tb.Fatalf("%s has no figure %s", e["id"], name)
	return nil
}

func TestTheUnalteredDataLoadsFromACopy(t *testing.T) {
	if _, err := loadFrom(t.Context(), dataCopy(t), openStore(t)); err != nil {
		t.Fatalf("loading a copy of the embedded data: %v", err)
	}
}

func TestLoadRejectsInvalidDataWithAPreciseMessage(t *testing.T) {
	st := openStore(t)
	for _, tc := range []struct {
		name  string
		alter func(t *testing.T, fsys fstest.MapFS)
		want  string
	}{
		{"an unknown id in see-also", func(t *testing.T, fsys fstest.MapFS) {
			edit(t, fsys, "terms.json", "term:pipelining", func(e map[string]any) {
				e["see_also"] = []any{"term:rtt", "term:nope"}
			})
		}, `term:pipelining: see_also: unknown id "term:nope"`},
		{"two terms sharing an alias", func(t *testing.T, fsys fstest.MapFS) {
			edit(t, fsys, "terms.json", "term:pipelining", func(e map[string]any) {
				e["aliases"] = append(e["aliases"].([]any), "P99")
			})
		}, `duplicate alias "p99": term:pipelining has "P99" and term:latency-percentiles has "p99"`},
		{"a claim whose counter-query does not compile", func(t *testing.T, fsys fstest.MapFS) {
			edit(t, fsys, "claims.json", "claim:dragonfly-25x", func(e map[string]any) {
				m := measure(t, e, "df")
				delete(m, "at")
				m["filter"] = `engin == "dragonfly" && cores == 48`
			})
		}, `claim:dragonfly-25x: measure "df": counter-query does not compile`},
		{"a claim whose counter-query matches no run", func(t *testing.T, fsys fstest.MapFS) {
			edit(t, fsys, "claims.json", "claim:dragonfly-25x", func(e map[string]any) {
				measure(t, e, "df")["at"] = "s1 dragonfly single 48c 1:10 100B p64"
			})
		}, `claim:dragonfly-25x: measure "df": counter-query matches no run (filter session == 1 && engine == "dragonfly" && mode == "single" && cores == 48 && ratio == "1:10" && value_bytes == 100 && pipeline == 64)`},
		{"a counter-query that selects several cells", func(t *testing.T, fsys fstest.MapFS) {
			edit(t, fsys, "claims.json", "claim:dragonfly-25x", func(e map[string]any) {
				measure(t, e, "df")["at"] = "s1 dragonfly single 1:10 100B p16"
			})
		}, `selects 5 cells, want exactly one`},
		{"a finding whose crossover never happens", func(t *testing.T, fsys fstest.MapFS) {
			edit(t, fsys, "findings.json", "finding:overtake-16c", func(e map[string]any) {
				figure(t, e, "crossover_redis")["b"] = "redis_ceiling_by_cores"
			})
		}, `finding:overtake-16c: figure "crossover_redis": df_by_cores never passes redis_ceiling_by_cores at any measured core count`},
		{"a finding whose figure names a missing measure", func(t *testing.T, fsys fstest.MapFS) {
			edit(t, fsys, "findings.json", "finding:headline-48c", func(e map[string]any) {
				figure(t, e, "df_vs_realistic")["b"] = "redis_realistic"
			})
		}, `finding:headline-48c: figure "df_vs_realistic": unknown measure "redis_realistic"`},
		{"a finding asking for a metric its cell lacks", func(t *testing.T, fsys fstest.MapFS) {
			edit(t, fsys, "findings.json", "finding:multi-key-crossslot", func(e map[string]any) {
				measure(t, e, "df_mset_48")["metric"] = "hit_rate"
			})
		}, `finding:multi-key-crossslot: measure "df_mset_48": cell s1 dragonfly single 48c mset10 100B p16 has no hit_rate`},
		{"a finding statement naming an unknown figure", func(t *testing.T, fsys fstest.MapFS) {
			edit(t, fsys, "findings.json", "finding:keydb-wall", func(e map[string]any) {
				e["statement"] = "KeyDB reached {{k32}}."
			})
		}, `finding:keydb-wall: statement: placeholder {{k32}}: no measure or figure "k32"`},
		{"a figure typed into the data", func(t *testing.T, fsys fstest.MapFS) {
			edit(t, fsys, "findings.json", "finding:headline-48c", func(e map[string]any) {
				figure(t, e, "df_vs_realistic")["text"] = "25×"
			})
		}, `finding:headline-48c: figure "df_vs_realistic": value and text are computed, never typed`},
		{"a measure value typed into the data", func(t *testing.T, fsys fstest.MapFS) {
			edit(t, fsys, "claims.json", "claim:dragonfly-25x", func(e map[string]any) {
				measure(t, e, "df")["value"] = 25e6
			})
		}, `claim:dragonfly-25x: measure "df": value, cell, series and label are computed, never typed`},
		{"a table measure for an engine never measured", func(t *testing.T, fsys fstest.MapFS) {
			edit(t, fsys, "findings.json", "finding:memory-bytes-per-key", func(e map[string]any) {
				measure(t, e, "valkey")["row"] = "garnet"
			})
		}, `memory table: garnet was never measured`},
		{"an unknown source", func(t *testing.T, fsys fstest.MapFS) {
			edit(t, fsys, "rules.json", "rule:mean-not-p50", func(e map[string]any) {
				e["sources"] = []any{"blog-part9"}
			})
		}, `rule:mean-not-p50: unknown source "source:blog-part9"`},
		{"a duplicate id", func(t *testing.T, fsys fstest.MapFS) {
			edit(t, fsys, "traps.json", "trap:cache-misses", func(e map[string]any) {
				e["id"] = "trap:shard-count"
			})
		}, `duplicate id "trap:shard-count"`},
		{"an unknown field in a data file", func(t *testing.T, fsys fstest.MapFS) {
			edit(t, fsys, "terms.json", "term:rtt", func(e map[string]any) {
				e["definiton"] = "typo"
			})
		}, `terms.json: json: unknown field "definiton"`},
		{"a malformed memory file", func(t *testing.T, fsys fstest.MapFS) {
			fsys["memory-aws.txt"] = &fstest.MapFile{Data: []byte("Loading 1000000 keys x 100B into each engine, then reading used_memory...\n\nengine used_memory bytes/key keys\ndragonfly 147207200 lots 1000000\n")}
		}, `memory-aws.txt: line 4: bad number`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := dataCopy(t)
			tc.alter(t, fsys)
			_, err := loadFrom(t.Context(), fsys, st)
			if err == nil {
				t.Fatal("Load succeeded, want an error")
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error does not wrap ErrInvalid: %v", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
}
