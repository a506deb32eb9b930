#!/bin/sh
# Makes the self-tests' TLS certificates: a certificate authority of their own and, signed by it, a
# server certificate for localhost and 127.0.0.1, both valid from 2026 to 2126. They are checked in
# so that the tests need no openssl; this script only says how they were made. The keys are for
# loopback tests and nothing else. The authority's key is thrown away: nothing else is ever signed.
# Usage: sh tests/tls/make-certificates.sh (from anywhere; writes beside itself)
set -eu
out=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/db"
touch "$work/db/index.txt"
echo 1000 > "$work/db/serial"
cat > "$work/ca.cnf" <<CNF
[ ca ]
default_ca = self_test_ca
[ self_test_ca ]
database = $work/db/index.txt
serial = $work/db/serial
new_certs_dir = $work/db
default_md = sha256
policy = any
copy_extensions = none
[ any ]
commonName = supplied
[ authority ]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[ server ]
basicConstraints = CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost,IP:127.0.0.1
authorityKeyIdentifier = keyid
subjectKeyIdentifier = hash
CNF
key() { openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$1" -out "$2" -subj "$3" 2>/dev/null; }
sign() { openssl ca -batch -notext -config "$work/ca.cnf" -startdate 20260101000000Z -enddate 21260101000000Z "$@" 2>/dev/null; }
key "$work/ca.key" "$work/ca.csr" "/CN=Conformance suite self-test CA"
sign -selfsign -keyfile "$work/ca.key" -in "$work/ca.csr" -out "$out/ca.pem" -extensions authority
key "$out/localhost.key" "$work/localhost.csr" "/CN=localhost"
sign -cert "$out/ca.pem" -keyfile "$work/ca.key" -in "$work/localhost.csr" -out "$out/localhost.pem" -extensions server
openssl verify -CAfile "$out/ca.pem" "$out/localhost.pem"
