package web

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestColoursMeetWCAGAA reads the stylesheet's colour variables for the
// light and the dark scheme and checks every text/background pair the
// pages use against WCAG AA for normal text (4.5:1).
func TestColoursMeetWCAGAA(t *testing.T) {
	if r := contrast("#777777", "#ffffff"); r >= 4.5 || r < 4.4 {
		t.Fatalf("contrast of #777 on white is %.2f, want 4.48 (the check itself is wrong)", r)
	}
	css, err := embedded.ReadFile("static/site.css")
	if err != nil {
		t.Fatal(err)
	}
	text := string(css)
	dark := strings.Index(text, "@media (prefers-color-scheme: dark)")
	if dark < 0 {
		t.Fatal("no dark scheme in site.css")
	}
	schemes := map[string]map[string]string{"light": colourVars(text[:dark]), "dark": colourVars(text[dark:])}
	pairs := [][2]string{
		{"fg", "bg"}, {"muted", "bg"}, {"accent", "bg"}, {"bad", "bg"},
		{"fg", "panel"}, {"muted", "panel"}, {"accent", "panel"},
		{"accent-fg", "accent"}, {"fg", "chip"}, {"fg", "mark"}, {"accent", "chip"},
	}
	for name, vars := range schemes {
		for _, p := range pairs {
			fg, bg := vars[p[0]], vars[p[1]]
			if fg == "" || bg == "" {
				t.Errorf("%s: --%s or --%s is not set", name, p[0], p[1])
				continue
			}
			if r := contrast(fg, bg); r < 4.5 {
				t.Errorf("%s: --%s %s on --%s %s has contrast %.2f:1, below 4.5:1", name, p[0], fg, p[1], bg, r)
			}
		}
	}
}

var colourVar = regexp.MustCompile(`--([a-z-]+):\s*(#[0-9a-fA-F]{6})`)

func colourVars(css string) map[string]string {
	out := map[string]string{}
	for _, m := range colourVar.FindAllStringSubmatch(css, -1) {
		if _, seen := out[m[1]]; !seen {
			out[m[1]] = m[2]
		}
	}
	return out
}

// contrast is the WCAG 2 contrast ratio of two #rrggbb colours.
func contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

func luminance(hex string) float64 {
	var l float64
	for i, w := range []float64{0.2126, 0.7152, 0.0722} {
		v, _ := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		c := float64(v) / 255
		if c <= 0.03928 {
			c /= 12.92
		} else {
			c = math.Pow((c+0.055)/1.055, 2.4)
		}
		l += w * c
	}
	return l
}
