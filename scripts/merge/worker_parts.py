#!/usr/bin/env python3
"""Rewrite code written against the flat struct worker (primary/state/worker.h
before issue 26) to the worker of parts (engine/worker.h, net/netw.h, ...).

    scripts/merge/worker_parts.py FILE...

A file under primary/net, tcp, udp or dev works on struct netw (w is a
struct netw *); engine/, boot/ and the tests on struct worker (w->net...).
Re-runnable on merged code: it only rewrites the old flat names. What it
cannot know (a call that now takes a part, &w -> &w->net) the compiler
names."""
import re
import sys

# old member -> its path from struct netw; tcp-> : TCP's part
NETW = {
    'sk': 'skt.sk', 'n_sk': 'skt.n_sk', 'srv_ip': 'skt.srv_ip', 'cip_h': 'skt.cip_h',
    'n_cip': 'skt.n_cip', 'lport_min': 'skt.lport_min', 'n_lport': 'skt.n_lport',
    'sport_min': 'skt.srvport_min', 'n_sport': 'skt.n_srvport', 'cr': 'skt.cr', 'n_cr': 'skt.n_cr',
    'n_cip_total': 'skt.n_cip_total', 'div_sport': 'skt.div_srvport', 'div_cip': 'skt.div_cip',
    'cursor': 'cur.cursor', 'cur_sport': 'cur.cur_srvport', 'cur_cip': 'cur.cur_cip',
    'cur_lport': 'cur.cur_lport', 'walked': 'cur.walked', 'hop_round': 'cur.hop_round',
    'client_hop': 'cur.client_hop', 'dip_h': 'cur.dip_h', 'dip_step': 'cur.dip_step',
    'dip_num': 'cur.dip_num', 'dip_first': 'cur.dip_first', 'dip_every': 'cur.dip_every',
    'dip_next': 'cur.dip_next',
    'req': 'msg.req', 'rsp_ka': 'msg.rsp_ka', 'rsp_close': 'msg.rsp_close',
    'rsp_head_ka': 'msg.rsp_head_ka', 'rsp_head_close': 'msg.rsp_head_close', 'rsp_bad': 'msg.rsp_bad',
    'rsp_size': 'msg.rsp_size', 'req_size': 'msg.req_size', 'msg_map_len': 'msg.map_len',
    'np': 'io.np', 'vx': 'io.vx', 'mp': 'io.mp', 'ip_id': 'io.ip_id', 'tos': 'io.tos',
    'n_stash': 'io.n_stash', 'lpfx': 'io.lpfx', 'rpfx': 'io.rpfx', 'stash': 'io.stash',
    'fr_head': 'fring.head', 'fr_count': 'fring.count', 'fr_cap': 'fring.cap', 'fr': 'fring.m',
    'rx_drop_every': 'rx_drop.every', 'rx_drop_n': 'rx_drop.n',
    'port_id': 'txq.port_id', 'queue': 'txq.queue', 'n_tx': 'txq.n', 'tx_head': 'txq.head',
    'tx_burst': 'txq.burst', 'tx_blocked': 'txq.blocked', 'tx_due': 'txq.due', 'tx_hold': 'txq.hold',
    'tx_dead': 'txq.dead', 'tx_taken_ms': 'txq.taken_ms', 'quiesced': 'txq.quiesced',
    'in_tx': 'txq.in_tx', 'tx': 'txq.pkts',
    'now': 'now', 'now_ms': 'now_ms', 'now_t': 'now_t', 'id': 'id', 'mss': 'mss',
    'is_client': 'is_client', 'is_http': 'is_http', 'is_udp': 'is_udp', 'keepalive': 'keepalive',
    'fast_close': 'fast_close', 'flood': 'flood', 'v6': 'v6', 'stopping': 'stopping',
    'cfg': 'cfg', 'lat': 'lat', 'cnt': 'cnt',
    'tl': 'tcp->tl', 'timers_behind': 'tcp->timers_behind', 'timer_fired': 'tcp->timer_fired',
    'disable_ack': 'tcp->disable_ack', 'dack_t': 'tcp->dack_t', 'dack': 'tcp->dack',
    'sktx': 'tcp->snd', 'send_wnd': 'tcp->send_wnd', 'ka_num': 'tcp->ka_num',
    'tx_drop_every': 'tcp->snd_drop.every', 'tx_drop_n': 'tcp->snd_drop.n', 'rsp_head': 'tcp->rsp_head',
    'ooo': 'tcp->ooo',
}
# old member -> its path from struct worker, for the loop's own parts
WORKER = {
    'next_launch': 'launch.next', 'interval': 'launch.interval', 'cps_w': 'launch.cps_w',
    'cc_w': 'launch.cc_w', 'pps_interval_us': 'launch.pps_interval_us', 'launch_num': 'launch.num',
    'slow_start_ms': 'launch.slow_start_ms',
    'pmd_text_lo': 'fault.pmd_text_lo', 'pmd_text_hi': 'fault.pmd_text_hi', 'fault_jb': 'fault.jb',
    'st': 'st', 'ctl': 'ctl', 'gen_seen': 'gen_seen', 'hz': 'hz', 'tsc_per_ms': 'tsc_per_ms',
    'tsc_per_t': 'tsc_per_t', 'start_tsc': 'start_tsc', 'next_arp_ms': 'next_arp_ms',
    'rx_backlog': 'rx_backlog', 'paused': 'paused',
}
LOWER = ('primary/net/', 'primary/tcp/', 'primary/udp/', 'primary/dev/', 'primary/state/')
NEW_FIRST = {'skt', 'cur', 'msg', 'io', 'fring', 'rx_drop', 'txq', 'tcp', 'net', 'launch', 'fault'}


def rewrite(path, s):
    lower = path.startswith(LOWER)
    # struct worker: what lower rooms see is struct netw
    if lower:
        s = re.sub(r'\bstruct worker\b', 'struct netw', s)
        s = s.replace('#include "state/worker.h"', '#include "net/netw.h"')
    else:
        s = s.replace('#include "state/worker.h"', '#include "engine/worker.h"')
    s = s.replace('#include "state/tlist.h"', '#include "tcp/tlist.h"')
    # w->m, w.m, x->w.m, x.w0.m: the names a worker goes by here
    pat = re.compile(r'(\b(?:w|w0|fw)(?:->|\.))(\w+)\b(?!\s*\()')

    def sub(m):
        acc, name = m.group(1), m.group(2)
        if name in NEW_FIRST and not (lower and name == 'tcp'):
            return m.group(0)
        if name in NETW:
            p = NETW[name]
            if lower:
                return acc + p
            return acc + 'net.' + p.replace('tcp->', 'tcp.').replace('net.tcp.', 'tcp.') \
                if p.startswith('tcp->') is False else acc + p.replace('tcp->', 'tcp.')
        if name in WORKER and not lower:
            return acc + WORKER[name]
        return m.group(0)
    s = pat.sub(sub, s)
    return s


# Calls: a function that takes a part is passed the part; one of a lower
# room (struct netw) called from the loop or a test is passed w->net.
PART_CALLS = {
    'tx_congested': 'txq', 'tx_pending': 'txq', 'tx_flush': 'txq', 'tx_discard_all': 'txq',
    'tx_drop_one': 'txq', 'tx_make_room': 'txq', 'tx_tick': 'txq',
    'sk_table_init': 'skt', 'sk_table_size': 'skt', 'sk_tuple': 'skt',
    'sk_index_client': 'skt', 'sk_index_server': 'skt',
    'sk_cursor_rewind': 'cur', 'sk_cursor_dip': 'cur', 'sk_cursor_step': 'cur+skt',
    'sk_cursor_tuple': 'cur+skt',
}


def netw_functions():
    import glob
    names = set()
    for h in glob.glob('primary/*/*.h'):
        if not h.startswith(LOWER):
            continue
        with open(h) as f:
            src = f.read()
        names |= set(re.findall(r'^(?:[a-z][\w *]*[ *])?(\w+)\((?:const )?struct (?:netw|worker) \*', src, re.M))
    return names


def rewrite_calls(path, s, netw_fns):
    lower = path.startswith(LOWER)
    # the worker argument as written: w (a pointer) or &x.w / &x->w (a test's)
    arg = r'(?P<arg>&[\w\[\]\.>-]*?\bw0?|w)'

    def part_call(m):
        f, a, rest = m.group('f'), m.group('arg'), m.group('rest')
        p = PART_CALLS[f]
        if a == 'w':
            base = 'w->' if lower else 'w->net.'
        else:
            base = a[1:] + '.net.'
        parts = ', '.join('&' + base + x for x in p.split('+'))
        return f + '(' + parts + rest
    s = re.sub(r'\b(?P<f>' + '|'.join(PART_CALLS) + r')\(' + arg + r'(?P<rest>[,)])', part_call, s)
    if not lower:
        def netw_call(m):
            f, a, rest = m.group('f'), m.group('arg'), m.group('rest')
            return f + '(' + ('&w->net' if a == 'w' else a + '.net') + rest
        fns = sorted(netw_fns - set(PART_CALLS))
        s = re.sub(r'\b(?P<f>' + '|'.join(fns) + r')\(' + arg + r'(?P<rest>[,)])', netw_call, s)
    return s


if __name__ == '__main__':
    fns = netw_functions()
    for path in sys.argv[1:]:
        with open(path) as f:
            old = f.read()
        new = rewrite_calls(path, rewrite(path, old), fns)
        if new != old:
            with open(path, 'w') as f:
                f.write(new)
