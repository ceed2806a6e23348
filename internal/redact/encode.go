package redact

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The hook stores a Session after every chunk. encoding/json would do, but
// its reflection costs a cold process more than the rest of the work on a
// short chunk, so a Session has its own small text format:
//
//	gemini-guard session 1
//	w                               (warned, when set)
//	p <n>\n<n bytes>                (pending)
//	k <n>\n<n bytes>                (a known secret, repeated)
//	s <n>\n<id> <unix nanos> <n shown> <n held>\n<shown><held>   (a stream)
//
// Every string is length-prefixed, so any bytes survive.

const sessionMagic = "gemini-guard session 1\n"

// ErrBadSession is returned by UnmarshalText for data that is not a
// session record: a record from another version, or a damaged one.
var ErrBadSession = errors.New("redact: not a session record")

// MarshalText encodes s; it never fails.
func (s *Session) MarshalText() ([]byte, error) {
	var b strings.Builder
	b.WriteString(sessionMagic)
	if s.Warned {
		b.WriteString("w\n")
	}
	field := func(tag, v string) {
		b.WriteString(tag)
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(len(v)))
		b.WriteByte('\n')
		b.WriteString(v)
	}
	if s.Pending != "" {
		field("p", s.Pending)
	}
	for _, k := range s.Known {
		field("k", k)
	}
	ids := make([]string, 0, len(s.Streams))
	for id := range s.Streams {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		st := s.Streams[id]
		field("s", id)
		b.WriteByte(' ')
		b.WriteString(strconv.FormatInt(st.Updated.UnixNano(), 10))
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(len(st.Shown)))
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(len(st.Held)))
		b.WriteByte('\n')
		b.WriteString(st.Shown)
		b.WriteString(st.Held)
	}
	return []byte(b.String()), nil
}

// UnmarshalText decodes a record written by MarshalText into s (replacing
// its content). On error s is left empty and ErrBadSession is returned.
func (s *Session) UnmarshalText(data []byte) error {
	*s = Session{}
	d := decoder{data: string(data)}
	if !strings.HasPrefix(d.data, sessionMagic) {
		return ErrBadSession
	}
	d.at = len(sessionMagic)
	for d.at < len(d.data) && d.err == nil {
		tag := d.word()
		switch tag {
		case "w":
			s.Warned = true
			d.newline()
		case "p":
			s.Pending = d.bytes(d.number())
		case "k":
			s.Known = append(s.Known, d.bytes(d.number()))
		case "s":
			id := d.bytes(d.number())
			d.space()
			nanos := d.number64()
			d.space()
			nShown := d.number()
			d.space()
			nHeld := d.number()
			d.newline()
			st := &SessionStream{Updated: time.Unix(0, nanos)}
			st.Shown = d.take(nShown)
			st.Held = d.take(nHeld)
			if s.Streams == nil {
				s.Streams = map[string]*SessionStream{}
			}
			s.Streams[id] = st
		default:
			d.err = ErrBadSession
		}
	}
	if d.err != nil {
		*s = Session{}
		return ErrBadSession
	}
	return nil
}

type decoder struct {
	data string
	at   int
	err  error
}

func (d *decoder) fail() { d.err = ErrBadSession }

// word reads up to the next space or newline, consuming a space.
func (d *decoder) word() string {
	start := d.at
	for d.at < len(d.data) && d.data[d.at] != ' ' && d.data[d.at] != '\n' {
		d.at++
	}
	w := d.data[start:d.at]
	if d.at < len(d.data) && d.data[d.at] == ' ' {
		d.at++
	}
	return w
}

func (d *decoder) number64() int64 {
	w := d.word()
	if d.at > 0 && d.data[d.at-1] == ' ' {
		d.at-- // leave the space to the caller
	}
	n, err := strconv.ParseInt(w, 10, 64)
	if err != nil {
		d.fail()
	}
	return n
}

func (d *decoder) number() int {
	n := d.number64()
	if n < 0 || n > int64(len(d.data)) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *decoder) space() {
	if d.at >= len(d.data) || d.data[d.at] != ' ' {
		d.fail()
		return
	}
	d.at++
}

func (d *decoder) newline() {
	if d.at >= len(d.data) || d.data[d.at] != '\n' {
		d.fail()
		return
	}
	d.at++
}

// bytes reads a newline and then n bytes.
func (d *decoder) bytes(n int) string {
	d.newline()
	return d.take(n)
}

func (d *decoder) take(n int) string {
	if d.err != nil || n > len(d.data)-d.at {
		d.fail()
		return ""
	}
	s := d.data[d.at : d.at+n]
	d.at += n
	return s
}
