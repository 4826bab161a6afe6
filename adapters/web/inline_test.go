package web

import (
	"html/template"
	"testing"
)

func TestInline(t *testing.T) {
	l := links{base: "/o"}
	tests := []struct {
		name, in string
		want     template.HTML
	}{
		{"text is escaped", `a <b> & "c"`, `a &lt;b&gt; &amp; &#34;c&#34;`},
		{"bold is strong", "**15.5M ops/s** for Dragonfly", "<strong>15.5M ops/s</strong> for Dragonfly"},
		{"a run ID links to its page", "run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep1.",
			`<a href="/o/runs/run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep1">run-s1-20260901-083406-dragonfly-single-48c-p16-1-10-d100-rep1</a>.`},
		{"a filter in a code span links to its runs", "`engine == \"redis\"`",
			`<a href="/o/runs?filter=engine+%3D%3D+%22redis%22"><code>engine == &#34;redis&#34;</code></a>`},
		{"other code spans stay code", "`--proactor_threads`", "<code>--proactor_threads</code>"},
		{"a URL links out without the sentence's full stop", "see https://example.com/a?b=1&c=2.",
			`see <a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer">https://example.com/a?b=1&amp;c=2</a>.`},
		{"a Markdown link keeps its text", "[the post](https://example.com/p)", `<a href="https://example.com/p" rel="noopener noreferrer">the post</a>`},
		{"only http(s) links are made", "[x](javascript:alert(1))", "[x](javascript:alert(1))"},
		{"terms and claims link to the dataset page", "see term:pipelining and claim:dragonfly-25x, not rule:x",
			`see <a href="/o/data#term:pipelining">term:pipelining</a> and <a href="/o/data#claim:dragonfly-25x">claim:dragonfly-25x</a>, not rule:x`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := l.inline(tt.in); got != tt.want {
				t.Errorf("inline(%q)\n got %s\nwant %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestLineAndBlock(t *testing.T) {
	l := links{}
	if got := l.line("_Read as: value_bytes == 100_"); got != "<em>Read as: value_bytes == 100</em>" {
		t.Errorf("line: %s", got)
	}
	if got := l.line("a value_bytes b"); got != "a value_bytes b" {
		t.Errorf("snake_case became italics: %s", got)
	}
	if got := l.block("Caveats\n- one\n- two\nafter"); got != "Caveats<ul><li>one</li><li>two</li></ul>after" {
		t.Errorf("block: %s", got)
	}
}
