package kuberead

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var nodes = schema.GroupVersionResource{Version: "v1", Resource: "nodes"}

// pagedServer serves a NodeList of total nodes in pages, honouring limit
// and continue as the kube-apiserver does, or, when ignoreLimit, all of
// them at once; it records each request's limit.
func pagedServer(t *testing.T, total int, ignoreLimit bool) (string, *[]int) {
	t.Helper()
	var mu sync.Mutex
	var limits []int
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		limit, _ := strconv.Atoi(q.Get("limit"))
		mu.Lock()
		limits = append(limits, limit)
		mu.Unlock()
		from, _ := strconv.Atoi(q.Get("continue"))
		to := total
		if !ignoreLimit && limit > 0 {
			to = min(total, from+limit)
		}
		l := corev1.NodeList{}
		l.Kind, l.APIVersion = "NodeList", "v1"
		for i := from; i < to; i++ {
			n := corev1.Node{}
			n.Name = fmt.Sprintf("node-%d", i)
			l.Items = append(l.Items, n)
		}
		if to < total {
			l.Continue = strconv.Itoa(to)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(l)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &limits
}

// TestListPages: a list is read in pages of at most pageSize items and
// ends at MaxItems; a cut list is recorded once, with how many were kept,
// whether the server pages or ignores the limit; a list within the cap
// is whole and records nothing.
func TestListPages(t *testing.T) {
	for _, tc := range []struct {
		name        string
		total, max  int
		ignoreLimit bool
		wantPages   int
		wantCut     bool
	}{
		{"within the cap", 1200, 5000, false, 3, false},
		{"exactly the cap", 1000, 1000, false, 2, false},
		{"past the cap", 1300, 1000, false, 2, true},
		{"server ignores the limit", 1300, 1000, true, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url, limits := pagedServer(t, tc.total, tc.ignoreLimit)
			r := openOn(t, url, Bound{Timeout: time.Minute, MaxBytes: defaultMaxBytes, MaxItems: tc.max})
			var l corev1.NodeList
			if err := r.List(context.Background(), nodes, "", "", &l); err != nil {
				t.Fatal(err)
			}
			if want := min(tc.total, tc.max); len(l.Items) != want || l.Items[want-1].Name != fmt.Sprintf("node-%d", want-1) {
				t.Errorf("%d items; want the first %d", len(l.Items), want)
			}
			if len(*limits) != tc.wantPages {
				t.Errorf("%d requests (limits %v); want %d pages", len(*limits), *limits, tc.wantPages)
			}
			for _, lim := range *limits {
				if lim <= 0 || lim > pageSize {
					t.Errorf("a page asked for limit %d; want 1 to %d", lim, pageSize)
				}
			}
			cuts := r.cutsSoFar()
			if got := len(cuts) == 1; got != tc.wantCut {
				t.Fatalf("cuts %v; want cut %v", cuts, tc.wantCut)
			}
			if tc.wantCut {
				if cuts[0] != (Cut{Resource: "nodes", Kept: tc.max}) || !strings.Contains(cuts[0].String(), fmt.Sprintf("only the first %d were read", tc.max)) {
					t.Errorf("cut %+v (%s)", cuts[0], cuts[0])
				}
				var text strings.Builder
				if err := Summary(Find(Lookup{Flag: "k", FlagGiven: true}), r).WriteText(&text); err != nil || !strings.Contains(text.String(), "  list cut: nodes: only the first") {
					t.Errorf("summary %q, %v; want the cut named", text.String(), err)
				}
			}
		})
	}
}

// TestRefusesAnUnboundedRead: a Bound with any field not positive is
// refused by both constructors, naming what is missing.
func TestRefusesAnUnboundedRead(t *testing.T) {
	url, _ := pagedServer(t, 1, false)
	choice := Find(Lookup{Flag: "", FlagGiven: false, Env: ""})
	for _, b := range []Bound{{}, {Timeout: time.Second, MaxBytes: 1}, {Timeout: time.Second, MaxItems: 1}, {MaxBytes: 1, MaxItems: 1}, {Timeout: -time.Second, MaxBytes: 1, MaxItems: 1}} {
		if _, err := Open(context.Background(), Find(Lookup{Flag: url, FlagGiven: true}), b); err == nil || !strings.Contains(err.Error(), "refused an unbounded read") {
			t.Errorf("Open with %+v: %v; want it refused", b, err)
		}
		if _, err := FromDynamic(nil, b); err == nil {
			t.Errorf("FromDynamic with %+v accepted", b)
		}
	}
	if _, err := Open(context.Background(), choice, Within(time.Second)); err == nil || !strings.Contains(err.Error(), "no kubeconfig") {
		t.Errorf("Open without a kubeconfig: %v; want it refused, saying why", err)
	}
}

// TestRedirectToAnotherHostIsRefused: the Reader never follows a redirect
// away, so the kubeconfig's token is never sent to another host.
func TestRedirectToAnotherHostIsRefused(t *testing.T) {
	other := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the redirect was followed, Authorization %q", r.Header.Get("Authorization"))
	}))
	defer other.Close()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	r := openOn(t, srv.URL, Within(10*time.Second))
	var l corev1.NodeList
	if err := r.List(context.Background(), nodes, "", "", &l); err == nil || !strings.Contains(err.Error(), "refused to follow a redirect") {
		t.Errorf("list: %v, want the redirect refused", err)
	}
	err := r.Fetch(context.Background(), "/metrics", func(*http.Response) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "refused to follow a redirect") {
		t.Errorf("fetch: %v, want the redirect refused", err)
	}
}
