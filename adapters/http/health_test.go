package http

import (
	"context"
	"errors"
	"io"
	"net/http"
	"testing"
)

func TestHealthzNamesWhatFailedAndExplainsOnlyWhatMayBeShown(t *testing.T) {
	ok := func(context.Context) error { return nil }
	failing := func(msg string) func(context.Context) error {
		return func(context.Context) error { return errors.New(msg) }
	}
	tests := []struct {
		name   string
		checks []HealthCheck
		want   string
	}{
		{"every check passing is ok", []HealthCheck{{Name: "store", Check: ok}}, `{"status":"ok","store":"ok"}`},
		{"a failing check is degraded without its error", []HealthCheck{{Name: "disk", Check: failing("/secret/path: 1 MiB free")}},
			`{"disk":"unavailable","status":"degraded"}`},
		{"a failing check that explains says why", []HealthCheck{{Name: "disk", Check: failing("/secret/path")},
			{Name: "store", Check: failing("first use could not be written"), Explain: true}},
			`{"disk":"unavailable","status":"degraded","store":"unavailable","why":{"store":"first use could not be written"}}`},
		{"an explaining check that passes says nothing more", []HealthCheck{{Name: "store", Check: ok, Explain: true}}, `{"status":"ok","store":"ok"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := startServer(t, &fakeBot{}, Options{Health: tt.checks})
			resp, err := http.Get(base + "/healthz")
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusOK || string(b) != tt.want+"\n" {
				t.Errorf("got %d %s, want 200 %s", resp.StatusCode, b, tt.want)
			}
		})
	}
}
