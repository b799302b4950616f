#ifndef STORYBOOK_CLIBWEBSOCKETS_SHIM_H
#define STORYBOOK_CLIBWEBSOCKETS_SHIM_H
#include <libwebsockets.h>
#if defined(__linux__)
#include <sys/prctl.h>
#elif defined(__APPLE__)
#include <pthread.h>
#endif

/// Macros and variadic helpers Swift cannot import, as small inline functions.
static inline int sb_lws_pre(void) { return LWS_PRE; }
static inline unsigned long long sb_lws_illegal_content_length(void) { return LWS_ILLEGAL_HTTP_CONTENT_LEN; }
static inline void sb_lws_set_log_level(int level) { lws_set_log_level(level, NULL); }

/// The bytes the head's tokens take. `pairs` holds `count` pairs of bytes, a token and what it adds to
/// the head besides its value (its `Name: ` and line end; 0 for the request line's parts): for each
/// token lws holds, its value's length plus that. One C loop, instead of a call from Swift per token.
static inline int sb_lws_head_bytes(struct lws *wsi, const unsigned char *pairs, int count) {
    int total = 0;
    for (int i = 0; i < count; i++) {
        int length = lws_hdr_total_length(wsi, (enum lws_token_indexes)pairs[2 * i]);
        if (length > 0) total += length + pairs[2 * i + 1];
    }
    return total;
}

/// Names the calling thread (Linux keeps the first 15 bytes). pthread_setname_np needs _GNU_SOURCE,
/// which Swift's Glibc module does not define.
static inline void sb_set_current_thread_name(const char *name) {
#if defined(__linux__)
    prctl(PR_SET_NAME, name, 0, 0, 0);
#elif defined(__APPLE__)
    pthread_setname_np(name);
#endif
}

#endif
