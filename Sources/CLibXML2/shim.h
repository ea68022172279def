// libxml2 for FeedXML, the one module that imports it.
#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, and then <libxml/encoding.h> includes ICU's headers, whose
// types clash with the ICU copy inside swift-corelibs-foundation in any module that sees both.
// FeedXML never touches ICU (charsets go through iconv) and only uses xmlCharEncodingHandler by
// pointer, so its ICU fields do not matter here.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/HTMLparser.h>
