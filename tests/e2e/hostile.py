#!/usr/bin/python3
"""Hostile and malformed packets (source ports below the kernel's ephemeral
range, so none collides with wrk's connections) for test_hostile.sh, sent from inside the
namespace onto the tap link towards our server (198.18.0.1, port 80).
Prints how many of each kind it sent, as JSON."""
import json
import random
import sys

from scapy.all import IP, TCP, UDP, ICMP, Ether, Raw, IPv6, GRE, sendp, conf

conf.verb = 0
iface, dmac = sys.argv[1], sys.argv[2]
src, dst = "198.18.0.2", "198.18.0.1"
eth = Ether(dst=dmac)
eth4 = Ether(dst=dmac, type=0x0800)  # for raw bytes: scapy cannot guess the type
sent = {}
only = sys.argv[3] if len(sys.argv) > 3 else None


def send(kind, pkts):
    if only and kind != only:
        return
    pkts = pkts if isinstance(pkts, list) else [pkts]
    sendp(pkts, iface=iface)
    sent[kind] = sent.get(kind, 0) + len(pkts)


def raw(b):
    return Raw(load=b)


good_syn = IP(src=src, dst=dst) / TCP(sport=20000, dport=80, flags="S", seq=1)
ipb = bytes(good_syn)

# Malformed at the IP layer: each must end in badRx.
send("bad_ihl", [eth4 / raw(bytes([0x42]) + ipb[1:])] * 20)                    # ihl 2
send("bad_version", [eth4 / raw(bytes([0x65]) + ipb[1:])] * 20)                # version 6 in an IPv4 frame
send("tot_len_too_big", [eth / IP(src=src, dst=dst, len=9000) / TCP(dport=80)] * 20)
send("tot_len_below_ihl", [eth / IP(src=src, dst=dst, len=10) / TCP(dport=80)] * 20)
send("bad_ip_csum", [eth / IP(src=src, dst=dst, chksum=0x1234) / TCP(dport=80, flags="S")] * 20)
send("bad_tcp_csum", [eth / IP(src=src, dst=dst) / TCP(sport=20001, dport=80, flags="S", chksum=0x1234)] * 20)
send("fragment", [eth / IP(src=src, dst=dst, flags="MF", frag=0) / TCP(dport=80) / raw(b"x" * 64)] * 20)
send("fragment_tail", [eth / IP(src=src, dst=dst, frag=100) / raw(b"x" * 64)] * 20)
send("tcp_doff_small", [eth / IP(src=src, dst=dst) / TCP(sport=20002, dport=80, dataofs=2)] * 20)
send("tcp_doff_big", [eth / IP(src=src, dst=dst) / TCP(sport=20003, dport=80, dataofs=15)] * 20)
send("truncated_tcp", [eth / IP(src=src, dst=dst, proto=6) / raw(b"\x00" * 8)] * 20)
send("bad_udp_len", [eth / IP(src=src, dst=dst) / UDP(sport=1, dport=80, len=200) / raw(b"x")] * 20)

# Well-formed but unexpected: counted (otherRx, tcpDrop), answered where TCP says so.
send("ip_options_syn", [eth / IP(src=src, dst=dst, options=[b"\x01\x01\x01\x00"]) /
                        TCP(sport=21000 + i, dport=80, flags="S", seq=i) for i in range(20)])
send("not_for_us", [eth / IP(src=src, dst="198.18.99.99") / TCP(dport=80)] * 20)
send("other_proto", [eth / IP(src=src, dst=dst) / GRE()] * 20)
send("ipv6", [Ether(dst=dmac) / IPv6(dst="2001:db8::1") / UDP()] * 20)
send("closed_port_syn", [eth / IP(src=src, dst=dst) / TCP(sport=22000 + i, dport=81, flags="S") for i in range(20)])
send("stray_ack", [eth / IP(src=src, dst=dst) / TCP(sport=23000 + i, dport=80, flags="A", seq=5, ack=7) for i in range(20)])
send("stray_fin", [eth / IP(src=src, dst=dst) / TCP(sport=24000 + i, dport=80, flags="FA") for i in range(20)])
send("stray_rst", [eth / IP(src=src, dst=dst) / TCP(sport=25000 + i, dport=80, flags="R") for i in range(20)])
send("out_of_window_data", [eth / IP(src=src, dst=dst) / TCP(sport=26000 + i, dport=80, flags="PA", seq=123456, ack=1) /
                            raw(b"GET / HTTP/1.1\r\n\r\n") for i in range(20)])
send("garbage_ether", [Ether(dst=dmac, type=0x88b5) / raw(b"\xff" * 50)] * 20)
send("runt_frame", [Ether(dst=dmac, type=0x0800)] * 20)
send("icmp_not_echo", [eth / IP(src=src, dst=dst) / ICMP(type=13)] * 20)
# A SYN flood at the listen port (the kernel side resets each SYN+ACK).
send("syn_flood", [eth / IP(src=src, dst=dst) / TCP(sport=random.randint(1024, 19999), dport=80, flags="S",
                                                     seq=random.randint(0, 2**32 - 1)) for _ in range(3000)])
print(json.dumps(sent))
