#!/bin/bash
# Apply the worker branch's mechanical rewrites (counters, worker parts, sender
# names; issue 26 items 1, 2, 5) to files taken from another branch:
#   scripts/merge/retransform.sh FILE...
# Run on files written against the flat struct worker only (a converted test
# file whose w is a struct netw would see pkt_tcp(w, ...) become
# pkt_tcp(&w->net, ...)).
set -e
FILES="$@"
sed -i -E 's/\bCNT(_ADD)?\(w, /CNT\1(\&w->cnt, /g' $FILES
sed -i -E 's/\bw->st->sk_cur\b/w->cnt.sk_cur/g; s/\bw->st->c\[/w->cnt.c[/g; s/\bw\.st->sk_cur\b/w.cnt.sk_cur/g; s/\bw\.st->c\[/w.cnt.c[/g' $FILES
python3 scripts/merge/worker_parts.py $FILES
sed -i -E -e 's/\bsk_tx_of\b/sk_snd_of/g; s/\bsk_tx\b/sk_snd/g; s/\bsktx\b/snd/g; s/\btx_src(_msg)?\b/snd_src\1/g; s/\btx_(open|begin|output|active|ack|persist|timer|arm_rt)\b/snd_\1/g; s/\bTX_(NEWRENO|GO_BACK|CWND_MAX|SACK)\b/SND_\1/g; s/\bworker_tx_bytes\b/worker_snd_bytes/g; s/\balloc_tx\b/alloc_snd/g; s/\btx_drop\b/snd_drop/g' $FILES
TCPF=$(echo $FILES | tr ' ' '\n' | grep -E '^(primary/tcp/|tests/unit/test_tcp_|tests/unit/tcp_harness)' || true)
[ -n "$TCPF" ] && sed -i -E 's/\btx\b/snd/g; s/\btx_(start|state)\b/snd_\1/g; s/\btest_tx_/test_snd_/g' $TCPF
# the keyword test_tx_drop stays (the sed above renamed the test functions test_tx_*)
[ -n "$TCPF" ] && sed -i -E 's/\btest_snd_drop\b/test_tx_drop/g' $TCPF
true
