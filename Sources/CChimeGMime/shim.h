#ifndef CCHIME_GMIME_SHIM_H
#define CCHIME_GMIME_SHIM_H

#include <gmime/gmime.h>

// GObject's casts and type checks are macros, which Swift cannot call: each one Chime
// needs is a typed inline function here.

static inline GMimeObject *chime_gmime_object(void *pointer) {
    return GMIME_OBJECT(pointer);
}

static inline GMimePart *chime_gmime_part(void *pointer) {
    return GMIME_PART(pointer);
}

static inline GMimeMultipart *chime_gmime_multipart(void *pointer) {
    return GMIME_MULTIPART(pointer);
}

static inline int chime_gmime_is_multipart(void *pointer) {
    return GMIME_IS_MULTIPART(pointer);
}

static inline int chime_gmime_is_part(void *pointer) {
    return GMIME_IS_PART(pointer);
}

static inline GMimeTextPart *chime_gmime_text_part(void *pointer) {
    return GMIME_IS_TEXT_PART(pointer) ? GMIME_TEXT_PART(pointer) : NULL;
}

static inline GMimeStreamMem *chime_gmime_stream_mem(void *pointer) {
    return GMIME_STREAM_MEM(pointer);
}

/// The mailbox an InternetAddress is, or NULL for a group.
static inline InternetAddressMailbox *chime_gmime_mailbox(void *pointer) {
    return INTERNET_ADDRESS_IS_MAILBOX(pointer) ? INTERNET_ADDRESS_MAILBOX(pointer) : NULL;
}

/// Drops a GObject reference.
static inline void chime_gmime_unref(void *pointer) {
    g_object_unref(pointer);
}

/// Frees memory GLib allocated (g_mime_object_to_string's result).
static inline void chime_gmime_free(void *pointer) {
    g_free(pointer);
}

#endif
