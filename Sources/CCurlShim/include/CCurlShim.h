// The few libcurl entry points the Linux HTTP engine uses, loaded at run time from libcurl.so.4.
//
// These are this package's own declarations, not curl's headers (none are installed on the machines the package
// builds on). Option and info numbers are libcurl's stable ABI values. libcurl's setopt calls are variadic; the
// shim calls them from C, where a variadic call is well defined, and offers one non-variadic wrapper per
// argument type. On platforms other than Linux the functions exist but report libcurl as unavailable.
#ifndef CCURLSHIM_H
#define CCURLSHIM_H

#include <stddef.h>
#include <stdint.h>

/// An easy handle (one transfer) and a multi handle (the engine's set of transfers).
typedef struct ccurl_easy ccurl_easy;
typedef struct ccurl_multi ccurl_multi;
typedef struct ccurl_slist ccurl_slist;

/// The header and write callbacks' shape: bytes, 1, count, the transfer's context. Return count to go on.
typedef size_t (*ccurl_data_callback)(char *bytes, size_t size, size_t count, void *context);

/// Options (CURLOPT_*), by the number libcurl gives them.
#define CCURL_OPT_WRITEDATA 10001
#define CCURL_OPT_URL 10002
#define CCURL_OPT_ERRORBUFFER 10010
#define CCURL_OPT_WRITEFUNCTION 20011
#define CCURL_OPT_LOW_SPEED_LIMIT 19
#define CCURL_OPT_LOW_SPEED_TIME 20
#define CCURL_OPT_HTTPHEADER 10023
#define CCURL_OPT_HEADERDATA 10029
#define CCURL_OPT_CUSTOMREQUEST 10036
#define CCURL_OPT_NOBODY 44
#define CCURL_OPT_FOLLOWLOCATION 52
#define CCURL_OPT_SSL_VERIFYPEER 64
#define CCURL_OPT_CAINFO 10065
#define CCURL_OPT_HEADERFUNCTION 20079
#define CCURL_OPT_SSL_VERIFYHOST 81
#define CCURL_OPT_HTTP_VERSION 84
#define CCURL_OPT_CAPATH 10097
#define CCURL_OPT_NOSIGNAL 99
#define CCURL_OPT_POSTFIELDSIZE_LARGE 30120
#define CCURL_OPT_TIMEOUT_MS 155
#define CCURL_OPT_CONNECTTIMEOUT_MS 156
#define CCURL_OPT_COPYPOSTFIELDS 10165
#define CCURL_OPT_PROTOCOLS 181

/// Values for the options above.
#define CCURL_HTTP_VERSION_1_1 2
#define CCURL_PROTO_HTTP 1
#define CCURL_PROTO_HTTPS 2
#define CCURL_ERROR_SIZE 256

/// Multi options (CURLMOPT_*), for ccurl_multi_setopt_long.
#define CCURL_MOPT_MAXCONNECTS 6

/// Transfer information (CURLINFO_*).
#define CCURL_INFO_RESPONSE_CODE 0x200002
#define CCURL_INFO_OS_ERRNO 0x200019

/// Loads libcurl once per process (later calls return the first result): 0 when every entry point was found and
/// `curl_global_init` succeeded, -1 otherwise.
int ccurl_load(void);
/// Why ccurl_load failed, or NULL: the dynamic loader's text names a library, never a request.
const char *ccurl_load_failure(void);
/// libcurl's version text, e.g. "libcurl/7.88.1 OpenSSL/3.0.19 ...", or NULL when not loaded.
const char *ccurl_version(void);

ccurl_easy *ccurl_easy_init(void);
void ccurl_easy_cleanup(ccurl_easy *easy);
void ccurl_easy_reset(ccurl_easy *easy);
int ccurl_easy_setopt_long(ccurl_easy *easy, int option, long value);
int ccurl_easy_setopt_int64(ccurl_easy *easy, int option, int64_t value);
int ccurl_easy_setopt_pointer(ccurl_easy *easy, int option, const void *value);
int ccurl_easy_setopt_callback(ccurl_easy *easy, int option, ccurl_data_callback callback);
int ccurl_easy_getinfo_long(ccurl_easy *easy, int info, long *value);
int ccurl_easy_getinfo_pointer(ccurl_easy *easy, int info, void **value);

ccurl_slist *ccurl_slist_append(ccurl_slist *list, const char *line);
void ccurl_slist_free_all(ccurl_slist *list);

ccurl_multi *ccurl_multi_init(void);
int ccurl_multi_setopt_long(ccurl_multi *multi, int option, long value);
int ccurl_multi_add_handle(ccurl_multi *multi, ccurl_easy *easy);
int ccurl_multi_remove_handle(ccurl_multi *multi, ccurl_easy *easy);
int ccurl_multi_perform(ccurl_multi *multi, int *running);
int ccurl_multi_timeout(ccurl_multi *multi, long *milliseconds);
int ccurl_multi_poll(ccurl_multi *multi, int timeout_ms, int *ready);
int ccurl_multi_wakeup(ccurl_multi *multi);
/// The next finished transfer: 1 with its handle and result code, 0 when none is left.
int ccurl_multi_next_done(ccurl_multi *multi, ccurl_easy **easy, int *result);

/// Blocks SIGPIPE for the calling thread, so a write to a closed socket inside the TLS library can never end the
/// process. 0 on success.
int ccurl_block_sigpipe(void);
/// Names the calling thread (at most 15 characters), as `top -H` and debuggers show it.
void ccurl_name_thread(const char *name);

#endif
