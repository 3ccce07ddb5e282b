#!/usr/bin/env python3
"""Write the seed corpus of fuzz_rx (tests/fuzz/corpus/rx/).

Each seed is a list of records [flags][sel][len lo][len hi][frame], see
the header of fuzz_rx.c. Checksums are left zero and fixed by the harness
(flag 0x08); frames on live connections take their addresses, ports and
sequence numbers from a frame the target saw while connecting (0x04).
"""
import os
import struct
import sys

CLI_MAC = bytes(5) + b"\x02"
SRV_MAC = bytes(5) + b"\x01"
TO_CLIENT, GOOD, FIXUP, SUMS, TICK = 0x01, 0x02, 0x04, 0x08, 0x10
V6, UDP = 0x20, 0x40


def rec(flags, frame, sel=0):
    return struct.pack("<BBH", flags, sel, len(frame)) + frame


def eth(dst, src, etype, vlan=None):
    if vlan is not None:
        return dst + src + struct.pack("!HHH", 0x8100, vlan, etype)
    return dst + src + struct.pack("!H", etype)


def ip4(a):
    return bytes(int(x) for x in a.split("."))


def ipv4(src, dst, proto, payload, opts=b"", frag=0, tot=None):
    ihl = (20 + len(opts)) // 4
    tot = tot if tot is not None else 20 + len(opts) + len(payload)
    return struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, 0, tot, 1, frag, 64, proto, 0,
                       ip4(src), ip4(dst)) + opts + payload


def ipv6(src, dst, nh, payload):
    return struct.pack("!IHBB16s16s", 6 << 28, len(payload), nh, 64, src, dst) + payload


def tcp(sport, dport, seq, ack, flags, data=b"", opts=b""):
    off = (20 + len(opts)) // 4
    return struct.pack("!HHIIBBHHH", sport, dport, seq, ack, off << 4, flags, 65535, 0, 0) + opts + data


def udp(sport, dport, data):
    return struct.pack("!HHHH", sport, dport, 8 + len(data), 0) + data


def v6(last):
    return bytes.fromhex("20010db8" + "0" * 20) + last


FIN, SYN, RST, PSH, ACK = 0x01, 0x02, 0x04, 0x08, 0x10
GET = b"GET / HTTP/1.1\r\nHost: 198.18.2.1\r\nUser-Agent: dperf\r\n\r\n"
RSP = b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nConnection: keep-alive\r\n\r\na"
SRV4 = lambda p: eth(SRV_MAC, CLI_MAC, 0x0800) + p
CLI4 = lambda p: eth(CLI_MAC, SRV_MAC, 0x0800) + p
SRV6 = lambda p: eth(SRV_MAC, CLI_MAC, 0x86DD) + p
CLI6 = lambda p: eth(CLI_MAC, SRV_MAC, 0x86DD) + p


def arp(op, smac, sip, tmac, tip):
    return struct.pack("!HHBBH6s4s6s4s", 1, 0x0800, 6, 4, op, smac, ip4(sip), tmac, ip4(tip))


def seg4(flags, data=b"", sport=1000, seq=1, ack=1, **kw):
    return SRV4(ipv4("198.18.1.2", "198.18.2.1", 6, tcp(sport, 80, seq, ack, flags, data), **kw))


# TCP options (RFC 9293 3.1, RFC 7323), SACK aside (we neither offer nor
# read it): MSS, window scale, timestamps, NOP and end-of-list padding.
MSS = lambda v: struct.pack("!BBH", 2, 4, v)
WS = lambda v: struct.pack("!BBB", 3, 3, v)
TS = struct.pack("!BBII", 8, 10, 123456, 0)
NOP, EOL = b"\x01", b"\x00"
# The client's connection left in SYN_SENT (pair 0: its fourth socket,
# 198.18.1.3:1001) and the sequence number its SYN+ACK must acknowledge:
# the clock is fixed, so the ISN is too (a change to the ISN makes this a
# SYN+ACK with a wrong ACK, still a seed).
SYN_SENT_IP, SYN_SENT_PORT, SYN_SENT_ACK = "198.18.1.3", 1001, 3668339988


def opt_syn(sport, opts):
    return SRV4(ipv4("198.18.1.2", "198.18.2.1", 6, tcp(sport, 80, 100, 0, SYN, opts=opts)))


BIG = 0x80  # the pair whose messages span several segments (POST 4000, answers of 4000)
VX = 0x60  # the VXLAN pair (VNI 7; inner MACs 02:00:00:00:00:01 server, :02 client)


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def ipv4_summed(src, dst, proto, l4):
    """An IPv4 packet with its header and TCP/UDP/ICMP checksums right (inside
    VXLAN the harness only fixes the outer ones)."""
    ph = ip4(src) + ip4(dst) + struct.pack("!BBH", 0, proto, len(l4)) if proto != 1 else b""
    at = {6: 16, 17: 6, 1: 2}[proto]
    l4 = l4[:at] + struct.pack("!H", csum(ph + l4)) + l4[at + 2:]
    hdr = ipv4(src, dst, proto, l4)
    return hdr[:10] + struct.pack("!H", csum(hdr[:20])) + hdr[12:]


def vxlan_to_server(inner_ip, vni=7, inner_type=0x0800):
    """An inner frame to the server, in VXLAN from the client's VTEP."""
    inner = eth(bytes.fromhex("020000000001"), bytes.fromhex("020000000002"), inner_type) + inner_ip
    vx = struct.pack("!BBHI", 0x08, 0, 0, vni << 8)
    return SRV4(ipv4("198.18.0.2", "198.18.0.1", 17, udp(6666, 4789, vx + inner)))


SEEDS = {
    "empty": b"",
    "arp_request": rec(0, eth(b"\xff" * 6, CLI_MAC, 0x0806)
                       + arp(1, CLI_MAC, "198.18.0.2", bytes(6), "198.18.0.1")),
    "arp_reply_to_client": rec(TO_CLIENT, eth(CLI_MAC, SRV_MAC, 0x0806)
                               + arp(2, SRV_MAC, "198.18.0.1", CLI_MAC, "198.18.0.2")),
    "icmp_echo": rec(SUMS, SRV4(ipv4("198.18.0.2", "198.18.0.1", 1,
                                     struct.pack("!BBHHH", 8, 0, 0, 7, 1) + b"ping" * 8))),
    "syn_new": rec(SUMS, seg4(SYN, sport=2000, seq=100, ack=0,
                              ) ) + rec(SUMS, seg4(ACK, sport=2000, seq=101, ack=1)),
    "syn_mss": rec(SUMS, SRV4(ipv4("198.18.1.3", "198.18.2.1", 6,
                                   tcp(3000, 80, 5, 0, SYN, opts=b"\x02\x04\x05\xb4")))),
    "syn_options": rec(SUMS, opt_syn(2010, MSS(1460) + NOP + WS(7) + NOP + NOP + TS + EOL + EOL)),
    # a shift above 14 (taken as 14), MSS 0 and 1, a zero-length option,
    # an option longer than the header, options after the end of the list
    "syn_options_odd": rec(SUMS, opt_syn(2011, WS(15) + EOL))
    + rec(SUMS, opt_syn(2012, MSS(0) + MSS(1)))
    + rec(SUMS, opt_syn(2013, b"\x02\x00" + NOP + NOP))
    + rec(SUMS, opt_syn(2014, NOP + b"\x03\x09\x07" + EOL + EOL + EOL + EOL))
    + rec(SUMS, opt_syn(2015, EOL + WS(9) + EOL + EOL + EOL + EOL + EOL + EOL + EOL + EOL)),
    "synack_options": rec(TO_CLIENT | SUMS, CLI4(ipv4(
        "198.18.2.1", SYN_SENT_IP, 6, tcp(80, SYN_SENT_PORT, 777, SYN_SENT_ACK, SYN | ACK,
                                          opts=MSS(536) + NOP + WS(14) + TS + NOP + NOP)))),
    "get_live_ts": b"".join(rec(FIXUP | SUMS, SRV4(ipv4("198.18.1.2", "198.18.2.1", 6,
                                                        tcp(1000, 80, 1, 1, PSH | ACK, GET, opts=NOP + NOP + TS))),
                                sel=k) for k in range(6)),
    "get_live": b"".join(rec(FIXUP | SUMS, seg4(PSH | ACK, GET), sel=k) for k in range(6)),
    "get_pipelined": rec(FIXUP | SUMS, seg4(PSH | ACK, GET * 3), sel=3),
    "get_garbage": rec(FIXUP | SUMS, seg4(PSH | ACK, b"GTE /\r\n\r\n\x00\xff"), sel=3),
    "rst_live": rec(FIXUP | SUMS, seg4(RST | ACK), sel=2) + rec(FIXUP | SUMS, seg4(RST), sel=4),
    "fin_live": rec(FIXUP | SUMS, seg4(FIN | ACK), sel=3) + rec(TICK, b"", sel=200),
    "stray_ack": rec(SUMS, seg4(ACK, sport=4000, seq=9, ack=9)),
    "rsp_to_client": b"".join(rec(TO_CLIENT | FIXUP | SUMS,
                                  CLI4(ipv4("198.18.2.1", "198.18.1.2", 6,
                                            tcp(80, 1000, 1, 1, PSH | ACK, RSP))), sel=k)
                              for k in range(6)),
    "rsp_garbage_to_client": rec(TO_CLIENT | FIXUP | SUMS | GOOD,
                                 CLI4(ipv4("198.18.2.1", "198.18.1.2", 6,
                                           tcp(80, 1000, 1, 1, PSH | ACK,
                                               b"HTTP/1.1 999 \r\nContent-Length: -1\r\n\r\n"))), sel=4),
    # in order on a live client connection (sel & 0x80): a chunked
    # response with its head split inside a header name, then a
    # Content-Length one split inside the blank line
    "rsp_chunked_in_order": b"".join(
        rec(TO_CLIENT | FIXUP | SUMS, CLI4(ipv4("198.18.2.1", "198.18.1.2", 6,
                                                tcp(80, 1000, 1, 1, PSH | ACK, part))), sel=0x81)
        for part in (b"HTTP/1.1 200 OK\r\nTransfer-Enc", b"oding: chunked\r\n\r\n3;x=y\r\nab",
                     b"c\r\n0\r\nT: 1\r\n\r\n")),
    "rsp_split_in_order": b"".join(
        rec(TO_CLIENT | FIXUP | SUMS, CLI4(ipv4("198.18.2.1", "198.18.1.2", 6,
                                                tcp(80, 1000, 1, 1, PSH | ACK, part))), sel=0x83)
        for part in (RSP[:-3], RSP[-3:])),
    # out of order on a live client connection (sel & 0xc0: ahead of
    # rcv_nxt by 62), then the bytes before it in order: held, then
    # delivered when the gap fills
    "rsp_ooo_then_fill": rec(TO_CLIENT | FIXUP | SUMS, CLI4(ipv4("198.18.2.1", "198.18.1.2", 6,
                                                               tcp(80, 1000, 1, 1, PSH | ACK, RSP[62:]))), sel=0xc1)
    + rec(TO_CLIENT | FIXUP | SUMS, CLI4(ipv4("198.18.2.1", "198.18.1.2", 6,
                                              tcp(80, 1000, 1, 1, PSH | ACK, RSP[:62]))), sel=0x81),
    # held out of order, then the connection ends (an RST at rcv_nxt): the
    # held segments go back with it (the harness checks the queue holds
    # only what open sockets hold)
    "rsp_ooo_then_rst": rec(TO_CLIENT | FIXUP | SUMS, CLI4(ipv4("198.18.2.1", "198.18.1.2", 6,
                                                              tcp(80, 1000, 1, 1, PSH | ACK, RSP[62:]))), sel=0xc1)
    + rec(TO_CLIENT | FIXUP | SUMS, CLI4(ipv4("198.18.2.1", "198.18.1.2", 6,
                                              tcp(80, 1000, 1, 1, RST | ACK))), sel=0x81),
    # pair 4 (POST bodies over segments): the next POST goes, then three
    # duplicate ACKs carrying SACK blocks (and a D-SACK below the ACK)
    "post_sack_dupacks": b"".join(
        rec(0x80 | TO_CLIENT | FIXUP | SUMS, CLI4(ipv4("198.18.2.1", "198.18.1.2", 6,
            tcp(80, 1000, 1, 1, ACK, opts=b"\x01\x01\x05\x12" + struct.pack("!IIII", a, a + 1460, 5, 9)))),
            sel=0xc1) for a in (1461, 2921, 4381)),
    "fin_to_client": rec(TO_CLIENT | FIXUP | SUMS, CLI4(ipv4("198.18.2.1", "198.18.1.2", 6,
                                                             tcp(80, 1000, 1, 1, FIN | ACK))), sel=5),
    "timers": rec(TICK, b"", sel=255) + rec(TICK, b"", sel=255) + rec(TICK, b"", sel=255),
    # the pair of long messages (tcp_send.c): keepalive POSTs of 4000
    # bytes and their answers, over several segments each way; then a
    # duplicate ACK and a stray data segment on a live connection
    "big_timers": rec(BIG | TICK, b"", sel=64) + rec(BIG | TICK, b"", sel=255),
    "big_live": rec(BIG | TICK, b"", sel=64)
    + rec(BIG | FIXUP | SUMS, seg4(ACK), sel=2) + rec(BIG | FIXUP | SUMS, seg4(ACK), sel=2)
    + rec(BIG | FIXUP | SUMS, seg4(PSH | ACK, b"POST / HTTP/1.1\r\nContent-Length: 4\r\n\r\nab"), sel=3)
    + rec(BIG | TICK, b"", sel=255),
    # a TICK with sel 0 launches a connection first (the launch path):
    # on the IPv4 pair (a free tuple: the handshake and a request), on the
    # UDP pair (a request answered), on the VXLAN pair
    "launch": rec(TICK, b"") + rec(TICK, b"", sel=1),
    "launch_udp": rec(UDP | TICK, b""),
    "launch_vx": rec(VX | TICK, b"") + rec(VX | TICK, b"", sel=2),
    "fragment": rec(SUMS, seg4(SYN, sport=2001, frag=0x2000)),
    "ip_options": rec(SUMS, seg4(SYN, sport=2002, opts=b"\x01\x01\x01\x00")),
    "bad_lengths": rec(SUMS, seg4(SYN, sport=2003, tot=2000)) + rec(0, SRV4(b"\x45\x00")),
    "vlan_tagged": rec(SUMS, eth(SRV_MAC, CLI_MAC, 0x0800, vlan=100)
                       + ipv4("198.18.1.2", "198.18.2.1", 6, tcp(2004, 80, 1, 0, SYN))),
    "v6_ndp": rec(V6 | SUMS, eth(b"\x33\x33\xff\x00\x00\x01", CLI_MAC, 0x86DD)
                  + ipv6(v6(b"\x00\x00\x00\x02"), bytes.fromhex("ff0200000000000000000001ff000001"), 58,
                         struct.pack("!BBHI", 135, 0, 0, 0) + v6(b"\x00\x00\x00\x01")
                         + b"\x01\x01" + CLI_MAC)),
    "v6_echo": rec(V6 | SUMS, SRV6(ipv6(v6(b"\x00\x00\x00\x02"), v6(b"\x00\x00\x00\x01"), 58,
                                        struct.pack("!BBHHH", 128, 0, 0, 1, 1) + b"x" * 16))),
    "v6_get_live": b"".join(rec(V6 | FIXUP | SUMS,
                                SRV6(ipv6(bytes(16), bytes(16), 6, tcp(1000, 80, 1, 1, PSH | ACK, GET))),
                                sel=k) for k in range(4)),
    "v6_rsp_to_client": rec(V6 | TO_CLIENT | FIXUP | SUMS,
                            CLI6(ipv6(bytes(16), bytes(16), 6, tcp(80, 1000, 1, 1, PSH | ACK, RSP))), sel=3),
    "udp_request": rec(UDP | SUMS, SRV4(ipv4("198.18.1.2", "198.18.2.1", 17, udp(1000, 53, b"q" * 64)))),
    "udp_to_client": rec(UDP | TO_CLIENT | FIXUP | SUMS,
                         CLI4(ipv4("198.18.2.1", "198.18.1.2", 17, udp(53, 1000, b"r" * 64))), sel=1),
    "udp_bad_len": rec(UDP | GOOD, SRV4(ipv4("198.18.1.2", "198.18.2.1", 17,
                                             struct.pack("!HHHH", 1000, 53, 999, 0) + b"q"))),
    "tcp_to_udp_worker": rec(UDP | SUMS, seg4(SYN, sport=2005)),
    "vx_syn_new": rec(VX | SUMS, vxlan_to_server(
        ipv4_summed("198.18.1.2", "198.18.2.1", 6, tcp(2000, 80, 100, 0, SYN)))),
    "vx_get_live": b"".join(rec(VX | FIXUP | SUMS, vxlan_to_server(
        ipv4_summed("198.18.1.2", "198.18.2.1", 6, tcp(1000, 80, 1, 1, PSH | ACK, GET))), sel=k)
        for k in range(4)),
    "vx_other_vni": rec(VX | SUMS, vxlan_to_server(
        ipv4_summed("198.18.1.2", "198.18.2.1", 6, tcp(2000, 80, 100, 0, SYN)), vni=8)),
    "vx_inner_echo": rec(VX | SUMS, vxlan_to_server(
        ipv4_summed("198.18.1.2", "198.18.2.1", 1, struct.pack("!BBHHH", 8, 0, 0, 7, 1) + b"ping"))),
    "vx_outer_arp": rec(VX, eth(b"\xff" * 6, CLI_MAC, 0x0806)
                        + arp(1, CLI_MAC, "198.18.0.2", bytes(6), "198.18.0.1")),
}


# The HTTPS pair (protocol https on port 443), whose snapshot has no
# connection: an input opens one from 198.18.1.3 (an address the pair's
# client does not own, so our answers reach nobody), then its payloads go
# in order (FIXUP with sel 0x80: seq and ack from the server's socket) and
# OpenSSL reads them as TLS records: fuzz_tls's ClientHellos (after their
# first byte, that harness's own).
TLS = 0xA0
TLS_CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "tls")


def tls_seg(flags, data=b"", sport=2000, seq=100):
    return SRV4(ipv4("198.18.1.3", "198.18.2.1", 6, tcp(sport, 443, seq, 0, flags, data)))


def tls_stream(*payloads, sport=2000):
    """A SYN, then each payload in order (the first one's ACK completes the
    three-way handshake)."""
    out = rec(TLS | SUMS, tls_seg(SYN, sport=sport))
    for p in payloads:
        out += rec(TLS | FIXUP | SUMS, tls_seg(ACK | PSH, p, sport=sport), sel=0x80)
    return out


def client_hello(name):
    with open(os.path.join(TLS_CORPUS, name), "rb") as f:
        return f.read()[1:]


CH12, CH13 = client_hello("client_hello_12"), client_hello("client_hello_13")
SEEDS.update({
    "tls_hello_13": tls_stream(CH13),
    "tls_hello_12": tls_stream(CH12),
    # a record cut across segments, and a second connection beside it
    "tls_hello_split": tls_stream(CH13[:5], CH13[5:60], CH13[60:])
    + tls_stream(CH12, sport=2001),
    # a malformed record: OpenSSL's alert, the connection closed
    "tls_bad_record": tls_stream(b"\x16\x03\x01\x00\x05garbage"),
    # the peer closes mid-handshake (FIN after the ClientHello)
    "tls_fin_mid": tls_stream(CH13) + rec(TLS | FIXUP | SUMS, tls_seg(ACK | FIN), sel=0x80),
    # the handshake stalls: 30 s of timers
    "tls_stall": tls_stream(CH13) + rec(TLS | TICK, b"", sel=0xFF) * 8,
    # our client's connection launched: a whole handshake and request
    # between the pair, left open (keepalive) when the input ends
    "tls_launch": rec(TLS | TICK, b"", sel=0) + rec(TLS | TICK, b"", sel=1),
})


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus", "rx")
    os.makedirs(out, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    print(f"{len(SEEDS)} seeds in {out}")


if __name__ == "__main__":
    main()
