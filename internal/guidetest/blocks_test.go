package guidetest

import "testing"

func TestBlocks(t *testing.T) {
	md := "# A\ntext\n```sh\necho 1\n```\n## B\n```bash extra\naws x\n```\n```\nplain\n```\n<!-- guidetest: skip: needs a node -->\n\n```sh\ncrictl ps\n```\n"
	bs := Blocks([]byte(md))
	want := []Block{
		{Lang: "sh", Line: 3, Body: "echo 1\n", Section: "A"},
		{Lang: "bash", Line: 7, Body: "aws x\n", Section: "B"},
		{Lang: "", Line: 10, Body: "plain\n", Section: "B"},
		{Lang: "sh", Line: 15, Body: "crictl ps\n", Section: "B", Skip: "needs a node"},
	}
	if len(bs) != len(want) {
		t.Fatalf("got %d blocks %+v, want %d", len(bs), bs, len(want))
	}
	for i := range want {
		if bs[i] != want[i] {
			t.Errorf("block %d: %+v, want %+v", i, bs[i], want[i])
		}
	}
	if r := Runnable(bs); len(r) != 1 || r[0].Body != "echo 1\n" {
		t.Errorf("Runnable = %+v, want only the sh block not marked skip", r)
	}
}

// TestIndentedBlocks: a four-space block after a blank line is a block,
// with its skip mark and without its trailing blank lines; indented text
// that continues a list item is not.
func TestIndentedBlocks(t *testing.T) {
	md := "# A\ntext:\n\n    konnectivity-bundle diff a b\n      --more\n\nafter\n" +
		"- item\n\n    continued item\n\n" +
		"<!-- guidetest: skip: needs a node -->\n\n    sudo make modes\n"
	bs := Blocks([]byte(md))
	want := []Block{
		{Line: 4, Body: "konnectivity-bundle diff a b\n  --more\n", Section: "A", Indented: true},
		{Line: 14, Body: "sudo make modes\n", Section: "A", Skip: "needs a node", Indented: true},
	}
	if len(bs) != len(want) {
		t.Fatalf("got %d blocks %+v, want %d", len(bs), bs, len(want))
	}
	for i := range want {
		if bs[i] != want[i] {
			t.Errorf("block %d: %+v, want %+v", i, bs[i], want[i])
		}
		if !IsCommands(bs[i]) {
			t.Errorf("block %d is not taken for commands", i)
		}
	}
	if IsCommands(Block{Indented: true, Body: "--logtostderr=true\n"}) || IsCommands(Block{Lang: "console", Body: "$ ls\n"}) {
		t.Error("a flag list or a transcript is taken for commands")
	}
}
