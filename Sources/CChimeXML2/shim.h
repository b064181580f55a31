#ifndef CCHIME_XML2_SHIM_H
#define CCHIME_XML2_SHIM_H

// libxml2 built with ICU makes <libxml/encoding.h> include <unicode/ucnv.h>, whose
// UErrorCode then clashes with the copy Foundation carries ("'UErrorCode' has
// different definitions in different modules"). Chime never needs libxml2's ICU
// converters, so the flag is dropped before any other libxml2 header is read.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>
#include <libxml/HTMLparser.h>

/// xmlFree is a global function pointer, which Swift 6 refuses as shared mutable state;
/// this gives one fixed function to call instead.
static inline void chime_xml_free(void *pointer) {
    xmlFree(pointer);
}

/// xmlParserVersion is a macro over a per-thread accessor; e.g. "20914" for 2.9.14.
static inline const char *chime_xml_parser_version(void) {
    return xmlParserVersion;
}

#endif
