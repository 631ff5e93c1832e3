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
