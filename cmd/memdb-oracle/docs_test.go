package main

// Tests of the documentation: the README stays a front page, every link
// in it and in docs/ resolves (anchors included), every command block
// marked runnable runs, and nothing points outside the repository.

import (
	"bufio"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// repoRoot is the repository, seen from this package's directory.
const repoRoot = "../.."

// pendingDocs are pages other issues write (storage: issue 27). Until one
// exists, links to it are logged, not failed; once it exists its anchors
// are checked like any page's. Remove an entry when its page has landed.
var pendingDocs = map[string]string{}

// pendingDesignRefs are directories whose comments still cite the old
// design file; their owner repoints them to docs/design.md (issue 30's
// report lists the mapping). Remove an entry once it is clean.
var pendingDesignRefs = []string{}

// documents are the Markdown files users and contributors read.
func documents(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{filepath.Join(repoRoot, "README.md"), filepath.Join(repoRoot, "CONTRIBUTING.md"),
		filepath.Join(repoRoot, "examples", "README.md")}, docs...)
}

func TestTheREADMEIsAFrontPage(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(src), "\n"); n > 150 {
		t.Errorf("README.md has %d lines; keep it to 150 and move the rest to docs/", n)
	}
	for _, want := range []string{"go run ./cmd/memdb-oracle ask", "go test -race ./...", "docs/web-example.png", "http://localhost:8080/"} {
		if !strings.Contains(string(src), want) {
			t.Errorf("README.md lacks %q", want)
		}
	}
	if strings.Contains(string(src), "FIRST_BUILD") || strings.Contains(string(src), "FIRST_TEST") {
		t.Error("README.md still holds a placeholder for a measured time")
	}
}

var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

func TestEveryDocumentLinkResolves(t *testing.T) {
	anchors := map[string]map[string]bool{} // file → its heading anchors
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		a := headingAnchors(t, path)
		anchors[path] = a
		return a
	}
	for _, doc := range documents(t) {
		src, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(repoRoot, doc)
		for _, m := range mdLink.FindAllStringSubmatch(withoutCodeBlocks(string(src)), -1) {
			link := m[1]
			if strings.HasPrefix(link, "http://") || strings.HasPrefix(link, "https://") || strings.HasPrefix(link, "mailto:") {
				continue // the tests never touch the internet
			}
			file, anchor, _ := strings.Cut(link, "#")
			target := doc
			if file != "" {
				target = filepath.Join(filepath.Dir(doc), file)
			}
			targetRel, _ := filepath.Rel(repoRoot, target)
			if _, err := os.Stat(target); err != nil {
				if who, ok := pendingDocs[filepath.ToSlash(targetRel)]; ok {
					t.Logf("%s links to %s, which %s writes", rel, targetRel, who)
					continue
				}
				t.Errorf("%s: link %q: %s does not exist", rel, link, targetRel)
				continue
			}
			if anchor != "" && strings.HasSuffix(target, ".md") && !anchorsOf(target)[anchor] {
				t.Errorf("%s: link %q: %s has no heading with anchor #%s", rel, link, targetRel, anchor)
			}
		}
	}
}

// headingAnchors are the anchors GitHub gives a Markdown file's headings:
// lower case, punctuation dropped, spaces as hyphens.
func headingAnchors(t *testing.T, path string) map[string]bool {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, line := range strings.Split(withoutCodeBlocks(string(src)), "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		title := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(title) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		out[b.String()] = true
	}
	return out
}

// withoutCodeBlocks blanks fenced code blocks, whose text is not Markdown.
func withoutCodeBlocks(src string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.Split(src, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			in = !in
			b.WriteString("\n")
			continue
		}
		if !in {
			b.WriteString(line)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// runnableBlocks are the command lines of a document's ```sh runnable
// blocks, comments and blank lines left out.
func runnableBlocks(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cmds []string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case !in && strings.HasPrefix(trimmed, "```") && strings.Contains(trimmed, "runnable"):
			in = true
		case in && strings.HasPrefix(trimmed, "```"):
			in = false
		case in && trimmed != "" && !strings.HasPrefix(trimmed, "#"):
			cmds = append(cmds, trimmed)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cmds
}

func TestEveryRunnableBlockRuns(t *testing.T) {
	bin := binary(t)
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, doc := range documents(t) {
		cmds := runnableBlocks(t, doc)
		if len(cmds) == 0 {
			continue
		}
		rel, _ := filepath.Rel(repoRoot, doc)
		t.Run(rel, func(t *testing.T) {
			// One data directory per document, so a block's follow-ups
			// (--thread) find what the lines before them asked.
			data := t.TempDir()
			for _, line := range cmds {
				total++
				// The README's `go run ./cmd/memdb-oracle` is this program;
				// `memdb-oracle` is the installed one (here: this test binary).
				script := strings.ReplaceAll(line, "go run ./cmd/memdb-oracle", "memdb-oracle")
				cmd := exec.CommandContext(t.Context(), "sh", "-c", script)
				cmd.Dir = root
				cmd.Env = []string{"HOME=" + t.TempDir(), "MEMDB_ORACLE_DATA=" + data, raceExitEnv,
					"PATH=" + filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH")}
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Errorf("%s: %v\n%s", line, err, out)
					continue
				}
				if len(strings.TrimSpace(string(out))) == 0 {
					t.Errorf("%s printed nothing", line)
				}
			}
		})
	}
	if total == 0 {
		t.Fatal("no document has a runnable block: the README's set-up command should be one")
	}
}

// repositoryFiles walks the repository's text files (not .git, not the
// embedded copies of outside data).
func repositoryFiles(t *testing.T, keep func(rel string) bool, each func(rel, src string)) {
	t.Helper()
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(repoRoot, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if !keep(rel) {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		each(rel, string(src))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestNoTestReadsTheSharedDirectoryOutsideTheRepository(t *testing.T) {
	// Built from parts so this file does not match itself.
	outside := regexp.MustCompile(`\.\./` + `shared/|shared/` + `(reference|datasets)/`)
	repositoryFiles(t, func(rel string) bool { return strings.HasSuffix(rel, "_test.go") }, func(rel, src string) {
		if loc := outside.FindStringIndex(src); loc != nil {
			t.Errorf("%s reads outside the repository (%q): copy what the test needs into its testdata/", rel, src[loc[0]:loc[1]])
		}
	})
}

func TestNoFileCitesADesignFileOutsideTheRepository(t *testing.T) {
	cites := regexp.MustCompile(`DESIGN ` + `§|DESIGN` + `\.md`)
	text := func(rel string) bool {
		for _, ext := range []string{".go", ".md", ".txt", ".yaml", ".yml", ".json", ".html", ".js", ".css"} {
			if strings.HasSuffix(rel, ext) {
				return true
			}
		}
		return rel == ".ci/run" || rel == "Dockerfile"
	}
	repositoryFiles(t, text, func(rel, src string) {
		if loc := cites.FindStringIndex(src); loc != nil {
			for _, dir := range pendingDesignRefs {
				if strings.HasPrefix(rel, dir) {
					t.Logf("%s still cites %q (its owner repoints it to docs/design.md)", rel, src[loc[0]:loc[1]])
					return
				}
			}
			t.Errorf("%s cites %q, a file outside the repository: point to docs/design.md", rel, src[loc[0]:loc[1]])
		}
	})
}
