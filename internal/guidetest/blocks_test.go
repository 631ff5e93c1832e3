package guidetest

import (
	"strings"
	"testing"
)

func TestBlocks(t *testing.T) {
	md := "# A\ntext\n```sh\necho 1\n```\n## B\n```bash extra\naws x\n```\n```\nplain\n```\n<!-- guidetest: skip: needs a node -->\n\n```sh\ncrictl ps\n```\n"
	bs := mustBlocks(t, md)
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
	bs := mustBlocks(t, md)
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

// mustBlocks is Blocks of md, named guide.md; an error fails t.
func mustBlocks(t *testing.T, md string) []Block {
	t.Helper()
	bs, err := Blocks("guide.md", []byte(md))
	if err != nil {
		t.Fatal(err)
	}
	return bs
}

// TestFences: fences as CommonMark reads them. Tildes fence too; a fence
// may be indented up to three spaces, which its lines lose; four make an
// indented block. A fence closes only on a line of its own character at
// least as long, with nothing after it, so ``` lines are content of a
// ```` block. A line of inline code is no fence.
func TestFences(t *testing.T) {
	cases := []struct {
		name, md string
		want     []Block
	}{
		{"tildes", "~~~sh\necho 1\n~~~\n", []Block{{Lang: "sh", Line: 1, Body: "echo 1\n"}}},
		{"tildes hold backticks", "~~~\n```\nx\n~~~\n", []Block{{Line: 1, Body: "```\nx\n"}}},
		{"backticks hold tildes", "```sh\n~~~\necho\n```\n", []Block{{Lang: "sh", Line: 1, Body: "~~~\necho\n"}}},
		{"indented three spaces", "text\n\n   ```sh\n   echo 1\n  echo 2\n     echo 3\n   ```\n",
			[]Block{{Lang: "sh", Line: 3, Body: "echo 1\necho 2\n  echo 3\n"}}},
		{"indented one space, closed at none", " ~~~ sh\n echo\n~~~\n", []Block{{Lang: "sh", Line: 1, Body: "echo\n"}}},
		{"four spaces is an indented block", "text\n\n    ```sh\n    echo\n    ```\n",
			[]Block{{Line: 3, Body: "```sh\necho\n```\n", Indented: true}}},
		{"longer fence holds shorter ones", "````md\n```sh\necho inner\n```\n````\n",
			[]Block{{Lang: "md", Line: 1, Body: "```sh\necho inner\n```\n"}}},
		{"a longer close closes", "```sh\necho\n`````\n", []Block{{Lang: "sh", Line: 1, Body: "echo\n"}}},
		{"a close with an info string is content", "```\nx\n```sh\n```\n", []Block{{Line: 1, Body: "x\n```sh\n"}}},
		{"inline code is no fence", "```not a fence``` here\n```sh\necho\n```\n", []Block{{Lang: "sh", Line: 2, Body: "echo\n"}}},
		{"skip mark above an indented fence", "<!-- guidetest: skip: needs a node -->\n  ```sh\n  crictl ps\n  ```\n",
			[]Block{{Lang: "sh", Line: 2, Body: "crictl ps\n", Skip: "needs a node"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			bs := mustBlocks(t, tc.md)
			if len(bs) != len(tc.want) {
				t.Fatalf("got %d blocks %+v, want %+v", len(bs), bs, tc.want)
			}
			for i := range tc.want {
				if bs[i] != tc.want[i] {
					t.Errorf("block %d: %+v, want %+v", i, bs[i], tc.want[i])
				}
			}
		})
	}
}

// TestUnclosedFence: a fence never closed fails with the file and the
// line it opened on, rather than swallowing the rest of the guide; a
// shorter or other fence inside it does not close it.
func TestUnclosedFence(t *testing.T) {
	cases := []struct {
		name, md, want string
	}{
		{"backticks", "# A\n```sh\necho 1\n", "guide.md:2: the fence ``` opened here is never closed"},
		{"tildes", "text\n~~~~\n~~~\n```\n", "guide.md:2: the fence ~~~~ opened here is never closed"},
		{"longer fence, shorter inside", "````\n```\nx\n```\n", "guide.md:1: the fence ```` opened here is never closed"},
		{"after a closed one", "```\na\n```\n\n   ```sh\nb\n", "guide.md:5: "},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			bs, err := Blocks("guide.md", []byte(tc.md))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Blocks = %+v, %v; want an error containing %q", bs, err, tc.want)
			}
		})
	}
}
