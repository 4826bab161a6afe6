package knowledge

import (
	"errors"
	"strings"
	"testing"
)

func TestLoadRejectsAClaimWithoutItsStructuredFields(t *testing.T) {
	st := openStore(t)
	for _, tc := range []struct {
		name  string
		alter func(e map[string]any)
		want  string
	}{
		{"a claim missing its comparability", func(e map[string]any) { delete(e, "comparability") },
			`claim:dragonfly-25x: no comparability rule`},
		{"a claim missing its version", func(e map[string]any) { e["version"] = "" },
			`claim:dragonfly-25x: no version`},
		{"a claim missing its conditions", func(e map[string]any) { delete(e, "conditions") },
			`claim:dragonfly-25x: conditions need hardware`},
		{"a not-comparable claim without its reason", func(e map[string]any) {
			delete(e["comparability"].(map[string]any), "reason")
		}, `claim:dragonfly-25x: comparability "not comparable" needs the reason`},
		{"a not-comparable claim without its nearest measures", func(e map[string]any) {
			delete(e["comparability"].(map[string]any), "nearest")
		}, `claim:dragonfly-25x: comparability "not comparable" names the nearest measures`},
		{"nearest naming no measure", func(e map[string]any) {
			e["comparability"].(map[string]any)["nearest"] = []any{"df", "nope"}
		}, `claim:dragonfly-25x: nearest names no measure "nope"`},
		{"an unknown status", func(e map[string]any) {
			e["comparability"].(map[string]any)["status"] = "maybe"
		}, `claim:dragonfly-25x: comparability status "maybe"`},
		{"a comparable claim without a check", func(e map[string]any) {
			e["comparability"] = map[string]any{"status": "comparable", "series": "Dragonfly single vs Redis single"}
		}, `claim:dragonfly-25x: a comparable claim names the series it is comparable with and a check`},
		{"a check naming no measure", func(e map[string]any) {
			e["comparability"] = map[string]any{"status": "comparable", "series": "x",
				"check": map[string]any{"kind": "ratio", "subject": []any{"df"}, "against": []any{"redis_single"}, "claimed": 25}}
		}, `claim:dragonfly-25x: check names no measure "redis_single"`},
		{"a typed verdict", func(e map[string]any) { e["verdict"] = "yes" },
			`claims.json: json: unknown field "verdict"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := dataCopy(t)
			edit(t, fsys, "claims.json", "claim:dragonfly-25x", tc.alter)
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

// withCheck loads the data with claim:dragonfly-vs-valkey-gcp's check
// replaced and returns that claim.
func withCheck(t *testing.T, check map[string]any) Claim {
	t.Helper()
	fsys := dataCopy(t)
	edit(t, fsys, "claims.json", "claim:dragonfly-vs-valkey-gcp", func(e map[string]any) {
		e["comparability"].(map[string]any)["check"] = check
	})
	b, err := loadFrom(t.Context(), fsys, openStore(t))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := b.Claim("claim:dragonfly-vs-valkey-gcp")
	return c
}

func TestAComparableClaimsVerdictIsComputedFromTheRuns(t *testing.T) {
	against := func(claimed float64, vs ...any) map[string]any {
		return map[string]any{"kind": "ratio", "subject": []any{"df"}, "against": vs, "claimed": claimed}
	}
	for _, tc := range []struct {
		name  string
		check map[string]any
		want  string
	}{
		// Dragonfly 15.47M against the realistic Valkey cluster's 4.50M is 3.44×.
		{"a claimed multiple the runs exceed is a yes", against(2, "valkey_real"), VerdictYes},
		{"a claimed multiple within a tenth of the runs' is about the same", against(3.3, "valkey_real"), VerdictAbout},
		{"a claimed multiple larger than the runs', same direction, is partly", against(4.5, "valkey_real"), VerdictPartly},
		{"a claimed lead the runs reverse is a no", against(4.5, "valkey_ceiling"), VerdictNo},
		{"outcomes that disagree make partly", against(4.5, "valkey_real", "valkey_ceiling"), VerdictPartly},
		{"a floor the runs clear is a yes", map[string]any{"kind": "at_least", "subject": []any{"df"}, "claimed": 1e6}, VerdictYes},
		{"a floor the runs miss is a no", map[string]any{"kind": "at_least", "subject": []any{"valkey_real"}, "claimed": 1e8}, VerdictNo},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := withCheck(t, tc.check).Verdict; got != tc.want {
				t.Errorf("verdict = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestEveryClaimCarriesItsStructuredFieldsAndAComputedVerdict(t *testing.T) {
	b := loadBase(t)
	want := map[string]string{
		"claim:dragonfly-vs-valkey-gcp": VerdictPartly,       // 3.4× realistic, 0.39× ceiling against 4.5×
		"claim:valkey-9-billion-rps":    StatusNotComparable, // a 2,000-node cluster
		"claim:redis-8-8":               StatusNeverMeasured, // Redis 8.8 never run
		"engine-status:keydb":           StatusContext,
		"claim:dragonfly-millions-qps":  VerdictYes,
		"claim:dragonfly-sub-ms-p99":    VerdictPartly, // under 1 ms only without pipelining
		"claim:dragonfly-25x":           StatusNotComparable,
	}
	for _, c := range b.Claims("", "") {
		if c.Engine == "" || c.Version == "" || c.Date == "" || c.Metric == "" || c.Comparability.Status == "" {
			t.Errorf("%s: structured fields missing", c.ID)
		}
		if c.Verdict == "" {
			t.Errorf("%s: no verdict computed", c.ID)
		}
		if c.Comparable() && len(c.Comparability.Outcomes) == 0 {
			t.Errorf("%s: comparable, yet no measured outcome", c.ID)
		}
		if w, ok := want[c.ID]; ok && c.Verdict != w {
			t.Errorf("%s: verdict %q, want %q", c.ID, c.Verdict, w)
		}
		delete(want, c.ID)
	}
	for id := range want {
		t.Errorf("%s: no such entry in the claims file", id)
	}
}

func TestTheGoogleCloudClaimsMeasuredFiguresComeFromTheRuns(t *testing.T) {
	c, ok := loadBase(t).Claim("claim:dragonfly-vs-valkey-gcp")
	if !ok {
		t.Fatal("no claim:dragonfly-vs-valkey-gcp")
	}
	// The figures FACTS.md states for this claim.
	for name, want := range map[string]float64{"df": 15473658.395, "valkey_real": 4496839.105, "valkey_ceiling": 40183221.4} {
		if m, _ := c.Measure(name); m.Value != want {
			t.Errorf("%s = %v, want %v", name, m.Value, want)
		}
	}
	if f, _ := c.Figure("df_vs_valkey_real"); f.Text != "3.4×" {
		t.Errorf("df_vs_valkey_real = %q, want 3.4×", f.Text)
	}
	if f, _ := c.Figure("df_vs_valkey_ceiling"); f.Text != "0.39×" {
		t.Errorf("df_vs_valkey_ceiling = %q, want 0.39×", f.Text)
	}
}
