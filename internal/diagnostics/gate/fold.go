package gate

// fold is the progress lines' memory from one report to the next: a line
// that says what the report just before said (the same Waiting and Detail)
// is folded into one short line with a count; any other line, or a report
// without the line, ends its run. A, B, A is three lines in full.
type fold struct {
	prev, cur map[string]foldRun // by what the line waits for
}

// foldRun is one line's run of reports in a row.
type foldRun struct {
	detail  string
	printed int // the lines of the run printed: the full one and each folded one
}

// begin starts a report's lines.
func (f *fold) begin() { f.cur = map[string]foldRun{} }

// end closes the report: its lines are the ones the next is matched with.
func (f *fold) end() { f.prev, f.cur = f.cur, nil }

// line records p in the report under way and returns it with Repeats set,
// whether it repeated the report before and whether it is to be printed: a
// new line always is, a repeat only when emit says so. A repeat held back
// stays in its run but is not counted, since no one saw it.
func (f *fold) line(p Progress, emit bool) (out Progress, repeated, printed bool) {
	r, repeated := f.prev[p.Waiting]
	repeated = repeated && r.detail == p.Detail
	if !repeated {
		r = foldRun{detail: p.Detail}
	}
	printed = emit || !repeated
	if printed {
		r.printed++
	}
	f.cur[p.Waiting] = r
	p.Repeats = max(r.printed-1, 0)
	return p, repeated, printed
}

// said is how many lines the run of p's line printed, up to the report
// before: 0 when that report did not say it.
func (f *fold) said(waiting, detail string) int {
	if r, ok := f.prev[waiting]; ok && r.detail == detail {
		return r.printed
	}
	return 0
}
