#!/usr/bin/env bash
# A fleet on this box: two servers and two clients over memif, described
# as an Ansible inventory of local hosts and run by ansible-playbook
# (scripts/ansible: start, rate change, collect and merge), scraped by a
# real Prometheus. fleet_check.py checks: the rate change applied on both
# clients; sum(rate(dperf_http_2xx_total[10s])) within 2% of the engines'
# own rates; every query of the Grafana dashboard returns data; the fleet
# p99 from Prometheus' histograms within one bucket of the merged
# summary's; the merged summary the sum of the instances' and matching the
# servers'. Two cores for four engines: servers on cpu 0, clients on 1, at
# 400 CPS each, then 800.
. "$(dirname "$0")/lib.sh"
command -v ansible-playbook >/dev/null || fail "ansible is not installed (scripts/install-deps.sh)"
command -v prometheus >/dev/null || fail "prometheus is not installed (scripts/install-deps.sh)"
A=$ROOT/scripts/ansible
base=$((20000 + RANDOM % 20000))
mkdir -p "$T/conf" "$T/run" "$T/results"
# At exit: the engines and APIs ansible started (setsid: not our children).
# The engines, and Prometheus once started: a failed check must not leave it
# running (a CI run's failed check left one scraping for an hour).
kill_fleet() {
	for f in "$T"/run/*.pid; do [ -f "$f" ] && kill -TERM "$(cat "$f")" 2>/dev/null || true; done
	[ -n "${PROM:-}" ] && kill -TERM "$PROM" 2>/dev/null || true
}
# fleet_alive: one of them still running (up to a second given to them).
fleet_alive() {
	for f in "$T"/run/*.pid; do [ -f "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null && return 0; done
	return 1
}
trap 'rc=$?; kill_fleet; for _ in $(seq 10); do fleet_alive || break; sleep 0.1; done; (exit $rc); cleanup' EXIT

host() { # host NAME INSTANCE CPU API_PORT ROLE SOCK
	local ip=198.18.0.1 peer=198.18.0.2
	[ "$5" = client ] && { ip=198.18.0.2; peer=198.18.0.1; }
	cat <<YML
        $1:
          dperf_name: $2
          dperf_cpu: "$3"
          dperf_api: 127.0.0.1:$4
          dperf_lines:
            - port net_memif0,role=$5,socket=$6 $ip $peer
            - client 198.18.1.2 4
            - server 198.18.2.1 1
            - listen 80 1
YML
}
{
	cat <<YML
all:
  vars:
    ansible_connection: local
    ansible_python_interpreter: /usr/bin/python3
    dperf_launch: process
    dperf_bindir: $BUILD
    dperf_confdir: $T/conf
    dperf_rundir: $T/run
    dperf_token_path: $T/fleet.token
    dperf_results: $T/results
    dperf_ctl_local: $SECONDARY_BUILD/dperf-ctl
    dperf_cps: 800
    dperf_duration: 300s
    dperf_extra_lines: [slow_start 0, wait 0]
    dperf_collect_wait: 120
    dperf_start_throttle: 1
  children:
    dperf_servers:
      hosts:
YML
	host srv1 e2e-fs1 0 $((base + 1)) server "$T/m1.sock"
	host srv2 e2e-fs2 0 $((base + 2)) server "$T/m2.sock"
	cat <<YML
    dperf_clients:
      hosts:
YML
	host cli1 e2e-fc1 1 $((base + 3)) client "$T/m1.sock"
	host cli2 e2e-fc2 1 $((base + 4)) client "$T/m2.sock"
} >"$T/inventory.yml"
play() { ANSIBLE_NOCOLOR=1 ANSIBLE_HOST_KEY_CHECKING=0 ansible-playbook -i "$T/inventory.yml" "$@"; }

play "$A/fleet-start.yml" >"$T/start.log" 2>&1 || fail "fleet-start: $(grep -A3 'FAILED\|fatal' "$T/start.log" | head -8)"
note "fleet-start: 2 servers, then 2 clients, answering on their APIs ($SECONDS s)"

cat >"$T/prometheus.yml" <<YML
global: {scrape_interval: 1s, evaluation_interval: 1s}
scrape_configs:
  - job_name: dperf
    honor_labels: true
    static_configs: [{targets: ['127.0.0.1:$((base + 3))', '127.0.0.1:$((base + 4))']}]
YML
bg prometheus --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/prom" \
	--web.listen-address=127.0.0.1:$((base + 5)) >"$T/prometheus.log" 2>&1
PROM=$LAST_PID

# (traffic at the first rate meanwhile: fleet-start waited for both
# clients to run, and this playbook's start takes a second or more)
play "$A/fleet-rate.yml" -e cps=1600 >"$T/rate.log" 2>&1 || fail "fleet-rate: $(grep -A3 'FAILED\|fatal' "$T/rate.log" | head -8)"
# Both clients' status at once (each dperf-ctl attaches: 2-3 s here),
# while fleet_check waits for Prometheus' samples (at least 13 s), and
# read after it.
sts=()
for n in e2e-fc1 e2e-fc2; do ctl -p $n status --json >"$T/$n.status" 2>&1 & sts+=($!); done

/usr/bin/python3 "$(dirname "$0")/fleet_check.py" prometheus http://127.0.0.1:$((base + 5)) \
	"$(cat "$T/fleet.token")" $((base + 3)) $((base + 4)) "$ROOT/scripts/grafana/dperf-fleet.json" \
	"$T/prom.json" >"$T/check.log" 2>&1 || fail "$(grep FAIL "$T/check.log" || tail -3 "$T/check.log")"
wait "${sts[@]}" || true # (a failed one shows below)
for n in e2e-fc1 e2e-fc2; do
	t=$(jget "$(cat "$T/$n.status")" target_cps) || fail "$n: status: $(cat "$T/$n.status")"
	[ "$t" = 800 ] || fail "$n: target_cps $t after fleet-rate -e cps=1600 (800 expected)"
done
note "fleet-rate -e cps=1600 (from 800): target_cps 800 on both clients"
while read -r l; do note "$l"; done <"$T/check.log"

# End the test now (its duration is long enough for the checks on a
# loaded box): a graceful stop of both clients through their APIs.
# Prometheus' last scrape before this instant holds the run's histograms.
t_stop=$(date +%s.%N)
for p in $((base + 3)) $((base + 4)); do
	curl -sf -m 15 -X POST -H "Authorization: Bearer $(cat "$T/fleet.token")" "http://127.0.0.1:$p/v1/stop" >/dev/null ||
		fail "POST /v1/stop to the client on $p"
done
# (fleet-collect only now: started during the check, its wait_for met the
# clients' summaries still empty, "cannot mmap an empty file")
play "$A/fleet-collect.yml" >"$T/collect.log" 2>&1 || fail "fleet-collect: $(grep -A3 'FAILED\|fatal' "$T/collect.log" | head -8)"
/usr/bin/python3 "$(dirname "$0")/fleet_check.py" merged "$T/results" "$T/prom.json" "$t_stop" >"$T/merged.log" 2>&1 ||
	fail "$(grep FAIL "$T/merged.log" || tail -3 "$T/merged.log")"
while read -r l; do note "$l"; done <"$T/merged.log"
kill -TERM "$PROM"
wait_exit "$PROM" 10 || true
for f in "$T"/run/e2e-f[sc][12].log; do
	grep -q "^---- dperf .* total" "$f" || fail "$(basename "$f"): no final summary"
done
pass "ansible fleet: rate change on both clients, Prometheus within bounds, dashboard queries, merged = sum"
