package slack

import (
	"encoding/json"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// TestTheCardRendersInABrowser lays the card Slack would get for a golden
// question out as a small HTML mock of Slack's message view (its blocks:
// sections, context, buttons, feedback buttons, the chart block's title)
// and screenshots it with headless Chromium at a phone's width. With
// -update the picture becomes the README's docs/slack-card.png.
func TestTheCardRendersInABrowser(t *testing.T) {
	chromium := chromiumBinary(t)
	env := bottest.NewEnv(t, nil)
	fs := newFakeSlack(t)
	h := newHarness(t, fs, newMemStore(), env.Bot, func(c *Config) { c.PublicURL = "https://oracle.example.com" })
	h.command("C1", "U1", "Is Dragonfly 25x faster than Redis?", "T1")
	card := fs.waitFor("chat.postMessage")
	page := slackMock(t, card.Form.Get("blocks"))
	for _, want := range []string{"Show evidence", "Open on the web", "👍", "👎", "Not comparable"} {
		if !strings.Contains(page, want) {
			t.Errorf("the mock lacks %q", want)
		}
	}
	dir := t.TempDir()
	shot := screenshot(t, chromium, dir, page)
	if *update {
		if err := os.WriteFile(filepath.Join("..", "..", "docs", "slack-card.png"), shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// chromiumBinary finds headless Chromium; without it the test is skipped,
// except in CI, where it fails.
func chromiumBinary(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no Chromium on PATH; install Debian's chromium package")
	}
	t.Skip("no Chromium on PATH: install Debian's chromium package to screenshot the card")
	return ""
}

// screenshot renders page with headless Chromium 400 px wide and returns
// the PNG.
func screenshot(t *testing.T, chromium, dir, page string) []byte {
	t.Helper()
	src := filepath.Join(dir, "card.html")
	if err := os.WriteFile(src, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "card.png")
	cmd := exec.CommandContext(t.Context(), chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--window-size=400,560", "--screenshot="+out, "file://"+src)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, b)
	}
	png, err := os.ReadFile(out)
	if err != nil || len(png) < 1000 || string(png[1:4]) != "PNG" {
		t.Fatalf("no screenshot (%d bytes, %v)", len(png), err)
	}
	return png
}

var (
	mrkBold   = regexp.MustCompile(`\*([^*\n]+)\*`)
	mrkItalic = regexp.MustCompile(`(^|\s)_([^_\n]+)_`)
	mrkCode   = regexp.MustCompile("`([^`\n]+)`")
	mrkLink   = regexp.MustCompile(`&lt;(https?://[^|&]+)\|([^&]+)&gt;`)
)

// mrkdwnHTML shows Slack mrkdwn as Slack does.
func mrkdwnHTML(s string) string {
	s = html.EscapeString(html.UnescapeString(strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(s)))
	s = mrkLink.ReplaceAllString(s, `<a href="$1">$2</a>`)
	s = mrkCode.ReplaceAllString(s, "<code>$1</code>")
	s = mrkBold.ReplaceAllString(s, "<b>$1</b>")
	s = mrkItalic.ReplaceAllString(s, "$1<i>$2</i>")
	return strings.ReplaceAll(s, "\n", "<br>")
}

// slackMock is a page showing a message's blocks the way Slack lays them out.
func slackMock(t *testing.T, blocksJSON string) string {
	t.Helper()
	var blocks []map[string]any
	if err := json.Unmarshal([]byte(blocksJSON), &blocks); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(`<!doctype html><meta charset="utf-8"><style>
body{margin:0;font:15px/1.46 -apple-system,"Segoe UI",Lato,sans-serif;color:#1d1c1d;background:#fff}
.msg{display:flex;gap:8px;padding:12px 14px}.av{width:36px;height:36px;border-radius:6px;background:#4a154b;color:#fff;font-weight:700;display:grid;place-items:center}
.who b{font-weight:900}.app{font-size:10px;background:#e8e8e8;color:#616061;padding:1px 3px;border-radius:2px;margin-left:4px}
.sec{margin:4px 0}.ctx{color:#616061;font-size:12px;margin:4px 0}.row{display:flex;flex-wrap:wrap;gap:8px;margin:8px 0}
.btn{border:1px solid #bbb;border-radius:4px;padding:3px 10px;font-size:13px;font-weight:700;background:#fff}
.fb{border:1px solid #ddd;border-radius:12px;padding:0 8px;font-size:14px}.chart{border:1px solid #ddd;border-radius:6px;padding:8px;margin:6px 0;color:#616061}
code{font:12px monospace;background:#f6f6f6;border:1px solid #ddd;border-radius:3px;padding:0 2px;color:#e01e5a}a{color:#1264a3}
</style><div class="msg"><div class="av">M</div><div><div class="who"><b>memdb-oracle</b><span class="app">APP</span></div>`)
	for _, blk := range blocks {
		switch blk["type"] {
		case "section":
			txt, _ := blk["text"].(map[string]any)
			s, _ := txt["text"].(string)
			b.WriteString(`<div class="sec">` + mrkdwnHTML(s) + `</div>`)
		case "markdown":
			s, _ := blk["text"].(string)
			for _, para := range strings.Split(s, "\n\n") {
				b.WriteString(`<div class="sec">` + mrkdwnHTML(markdownAsMrkdwn(para)) + `</div>`)
			}
		case "context":
			for _, e := range blk["elements"].([]any) {
				s, _ := e.(map[string]any)["text"].(string)
				b.WriteString(`<div class="ctx">` + mrkdwnHTML(s) + `</div>`)
			}
		case "actions":
			b.WriteString(`<div class="row">`)
			for _, e := range blk["elements"].([]any) {
				txt, _ := e.(map[string]any)["text"].(map[string]any)
				s, _ := txt["text"].(string)
				b.WriteString(`<span class="btn">` + html.EscapeString(s) + `</span>`)
			}
			b.WriteString(`</div>`)
		case "context_actions":
			b.WriteString(`<div class="row">`)
			for _, e := range blk["elements"].([]any) {
				m := e.(map[string]any)
				for _, side := range []string{"positive_button", "negative_button"} {
					btn, _ := m[side].(map[string]any)
					txt, _ := btn["text"].(map[string]any)
					s, _ := txt["text"].(string)
					b.WriteString(`<span class="fb">` + html.EscapeString(s) + `</span>`)
				}
			}
			b.WriteString(`</div>`)
		case "data_visualization":
			title, _ := blk["title"].(string)
			b.WriteString(`<div class="chart">📊 ` + html.EscapeString(title) + `</div>`)
		}
	}
	b.WriteString(`</div></div>`)
	return b.String()
}
