/* SPDX-License-Identifier: BSD-3-Clause
 * The engine's counters, declared once. Names are the ones dperf prints,
 * so its users read our output (and our JSON keys) without a dictionary.
 *
 * X(ident, "printed name", kind)
 *   kind CK_EVENT: a cumulative event count; readers derive a rate per second.
 *   kind CK_BITS:  cumulative bits; readers derive bits per second.
 * Every packet the engine drops increments exactly one of: dropTx, badRx,
 * otherRx, tcpDrop, oooDrop, testDrop, udpDrop, arpDrop.
 */
#ifndef DPERF_COUNTERS_H
#define DPERF_COUNTERS_H

#define DP_COUNTER_LIST(X)                 \
	X(PKT_RX, "pktRx", CK_EVENT)       \
	X(PKT_TX, "pktTx", CK_EVENT)       \
	X(BITS_RX, "bitsRx", CK_BITS)      \
	X(BITS_TX, "bitsTx", CK_BITS)      \
	X(DROP_TX, "dropTx", CK_EVENT)     \
	X(ARP_RX, "arpRx", CK_EVENT)       \
	X(ARP_TX, "arpTx", CK_EVENT)       \
	X(ICMP_RX, "icmpRx", CK_EVENT)     \
	X(ICMP_TX, "icmpTx", CK_EVENT)     \
	X(OTHER_RX, "otherRx", CK_EVENT)   \
	X(BAD_RX, "badRx", CK_EVENT)       \
	X(ARP_DROP, "arpDrop", CK_EVENT)   \
	X(SYN_RX, "synRx", CK_EVENT)       \
	X(SYN_TX, "synTx", CK_EVENT)       \
	X(FIN_RX, "finRx", CK_EVENT)       \
	X(FIN_TX, "finTx", CK_EVENT)       \
	X(RST_RX, "rstRx", CK_EVENT)       \
	X(RST_TX, "rstTx", CK_EVENT)       \
	X(SYN_RT, "synRt", CK_EVENT)       \
	X(FIN_RT, "finRt", CK_EVENT)       \
	X(ACK_RT, "ackRt", CK_EVENT)       \
	X(PUSH_RT, "pushRt", CK_EVENT)     \
	X(TCP_DROP, "tcpDrop", CK_EVENT)   \
	X(TCP_OOO, "tcpOoo", CK_EVENT)     /* data ahead of rcv_nxt, held (tcp/tcp_ooo.h) */ \
	X(OOO_DROP, "oooDrop", CK_EVENT)   /* data ahead of rcv_nxt, not held: no room, or a FIN */ \
	X(OOO_REL, "oooRel", CK_EVENT)     /* held segments given back undelivered: their connection ended */ \
	X(SACK_RX, "sackRx", CK_EVENT)     /* SACK blocks received (tcp/tcp_sack.h) */ \
	X(SPUR_RT, "spurRt", CK_EVENT)     /* retransmissions the peer had already (D-SACK, RFC 2883) */ \
	X(RTO, "rto", CK_EVENT)            /* retransmission timeouts that fired and resent (tcp/tcp_input.h) */ \
	X(PIPE_FULL, "pipeFull", CK_EVENT) /* server: requests beyond the 16 (with objects 2) waiting behind a long answer */ \
	X(TEST_DROP, "testDrop", CK_EVENT) /* segments test_rx_drop and test_tx_drop dropped */ \
	X(SK_OPEN, "skOpen", CK_EVENT)     \
	X(SK_CLOSE, "skClose", CK_EVENT)   \
	X(SK_ERR, "skErr", CK_EVENT)       \
	X(HTTP_GET, "httpGet", CK_EVENT)   \
	X(HTTP_POST, "httpPost", CK_EVENT) \
	X(HTTP_2XX, "http2XX", CK_EVENT)   \
	X(HTTP_ERR, "httpErr", CK_EVENT)   \
	X(HTTP_404, "http404", CK_EVENT)   /* server with object lines: requests for a path no object has */ \
	X(TCP_REQ, "tcpReq", CK_EVENT)     \
	X(TCP_RSP, "tcpRsp", CK_EVENT)     \
	X(UDP_RX, "udpRx", CK_EVENT)       \
	X(UDP_TX, "udpTx", CK_EVENT)       \
	X(UDP_DROP, "udpDrop", CK_EVENT)   \
	X(STALL, "stall", CK_EVENT)        \
	X(STALL_US, "stallUs", CK_EVENT)   \
	X(LAUNCH_SKIP, "launchSkip", CK_EVENT) \
	X(LAUNCH_FULL, "launchFull", CK_EVENT) /* no free tuple in the socket table (tcp_client_launch) */ \
	X(DEV_FAULT, "devFault", CK_EVENT) \
	X(IDLE_CLOSE, "idleClose", CK_EVENT) \
	X(GOOD_RX, "goodRx", CK_BITS) /* payload delivered: in order, once (goodput) */ \
	X(GOOD_TX, "goodTx", CK_BITS) /* payload sent for the first time (not retransmissions) */ \
	X(TLS_HS, "tlsHs", CK_EVENT)         /* TLS handshakes started (primary/tls/tls_tcp.h) */ \
	X(TLS_HS_DONE, "tlsHsDone", CK_EVENT) /* ...completed (Finished both ways) */ \
	X(TLS_RESUMED, "tlsResumed", CK_EVENT) /* ...of which resumed a session */ \
	X(TLS_US, "tlsUs", CK_EVENT) /* the worker's time inside OpenSSL's calls, microseconds (tls/tls_conn.h) */ \
	X(TLS_F_ALERT, "tlsFailAlert", CK_EVENT) /* handshakes failed: the peer's fatal alert */ \
	X(TLS_F_PROTO, "tlsFailProto", CK_EVENT) /* ...what the peer sent is malformed or unexpected */ \
	X(TLS_F_VERIFY, "tlsFailVerify", CK_EVENT) /* ...the server's certificate did not verify */ \
	X(TLS_F_EOF, "tlsFailEof", CK_EVENT) /* ...the peer closed (FIN or RST) mid-handshake */ \
	X(TLS_F_TIMEOUT, "tlsFailTimeout", CK_EVENT) /* ...the handshake stalled */ \
	X(TLS_F_INTERNAL, "tlsFailInternal", CK_EVENT) /* ...out of memory, or OpenSSL could not start it */ \
	X(TLS_ERR, "tlsErr", CK_EVENT) /* a TLS connection failed after its handshake (a bad record, an alert) */
/* The TLS counters, a run of the list (DP_FEAT_TLS in common/shm.h): keep them last but together. */
#define DP_C_IS_TLS(c) ((c) >= DP_C_TLS_HS && (c) <= DP_C_TLS_ERR)

enum dp_counter {
#define DP_X_ENUM(id, name, kind) DP_C_##id,
	DP_COUNTER_LIST(DP_X_ENUM)
#undef DP_X_ENUM
	DP_C__COUNT
};

enum dp_counter_kind { CK_EVENT, CK_BITS };

/* Port counters read from rte_eth_stats by the main lcore. */
#define DP_PORT_COUNTER_LIST(X)            \
	X(IPACKETS, "ipackets")            \
	X(OPACKETS, "opackets")            \
	X(IBYTES, "ibytes")                \
	X(OBYTES, "obytes")                \
	X(IERRORS, "ierrors")              \
	X(OERRORS, "oerrors")              \
	X(IMISSED, "imissed")              \
	X(RX_NOMBUF, "rxNombuf")            \
	X(LINK_DOWN, "linkDown") /* the link went down (ours, counted by the main lcore) */ \
	X(LINK_UP, "linkUp")     /* ...and came back */

enum dp_port_counter {
#define DP_X_ENUM(id, name) DP_PC_##id,
	DP_PORT_COUNTER_LIST(DP_X_ENUM)
#undef DP_X_ENUM
	DP_PC__COUNT
};

extern const char *const dp_counter_names[DP_C__COUNT];
extern const char *const dp_port_counter_names[DP_PC__COUNT];

/* A client's counters per traffic kind (issue 37: config.h's kind lines,
 * two kinds or more), beside the totals above: requests sent, answers
 * 2xx and not (non-2xx, malformed, unfinished), the answers' bytes read
 * in order (bits, as goodRx; under TLS the plaintext). */
#define DP_KIND_COUNTER_LIST(X)    \
	X(REQ, "requests")         \
	X(HTTP_2XX, "http2XX")     \
	X(HTTP_ERR, "httpErr")     \
	X(GOOD_RX, "goodRx")

enum dp_kind_counter {
#define DP_X_KENUM(id, name) DP_KC_##id,
	DP_KIND_COUNTER_LIST(DP_X_KENUM)
#undef DP_X_KENUM
	DP_KC__COUNT
};

extern const char *const dp_kind_counter_names[DP_KC__COUNT];

/* A server's counters per object (issue 37: config.h's object lines, one
 * or more), beside the totals: the requests for its path (httpGet or
 * httpPost), its answers (http2XX) and their bytes, head and body, once
 * per answer begun (bits, as goodTx; under TLS the plaintext: what the
 * client's goodRx of the kind asking for it counts). */
#define DP_OBJECT_COUNTER_LIST(X)  \
	X(REQ, "requests")         \
	X(HTTP_2XX, "http2XX")     \
	X(GOOD_TX, "goodTx")

enum dp_object_counter {
#define DP_X_OENUM(id, name) DP_OC_##id,
	DP_OBJECT_COUNTER_LIST(DP_X_OENUM)
#undef DP_X_OENUM
	DP_OC__COUNT
};

extern const char *const dp_object_counter_names[DP_OC__COUNT];

#endif
