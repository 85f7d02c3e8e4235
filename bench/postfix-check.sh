#!/usr/bin/env bash
# Issue 30: flowctl through a real Postfix. Starts a private Postfix instance (its own configuration,
# queue and log under $BASE, smtpd on 127.0.0.1:$PORT only, every recipient of example.test delivered
# to one Maildir; the machine's own Postfix, if any, is not touched), then bench/lib/postfix-run.mjs
# runs 2,000 rows three times through it: clean, with Postfix stopped part-way, and with Postfix
# restarted part-way answering 421 to every RCPT (defer_code = 421). After each, it checks the
# Maildir: every row once, no header line over 998 bytes, no raw encoded-word lookalike, bodies intact.
# Needs root and `apt-get install -y postfix` (debconf: "No configuration" leaves the system one off).
#   bench/postfix-check.sh [outage seconds, default 20]   (ONLY=clean|stopped|storm: that run alone)
set -euo pipefail
BASE=${BASE:-/tmp/flowctl-postfix}
PORT=${PORT:-2525}
OUTAGE=${1:-20}
here=$(cd "$(dirname "$0")" && pwd)

command -v postfix >/dev/null || { echo "postfix is not installed: apt-get install -y postfix" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "run as root: Postfix's master starts as root" >&2; exit 2; }

pf() { postfix -c "$BASE/etc" "$@"; }
cleanup() { pf stop >/dev/null 2>&1 || true; }
trap cleanup EXIT

pf stop >/dev/null 2>&1 || true
rm -rf "$BASE"
mkdir -p "$BASE/etc" "$BASE/queue" "$BASE/data" "$BASE/mail"
chown postfix "$BASE/data"
chown nobody:nogroup "$BASE/mail"
# Every service unchrooted (the queue is not the system's), smtpd on loopback:$PORT only.
awk -v port="$PORT" '
    /^smtp[ \t]+inet/ { print "127.0.0.1:" port " inet n - n - - smtpd"; next }
    /^[a-z]/ && NF >= 8 { $5 = "n" }
    { print }
' /etc/postfix/master.cf > "$BASE/etc/master.cf"
cat > "$BASE/etc/main.cf" <<CONF
compatibility_level = 3.6
config_directory = $BASE/etc
queue_directory = $BASE/queue
data_directory = $BASE/data
myhostname = flowctl-check.localdomain
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
maillog_file = $BASE/postfix.log
maillog_file_prefixes = $BASE
virtual_mailbox_domains = example.test
virtual_mailbox_base = $BASE/mail
virtual_mailbox_maps = static:Maildir/
virtual_uid_maps = static:65534
virtual_gid_maps = static:65534
virtual_minimum_uid = 100
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
default_process_limit = 100
alias_maps =
alias_database =
CONF
pf check
pf start
for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/"$PORT") 2>/dev/null && break; sleep 0.2; done

node "$here/lib/postfix-run.mjs" --base="$BASE" --port="$PORT" --outage="$OUTAGE" ${ONLY:+--only="$ONLY"}
