package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// printer writes the demo's narration, with colours on a terminal (unless
// NO_COLOR is set).
type printer struct {
	w     io.Writer
	color bool
}

func newPrinter(w io.Writer) *printer {
	color := false
	if f, ok := w.(*os.File); ok && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb" {
		if info, err := f.Stat(); err == nil && info.Mode()&os.ModeCharDevice != 0 {
			color = true
		}
	}
	return &printer{w: w, color: color}
}

const (
	bold   = "\033[1m"
	dimmed = "\033[2m"
	red    = "\033[31m"
	green  = "\033[32m"
	yellow = "\033[33m"
	cyan   = "\033[36m"
	reset  = "\033[0m"
)

func (p *printer) paint(style, s string) string {
	if !p.color {
		return s
	}
	return style + s + reset
}

func (p *printer) title(s string) {
	fmt.Fprintf(p.w, "\n%s\n", p.paint(bold, "── "+s+" "+strings.Repeat("─", max(0, 72-len(s)))))
}

func (p *printer) line(format string, args ...any) { fmt.Fprintf(p.w, format+"\n", args...) }

func (p *printer) dim(format string, args ...any) {
	fmt.Fprintln(p.w, p.paint(dimmed, fmt.Sprintf(format, args...)))
}

func (p *printer) tried(s string) { p.labelled(p.paint(cyan, "model tried   "), s) }

func (p *printer) answered(s string) { p.labelled(p.paint(yellow, "guard         "), s) }

func (p *printer) saw(s string) { p.labelled(p.paint(bold, "user saw      "), s) }

// labelled prints s after label, wrapped to 90 columns and indented under
// the label; s's own line breaks are kept.
func (p *printer) labelled(label, s string) {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if w := wrap(l, 90); len(w) > 0 {
			lines = append(lines, w...)
		} else {
			lines = append(lines, "")
		}
	}
	fmt.Fprintf(p.w, "  %s%s\n", label, lines[0])
	for _, l := range lines[1:] {
		fmt.Fprintf(p.w, "  %s%s\n", strings.Repeat(" ", 14), l)
	}
}

// quote prints a reason wrapped to 88 columns, indented under the labels.
func (p *printer) quote(s string) {
	for _, l := range wrap(s, 88) {
		fmt.Fprintf(p.w, "  %s%s\n", strings.Repeat(" ", 16), p.paint(dimmed, l))
	}
}

func (p *printer) good(s string) { fmt.Fprintf(p.w, "  %s %s\n", p.paint(green, "✓"), s) }

func (p *printer) bad(s string) { fmt.Fprintf(p.w, "  %s %s\n", p.paint(red, "✗"), s) }

func (p *printer) fail(format string, args ...any) {
	fmt.Fprintln(p.w, p.paint(red, fmt.Sprintf(format, args...)))
}

// check prints yes or no and returns ok.
func (p *printer) check(ok bool, yes, no string) bool {
	if ok {
		p.good(yes)
	} else {
		p.bad(no)
	}
	return ok
}

func wrap(s string, width int) []string {
	var lines []string
	var cur strings.Builder
	for _, word := range strings.Fields(s) {
		if cur.Len() > 0 && cur.Len()+1+len(word) > width {
			lines = append(lines, cur.String())
			cur.Reset()
		}
		if cur.Len() > 0 {
			cur.WriteByte(' ')
		}
		cur.WriteString(word)
	}
	if cur.Len() > 0 {
		lines = append(lines, cur.String())
	}
	return lines
}
