package bundlediff

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/manifest"
)

// redact replaces secret material in place with summaries before anything is
// compared, so no output path can print it: every value of a Secret's data
// and stringData, a ConfigMap's binaryData, and any string holding PEM or
// base64 of PEM, wherever it is (annotations included).
func redact(o manifest.Object) {
	switch o.ID.Kind {
	case "Secret":
		summariseMap(o.Body, "data", true)
		summariseMap(o.Body, "stringData", false)
	case "ConfigMap":
		summariseMap(o.Body, "binaryData", true)
	}
	o.Body = redactPEM(o.Body).(map[string]any)
}

func summariseMap(body map[string]any, field string, base64Encoded bool) {
	m, ok := body[field].(map[string]any)
	if !ok {
		return
	}
	for k, v := range m {
		s, ok := v.(string)
		if !ok {
			continue
		}
		raw := []byte(s)
		if base64Encoded {
			dec, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				m[k] = "not valid base64 (" + fingerprint(raw) + ")"
				continue
			}
			raw = dec
		}
		m[k] = summarise(raw)
	}
}

func redactPEM(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = redactPEM(e)
		}
	case []any:
		for i, e := range t {
			t[i] = redactPEM(e)
		}
	case string:
		if r, ok := redactString(t); ok {
			return r
		}
	}
	return v
}

// redactString summarises a string that holds PEM, or base64 of PEM anywhere
// inside it: an annotation such as kubectl.kubernetes.io/last-applied-configuration
// carries a whole Secret as JSON, its keys base64-encoded.
func redactString(s string) (string, bool) {
	if strings.Contains(s, pemMarker) {
		return summarise([]byte(s)), true
	}
	for _, enc := range pemMarkerBase64 {
		if !strings.Contains(s, enc) {
			continue
		}
		if dec, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(s), "")); err == nil {
			return "base64 of " + summarise(dec), true
		}
		return "holds base64-encoded PEM, " + summarise([]byte(s)), true
	}
	return s, false
}

const pemMarker = "-----BEGIN "

// pemMarkerBase64 are the base64 forms of pemMarker at each of the three
// byte alignments it can have in an encoded stream, trimmed to the
// characters that depend on the marker alone.
var pemMarkerBase64 = func() []string {
	var out []string
	for k := range 3 {
		enc := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("x", k) + pemMarker))
		first := (8*k + 5) / 6               // first character made only of marker bits
		last := (8*(k+len(pemMarker)))/6 - 1 // last character made only of marker bits
		out = append(out, enc[first:last+1])
	}
	return out
}()

// summarise describes secret bytes without revealing them: each PEM
// certificate by fingerprint, subject, SANs and expiry; each key by type and
// fingerprint; anything else by length and fingerprint.
func summarise(b []byte) string {
	var parts []string
	rest := b
	for {
		var blk *pem.Block
		blk, rest = pem.Decode(rest)
		if blk == nil {
			break
		}
		parts = append(parts, summariseBlock(blk))
	}
	if len(parts) == 0 {
		return fmt.Sprintf("%d bytes %s", len(b), fingerprint(b))
	}
	return strings.Join(parts, "; ")
}

func summariseBlock(blk *pem.Block) string {
	if blk.Type != "CERTIFICATE" {
		if strings.Contains(blk.Type, "PRIVATE KEY") {
			return fmt.Sprintf("private key (%s) %s", blk.Type, fingerprint(blk.Bytes))
		}
		return fmt.Sprintf("%s %s", blk.Type, fingerprint(blk.Bytes))
	}
	c, err := x509.ParseCertificate(blk.Bytes)
	if err != nil {
		return "unparsable certificate " + fingerprint(blk.Bytes)
	}
	s := fmt.Sprintf("certificate %s subject=%s", fingerprint(blk.Bytes), c.Subject.String())
	if sans := sanList(c); len(sans) > 0 {
		s += " SANs=" + strings.Join(sans, ",")
	}
	return s + " notAfter=" + c.NotAfter.UTC().Format(time.RFC3339)
}

func sanList(c *x509.Certificate) []string {
	var out []string
	for _, ip := range c.IPAddresses {
		out = append(out, "IP:"+net.IP(ip).String())
	}
	for _, d := range c.DNSNames {
		out = append(out, "DNS:"+d)
	}
	for _, u := range c.URIs {
		out = append(out, "URI:"+u.String())
	}
	return out
}

// fingerprint is a short sha256: enough to tell two values apart in review.
func fingerprint(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:8])
}
