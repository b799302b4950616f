/*
 * baseline: the raw libwebsockets server the storybook is measured against.
 *
 * One lws context on 127.0.0.1, one protocol doing both HTTP and WebSocket:
 *   GET /ws          WebSocket. Sends {"type":"hello",...} first. A message holding "subscribe"
 *                    subscribes the connection and answers with a state-sized message; a message
 *                    holding "patch" makes a new version: one message of --msg-bytes bytes that
 *                    carries the patch's "ref", broadcast to every subscriber. Like the storybook,
 *                    a subscriber keeps at most the latest version pending (older ones are skipped).
 *   GET /txt, /json  trivial dynamic routes: the bytes of --txt / --json from memory, with
 *                    Content-Length: the whole answer (head and body, made once at start) in one
 *                    lws_write from the request's own callback, as the storybook answers from memory.
 *                    --txt-path / --json-path serve them at other paths too (the benchmark passes
 *                    the storybook's, so that lws parses the same request line on both servers).
 *   GET /healthz     200 {"status":"ok"}
 *   GET /msg-bytes/N sets --msg-bytes to N from the next version on (at most twice the size it
 *                    started with, 1 MiB at most): the benchmark sizes the state message like the
 *                    storybook's in the run just before (its versions and refs grow in digits as a
 *                    run goes on, and lws' cost over loopback is not smooth in the message size).
 *   GET /static/...  an lws file mount of --static-dir (the same bytes, served from disk).
 *
 * Prints "Listening on http://127.0.0.1:PORT/" when ready; SIGTERM/SIGINT stop it.
 *
 *   baseline [--port 0] [--msg-bytes 1024] [--txt FILE] [--json FILE] [--static-dir DIR]
 *            [--txt-path PATH] [--json-path PATH]
 */
#define _GNU_SOURCE
#include <libwebsockets.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A trivial route's whole answer, made once at start. */
struct body {
    unsigned char *answer; /* LWS_PRE headroom, then the status line, headers and the bytes */
    size_t len;            /* of the answer, after the headroom */
};

struct pss {
    struct pss *next;
    struct lws *wsi;
    int is_ws, subscribed, need_hello, need_state;
    uint64_t sent_seq;
    unsigned char *rx;
    size_t rx_len, rx_cap;
};

static volatile sig_atomic_t interrupted;
static struct lws_context *context;
static struct pss *subscribers_head; /* every open WebSocket */
static size_t msg_bytes = 1024;
static size_t msg_cap; /* the most msg_bytes may become (/msg-bytes/N), set at start */
static unsigned char *scratch; /* LWS_PRE + msg_bytes + 1024: the hello and a newcomer's first state */
static uint64_t latest_seq;
static unsigned char *latest_buf; /* LWS_PRE + msg_bytes + slack */
static size_t latest_len;
static struct body body_txt, body_json, body_health;
static const char *txt_path, *json_path; /* more paths for the two routes, or NULL */

static const char hello_msg[] = "{\"type\":\"hello\",\"protocol\":1,\"server\":\"baseline\"}";

/* Reads the bytes of `path` (or `fallback` without one) and makes the answer that serves them. */
static void load_body(struct body *b, const char *path, const char *fallback, const char *mime)
{
    size_t cap = 4096, len = 0;
    unsigned char *bytes = malloc(cap);
    if (!bytes)
        exit(2);
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (path && !f) {
        fprintf(stderr, "baseline: cannot open %s\n", path);
        exit(2);
    }
    if (f) {
        size_t n;
        for (int guard = 0; guard < 1 << 20; guard++) {
            if (len == cap) {
                cap *= 2;
                bytes = realloc(bytes, cap);
                if (!bytes)
                    exit(2);
            }
            n = fread(bytes + len, 1, cap - len, f);
            if (!n)
                break;
            len += n;
        }
        fclose(f);
    } else {
        len = strlen(fallback);
        memcpy(bytes, fallback, len);
    }
    char head[256];
    int head_len = snprintf(head, sizeof head,
                            "HTTP/1.1 200 OK\r\nserver: baseline\r\ncontent-type: %s\r\ncontent-length: %zu\r\n\r\n",
                            mime, len);
    if (head_len < 0 || (size_t)head_len >= sizeof head)
        exit(2);
    b->len = (size_t)head_len + len;
    b->answer = malloc(LWS_PRE + b->len);
    if (!b->answer)
        exit(2);
    memcpy(b->answer + LWS_PRE, head, (size_t)head_len);
    memcpy(b->answer + LWS_PRE + head_len, bytes, len);
    free(bytes);
}

/* Builds a message of exactly msg_bytes (when the fixed part fits) into latest_buf. */
static size_t build_state(unsigned char *out, uint64_t version, const char *ref, size_t ref_len)
{
    char head[512];
    int n;
    if (ref)
        n = snprintf(head, sizeof head,
                     "{\"type\":\"state\",\"story\":\"baseline--default\",\"version\":%llu,"
                     "\"cause\":{\"kind\":\"patch\",\"ref\":\"%.*s\"},\"pad\":\"",
                     (unsigned long long)version, (int)ref_len, ref);
    else
        n = snprintf(head, sizeof head,
                     "{\"type\":\"state\",\"story\":\"baseline--default\",\"version\":%llu,\"pad\":\"",
                     (unsigned long long)version);
    size_t len = (size_t)n;
    memcpy(out, head, len);
    size_t total = msg_bytes > len + 2 ? msg_bytes : len + 2;
    memset(out + len, 'x', total - 2 - len);
    out[total - 2] = '"';
    out[total - 1] = '}';
    return total;
}

static void on_ws_message(struct pss *pss)
{
    unsigned char *m = pss->rx;
    size_t len = pss->rx_len;
    if (memmem(m, len, "\"subscribe\"", 11)) {
        pss->subscribed = 1;
        pss->need_state = 1;
        pss->sent_seq = latest_seq;
        lws_callback_on_writable(pss->wsi);
        return;
    }
    if (!memmem(m, len, "\"patch\"", 7))
        return;
    const char *ref = NULL;
    size_t ref_len = 0;
    unsigned char *r = memmem(m, len, "\"ref\":\"", 7);
    if (r) {
        ref = (const char *)r + 7;
        const char *e = memchr(ref, '"', (size_t)(m + len - (unsigned char *)ref));
        ref_len = e && e - ref < 100 ? (size_t)(e - ref) : 0;
    }
    latest_seq++;
    latest_len = build_state(latest_buf + LWS_PRE, latest_seq + 1, ref, ref_len);
    for (struct pss *p = subscribers_head; p; p = p->next)
        if (p->subscribed)
            lws_callback_on_writable(p->wsi);
}

static int write_ws(struct lws *wsi, unsigned char *payload, size_t len)
{
    return lws_write(wsi, payload, len, LWS_WRITE_TEXT) < (int)len ? -1 : 0;
}

static int on_writeable(struct lws *wsi, struct pss *pss)
{
    for (int step = 0; step < 3; step++) {
        if (lws_send_pipe_choked(wsi)) {
            lws_callback_on_writable(wsi);
            return 0;
        }
        if (pss->need_hello) {
            pss->need_hello = 0;
            memcpy(scratch + LWS_PRE, hello_msg, sizeof hello_msg - 1);
            if (write_ws(wsi, scratch + LWS_PRE, sizeof hello_msg - 1))
                return -1;
        } else if (pss->need_state) {
            pss->need_state = 0;
            size_t n = build_state(scratch + LWS_PRE, latest_seq + 1, NULL, 0);
            if (write_ws(wsi, scratch + LWS_PRE, n))
                return -1;
        } else if (pss->subscribed && pss->sent_seq < latest_seq) {
            pss->sent_seq = latest_seq;
            if (write_ws(wsi, latest_buf + LWS_PRE, latest_len))
                return -1;
        } else {
            return 0;
        }
    }
    return 0;
}

/* The whole answer in one write from the request's callback, then ready for the next request. */
static int http_reply(struct lws *wsi, const struct body *b)
{
    if (lws_write(wsi, b->answer + LWS_PRE, b->len, LWS_WRITE_HTTP_HEADERS) != (int)b->len)
        return -1;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
    struct pss *pss = user;
    switch (reason) {
    case LWS_CALLBACK_HTTP: {
        const char *uri = in;
        if (!strcmp(uri, "/txt") || (txt_path && !strcmp(uri, txt_path)))
            return http_reply(wsi, &body_txt);
        if (!strcmp(uri, "/json") || (json_path && !strcmp(uri, json_path)))
            return http_reply(wsi, &body_json);
        if (!strcmp(uri, "/healthz"))
            return http_reply(wsi, &body_health);
        if (!strncmp(uri, "/msg-bytes/", 11)) {
            char *end;
            long bytes = strtol(uri + 11, &end, 10);
            if (end == uri + 11 || *end || bytes < 64 || (size_t)bytes > msg_cap) {
                lws_return_http_status(wsi, HTTP_STATUS_BAD_REQUEST, NULL);
                return lws_http_transaction_completed(wsi) ? -1 : 0;
            }
            msg_bytes = (size_t)bytes;
            return http_reply(wsi, &body_health);
        }
        lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, NULL);
        return lws_http_transaction_completed(wsi) ? -1 : 0;
    }
    case LWS_CALLBACK_ESTABLISHED:
        memset(pss, 0, sizeof *pss);
        pss->wsi = wsi;
        pss->is_ws = 1;
        pss->need_hello = 1;
        pss->next = subscribers_head;
        subscribers_head = pss;
        lws_callback_on_writable(wsi);
        break;
    case LWS_CALLBACK_CLOSED:
        if (pss && pss->is_ws) {
            for (struct pss **pp = &subscribers_head; *pp; pp = &(*pp)->next)
                if (*pp == pss) {
                    *pp = pss->next;
                    break;
                }
            free(pss->rx);
            pss->rx = NULL;
            pss->is_ws = 0;
        }
        break;
    case LWS_CALLBACK_RECEIVE:
        if (pss->rx_len + len > (1u << 20))
            return -1;
        if (pss->rx_len + len > pss->rx_cap) {
            pss->rx_cap = (pss->rx_len + len) * 2 + 256;
            pss->rx = realloc(pss->rx, pss->rx_cap);
            if (!pss->rx)
                return -1;
        }
        memcpy(pss->rx + pss->rx_len, in, len);
        pss->rx_len += len;
        if (lws_is_final_fragment(wsi)) {
            on_ws_message(pss);
            pss->rx_len = 0;
        }
        break;
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return on_writeable(wsi, pss);
    default:
        break;
    }
    return lws_callback_http_dummy(wsi, reason, user, in, len);
}

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
    if (context)
        lws_cancel_service(context);
}

int main(int argc, char **argv)
{
    int port = 0;
    const char *txt = NULL, *json = NULL, *static_dir = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--port"))
            port = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--msg-bytes"))
            msg_bytes = (size_t)atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--txt"))
            txt = argv[i + 1];
        else if (!strcmp(argv[i], "--json"))
            json = argv[i + 1];
        else if (!strcmp(argv[i], "--static-dir"))
            static_dir = argv[i + 1];
        else if (!strcmp(argv[i], "--txt-path"))
            txt_path = argv[i + 1];
        else if (!strcmp(argv[i], "--json-path"))
            json_path = argv[i + 1];
        else {
            fprintf(stderr, "usage: baseline [--port 0] [--msg-bytes N] [--txt FILE] [--json FILE] [--static-dir DIR]"
                            " [--txt-path PATH] [--json-path PATH]\n");
            return 2;
        }
    }
    if (argc % 2 == 0 || msg_bytes < 64 || msg_bytes > (1u << 20) || port < 0 || port > 65535) {
        fprintf(stderr, "baseline: bad arguments (--msg-bytes must be 64..1048576)\n");
        return 2;
    }
    load_body(&body_txt, txt, "vstack\n  text \"baseline\"\n", "text/plain; charset=utf-8");
    load_body(&body_json, json, "{\"id\":\"baseline\"}", "application/json; charset=utf-8");
    load_body(&body_health, NULL, "{\"status\":\"ok\"}", "application/json; charset=utf-8");
    msg_cap = 2 * msg_bytes < (1u << 20) ? 2 * msg_bytes : (1u << 20);
    latest_buf = malloc(LWS_PRE + msg_cap + 1024);
    scratch = malloc(LWS_PRE + msg_cap + 1024);
    if (!latest_buf || !scratch)
        return 2;

    signal(SIGPIPE, SIG_IGN);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    lws_set_log_level(LLL_ERR, NULL);

    static const struct lws_protocols protocols[] = {
        {"storybook.v1", callback, sizeof(struct pss), 0, 0, NULL, 0},
        {NULL, NULL, 0, 0, 0, NULL, 0},
    };
    static const struct lws_protocol_vhost_options json_mime = {NULL, NULL, ".json", "application/json; charset=utf-8"};
    static const struct lws_protocol_vhost_options txt_mime = {&json_mime, NULL, ".txt", "text/plain; charset=utf-8"};
    static struct lws_http_mount mount;
    memset(&mount, 0, sizeof mount);
    mount.mountpoint = "/static";
    mount.mountpoint_len = 7;
    mount.origin = static_dir ? static_dir : "/nonexistent";
    mount.def = "story.txt";
    mount.origin_protocol = LWSMPRO_FILE;
    mount.extra_mimetypes = &txt_mime;

    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = port;
    info.iface = "127.0.0.1";
    info.protocols = protocols;
    info.mounts = &mount;
    info.server_string = "baseline";
    info.max_http_header_data = 8192;
    info.options = LWS_SERVER_OPTION_VALIDATE_UTF8 | LWS_SERVER_OPTION_DISABLE_IPV6 |
                   LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND;
    context = lws_create_context(&info);
    if (!context) {
        fprintf(stderr, "baseline: lws_create_context failed\n");
        return 1;
    }
    struct lws_vhost *vh = lws_get_vhost_by_name(context, "default");
    int bound = vh ? lws_get_vhost_listen_port(vh) : port;
    printf("Listening on http://127.0.0.1:%d/\n", bound);
    fflush(stdout);
    for (long guard = 0; !interrupted && guard < (1L << 60); guard++)
        if (lws_service(context, 0) < 0)
            break;
    lws_context_destroy(context);
    return 0;
}
