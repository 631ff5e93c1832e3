#!/usr/bin/env bash
# Baseline: the bootstrap Konnectivity job done the way the installer's
# bootstrap script does it today (host paths as in README.md "What the bundle
# contains", certificates as in functions/certs/README.md): openssl
# RSA-2048 CA and two leaves valid one day, envsubst templates, a base64
# Secret. Used only as the comparison point for bench/compare.sh.
#
# Usage: render.sh ROOT BOOTSTRAP_IP IMAGE
set -euo pipefail

root=${1:?usage: render.sh ROOT BOOTSTRAP_IP IMAGE}
export KONNECTIVITY_BOOTSTRAP_IP=${2:?bootstrap IP missing}
export KONNECTIVITY_IMAGE=${3:?image missing}
templates=$(cd "$(dirname "$0")/templates" && pwd)

tls=$root/opt/openshift/tls/konnectivity
manifests=$root/opt/openshift/manifests
configs=$root/etc/kubernetes/bootstrap-configs
staticpods=$root/etc/kubernetes/manifests
mkdir -p "$tls" "$manifests" "$configs" "$staticpods"
chmod 0700 "$tls"

# CA: self-signed, CN=konnectivity-signer, path length 0.
openssl req -x509 -newkey rsa:2048 -nodes -days 1 \
  -keyout "$tls/ca.key" -out "$tls/ca.crt" \
  -subj "/O=openshift/CN=konnectivity-signer" \
  -addext "basicConstraints=critical,CA:TRUE,pathlen:0" \
  -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null

# leaf NAME CN EXTENSIONS: key, CSR, signature by the CA.
leaf() {
  openssl req -newkey rsa:2048 -nodes -keyout "$tls/$1.key" -out "$tls/$1.csr" \
    -subj "/O=openshift/CN=$2" 2>/dev/null
  openssl x509 -req -in "$tls/$1.csr" -CA "$tls/ca.crt" -CAkey "$tls/ca.key" \
    -CAcreateserial -days 1 -out "$tls/$1.crt" -extfile <(printf '%b' "$3") 2>/dev/null
  rm -f "$tls/$1.csr"
}
leaf server konnectivity-server "extendedKeyUsage=serverAuth\nsubjectAltName=IP:$KONNECTIVITY_BOOTSTRAP_IP\n"
leaf agent konnectivity-agent "extendedKeyUsage=clientAuth\n"
rm -f "$tls/ca.srl"
chmod 0600 "$tls"/*.key

KONNECTIVITY_CA_CERT_B64=$(base64 -w0 "$tls/ca.crt")
KONNECTIVITY_AGENT_CERT_B64=$(base64 -w0 "$tls/agent.crt")
KONNECTIVITY_AGENT_KEY_B64=$(base64 -w0 "$tls/agent.key")
export KONNECTIVITY_CA_CERT_B64 KONNECTIVITY_AGENT_CERT_B64 KONNECTIVITY_AGENT_KEY_B64

subst() { envsubst <"$templates/$1.template" >"$2"; }
subst konnectivity-server-pod.yaml "$staticpods/konnectivity-server-pod.yaml"
subst konnectivity-00-namespace.yaml "$manifests/konnectivity-00-namespace.yaml"
subst konnectivity-agent-daemonset.yaml "$manifests/konnectivity-agent-daemonset.yaml"
subst konnectivity-agent-certs-secret.yaml "$manifests/konnectivity-agent-certs-secret.yaml"
chmod 0600 "$manifests/konnectivity-agent-certs-secret.yaml"
subst egress-selector-config.yaml "$configs/egress-selector-config.yaml"
subst konnectivity-config-override.yaml "$root/opt/openshift/konnectivity-config-override.yaml"
