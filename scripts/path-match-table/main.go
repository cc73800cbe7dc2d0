// Command path-match-table prints the table routerctl checks its glob
// against (src/routing/glob.rs): for each pattern and name, what Go's
// path.Match answers. The router-proxy matches a request's model with
// path.Match, so routerctl must answer the same, byte for byte.
//
// From the repository root:
//
//	go run scripts/path-match-table/main.go > src/routing/testdata/path_match.tsv
//
// The committed table was written by go1.19.8 (Debian's golang-go); the
// table's header names the Go that wrote it. Standard library only. The
// generated cases come from a fixed-seed generator of this file's own, so
// the output depends on nothing but path.Match itself.
package main

import (
	"bufio"
	"fmt"
	"os"
	"path"
	"runtime"
	"strings"
)

// Patterns picked by hand: every corner of the syntax, and model names as
// rules write them.
var handPatterns = []string{
	"", "*", "**", "?", "??", "???", "a", "ab", "a*", "*a", "*a*", "a*b", "*a*b", "*a*b*",
	"a*b*c*d*e*/f", "?*", "*?*", "x*y*z", "*a*a*a*a*a*a*b",
	// Classes: negation, ranges, escapes, and what Go refuses.
	"[a]", "[ab]", "[^a]", "[^ab]", "[a-c]", "[^a-c]", "[z-a]", "[a-c]x", "[!a]", "[a-cx-z]",
	"[]", "[^]", "[]a]", "[^]a]", "[]]", "[a-]", "[-a]", "[-]", "[a-b-c]", "[a--]",
	`[\]a]`, `[\-]`, `[\^]`, `[\\]`, `[a\-c]`, `[\a-\c]`, `[a-\]]`, `[\`, `[a\`, `[a-\`,
	"[", "[a", "[a-", "[^", "a[", "*[", "[[]", "[*]", "[?]", "[a*]", "[a*", "[^]*]", "[]*]",
	"]", "a]", "^", "-", "[^-]",
	// A class reads `/`; `?` and `*` never do.
	"[/]", "[^/]", "[a/]", "[!-0]", "a[/]b", "*[/]*",
	// After `*`, a segment that could take a `/` at a later place takes
	// the first place it fits, and the rest must follow from there.
	"*[/a]*/b", "*[^x]*b", "*[^x]*/b", "*[^x]*", "*[/a]*", "*[^/]*/*", "*[!-0]*y*",
	// Escapes outside classes.
	`\`, `a\`, `*\`, `\a`, `\*`, `\?`, `\[`, `\]`, `\\`, `a\*b`, `\**`, `*\*`, `\/`,
	// Runes of more than one byte: `?` and classes take a whole rune, `*`
	// steps over bytes.
	"é", "?é", "é?", "[é]", "[^é]", "[a-é]", "[é-ê]", "*é", "é*", "*é*", "*?", "*??",
	"*[^a]", "*[^a]?", "日*", "*本", "[日-本]",
	// A byte that starts no rune is read as U+FFFD in the name, and is bad
	// in a class; outside one it is a byte like any other.
	"*[\uFFFD]", "[\uFFFD]", "[^\uFFFD]", "[\uFFFD][\uFFFD][\uFFFD]",
	"\xc3", "\xa9", "?\xa9", "*\xa9", "\xc3*", "[\xc3]", "[a-\xc3]", "\\\xc3\xa9",
	// Paths.
	"/", "*/*", "*/b", "a/*", "?/?", "*/", "/*", "*/*/*",
	// Model names as rules write them.
	"meta-llama/*", "meta-llama/Llama-3", "meta-*/*", "*/Llama-*", "*Llama*",
	"gpt-4?", "gpt-4[o]", "gpt-[34]*", "gpt-[^34]*", "gpt-4o", "gpt-*",
	"qwen3-*", "qwen3-*-30b", "*coder*", "qwen?-coder-[0-9][0-9]b", "*-*-*", "[a-z]*-[0-9]*",
}

// Names picked by hand.
var handNames = []string{
	"", "a", "b", "c", "x", "ab", "abc", "aab", "ba", "xyz", "-", "]", "[", "*", "?", `\`, "^",
	"/", "a/b", "a/x/b", "/a", "a/", "x/y/z",
	"é", "aé", "éb", "éé", "ê", "\xc3", "\xa9", "\xc3\xa9\xa9", "\uFFFD", "日本", "😀",
	// Not UTF-8, each read as runes of one byte: a surrogate, an overlong
	// `/`, past U+10FFFF, a cut-off rune.
	"\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80", "\xe6\x97",
	"meta-llama/Llama-3", "gpt-4o", "gpt-3.5", "qwen3-coder-30b", "qwen3-coder", "llama-3",
}

// Longer cases: the same letter many times, where a backtracking matcher
// would search.
var longCases = [][2]string{
	{"*a*b", strings.Repeat("a", 300)},
	{"*a*b", strings.Repeat("a", 300) + "b"},
	{"*a*a*a*a*a*a*a*a*b", strings.Repeat("a", 200)},
	{"*a*a*a*a*a*a*a*a*b", strings.Repeat("a", 200) + "b"},
	{"*a*a*a*a*a*a*a*a*b", strings.Repeat("ab", 100)},
	{"*?*?*?*?b", strings.Repeat("é", 100) + "b"},
	{"*[^a]", strings.Repeat("é", 100)},
	{"*a*b", strings.Repeat("a", 150) + "/" + strings.Repeat("b", 150)},
	{"*/*b", strings.Repeat("a", 150) + "/" + strings.Repeat("b", 150)},
}

// rng is splitmix64: small, and the same on every Go.
type rng uint64

func (r *rng) next() uint64 {
	*r += 0x9e3779b97f4a7c15
	z := uint64(*r)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (r *rng) below(n int) int { return int(r.next() % uint64(n)) }

func (r *rng) pick(from []string) string { return from[r.below(len(from))] }

// The alphabets of the generated cases. Repeats weigh the draw; the lone
// bytes of `é` come rarely, to split runes.
var (
	patternBytes = []string{
		"a", "a", "b", "b", "/", "*", "*", "?", "[", "[", "]", "]", "^", "-", `\`, "é", "\xc3", "\xa9",
	}
	nameBytes  = []string{"a", "a", "a", "b", "b", "/", "-", "]", "^", `\`, "*", "é", "é", "\xa9"}
	literals   = []string{"a", "b", "/", "-", "é", `\*`, `\?`, `\[`, `\\`, `\]`}
	classAtoms = []string{"a", "b", "/", "é", "^", `\]`, `\-`, `\\`, "-", "]"}
	nameRunes  = []string{"a", "b", "/", "-", "é", "\xa9"}
)

// randomPattern strings bytes of the pattern alphabet together, mostly
// malformed when brackets come up.
func randomPattern(r *rng) string {
	var b strings.Builder
	for n := r.below(9); n > 0; n-- {
		b.WriteString(r.pick(patternBytes))
	}
	return b.String()
}

// termPattern builds a pattern term by term, so that classes are mostly
// well formed (now and then an atom makes one bad), and along with it a
// name the pattern may well match.
func termPattern(r *rng) (string, string) {
	var p, n strings.Builder
	for terms := 1 + r.below(5); terms > 0; terms-- {
		switch r.below(6) {
		case 0, 1:
			lit := r.pick(literals)
			p.WriteString(lit)
			n.WriteString(strings.TrimPrefix(lit, `\`))
		case 2:
			p.WriteString("?")
			n.WriteString(r.pick(nameRunes))
		case 3:
			p.WriteString("*")
			for k := r.below(3); k > 0; k-- {
				n.WriteString(r.pick(nameRunes))
			}
		default:
			p.WriteString("[")
			if r.below(3) == 0 {
				p.WriteString("^")
			}
			for k := 1 + r.below(3); k > 0; k-- {
				atom := r.pick(classAtoms)
				p.WriteString(atom)
				if k == 1 {
					n.WriteString(strings.TrimPrefix(atom, `\`))
				}
				if r.below(3) == 0 {
					p.WriteString("-")
					p.WriteString(r.pick(classAtoms))
				}
			}
			p.WriteString("]")
		}
	}
	return p.String(), n.String()
}

func randomName(r *rng) string {
	var b strings.Builder
	for n := r.below(9); n > 0; n-- {
		b.WriteString(r.pick(nameBytes))
	}
	return b.String()
}

// field writes s so that a row stays one line of printable ASCII: the
// backslash doubled, any byte outside ' '..'~' as \xNN, and a leading `#`
// as \x23 (a line starting with `#` is a comment).
func field(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			b.WriteString(`\\`)
		case c == '#' && i == 0, c < ' ', c > '~':
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func main() {
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()

	seen := map[[2]string]bool{}
	var rows [][2]string
	add := func(pattern, name string) {
		k := [2]string{pattern, name}
		if !seen[k] {
			seen[k] = true
			rows = append(rows, k)
		}
	}
	for _, p := range handPatterns {
		for _, n := range handNames {
			add(p, n)
		}
	}
	for _, c := range longCases {
		add(c[0], c[1])
	}
	r := rng(20260822)
	for i := 0; i < 1500; i++ {
		add(randomPattern(&r), randomName(&r))
	}
	for i := 0; i < 1500; i++ {
		p, n := termPattern(&r)
		add(p, n)
		add(p, randomName(&r))
	}

	fmt.Fprintf(out, "# What Go's path.Match answers for each pattern and name; routerctl's\n")
	fmt.Fprintf(out, "# glob (src/routing/glob.rs) must answer the same on every row.\n")
	fmt.Fprintf(out, "# Written by %s with\n", runtime.Version())
	fmt.Fprintf(out, "#   go run scripts/path-match-table/main.go > src/routing/testdata/path_match.tsv\n")
	fmt.Fprintf(out, "# Do not edit: change the generator and run it again.\n")
	fmt.Fprintf(out, "#\n")
	fmt.Fprintf(out, "# A row is pattern, name and result, separated by one tab. The result is\n")
	fmt.Fprintf(out, "# true, false, or bad (path.ErrBadPattern). In the pattern and the name\n")
	fmt.Fprintf(out, "# a printable ASCII byte stands for itself, except the backslash, written\n")
	fmt.Fprintf(out, "# \\\\; every other byte is \\xNN (two lower-case hex digits), one escape a\n")
	fmt.Fprintf(out, "# byte: a rune of several bytes is several escapes (\\xc3\\xa9 is e-acute),\n")
	fmt.Fprintf(out, "# and a byte that is not UTF-8 can be written. A field starting with # is\n")
	fmt.Fprintf(out, "# written \\x23...; a line starting with # is a comment. An empty pattern\n")
	fmt.Fprintf(out, "# or name is an empty field.\n")
	fmt.Fprintf(out, "# %d rows.\n", len(rows))
	for _, row := range rows {
		result := "false"
		if ok, err := path.Match(row[0], row[1]); err != nil {
			result = "bad"
		} else if ok {
			result = "true"
		}
		fmt.Fprintf(out, "%s\t%s\t%s\n", field(row[0]), field(row[1]), result)
	}
}
