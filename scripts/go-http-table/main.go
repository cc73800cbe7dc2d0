// Command go-http-table prints the table routerctl checks its model of Go's
// HTTP server against (proxy::refused_by_server in src/routing/proxy.rs):
// for each request, the status a net/http server answers it with. The
// router-proxy is a net/http server, and some requests never reach its
// handler: Go's server answers them itself (400, 417, 501), in an order of
// its own when a request has more than one fault.
//
// It starts a server on loopback whose handler answers 200 and reads
// nothing, sends each request as raw bytes on a connection of its own,
// and writes the status line's code. From the repository root:
//
//	go run scripts/go-http-table/main.go > src/routing/testdata/go_http.tsv
//
// Standard library only; the rows are this file's own lists, so the output
// depends on nothing but the net/http of the Go that runs it, which the
// table's header names.
package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"time"
)

// header is one header line as sent: `Name: value`.
type header struct{ name, value string }

// h builds a request of the given name, value pairs.
func h(pairs ...string) []header {
	var out []header
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, header{pairs[i], pairs[i+1]})
	}
	return out
}

// handPicked are requests worth a row each: the faults routerctl knows,
// alone and two at a time, and their neighbours Go lets through.
var handPicked = [][]header{
	h(),
	// Names: empty, blanks around or inside, bytes of no token.
	h("", "v"), h("X-Key ", "v"), h("X-Key\t", "v"), h("X Key", "v"), h("X-K\u212aey", "v"),
	h("X-Key", "v", "X-Key ", "v"),
	// Values: blanks around them are fine, control characters are not.
	h("X-Key", " v "), h("X-Key", "\tv\t"), h("X-Key", "a\tb"), h("X-Key", ""), h("X-Key", "\u0085v\u00a0"),
	h("X-Key", "a\x00b"), h("X-Key", "a\x01b"), h("X-Key", "a\x0bb"), h("X-Key", "a\x0cb"), h("X-Key", "a\rb"),
	h("X-Key", "a\x1fb"), h("X-Key", "a\x7fb"),
	// Transfer-Encoding: only one chunked, in any case.
	h("Transfer-Encoding", "chunked"), h("Transfer-Encoding", "Chunked"), h("Transfer-Encoding", " chunked "),
	h("Transfer-Encoding", "gzip"), h("Transfer-Encoding", "identity"), h("Transfer-Encoding", ""),
	h("Transfer-Encoding", "chunked, gzip"), h("Transfer-Encoding", "gzip, chunked"),
	h("Transfer-Encoding", "chunked", "Transfer-Encoding", "chunked"),
	h("Transfer-Encoding", "chunked", "Content-Length", "13"),
	// Content-Length: digits only, at most 2^63-1, one value.
	h("Content-Length", "13"), h("Content-Length", "013"), h("Content-Length", " 13 "), h("Content-Length", "0"),
	h("Content-Length", "abc"), h("Content-Length", "+13"), h("Content-Length", "-1"), h("Content-Length", ""),
	h("Content-Length", "1 3"), h("Content-Length", "0x10"), h("Content-Length", "13, 13"),
	h("Content-Length", "9223372036854775807"), h("Content-Length", "9223372036854775808"),
	h("Content-Length", "13", "Content-Length", "13"), h("Content-Length", "13", "Content-Length", " 13"),
	h("Content-Length", "13", "Content-Length", "14"), h("Content-Length", "13", "content-length", "14"),
	// Host: once, of host bytes.
	h("Host", "a"), h("Host", ""), h("Host", "[::1]:8080"), h("Host", "a b"), h("Host", "a\u00e9"),
	h("Host", "a", "Host", "b"), h("Host", "a", "HOST", "a"), h("Host", " a "),
	// Expect: only 100-continue, in any case; empty is none.
	h("Expect", "100-continue"), h("Expect", "100-CONTINUE"), h("Expect", ""), h("Expect", "foo"),
	h("Expect", " 100-continue "), h("Expect", "100-continue, foo"), h("Expect", "foo, 100-continue"),
	h("Expect", "100-continuex"), h("Expect", "foo", "Expect", "100-continue"),
	// Two faults: which one Go meets first.
	h("Transfer-Encoding", "gzip", "Content-Length", "abc"), h("Content-Length", "abc", "Transfer-Encoding", "gzip"),
	h("Expect", "foo", "Content-Length", "abc"), h("Expect", "foo", "Transfer-Encoding", "gzip"),
	h("Expect", "foo", "Host", "a b"), h("Host", "a b", "Content-Length", "abc"),
	h("Host", "a b", "Transfer-Encoding", "gzip"), h("X-Key ", "v", "Transfer-Encoding", "gzip"),
	h("X-Key ", "v", "Content-Length", "abc"), h("X-Key ", "v", "Host", "a b"), h("X-Key ", "v", "Expect", "foo"),
	h("X-K\u212aey", "v", "Transfer-Encoding", "gzip"), h("X-Key", "a\x01b", "Transfer-Encoding", "gzip"),
	h("Transfer-Encoding", "gzip", "X-Key", "a\x01b"),
}

// generated are requests of every byte in the places Go checks byte by
// byte: a header name, a header value, a Host value.
func generated() [][]header {
	var out [][]header
	for b := 0; b < 256; b++ {
		if b == '\r' || b == '\n' || b == ':' {
			continue // they end the line or the name: no such request
		}
		c := string([]byte{byte(b)})
		out = append(out, h("X"+c+"Y", "v"))
		out = append(out, h("X-Key", "a"+c+"b"))
		out = append(out, h("Host", "a"+c+"b"))
	}
	return out
}

// send writes one request on a connection of its own and returns the
// status code Go's server answers it with.
func send(addr string, headers []header) (string, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(10 * time.Second)); err != nil {
		return "", err
	}
	var req strings.Builder
	req.WriteString("POST /v1/chat/completions HTTP/1.1\r\n")
	hasHost, chunked, length := false, false, ""
	for _, hd := range headers {
		fmt.Fprintf(&req, "%s: %s\r\n", hd.name, hd.value)
		switch strings.ToLower(hd.name) {
		case "host":
			hasHost = true
		case "transfer-encoding":
			chunked = true
		case "content-length":
			length = strings.Trim(hd.value, " \t")
		}
	}
	// Every client sends a Host; without one Go answers 400 on its own.
	if !hasHost {
		req.WriteString("Host: routerctl.test\r\n")
	}
	req.WriteString("\r\n")
	// A body as the headers announce it, where the server could read one.
	switch {
	case chunked:
		req.WriteString("0\r\n\r\n")
	case length != "" && strings.Trim(length, "0123456789") == "" && len(length) < 4:
		var n int
		fmt.Sscan(length, &n)
		req.WriteString(strings.Repeat("x", n))
	}
	if _, err := io.WriteString(conn, req.String()); err != nil {
		return "", err
	}
	// Nothing more comes: the server sees the end after this request.
	if tcp, ok := conn.(*net.TCPConn); ok {
		if err := tcp.CloseWrite(); err != nil {
			return "", err
		}
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return "", fmt.Errorf("no status line: %w", err)
	}
	fields := strings.Fields(line)
	if len(fields) < 2 || !strings.HasPrefix(fields[0], "HTTP/") {
		return "", fmt.Errorf("not a status line: %q", line)
	}
	return fields[1], nil
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
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "go-http-table:", err)
		os.Exit(1)
	}
	server := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusOK)
	})}
	go server.Serve(listener)
	defer server.Close()

	rows := append(append([][]header{}, handPicked...), generated()...)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	fmt.Fprintln(out, "# The status Go's net/http server answers each request with, before any")
	fmt.Fprintln(out, "# handler reads it (200: the handler was called); routerctl's")
	fmt.Fprintln(out, "# proxy::refused_by_server (src/routing/proxy.rs) must answer the same.")
	fmt.Fprintf(out, "# Written by %s with\n", runtime.Version())
	fmt.Fprintln(out, "#   go run scripts/go-http-table/main.go > src/routing/testdata/go_http.tsv")
	fmt.Fprintln(out, "# Do not edit: change the generator and run it again.")
	fmt.Fprintln(out, "#")
	fmt.Fprintln(out, "# A row is the request's headers, in the order sent, as name and value")
	fmt.Fprintln(out, "# fields, then the status; fields are separated by one tab. A request")
	fmt.Fprintln(out, "# without a Host header was sent one (Host: routerctl.test). In names and")
	fmt.Fprintln(out, "# values a printable ASCII byte stands for itself, except the backslash,")
	fmt.Fprintln(out, "# written \\\\; every other byte is \\xNN (two lower-case hex digits), and a")
	fmt.Fprintln(out, "# field starting with # starts \\x23.")
	fmt.Fprintf(out, "# %d rows.\n", len(rows))
	for _, row := range rows {
		status, err := send(listener.Addr().String(), row)
		if err != nil {
			fmt.Fprintf(os.Stderr, "go-http-table: %q: %v\n", row, err)
			os.Exit(1)
		}
		var fields []string
		for _, hd := range row {
			fields = append(fields, field(hd.name), field(hd.value))
		}
		fields = append(fields, status)
		fmt.Fprintln(out, strings.Join(fields, "\t"))
	}
}
