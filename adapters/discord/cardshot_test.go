package discord

import (
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// TestTheCardRendersInABrowser lays the card Discord would get for a
// golden question out as a small HTML mock of Discord's dark message view
// (the components-v2 container with its colour bar, title, lines and small
// print, then the buttons) and screenshots it with headless Chromium at a phone's width.
// With -update the picture becomes the README's docs/discord-card.png.
func TestTheCardRendersInABrowser(t *testing.T) {
	var chromium string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			chromium = p
			break
		}
	}
	if chromium == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no Chromium on PATH; install Debian's chromium package")
		}
		t.Skip("no Chromium on PATH: install Debian's chromium package to screenshot the card")
	}
	env := bottest.NewEnv(t, nil)
	const q = "Is Dragonfly 25x faster than Redis?"
	ans := env.Ask(t, "", q)
	m := renderCardV2(ans, bot.NewCard(ans), nil, noticeFollowUps, "", "https://oracle.example.com", q)
	page := discordMock(m)
	for _, want := range []string{"Show evidence", "Open on the web", "👍", "👎", "Not comparable", "Follow-ups"} {
		if !strings.Contains(page, want) {
			t.Errorf("the mock lacks %q", want)
		}
	}
	dir := t.TempDir()
	src, out := filepath.Join(dir, "card.html"), filepath.Join(dir, "card.png")
	if err := os.WriteFile(src, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--window-size=400,520", "--screenshot="+out, "file://"+src)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, b)
	}
	png, err := os.ReadFile(out)
	if err != nil || len(png) < 1000 {
		t.Fatalf("no screenshot (%d bytes, %v)", len(png), err)
	}
	if *update {
		if err := os.WriteFile(filepath.Join("..", "..", "docs", "discord-card.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var mdBold = regexp.MustCompile(`\*\*([^*]+)\*\*`)

// discordMock is a page showing a message's embed and buttons the way
// Discord lays them out.
func discordMock(m outMessage) string {
	var b strings.Builder
	b.WriteString(`<!doctype html><meta charset="utf-8"><style>
body{margin:0;background:#313338;color:#dbdee1;font:15px/1.375 "gg sans","Noto Sans",sans-serif}
.msg{display:flex;gap:12px;padding:12px}.av{width:40px;height:40px;border-radius:50%;background:#5865f2;color:#fff;font-weight:700;display:grid;place-items:center;flex:none}
.who b{color:#f2f3f5}.app{font-size:10px;background:#5865f2;color:#fff;padding:0 4px;border-radius:3px;margin-left:4px}
.embed{border-left:4px solid;background:#2b2d31;border-radius:4px;padding:8px 12px 10px;margin-top:4px}
.title{font-weight:600;color:#f2f3f5;margin-bottom:4px}.foot{font-size:12px;color:#b5bac1;margin-top:8px}
.row{display:flex;flex-wrap:wrap;gap:8px;margin-top:8px}.btn{border-radius:3px;padding:2px 14px;font-size:14px;background:#4e5058;color:#fff;line-height:32px}
.primary{background:#5865f2}.link::after{content:" ↗"}
</style><div class="msg"><div class="av">M</div><div><div class="who"><b>memdb-oracle</b><span class="app">APP</span></div>`)
	text := func(s string) string {
		s = html.EscapeString(strings.ReplaceAll(s, `\`, ""))
		return strings.ReplaceAll(mdBold.ReplaceAllString(s, "<b>$1</b>"), "\n", "<br>")
	}
	for _, row := range m.Components {
		if box, ok := row.(discordgo.Container); ok {
			color := 0
			if box.AccentColor != nil {
				color = *box.AccentColor
			}
			fmt.Fprintf(&b, `<div class="embed" style="border-color:#%06x">`, color)
			for _, k := range box.Components {
				td, ok := k.(discordgo.TextDisplay)
				switch {
				case !ok:
				case strings.HasPrefix(td.Content, "-# "):
					b.WriteString(`<div class="foot">` + text(strings.TrimPrefix(td.Content, "-# ")) + `</div>`)
				case strings.HasPrefix(td.Content, "### "):
					title, rest, _ := strings.Cut(strings.TrimPrefix(td.Content, "### "), "\n")
					b.WriteString(`<div class="title">` + text(title) + `</div><div>` + text(rest) + `</div>`)
				default:
					b.WriteString(`<div>` + text(td.Content) + `</div>`)
				}
			}
			b.WriteString(`</div>`)
			continue
		}
		r, ok := row.(discordgo.ActionsRow)
		if !ok {
			continue
		}
		b.WriteString(`<div class="row">`)
		for _, c := range r.Components {
			btn, ok := c.(discordgo.Button)
			if !ok {
				continue
			}
			label, class := btn.Label, "btn"
			if btn.Emoji != nil {
				label = btn.Emoji.Name + " " + label
			}
			switch btn.Style {
			case 1:
				class += " primary"
			case 5:
				class += " link"
			}
			b.WriteString(`<span class="` + class + `">` + html.EscapeString(strings.TrimSpace(label)) + `</span>`)
		}
		b.WriteString(`</div>`)
	}
	b.WriteString(`</div></div>`)
	return b.String()
}
