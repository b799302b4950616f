/*
 * loadclient: a WebSocket load generator for the storybook benchmarks.
 *
 * One thread, epoll, many connections; a hand-written minimal RFC 6455 client
 * (handshake, masked client frames, unmasked server frames, ping -> pong).
 * Only ever connects to 127.0.0.1. Every loop is bounded in count and time.
 *
 *   loadclient fanout --port P --story ID [--path /name] [--subs 100] [--rate 200 | --rate 0 (flood)]
 *                     [--window 8] [--duration 10] [--warmup 1] [--drain 3]
 *                     [--slow 0] [--slow-rcvbuf 4096] [--renderers 0] [--pid SERVER_PID] [--label L] [--delta]
 *       One editor sends JSON patches with ref "zq<seq>" to STORY (replacing the string at
 *       --path, /name by default, with "n<seq>"); every subscriber
 *       matches what it receives to the send time by that ref. Paced (--rate R per
 *       second, open loop) or flood (--rate 0: as fast as the server completes them,
 *       at most --window patches not yet seen by every subscriber). --slow K adds K
 *       subscribers with a small SO_RCVBUF that stop reading once subscribed. --delta makes
 *       the subscribers ask for state deltas (the browser UI does; docs/protocol.md).
 *       --renderers K adds K renderers (docs/protocol.md, "Renderers"): each announces
 *       itself, shows STORY on itself and answers every state with a `rendered` text
 *       report of that version, as the headless renderer example does.
 *
 *   loadclient idle --port P --conns N [--hold 30] [--subscribe STORY | --subscribe-file FILE]
 *       Opens N WebSockets (each waits for its first message, and for the state when
 *       subscribing; --subscribe-file gives one story per line, used round-robin),
 *       prints "READY <n>" on stdout, then answers pings until --hold
 *       seconds have passed or SIGTERM/SIGINT arrives.
 *
 * The result is one JSON object on stdout (after READY in idle mode); a human
 * summary goes to stderr. The client measures its own CPU (getrusage) and, with
 * --pid, the server's over the measured window: its threads' nanoseconds on CPU (/proc/PID/task/
 * TID/schedstat) when none of them exited meanwhile ("server_cpu_exact": true), else utime+stime
 * from /proc/PID/stat, in 10 ms ticks. It also counts the wake-up IPIs of the measured window
 * ("wakeup_ipis": the rescheduling and function-call interrupts of every CPU, /proc/interrupts' RES
 * and CAL lines, or --interrupts FILE; -1 when unreadable): how often a task was woken on another
 * CPU, such as this client by each of a patch's sends when it does not run on the sender's CPU.
 *
 *   loadclient interrupts [--interrupts FILE]
 *       Prints that count as it stands (what the fanout window subtracts; for tests).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNS 20000
#define MAX_FRAME (64u << 20)
#define SEQ_RING (1u << 16)
#define HIST_US 1000000u /* 1 us buckets up to 1 s, then one overflow bucket */
#define REF_PREFIX "\"zq"
#define CONNECT_BATCH 64

enum role { ROLE_SUB, ROLE_EDITOR, ROLE_SLOW, ROLE_IDLE, ROLE_RENDERER };
enum cstate { CS_CONNECTING, CS_HANDSHAKE, CS_OPEN, CS_CLOSED };

typedef struct conn {
    int fd;
    int role;
    int state;
    int ready;       /* got the first message (and the subscribe answer when subscribing) */
    int got_first;
    int paused;      /* slow client: no longer reads */
    unsigned char *rbuf;
    size_t rlen, rcap;
    unsigned char *wbuf;
    size_t wlen, wcap;
    unsigned char *frag; /* continuation frames of one message */
    size_t flen, fcap;
    uint64_t last_seq;
    uint64_t received;
    const char *story; /* what an idle connection subscribes to, or NULL */
} conn;

static conn *conns;
static int nconns;
static int epfd = -1;
static volatile sig_atomic_t stop_flag;
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

/* options */
static int opt_port;
static const char *opt_story = "profile-user-profile--default";
static const char *opt_path = "/name";
static int opt_delta; /* --delta: subscribers ask for state deltas (docs/protocol.md, "Deltas") */
static const char *opt_subscribe;
static const char *opt_subscribe_file;
static char **sub_ids; /* --subscribe-file: one story per line, used round-robin */
static int nsub_ids;
static const char *opt_label = "";
static int opt_subs = 100, opt_slow, opt_slow_rcvbuf = 4096, opt_conns = 1000;
static double opt_rate = 200, opt_duration = 10, opt_warmup = 1, opt_drain = 3, opt_hold = 30;
static int opt_window = 8;
static int opt_renderers;
static uint64_t reports_sent, renderer_errors;
static int opt_pid;
static const char *opt_interrupts = "/proc/interrupts";

/* fan-out accounting */
static uint64_t sent_seq;          /* last seq sent by the editor */
static uint64_t frontier;          /* every fast subscriber has seen (or skipped past) this seq */
static uint32_t remaining[SEQ_RING];
static uint64_t send_ns[SEQ_RING];
static uint32_t *hist;
static uint64_t hist_n, lat_max_us;
static uint64_t measure_first_seq, measure_last_seq; /* seqs whose latency counts */
static int measuring;
static uint64_t deliveries_window, deliveries_total, skipped, out_of_order, editor_errors, other_msgs;
static uint64_t slow_received;
static uint64_t bytes_window, msgs_for_bytes;
static int fast_subs;
static int closed_unexpected;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void die(const char *what)
{
    fprintf(stderr, "loadclient: %s: %s\n", what, strerror(errno));
    exit(2);
}

static void fail(const char *what)
{
    fprintf(stderr, "loadclient: %s\n", what);
    exit(2);
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q)
        fail("out of memory");
    return q;
}

static uint32_t rng32(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)rng_state;
}

static void on_signal(int sig)
{
    (void)sig;
    stop_flag = 1;
}

static double cpu_self_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

/* utime+stime of a process in seconds, from /proc/PID/stat; -1 when unreadable. */
static double cpu_of_pid_s(int pid)
{
    char path[64], buf[4096];
    if (pid <= 0)
        return -1;
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = 0;
    char *p = strrchr(buf, ')'); /* the command name may hold spaces */
    if (!p)
        return -1;
    p += 2;
    /* fields after ')' start at field 3 (state); utime is field 14, stime 15 */
    unsigned long long ut = 0, st = 0;
    int field = 3;
    char *save = NULL;
    for (char *tok = strtok_r(p, " ", &save); tok && field <= 15; tok = strtok_r(NULL, " ", &save), field++) {
        if (field == 14)
            ut = strtoull(tok, NULL, 10);
        else if (field == 15)
            st = strtoull(tok, NULL, 10);
    }
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* The rescheduling and function-call interrupts every CPU has taken (RES and CAL in
 * /proc/interrupts, or --interrupts FILE): each line's per-CPU counts, up to its description; -1
 * when the file cannot be read. */
static long long wakeup_ipis(void)
{
    FILE *file = fopen(opt_interrupts, "re");
    if (!file)
        return -1;
    long long total = 0;
    static char line[1 << 16]; /* a line holds a count per CPU */
    while (fgets(line, sizeof line, file)) {
        char *save = NULL, *token = strtok_r(line, " \t\n", &save);
        if (!token || (strcmp(token, "RES:") && strcmp(token, "CAL:")))
            continue;
        while ((token = strtok_r(NULL, " \t\n", &save)) && token[strspn(token, "0123456789")] == 0)
            total += strtoll(token, NULL, 10);
    }
    fclose(file);
    return total;
}

/* A process's CPU time at one moment: utime+stime from /proc/PID/stat (whole 10 ms ticks, so a run
 * of 50 ms of CPU reads within 20%), and the sum of its threads' time on CPU from
 * /proc/PID/task/TID/schedstat (nanoseconds) with the threads it was read from. */
#define MAX_TASKS 512
typedef struct {
    double stat_s, tasks_s;
    int ntasks, tasks[MAX_TASKS];
} cpu_reading;

static cpu_reading cpu_of_pid(int pid)
{
    cpu_reading r = {.stat_s = cpu_of_pid_s(pid), .tasks_s = -1};
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR *dir = pid > 0 ? opendir(path) : NULL;
    if (!dir)
        return r;
    double sum = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        int tid = atoi(e->d_name);
        if (tid <= 0)
            continue;
        char file[96], buf[128];
        snprintf(file, sizeof file, "/proc/%d/task/%d/schedstat", pid, tid);
        int fd = open(file, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue; /* exited meanwhile: the end reading will see it missing */
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (n <= 0 || r.ntasks == MAX_TASKS) {
            closedir(dir);
            return r; /* tasks_s stays -1: use stat_s */
        }
        buf[n] = 0;
        sum += (double)strtoull(buf, NULL, 10) / 1e9;
        r.tasks[r.ntasks++] = tid;
    }
    closedir(dir);
    r.tasks_s = sum;
    return r;
}

/* The CPU a process used between two readings: its threads' nanoseconds when every thread of the
 * first reading is still there at the second (a thread that exited took its time with it), else
 * the ticks of /proc/PID/stat; -1 when unreadable. `exact` says which. */
static double cpu_between(const cpu_reading *a, const cpu_reading *b, int *exact)
{
    *exact = 0;
    if (a->tasks_s >= 0 && b->tasks_s >= 0) {
        int all = 1;
        for (int i = 0; i < a->ntasks && all; i++) {
            int found = 0;
            for (int j = 0; j < b->ntasks && !found; j++)
                found = a->tasks[i] == b->tasks[j];
            all = found;
        }
        if (all) {
            *exact = 1;
            return b->tasks_s - a->tasks_s;
        }
    }
    return (a->stat_s >= 0 && b->stat_s >= 0) ? b->stat_s - a->stat_s : -1;
}

/* ---------- output buffering ---------- */

static void epoll_set(conn *c, uint32_t events)
{
    struct epoll_event ev = {.events = events, .data.ptr = c};
    if (epoll_ctl(epfd, EPOLL_CTL_MOD, c->fd, &ev) < 0)
        die("epoll_ctl MOD");
}

static uint32_t wanted_events(conn *c)
{
    uint32_t ev = c->paused ? 0 : EPOLLIN;
    if (c->wlen || c->state == CS_CONNECTING)
        ev |= EPOLLOUT;
    return ev;
}

static void conn_close(conn *c, int unexpected)
{
    if (c->state == CS_CLOSED)
        return;
    epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    c->fd = -1;
    c->state = CS_CLOSED;
    if (unexpected && c->role != ROLE_SLOW)
        closed_unexpected++;
}

static void flush_out(conn *c)
{
    size_t off = 0;
    while (off < c->wlen) {
        ssize_t n = write(c->fd, c->wbuf + off, c->wlen - off);
        if (n > 0) {
            off += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        conn_close(c, 1);
        return;
    }
    if (off) {
        memmove(c->wbuf, c->wbuf + off, c->wlen - off);
        c->wlen -= off;
    }
}

static void queue_bytes(conn *c, const void *data, size_t len)
{
    if (c->state == CS_CLOSED)
        return;
    int was_empty = c->wlen == 0;
    if (c->wlen + len > c->wcap) {
        c->wcap = (c->wlen + len) * 2;
        c->wbuf = xrealloc(c->wbuf, c->wcap);
    }
    memcpy(c->wbuf + c->wlen, data, len);
    c->wlen += len;
    if (c->state == CS_CONNECTING)
        return;
    flush_out(c);
    if (c->state != CS_CLOSED && (was_empty != (c->wlen == 0)))
        epoll_set(c, wanted_events(c));
}

/* A masked client frame (FIN set). */
static void send_frame(conn *c, int opcode, const void *payload, size_t len)
{
    unsigned char hdr[14];
    size_t h = 0;
    hdr[h++] = (unsigned char)(0x80 | opcode);
    if (len < 126) {
        hdr[h++] = (unsigned char)(0x80 | len);
    } else if (len < 65536) {
        hdr[h++] = 0x80 | 126;
        hdr[h++] = (unsigned char)(len >> 8);
        hdr[h++] = (unsigned char)len;
    } else {
        hdr[h++] = 0x80 | 127;
        for (int i = 7; i >= 0; i--)
            hdr[h++] = (unsigned char)((uint64_t)len >> (8 * i));
    }
    uint32_t key = rng32();
    unsigned char mask[4] = {(unsigned char)(key >> 24), (unsigned char)(key >> 16), (unsigned char)(key >> 8),
                             (unsigned char)key};
    memcpy(hdr + h, mask, 4);
    h += 4;
    unsigned char stackbuf[1024];
    unsigned char *buf = h + len <= sizeof stackbuf ? stackbuf : xrealloc(NULL, h + len);
    memcpy(buf, hdr, h);
    const unsigned char *p = payload;
    for (size_t i = 0; i < len; i++)
        buf[h + i] = p[i] ^ mask[i & 3];
    queue_bytes(c, buf, h + len);
    if (buf != stackbuf)
        free(buf);
}

static void send_text(conn *c, const char *s)
{
    send_frame(c, 1, s, strlen(s));
}

/* ---------- connections ---------- */

static conn *conn_open(int role)
{
    if (nconns >= MAX_CONNS)
        fail("too many connections");
    conn *c = &conns[nconns++];
    memset(c, 0, sizeof *c);
    c->role = role;
    if (role == ROLE_IDLE)
        c->story = nsub_ids ? sub_ids[(nconns - 1) % nsub_ids] : opt_subscribe;
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c->fd < 0)
        die("socket (raise ulimit -n?)");
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (role == ROLE_SLOW) {
        int rb = opt_slow_rcvbuf;
        setsockopt(c->fd, SOL_SOCKET, SO_RCVBUF, &rb, sizeof rb);
    }
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)opt_port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK); /* 127.0.0.1 only */
    c->state = CS_CONNECTING;
    if (connect(c->fd, (struct sockaddr *)&sa, sizeof sa) < 0 && errno != EINPROGRESS)
        die("connect");
    c->rcap = 65536;
    c->rbuf = xrealloc(NULL, c->rcap);
    struct epoll_event ev = {.events = EPOLLOUT | EPOLLIN, .data.ptr = c};
    if (epoll_ctl(epfd, EPOLL_CTL_ADD, c->fd, &ev) < 0)
        die("epoll_ctl ADD");
    return c;
}

static void start_handshake(conn *c)
{
    int err = 0;
    socklen_t len = sizeof err;
    getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err) {
        errno = err;
        die("connect to 127.0.0.1");
    }
    char key[25];
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < 21; i++)
        key[i] = b64[rng32() & 63];
    key[21] = 'A';
    key[22] = '=';
    key[23] = '=';
    key[24] = 0;
    char req[512];
    int n = snprintf(req, sizeof req,
                     "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n",
                     opt_port, key);
    c->state = CS_HANDSHAKE;
    /* anything queued while connecting (none today) goes after the request */
    unsigned char *pending = c->wbuf;
    size_t plen = c->wlen;
    c->wbuf = NULL;
    c->wlen = c->wcap = 0;
    queue_bytes(c, req, (size_t)n);
    if (plen)
        queue_bytes(c, pending, plen);
    free(pending);
    if (c->state != CS_CLOSED)
        epoll_set(c, wanted_events(c));
}

/* ---------- message handling ---------- */

static int parse_ref(const unsigned char *p, size_t len, uint64_t *seq)
{
    const unsigned char *q = memmem(p, len, REF_PREFIX, sizeof REF_PREFIX - 1);
    if (!q)
        return 0;
    q += sizeof REF_PREFIX - 1;
    const unsigned char *end = p + len;
    uint64_t v = 0;
    int digits = 0;
    while (q < end && *q >= '0' && *q <= '9' && digits < 19) {
        v = v * 10 + (uint64_t)(*q - '0');
        q++;
        digits++;
    }
    if (!digits || q >= end || *q != '"')
        return 0;
    *seq = v;
    return 1;
}

static void advance_frontier(void)
{
    uint64_t bound = 0;
    while (frontier < sent_seq && remaining[(frontier + 1) % SEQ_RING] == 0 && bound++ < SEQ_RING)
        frontier++;
}

static void record_latency(uint64_t ns)
{
    uint64_t us = ns / 1000;
    if (us > lat_max_us)
        lat_max_us = us;
    hist[us < HIST_US ? us : HIST_US]++;
    hist_n++;
}

/* A renderer's answer to a state: a text report of the version it names (the state's last
   "version" member: keys are sorted and nothing after it has one). */
static void renderer_answer(conn *c, const unsigned char *p, size_t len)
{
    if (memmem(p, len, "\"type\":\"error\"", 14)) {
        renderer_errors++;
        return;
    }
    if (!memmem(p, len, "\"type\":\"state\"", 14))
        return;
    const unsigned char *v = NULL, *q = p;
    while ((q = memmem(q, len - (size_t)(q - p), "\"version\":", 10)) != NULL) {
        v = q + 10;
        q = v;
    }
    if (!v)
        return;
    unsigned long long version = strtoull((const char *)v, NULL, 10);
    char msg[640];
    snprintf(msg, sizeof msg,
             "{\"type\":\"rendered\",\"story\":\"%s\",\"version\":%llu,\"text\":\"vstack\\n  heading1 \\\"render %llu\\\"\\n"
             "  text \\\"a report about as long as a small screen's outline, to cost what a real one costs on the way in\\\"\\n"
             "  button \\\"Log in\\\" -> login\"}",
             opt_story, version, version);
    send_text(c, msg);
    reports_sent++;
}

static void on_message(conn *c, const unsigned char *p, size_t len, uint64_t t)
{
    c->received++;
    if (!c->got_first) {
        c->got_first = 1;
        if (c->role == ROLE_EDITOR || (c->role == ROLE_IDLE && !c->story))
            c->ready = 1;
        return;
    }
    uint64_t seq = 0;
    int has_ref = parse_ref(p, len, &seq);
    if (!c->ready) {
        /* the answer to subscribe: a state without our ref */
        if (!has_ref && memmem(p, len, "state", 5)) {
            c->ready = 1;
            if (c->role == ROLE_SLOW) {
                c->paused = 1;
                epoll_set(c, wanted_events(c));
            }
        }
        return;
    }
    if (c->role == ROLE_EDITOR) {
        if (memmem(p, len, "\"error\"", 7))
            editor_errors++;
        else
            other_msgs++;
        return;
    }
    if (c->role == ROLE_SLOW) {
        slow_received++;
        return;
    }
    if (c->role == ROLE_RENDERER) {
        renderer_answer(c, p, len);
        return;
    }
    if (c->role != ROLE_SUB)
        return;
    if (!has_ref) {
        other_msgs++;
        return;
    }
    if (seq <= c->last_seq || seq > sent_seq) {
        out_of_order++;
        return;
    }
    deliveries_total++;
    if (measuring) {
        deliveries_window++;
        bytes_window += len;
        msgs_for_bytes++;
    }
    if (seq >= measure_first_seq && seq <= measure_last_seq && measure_first_seq)
        record_latency(t - send_ns[seq % SEQ_RING]);
    if (c->last_seq && seq > c->last_seq + 1)
        skipped += seq - c->last_seq - 1;
    uint64_t from = c->last_seq + 1;
    if (sent_seq > SEQ_RING && from < sent_seq - SEQ_RING + 1)
        from = sent_seq - SEQ_RING + 1;
    for (uint64_t q = from; q <= seq; q++)
        if (remaining[q % SEQ_RING])
            remaining[q % SEQ_RING]--;
    c->last_seq = seq;
    advance_frontier();
}

static void on_frame(conn *c, int fin, int op, unsigned char *p, size_t len, uint64_t t)
{
    if (op == 0x9) { /* ping */
        send_frame(c, 0xA, p, len);
        return;
    }
    if (op == 0xA)
        return;
    if (op == 0x8) {
        send_frame(c, 0x8, p, len < 2 ? len : 2);
        conn_close(c, c->role != ROLE_SLOW && !stop_flag);
        return;
    }
    if (op == 0x1 || op == 0x2) {
        if (fin) {
            on_message(c, p, len, t);
            return;
        }
        c->flen = 0;
    } else if (op != 0x0) {
        return;
    }
    if (c->flen + len > MAX_FRAME) {
        conn_close(c, 1);
        return;
    }
    if (c->flen + len > c->fcap) {
        c->fcap = (c->flen + len) * 2;
        c->frag = xrealloc(c->frag, c->fcap);
    }
    memcpy(c->frag + c->flen, p, len);
    c->flen += len;
    if (fin) {
        on_message(c, c->frag, c->flen, t);
        c->flen = 0;
    }
}

/* Parses every complete frame in rbuf; returns 0 when the connection closed. */
static int parse_frames(conn *c, uint64_t t)
{
    size_t off = 0;
    for (int guard = 0; guard < 1000000 && c->state == CS_OPEN; guard++) {
        size_t avail = c->rlen - off;
        unsigned char *b = c->rbuf + off;
        if (avail < 2)
            break;
        int fin = b[0] & 0x80, op = b[0] & 0x0f, masked = b[1] & 0x80;
        uint64_t len = b[1] & 0x7f;
        size_t h = 2;
        if (len == 126) {
            if (avail < 4)
                break;
            len = ((uint64_t)b[2] << 8) | b[3];
            h = 4;
        } else if (len == 127) {
            if (avail < 10)
                break;
            len = 0;
            for (int i = 0; i < 8; i++)
                len = (len << 8) | b[2 + i];
            h = 10;
        }
        if (len > MAX_FRAME) {
            conn_close(c, 1);
            return 0;
        }
        size_t mh = masked ? 4 : 0;
        if (avail < h + mh + len) {
            size_t need = h + mh + (size_t)len;
            if (need > c->rcap) {
                /* compact first, then grow */
                memmove(c->rbuf, c->rbuf + off, avail);
                c->rlen = avail;
                off = 0;
                c->rcap = need * 2;
                c->rbuf = xrealloc(c->rbuf, c->rcap);
            }
            break;
        }
        unsigned char *payload = b + h + mh;
        if (masked)
            for (uint64_t i = 0; i < len; i++)
                payload[i] ^= b[h + (i & 3)];
        off += h + mh + (size_t)len;
        on_frame(c, fin, op, payload, (size_t)len, t);
    }
    if (c->state == CS_CLOSED)
        return 0;
    if (off) {
        memmove(c->rbuf, c->rbuf + off, c->rlen - off);
        c->rlen -= off;
    }
    return 1;
}

static void on_handshake_bytes(conn *c, uint64_t t)
{
    unsigned char *end = memmem(c->rbuf, c->rlen, "\r\n\r\n", 4);
    if (!end) {
        if (c->rlen > 16384)
            fail("handshake answer too large");
        return;
    }
    if (c->rlen < 12 || memcmp(c->rbuf, "HTTP/1.1 101", 12) != 0) {
        c->rbuf[c->rlen < 200 ? c->rlen : 200] = 0;
        fprintf(stderr, "loadclient: upgrade refused: %s\n", (char *)c->rbuf);
        exit(2);
    }
    size_t hl = (size_t)(end - c->rbuf) + 4;
    memmove(c->rbuf, c->rbuf + hl, c->rlen - hl);
    c->rlen -= hl;
    c->state = CS_OPEN;
    if (c->role == ROLE_RENDERER) {
        /* announce, then show the story on itself; the state that follows makes it ready */
        char msg[768], component[256];
        const char *dash = strstr(opt_story, "--");
        size_t clen = dash ? (size_t)(dash - opt_story) : strlen(opt_story);
        if (clen >= sizeof component)
            clen = sizeof component - 1;
        memcpy(component, opt_story, clen);
        component[clen] = 0;
        int number = (int)(c - conns);
        snprintf(msg, sizeof msg, "{\"type\":\"renderer\",\"name\":\"bench-%d\",\"platform\":\"loadclient\",\"components\":[\"%s\"]}",
                 number, component);
        send_text(c, msg);
        snprintf(msg, sizeof msg, "{\"type\":\"show\",\"renderer\":\"bench-%d\",\"story\":\"%s\"}", number, opt_story);
        send_text(c, msg);
    } else if (c->role == ROLE_SUB || c->role == ROLE_SLOW || (c->role == ROLE_IDLE && c->story)) {
        char msg[512];
        snprintf(msg, sizeof msg, "{\"type\":\"subscribe\",\"story\":\"%s\"%s}",
                 c->role == ROLE_IDLE ? c->story : opt_story, opt_delta ? ",\"delta\":true" : "");
        send_text(c, msg);
    }
    parse_frames(c, t);
}

static void on_readable(conn *c)
{
    for (int rounds = 0; rounds < 16 && c->state != CS_CLOSED && !c->paused; rounds++) {
        if (c->rcap - c->rlen < 16384) {
            c->rcap *= 2;
            if (c->rcap > 4 * (size_t)MAX_FRAME)
                fail("read buffer overflow");
            c->rbuf = xrealloc(c->rbuf, c->rcap);
        }
        ssize_t n = read(c->fd, c->rbuf + c->rlen, c->rcap - c->rlen);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) {
            conn_close(c, !stop_flag);
            return;
        }
        uint64_t t = now_ns();
        c->rlen += (size_t)n;
        if (c->state == CS_HANDSHAKE)
            on_handshake_bytes(c, t);
        else if (c->state == CS_OPEN)
            parse_frames(c, t);
        if ((size_t)n < 16384)
            return;
    }
}

static void handle_event(struct epoll_event *ev)
{
    conn *c = ev->data.ptr;
    if (c->state == CS_CLOSED)
        return;
    if (c->state == CS_CONNECTING) {
        if (ev->events & (EPOLLOUT | EPOLLERR | EPOLLHUP))
            start_handshake(c);
        return;
    }
    if (ev->events & EPOLLOUT) {
        size_t before = c->wlen;
        flush_out(c);
        if (c->state != CS_CLOSED && before && !c->wlen)
            epoll_set(c, wanted_events(c));
    }
    if (c->state != CS_CLOSED && (ev->events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
        on_readable(c);
}

/* Runs the loop once, waiting at most timeout_ms. */
static void poll_once(int timeout_ms, int tfd, void (*on_tick)(uint64_t))
{
    struct epoll_event evs[256];
    int n = epoll_wait(epfd, evs, 256, timeout_ms);
    if (n < 0 && errno != EINTR)
        die("epoll_wait");
    for (int i = 0; i < n; i++) {
        if (evs[i].data.ptr == NULL) {
            uint64_t exp = 0;
            if (read(tfd, &exp, sizeof exp) == sizeof exp && on_tick)
                on_tick(exp);
            continue;
        }
        handle_event(&evs[i]);
    }
}

/* Opens `count` connections of `role`, at most CONNECT_BATCH handshakes at once; waits until all are ready. */
static void open_many(int count, int role, double timeout_s)
{
    int first = nconns;
    uint64_t deadline = now_ns() + (uint64_t)(timeout_s * 1e9);
    int opened = 0;
    while (!stop_flag) {
        int ready = 0, pending = 0;
        for (int i = first; i < nconns; i++) {
            if (conns[i].state == CS_CLOSED)
                fail("a connection closed while opening (server down or refusing?)");
            if (conns[i].ready)
                ready++;
            else
                pending++;
        }
        if (ready == count)
            return;
        while (opened < count && pending < CONNECT_BATCH) {
            conn_open(role);
            opened++;
            pending++;
        }
        if (now_ns() > deadline) {
            fprintf(stderr, "loadclient: only %d of %d connections ready after %.0f s\n", ready, count, timeout_s);
            exit(2);
        }
        poll_once(50, -1, NULL);
    }
}

/* ---------- fan-out ---------- */

static conn *editor;
static int pacing_paced;

static void editor_send(void)
{
    uint64_t seq = ++sent_seq;
    char msg[512];
    int n = snprintf(msg, sizeof msg,
                     "{\"type\":\"patch\",\"story\":\"%s\",\"patch\":[{\"op\":\"replace\",\"path\":\"%s\","
                     "\"value\":\"n%" PRIu64 "\"}],\"ref\":\"zq%" PRIu64 "\"}",
                     opt_story, opt_path, seq, seq);
    remaining[seq % SEQ_RING] = (uint32_t)fast_subs;
    send_ns[seq % SEQ_RING] = now_ns();
    send_frame(editor, 1, msg, (size_t)n);
}

static int sending_enabled;

static void on_tick(uint64_t expirations)
{
    if (!sending_enabled)
        return;
    if (expirations > 1000)
        expirations = 1000;
    for (uint64_t i = 0; i < expirations; i++) {
        if (sent_seq - frontier >= SEQ_RING / 2)
            return; /* the server is far behind: do not wrap the bookkeeping */
        editor_send();
    }
}

static void flood_fill(void)
{
    if (!sending_enabled)
        return;
    for (int i = 0; i < opt_window && sent_seq - frontier < (uint64_t)opt_window; i++)
        editor_send();
}

static uint64_t percentile_us(double p)
{
    if (!hist_n)
        return 0;
    uint64_t target = (uint64_t)(p * (double)hist_n);
    if (target >= hist_n)
        target = hist_n - 1;
    uint64_t acc = 0;
    for (uint32_t i = 0; i <= HIST_US; i++) {
        acc += hist[i];
        if (acc > target)
            return i;
    }
    return HIST_US;
}

static void run_phase(double seconds, int tfd)
{
    uint64_t end = now_ns() + (uint64_t)(seconds * 1e9);
    for (uint64_t guard = 0; guard < 100000000ull && !stop_flag; guard++) {
        uint64_t t = now_ns();
        if (t >= end)
            break;
        int ms = (int)((end - t) / 1000000) + 1;
        if (ms > 20)
            ms = 20;
        poll_once(ms, tfd, on_tick);
        if (!pacing_paced)
            flood_fill();
        if (editor->state == CS_CLOSED)
            fail("the server closed the editor's connection");
    }
}

static int run_fanout(void)
{
    hist = calloc(HIST_US + 1, sizeof *hist);
    if (!hist)
        fail("out of memory");
    pacing_paced = opt_rate > 0;
    fast_subs = opt_subs;
    uint64_t t_setup = now_ns();
    open_many(opt_subs, ROLE_SUB, 30);
    open_many(1, ROLE_EDITOR, 10);
    editor = &conns[nconns - 1];
    if (opt_slow)
        open_many(opt_slow, ROLE_SLOW, 10);
    if (opt_renderers)
        open_many(opt_renderers, ROLE_RENDERER, 10);
    double setup_s = (double)(now_ns() - t_setup) / 1e9;

    int tfd = -1;
    if (pacing_paced) {
        tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
        if (tfd < 0)
            die("timerfd_create");
        long long period = (long long)(1e9 / opt_rate);
        struct itimerspec its = {.it_interval = {period / 1000000000, period % 1000000000},
                                 .it_value = {period / 1000000000, period % 1000000000}};
        timerfd_settime(tfd, 0, &its, NULL);
        struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL};
        epoll_ctl(epfd, EPOLL_CTL_ADD, tfd, &ev);
    }
    sending_enabled = 1;
    run_phase(opt_warmup, tfd);

    /* measured window */
    measure_first_seq = sent_seq + 1;
    measure_last_seq = UINT64_MAX;
    measuring = 1;
    cpu_reading srv0 = cpu_of_pid(opt_pid);
    long long ipis0 = wakeup_ipis();
    double cli0 = cpu_self_s();
    uint64_t t0 = now_ns();
    run_phase(opt_duration, tfd);
    uint64_t t1 = now_ns();
    cpu_reading srv1 = cpu_of_pid(opt_pid);
    long long ipis1 = wakeup_ipis();
    double cli1 = cpu_self_s();
    measuring = 0;
    measure_last_seq = sent_seq;
    sending_enabled = 0;
    double window_s = (double)(t1 - t0) / 1e9;

    /* drain: wait for every fast subscriber to see the last seq */
    uint64_t drain_end = now_ns() + (uint64_t)(opt_drain * 1e9);
    for (int guard = 0; guard < 100000 && frontier < sent_seq && now_ns() < drain_end && !stop_flag; guard++)
        poll_once(10, tfd, on_tick);
    uint64_t lost = 0;
    int open_subs = 0;
    for (int i = 0; i < nconns; i++) {
        if (conns[i].role != ROLE_SUB)
            continue;
        if (conns[i].state == CS_OPEN)
            open_subs++;
        if (conns[i].last_seq < sent_seq)
            lost++;
    }
    int slow_closed = 0;
    for (int i = 0; i < nconns; i++)
        if (conns[i].role == ROLE_SLOW && conns[i].state == CS_CLOSED)
            slow_closed++;

    int server_cpu_exact;
    double server_cpu = cpu_between(&srv0, &srv1, &server_cpu_exact);
    double dps = (double)deliveries_window / window_s;
    uint64_t measured_sent = measure_last_seq - measure_first_seq + 1;
    printf("{\"mode\":\"fanout\",\"label\":\"%s\",\"subs\":%d,\"slow\":%d,\"rate\":%g,\"window\":%d,"
           "\"duration_s\":%.3f,\"setup_s\":%.3f,\"sent\":%" PRIu64 ",\"patches_per_s\":%.1f,"
           "\"deliveries\":%" PRIu64 ",\"deliveries_per_s\":%.1f,"
           "\"latency_us\":{\"count\":%" PRIu64 ",\"p50\":%" PRIu64 ",\"p90\":%" PRIu64 ",\"p99\":%" PRIu64
           ",\"p999\":%" PRIu64 ",\"max\":%" PRIu64 "},"
           "\"skipped\":%" PRIu64 ",\"out_of_order\":%" PRIu64 ",\"editor_errors\":%" PRIu64
           ",\"other_messages\":%" PRIu64 ",\"subs_behind_after_drain\":%" PRIu64 ",\"subs_open\":%d,"
           "\"closed_unexpectedly\":%d,\"slow_closed\":%d,\"slow_received\":%" PRIu64 ","
           "\"renderers\":%d,\"reports_sent\":%" PRIu64 ",\"renderer_errors\":%" PRIu64 ","
           "\"message_bytes_mean\":%.1f,"
           "\"server_cpu_s\":%.6f,\"server_cpu_us_per_delivery\":%.3f,\"server_cpu_pct\":%.1f,\"server_cpu_exact\":%s,"
           "\"client_cpu_s\":%.3f,\"client_cpu_pct\":%.1f,\"wakeup_ipis\":%lld}\n",
           opt_label, opt_subs, opt_slow, opt_rate, opt_window, window_s, setup_s, measured_sent,
           (double)measured_sent / window_s, deliveries_window, dps, hist_n, percentile_us(0.50),
           percentile_us(0.90), percentile_us(0.99), percentile_us(0.999), lat_max_us, skipped, out_of_order,
           editor_errors, other_msgs, lost, open_subs, closed_unexpected, slow_closed, slow_received,
           opt_renderers, reports_sent, renderer_errors,
           msgs_for_bytes ? (double)bytes_window / (double)msgs_for_bytes : 0.0, server_cpu,
           server_cpu >= 0 && deliveries_window ? server_cpu * 1e6 / (double)deliveries_window : -1.0,
           server_cpu >= 0 ? 100.0 * server_cpu / window_s : -1.0, server_cpu_exact ? "true" : "false", cli1 - cli0,
           100.0 * (cli1 - cli0) / window_s, ipis0 >= 0 && ipis1 >= 0 ? ipis1 - ipis0 : -1LL);
    fprintf(stderr,
            "loadclient %s: %d subs, rate %g, %.1f s: %.0f deliveries/s, p50 %" PRIu64 " us, p99 %" PRIu64
            " us, server %.2f us CPU/delivery, client CPU %.0f%%\n",
            opt_label, opt_subs, opt_rate, window_s, dps, percentile_us(0.50), percentile_us(0.99),
            server_cpu >= 0 && deliveries_window ? server_cpu * 1e6 / (double)deliveries_window : -1.0,
            100.0 * (cli1 - cli0) / window_s);
    return 0;
}

/* ---------- idle ---------- */

static int run_idle(void)
{
    uint64_t t0 = now_ns();
    open_many(opt_conns, ROLE_IDLE, 60);
    double setup_s = (double)(now_ns() - t0) / 1e9;
    printf("READY %d\n", opt_conns);
    fflush(stdout);
    uint64_t end = now_ns() + (uint64_t)(opt_hold * 1e9);
    for (uint64_t guard = 0; guard < 10000000ull && !stop_flag && now_ns() < end; guard++)
        poll_once(100, -1, NULL);
    int open_count = 0;
    for (int i = 0; i < nconns; i++)
        if (conns[i].state == CS_OPEN)
            open_count++;
    printf("{\"mode\":\"idle\",\"conns\":%d,\"open_at_end\":%d,\"setup_s\":%.3f,\"client_cpu_s\":%.3f}\n",
           opt_conns, open_count, setup_s, cpu_self_s());
    fflush(stdout);
    return open_count == opt_conns ? 0 : 1;
}

/* ---------- main ---------- */

static void load_sub_ids(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        die(path);
    char line[256];
    int cap = 0;
    for (int guard = 0; guard < 1000000 && fgets(line, sizeof line, f); guard++) {
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0] || strchr(line, '"') || strchr(line, '\\'))
            continue;
        if (nsub_ids == cap) {
            cap = cap ? cap * 2 : 256;
            sub_ids = xrealloc(sub_ids, (size_t)cap * sizeof *sub_ids);
        }
        sub_ids[nsub_ids++] = strdup(line);
    }
    fclose(f);
    if (!nsub_ids)
        fail("--subscribe-file holds no story id");
}

static void usage(void)
{
    fprintf(stderr,
            "usage: loadclient fanout --port P [--story ID] [--path /name] [--subs N] [--rate R|0] [--window W] [--duration S] [--delta]\n"
            "                         [--warmup S] [--drain S] [--slow K] [--slow-rcvbuf B] [--renderers K] [--pid PID] [--label L]\n"
            "       loadclient idle --port P [--conns N] [--hold S] [--subscribe STORY | --subscribe-file FILE]\n"
            "       loadclient interrupts [--interrupts FILE]\n"
            "       (fanout also takes --interrupts FILE, where it reads the wake-up IPIs)\n");
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        usage();
    const char *mode = argv[1];
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--delta")) {
            opt_delta = 1;
            continue;
        }
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            usage();
        i++;
        if (!strcmp(a, "--port"))
            opt_port = atoi(v);
        else if (!strcmp(a, "--story"))
            opt_story = v;
        else if (!strcmp(a, "--path"))
            opt_path = v;
        else if (!strcmp(a, "--subs"))
            opt_subs = atoi(v);
        else if (!strcmp(a, "--rate"))
            opt_rate = atof(v);
        else if (!strcmp(a, "--window"))
            opt_window = atoi(v);
        else if (!strcmp(a, "--duration"))
            opt_duration = atof(v);
        else if (!strcmp(a, "--warmup"))
            opt_warmup = atof(v);
        else if (!strcmp(a, "--drain"))
            opt_drain = atof(v);
        else if (!strcmp(a, "--renderers"))
            opt_renderers = atoi(v);
        else if (!strcmp(a, "--slow"))
            opt_slow = atoi(v);
        else if (!strcmp(a, "--slow-rcvbuf"))
            opt_slow_rcvbuf = atoi(v);
        else if (!strcmp(a, "--pid"))
            opt_pid = atoi(v);
        else if (!strcmp(a, "--label"))
            opt_label = v;
        else if (!strcmp(a, "--conns"))
            opt_conns = atoi(v);
        else if (!strcmp(a, "--hold"))
            opt_hold = atof(v);
        else if (!strcmp(a, "--subscribe"))
            opt_subscribe = v;
        else if (!strcmp(a, "--subscribe-file"))
            opt_subscribe_file = v;
        else if (!strcmp(a, "--interrupts"))
            opt_interrupts = v;
        else
            usage();
    }
    if (!strcmp(mode, "interrupts")) {
        printf("%lld\n", wakeup_ipis());
        return 0;
    }
    if (opt_port <= 0 || opt_port > 65535)
        usage();
    if (opt_subs < 1 || opt_subs > 10000 || opt_conns < 1 || opt_conns > MAX_CONNS - 10 || opt_slow < 0 ||
        opt_slow > 100 || opt_window < 1 || opt_window > (int)(SEQ_RING / 4) || opt_rate < 0 || opt_rate > 1e6 ||
        opt_duration <= 0 || opt_duration > 3600 || opt_hold > 3600 || strlen(opt_story) > 200 || strlen(opt_path) > 200 || strchr(opt_path, '"') || strchr(opt_path, '\\') ||
        strchr(opt_story, '"') || strchr(opt_label, '"') || (opt_subscribe && strchr(opt_subscribe, '"')))
        usage();

    if (opt_subscribe_file)
        load_sub_ids(opt_subscribe_file);

    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    rng_state ^= (uint64_t)now_ns() ^ ((uint64_t)getpid() << 32);
    conns = calloc(MAX_CONNS, sizeof *conns);
    epfd = epoll_create1(EPOLL_CLOEXEC);
    if (!conns || epfd < 0)
        die("setup");
    if (!strcmp(mode, "fanout"))
        return run_fanout();
    if (!strcmp(mode, "idle"))
        return run_idle();
    usage();
    return 2;
}
