#ifndef CCHIME_CURL_SHIM_H
#define CCHIME_CURL_SHIM_H

#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, and Swift cannot call a C
// variadic function. Each wrapper below fixes the type of the one variadic argument,
// so every option is set through a typed call; one wrapper per argument kind.

/// Options that take a `long` (timeouts, flags such as CURLOPT_NOSIGNAL).
static inline CURLcode chime_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// Options that take a NUL-terminated string; libcurl copies it (since 7.17.0).
static inline CURLcode chime_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

/// Options that take an opaque pointer (CURLOPT_WRITEDATA, CURLOPT_ERRORBUFFER...).
static inline CURLcode chime_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// Options that take a `curl_off_t` (sizes such as CURLOPT_INFILESIZE_LARGE).
static inline CURLcode chime_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// Options that take a `struct curl_slist *` (CURLOPT_HTTPHEADER, CURLOPT_MAIL_RCPT).
static inline CURLcode chime_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

/// CURLOPT_WRITEFUNCTION / CURLOPT_HEADERFUNCTION: receive bytes from the transfer.
typedef size_t (*chime_curl_write_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode chime_curl_setopt_write_callback(CURL *handle, CURLoption option, chime_curl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}

/// CURLOPT_READFUNCTION: supply bytes to an upload (an SMTP message, a POST body).
typedef size_t (*chime_curl_read_callback)(char *buffer, size_t size, size_t count, void *context);
static inline CURLcode chime_curl_setopt_read_callback(CURL *handle, CURLoption option, chime_curl_read_callback value) {
    return curl_easy_setopt(handle, option, value);
}

/// CURLOPT_DEBUGFUNCTION: sees the protocol lines sent and received (with
/// CURLOPT_VERBOSE), which is how each SMTP RCPT's own reply is known.
typedef int (*chime_curl_debug_callback)(CURL *handle, curl_infotype type, char *data, size_t size, void *context);
static inline CURLcode chime_curl_setopt_debug_callback(CURL *handle, CURLoption option, chime_curl_debug_callback value) {
    return curl_easy_setopt(handle, option, value);
}

/// Information of type long (CURLINFO_RESPONSE_CODE, CURLINFO_HTTP_VERSION...).
static inline CURLcode chime_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// Information of type string (CURLINFO_EFFECTIVE_URL, CURLINFO_CONTENT_TYPE...).
static inline CURLcode chime_curl_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

/// Information of type curl_off_t (CURLINFO_SIZE_DOWNLOAD_T, CURLINFO_TOTAL_TIME_T...).
static inline CURLcode chime_curl_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// curl_multi_setopt is variadic too: options that take a `long` (CURLMOPT_PIPELINING,
/// CURLMOPT_MAX_TOTAL_CONNECTIONS...).
static inline CURLMcode chime_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

#endif
