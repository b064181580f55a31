#ifndef CCHIME_CURL_H
#define CCHIME_CURL_H

// libcurl, loaded when it is first needed rather than when `chime` starts.
//
// libcurl brings some thirty libraries with it (OpenSSL, GnuTLS, OpenLDAP, Kerberos,
// libssh2…), most of them linked to bind every symbol at load: linked into `chime`, the
// dynamic linker spent about 8 ms of every start on them, a cron tick with nothing to
// send included. Only the commands that send or fetch over the network load it now, on
// their first transfer (`chime --version` too, to name it). The header gives the types
// and constants; every call goes through the `chime_curl_` functions below, which reach
// libcurl through `dlopen` and `dlsym`. No library does this for us: it is a table of
// the twenty-two functions Chime calls.

#include <curl/curl.h>

/// Loads libcurl (`libcurl.so.4`), once per process, whichever thread asks first.
/// Returns NULL when it is loaded, else why it could not be (the dynamic linker's
/// message), for an error naming it. Enough for `chime_curl_version_info`.
const char *chime_curl_load(void);

/// Loads libcurl and runs `curl_global_init`, once per process: what any transfer needs
/// first. Returns NULL when both went well, else why not. The functions below that take
/// a handle or a list may be called only once this returned NULL; those that make one
/// call it themselves.
const char *chime_curl_start(void);

curl_version_info_data *chime_curl_version_info(CURLversion age);

CURL *chime_curl_easy_init(void);
void chime_curl_easy_cleanup(CURL *handle);
void chime_curl_easy_reset(CURL *handle);
CURLcode chime_curl_easy_perform(CURL *handle);
const char *chime_curl_easy_strerror(CURLcode code);
/// On a connection made with CURLOPT_CONNECT_ONLY: write or read bytes as they can go
/// now (CURLE_AGAIN when none can), through TLS when the connection has it.
CURLcode chime_curl_easy_send(CURL *handle, const void *buffer, size_t length, size_t *sent);
CURLcode chime_curl_easy_recv(CURL *handle, void *buffer, size_t length, size_t *received);

struct curl_slist *chime_curl_slist_append(struct curl_slist *list, const char *text);
void chime_curl_slist_free_all(struct curl_slist *list);

CURLM *chime_curl_multi_init(void);
CURLMcode chime_curl_multi_cleanup(CURLM *multi);
CURLMcode chime_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode chime_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode chime_curl_multi_perform(CURLM *multi, int *running);
CURLMcode chime_curl_multi_poll(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout, int *ready);
CURLMcode chime_curl_multi_wakeup(CURLM *multi);
CURLMsg *chime_curl_multi_info_read(CURLM *multi, int *queued);

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, and Swift
// cannot call a C variadic function. Each wrapper below fixes the type of the one
// variadic argument, so every option is set through a typed call; one wrapper per
// argument kind.

/// Options that take a `long` (timeouts, flags such as CURLOPT_NOSIGNAL).
CURLcode chime_curl_setopt_long(CURL *handle, CURLoption option, long value);
/// Options that take a NUL-terminated string; libcurl copies it (since 7.17.0).
CURLcode chime_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
/// Options that take an opaque pointer (CURLOPT_WRITEDATA, CURLOPT_ERRORBUFFER...).
CURLcode chime_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);
/// Options that take a `curl_off_t` (sizes such as CURLOPT_INFILESIZE_LARGE).
CURLcode chime_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
/// Options that take a `struct curl_slist *` (CURLOPT_HTTPHEADER, CURLOPT_MAIL_RCPT).
CURLcode chime_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);

/// CURLOPT_WRITEFUNCTION / CURLOPT_HEADERFUNCTION: receive bytes from the transfer.
typedef size_t (*chime_curl_write_callback)(char *data, size_t size, size_t count, void *context);
CURLcode chime_curl_setopt_write_callback(CURL *handle, CURLoption option, chime_curl_write_callback value);
/// CURLOPT_READFUNCTION: supply bytes to an upload (the SMTP messages of chime-bench's bare
/// libcurl loop, its baseline; Chime speaks SMTP itself, SMTPConnection).
typedef size_t (*chime_curl_read_callback)(char *buffer, size_t size, size_t count, void *context);
CURLcode chime_curl_setopt_read_callback(CURL *handle, CURLoption option, chime_curl_read_callback value);
/// CURLOPT_DEBUGFUNCTION: sees the protocol lines sent and received (with
/// CURLOPT_VERBOSE), which is how an SMTP server's extensions and last reply are known.
typedef int (*chime_curl_debug_callback)(CURL *handle, curl_infotype type, char *data, size_t size, void *context);
CURLcode chime_curl_setopt_debug_callback(CURL *handle, CURLoption option, chime_curl_debug_callback value);

/// Information of type long (CURLINFO_RESPONSE_CODE, CURLINFO_HTTP_VERSION...).
CURLcode chime_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
/// Information of type string (CURLINFO_EFFECTIVE_URL, CURLINFO_CONTENT_TYPE...).
CURLcode chime_curl_getinfo_string(CURL *handle, CURLINFO info, char **value);
/// Information of type curl_off_t (CURLINFO_SIZE_DOWNLOAD_T, CURLINFO_TOTAL_TIME_T...).
CURLcode chime_curl_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value);
/// Information of type curl_socket_t (CURLINFO_ACTIVESOCKET).
CURLcode chime_curl_getinfo_socket(CURL *handle, CURLINFO info, curl_socket_t *value);

/// curl_multi_setopt: options that take a `long` (CURLMOPT_PIPELINING,
/// CURLMOPT_MAX_TOTAL_CONNECTIONS...).
CURLMcode chime_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

#endif
