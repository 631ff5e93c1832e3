// Command denywebhookd serves denywebhook.Validate over TLS at /validate,
// with /healthz for the kubelet's probe; the real-node end-to-end test runs
// it in a pod built FROM scratch.
package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/denywebhook"
)

func main() {
	addr := flag.String("listen", ":8443", "address to serve on")
	cert := flag.String("tls-cert", "/etc/webhook/tls.crt", "serving certificate (PEM)")
	key := flag.String("tls-key", "/etc/webhook/tls.key", "serving key (PEM)")
	flag.Parse()
	mux := http.NewServeMux()
	mux.HandleFunc("/validate", denywebhook.Validate)
	mux.HandleFunc("/healthz", func(rw http.ResponseWriter, _ *http.Request) { _, _ = rw.Write([]byte("ok")) })
	srv := &http.Server{Addr: *addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	if err := srv.ListenAndServeTLS(*cert, *key); err != nil {
		fmt.Fprintln(os.Stderr, "denywebhookd:", err)
		os.Exit(1)
	}
}
