// Loads libcurl.so.4 with dlopen and calls it through function pointers found with dlsym, so that building the
// package needs no curl headers or development package. See include/CCurlShim.h.
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "CCurlShim.h"

#if defined(__linux__)

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>

// libcurl's finished-transfer message, laid out as its ABI has it: a kind, the handle, then a union whose first
// member on this path is the transfer's result code.
struct ccurl_message {
    int kind;
    ccurl_easy *easy;
    union {
        void *unused;
        int result;
    } data;
};

enum { CCURL_MESSAGE_DONE = 1, CCURL_GLOBAL_ALL = 3 };

static struct {
    int (*global_init)(long flags);
    const char *(*version)(void);
    ccurl_easy *(*easy_init)(void);
    void (*easy_cleanup)(ccurl_easy *);
    void (*easy_reset)(ccurl_easy *);
    int (*easy_setopt)(ccurl_easy *, int, ...);
    int (*easy_getinfo)(ccurl_easy *, int, ...);
    ccurl_slist *(*slist_append)(ccurl_slist *, const char *);
    void (*slist_free_all)(ccurl_slist *);
    ccurl_multi *(*multi_init)(void);
    int (*multi_setopt)(ccurl_multi *, int, ...);
    int (*multi_add_handle)(ccurl_multi *, ccurl_easy *);
    int (*multi_remove_handle)(ccurl_multi *, ccurl_easy *);
    int (*multi_perform)(ccurl_multi *, int *);
    int (*multi_timeout)(ccurl_multi *, long *);
    int (*multi_poll)(ccurl_multi *, void *, unsigned int, int, int *);
    int (*multi_wakeup)(ccurl_multi *);
    struct ccurl_message *(*multi_info_read)(ccurl_multi *, int *);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_result = -1;
static const char *load_failure = NULL;

#define FIND(field, name)                                      \
    do {                                                       \
        *(void **)(&curl.field) = dlsym(library, name);        \
        if (curl.field == NULL) {                              \
            load_failure = "libcurl.so.4 lacks " name;         \
            return;                                            \
        }                                                      \
    } while (0)

static void load(void) {
    // RTLD_LOCAL: the symbols stay out of the global namespace, so another libcurl a host loads is not disturbed.
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        load_failure = "libcurl.so.4 could not be loaded (install the libcurl4 package)";
        return;
    }
    FIND(global_init, "curl_global_init");
    FIND(version, "curl_version");
    FIND(easy_init, "curl_easy_init");
    FIND(easy_cleanup, "curl_easy_cleanup");
    FIND(easy_reset, "curl_easy_reset");
    FIND(easy_setopt, "curl_easy_setopt");
    FIND(easy_getinfo, "curl_easy_getinfo");
    FIND(slist_append, "curl_slist_append");
    FIND(slist_free_all, "curl_slist_free_all");
    FIND(multi_init, "curl_multi_init");
    FIND(multi_setopt, "curl_multi_setopt");
    FIND(multi_add_handle, "curl_multi_add_handle");
    FIND(multi_remove_handle, "curl_multi_remove_handle");
    FIND(multi_perform, "curl_multi_perform");
    FIND(multi_timeout, "curl_multi_timeout");
    // curl_multi_poll (7.66) and curl_multi_wakeup (7.68): older libcurl cannot wait without a spin or a pipe.
    FIND(multi_poll, "curl_multi_poll");
    FIND(multi_wakeup, "curl_multi_wakeup");
    FIND(multi_info_read, "curl_multi_info_read");
    if (curl.global_init(CCURL_GLOBAL_ALL) != 0) {
        load_failure = "curl_global_init failed";
        return;
    }
    load_result = 0;
}

int ccurl_load(void) {
    pthread_once(&load_once, load);
    return load_result;
}

const char *ccurl_load_failure(void) { return load_result == 0 ? NULL : load_failure; }

const char *ccurl_version(void) { return load_result == 0 ? curl.version() : NULL; }

ccurl_easy *ccurl_easy_init(void) { return curl.easy_init(); }
void ccurl_easy_cleanup(ccurl_easy *easy) { curl.easy_cleanup(easy); }
void ccurl_easy_reset(ccurl_easy *easy) { curl.easy_reset(easy); }

int ccurl_easy_setopt_long(ccurl_easy *easy, int option, long value) { return curl.easy_setopt(easy, option, value); }

int ccurl_easy_setopt_int64(ccurl_easy *easy, int option, int64_t value) {
    // curl_off_t is a 64-bit signed integer on every Linux ABI.
    return curl.easy_setopt(easy, option, value);
}

int ccurl_easy_setopt_pointer(ccurl_easy *easy, int option, const void *value) {
    return curl.easy_setopt(easy, option, value);
}

int ccurl_easy_setopt_callback(ccurl_easy *easy, int option, ccurl_data_callback callback) {
    return curl.easy_setopt(easy, option, callback);
}

int ccurl_easy_getinfo_long(ccurl_easy *easy, int info, long *value) { return curl.easy_getinfo(easy, info, value); }

int ccurl_easy_getinfo_pointer(ccurl_easy *easy, int info, void **value) {
    return curl.easy_getinfo(easy, info, value);
}

ccurl_slist *ccurl_slist_append(ccurl_slist *list, const char *line) { return curl.slist_append(list, line); }
void ccurl_slist_free_all(ccurl_slist *list) { curl.slist_free_all(list); }

ccurl_multi *ccurl_multi_init(void) { return curl.multi_init(); }

int ccurl_multi_setopt_long(ccurl_multi *multi, int option, long value) {
    return curl.multi_setopt(multi, option, value);
}

int ccurl_multi_add_handle(ccurl_multi *multi, ccurl_easy *easy) { return curl.multi_add_handle(multi, easy); }
int ccurl_multi_remove_handle(ccurl_multi *multi, ccurl_easy *easy) { return curl.multi_remove_handle(multi, easy); }
int ccurl_multi_perform(ccurl_multi *multi, int *running) { return curl.multi_perform(multi, running); }
int ccurl_multi_timeout(ccurl_multi *multi, long *milliseconds) { return curl.multi_timeout(multi, milliseconds); }

int ccurl_multi_poll(ccurl_multi *multi, int timeout_ms, int *ready) {
    return curl.multi_poll(multi, NULL, 0, timeout_ms, ready);
}

int ccurl_multi_wakeup(ccurl_multi *multi) { return curl.multi_wakeup(multi); }

int ccurl_multi_next_done(ccurl_multi *multi, ccurl_easy **easy, int *result) {
    int left = 0;
    struct ccurl_message *message;
    while ((message = curl.multi_info_read(multi, &left)) != NULL) {
        if (message->kind == CCURL_MESSAGE_DONE) {
            *easy = message->easy;
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}

void ccurl_name_thread(const char *name) { (void)pthread_setname_np(pthread_self(), name); }

int ccurl_block_sigpipe(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGPIPE);
    return pthread_sigmask(SIG_BLOCK, &set, NULL);
}

#else

// Elsewhere the engine is not used: libcurl reports itself unavailable and nothing else is reached.
int ccurl_load(void) { return -1; }
const char *ccurl_load_failure(void) { return "the libcurl engine is used on Linux only"; }
const char *ccurl_version(void) { return NULL; }
ccurl_easy *ccurl_easy_init(void) { return NULL; }
void ccurl_easy_cleanup(ccurl_easy *easy) { (void)easy; }
void ccurl_easy_reset(ccurl_easy *easy) { (void)easy; }
int ccurl_easy_setopt_long(ccurl_easy *easy, int option, long value) { (void)easy; (void)option; (void)value; return -1; }
int ccurl_easy_setopt_int64(ccurl_easy *easy, int option, int64_t value) { (void)easy; (void)option; (void)value; return -1; }
int ccurl_easy_setopt_pointer(ccurl_easy *easy, int option, const void *value) { (void)easy; (void)option; (void)value; return -1; }
int ccurl_easy_setopt_callback(ccurl_easy *easy, int option, ccurl_data_callback callback) { (void)easy; (void)option; (void)callback; return -1; }
int ccurl_easy_getinfo_long(ccurl_easy *easy, int info, long *value) { (void)easy; (void)info; (void)value; return -1; }
int ccurl_easy_getinfo_pointer(ccurl_easy *easy, int info, void **value) { (void)easy; (void)info; (void)value; return -1; }
ccurl_slist *ccurl_slist_append(ccurl_slist *list, const char *line) { (void)list; (void)line; return NULL; }
void ccurl_slist_free_all(ccurl_slist *list) { (void)list; }
ccurl_multi *ccurl_multi_init(void) { return NULL; }
int ccurl_multi_setopt_long(ccurl_multi *multi, int option, long value) { (void)multi; (void)option; (void)value; return -1; }
int ccurl_multi_add_handle(ccurl_multi *multi, ccurl_easy *easy) { (void)multi; (void)easy; return -1; }
int ccurl_multi_remove_handle(ccurl_multi *multi, ccurl_easy *easy) { (void)multi; (void)easy; return -1; }
int ccurl_multi_perform(ccurl_multi *multi, int *running) { (void)multi; (void)running; return -1; }
int ccurl_multi_timeout(ccurl_multi *multi, long *milliseconds) { (void)multi; (void)milliseconds; return -1; }
int ccurl_multi_poll(ccurl_multi *multi, int timeout_ms, int *ready) { (void)multi; (void)timeout_ms; (void)ready; return -1; }
int ccurl_multi_wakeup(ccurl_multi *multi) { (void)multi; return -1; }
int ccurl_multi_next_done(ccurl_multi *multi, ccurl_easy **easy, int *result) { (void)multi; (void)easy; (void)result; return 0; }
int ccurl_block_sigpipe(void) { return -1; }
void ccurl_name_thread(const char *name) { (void)name; }

#endif
