package web

import (
	"context"
	"flag"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/memdb-oracle/memdb-oracle/adapters/chart"
	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

var (
	update   = flag.Bool("update", false, "rewrite the README's screenshot of the page (docs/web-example.png)")
	shotsDir = flag.String("screenshots", "", "keep the browser tests' screenshots in this directory (default: the test's temp dir)")
)

// chromiumNames are the binaries the browser tests look for on PATH.
var chromiumNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"}

// findChromium returns a Chromium binary. Without one the test is skipped
// with a message naming what is missing, except in CI, where it fails.
func findChromium(tb testing.TB) string {
	tb.Helper()
	for _, name := range chromiumNames {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "no Chromium on PATH (looked for " + strings.Join(chromiumNames, ", ") + "): install the chromium package (apt-get install chromium; brew install --cask chromium on macOS)"
	switch strings.ToLower(strings.TrimSpace(os.Getenv("CI"))) {
	case "", "0", "false", "no":
		tb.Skip("skipped: " + msg)
	}
	tb.Fatal(msg + "; CI is set, so the browser tests fail instead of skipping (.ci/run installs it)")
	return ""
}

// browser is one tab of a headless Chromium, with every console message
// its pages wrote.
type browser struct {
	ctx     context.Context
	mu      sync.Mutex
	console []chromedp.ConsoleMessage
}

// startChromium starts headless Chromium (flags that work as root in a
// container, a fresh profile) for the test's lifetime and returns its
// context; tabs open in it.
func startChromium(tb testing.TB) context.Context {
	tb.Helper()
	exe := findChromium(tb)
	actx, cancelAlloc := chromedp.NewExecAllocator(tb.Context(),
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(tb.TempDir()),
	)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 2*time.Minute)
	tb.Cleanup(func() { cancelTimeout(); cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		tb.Fatalf("starting %s: %v", exe, err)
	}
	return ctx
}

// newTab opens a tab in the browser of root and collects its console.
func newTab(tb testing.TB, root context.Context) *browser {
	tb.Helper()
	ctx, cancel := chromedp.NewContext(root)
	b := &browser{ctx: ctx}
	messages := chromedp.Console(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.console = append(b.console, m)
			b.mu.Unlock()
		}
	})
	tb.Cleanup(func() { cancel(); wg.Wait() })
	return b
}

// do runs actions, failing the test on the first error.
func (b *browser) do(tb testing.TB, what string, actions ...chromedp.Action[chromedp.Void]) {
	tb.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		tb.Fatalf("%s: %v", what, err)
	}
}

func eval[T any](tb testing.TB, b *browser, js string) T {
	tb.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		tb.Fatalf("evaluating %s: %v", js, err)
	}
	return v
}

// errors lists the console errors and exceptions so far (CSP violations
// and failed loads are logged as errors too).
func (b *browser) errors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, m := range b.console {
		if m.Type == chromedp.ConsoleError || m.IsException() {
			out = append(out, m.String())
		}
	}
	return out
}

// noHorizontalOverflow fails when the page is wider than the viewport.
func noHorizontalOverflow(tb testing.TB, b *browser, where string) {
	tb.Helper()
	widths := eval[[]int](tb, b, `[document.documentElement.scrollWidth, document.documentElement.clientWidth]`)
	if widths[0] > widths[1] {
		tb.Errorf("%s: the page scrolls sideways at %d px (content is %d px wide)", where, widths[1], widths[0])
	}
}

func screenshot(tb testing.TB, b *browser, path string) {
	tb.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		tb.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		tb.Fatal(err)
	}
}

// serveSite serves the pages with the real chart renderer on a loopback
// server for the browser.
func serveSite(tb testing.TB) string {
	tb.Helper()
	mux := siteFor(tb, bottest.NewEnv(tb, nil), Options{RenderChart: func(_ context.Context, c bot.Chart) ([]byte, error) { return chart.Render(c) }})
	srv := httptest.NewServer(mux)
	tb.Cleanup(srv.Close)
	return srv.URL
}

// The timing hooks the test installs: when the form is submitted (capture
// phase, before the page's own handler) and when a new answer joins the
// conversation.
const timingHooks = `(() => {
  const t = window.__ask = {turns: document.querySelectorAll('#conversation > li.turn').length};
  document.addEventListener('submit', () => { t.submit = performance.now(); t.shown = 0; }, true);
  new MutationObserver(() => {
    const n = document.querySelectorAll('#conversation > li.turn').length;
    if (n > t.turns) { t.turns = n; t.shown = performance.now(); }
  }).observe(document.getElementById('conversation'), {childList: true});
  return true;
})()`

// TestBrowser drives the pages in one headless Chromium, a tab per case.
func TestBrowser(t *testing.T) {
	root := startChromium(t)
	base := serveSite(t)
	t.Run("asks with the keyboard, follows up and opens a run", func(t *testing.T) { askFollowUpAndOpenARun(t, newTab(t, root), base) })
	t.Run("asks by a plain form post without JavaScript", func(t *testing.T) { askWithoutJavaScript(t, newTab(t, root), base) })
	t.Run("draws the README's screenshot", func(t *testing.T) {
		if !*update {
			t.Skip("rewrites docs/web-example.png only with -update")
		}
		readmeScreenshot(t, newTab(t, root), base)
	})
}

// screenshotDir is where a case saves its screenshots: -screenshots, or
// the test's temp dir.
func screenshotDir(t *testing.T) string {
	if *shotsDir != "" {
		return *shotsDir
	}
	return t.TempDir()
}

func askFollowUpAndOpenARun(t *testing.T, b *browser, base string) {
	shots := screenshotDir(t)
	b.do(t, "opening the ask page on a phone-sized screen",
		chromedp.EmulateViewport(375, 800),
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(chromedp.ID("q")),
	)
	weight := eval[int](t, b, `(() => {
	  let n = performance.getEntriesByType('navigation')[0].decodedBodySize;
	  for (const r of performance.getEntriesByType('resource')) n += r.decodedBodySize;
	  return n;
	})()`)
	t.Logf("page weight of / before the answer (HTML+CSS+JS): %d bytes", weight)
	noHorizontalOverflow(t, b, "empty ask page")
	eval[bool](t, b, timingHooks)

	// Keyboard only: type, Enter asks.
	const question = "How does Valkey scale without pipelining?"
	b.do(t, "asking with the keyboard",
		chromedp.SendKeys(chromedp.ID("q"), question+kb.Enter),
		chromedp.WaitVisible(chromedp.CSS("#conversation > li.turn .answer .reply .lead")),
	)
	ms := eval[float64](t, b, `window.__ask.shown - window.__ask.submit`)
	server := eval[float64](t, b, `(() => { const f = performance.getEntriesByType('resource').filter(e => e.initiatorType === 'fetch').pop(); return f ? f.responseEnd - f.startTime : -1; })()`)
	t.Logf("first answer rendered %.1f ms after submit (the request itself %.1f ms)", ms, server)
	if got := eval[string](t, b, `document.querySelector('#conversation > li.turn .q').textContent`); !strings.Contains(got, question) {
		t.Errorf("the conversation shows %q, want the question asked", got)
	}
	if got := eval[string](t, b, `document.getElementById('q').value`); got != "" {
		t.Errorf("the box still holds %q after asking", got)
	}
	b.do(t, "waiting for the chart", chromedp.Poll[chromedp.Void](`(() => { const i = document.querySelector('figure.chart img'); return i && i.complete && i.naturalWidth > 0; })()`,
		chromedp.WithPollingTimeout(10*time.Second)))
	if alt := eval[string](t, b, `document.querySelector('figure.chart img').alt`); len(alt) < 20 {
		t.Errorf("chart alt text %q says too little", alt)
	}

	// The evidence opens with the keyboard too.
	b.do(t, "expanding the evidence",
		chromedp.Focus(chromedp.CSS("details.evidence > summary")),
		chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(chromedp.CSS("details.evidence[open] a.runid")),
	)
	noHorizontalOverflow(t, b, "answer with its evidence open")
	if unlabelled := eval[[]string](t, b, `[...document.querySelectorAll('input:not([type=hidden]), button')]
	  .filter(e => e.tagName === 'INPUT' ? e.labels.length === 0 : e.textContent.trim() === '').map(e => e.outerHTML)`); len(unlabelled) > 0 {
		t.Errorf("controls without a label: %v", unlabelled)
	}
	if bare := eval[[]string](t, b, `[...document.images].filter(i => !i.alt).map(i => i.src)`); len(bare) > 0 {
		t.Errorf("images without alt text: %v", bare)
	}
	screenshot(t, b, filepath.Join(shots, "answer-375.png"))

	// A follow-up continues the conversation; ↑ brings the last question back.
	b.do(t, "asking a follow-up",
		chromedp.SendKeys(chromedp.ID("q"), "and with pipelining?"+kb.Enter),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll('#conversation > li.turn .answer').length === 2`, chromedp.WithPollingTimeout(10*time.Second)),
	)
	read := eval[string](t, b, `document.querySelectorAll('#conversation > li.turn')[1].querySelector('.reply').textContent`)
	if !strings.Contains(read, "Valkey") {
		t.Errorf("the follow-up lost the thread; its reply reads %q", read)
	}
	b.do(t, "bringing the last question back with ↑",
		chromedp.Focus(chromedp.ID("q")),
		chromedp.KeyEvent(kb.ArrowUp),
	)
	if got := eval[string](t, b, `document.getElementById('q').value`); got != "and with pipelining?" {
		t.Errorf("↑ put %q in the box", got)
	}

	// Every run ID links to its page.
	runID := eval[string](t, b, `document.querySelector('details.evidence[open] a.runid').textContent`)
	b.do(t, "following a run ID",
		chromedp.Click(chromedp.CSS("details.evidence[open] a.runid")),
		chromedp.WaitVisible(chromedp.CSS("h1.runid-title")),
	)
	if got := eval[string](t, b, `document.querySelector('h1.runid-title').textContent`); got != runID {
		t.Errorf("the run page shows %q, want %q", got, runID)
	}
	noHorizontalOverflow(t, b, "run page")
	screenshot(t, b, filepath.Join(shots, "run-375.png"))

	// The run's cell is a filter; its page lists the runs and the median.
	b.do(t, "following the cell's filter",
		chromedp.Click(chromedp.CSS(".crumbs a[href*='filter=']")),
		chromedp.WaitVisible(chromedp.CSS("a.runid")),
	)
	if got := eval[string](t, b, `document.getElementById('filter').value`); !strings.Contains(got, "session == ") {
		t.Errorf("the filter page shows the filter %q", got)
	}
	if n := eval[int](t, b, `document.querySelectorAll('a.runid').length`); n < 1 {
		t.Error("the cell's filter lists no runs")
	}
	noHorizontalOverflow(t, b, "filter page")

	b.do(t, "opening the dataset page", chromedp.Navigate(base+"/data"), chromedp.WaitVisible(chromedp.ID("coverage")))
	noHorizontalOverflow(t, b, "dataset page")

	if errs := b.errors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
	t.Logf("screenshots in %s", shots)
}

func askWithoutJavaScript(t *testing.T, b *browser, base string) {
	b.do(t, "opening a phone-sized tab", chromedp.EmulateViewport(375, 800))
	if _, err := chromedp.Call(b.ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatalf("turning scripts off: %v", err)
	}
	b.do(t, "asking by a plain form post",
		chromedp.Navigate(base+"/"),
		chromedp.SendKeys(chromedp.ID("q"), "Is Dragonfly 25x faster than Redis?"+kb.Enter),
		chromedp.WaitVisible(chromedp.CSS("#conversation > li.turn .answer .reply .lead")),
	)
	// Only the server's whole page carries the earlier questions as h.
	if got := eval[string](t, b, `document.querySelector('input[name="h"]').value`); got != "Is Dragonfly 25x faster than Redis?" {
		t.Errorf("the answer did not come as a whole page from a form post (h = %q)", got)
	}
	if got := eval[string](t, b, `document.querySelector('input[name="c"]').value`); got == "" {
		t.Error("the answered page carries no conversation for follow-ups")
	}
	b.do(t, "expanding the evidence without a script",
		chromedp.Click(chromedp.CSS("details.evidence > summary")),
		chromedp.WaitVisible(chromedp.CSS("details.evidence[open] a.runid")),
	)
	noHorizontalOverflow(t, b, "answer page without JavaScript")
	shots := screenshotDir(t)
	screenshot(t, b, filepath.Join(shots, "claim-nojs-375.png"))
	b.do(t, "scrolling to the evidence", chromedp.Evaluate[chromedp.Void](`document.querySelector('details.evidence').scrollIntoView()`))
	screenshot(t, b, filepath.Join(shots, "claim-evidence-nojs-375.png"))
	if errs := b.errors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}

// readmeScreenshot draws the README's picture of the page at a desktop
// width into docs/web-example.png.
func readmeScreenshot(t *testing.T, b *browser, base string) {
	b.do(t, "asking on a desktop-sized screen",
		chromedp.EmulateViewport(1000, 1090),
		chromedp.Navigate(base+"/"),
		chromedp.SendKeys(chromedp.ID("q"), "How does Valkey scale without pipelining?"+kb.Enter),
		chromedp.WaitVisible(chromedp.CSS("#conversation > li.turn .answer .reply .lead")),
		chromedp.Poll[chromedp.Void](`(() => { const i = document.querySelector('figure.chart img'); return i && i.complete && i.naturalWidth > 0; })()`),
		chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`),
	)
	screenshot(t, b, filepath.Join("..", "..", "docs", "web-example.png"))
}
