#include "CChimeCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// The libcurl functions Chime calls, found in the library once it is loaded.
static struct {
    CURLcode (*global_init)(long);
    curl_version_info_data *(*version_info)(CURLversion);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    CURLcode (*easy_send)(CURL *, const void *, size_t, size_t *);
    CURLcode (*easy_recv)(CURL *, void *, size_t, size_t *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd[], unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
} curl;

// A step done once per process, whichever thread asks first: its result is NULL when it
// went well, else `failure`, which says why.
struct step {
    pthread_once_t once;
    const char *result;
    char failure[512];
};

static struct step loading = {PTHREAD_ONCE_INIT, NULL, ""};
static struct step starting = {PTHREAD_ONCE_INIT, NULL, ""};

static void fail(struct step *step, const char *what, const char *why) {
    snprintf(step->failure, sizeof step->failure, "%s: %s", what, why);
    step->result = step->failure;
}

static void load(void) {
    // The name of libcurl's ABI since 7.16 (2006), whatever its TLS library.
    static const char *const name = "libcurl.so.4";
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        fail(&loading, "libcurl could not be loaded", why ? why : name);
        return;
    }
#define RESOLVE(field, symbol)                                                                  \
    if ((*(void **)&curl.field = dlsym(library, symbol)) == NULL) {                             \
        fail(&loading, "libcurl could not be loaded: libcurl.so.4 has no symbol", symbol);       \
        return;                                                                                 \
    }
    RESOLVE(global_init, "curl_global_init")
    RESOLVE(version_info, "curl_version_info")
    RESOLVE(easy_init, "curl_easy_init")
    RESOLVE(easy_cleanup, "curl_easy_cleanup")
    RESOLVE(easy_reset, "curl_easy_reset")
    RESOLVE(easy_perform, "curl_easy_perform")
    RESOLVE(easy_strerror, "curl_easy_strerror")
    RESOLVE(easy_setopt, "curl_easy_setopt")
    RESOLVE(easy_getinfo, "curl_easy_getinfo")
    RESOLVE(easy_send, "curl_easy_send")
    RESOLVE(easy_recv, "curl_easy_recv")
    RESOLVE(slist_append, "curl_slist_append")
    RESOLVE(slist_free_all, "curl_slist_free_all")
    RESOLVE(multi_init, "curl_multi_init")
    RESOLVE(multi_cleanup, "curl_multi_cleanup")
    RESOLVE(multi_add_handle, "curl_multi_add_handle")
    RESOLVE(multi_remove_handle, "curl_multi_remove_handle")
    RESOLVE(multi_perform, "curl_multi_perform")
    RESOLVE(multi_poll, "curl_multi_poll")
    RESOLVE(multi_wakeup, "curl_multi_wakeup")
    RESOLVE(multi_info_read, "curl_multi_info_read")
    RESOLVE(multi_setopt, "curl_multi_setopt")
#undef RESOLVE
}

const char *chime_curl_load(void) {
    pthread_once(&loading.once, load);
    return loading.result;
}

// Not thread-safe, and needed before any handle exists: run once. Kept apart from
// loading: it starts OpenSSL (reading its configuration), which naming libcurl's version
// does not need.
static void start(void) {
    if ((starting.result = chime_curl_load()) != NULL) return;
    CURLcode code = curl.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) fail(&starting, "curl_global_init failed", curl.easy_strerror(code));
}

const char *chime_curl_start(void) {
    pthread_once(&starting.once, start);
    return starting.result;
}

curl_version_info_data *chime_curl_version_info(CURLversion age) { return chime_curl_load() ? NULL : curl.version_info(age); }

CURL *chime_curl_easy_init(void) { return chime_curl_start() ? NULL : curl.easy_init(); }
void chime_curl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
void chime_curl_easy_reset(CURL *handle) { curl.easy_reset(handle); }
CURLcode chime_curl_easy_perform(CURL *handle) { return curl.easy_perform(handle); }
CURLcode chime_curl_easy_send(CURL *handle, const void *buffer, size_t length, size_t *sent) { return curl.easy_send(handle, buffer, length, sent); }
CURLcode chime_curl_easy_recv(CURL *handle, void *buffer, size_t length, size_t *received) { return curl.easy_recv(handle, buffer, length, received); }
const char *chime_curl_easy_strerror(CURLcode code) { return chime_curl_load() ? "libcurl is not loaded" : curl.easy_strerror(code); }

struct curl_slist *chime_curl_slist_append(struct curl_slist *list, const char *text) {
    return chime_curl_start() ? NULL : curl.slist_append(list, text);
}
void chime_curl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

CURLM *chime_curl_multi_init(void) { return chime_curl_start() ? NULL : curl.multi_init(); }
CURLMcode chime_curl_multi_cleanup(CURLM *multi) { return curl.multi_cleanup(multi); }
CURLMcode chime_curl_multi_add_handle(CURLM *multi, CURL *handle) { return curl.multi_add_handle(multi, handle); }
CURLMcode chime_curl_multi_remove_handle(CURLM *multi, CURL *handle) { return curl.multi_remove_handle(multi, handle); }
CURLMcode chime_curl_multi_perform(CURLM *multi, int *running) { return curl.multi_perform(multi, running); }
CURLMcode chime_curl_multi_poll(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout, int *ready) {
    return curl.multi_poll(multi, extra, count, timeout, ready);
}
CURLMcode chime_curl_multi_wakeup(CURLM *multi) { return curl.multi_wakeup(multi); }
CURLMsg *chime_curl_multi_info_read(CURLM *multi, int *queued) { return curl.multi_info_read(multi, queued); }

CURLcode chime_curl_setopt_long(CURL *handle, CURLoption option, long value) { return curl.easy_setopt(handle, option, value); }
CURLcode chime_curl_setopt_string(CURL *handle, CURLoption option, const char *value) { return curl.easy_setopt(handle, option, value); }
CURLcode chime_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) { return curl.easy_setopt(handle, option, value); }
CURLcode chime_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) { return curl.easy_setopt(handle, option, value); }
CURLcode chime_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) { return curl.easy_setopt(handle, option, value); }
CURLcode chime_curl_setopt_write_callback(CURL *handle, CURLoption option, chime_curl_write_callback value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode chime_curl_setopt_read_callback(CURL *handle, CURLoption option, chime_curl_read_callback value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode chime_curl_setopt_debug_callback(CURL *handle, CURLoption option, chime_curl_debug_callback value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode chime_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) { return curl.easy_getinfo(handle, info, value); }
CURLcode chime_curl_getinfo_string(CURL *handle, CURLINFO info, char **value) { return curl.easy_getinfo(handle, info, value); }
CURLcode chime_curl_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) { return curl.easy_getinfo(handle, info, value); }
CURLcode chime_curl_getinfo_socket(CURL *handle, CURLINFO info, curl_socket_t *value) { return curl.easy_getinfo(handle, info, value); }

CURLMcode chime_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) { return curl.multi_setopt(multi, option, value); }
