#!/usr/bin/env bash
# Writes the TLS test certificates the HTTPS self-tests serve (test/self/tls.spec.ts): a test CA and three
# leaf certificates it signs. They are test material only; rerun this script to replace them.
#   ca.pem                    the test CA (what a profile's "caFile" names), valid 100 years
#   valid.pem / -key.pem      for 127.0.0.1 and localhost, valid 100 years
#   expired.pem / -key.pem    for 127.0.0.1 and localhost, valid only during 2020
#   wrong-host.pem / -key.pem for partner.example only, valid 100 years
#   self-signed.pem           for 127.0.0.1, self-signed with valid-key.pem: the key of a trusted certificate, no CA
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/ca-key.pem" -out ca.pem -days 36500 \
  -subj "/CN=partner-certify test CA" -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null

mkdir -p "$work/db/new"
touch "$work/db/index.txt"
echo 1000 > "$work/db/serial"
cat > "$work/ca.cnf" <<CNF
[ca]
default_ca = test
[test]
dir = $work/db
database = \$dir/index.txt
new_certs_dir = \$dir/new
serial = \$dir/serial
default_md = sha256
policy = any
copy_extensions = copy
unique_subject = no
[any]
commonName = supplied
CNF

leaf() { # name, subjectAltName, then openssl ca date options
  local name=$1 san=$2; shift 2
  openssl req -newkey rsa:2048 -nodes -keyout "$name-key.pem" -out "$work/$name.csr" -subj "/CN=$name" \
    -addext "subjectAltName=$san" -addext "extendedKeyUsage=serverAuth" 2>/dev/null
  openssl ca -batch -config "$work/ca.cnf" -cert ca.pem -keyfile "$work/ca-key.pem" -in "$work/$name.csr" -out "$name.pem" -notext "$@" 2>/dev/null
}
leaf valid "IP:127.0.0.1,DNS:localhost" -days 36500
leaf expired "IP:127.0.0.1,DNS:localhost" -startdate 20200101000000Z -enddate 20201231000000Z
leaf wrong-host "DNS:partner.example" -days 36500
openssl req -x509 -key valid-key.pem -out self-signed.pem -days 36500 -subj "/CN=self-signed" \
  -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" 2>/dev/null
echo "wrote $(ls *.pem | tr '\n' ' ')"
