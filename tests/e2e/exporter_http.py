#!/usr/bin/python3
"""What test_exporter checks of dperf-ctl's /metrics server, over raw
sockets (curl would hide what a scraper's connection does): each check
prints one line and the script exits 1 at the first that fails.

usage: exporter_http.py PORT DEADLINE_S [STEP,...]
(DEADLINE_S: a request not answered that long after its connection's
start is closed)
(STEP: idle concurrent split head other timeout slowloris; default all, in order:
one step alone shows which an older exporter fails)
"""
import socket
import sys
import threading
import time

PORT = int(sys.argv[1])
IDLE_S = float(sys.argv[2])
ADDR = ("127.0.0.1", PORT)
REQ = b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def conn(timeout=3.0):
    try:
        s = socket.create_connection(ADDR, timeout=timeout)
    except OSError as e:
        fail("connect to %s:%d: %s" % (ADDR[0], ADDR[1], e))
    s.settimeout(timeout)
    return s


def read_all(s):
    out = b""
    while True:
        try:
            b = s.recv(65536)
        except socket.timeout:
            fail("no end of response within %.1f s (got %d bytes)" % (s.gettimeout(), len(out)))
        if not b:
            return out
        out += b


def head_body(raw):
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    hdr = {}
    for l in lines[1:]:
        k, _, v = l.partition(":")
        hdr[k.strip().lower()] = v.strip()
    return lines[0], hdr, body


def scrape(parts=(REQ,), gap=0.0, timeout=3.0):
    s = conn(timeout)
    for i, p in enumerate(parts):
        if i:
            time.sleep(gap)
        try:
            s.sendall(p)
        except OSError as e:
            fail("the server closed the connection after %d of %d parts of the request (%s): %r"
                 % (i, len(parts), e, read_all(s)[:60]))
    raw = read_all(s)
    s.close()
    return head_body(raw)


def check_metrics(status, hdr, body, what):
    if " 200 " not in status + " ":
        fail("%s: status %r" % (what, status))
    if b"dperf_sk_open_total" not in body:
        fail("%s: no dperf_sk_open_total in %d bytes" % (what, len(body)))
    if int(hdr.get("content-length", -1)) != len(body):
        fail("%s: Content-Length %s, body %d bytes" % (what, hdr.get("content-length"), len(body)))


idle = []
idle_at = []      # when each idle connection was opened
idle_closed = {}  # index -> (when the server closed it, what it sent first)


def watch_idle():
    """Notes when the server closes each idle connection (the steps
    between idle and timeout run meanwhile)."""
    import select
    live = list(range(len(idle)))
    while live:
        r, _, _ = select.select([idle[i] for i in live], [], [], 0.5)
        for s in r:
            i = idle.index(s)
            try:
                b = s.recv(1)
            except ConnectionResetError:
                b = b""
            idle_closed[i] = (time.time(), b)
            live.remove(i)


def step_idle():
    """A scrape while connections sit idle (more than the old backlog of
    16): an idle one must not hold the others up."""
    global watcher
    for i in range(20):
        idle.append(conn())
        idle_at.append(time.time())
    watcher = threading.Thread(target=watch_idle, daemon=True)
    watcher.start()
    t0 = time.time()
    st, hdr, body = scrape()
    check_metrics(st, hdr, body, "a scrape beside 20 idle connections")
    print("scrape beside 20 idle connections: %d bytes in %.3f s" % (len(body), time.time() - t0))

def step_concurrent():
    """16 scrapes at once, each answered in full."""
    results = [None] * 16

    def one(i):
        try:
            results[i] = scrape()
        except BaseException as e:  # noqa: BLE001 - reported below
            results[i] = e

    t0 = time.time()
    th = [threading.Thread(target=one, args=(i,)) for i in range(len(results))]
    for t in th:
        t.start()
    for t in th:
        t.join(10)
    for i, r in enumerate(results):
        if not isinstance(r, tuple):
            fail("concurrent scrape %d: %r" % (i, r))
        check_metrics(*r, what="concurrent scrape %d" % i)
    print("16 concurrent scrapes answered in %.3f s" % (time.time() - t0))


def step_split():
    """A request split across three segments, 0.3 s apart."""
    st, hdr, body = scrape(parts=(b"GET /met", b"rics HTTP/1.1\r\nHo",
                                  b"st: x\r\nConnection: close\r\n\r\n"), gap=0.3)
    check_metrics(st, hdr, body, "a request in three segments 0.3 s apart")
    print("a request in three segments: %s" % st)


def step_head():
    """HEAD: the headers of a GET, no body."""
    st, hdr, body = scrape(parts=(b"HEAD /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",))
    if " 200 " not in st + " ":
        fail("HEAD /metrics: status %r" % st)
    if body:
        fail("HEAD /metrics: %d bytes of body (a response to HEAD has none)" % len(body))
    if int(hdr.get("content-length", 0)) <= 0:
        fail("HEAD /metrics: Content-Length %r (that of the GET expected)" % hdr.get("content-length"))
    print("HEAD /metrics: %s, Content-Length %s, no body" % (st, hdr["content-length"]))


def step_other():
    """Another path is 404, another method 405."""
    st, _, _ = scrape(parts=(b"GET /other HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",))
    if " 404 " not in st + " ":
        fail("GET /other: %r (404 expected)" % st)
    st, _, _ = scrape(parts=(b"DELETE /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",))
    if " 405 " not in st + " ":
        fail("DELETE /metrics: %r (405 expected)" % st)
    print("GET /other: 404, DELETE /metrics: 405")


def step_timeout():
    """Idle connections are closed by the server at the request deadline
    (IDLE_S), not before, and get nothing: those of step idle, each timed
    from its opening by watch_idle; a fresh one when step idle did not
    run."""
    if idle:
        watcher.join(max(0.1, idle_at[-1] + IDLE_S + 3 - time.time()))
        took = []
        for i in range(len(idle)):
            if i not in idle_closed:
                fail("idle connection %d still open %.1f s after it was opened (idle timeout %.0f s)"
                     % (i, IDLE_S + 3, IDLE_S))
            t, b = idle_closed[i]
            if b:
                fail("idle connection %d got data without asking" % i)
            took.append(t - idle_at[i])
            if took[-1] < IDLE_S - 1:
                fail("idle connection %d was closed after %.2f s, before the %.0f s timeout" % (i, took[-1], IDLE_S))
            idle[i].close()
        print("%d idle connections closed by the server after %.2f to %.2f s (idle timeout %.0f s)"
              % (len(idle), min(took), max(took), IDLE_S))
        return
    s = conn()
    t0 = time.time()
    s.settimeout(IDLE_S + 3)
    try:
        b = s.recv(1)
    except socket.timeout:
        fail("a fresh idle connection still open after %.1f s" % (IDLE_S + 3))
    except ConnectionResetError:
        b = b""
    took = time.time() - t0
    if b:
        fail("a fresh idle connection got data without asking")
    if took < IDLE_S - 1:
        fail("an idle connection was closed after %.2f s, before the %.0f s timeout" % (took, IDLE_S))
    print("a fresh idle connection closed after %.2f s" % took)


def step_slowloris():
    """Slowloris: 100 connections each send a partial head, then one byte
    every 3.5 s (never idle for the idle timeout), and reconnect when the
    server closes them. Six scrapes over 12 s (more than three of the
    server's request deadlines and of the attack's 3.5 s trickles) must
    each be answered within 5 s (a Prometheus scrape times out after 10 s
    by default)."""
    import select
    stop = threading.Event()
    opened = [0]

    def attacker():
        socks = []
        last = 0.0
        while not stop.is_set():
            while len(socks) < 100 and not stop.is_set():
                try:
                    s = socket.create_connection(ADDR, timeout=0.5)
                    s.setblocking(False)
                    s.send(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-a: ")
                    socks.append(s)
                    opened[0] += 1
                except OSError:
                    break  # the backlog is full: try again below
            if time.time() - last >= 3.5:
                last = time.time()
                for s in list(socks):
                    try:
                        s.send(b"a")
                    except OSError:
                        socks.remove(s)
                        s.close()
            # the server closing one: drop it, a fresh one replaces it
            r, _, _ = select.select(socks, [], [], 0.1) if socks else ([], [], [])
            for s in r:
                try:
                    if s.recv(4096):
                        continue
                except OSError:
                    pass
                socks.remove(s)
                s.close()
        for s in socks:
            s.close()

    th = threading.Thread(target=attacker, daemon=True)
    th.start()
    t_fill = time.time() + 2  # let the attack fill the slots
    while opened[0] < 100 and time.time() < t_fill:
        time.sleep(0.05)
    took = []
    t_end = time.time() + 12
    try:
        while time.time() < t_end:
            t0 = time.time()
            st, hdr, body = scrape(timeout=5.0)
            check_metrics(st, hdr, body, "a scrape under slowloris")
            took.append(time.time() - t0)
            time.sleep(max(0.0, 12 / 6 - (time.time() - t0)))
    finally:
        stop.set()
        th.join(5)
    print("slowloris (100 slow heads, %d connections opened): %d scrapes answered, slowest %.2f s"
          % (opened[0], len(took), max(took)))


STEPS = {"idle": step_idle, "concurrent": step_concurrent, "split": step_split,
         "head": step_head, "other": step_other, "timeout": step_timeout,
         "slowloris": step_slowloris}
for name in (sys.argv[3].split(",") if len(sys.argv) > 3 else list(STEPS)):
    STEPS[name]()
