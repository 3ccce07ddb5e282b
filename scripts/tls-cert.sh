#!/usr/bin/env bash
# A self-signed test certificate and its key for dperf's TLS server
# (tls_cert, tls_key) and for clients that check it (tls_ca, curl --cacert),
# made when missing: DIR/test-cert.pem, DIR/test-key.pem (default build/tls).
# Never committed (.gitignore): every checkout makes its own key.
#   TLS_KEY=ec (default: ECDSA P-256, what bench and tests pin) or rsa2048
set -euo pipefail
dir=${1:-build/tls}
cert=$dir/test-cert.pem key=$dir/test-key.pem
[ -s "$cert" ] && [ -s "$key" ] && exit 0
case ${TLS_KEY:-ec} in
ec) alg=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1) ;;
rsa2048) alg=(-newkey rsa:2048) ;;
*) echo "tls-cert.sh: TLS_KEY=${TLS_KEY}: ec or rsa2048" >&2; exit 2 ;;
esac
mkdir -p "$dir"
# two makes at once (unit and unit-asan): one makes the pair, the other finds it
exec 9>"$dir/.lock"
flock 9
[ -s "$cert" ] && [ -s "$key" ] && exit 0
tmp=$(mktemp -d "$dir/.cert.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# The names the tests reach the server by: dperf.test (curl --resolve),
# and the first addresses of the test ranges (198.18.0.0/15).
openssl req -x509 "${alg[@]}" -nodes -days 3650 -subj /CN=dperf.test \
	-addext "subjectAltName=DNS:dperf.test,DNS:localhost,IP:198.18.0.1,IP:198.18.1.1,IP:198.18.2.1,IP:127.0.0.1" \
	-keyout "$tmp/key.pem" -out "$tmp/cert.pem" 2>/dev/null
chmod 600 "$tmp/key.pem"
mv "$tmp/key.pem" "$key"
mv "$tmp/cert.pem" "$cert"
echo "tls-cert.sh: made $cert and $key"
